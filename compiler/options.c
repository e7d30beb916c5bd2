/* options.c - the stap command line: $SYSTEMTAP_DIR/rc, then argv, in GNU order, into a session. */

/*
 * SystemTap reads its options in GNU order: `stap script.stp -T 1 -c CMD` is
 * the same as `stap -T 1 -c CMD script.stp`, and only "--" ends the options
 * (a script argument like "-1" goes after it). getopt_long runs with a
 * leading '-' in its option string, which hands back each operand where it
 * stands (even under POSIXLY_CORRECT); the operands are kept in order and
 * sorted out at the end: the first is the script file unless -e, -l/-L or a
 * --dump option gave the script, the rest are its arguments.
 *
 * Options come from $SYSTEMTAP_DIR/rc first (one or more a line, split at
 * blanks and quotes like a shell does: wordexp(3) without command
 * substitution or undefined variables), then from the
 * command line, so the command line wins where an option takes one value.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <wordexp.h>

#include "arch.h"
#include "diag.h"
#include "debuginfo/debuginfo.h"
#include "debuginfo/kernel.h"
#include "options.h"
#include "run.h"
#include "privilege.h"
#include "remote.h"
#include "use_server.h"

/* What the command line gives before it becomes the session. */
struct cmdline {
	const char *script_text;  /* -e SCRIPT, or -l/-L's "probe PATTERN {}" */
	const char *kernel_arg;   /* -r, $SYSTEMTAP_RELEASE or --remote=qemu:RELEASE */
	bool kernel_given;        /* -r was given (it beats --remote's release) */
	const char *color_when;   /* --color's WHEN: "always", "never" or "auto" */
	bool example;             /* --example: the script is an example's name */
	struct vec operands;      /* of const char *: the words that are not options, in order */
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: stap [OPTIONS] SCRIPT.stp [ARGS...] [OPTIONS]\n"
		"       stap [OPTIONS] -e 'SCRIPT' [ARGS...]\n"
		"Options may come before and after the script; \"--\" ends them (then ARGS may start with '-').\n"
		"Options in $SYSTEMTAP_DIR/rc (default ~/.systemtap/rc) are read first.\n"
		"\n"
		"Passes: 1 parse, 2 elaborate, 3 translate to C, 4 build the module, 5 run it.\n"
		"\n"
		"  -p N          stop after pass N (1-5) and print its result\n"
		"  -e SCRIPT     run SCRIPT given on the command line\n"
		"  -E SCRIPT     run SCRIPT too, besides the main script (repeatable; also with -l/-L)\n"
		"  -T SECONDS    exit the script after SECONDS (the end probes run)\n"
		"  -v            print one line per pass with its time and memory (repeat for more)\n"
		"  --vp ABCDE    add A to pass 1's verbosity, B to pass 2's, ... (e.g. --vp 0002)\n"
		"  -k            keep the temporary build directory and print its path\n"
		"  --tmpdir DIR  make the temporary build directory in DIR (default $TMPDIR or /tmp)\n"
		"  --build-as=USER  run passes 1-4 as USER (as root; pass 5 loads as root)\n"
		"  -m NAME       name the module NAME (default stap_<hash>)\n"
		"  -r RELEASE    build for kernel RELEASE (/lib/modules/RELEASE/build; $SYSTEMTAP_RELEASE)\n"
		"  -r DIR        build against the kernel build tree DIR\n"
		"  -R DIR        take the runtime sources from DIR ($SYSTEMTAP_RUNTIME)\n"
		"  -o FILE       send the script's output to FILE (strftime %%-specifiers are expanded)\n"
		"  -c CMD        run CMD; target() is its pid; the script ends when it exits\n"
		"  -x PID        set target() to PID\n"
		"  -s MB         per-CPU output buffer size in MiB\n"
		"  -D NAME=VAL   define a limit for the module (MAXACTION, MAXSTRINGLEN, ...)\n"
		"  -I DIR        look for tapset files in DIR too ($SYSTEMTAP_TAPSET replaces the default)\n"
		"  -g            guru mode: allow embedded C in the script\n"
		"  -u            unoptimized: no constant folding, no dead code or unused code removal\n"
		"  -w            suppress warnings\n"
		"  --compatible=VERSION\n"
		"                the SystemTap version systemtap_v reports in %%( %%) conditions\n"
		"  --check-version\n"
		"                warn at each systemtap_v test: that code depends on the version\n"
		"  -W            treat warnings as errors\n"
		"  --color[=WHEN], --colour[=WHEN]\n"
		"                color diagnostics: always (the default WHEN), never or auto (the default:\n"
		"                on a terminal); colors from $SYSTEMTAP_COLORS\n"
		"  --disable-cache\n"
		"                always run kbuild; neither use nor fill the module cache\n"
		"  --poison-cache\n"
		"                do not use the module cache, but fill it\n"
		"  --clean-cache trim the module cache to its size limit, then exit\n"
		"  -l PATTERN    list the probe points matching PATTERN (e.g. 'kernel.function(\"vfs_*\")')\n"
		"  -L PATTERN    the same, with their target variables and types\n"
		"  --debuginfo=auto|btf|dwarf\n"
		"                where kernel types and variables come from (default auto: DWARF\n"
		"                when linux-image-RELEASE-dbg is installed, else BTF; $STAPC_DEBUGINFO)\n"
		"  --sysroot=DIR the target's file system is at DIR on this machine: process(\"/bin/x\")\n"
		"                reads DIR/bin/x here and probes /bin/x on the target\n"
		"  -d PATH       take symbols of the program or library PATH (a target path) for the\n"
		"                user-space backtrace and symbol functions (ubacktrace, usymname...)\n"
		"  --ldd         the same for the shared libraries that those and the probed programs need\n"
		"  --all-modules accepted for compatibility: kernel module symbols come from kallsyms\n"
		"  -G NAME=VALUE set the script's global NAME to VALUE when the module loads\n"
		"  -B NAME=VALUE pass NAME=VALUE to kbuild's make\n"
		"  -a ARCH       build for the architecture ARCH (x86_64, arm64) with its cross compiler;\n"
		"                -r RELEASE is looked for in /var/lib/stapc/ARCH/root ($STAPC_ARCH_ROOT)\n"
		"  -t            report each probe's hits and cycles (min/avg/max) at the end\n"
		"  --monitor[=INTERVAL]  show the module's status and each probe's hits every\n"
		"                INTERVAL seconds (default 1); keys c s t r p x Tab (staprun -M)\n"
		"  -b            bulk mode: one output file per CPU (-o FILE: FILE_CPU, else stpd_cpuCPU)\n"
		"  -S SIZE[,N]   with -o FILE: write FILE.0, FILE.1... of SIZE MiB each, keep the last N\n"
		"                (with -b: FILE_CPU.0, FILE_CPU.1... for each CPU)\n"
		"  -F            flight recorder: start the probes and detach (reattach: staprun -A NAME);\n"
		"                with -o, staprun runs in the background and prints its pid\n"
		"  -P            the same as --prologue-searching=always\n"
		"  --prologue-searching[=always|never|auto]\n"
		"                whether process.function probes go after the prologue (default auto)\n"
		"  --skip-badvars a target variable that cannot be read at a probe point reads as 0 (or \"\"),\n"
		"                with a warning, instead of being an error\n"
		"  --debug       build the module with full debug information (-g), keep the build\n"
		"                directory (named on stderr) and run pahole on the module if installed\n"
		"  --semantic-keep-going\n"
		"                pass 2 goes on after an error, then lists every error it found,\n"
		"                one a line: FILE, LINE, COLUMN, MESSAGE separated by tabs\n"
		"  --example     the script is the name of an example script (NAME or NAME.stp), looked for\n"
		"                in stapc's examples and SystemTap's (/usr/share/doc/systemtap*/examples)\n"
		"  --adapt       (stapc's own) a member, function or parameter the target kernel no longer\n"
		"                has is replaced by what it has instead when that is unique, with a warning\n"
		"                showing the rewrite ($bio->bi_size: $bio->bi_iter->bi_size)\n"
		"  --suppress-handler-errors\n"
		"                a probe hit that fails is counted and dropped; the script goes on\n"
		"  --suppress-time-limits\n"
		"                raise MAXACTION and MAXTRYLOCK to 1000000 (needs -g)\n"
		"  --language-server\n"
		"                serve the Language Server Protocol on stdin/stdout for an editor: diagnostics,\n"
		"                completion, hover, go to definition (the other options say how scripts are\n"
		"                compiled: -r, -I, -D, -g, -W...)\n"
		"  --dump-probe-types\n"
		"                list the probe point patterns stap accepts\n"
		"  --dump-functions\n"
		"                list the tapset functions with their signatures\n"
		"  --dump-probe-aliases\n"
		"                list the tapset probe aliases\n"
		"  --dump-kfeatures\n"
		"                print the kernel features detected for -r (stp_kfeatures.h)\n"
		"  --sign-module[=DIR]\n"
		"                sign the module with a Machine Owner Key (Secure Boot)\n"
		"  --use-server[=unix:PATH|HOST:PORT]\n"
		"                compile on a stapc-server; --trust-servers=[signer,]HOST:PORT trusts one,\n"
		"                --list-servers lists them\n"
		"  --privilege[=stapusr|stapsys|stapdev], --unprivileged\n"
		"                check the script against that privilege level (default stapusr)\n"
		"  --remote=qemu[:RELEASE]\n"
		"                run pass 5 in a disposable QEMU guest booting kernel RELEASE\n"
		"  -V, --version print the version and the enabled features (on stderr)\n"
		"  -h, --help    print this help\n");
}

/* -V: SystemTap's form, on stderr: the version line (the language version, then stapc's), features. */
static void print_version(void)
{
	fprintf(stderr,
		"Systemtap translator/driver (version %s/stapc %s, stapc)\n"
		"This is free software; see the source for copying conditions.\n"
		"tested kernel versions: 6.1\n"
		"enabled features: BTF DWARF KPROBES UPROBES TRACEPOINTS PERF PROCFS NETFILTER REMOTE_QEMU\n",
		STAPC_LANGUAGE_VERSION, STAPC_VERSION);
}

const char *options_exe_dir(void)
{
	char *buf = ast_alloc(PATH_MAX);
	ssize_t n = readlink("/proc/self/exe", buf, PATH_MAX - 1);
	if (n <= 0)
		return ".";
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return buf;
}

static bool is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The whole of path ("-": stdin), NUL-terminated; NULL with errno set if it cannot be read. */
static char *read_file(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (cap - len - 1 == 0) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	/* A directory opens but cannot be read (EISDIR): an error, not an empty script. */
	int read_error = ferror(f) ? errno : 0;
	if (f != stdin)
		fclose(f);
	if (read_error) {
		free(buf);
		errno = read_error;
		return NULL;
	}
	if (!buf) {
		fprintf(stderr, "stap: out of memory reading %s\n", path);
		exit(STAP_EXIT_FAILURE);
	}
	buf[len] = '\0';
	return buf;
}

/* -r RELEASE or -r DIR: set release and build tree. */
/* The architecture a build tree is for, from its include/config/auto.conf (NULL if unknown). */
static const struct arch *tree_arch(const char *tree)
{
	char *conf = read_file(ast_printf("%s/include/config/auto.conf", tree));
	if (!conf)
		return NULL;
	for (const char *name = "x86_64"; name; name = strcmp(name, "x86_64") ? NULL : "arm64") {
		const struct arch *a = arch_find(name);
		if (strstr(conf, ast_printf("\n%s=y\n", a->config)))
			return a;
	}
	return NULL;
}

/*
 * Another architecture's kernel (-a, or a build tree that says so): -r
 * RELEASE is /lib/modules/R/build when that is a tree of the architecture,
 * else ROOT/usr/src/linux-headers-R; with no -r, the release unpacked under
 * ROOT/lib/modules. The kernel's /boot and /lib/modules are under ROOT
 * (arch_root), and kbuild gets ARCH= and CROSS_COMPILE= unless -B gave them.
 */
static void set_cross_kernel(struct session *s, const char *arg)
{
	const char *root = arch_root(s->arch);
	if (arg && strchr(arg, '/')) {
		const char *base = strrchr(arg, '/') + 1, *src = strstr(arg, "/usr/src/linux-headers-");
		if (!strncmp(base, "linux-headers-", 14))
			s->release = base + 14;	/* Debian's headers name 6.1.192 in kernel.release */
		if (src && !strchr(src + 23, '/'))
			root = ast_strndup(arg, (size_t)(src - arg));
	} else {
		if (!arg) {
			DIR *d = opendir(ast_printf("%s/lib/modules", root));
			struct dirent *e;
			while (d && (e = readdir(d)))
				if (e->d_name[0] != '.')
					arg = ast_strdup(e->d_name);
			if (d)
				closedir(d);
		}
		s->release = arg ? arg : "unknown";
		const char *tree = ast_printf("/lib/modules/%s/build", s->release);
		s->kernel_build = tree_arch(tree) == s->arch ? tree
			: ast_printf("%s/usr/src/linux-headers-%s", root, s->release);
	}
	s->kernel_root = root;
	bool has_arch = false, has_cross = false;
	for (int i = 0; i < s->make_args.n; i++) {
		has_arch |= !strncmp(s->make_args.items[i], "ARCH=", 5);
		has_cross |= !strncmp(s->make_args.items[i], "CROSS_COMPILE=", 14);
	}
	if (!has_arch)
		vec_push(&s->make_args, ast_printf("ARCH=%s", s->arch->kbuild));
	if (!has_cross)
		vec_push(&s->make_args, ast_printf("CROSS_COMPILE=%s", s->arch->cross_prefix));
}

static void set_kernel(struct session *s, const char *arg)
{
	s->kernel_root = "";
	if (arg && strchr(arg, '/')) {
		s->kernel_build = arg;
		/* DIR/include/config/kernel.release names the release. */
		char *rel = read_file(ast_printf("%s/include/config/kernel.release", arg));
		if (rel) {
			rel[strcspn(rel, "\n")] = '\0';
			s->release = rel;
		} else {
			s->release = arg;
		}
		if (!s->arch)	/* an arm64 tree given without -a builds for arm64 */
			s->arch = tree_arch(arg);
	} else {
		if (!arg && !arch_is_cross(s)) {
			struct utsname u;
			uname(&u);
			arg = ast_strdup(u.release);
		}
		s->release = arg;
		if (arg)
			s->kernel_build = ast_printf("/lib/modules/%s/build", arg);
	}
	if (arch_is_cross(s))
		set_cross_kernel(s, arg);
	if (!s->arch)
		s->arch = arch_host();
}

enum long_opt { OPT_REMOTE = 256, OPT_COMPATIBLE, OPT_DISABLE_CACHE, OPT_DEBUGINFO, OPT_SYSROOT, OPT_LDD,
		OPT_ALL_MODULES, OPT_SKIP_BADVARS, OPT_ADAPT, OPT_EXAMPLE, OPT_PROLOGUE, OPT_CHECK_VERSION, OPT_SUPPRESS_HANDLER_ERRORS,
		OPT_SUPPRESS_TIME_LIMITS, OPT_DUMP_PROBE_TYPES, OPT_DUMP_FUNCTIONS, OPT_DUMP_PROBE_ALIASES, OPT_DUMP_KFEATURES,
		OPT_VP, OPT_TMPDIR, OPT_CLEAN_CACHE, OPT_POISON_CACHE, OPT_COLOR, OPT_PRIVILEGE, OPT_UNPRIVILEGED,
		OPT_SIGN_MODULE, OPT_USE_SERVER, OPT_TRUST_SERVERS, OPT_LIST_SERVERS, OPT_REMOTE_PREFIX, OPT_REMOTE_JOBS,
		OPT_REMOTE_BUILD_DIR, OPT_TARGET_NAMESPACES, OPT_MONITOR, OPT_SEMANTIC_KEEP_GOING, OPT_DEBUG, OPT_BUILD_AS,
		OPT_LANGUAGE_SERVER };

static const struct option long_options[] = {
	{"remote", required_argument, NULL, OPT_REMOTE},
	{"remote-prefix", no_argument, NULL, OPT_REMOTE_PREFIX},
	{"remote-jobs", required_argument, NULL, OPT_REMOTE_JOBS},
	{"remote-build-dir", required_argument, NULL, OPT_REMOTE_BUILD_DIR},
	{"compatible", required_argument, NULL, OPT_COMPATIBLE},
	{"disable-cache", no_argument, NULL, OPT_DISABLE_CACHE},
	{"poison-cache", no_argument, NULL, OPT_POISON_CACHE},
	{"clean-cache", no_argument, NULL, OPT_CLEAN_CACHE},
	{"debuginfo", required_argument, NULL, OPT_DEBUGINFO},
	{"debug", no_argument, NULL, OPT_DEBUG}, /* its own option: an exact name is never an abbreviation */
	{"sysroot", required_argument, NULL, OPT_SYSROOT},
	{"ldd", no_argument, NULL, OPT_LDD},
	{"all-modules", no_argument, NULL, OPT_ALL_MODULES},
	{"skip-badvars", no_argument, NULL, OPT_SKIP_BADVARS},
	{"semantic-keep-going", no_argument, NULL, OPT_SEMANTIC_KEEP_GOING},
	{"adapt", no_argument, NULL, OPT_ADAPT},
	{"example", no_argument, NULL, OPT_EXAMPLE},
	{"prologue-searching", optional_argument, NULL, OPT_PROLOGUE},
	{"check-version", no_argument, NULL, OPT_CHECK_VERSION},
	{"suppress-handler-errors", no_argument, NULL, OPT_SUPPRESS_HANDLER_ERRORS},
	{"suppress-time-limits", no_argument, NULL, OPT_SUPPRESS_TIME_LIMITS},
	{"dump-probe-types", no_argument, NULL, OPT_DUMP_PROBE_TYPES},
	{"dump-functions", no_argument, NULL, OPT_DUMP_FUNCTIONS},
	{"language-server", no_argument, NULL, OPT_LANGUAGE_SERVER},
	{"dump-probe-aliases", no_argument, NULL, OPT_DUMP_PROBE_ALIASES},
	{"dump-kfeatures", no_argument, NULL, OPT_DUMP_KFEATURES},
	{"privilege", optional_argument, NULL, OPT_PRIVILEGE},
	{"unprivileged", no_argument, NULL, OPT_UNPRIVILEGED},
	{"sign-module", optional_argument, NULL, OPT_SIGN_MODULE},
	{"use-server", optional_argument, NULL, OPT_USE_SERVER},
	{"trust-servers", required_argument, NULL, OPT_TRUST_SERVERS},
	{"list-servers", no_argument, NULL, OPT_LIST_SERVERS},
	{"vp", required_argument, NULL, OPT_VP},
	{"tmpdir", required_argument, NULL, OPT_TMPDIR},
	{"build-as", required_argument, NULL, OPT_BUILD_AS},
	{"target-namespaces", required_argument, NULL, OPT_TARGET_NAMESPACES},
	{"monitor", optional_argument, NULL, OPT_MONITOR},
	{"color", optional_argument, NULL, OPT_COLOR},
	{"colour", optional_argument, NULL, OPT_COLOR},
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{NULL, 0, NULL, 0},
};

/* '-': operands come back as option 1 where they stand (GNU order whatever POSIXLY_CORRECT says). */
static const char short_options[] = "-a:p:e:E:T:vkm:r:R:o:c:x:s:D:I:d:guwWhVl:L:G:B:tbS:FP";

static bool is_identifier(const char *p, size_t len)
{
	if (!len || (*p >= '0' && *p <= '9'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", p[i]))
			return false;
	return true;
}

/* -G NAME=VALUE and -B NAME=VALUE: NAME an identifier, then '='. */
static bool name_value(const char *arg, const char *opt)
{
	const char *eq = strchr(arg, '=');
	if (!eq || !is_identifier(arg, (size_t)(eq - arg))) {
		fprintf(stderr, "stap: invalid %s '%s' (expected NAME=VALUE, NAME a letter or '_' then letters, digits, '_')\n",
			opt, arg);
		return false;
	}
	return true;
}

/* -S SIZE[,N]: SIZE MiB per file (1-4095), N files kept (1-1000000, default: all). */
static bool rotation_spec(const char *arg)
{
	char *end;
	long size = strtol(arg, &end, 10);
	if (end == arg || size < 1 || size > 4095)
		return false;
	if (*end == ',') {
		const char *n = end + 1;
		long files = strtol(n, &end, 10);
		if (end == n || files < 1 || files > 1000000)
			return false;
	}
	return *end == '\0';
}

/* A decimal number from min to max for option opt; false after a message. */
static bool number_arg(const char *arg, const char *opt, long min, long max, const char *what, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(arg, &end, 10);
	if (errno || end == arg || *end || v < min || v > max) {
		fprintf(stderr, "stap: invalid %s '%s' for %s (expected %ld-%ld%s)\n", what, arg, opt, min, max,
			strcmp(what, "buffer size") ? "" : " MiB");
		return false;
	}
	*out = v;
	return true;
}

/* -D NAME[=VALUE]. */
static bool add_define(struct session *s, const char *arg)
{
	struct define *d = ast_alloc(sizeof(*d));
	const char *eq = strchr(arg, '=');
	d->name = eq ? ast_strndup(arg, (size_t)(eq - arg)) : arg;
	d->value = eq ? eq + 1 : NULL;
	if (!is_identifier(d->name, strlen(d->name))) {
		fprintf(stderr, "stap: invalid macro name in -D '%s'\n", arg);
		return false;
	}
	vec_push(&s->defines, d);
	return true;
}

/* --vp ABCDE: one digit per pass, added to that pass's verbosity. */
static bool per_pass_verbosity(struct session *s, const char *arg)
{
	size_t n = strlen(arg);
	if (!n || n > 5 || strspn(arg, "0123456789") != n) {
		fprintf(stderr, "stap: invalid --vp '%s' (expected up to 5 digits, one per pass, e.g. 00200)\n", arg);
		return false;
	}
	for (size_t i = 0; i < n; i++)
		s->verbose_pass[i] += arg[i] - '0';
	return true;
}

/* The options of one of the five groups below: -1 to go on, else the exit status. */
static int option_script(struct session *s, struct cmdline *c, int opt, const char *arg)
{
	long n;
	switch (opt) {
	case 'e':
		if (c->script_text) {
			/* as SystemTap: one script per run (extra ones with -E) */
			fprintf(stderr, "stap: only one script may be given with -e\n");
			return STAP_EXIT_FAILURE;
		}
		c->script_text = arg;
		return -1;
	case 'E':
		vec_push(&s->extra_scripts, (void *)arg);
		return -1;
	case 'T':
		if (!number_arg(arg, "-T", 1, 1000000000, "time in seconds", &n))
			return STAP_EXIT_USAGE;
		s->timeout_s = n;
		return -1;
	case 'l':
	case 'L':
		/* list what "probe PATTERN {}" resolves to, after pass 2 */
		c->script_text = ast_printf("probe %s {}", arg);
		s->list_probes = true;
		s->list_vars = opt == 'L';
		/* an alias's variables are locals the empty body never reads: keep them */
		s->unoptimized |= opt == 'L';
		s->last_pass = 2;
		return -1;
	case OPT_DUMP_PROBE_TYPES:
		s->dump = STAP_DUMP_PROBE_TYPES;
		return -1;
	case OPT_DUMP_FUNCTIONS:
		s->dump = STAP_DUMP_FUNCTIONS;
		return -1;
	case OPT_LANGUAGE_SERVER:
		s->language_server = true;
		return -1;
	case OPT_DUMP_PROBE_ALIASES:
		s->dump = STAP_DUMP_PROBE_ALIASES;
		return -1;
	case OPT_DUMP_KFEATURES:
		s->dump = STAP_DUMP_KFEATURES;
		return -1;
	case 1:	/* an operand: the script file or one of its arguments, sorted out at the end */
		vec_push(&c->operands, (void *)arg);
		return -1;
	}
	return -2;
}

static int option_translate(struct session *s, struct cmdline *c, int opt, const char *arg)
{
	(void)c;
	switch (opt) {
	case 'D':
		return add_define(s, arg) ? -1 : STAP_EXIT_USAGE;
	case 'I':
		vec_push(&s->include_dirs, (void *)arg);
		return -1;
	case 'd':
		vec_push(&s->user_modules, (void *)arg);
		return -1;
	case OPT_LDD:
		s->ldd = true;
		return -1;
	case OPT_ALL_MODULES:
		return -1;
	case 'g':
		s->guru = true;
		return -1;
	case 'u':
		s->unoptimized = true;
		return -1;
	case 'w':
		s->suppress_warnings = true;
		return -1;
	case 'W':
		s->warnings_as_errors = true;
		return -1;
	case 'P':
		s->prologue_searching = DBG_PROLOGUE_ALWAYS;
		return -1;
	case OPT_PROLOGUE:
		if (!arg || !strcmp(arg, "always"))
			s->prologue_searching = DBG_PROLOGUE_ALWAYS;
		else if (!strcmp(arg, "never"))
			s->prologue_searching = DBG_PROLOGUE_NEVER;
		else if (!strcmp(arg, "auto"))
			s->prologue_searching = DBG_PROLOGUE_AUTO;
		else {
			fprintf(stderr, "stap: invalid --prologue-searching '%s' (expected always, never or auto)\n", arg);
			return STAP_EXIT_USAGE;
		}
		return -1;
	case OPT_DEBUG:
		s->debug_build = true;
		s->keep_tmpdir = true;
		return -1;
	case OPT_SEMANTIC_KEEP_GOING:
		s->semantic_keep_going = true;
		return -1;
	case OPT_SKIP_BADVARS:
		s->skip_badvars = true;
		return -1;
	case OPT_ADAPT:
		s->adapt = true;
		return -1;
	case OPT_EXAMPLE:
		c->example = true;
		return -1;
	case OPT_CHECK_VERSION:
		s->check_version = true;
		return -1;
	case OPT_SUPPRESS_HANDLER_ERRORS:
		s->suppress_handler_errors = true;
		return -1;
	case OPT_SUPPRESS_TIME_LIMITS:
		s->suppress_time_limits = true;
		return -1;
	case OPT_PRIVILEGE:
		if (arg && !privilege_parse(arg, &s->privilege)) {
			fprintf(stderr, "stap: invalid privilege level '%s' for --privilege (expected stapusr, stapsys or stapdev)\n",
				arg);
			return STAP_EXIT_USAGE;
		}
		if (!arg)
			s->privilege = PRIV_STAPUSR;
		s->privilege_given = true;
		return -1;
	case OPT_UNPRIVILEGED:
		s->privilege = PRIV_STAPUSR;
		s->privilege_given = true;
		return -1;
	case OPT_SIGN_MODULE:
		s->sign_module = true;
		s->sign_key_dir = arg;
		return -1;
	case OPT_USE_SERVER:
		s->use_server = arg ? arg : "";
		return -1;
	case OPT_TRUST_SERVERS:
		return use_server_trust(arg);
	case OPT_LIST_SERVERS:
		return use_server_list();
	case OPT_COMPATIBLE:
		if (!*arg || strspn(arg, "0123456789.") != strlen(arg) || arg[0] == '.') {
			fprintf(stderr, "stap: invalid version '%s' for --compatible (expected a version like 4.9)\n", arg);
			return STAP_EXIT_USAGE;
		}
		s->compatible = arg;
		return -1;
	case OPT_DEBUGINFO:
		if (kernel_dbg_mode(arg) == KERNEL_DBG_INVALID) {
			fprintf(stderr, "stap: invalid --debuginfo '%s' (expected auto, btf or dwarf)\n", arg);
			return STAP_EXIT_USAGE;
		}
		s->debuginfo_mode = arg;
		return -1;
	case OPT_SYSROOT:
		if (!is_dir(arg)) {
			fprintf(stderr, "stap: --sysroot %s is not a directory\n", arg);
			return STAP_EXIT_USAGE;
		}
		s->sysroot = arg;
		return -1;
	}
	return -2;
}

static int option_build(struct session *s, struct cmdline *c, int opt, const char *arg)
{
	switch (opt) {
	case 'm':
		if (!*arg || strlen(arg) > 55 || strspn(arg,
		    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(arg)) {
			fprintf(stderr, "stap: invalid module name '%s' for -m: use at most 55 letters, digits and '_'\n", arg);
			return STAP_EXIT_USAGE;
		}
		s->module_name = arg;
		return -1;
	case 'r':
		c->kernel_arg = arg;
		c->kernel_given = true;
		return -1;
	case 'R':
		if (!is_dir(arg)) {
			fprintf(stderr, "stap: -R %s is not a directory\n", arg);
			return STAP_EXIT_USAGE;
		}
		{
			char *abs = realpath(arg, NULL); /* kbuild runs in another directory */
			s->runtime_dir = abs ? ast_strdup(abs) : arg;
			free(abs);
		}
		return -1;
	case 'a':
		if (!(s->arch = arch_find(arg))) {
			fprintf(stderr, "stap: unknown architecture '%s' for -a (known: %s)\n", arg, arch_names());
			return STAP_EXIT_USAGE;
		}
		return -1;
	case 'B':
		if (!name_value(arg, "-B"))
			return STAP_EXIT_USAGE;
		vec_push(&s->make_args, (void *)arg);
		return -1;
	case 'k':
		s->keep_tmpdir = true;
		return -1;
	case OPT_TMPDIR:
		if (!is_dir(arg)) {
			fprintf(stderr, "stap: --tmpdir %s is not a directory\n", arg);
			return STAP_EXIT_USAGE;
		}
		s->tmpdir_base = arg;
		return -1;
	case OPT_BUILD_AS:
		s->build_as = arg;	/* checked with the other options (build_as_check) */
		return -1;
	case OPT_DISABLE_CACHE:
		s->disable_cache = true;
		return -1;
	case OPT_POISON_CACHE:
		s->poison_cache = true;
		return -1;
	case OPT_CLEAN_CACHE:
		s->clean_cache = true;
		return -1;
	case OPT_REMOTE: {
		const char *why = remote_url_check(arg);
		if (why) {
			fprintf(stderr, "stap: invalid --remote '%s': %s\n", arg, why);
			return STAP_EXIT_USAGE;
		}
		vec_push(&s->remotes, (void *)arg);
		return -1;
	}
	case OPT_REMOTE_PREFIX:
		s->remote_prefix = true;
		return -1;
	case OPT_REMOTE_JOBS: {
		char *end;
		s->remote_jobs = (int)strtol(arg, &end, 10);
		if (*end || s->remote_jobs < 1 || s->remote_jobs > 10000) {
			fprintf(stderr, "stap: invalid --remote-jobs '%s' (expected 1-10000)\n", arg);
			return STAP_EXIT_USAGE;
		}
		return -1;
	}
	case OPT_REMOTE_BUILD_DIR:
		s->remote_build_dir = arg;
		return -1;
	}
	return -2;
}

static int option_run(struct session *s, struct cmdline *c, int opt, const char *arg)
{
	(void)c;
	long n;
	switch (opt) {
	case 'o':
		s->output_file = arg;
		return -1;
	case 'c':
		s->target_cmd = arg;
		return -1;
	case 'x':
		if (!number_arg(arg, "-x", 1, 0x7fffffff, "process id", &n))
			return STAP_EXIT_USAGE;
		s->target_pid = n;
		return -1;
	case OPT_TARGET_NAMESPACES:
		if (!number_arg(arg, "--target-namespaces", 1, 0x7fffffff, "process id", &n))
			return STAP_EXIT_USAGE;
		s->namespaces_pid = n;
		return -1;
	case 's':
		if (!number_arg(arg, "-s", 1, 4095, "buffer size", &n))
			return STAP_EXIT_USAGE;
		s->buffer_mb = (int)n;
		return -1;
	case 'G':
		if (!name_value(arg, "-G"))
			return STAP_EXIT_USAGE;
		vec_push(&s->global_params, (void *)arg);
		return -1;
	case 't':
		s->timing = true;
		return -1;
	case OPT_MONITOR:
		if (arg && !number_arg(arg, "--monitor", 1, 3600, "interval in seconds", &n))
			return STAP_EXIT_USAGE;
		s->monitor = arg ? (int)n : 1;
		return -1;
	case 'b':
		s->bulk = true;
		return -1;
	case 'S':
		if (!rotation_spec(arg)) {
			fprintf(stderr, "stap: invalid -S '%s' (expected SIZE[,N]: SIZE 1-4095 MiB, N 1-1000000 files)\n", arg);
			return STAP_EXIT_USAGE;
		}
		s->rotate = arg;
		return -1;
	case 'F':
		s->flight_recorder = true;
		return -1;
	}
	return -2;
}

static int option_driver(struct session *s, struct cmdline *c, int opt, const char *arg)
{
	long n;
	switch (opt) {
	case 'p':
		if (!number_arg(arg, "-p", 1, 5, "pass number", &n))
			return STAP_EXIT_USAGE;
		s->last_pass = (int)n;
		return -1;
	case 'v':
		s->verbose++;
		return -1;
	case OPT_VP:
		return per_pass_verbosity(s, arg) ? -1 : STAP_EXIT_USAGE;
	case OPT_COLOR:
		if (arg && strcmp(arg, "always") && strcmp(arg, "never") && strcmp(arg, "auto")) {
			fprintf(stderr, "stap: invalid --color '%s' (expected always, never or auto)\n", arg);
			return STAP_EXIT_USAGE;
		}
		c->color_when = arg ? arg : "always";
		return -1;
	case 'h':
		usage(stdout);
		return STAP_EXIT_OK;
	case 'V':
		print_version();
		return STAP_EXIT_OK;
	}
	usage(stderr);
	return STAP_EXIT_USAGE;
}

/* One option (or operand, opt 1): -1 to go on, else the exit status. */
static int option_apply(struct session *s, struct cmdline *c, int opt, const char *arg)
{
	static int (*const groups[])(struct session *, struct cmdline *, int, const char *) = {
		option_script, option_translate, option_build, option_run, option_driver,
	};
	int rc = -2;
	for (size_t i = 0; i < sizeof(groups) / sizeof(groups[0]) && rc == -2; i++)
		rc = groups[i](s, c, opt, arg);
	return rc;
}

/*
 * argv with the words of $SYSTEMTAP_DIR/rc (default ~/.systemtap/rc) after
 * argv[0]; argv itself when there is no such file. A file that cannot be
 * split (an unmatched quote) is reported and left out.
 */
static char **with_rc_options(int argc, char **argv, int *new_argc)
{
	const char *dir = getenv("SYSTEMTAP_DIR");
	const char *home = getenv("HOME");
	const char *path = dir && *dir ? ast_printf("%s/rc", dir) :
			   home && *home ? ast_printf("%s/.systemtap/rc", home) : NULL;
	char *text = path ? read_file(path) : NULL;
	wordexp_t words;

	*new_argc = argc;
	if (!text)
		return argv;
	for (char *p = text; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	int rc = wordexp(text, &words, WRDE_NOCMD | WRDE_UNDEF);
	free(text);
	if (rc != 0) {
		fprintf(stderr, "stap: warning: ignoring %s: it cannot be split into options\n", path);
		return argv;
	}
	char **all = ast_alloc(sizeof(*all) * ((size_t)argc + words.we_wordc + 1));
	all[0] = argv[0];
	for (size_t i = 0; i < words.we_wordc; i++)
		all[1 + i] = ast_strdup(words.we_wordv[i]);
	for (int i = 1; i <= argc; i++)
		all[words.we_wordc + (size_t)i] = argv[i];
	*new_argc = argc + (int)words.we_wordc;
	wordfree(&words);
	return all;
}

/*
 * Diagnostics' colors: --color's WHEN (default auto: stderr a terminal) and
 * $SYSTEMTAP_COLORS ("error=01;31:warning=00;33:..."); an empty or invalid
 * $SYSTEMTAP_COLORS turns coloring off, as SystemTap documents.
 */
static const char *diag_colors(const char *when)
{
	static const char default_colors[] = "error=01;31:warning=00;33:source=00;34:caret=01:token=01";
	if (!when)
		when = "auto";
	if (!strcmp(when, "never") || (!strcmp(when, "auto") && (!isatty(STDERR_FILENO) || !getenv("TERM") || !strcmp(getenv("TERM"), "dumb"))))
		return NULL;
	const char *env = getenv("SYSTEMTAP_COLORS");
	if (!env)
		return default_colors;
	/* KEY=SGR[:KEY=SGR...]: known keys, SGR digits and ';' */
	const char *p = env;
	if (!*p)
		return NULL;
	while (*p) {
		size_t key = strcspn(p, "=:");
		static const char *const keys[] = {"error", "warning", "source", "caret", "token"};
		bool known = false;
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			known |= strlen(keys[i]) == key && !strncmp(p, keys[i], key);
		if (!known || p[key] != '=')
			return NULL;
		p += key + 1;
		size_t sgr = strspn(p, "0123456789;");
		if (p[sgr] != ':' && p[sgr] != '\0')
			return NULL;
		p += sgr + (p[sgr] == ':');
	}
	return env;
}

/* Options that need one another, and what follows from them; -1 to go on, else the exit status. */
/*
 * --remote: one qemu target runs as before (run.c); anything else is a
 * fleet (remote_ssh.c). A fleet's build for one release (the internal
 * --remote-build-dir) has no targets of its own and stops after pass 4.
 */
static int options_remotes(struct session *s)
{
	if (s->remote_build_dir) {
		s->remotes.n = 0;
		s->last_pass = 4;
	}
	if (s->remotes.n == 1 && remote_url_is_qemu(s->remotes.items[0])) {
		s->remote = s->remotes.items[0];
		return -1;
	}
	bool fleet = s->remotes.n > 0;
	if (fleet && s->target_pid && s->remotes.n > 1) {
		fprintf(stderr, "stap: -x PID cannot be used with several --remote targets: a process id names a process on one host\n");
		return STAP_EXIT_USAGE;
	}
	if (fleet && (s->flight_recorder || s->bulk || s->rotate)) {
		fprintf(stderr, "stap: -F, -b and -S cannot be used with ssh, unix:, direct:// or several --remote targets\n");
		return STAP_EXIT_USAGE;
	}
	return -1;
}

static int options_check(struct session *s, struct cmdline *c)
{
	int rc = options_remotes(s);
	if (rc >= 0)
		return rc;
	if (!s->debuginfo_mode && kernel_dbg_mode(NULL) == KERNEL_DBG_INVALID) {
		fprintf(stderr, "stap: invalid STAPC_DEBUGINFO '%s' (expected auto, btf or dwarf)\n", getenv("STAPC_DEBUGINFO"));
		return STAP_EXIT_USAGE;
	}
	const char *conflict =
		s->suppress_time_limits && !s->guru ? "--suppress-time-limits needs guru mode (-g)" :
		s->rotate && !s->output_file ? "-S needs an output file (-o FILE) to rotate" :
		s->flight_recorder && s->target_cmd ? "-F cannot be used with -c: a detached script has no command to wait for" :
		s->bulk && s->remote && !s->output_file ? "with --remote=qemu, -b needs -o FILE: the per-CPU files come back beside FILE" :
		s->flight_recorder && s->remote ? "-F cannot be used with --remote=qemu: the guest ends with the run" :
		s->target_cmd && s->target_pid ? "-c and -x cannot be used together (as in SystemTap)" :
		NULL;
	if (conflict) {
		fprintf(stderr, "stap: %s\n", conflict);
		return STAP_EXIT_USAGE;
	}
	if (s->remote && s->remote[4] == ':' && s->remote[5] && !c->kernel_given)
		c->kernel_arg = s->remote + 5;
	if (s->suppress_time_limits) {
		/* raised, not removed: a hit stays bounded (about a second at most) */
		static const char *const raised[][2] = { {"MAXACTION", "1000000"}, {"MAXTRYLOCK", "1000000"} };
		for (size_t i = 0; i < sizeof(raised) / sizeof(raised[0]); i++) {
			bool given = false;
			for (int j = 0; j < s->defines.n && !given; j++)
				given = !strcmp(((struct define *)s->defines.items[j])->name, raised[i][0]);
			if (!given) {
				struct define *d = ast_alloc(sizeof(*d));
				d->name = raised[i][0];
				d->value = raised[i][1];
				vec_push(&s->defines, d);
			}
		}
	}
	s->colors = diag_colors(c->color_when);
	return -1;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A file called name in dir or below it (at most depth levels down), or NULL. */
static const char *find_below(const char *dir, const char *name, int depth)
{
	const char *here = ast_printf("%s/%s", dir, name);
	struct stat st;
	if (stat(here, &st) == 0 && S_ISREG(st.st_mode))
		return here;
	DIR *d = depth > 0 ? opendir(dir) : NULL;
	if (!d)
		return NULL;
	struct vec subdirs = {0};
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.' && is_dir(ast_printf("%s/%s", dir, e->d_name)))
			vec_push(&subdirs, ast_printf("%s/%s", dir, e->d_name));
	closedir(d);
	vec_sort(&subdirs, compare_strings);	/* the same answer whatever readdir's order */
	for (int i = 0; i < subdirs.n; i++) {
		const char *found = find_below(subdirs.items[i], name, depth - 1);
		if (found)
			return found;
	}
	return NULL;
}

/*
 * --example NAME: stapc's examples (next to an installed binary, in the
 * source tree, in the configured install dir), then SystemTap's
 * (stappaths(7): /usr/share/doc/systemtap*\/examples, by subject below;
 * Debian's systemtap-doc puts most of them in /usr/share/systemtap/examples).
 */
static const char *find_example(const char *name)
{
	const char *file = strstr(name, ".stp") && !strcmp(strstr(name, ".stp"), ".stp") ? name : ast_printf("%s.stp", name);
	if (strchr(file, '/'))
		return NULL;
	const char *bindir = options_exe_dir();
	const char *dirs[] = {
		ast_printf("%s/../share/doc/stapc/examples", bindir),
		ast_printf("%s/examples", STAPC_SOURCE_DIR),
		ast_printf("%s/examples", STAPC_DOCDIR),
		"/usr/share/doc/systemtap/examples",
		"/usr/share/systemtap/examples",	/* where Debian's systemtap-doc puts most of them */
	};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		const char *found = is_dir(dirs[i]) ? find_below(dirs[i], file, 3) : NULL;
		if (found)
			return found;
	}
	return NULL;
}

/* The script (file, -e, -l/-L or none for --dump-*) and its arguments; -1 to go on. */
static int options_script(struct session *s, struct cmdline *c)
{
	int next = 0;
	if (s->dump || s->clean_cache || s->language_server) {
		if (c->script_text || c->operands.n) {
			fprintf(stderr, "stap: %s no script\n", s->dump ? "--dump-* options take"
				: s->clean_cache ? "--clean-cache takes" : "--language-server takes");
			return STAP_EXIT_USAGE;
		}
		c->script_text = "";
		s->last_pass = 2;
	}
	if (!c->script_text) {
		if (!c->operands.n) {
			fprintf(stderr, "stap: no script given: pass a file name or -e 'SCRIPT'\n");
			usage(stderr);
			return STAP_EXIT_USAGE;
		}
		s->script_path = ast_intern(c->operands.items[next++]);
		if (c->example) {
			const char *found = find_example(s->script_path);
			if (!found) {
				fprintf(stderr, "stap: no example script named '%s' (looked in stapc's examples, "
					"/usr/share/doc/systemtap/examples and /usr/share/systemtap/examples; install systemtap-doc for SystemTap's)\n",
					s->script_path);
				return STAP_EXIT_FAILURE;
			}
			s->script_path = ast_intern(found);
		}
		char *text = read_file(s->script_path);
		if (!text) {
			fprintf(stderr, "stap: cannot read script '%s': %s\n", s->script_path, strerror(errno));
			return STAP_EXIT_FAILURE;
		}
		s->script_text = text;
	} else {
		s->script_path = ast_intern(s->list_probes ? "<pattern>" : "<input>");
		s->script_text = c->script_text;
	}
	for (; next < c->operands.n; next++)
		vec_push(&s->script_args, c->operands.items[next]);
	return -1;
}

/*
 * Data directories: $SYSTEMTAP_TAPSET / $SYSTEMTAP_RUNTIME (or -R), else next
 * to an installed binary (PREFIX/bin/../share/stapc), else the source tree
 * this build came from, else the configured install dir.
 */
static const char *find_data_dir(const char *bindir, const char *name, const char *env)
{
	const char *given = getenv(env);
	if (given && *given)
		return given;
	const char *candidates[] = {
		ast_printf("%s/../share/stapc/%s", bindir, name),
		ast_printf("%s/%s", STAPC_SOURCE_DIR, name),
		ast_printf("%s/%s", STAPC_DATADIR, name),
	};
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
		if (is_dir(candidates[i]))
			return candidates[i];
	return candidates[2];
}

/* The kernel to build for (-r, --remote's, $SYSTEMTAP_RELEASE, the running one) and the data directories. */
static int options_kernel(struct session *s, struct cmdline *c)
{
	const char *env = getenv("SYSTEMTAP_RELEASE");
	if (!c->kernel_arg && !s->remote && env && *env)
		c->kernel_arg = env;
	if (s->remote && !c->kernel_arg && !arch_is_cross(s)) {
		/* --remote=qemu without a release: let stapvm's choice rule apply here too. */
		c->kernel_arg = run_pick_guest_release();
		if (!c->kernel_arg && s->last_pass >= 4) {
			fprintf(stderr, "stap: --remote=qemu: no installed kernel with a build tree found;\n"
					"      install one with: apt-get install linux-image-cloud-amd64 linux-headers-cloud-amd64\n");
			return STAP_EXIT_FAILURE;
		}
	}
	/* --remote=qemu:RELEASE of another architecture's kernel (unpacked under its root only) */
	struct stat st;
	if (s->remote && c->kernel_arg && !s->arch && !strchr(c->kernel_arg, '/') &&
	    stat(ast_printf("/lib/modules/%s", c->kernel_arg), &st) != 0)
		s->arch = arch_of_release(c->kernel_arg);
	set_kernel(s, c->kernel_arg);
	s->bin_dir = options_exe_dir();
	s->tapset_dir = find_data_dir(s->bin_dir, "tapset", "SYSTEMTAP_TAPSET");
	if (!s->runtime_dir)	/* -R DIR */
		s->runtime_dir = find_data_dir(s->bin_dir, "runtime", "SYSTEMTAP_RUNTIME");
	return -1;
}

int options_parse(struct session *s, int argc, char **argv)
{
	struct cmdline c = {0};
	int opt, rc;

	argv = with_rc_options(argc, argv, &argc);
	s->argc = argc;	/* a fleet's per-release builds run stap again with the same command line */
	s->argv = argv;
	s->last_pass = 5;	/* optind: 1 at start; the fuzz target sets 0 for each new command line */
	while ((opt = getopt_long(argc, argv, short_options, long_options, NULL)) != -1)
		if ((rc = option_apply(s, &c, opt, optarg)) >= 0)
			return rc;
	/* after "--": every word is an operand, even one that starts with '-' */
	for (; optind < argc; optind++)
		vec_push(&c.operands, argv[optind]);
	if ((rc = options_check(s, &c)) >= 0 || (rc = options_script(s, &c)) >= 0)
		return rc;
	return options_kernel(s, &c);
}
