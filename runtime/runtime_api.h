/*
 * runtime_api.h - the contract between generated module C and the runtime.
 *
 * Generated code may call only what this file declares, and must define what
 * the "provided by generated code" section lists. The translator
 * (compiler/translate/translate.c) and the runtime (runtime/) both follow it.
 *
 * Layout of a generated module (one translation unit, built with
 * -I<runtime dir>):
 *
 *	#define STP_MODULE_NAME "stap_abc"     (always)
 *	#define STP_HAVE_KPROBES 1             (only if the script has kprobes)
 *	#define STP_KPROBES_RETURN 1           (... and one of them is a .return: kretprobes)
 *	#define STP_KPROBES_MODULES 1          (... and one is in a module: the module notifier)
 *	#define STP_KPROBES_WILDCARD 1         (... and one is a wildcard's match: skipped if it cannot attach)
 *	#define STP_KPROBES_CALLEE 1           (... and one is a .callee: each hit checks the caller)
 *	#define STP_KPROBES_CALLERS 1          (... and one is a .callees(N > 1): it walks the stack too)
 *	#define STP_HAVE_TIMERS 1              (only if it has timer probes)
 *	#define STP_HAVE_BEGIN_END 1           (only if it has begin/end/error probes)
 *	#define STP_HAVE_CONDS 1               (only if it has conditional probes)
 *	#define STP_UPROBES_BUILDID 1          (only if a uprobe names its program by build-id: exec is watched)
 *	The runtime compiles out what no define asks for: a define says what the
 *	script uses, so a small script builds only the runtime it needs.
 *	#define STP_HAVE_TRACEPOINTS 1         (only if it has kernel.trace probes)
 *	... -D definitions from the command line come from kbuild ccflags ...
 *	#include "runtime.h"                   (limits, types, this API)
 *	#define STP_FAMILY_DECLS 1, #include "linux/probes/NAME.c" for each runtime file of
 *	    the families the script uses (no other), #undef
 *	<generated: struct context, globals, functions, probe bodies>
 *	<generated: the probe tables listed below; before the uprobe table,
 *	 #define STP_UPROBES_CALLERS 1 if one is a process .callees(N > 1): it walks the user stack>
 *	#include "module_base.c"               (session state, parameters, transport)
 *	#include "linux/probes/NAME.c" again    (those families' code; linux/probes/absent.c
 *	                                        stands in for what the core calls of the others)
 *	#include "module_main.c"               (init/exit, the probe runner, the session)
 */
#ifndef STP_RUNTIME_API_H
#define STP_RUNTIME_API_H

#include "transport_msgs.h"	/* STP_MSG_TEXT_MAX, the size of an error's call chain */

/* ------------------------------------------------------------------ */
/* Limits (runtime.h defines the defaults with #ifndef).               */
/*   MAXACTION      statements one probe hit may execute (1000)        */
/*   MAXNESTING     depth of script function calls (10)                */
/*   MAXSTRINGLEN   bytes in a string including the NUL (128)          */
/*   MAXMAPENTRIES  default capacity of an array (2048)                */
/*   MAXTRYLOCK     attempts to take a global's lock (10000)           */
/*   MAXSKIPPED     skipped hits tolerated before an error (100)       */
/*   MAXBACKTRACE   frames in a kernel or user backtrace (20)          */
/* ------------------------------------------------------------------ */

/* A script string. Always NUL-terminated, truncated to MAXSTRINGLEN-1. */
typedef char string_t[MAXSTRINGLEN];

/* Where tokenize() goes on from, per context (see _stp_tokenize). */
struct _stp_tokenize_state {
	string_t buf;                  /* copy of the string being split */
	size_t pos;                    /* offset of the next token search in buf */
};

/* Value and key types of map slots. */
enum _stp_type { STP_TYPE_LONG = 1, STP_TYPE_STRING = 2, STP_TYPE_STATS = 3 };

/*
 * The runtime's part of the per-CPU context. The generated struct context
 * has it as its first member named "base":
 *
 *	struct context {
 *		struct _stp_context base;
 *		union { struct probe_0_locals {...} probe_0; ... } probe_locals;
 *		union { struct function_f_locals {...} function_f; ... } locals[MAXNESTING + 1];
 *	};
 */
/* The last successful regex match of a probe hit, for matched() and ngroups() (runtime/regex.c). */
#define STP_REGEX_MAX_GROUPS 32          /* as compiler/elaborate/regex.h REGEX_MAX_GROUPS */
#ifndef STP_REGEX_WORK_WORDS
#define STP_REGEX_WORK_WORDS 1           /* generated code defines it: the largest matcher's scratch */
#endif
struct _stp_regex_match {
	int valid;                       /* the latest =~ / !~ of this hit matched */
	int ngroups;                     /* parenthesised groups of its regex */
	int32_t caps[2 * (STP_REGEX_MAX_GROUPS + 1)]; /* start/end of the match and each group, -1 unset */
	char subject[MAXSTRINGLEN];      /* copy of the string matched */
};

/* Call sites a runtime error names ("called from ..."), innermost first; outer ones are counted. */
#ifndef STP_CALL_CHAIN
#define STP_CALL_CHAIN 6
#endif

struct context;
struct _stp_probe;
struct _stp_context {
	int busy;                      /* 1 while a probe runs on this CPU (only this CPU touches it) */
	const char *last_error;        /* set by a failing operation; ends the probe; NULL between hits */
	const char *last_stmt;         /* "operator '/' at t.stp:1:30", for ERROR ... near ...; NULL between hits */
	const char *called_from[STP_CALL_CHAIN]; /* the call sites an error unwound through, innermost first */
	int called_times[STP_CALL_CHAIN]; /* how many calls in a row each one stands for (recursion) */
	int ncalled;                   /* entries of called_from in use; 0 between hits */
	int called_more;               /* calls unwound through past the STP_CALL_CHAIN entries, only counted */
	long actionremaining;          /* MAXACTION budget left for this hit */
	int nesting;                   /* current function call depth; 0 between hits */
	struct pt_regs *regs;          /* registers at the probe, NULL for begin/end/timer (set unless regless) */
	const struct _stp_probe *probe;/* the probe running (set unless regless) */
	void *entry_data;              /* .return probes: values saved at entry (kretprobe instance data), else NULL */
	const unsigned long *probe_args; /* tracepoints: the arguments, in order, else NULL */
	void *hit_data;                /* procfs: the file's text (struct _stp_strbuf *); uprobes: the struct _stp_uprobe (set only there) */
	char error_buf[MAXSTRINGLEN];  /* storage for formatted last_error text */
	char chain_buf[STP_MSG_TEXT_MAX]; /* the call chain of the error being reported: up to STP_MSG_TEXT_MAX (module_main.c) */
	struct _stp_tokenize_state tokenize; /* tokenize()'s position, kept across hits */
	struct _stp_regex_match regex; /* reset (valid = 0) at the start of every hit */
	int32_t regex_work[STP_REGEX_WORK_WORDS]; /* thread lists of the running matcher */
	unsigned long stack_pcs[MAXBACKTRACE]; /* the addresses of one backtrace (linux/services/stack.c) */
	char sym_buf[KSYM_SYMBOL_LEN];   /* one symbol being formatted (linux/services/stack.c) */
};

/* One probe body bound to one probe point. Generated: static const struct _stp_probe _stp_probes[]. */
struct _stp_probe {
	void (*body)(struct context *c); /* generated handler */
	const char *pp;                  /* probe point as resolved, e.g. kprobe.function("x") */
	const char *pn;                  /* pn(): the script-level point, wildcards expanded, aliases not (NULL: pp) */
	const char *location;            /* "t.stp:3:7" of the probe point */
	atomic_t *cond;                  /* probe p if (cond): its flag in _stp_cond_state[], else NULL;
					    the body runs only while it is 1, and providers that
					    can (kprobes) disarm the probe while it is 0 */
	unsigned char quiet;             /* 1: the body (and what it calls) never prints */
	unsigned char regless;           /* 1: ... never reads c->base.regs or c->base.probe */
	unsigned char syscall_args;      /* 1: a system call alias's entry on the wrapper __x64_sys_F(regs):
					    int_arg(n) and friends read the call's arguments, from the
					    user registers at regs (rdi, rsi, rdx, r10, r8, r9) */
};

/* ------------------------------------------------------------------ */
/* Provided by generated code (before including module_main.c)         */
/* ------------------------------------------------------------------ */
/*
 * static const struct _stp_probe _stp_probes[];  // const: a handler that names
 *                                                // _stp_probes[I] calls its body directly
 *
 * #ifdef STP_HAVE_CONDS
 * static atomic_t _stp_cond_state[];                     // one flag per conditional probe
 * static const struct _stp_probe _stp_cond_init_probe;  // sets every flag from the globals;
 *                                                        // run once at start, before registration
 * #endif
 *
 * #ifdef STP_HAVE_BEGIN_END
 * static const struct _stp_be_probe _stp_be_probes[];   // in run order
 * #endif
 * #ifdef STP_HAVE_TIMERS
 * static struct _stp_timer_probe _stp_timer_probes[];
 * #endif
 * #ifdef STP_HAVE_KPROBES
 * static struct _stp_kprobe_probe _stp_kprobe_probes[];
 * #define STP_KPROBE_BODIES(X) X(0, I0) X(1, I1) ...  // optional: for each entry K of
 *     // _stp_kprobe_probes, I is its probe's index in _stp_probes; the runtime then
 *     // gives each kprobe a handler of its own that calls the body directly
 * #endif
 * #ifdef STP_HAVE_TRACEPOINTS
 * static struct _stp_tracepoint_probe _stp_tracepoint_probes[];
 * #endif
 * #ifdef STP_HAVE_PROCFS
 * static struct _stp_procfs_file _stp_procfs_files[];
 * #endif
 * #ifdef STP_HAVE_PERF
 * static struct _stp_perf_probe _stp_perf_probes[];
 * #endif
 * and the table each family's runtime file declares (its STP_FAMILY_DECLS half), e.g.
 * #ifdef STP_HAVE_NETFILTER
 * static struct _stp_netfilter_probe _stp_netfilter_probes[];
 * #endif
 * #ifdef STP_HAVE_PROCESS                               // all three, possibly empty
 * static struct _stp_tf_probe _stp_tf_probes[];
 * static const struct _stp_sdt_site _stp_sdt_sites[];
 * static struct _stp_uprobe _stp_uprobes[];
 * #endif
 *
 * static int _stp_globals_init(void);   // allocate maps, set initial values; -errno on failure
 * static void _stp_globals_free(void);  // release what init allocated (safe after partial init)
 */

/*
 * A probe family's runtime half: runtime/linux/probes/FILE.c defines one as
 * _stp_family_NAME inside its #ifdef STP_HAVE_* block, with STP_FAMILY()
 * when it has neither .missed nor .arm. The generated module
 * names the families its script uses, before including module_main.c:
 *
 *	#define STP_FAMILIES(X) X(timers) X(kprobes)       // in registration order
 *	#define STP_FAMILIES_STOP(X) X(timers) X(kprobes)  // in the order they stop
 *
 * module_main.c registers them in order at START; when one fails (it has
 * rolled its own partial work back and reported the probe point), those
 * before it are unregistered in reverse order and nothing runs.
 */
struct _stp_family {
	const char *name;                /* for messages */
	int (*register_all)(void);       /* START, process context: register every probe; -errno on failure */
	void (*unregister_all)(void);    /* idempotent; safe when nothing or only part was registered */
	u64 (*missed)(void);             /* hits the kernel dropped (counted as skipped), or NULL */
	void (*arm)(void);               /* a probe condition changed: arm or disarm (process context, session mutex held), or NULL */
};

#define STP_FAMILY(NAME, REGISTER, UNREGISTER)                                          \
	static const struct _stp_family _stp_family_##NAME = {                           \
		.name = #NAME, .register_all = (REGISTER), .unregister_all = (UNREGISTER), \
	}

/* begin / end / error probe. */
enum _stp_be_type { STP_BE_BEGIN = 0, STP_BE_END = 1, STP_BE_ERROR = 2 };
struct _stp_be_probe {
	const struct _stp_probe *probe;
	enum _stp_be_type type;
	long priority;                   /* begin(N)/end(N); tables are emitted sorted */
};

/* timer.ms(N) and friends, all converted to a period in nanoseconds; timer.profile. */
struct _stp_timer_probe {
	const struct _stp_probe *probe;
	u64 period_ns;
	u64 randomize_ns;                /* .randomize(M): each period is period_ns +- up to this */
	int profile;                     /* timer.profile: on every CPU, every tick (period_ns 0) or every period_ns */
	struct hrtimer timer;            /* runtime-owned */
};

/*
 * kprobe.function("sym"), kernel.function, kernel.statement and their .return:
 * symbol ("mod:sym" in a module) plus offset. A .return probe that reads
 * values at entry has an entry probe, run by the kretprobe's entry handler
 * with c->base.entry_data pointing at data_size bytes of instance data
 * (zeroed first), which its body then reads back.
 */
struct _stp_kprobe_probe {
	const struct _stp_probe *probe;
	const char *symbol;              /* NULL: .absolute, offset is the address */
	unsigned long offset;            /* bytes past symbol */
	int is_return;
	int optional;                    /* '?': a registration failure is not an error */
	int wildcard;                    /* a wildcard's match: a registration failure is a warning */
	int maxactive;                   /* kretprobe instances, 0 for the kernel's default */
	long callee_return;              /* .callee: runs only if the return address at the entry is the
					    probed address plus this (its call site); 0 for every call */
	const long *callers;             /* .callees(N), N > 1: the N - 1 call sites above (return addresses
					    minus the probed address), innermost first, checked by a stack walk */
	int ncallers;
	const struct _stp_probe *entry;  /* .return: evaluates what the body reads at entry, or NULL */
	size_t data_size;                /* .return with entry: bytes of instance data */
	int registered;                  /* runtime-owned */
	int disarmed;                    /* runtime-owned: disabled while its condition is false */
	unsigned long callee_entry;      /* runtime-owned, .callee: the probed function's entry, which
					    callee_return and callers are relative to (the kprobe may sit
					    past an ENDBR) */
	union {
		struct kprobe kp;
		struct kretprobe rp;
	} u;                             /* runtime-owned */
#ifdef STP_FTRACE
	/* runtime-owned: an entry probe hooked through ftrace instead (kprobes.c) */
	struct ftrace_ops *fops;         /* allocated when hooked */
	int ftrace;                      /* 1: fops is registered, u.kp only resolved the address */
	int resolver;                    /* 1: u.kp (disabled) is still registered */
	atomic_long_t ftrace_missed;     /* hits dropped by ftrace's recursion guard */
#endif
};

/*
 * Entry probes on many kernel functions (a kernel.function wildcard) behind
 * one ftrace_ops (linux/probes/ftrace_multi.c). The compiler emits, sorted by site:
 *
 * static const struct _stp_fentry _stp_fentries[];
 * static const u32 _stp_fentry_hash[1 << STP_FENTRY_HASH_BITS];  // index + 1 into
 *         // _stp_fentries, 0 for none: open addressing on _stp_fentry_slot(site)
 * #define STP_FENTRY_REF_FILTER  // link-time address of ftrace_set_filter_ips
 * #define STP_FENTRY_REF_REGISTER  // and of register_ftrace_function (KASLR offset)
 * #define STP_FENTRY_REGS 1        // some body may read the registers
 * #define STP_FENTRY_RETURN 1      // some row has a .return probe (linux/probes/ftrace_return.c)
 */
struct _stp_fentry {
	unsigned long site;              /* link-time address of the function's ftrace call site */
	const struct _stp_probe *probe;  /* the entry probe, or NULL */
	const char *symbol;              /* the function, for the kprobe fallback */
	int wildcard;                    /* a wildcard's match: a failure to attach is a warning */
	const struct _stp_probe *ret_probe; /* the .return probe, or NULL (STP_FENTRY_RETURN) */
};

/*
 * kernel.trace("name"): found by name among the kernel's tracepoints, or
 * among a module's as it loads. The generated callback takes (void *data,
 * unsigned long args...) and calls _stp_tracepoint_hit(data, args); data is
 * this struct.
 */
struct _stp_tracepoint_probe {
	const struct _stp_probe *probe;
	const char *name;                /* the tracepoint's name */
	const char *module;              /* the module defining it, NULL for vmlinux */
	void *callback;                  /* generated _stp_tracepoint_cb_N */
	struct tracepoint *tp;           /* runtime-owned */
	int registered;                  /* runtime-owned */
};
#ifdef STP_HAVE_TRACEPOINTS
static void _stp_tracepoint_hit(void *data, const unsigned long *args);
#endif

/* stap -t: print each probe's hits and cycles (runtime/linux/services/timing.c); called by the last end probe. */
#ifdef STP_TIMING
static void _stp_timing_report(void);
#endif

/* stap --monitor: one line of the status stapio shows (runtime/linux/services/monitor.c), for the generated globals' lines. */
#ifdef STP_MONITOR
static __printf(1, 2) void _stp_monitor_line(const char *fmt, ...);
#endif

/* input.char / input.line: run with $value each byte / line stapio forwards from its stdin. */
struct _stp_input_probe {
	const struct _stp_probe *probe;
	int line;                        /* 1: input.line, 0: input.char */
};
#ifdef STP_HAVE_INPUT
/* $value of an input probe: the byte or line (see runtime/linux/probes/input.c). */
static char *_stp_input_value(struct _stp_context *c);
#endif

/* stap -G, staprun NAME=VALUE: a scalar global settable at load (runtime/linux/services/global_params.c). */
struct _stp_global_param;

/* procfs("name").read / .write: one file under /proc/systemtap/MODULE. */
struct _stp_procfs_file {
	const char *name;
	unsigned short mode;                   /* permissions: 0400 read, 0200 write, or .umask(N)'s */
	const struct _stp_probe *read_probe;   /* fills $value for a reader; NULL: not readable */
	const struct _stp_probe *write_probe;  /* gets what was written as $value; NULL: not writable */
	size_t maxsize;                        /* .read.maxsize(N): bytes a reader may get; 0: MAXSTRINGLEN-1 */
	struct proc_dir_entry *pde;            /* runtime-owned */
};

/*
 * perf.sw.NAME, perf.hw.NAME, perf.type(T).config(C) [.sample(N) | .hz(N)]: a counter per CPU;
 * with .process one counter on the -c/-x target, with .process("path") one on each task running
 * path; with .counter("NAME") it only counts.
 */
struct _stp_perf_task;
struct _stp_perf_probe {
	const struct _stp_probe *probe;
	u32 type;                        /* PERF_TYPE_HARDWARE, PERF_TYPE_SOFTWARE, ... */
	u64 config;                      /* the event within the type */
	u64 sample_period;               /* events per probe hit; with freq hits a second; 0: counting only */
	int freq;                        /* .hz(N) */
	int task;                        /* .process: on the target task (_stp_target), not per CPU */
	const char *path;                /* .process("path"): a counter on each task running it; or NULL */
	const char *counter;             /* .counter("NAME"), read by @perf("NAME"); NULL: the body runs */
	struct perf_event **events;      /* runtime-owned: one per CPU, by CPU id; or [0] the task's */
	struct _stp_perf_task *tasks;    /* runtime-owned, with path: the tasks counted (perf.c) */
	struct path kpath;               /* runtime-owned, with path: the program, held while registered */
	s64 final;                       /* runtime-owned: a counter's value when the session stopped */
};


/* process[("path") | (PID)].begin, .end, .thread.begin, .thread.end */
enum _stp_tf_kind { STP_TF_BEGIN, STP_TF_END, STP_TF_THREAD_BEGIN, STP_TF_THREAD_END };
struct _stp_tf_probe {
	const struct _stp_probe *probe;
	enum _stp_tf_kind kind;
	const char *path;                /* only processes running this program; NULL: any */
	long pid;                        /* only this process; 0: any */
	struct path kpath;               /* runtime-owned: path, held while registered */
};

/* User registers an SDT operand may name. */
enum _stp_ureg {
	STP_UREG_NONE, STP_UREG_AX, STP_UREG_BX, STP_UREG_CX, STP_UREG_DX, STP_UREG_SI,
	STP_UREG_DI, STP_UREG_BP, STP_UREG_SP, STP_UREG_R8, STP_UREG_R9, STP_UREG_R10,
	STP_UREG_R11, STP_UREG_R12, STP_UREG_R13, STP_UREG_R14, STP_UREG_R15, STP_UREG_IP,
	STP_UREG_X0, STP_UREG_X30 = STP_UREG_X0 + 30,	/* arm64: x0..x30 (sp is STP_UREG_SP) */
};
enum _stp_sdt_kind { STP_SDT_REG, STP_SDT_CONST, STP_SDT_MEM };

/* One SDT marker operand: a register, a constant, or memory at base + index * scale + value. */
struct _stp_sdt_arg {
	int size;                        /* 1, 2, 4 or 8 bytes; negative: signed */
	enum _stp_sdt_kind kind;
	enum _stp_ureg reg;              /* REG: the register; MEM: the base (or NONE) */
	int shift;                       /* REG: 8 for %ah, %bh, %ch, %dh */
	enum _stp_ureg index;            /* MEM: index register or NONE */
	int scale;                       /* MEM: 1, 2, 4 or 8 */
	long long value;                 /* CONST: the value; MEM: the displacement */
	int relocate;                    /* MEM: value is a link-time address: add the load bias */
};

/* One SDT marker site. */
struct _stp_sdt_site {
	const char *provider, *name;
	u64 vaddr;                       /* link-time address of the marker */
	int nargs;
	struct _stp_sdt_arg args[12];
};

/*
 * process("path").function/.statement/.mark/.library(...): one uprobe per
 * site. A .return probe that reads values at the function's entry has an
 * entry probe, run by the uretprobe's entry handler with
 * c->base.entry_data pointing at data_size zeroed bytes that the return
 * handler then gets back (a slot of a fixed pool, see uprobes.c).
 */
struct _stp_uprobe {
	const struct _stp_probe *probe;
	const char *path;                /* the file probed (program or library) */
	u64 offset;                      /* file offset of the instruction */
	u64 vaddr;                       /* its link-time address: hit ip - vaddr is the load bias */
	u64 semaphore;                   /* SDT: file offset of its semaphore, 0 if none */
	int is_return;                   /* .return: a uretprobe */
	int relocatable;                 /* PIE or library: addresses move by the load bias */
	const char *filter_path;         /* .library(): only in processes running this program, or NULL */
	int target_only;                 /* process.function... without a path: only in the -c/-x target and
					    its descendants */
	int pid;                         /* process(PID).function...: only in that process; 0: any */
	const struct _stp_sdt_site *sdt; /* .mark(): the marker, or NULL */
	const char *what;                /* "main", "main+0x1c", "provider:name", for messages */
	const struct _stp_probe *entry;  /* .return: evaluates what the body reads at entry, or NULL */
	size_t data_size;                /* .return with entry: bytes it saves */
	long callee_return;              /* .callee: runs only if the return address at the entry is the
					    probed address plus this; 0 for every call */
	const long *callers;             /* .callees(N), N > 1: the N - 1 call sites above (return addresses
					    minus the probed address), innermost first, checked by a user stack walk */
	int ncallers;
	const char *buildid;             /* process("BUILD-ID"): also on every other program with this build-id
					    that a process execs (uprobes_buildid.c), or NULL */
	struct uprobe_consumer consumer; /* runtime-owned */
	struct _stp_uprobe_reg reg;      /* runtime-owned: what unregistering consumer needs (linux/compat/compat.h) */
	struct path kpath;               /* runtime-owned: path, held while registered */
	struct path filter_kpath;        /* runtime-owned: filter_path, held while registered */
	int registered;                  /* runtime-owned */
};

/* ------------------------------------------------------------------ */
/* Callable from generated code (probe context: never sleeps)          */
/* ------------------------------------------------------------------ */

/*
 * Target variables and the memory tapset functions (linux/services/copy.c). Every
 * access is fault-safe: copy_{from,to}_{kernel,user}_nofault, never an oops.
 * _stp_deref reads size (1/2/4/8) bytes at addr (user: the current process's
 * memory), sign- or zero-extended; on a bad address it returns -EFAULT and,
 * when c is not NULL, sets c's error "kernel read fault at 0x...".
 * _stp_poke writes (guru mode). _stp_bitfield/_stp_truncate narrow values;
 * _stp_float_widen turns a float's bits into the same value's double bits.
 * _stp_tv_append* append to a string_t (pretty printing; "?" if unreadable).
 * _stp_string_or_error copies a string (max bytes, -1: as many as fit) or
 * sets c's error "kernel string copy fault at 0x...".
 */
static int _stp_deref(struct _stp_context *c, unsigned long addr, int size, int is_signed, int user,
		      unsigned long *out);
static int _stp_poke(struct _stp_context *c, unsigned long addr, int size, int user, int64_t value);
static unsigned long _stp_bitfield(unsigned long v, int bit, int bits, int is_signed);
static unsigned long _stp_truncate(unsigned long v, int size, int is_signed);
static unsigned long _stp_float_widen(unsigned long v);
static void _stp_tv_append(char *dst, const char *fmt, ...);
static void _stp_tv_append_string(char *dst, unsigned long addr, long max, int user);
static long _stp_copy_string(char *dst, unsigned long addr, long max, int user);
static int _stp_string_or_error(struct _stp_context *c, char *dst, unsigned long addr, long max, int user);
extern struct task_struct init_task;   /* @var: its address measures the KASLR offset */
/* @var("sym", "module"): the address of data symbol sym of module (kbuild's name) where it
   is loaded now; non-zero (and c's error set, if c) when it is not loaded or has no such symbol. */
static int _stp_module_symbol(struct _stp_context *c, const char *module, const char *sym, unsigned long *out);

/* Errors. Set c->base.last_error (and return) to end the probe with an error;
 * the runtime prints "ERROR: <last_error> near <last_stmt>" and stops the script.
 * _stp_error_fmt formats into c->base.error_buf and sets last_error. */
static void _stp_error_fmt(struct _stp_context *c, const char *fmt, ...);

/* 'next' inside a script function: the function sets last_error to this marker
 * and returns; its callers unwind as for an error (try does not catch it), and
 * the probe's exit clears it, so the probe ends quietly. */
static const char _stp_next_unwind[] __attribute__((unused)) = "next";

/*
 * An error (last_error, with last_stmt already set inside the callee)
 * returns through the call at site: the call chain the error report shows.
 */
static inline void _stp_called_from(struct _stp_context *c, const char *site)
{
	if (c->ncalled && c->called_from[c->ncalled - 1] == site && !c->called_more)
		c->called_times[c->ncalled - 1]++;	/* a recursive call: the same site again */
	else if (c->ncalled < STP_CALL_CHAIN) {
		c->called_from[c->ncalled] = site;
		c->called_times[c->ncalled++] = 1;
	} else
		c->called_more++;
}

/* Output. Text goes to a per-CPU buffer flushed when the probe ends (or when full). */
static void _stp_print(const char *s);                  /* print a NUL-terminated string */
static void _stp_print_char(char ch);
static void _stp_print_bytes(const char *s, size_t n);
static void _stp_print_s64(int64_t v);                  /* decimal, as %lld: printf's plain %d */
static void _stp_print_u64(u64 v);                      /* decimal, as %llu: printf's plain %u */
static void _stp_printf(const char *fmt, ...);          /* kernel vsnprintf format */
/* -D STP_EXECTRACE: "exectrace: FILE:LINE[ in function 'f']" on the output, before each statement runs. */
#define _stp_exectrace(where) _stp_printf("exectrace: %s\n", where)
static void _stp_print_flush(void);                     /* normally called by the runtime */
static void _stp_switch_file(void);                     /* switch_file(): later output to stapio's next file */

/* sprintf: kernel vsnprintf into a string_t, always NUL-terminated. */
static void _stp_snprintf(char *buf, size_t size, const char *fmt, ...);

/*
 * Formatting in pieces: each appends to dst, a string_t (truncated at
 * MAXSTRINGLEN-1 bytes), or to the output when dst is NULL.
 *   _stp_format_cat     kernel vsnprintf format
 *   _stp_format_binary  %b: the low `bytes` (1, 2, 4, 8) bytes of v, host order
 *   _stp_format_memory  %m / %M (hex): len bytes of kernel memory at addr,
 *                       padded to width
 * _stp_format_memory_check says (0 or -EFAULT) whether that memory can be
 * read; generated code checks every %m and %M before writing a format.
 */
static void _stp_format_cat(char *dst, const char *fmt, ...);
static void _stp_format_binary(char *dst, int64_t v, int bytes);
static int _stp_format_memory_check(const char *dst, int64_t addr, int64_t len, int hex);
static void _stp_format_memory(char *dst, int64_t addr, int64_t len, int64_t width, int left, int hex);

/* Strings: bounded copy and concatenation into MAXSTRINGLEN buffers. */
static void _stp_strlcpy(char *dst, const char *src);           /* dst is a string_t */
static void _stp_strlcat(char *dst, const char *src);           /* dst is a string_t */

/*
 * A string longer than a string_t: the $value of a procfs .read.maxsize(N)
 * probe. Generated code stores into it with set and append, which truncate
 * at size bytes and keep len, so building a long text is linear.
 */
struct _stp_strbuf {
	char *text;                      /* NUL-terminated; size + 1 bytes */
	size_t size;                     /* the most bytes of text it holds */
	size_t len;                      /* strlen(text) */
};
static void _stp_strbuf_set(struct _stp_strbuf *b, const char *s);     /* s may not point into b->text */
static void _stp_strbuf_append(struct _stp_strbuf *b, const char *s);  /* s may not point into b->text */

/* The string tapset's helpers; dst is a string_t and may not overlap the inputs
 * unless stated (string.c documents each). */
static void _stp_substr(char *dst, const char *s, int64_t start, int64_t length); /* dst may be s */
static int64_t _stp_strpos(const char *haystack, const char *needle);
static void _stp_str_replace(char *dst, const char *s, const char *needle, const char *with);
static bool _stp_strtol(const char *s, int64_t base, int64_t *out);   /* false: bad base */
static void _stp_text_str(char *dst, const char *s, int64_t len, int quoted);
static void _stp_tokenize(char *dst, const char *input, const char *delim, struct _stp_tokenize_state *st);

/* Control messages to stapio (never sleep, never wake anybody). */
static void _stp_warn(const char *fmt, ...);    /* "WARNING: ..." on stapio's stderr */
static void _stp_request_exit(void);            /* exit(): end probes run, then unload */
static void _stp_system(const char *cmd);       /* system(): stapio runs cmd after the output so far */

#ifdef STP_HAVE_CONDS
/* Conditional probes: store a condition's new value (0 or 1) in its flag. Any context. */
static void _stp_cond_set(atomic_t *flag, int value);
#endif
extern long _stp_target;                        /* target(): -x PID or -c CMD's pid, 0 if none */
extern long _stp_stapio_pid;                    /* stp_pid(): the stapio that sent START */
extern long _stp_namespaces_pid;                /* staprun -N PID: whose namespaces ns_*() use, 0: stapio's */
extern long _stp_tz_gmtoff;                     /* tz_gmtoff(): seconds west of UTC, from staprun */
extern char _stp_tz_name[];                     /* tz_name(): STP_TZ_NAME_MAX bytes, from staprun */
extern long _stp_remote_id;                     /* remote_id(): -1 unless stap --remote */
extern char _stp_remote_uri[];                  /* remote_uri(): "" unless stap --remote */
/* The current task is the loading user's (real and effective uid): --privilege=stapusr's own processes. Any context. */
static bool _stp_myproc(void);

/* Locks for globals: one per global. Bounded: trylock MAXTRYLOCK times, then fail. */
struct _stp_rwlock { atomic_t v; };             /* -1 writer, 0 free, >0 readers */
static void _stp_rwlock_init(struct _stp_rwlock *l);
static int _stp_read_trylock(struct _stp_rwlock *l);   /* 1 on success */
static int _stp_write_trylock(struct _stp_rwlock *l);  /* 1 on success */
static void _stp_read_unlock(struct _stp_rwlock *l);
static void _stp_write_unlock(struct _stp_rwlock *l);
/* When a lock can't be taken the generated handler calls this and returns. */
static void _stp_skip_probe(struct _stp_context *c, const char *why);

#ifdef STP_HAVE_PROCFS
/* $value of a procfs probe: the file's text (at least a string_t's room, .read.maxsize(N): N + 1). */
static char *_stp_procfs_value(struct _stp_context *c);
/* The same as a struct _stp_strbuf: what a .read.maxsize(N) probe stores $value through. */
static struct _stp_strbuf *_stp_procfs_strbuf(struct _stp_context *c);
#endif

/* Target variables of uprobes: at SDT markers $argN (1-based; sets last_error
 * if the operand's memory cannot be read), $$name, $$provider; the load bias
 * of the probed file (0 unless PIE or a library), which turns its link-time
 * addresses into run-time ones; valid where the uprobe hit, not in the
 * return handler (whose variables are read at the entry). regs is
 * c->base.regs, passed so that the translator sees the body reads them
 * (a body that does not is run without setting them: p->regless). The bias
 * is 0 in a module without uprobes (a program's @var read from a kernel probe). */
static unsigned long _stp_uprobe_bias(struct _stp_context *c, const struct pt_regs *regs);
#ifdef STP_HAVE_PROCESS
static int64_t _stp_sdt_arg(struct _stp_context *c, const struct pt_regs *regs, int n);
static const char *_stp_sdt_name(struct _stp_context *c);
static const char *_stp_sdt_provider(struct _stp_context *c);
#endif

/*
 * User-space symbols: with STP_HAVE_USYMS, the generated code defines
 * (compiler/translate/usyms.c) static const struct _stp_umodule _stp_umodules[] and
 * STP_NR_UMODULES, one per program or library it knows (-d, --ldd, the
 * probed programs); linux/services/ustack.c finds a mapping's entry by the name and
 * size of the file mapped.
 */
struct _stp_usym {
	u64 vaddr;                       /* link-time address */
	u64 size;                        /* bytes, 0 if unknown */
	const char *name;
};
struct _stp_useg {
	u64 offset;                      /* PT_LOAD p_offset */
	u64 vaddr;                       /* p_vaddr */
	u64 filesz;                      /* p_filesz */
};
/* One row of a file's unwind table (from its CFI): the rule from vaddr up to the next row. */
enum { STP_UCFA_NONE, STP_UCFA_SP, STP_UCFA_BP };
struct _stp_ucfi {
	u64 vaddr;                       /* link-time address where the rule starts */
	int32_t cfa_offset;              /* CFA = rsp or rbp (cfa_reg) + this */
	uint8_t cfa_reg;                 /* STP_UCFA_SP, _BP, or _NONE: no CFI here (frame pointers) */
	uint8_t outermost;               /* no return address: the stack ends here */
	int16_t bp_offset;               /* the caller's rbp (x29) is at CFA + this; 0: unchanged */
	int16_t ra_offset;               /* the return address is at CFA + this (x86-64: -8); 0: still
					    in the link register (arm64 code that has not saved x30) */
};
/*
 * Kernel source lines: with STP_HAVE_KLINES, the generated code defines
 * (compiler/translate/klines.c) two tables and the file names _stp_kline_files[]
 * they share:
 *  - the full line tables of some functions (those the script probes and
 *    the rest of their files): _stp_kline_funcs[STP_NR_KLINE_FUNCS],
 *    sorted by module, name and size, and the rows _stp_klines[] they
 *    index; a function is found through its kallsyms name, so relocation
 *    (KASLR, module load address) never matters;
 *  - where every function of the kernel's .text starts, by offset from
 *    the first (the table's base): STP_NR_KSTARTS functions, each a u16
 *    distance from the one before in _stp_kstart_deltas[] and a u16 line
 *    in _stp_kstart_lines[]; _stp_kstart_blocks[] give the offset of every
 *    32nd function (or of one too far from the one before), the only
 *    places a search can start; _stp_kstart_runs[] the file of each run
 *    of functions from one file. The offset of sprint_symbol,
 *    STP_KSTART_ANCHOR, gives the base at run time (the kernel moves as
 *    a whole under KASLR).
 */
struct _stp_kline_func {
	const char *module;              /* "kernel" or a module name, as kallsyms shows it */
	const char *name;                /* the function symbol */
	u32 size;                        /* its size (static functions of one name differ in it) */
	u32 first;                       /* its first row in _stp_klines[] */
	u32 nrows;                       /* its rows, by offset */
};
struct _stp_kline {
	u32 offset;                      /* bytes past the function's start */
	u32 line;                        /* the source line from there up to the next row */
	u32 file;                        /* index in _stp_kline_files[] */
};
struct _stp_kstart_block {
	u32 offset;                      /* its first function's offset from the table's base */
	u32 first;                       /* its first function's index */
};
/* A run of functions from one file: its first function's index and the file's, packed. */
#define STP_KSTART_RUN_FILE_BITS 14
#define STP_KSTART_RUN_FIRST(r) ((r) >> STP_KSTART_RUN_FILE_BITS)
#define STP_KSTART_RUN_FILE(r) ((r) & ((1u << STP_KSTART_RUN_FILE_BITS) - 1))

/* One row of a file's line table: the source line from vaddr up to the next row. */
struct _stp_uline {
	u64 vaddr;                       /* link-time address */
	u32 line;                        /* 0: no source line here */
	u32 file;                        /* index in _stp_umodule.files */
};
struct _stp_umodule {
	const char *path;                /* on the target */
	const char *name;                /* its last component: what a mapping's dentry is called */
	long long size;                  /* the file's size, told apart from another of that name */
	const struct _stp_useg *segs;
	int nsegs;
	const struct _stp_usym *syms;    /* sorted by vaddr */
	int nsyms;
	const struct _stp_ucfi *cfi;     /* unwind rules by vaddr */
	int ncfi;                        /* 0: no CFI, frame pointers only */
	const struct _stp_uline *lines;  /* source lines by vaddr (only when the script asks for them) */
	int nlines;                      /* 0: none (no DWARF line table, or not wanted) */
	const char *const *files;        /* source file names, indexed by _stp_uline.file */
};

/* Time. NMI-safe clocks. */
static s64 _stp_gettimeofday_ns(void);

/*
 * Embedded-C function bodies (function f:long (a:long) %{ ... %}). The
 * translator defines these macros around each body (and #undefs them after);
 * they are the whole interface such a body may rely on, besides this file:
 *
 *	STAP_ARG_name          the parameter: int64_t, or a const char * (read only, < MAXSTRINGLEN)
 *	STAP_RETVALUE          the result: int64_t, or a char * to a string_t to fill
 *	STAP_RETURN(v)         set the result and leave (STAP_RETURN() if void)
 *	STAP_ERROR(fmt, ...)   _stp_error_fmt, then leave: the script ends with an error
 *	STAP_PRINTF(fmt, ...)  _stp_printf: kernel vsnprintf format (%lld for longs)
 *	CONTEXT                the struct _stp_context of the running probe
 *
 * Bodies run in probe context: no sleeping, bounded loops, no faulting reads.
 *
 *	STAP_KREAD(lv, ptr)    copy *ptr (kernel memory) into the lvalue lv, fault-safe;
 *	                       a bad address is STAP_ERROR("kernel read fault at 0x...")
 */
#define STAP_KREAD(lv, ptr)                                                            \
	do {                                                                           \
		if (copy_from_kernel_nofault(&(lv), (ptr), sizeof(lv)))                \
			STAP_ERROR("kernel read fault at 0x%016lx", (unsigned long)(ptr)); \
	} while (0)

/* ------------------------------------------------------------------ */
/* Maps (script arrays). Entries are preallocated at init: no allocation */
/* in probe context. Keys: 1..9 long or string; value: long or string.   */
/* ------------------------------------------------------------------ */
union _stp_key {
	int64_t n;                       /* STP_TYPE_LONG */
	const char *s;                   /* STP_TYPE_STRING (copied on insert) */
};
struct _stp_map;
struct _stp_map_node;

/* Process context only (init): max_entries slots, nkeys key types, value type. */
static struct _stp_map *_stp_map_new(unsigned max_entries, unsigned nkeys,
				     const enum _stp_type *key_types,
				     enum _stp_type value_type);
static void _stp_map_free(struct _stp_map *m);

/* Lookup; NULL if absent. */
static struct _stp_map_node *_stp_map_find(struct _stp_map *m, const union _stp_key *keys);
/* Lookup or insert a zero/empty entry; NULL if the map is full. */
static struct _stp_map_node *_stp_map_get(struct _stp_map *m, const union _stp_key *keys);
/* The same for an array of exactly one key of the type named: inlined, no key array. */
static struct _stp_map_node *_stp_map_find_str(struct _stp_map *m, const char *key);
static struct _stp_map_node *_stp_map_find_long(struct _stp_map *m, int64_t key);
static struct _stp_map_node *_stp_map_get_str(struct _stp_map *m, const char *key);
static struct _stp_map_node *_stp_map_get_long(struct _stp_map *m, int64_t key);
static void _stp_map_delete(struct _stp_map *m, const union _stp_key *keys);
/* Wildcards: key i is ignored when bit i of wild is set (delete a[*, k], [*, k] in a). O(n). */
static struct _stp_map_node *_stp_map_find_matching(struct _stp_map *m, const union _stp_key *keys,
						    unsigned wild);
static void _stp_map_delete_matching(struct _stp_map *m, const union _stp_key *keys, unsigned wild);
/* Process context (init): a full map reuses its oldest entry (by insertion) for a new key. */
static void _stp_map_set_wrap(struct _stp_map *m);
static void _stp_map_clear(struct _stp_map *m);
static unsigned _stp_map_size(const struct _stp_map *m);

/* Values and keys of a node. */
static int64_t *_stp_node_long(struct _stp_map_node *n);
static char *_stp_node_str(struct _stp_map_node *n);          /* a string_t */
static int64_t _stp_node_key_long(const struct _stp_map_node *n, unsigned i);
static const char *_stp_node_key_str(const struct _stp_map_node *n, unsigned i);

/* Iteration in insertion order, or after _stp_map_sort in sorted order.
 * column 0 sorts by value, 1..nkeys by that key; dir +1 ascending, -1 descending.
 * Ties keep their previous relative order (stable). Bounded: O(n log n), no allocation. */
static void _stp_map_sort(struct _stp_map *m, unsigned column, int dir);
static struct _stp_map_node *_stp_map_first(struct _stp_map *m);
static struct _stp_map_node *_stp_map_next(struct _stp_map *m, struct _stp_map_node *n);

/* ------------------------------------------------------------------ */
/* Statistics (x <<< v). Every CPU accumulates into its own slot under  */
/* a lock only that CPU's writer and an aggregating reader take, so    */
/* <<< never touches a shared cache line; reading an aggregate merges   */
/* the CPUs' slots. Generic code: runtime/stat.c.                       */
/* ------------------------------------------------------------------ */

/* What a statistics variable keeps besides count/sum/min/max/variance. */
enum _stp_hist_type { STP_HIST_NONE = 0, STP_HIST_LINEAR = 1, STP_HIST_LOG = 2 };
struct _stp_stat_layout {
	enum _stp_hist_type type;        /* histogram kind, or none */
	int64_t lo, hi, step;            /* STP_HIST_LINEAR: @hist_linear(x, lo, hi, step) */
	unsigned int nbuckets;           /* linear: (hi-lo)/step + 3 (under, regular, over); log: 128 */
};
#define STP_HIST_LOG_BUCKETS 128      /* log: bucket 64 holds 0, 64+k holds [2^(k-1), 2^k), 64-k the negatives */
#ifndef HIST_ELISION
#define HIST_ELISION 2                /* empty buckets kept at each end of an elided run; <0: no elision */
#endif

/* One aggregate. sortkey must stay first: a stats map sorts by the value's first 8 bytes. */
struct _stp_stat {
	int64_t sortkey;                 /* scratch: the aggregate a sorted foreach compares */
	int64_t count;                   /* values added */
	int64_t sum;                     /* their sum (wraps like any long) */
	int64_t min, max;                /* meaningful when count > 0 */
	u64 sumsq_lo, sumsq_hi;          /* sum of squares, 128 bits, for an exact variance */
	int64_t buckets[];               /* layout->nbuckets histogram counts */
};

/* Aggregate extractors. */
enum _stp_stat_op {
	STP_STAT_COUNT, STP_STAT_SUM, STP_STAT_MIN, STP_STAT_MAX, STP_STAT_AVG, STP_STAT_VARIANCE,
};

/* Outcome of an operation that locks per-CPU slots. */
enum _stp_stat_status {
	STP_STAT_OK = 0,                 /* done */
	STP_STAT_BUSY = 1,               /* a slot stayed locked (skip the probe hit) */
	STP_STAT_FULL = 2,               /* a map is full (array overflow) */
};

/* The value of op, or an error message ("empty aggregate") and *out untouched. */
static const char *_stp_stat_extract(const struct _stp_stat *st, enum _stp_stat_op op, int64_t *out);
/* Count of histogram bucket index, or an error message when index is out of range. */
static const char *_stp_stat_bucket(const struct _stp_stat *st, const struct _stp_stat_layout *l,
				    int64_t index, int64_t *out);
/* Print the histogram as an ASCII bar chart (header, rows, blank line). */
static void _stp_stat_print_hist(const struct _stp_stat *st, const struct _stp_stat_layout *l);
/* "@count=N @min=N @max=N @sum=N @avg=N": the end-of-script display of a statistic. */
static void _stp_stat_print_summary(const struct _stp_stat *st);

/* A scalar statistics global. new/free in process context only. */
struct _stp_pstat;
static struct _stp_pstat *_stp_pstat_new(const struct _stp_stat_layout *layout);
static void _stp_pstat_free(struct _stp_pstat *p);
static enum _stp_stat_status _stp_pstat_add(struct _stp_pstat *p, int64_t value);
/* Merge every CPU into the global's aggregate; NULL when busy. Caller holds the global's write lock. */
static const struct _stp_stat *_stp_pstat_aggregate(struct _stp_pstat *p);
static enum _stp_stat_status _stp_pstat_clear(struct _stp_pstat *p);

/* A statistics array: one map per CPU, merged into an aggregate map on read. */
struct _stp_pmap;
static struct _stp_pmap *_stp_pmap_new(unsigned max_entries, unsigned nkeys,
				       const enum _stp_type *key_types,
				       const struct _stp_stat_layout *layout);
static void _stp_pmap_free(struct _stp_pmap *pm);
/* global s%: each CPU's part evicts its own oldest key when full; 0 or -ENOMEM. */
static int _stp_pmap_set_wrap(struct _stp_pmap *pm);
static enum _stp_stat_status _stp_pmap_add(struct _stp_pmap *pm, const union _stp_key *keys, int64_t value);
/* One element merged across CPUs (into storage the pmap owns, valid until the next read); *found = 0 if absent. */
static const struct _stp_stat *_stp_pmap_element(struct _stp_pmap *pm, const union _stp_key *keys, int *found);
/* 1 if some CPU has keys, 0 if none, -1 when busy. Needs no write lock. */
static int _stp_pmap_exists(struct _stp_pmap *pm, const union _stp_key *keys);
/* Rebuild the aggregate map (every key of every CPU); NULL with *status BUSY or FULL. Write lock held. */
static struct _stp_map *_stp_pmap_aggregate(struct _stp_pmap *pm, enum _stp_stat_status *status);
/* Bumped by each _stp_pmap_aggregate: a foreach over the aggregate checks it did not change underneath. */
static u64 _stp_pmap_generation(const struct _stp_pmap *pm);
static enum _stp_stat_status _stp_pmap_delete(struct _stp_pmap *pm, const union _stp_key *keys);
static enum _stp_stat_status _stp_pmap_clear(struct _stp_pmap *pm);
/* The statistic of an aggregate map node. */
static struct _stp_stat *_stp_node_stat(struct _stp_map_node *n);
/* Order an aggregate map by op of each element (dir +1/-1), ties in insertion order. */
static void _stp_stat_map_sort(struct _stp_map *agg, enum _stp_stat_op op, int dir);

/* ------------------------------------------------------------------ */
/* Regular expressions. Each =~ literal is compiled by the translator   */
/* into a C function of the module (compiler/elaborate/regex.c):                  */
/*	static int stp_regex_N(const char *s, int32_t *work, int32_t *caps) */
/* which calls _stp_regex_push. runtime/regex.c holds the rest.         */
/* ------------------------------------------------------------------ */

/* Append a thread in state to list l unless already there (mark[state] == gen); its captures, or NULL. */
static int32_t *_stp_regex_push(int32_t *l, int32_t *mark, int32_t gen, int state,
				const int32_t *caps, int ncaps);
/* After a match attempt on s: remember it if it matched, forget the previous one if not. */
static void _stp_regex_record(struct _stp_context *c, const char *s, int matched, int ngroups,
			      const int32_t *caps);
/* matched(n): group n (0 = whole match) of the last match into out (a string_t); or an error message. */
static const char *_stp_regex_matched(struct _stp_context *c, int64_t n, char *out);
/* ngroups(): the last match's group count; or an error message. */
static const char *_stp_regex_ngroups(struct _stp_context *c, int64_t *out);

#endif
