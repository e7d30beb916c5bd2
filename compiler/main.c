/* main.c - the stap command line: options into a session, then the pass table. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "diag.h"
#include "debuginfo/debuginfo.h"
#include "debuginfo/kernel.h"
#include "passes.h"
#include "privilege.h"
#include "session.h"

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: stap [OPTIONS] SCRIPT.stp [ARGS...]\n"
		"       stap [OPTIONS] -e 'SCRIPT' [ARGS...]\n"
		"\n"
		"Passes: 1 parse, 2 elaborate, 3 translate to C, 4 build the module, 5 run it.\n"
		"\n"
		"  -p N          stop after pass N (1-5) and print its result\n"
		"  -e SCRIPT     run SCRIPT given on the command line\n"
		"  -v            print one line per pass with its time and memory (repeat for more)\n"
		"  -k            keep the temporary build directory and print its path\n"
		"  -m NAME       name the module NAME (default stap_<hash>)\n"
		"  -r RELEASE    build for kernel RELEASE (/lib/modules/RELEASE/build)\n"
		"  -r DIR        build against the kernel build tree DIR\n"
		"  -o FILE       send the script's output to FILE\n"
		"  -c CMD        run CMD; target() is its pid; the script ends when it exits\n"
		"  -x PID        set target() to PID\n"
		"  -s MB         per-CPU output buffer size in MiB\n"
		"  -D NAME=VAL   define a limit for the module (MAXACTION, MAXSTRINGLEN, ...)\n"
		"  -I DIR        look for tapset files in DIR too\n"
		"  -g            guru mode: allow embedded C in the script\n"
		"  -u            unoptimized: no constant folding, no dead code or unused code removal\n"
		"  -w            suppress warnings\n"
		"  --compatible=VERSION\n"
		"                the SystemTap version systemtap_v reports in %%( %%) conditions\n"
		"  --check-version\n"
		"                warn at each systemtap_v test: that code depends on the version\n"
		"  -W            treat warnings as errors\n"
		"  --disable-cache\n"
		"                always run kbuild; neither use nor fill the module cache\n"
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
		"  -t            report each probe's hits and cycles (min/avg/max) at the end\n"
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
		"  --suppress-handler-errors\n"
		"                a probe hit that fails is counted and dropped; the script goes on\n"
		"  --suppress-time-limits\n"
		"                raise MAXACTION and MAXTRYLOCK to 1000000 (needs -g)\n"
		"  --dump-probe-types\n"
		"                list the probe point patterns stap accepts\n"
		"  --dump-functions\n"
		"                list the tapset functions with their signatures\n"
		"  --dump-probe-aliases\n"
		"                list the tapset probe aliases\n"
		"  --remote=qemu[:RELEASE]\n"
		"                run pass 5 in a disposable QEMU guest booting kernel RELEASE\n"
		"  -V, --version print the version\n"
		"  -h, --help    print this help\n");
}

/* The directory holding this executable (for staprun, stapio, stapvm and data). */
static const char *exe_dir(void)
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

/*
 * Data directories: next to an installed binary (PREFIX/bin/../share/stapc),
 * else the source tree this build came from, else the configured install dir.
 */
static const char *find_data_dir(const char *bindir, const char *name)
{
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
static void set_kernel(struct session *s, const char *arg)
{
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
		return;
	}
	if (!arg) {
		struct utsname u;
		uname(&u);
		arg = ast_strdup(u.release);
	}
	s->release = arg;
	s->kernel_build = ast_printf("/lib/modules/%s/build", arg);
}

enum long_opt { OPT_REMOTE = 256, OPT_VERSION, OPT_COMPATIBLE, OPT_DISABLE_CACHE, OPT_DEBUGINFO, OPT_SYSROOT, OPT_LDD,
		OPT_ALL_MODULES, OPT_SKIP_BADVARS, OPT_PROLOGUE, OPT_CHECK_VERSION, OPT_SUPPRESS_HANDLER_ERRORS,
		OPT_SUPPRESS_TIME_LIMITS, OPT_DUMP_PROBE_TYPES, OPT_DUMP_FUNCTIONS, OPT_DUMP_PROBE_ALIASES,
		OPT_PRIVILEGE, OPT_UNPRIVILEGED, OPT_SIGN_MODULE };

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

int main(int argc, char **argv)
{
	struct session *s = ast_alloc(sizeof(*s));
	s->diag = diag_new();
	diag_use(s->diag);
	const char *script_text = NULL;
	const char *kernel_arg = NULL;
	bool kernel_given = false;
	s->last_pass = 5;

	static const struct option long_options[] = {
		{"remote", required_argument, NULL, OPT_REMOTE},
		{"compatible", required_argument, NULL, OPT_COMPATIBLE},
		{"disable-cache", no_argument, NULL, OPT_DISABLE_CACHE},
		{"debuginfo", required_argument, NULL, OPT_DEBUGINFO},
		{"sysroot", required_argument, NULL, OPT_SYSROOT},
		{"ldd", no_argument, NULL, OPT_LDD},
		{"all-modules", no_argument, NULL, OPT_ALL_MODULES},
		{"skip-badvars", no_argument, NULL, OPT_SKIP_BADVARS},
		{"prologue-searching", optional_argument, NULL, OPT_PROLOGUE},
		{"check-version", no_argument, NULL, OPT_CHECK_VERSION},
		{"suppress-handler-errors", no_argument, NULL, OPT_SUPPRESS_HANDLER_ERRORS},
		{"suppress-time-limits", no_argument, NULL, OPT_SUPPRESS_TIME_LIMITS},
		{"dump-probe-types", no_argument, NULL, OPT_DUMP_PROBE_TYPES},
		{"dump-functions", no_argument, NULL, OPT_DUMP_FUNCTIONS},
		{"dump-probe-aliases", no_argument, NULL, OPT_DUMP_PROBE_ALIASES},
		{"privilege", optional_argument, NULL, OPT_PRIVILEGE},
		{"unprivileged", no_argument, NULL, OPT_UNPRIVILEGED},
		{"sign-module", optional_argument, NULL, OPT_SIGN_MODULE},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	int opt;
	/* '+': stop at the first non-option, which is the script; the rest are its arguments. */
	while ((opt = getopt_long(argc, argv, "+p:e:vkm:r:o:c:x:s:D:I:d:guwWhVl:L:G:B:tbS:FP", long_options, NULL)) != -1) {
		char *end;
		switch (opt) {
		case 'p':
			s->last_pass = (int)strtol(optarg, &end, 10);
			if (*end || s->last_pass < 1 || s->last_pass > 5) {
				fprintf(stderr, "stap: invalid pass number '%s' for -p (expected 1-5)\n", optarg);
				return STAP_EXIT_USAGE;
			}
			break;
		case 'e':
			if (script_text) {
				/* as SystemTap: one script per run (extra ones with -E) */
				fprintf(stderr, "stap: only one script may be given with -e\n");
				return STAP_EXIT_FAILURE;
			}
			script_text = optarg;
			break;
		case 'v':
			s->verbose++;
			break;
		case 'k':
			s->keep_tmpdir = true;
			break;
		case 'm':
			if (!*optarg || strlen(optarg) > 55 || strspn(optarg,
			    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(optarg)) {
				fprintf(stderr, "stap: invalid module name '%s' for -m: use at most 55 letters, digits and '_'\n", optarg);
				return STAP_EXIT_USAGE;
			}
			s->module_name = optarg;
			break;
		case 'r':
			kernel_arg = optarg;
			kernel_given = true;
			break;
		case 'o':
			s->output_file = optarg;
			break;
		case 'c':
			s->target_cmd = optarg;
			break;
		case 'x':
			s->target_pid = strtol(optarg, &end, 10);
			if (*end || s->target_pid <= 0) {
				fprintf(stderr, "stap: invalid process id '%s' for -x\n", optarg);
				return STAP_EXIT_USAGE;
			}
			break;
		case 's':
			s->buffer_mb = (int)strtol(optarg, &end, 10);
			if (*end || s->buffer_mb < 1 || s->buffer_mb > 4095) {
				fprintf(stderr, "stap: invalid buffer size '%s' for -s (expected 1-4095 MiB)\n", optarg);
				return STAP_EXIT_USAGE;
			}
			break;
		case 'D': {
			struct define *d = ast_alloc(sizeof(*d));
			char *eq = strchr(optarg, '=');
			d->name = eq ? ast_strndup(optarg, (size_t)(eq - optarg)) : optarg;
			d->value = eq ? eq + 1 : NULL;
			if (!*d->name || (*d->name >= '0' && *d->name <= '9') || strspn(d->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(d->name)) {
				fprintf(stderr, "stap: invalid macro name in -D '%s'\n", optarg);
				return STAP_EXIT_USAGE;
			}
			vec_push(&s->defines, d);
			break;
		}
		case 'I':
			vec_push(&s->include_dirs, optarg);
			break;
		case 'd':
			vec_push(&s->user_modules, optarg);
			break;
		case OPT_LDD:
			s->ldd = true;
			break;
		case OPT_ALL_MODULES:
			break;
		case 'G':
			if (!name_value(optarg, "-G"))
				return STAP_EXIT_USAGE;
			vec_push(&s->global_params, optarg);
			break;
		case 'B':
			if (!name_value(optarg, "-B"))
				return STAP_EXIT_USAGE;
			vec_push(&s->make_args, optarg);
			break;
		case 't':
			s->timing = true;
			break;
		case 'b':
			s->bulk = true;
			break;
		case 'S':
			if (!rotation_spec(optarg)) {
				fprintf(stderr, "stap: invalid -S '%s' (expected SIZE[,N]: SIZE 1-4095 MiB, N 1-1000000 files)\n",
					optarg);
				return STAP_EXIT_USAGE;
			}
			s->rotate = optarg;
			break;
		case 'F':
			s->flight_recorder = true;
			break;
		case 'P':
			s->prologue_searching = DBG_PROLOGUE_ALWAYS;
			break;
		case OPT_PROLOGUE:
			if (!optarg || !strcmp(optarg, "always"))
				s->prologue_searching = DBG_PROLOGUE_ALWAYS;
			else if (!strcmp(optarg, "never"))
				s->prologue_searching = DBG_PROLOGUE_NEVER;
			else if (!strcmp(optarg, "auto"))
				s->prologue_searching = DBG_PROLOGUE_AUTO;
			else {
				fprintf(stderr, "stap: invalid --prologue-searching '%s' (expected always, never or auto)\n",
					optarg);
				return STAP_EXIT_USAGE;
			}
			break;
		case OPT_SKIP_BADVARS:
			s->skip_badvars = true;
			break;
		case OPT_CHECK_VERSION:
			s->check_version = true;
			break;
		case OPT_SUPPRESS_HANDLER_ERRORS:
			s->suppress_handler_errors = true;
			break;
		case OPT_SUPPRESS_TIME_LIMITS:
			s->suppress_time_limits = true;
			break;
		case OPT_DUMP_PROBE_TYPES:
			s->dump = STAP_DUMP_PROBE_TYPES;
			break;
		case OPT_DUMP_FUNCTIONS:
			s->dump = STAP_DUMP_FUNCTIONS;
			break;
		case OPT_DUMP_PROBE_ALIASES:
			s->dump = STAP_DUMP_PROBE_ALIASES;
			break;
		case OPT_PRIVILEGE:
			if (optarg && !privilege_parse(optarg, &s->privilege)) {
				fprintf(stderr, "stap: invalid privilege level '%s' for --privilege (expected stapusr, stapsys or stapdev)\n",
					optarg);
				return STAP_EXIT_USAGE;
			}
			if (!optarg)
				s->privilege = PRIV_STAPUSR;
			s->privilege_given = true;
			break;
		case OPT_SIGN_MODULE:
			s->sign_module = true;
			s->sign_key_dir = optarg;
			break;
		case OPT_UNPRIVILEGED:
			s->privilege = PRIV_STAPUSR;
			s->privilege_given = true;
			break;
		case 'g':
			s->guru = true;
			break;
		case 'u':
			s->unoptimized = true;
			break;
		case 'w':
			s->suppress_warnings = true;
			break;
		case 'W':
			s->warnings_as_errors = true;
			break;
		case OPT_SYSROOT:
			if (!is_dir(optarg)) {
				fprintf(stderr, "stap: --sysroot %s is not a directory\n", optarg);
				return STAP_EXIT_USAGE;
			}
			s->sysroot = optarg;
			break;
		case OPT_REMOTE:
			if (strncmp(optarg, "qemu", 4) != 0 || (optarg[4] && optarg[4] != ':')) {
				fprintf(stderr, "stap: unsupported --remote target '%s' (expected qemu or qemu:RELEASE)\n", optarg);
				return STAP_EXIT_USAGE;
			}
			s->remote = optarg;
			if (optarg[4] == ':' && optarg[5] && !kernel_given)
				kernel_arg = optarg + 5;
			break;
		case OPT_COMPATIBLE:
			if (!*optarg || strspn(optarg, "0123456789.") != strlen(optarg) || optarg[0] == '.') {
				fprintf(stderr, "stap: invalid version '%s' for --compatible (expected a version like 4.9)\n", optarg);
				return STAP_EXIT_USAGE;
			}
			s->compatible = optarg;
			break;
		case OPT_DISABLE_CACHE:
			s->disable_cache = true;
			break;
		case 'l':
		case 'L':
			/* list what "probe PATTERN {}" resolves to, after pass 2 */
			script_text = ast_printf("probe %s {}", optarg);
			s->list_probes = true;
			s->list_vars = opt == 'L';
			/* an alias's variables are locals the empty body never reads: keep them */
			s->unoptimized |= opt == 'L';
			s->last_pass = 2;
			break;
		case OPT_DEBUGINFO:
			if (kernel_dbg_mode(optarg) == KERNEL_DBG_INVALID) {
				fprintf(stderr, "stap: invalid --debuginfo '%s' (expected auto, btf or dwarf)\n", optarg);
				return STAP_EXIT_USAGE;
			}
			s->debuginfo_mode = optarg;
			break;
		case 'h':
			usage(stdout);
			return STAP_EXIT_OK;
		case 'V':
			printf("stapc stap %s\n", STAPC_VERSION);
			return STAP_EXIT_OK;
		default:
			usage(stderr);
			return STAP_EXIT_USAGE;
		}
	}

	if (!s->debuginfo_mode && kernel_dbg_mode(NULL) == KERNEL_DBG_INVALID) {
		fprintf(stderr, "stap: invalid STAPC_DEBUGINFO '%s' (expected auto, btf or dwarf)\n", getenv("STAPC_DEBUGINFO"));
		return STAP_EXIT_USAGE;
	}
	if (s->suppress_time_limits && !s->guru) {
		fprintf(stderr, "stap: --suppress-time-limits needs guru mode (-g)\n");
		return STAP_EXIT_USAGE;
	}
	if (s->rotate && !s->output_file) {
		fprintf(stderr, "stap: -S needs an output file (-o FILE) to rotate\n");
		return STAP_EXIT_USAGE;
	}
	if (s->flight_recorder && s->target_cmd) {
		fprintf(stderr, "stap: -F cannot be used with -c: a detached script has no command to wait for\n");
		return STAP_EXIT_USAGE;
	}
	if (s->bulk && s->remote && !s->output_file) {
		fprintf(stderr, "stap: with --remote=qemu, -b needs -o FILE: the per-CPU files come back beside FILE\n");
		return STAP_EXIT_USAGE;
	}
	if (s->flight_recorder && s->remote) {
		fprintf(stderr, "stap: -F cannot be used with --remote=qemu: the guest ends with the run\n");
		return STAP_EXIT_USAGE;
	}
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
	if (s->dump) {
		if (script_text || optind < argc) {
			fprintf(stderr, "stap: --dump-* options take no script\n");
			return STAP_EXIT_USAGE;
		}
		script_text = "";
		s->last_pass = 2;
	}
	if (!script_text) {
		if (optind >= argc) {
			fprintf(stderr, "stap: no script given: pass a file name or -e 'SCRIPT'\n");
			usage(stderr);
			return STAP_EXIT_USAGE;
		}
		s->script_path = ast_intern(argv[optind++]);
		char *text = read_file(s->script_path);
		if (!text) {
			fprintf(stderr, "stap: cannot read script '%s': %s\n", s->script_path, strerror(errno));
			return STAP_EXIT_FAILURE;
		}
		s->script_text = text;
	} else {
		s->script_path = ast_intern(s->list_probes ? "<pattern>" : "<input>");
		s->script_text = script_text;
	}
	for (; optind < argc; optind++)
		vec_push(&s->script_args, argv[optind]);

	if (s->remote && !kernel_given && !(s->remote[4] == ':' && s->remote[5])) {
		/* --remote=qemu without a release: let stapvm's choice rule apply here too. */
		kernel_arg = passes_pick_guest_release();
		if (!kernel_arg && s->last_pass >= 4) {
			fprintf(stderr, "stap: --remote=qemu: no installed kernel with a build tree found;\n"
					"      install one with: apt-get install linux-image-cloud-amd64 linux-headers-cloud-amd64\n");
			return STAP_EXIT_FAILURE;
		}
	}
	set_kernel(s, kernel_arg);

	s->bin_dir = exe_dir();
	s->tapset_dir = find_data_dir(s->bin_dir, "tapset");
	s->runtime_dir = find_data_dir(s->bin_dir, "runtime");
	diag_configure(&(struct diag_options){
		.suppress_warnings = s->suppress_warnings,
		.warnings_as_errors = s->warnings_as_errors,
		.library_warnings = s->verbose > 0,
	});

	if (!privilege_configure(s))
		return STAP_EXIT_USAGE;
	if (s->dump)
		return dump_run(s);
	return passes_run(s);
}
