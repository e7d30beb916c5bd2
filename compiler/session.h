/* session.h - options and the whole script as the passes see it. */
#ifndef STAPC_SESSION_H
#define STAPC_SESSION_H

#include <sys/types.h>

#include "ast.h"

/* Exit codes of stap (documented in docs/stap.md). */
enum stap_exit {
	STAP_EXIT_OK = 0,       /* success, or the script's own exit */
	STAP_EXIT_FAILURE = 1,  /* a pass failed, or the script ended with an error */
	STAP_EXIT_USAGE = 2,    /* bad command line */
};

/* What --dump-* lists instead of running a script. */
enum stap_dump {
	STAP_DUMP_NONE = 0,      /* run the script */
	STAP_DUMP_PROBE_TYPES,   /* --dump-probe-types: the probe point patterns the providers accept */
	STAP_DUMP_FUNCTIONS,     /* --dump-functions: every tapset function with its signature */
	STAP_DUMP_PROBE_ALIASES, /* --dump-probe-aliases: every tapset probe alias */
	STAP_DUMP_KFEATURES,     /* --dump-kfeatures: the kernel features detected for -r (build/kfeatures.c) */
};

/* --privilege: what the module may do (privilege.c); stapdev, the default, is root's. */
enum stap_privilege {
	PRIV_STAPDEV = 0,  /* anything */
	PRIV_STAPSYS,      /* every probe point; no guru mode, no embedded C in the script */
	PRIV_STAPUSR,      /* begin/end/error/never/timer/process probes, unprivileged tapset functions */
};
const char *privilege_name(int level);               /* "stapusr" for PRIV_STAPUSR */
bool privilege_parse(const char *text, int *level);  /* false if text names no level */

/* The SystemTap language version stapc implements: systemtap_v in %( %) conditions. */
#define STAPC_LANGUAGE_VERSION "5.0"

/* A -D NAME=VALUE definition passed to the module build. */
struct define {
	const char *name;
	const char *value; /* may be NULL for -D NAME */
};

struct session {
	/* command line */
	int last_pass;            /* -p N: stop after pass N (5 = run) */
	int verbose;              /* -v count */
	bool keep_tmpdir;         /* -k */
	bool suppress_warnings;   /* -w */
	bool warnings_as_errors;  /* -W */
	bool guru;                /* -g */
	bool unoptimized;         /* -u */
	const char *module_name;  /* -m NAME, or generated */
	const char *release;      /* -r RELEASE: kernel release */
	const char *kernel_build; /* build tree: -r DIR, or /lib/modules/R/build */
	const char *output_file;  /* -o FILE */
	const char *target_cmd;   /* -c CMD */
	long target_pid;          /* -x PID, 0 if none */
	long namespaces_pid;      /* --target-namespaces=PID (staprun -N), 0 if none */
	int buffer_mb;            /* -s MB, 0 = default */
	const char *remote;       /* --remote=qemu[:RELEASE] as the only target, NULL otherwise */
	struct vec remotes;       /* of const char *: every --remote URL, in order (remote_ssh.c) */
	bool remote_prefix;       /* --remote-prefix: "N: " before each line of target N */
	int remote_jobs;          /* --remote-jobs N: targets connected and started at once */
	const char *remote_build_dir; /* --remote-build-dir (internal): -p4 leaves NAME.ko there */
	int argc;                 /* the command line, rc file's options included: a fleet's builds reuse it */
	char **argv;
	const char *compatible;   /* --compatible=VERSION: systemtap_v, NULL for the default */
	bool check_version;       /* --check-version: warn where code depends on systemtap_v */
	bool disable_cache;       /* --disable-cache: neither use nor fill the module cache */
	const char *debuginfo_mode; /* --debuginfo=auto|btf|dwarf, NULL: $STAPC_DEBUGINFO or auto */
	bool list_probes;         /* -l PATTERN / -L PATTERN: list matching probe points */
	bool list_vars;           /* -L: with their target variables */
	const char *sysroot;      /* --sysroot: the target's root on this machine, NULL for / */
	const struct arch *arch;  /* -a ARCH (arch.h): the target's architecture, NULL for this machine's */
	const char *kernel_root;  /* where the target kernel's /boot and /lib/modules are here: "" for /, arch_root() for -a */
	struct vec defines;       /* of struct define * (-D) */
	struct vec include_dirs;  /* of const char * (-I), searched before the tapset dir */
	struct vec script_args;   /* of const char *: arguments after the script */
	struct vec user_modules;  /* of const char *: -d PATH, target paths of programs and libraries */
	bool ldd;                 /* --ldd: also the libraries those and the probed programs need */
	bool user_callers;        /* a process .callees(N), N > 1: its walk wants the user unwind tables (pass 2 sets it, usyms.c) */
	struct vec global_params; /* of const char *: -G NAME=VALUE, module parameters at load */
	struct vec make_args;     /* of const char *: -B NAME=VALUE, arguments of kbuild's make */
	bool timing;              /* -t: per-probe hit counts and cycles, reported at the end */
	int monitor;              /* --monitor[=INTERVAL]: its interval in seconds (staprun -M), 0 without */
	bool bulk;                /* -b: bulk mode, one output file per CPU */
	const char *rotate;       /* -S SIZE[,N]: rotate -o's file at SIZE MiB, keep N files */
	bool flight_recorder;     /* -F: start the probes and detach (staprun -L, or -D with -o) */
	int prologue_searching;   /* --prologue-searching / -P: an enum dbg_prologue_mode */
	bool skip_badvars;        /* --skip-badvars: a target variable that cannot be read here reads as 0 */
	bool semantic_keep_going; /* --semantic-keep-going: pass 2 runs every step, then lists every error */
	bool debug_build;         /* --debug: the module with -g, the build directory kept, pahole's report */
	bool adapt;               /* --adapt: what the target no longer has is replaced by a unique suggestion */
	struct vec adapted;       /* of struct node *: target expressions --adapt rewrote (warned once each) */
	bool suppress_handler_errors; /* --suppress-handler-errors: a failing hit is counted, not fatal */
	bool suppress_time_limits;    /* --suppress-time-limits: MAXACTION/MAXTRYLOCK raised (guru) */
	int dump;                 /* --dump-probe-types/-functions/-probe-aliases: a enum stap_dump */
	bool language_server;     /* --language-server: serve LSP on stdin/stdout (lsp/lsp.c) */
	struct vec extra_scripts; /* of const char *: -E SCRIPT texts, parsed after the script (then -T's probe) */
	long timeout_s;           /* -T SECONDS: the script exits after that long; 0 = none */
	int verbose_pass[5];      /* --vp ABCDE: verbosity added to pass 1..5 alone */
	const char *tmpdir_base;  /* --tmpdir DIR: where pass 4's directory is made, NULL for $TMPDIR */
	const char *build_as;     /* --build-as=USER: passes 1-4 in a child running as USER (build_as.c), or NULL */
	bool poison_cache;        /* --poison-cache: never read the module cache, still fill it */
	bool clean_cache;         /* --clean-cache: trim the module cache, then exit */
	const char *colors;       /* diagnostics' SGR colors (--color, $SYSTEMTAP_COLORS); NULL: none */
	int privilege;            /* --privilege=LEVEL / --unprivileged: an enum stap_privilege */
	bool privilege_given;     /* --privilege or --unprivileged was on the command line */
	bool sign_module;         /* --sign-module: sign the module with a MOK after pass 4 (sign.c) */
	const char *sign_key_dir; /* --sign-module=DIR: where the key pair is, NULL for the default */
	const char *use_server;   /* --use-server[=SPEC]: passes 1-4 on a stapc-server ("" for the default), or NULL */
	bool use_server_auto;     /* --use-server added by privilege_configure for a stapusr member (man stap) */

	/* locations of the installed or build-tree data */
	const char *tapset_dir;   /* tapset/ */
	const char *runtime_dir;  /* runtime/ */
	const char *bin_dir;      /* where staprun, stapio, stapvm live */

	/* the script */
	const char *script_path;  /* file name, or "<input>" for -e */
	const char *script_text;  /* its contents */
	struct ast_file *script;  /* parsed script (pass 1) */
	struct vec tapset_files;  /* of struct ast_file *: loaded tapsets (pass 2) */
	int tapset_files_joined;  /* resolve.c: how many of them have had their globals added */

	/* the elaborated program (pass 2) */
	struct vec globals;       /* of struct global *, script then tapsets used */
	struct strmap globals_by_name; /* name -> struct vec of struct global *: s->globals by name */
	struct vec functions;     /* of struct function *, those reachable */
	struct vec probes;        /* of struct probe *, with resolved points */
	struct vec resolved;      /* of struct resolved_probe * (probes.h) */
	struct vec embedded;      /* of const char *: top-level %{ %} in use */

	/*
	 * What the passes keep between calls, each in its module's own struct
	 * (declared in that .c file, made on first use): nothing of one
	 * script's compile lives outside its session.
	 */
	struct diag_state *diag;            /* diag.c: sources, counts, expansion stack, output */
	struct preprocess_state *preprocess; /* preprocess.c: *.stpm macros, script arguments used */
	struct tapset_state *tapset;        /* tapset.c: the library's files and name tables */
	struct alias_index *aliases;        /* probes.c: probe alias names by component */
	struct syscalls_state *syscalls;    /* syscalls.c: the syscall table and generated aliases */
	struct regex_state *regex;          /* regex_use.c: the matchers the script uses */
	struct types_state *types;          /* types.c: parsed formats, locations reported */
	struct tracepoint_state *tracepoints; /* probes/tracepoint.c: events read from the headers */
	struct uprobe_state *uprobes;       /* probes/uprobe.c: user files by host path */
	struct kernel_files *kernel_files;  /* debuginfo/kernel.c: the target kernel's files opened */
	struct resolved_probe *timing_report; /* translate.c: -t's report probe, or NULL */

	/* build products */
	const char *tmpdir;       /* pass-4 working directory */
	const char *c_file;       /* pass-3 output path */
	const char *ko_path;      /* pass-4 output path */
};

/*
 * session.c: what the stap process does for the session around the passes.
 * A temporary directory for passes 3-5, made on first use and removed at exit
 * unless -k; NULL after a message.
 */
const char *session_tmpdir(struct session *s);
/* Make dir (made by another process: --build-as) s's temporary directory, removed at exit. */
void session_adopt_tmpdir(struct session *s, const char *dir);
/* Remove a directory tree (a temporary directory). */
void session_remove_tree(const char *path);
/*
 * Stop signals during passes 1-4: SIGINT, SIGTERM, SIGHUP and SIGPIPE (a
 * closed stdout) are caught (without SA_RESTART, so a blocking wait returns
 * EINTR): the pass in progress ends, no module is written, the temporary
 * directory is removed and stap exits 1. session_stop_signal() is the signal
 * caught, or 0. A child (the kernel build) goes in a process group of its
 * own, named with session_watch_child(): a stop signal stops that whole
 * group, so no make or gcc outlives stap. That group's leader is a watcher
 * (build.c) with PR_SET_PDEATHSIG: a stap killed by SIGKILL stops the group
 * through it. Pass 5 hands the signals on to the session (run.c).
 */
void session_catch_stop_signals(void);
int session_stop_signal(void);
void session_watch_child(pid_t pgid);
/*
 * The parent's half of running a child that stop signals must reach: put
 * pid in its own process group, watch it, wait for it (through EINTR) and
 * stop watching. Its wait status in *status; false if waiting failed.
 */
bool session_wait_child(pid_t pid, int *status);

/* In a forked child: run argv (PATH searched) with stdout and stderr into log (truncated); never returns. */
_Noreturn void session_exec_logged(char *const argv[], const char *log);

#endif
