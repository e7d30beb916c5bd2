/*
 * families.h - the runtime files of the probe families, one row each, in
 * the order they are included (a file may use those above it: modules.c
 * the kprobes, uprobes.c the task finder). A new family is one row here
 * and one in compiler/probes/families.def.
 *
 * This list is included twice. From runtime.h, before the generated code,
 * with STP_FAMILY_DECLS defined: each file gives what the generated code
 * needs (its table's element type, kernel headers). From module_main.c,
 * after the generated code, without it: each file gives its code and its
 * struct _stp_family _stp_family_NAME (runtime_api.h). A file is
 *
 *	#ifdef STP_FAMILY_DECLS
 *	#ifdef STP_HAVE_NAME  ...declarations...  #endif
 *	#else
 *	#ifdef STP_HAVE_NAME  ...code...  #endif
 *	#endif
 */
#include "linux/begin_end.c"
#include "linux/timers.c"
#include "linux/kprobes.c"
#include "linux/modules.c"
#include "linux/tracepoints.c"
#include "linux/procfs.c"
#include "linux/task_finder.c"
#include "linux/uprobes.c"
#include "linux/perf.c"
#include "linux/input.c"
#include "linux/netfilter.c"
#include "linux/hwbkpt.c"
#include "linux/process_syscall.c"
