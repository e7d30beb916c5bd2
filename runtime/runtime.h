/* runtime.h - the one header generated modules include: kernel headers, limits, the runtime API and its generic half. */
#ifndef STP_RUNTIME_H
#define STP_RUNTIME_H

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <linux/sched.h>
#include <linux/hrtimer.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/timekeeping.h>
#include <linux/processor.h>
#include <linux/delay.h>
#include <linux/uaccess.h>
#include <linux/cpumask.h>
#include <linux/kallsyms.h>
/* LINUX_VERSION_CODE and KERNEL_VERSION() for embedded C, as scripts expect them defined. */
#include <linux/version.h>

/*
 * Entry probes on ftrace sites hook ftrace directly (linux/probes/kprobes.c),
 * where the kernel can, unless -D STP_NO_FTRACE. Only with the per-probe
 * handlers of STP_KPROBE_BODIES.
 */
/* what this kernel offers (the compat layer's answers, linux/compat/compat.h): the ftrace hook needs two */
#include "stp_kfeatures.h"
#if defined(STP_HAVE_KPROBES) && defined(STP_HAVE_KPROBE_BODIES) && \
	defined(CONFIG_DYNAMIC_FTRACE) && defined(CONFIG_KPROBES_ON_FTRACE) && !defined(STP_NO_FTRACE) && \
	defined(STP_HAVE_TRACE_RECURSION_H) && defined(STP_HAVE_FTRACE_REGS)
#define STP_FTRACE 1
#include <linux/ftrace.h>
#include <linux/trace_recursion.h>
#ifndef STP_FTRACE_MAX
#define STP_FTRACE_MAX 8	/* entry probes hooked through ftrace; the others use kprobes */
#endif
#endif
#include <linux/smp.h>
#include <linux/path.h>
#include <linux/uprobes.h>
/* the compat layer: what this kernel offers (stp_kfeatures.h) and the wrappers over it */
#include "linux/compat/compat.h"

/* Limits; a script or the command line (-D) may override any of them. */
#ifndef MAXACTION
#define MAXACTION 1000		/* statements one probe hit may execute */
#endif
#ifndef MAXNESTING
#define MAXNESTING 10		/* depth of script function calls */
#endif
#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 128	/* bytes in a string, including the NUL */
#endif
#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048	/* default capacity of an array */
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 10000	/* attempts to take a global's lock (about 10 ms: see lock.c) */
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100		/* skipped probe hits tolerated before an error */
#endif
#ifndef MAXBACKTRACE
#define MAXBACKTRACE 20		/* frames in a kernel or user backtrace */
#endif
#ifndef STP_TRYLOCK_DELAY_NS
#define STP_TRYLOCK_DELAY_NS 1000	/* busy wait between two attempts at a lock */
#endif
#ifndef STP_PRINT_BUF_SIZE
#define STP_PRINT_BUF_SIZE 8192	/* bytes of output one CPU buffers before a flush */
#endif

#if MAXSTRINGLEN < 2
#error "MAXSTRINGLEN must be at least 2"
#endif

#include "transport_msgs.h"
#include "runtime_api.h"
#include "linux/compat/arch.h"

/*
 * Generated code uses only part of the runtime, so many of the static
 * functions below go unused in any one module; that is expected and must
 * not drown real warnings in the generated code, which stays checked.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#include "lock.c"
#include "string.c"
#include "map.c"
#include "print.c"
#include "format.c"
#include "stat.c"
#include "regex.c"
#include "linux/services/global_params.c"
#pragma GCC diagnostic pop

#endif
