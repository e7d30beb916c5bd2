/*
 * debuginfo/headers.c - the types of C headers, for @cast's module argument
 * "kernel<linux/sched.h>" (kernel headers of the -r target) and
 * "<sys/un.h>" (the system's headers, user space), as man stap describes:
 * the headers are compiled with DWARF and nothing else, and the object's
 * DWARF is read like any other. Several headers may follow each other
 * ("kernel<linux/fs.h><linux/mount.h>"); a header is an include path
 * (a leading "include/" is dropped: it is the include directory itself).
 *
 * A kernel header is compiled by the target's kbuild (its flags, include
 * paths and configuration): one object, no module; a user header by cc.
 * Each distinct module string is compiled once per session (the list is
 * kept with the kernel's files, debuginfo/kernel.c), in its temporary
 * directory.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "debuginfo/headers.h"
#include "debuginfo/kernel.h"

struct header_types {
	const char *module;     /* the @cast module string */
	struct debuginfo *di;   /* NULL if it failed */
	const char *err;        /* why */
};

/* Run argv in dir with its output into log; the exit status, or -1. */
static int run_in(char *const argv[], const char *log)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		session_exec_logged(argv, log);
	}
	int status;
	if (!session_wait_child(pid, &status))
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	if (!f)
		return false;
	bool ok = fputs(text, f) >= 0;
	return fclose(f) == 0 && ok;
}

/* The #include lines of "<a.h><b.h>", or NULL if text is not such a list. */
static const char *include_lines(const char *text)
{
	char *out = "";
	const char *p = text;
	while (*p == '<') {
		const char *end = strchr(p, '>');
		if (!end || end == p + 1)
			return NULL;
		const char *name = ast_strndup(p + 1, (size_t)(end - p - 1));
		if (!strncmp(name, "include/", 8))
			name += 8;
		out = ast_printf("%s#include %s%s%s\n", out, name[0] == '/' ? "\"" : "<", name, name[0] == '/' ? "\"" : ">");
		p = end + 1;
	}
	return *p || !*out ? NULL : out;
}

/* The first lines of a failed compile's log, for the message. */
static const char *log_excerpt(const char *log)
{
	FILE *f = fopen(log, "r");
	char line[512];
	char *out = "";
	int n = 0;
	while (f && n < 4 && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "error"))
			continue;
		line[strcspn(line, "\n")] = '\0';
		out = ast_printf("%s%s%s", out, n ? "; " : "", line);
		n++;
	}
	if (f)
		fclose(f);
	return n ? out : "see the compiler's output with -k";
}

static struct debuginfo *compile(struct session *s, const char *module, const char **err)
{
	bool kernel = !strncmp(module, "kernel<", 7);
	const char *includes = include_lines(kernel ? module + 6 : module);
	if (!includes || (!kernel && module[0] != '<')) {
		*err = ast_printf("'%s' is not a header module: write \"kernel<linux/sched.h>\" or \"<sys/un.h>\"", module);
		return NULL;
	}
	const char *tmp = session_tmpdir(s);
	if (!tmp) {
		*err = "no temporary directory";
		return NULL;
	}
	const char *dir = ast_printf("%s/headers%d", tmp, kernel_header_types(s)->n);
	const char *src = ast_printf("%s/stap_types.c", dir), *obj = ast_printf("%s/stap_types.o", dir);
	const char *log = ast_printf("%s/build.log", dir);
	if (mkdir(dir, 0755) != 0 || !write_file(src, ast_printf("/* the types of %s, for @cast */\n%s", module, includes))) {
		*err = ast_printf("cannot write %s: %s", src, strerror(errno));
		return NULL;
	}
	int status;
	if (kernel) {
		/* the target's kbuild compiles the one object with its own flags, DWARF kept whole */
		if (!write_file(ast_printf("%s/Kbuild", dir),
				"ccflags-y += -g -gdwarf-4 -fno-eliminate-unused-debug-types\nobj-m += stap_types.o\n")) {
			*err = ast_printf("cannot write %s/Kbuild", dir);
			return NULL;
		}
		/* -B's and -a's make arguments (ARCH=, CROSS_COMPILE=) too */
		char **argv = ast_alloc(sizeof(char *) * (size_t)(s->make_args.n + 6));
		int n = 0;
		argv[n++] = "make";
		argv[n++] = "-C";
		argv[n++] = (char *)s->kernel_build;
		argv[n++] = ast_printf("M=%s", dir);
		for (int i = 0; i < s->make_args.n; i++)
			argv[n++] = s->make_args.items[i];
		argv[n++] = "stap_types.o";
		argv[n] = NULL;
		status = run_in(argv, log);
	} else {
		char *argv[] = {"cc", "-g", "-fno-eliminate-unused-debug-types", "-c", "-o", (char *)obj, (char *)src, NULL};
		status = run_in(argv, log);
	}
	if (status != 0) {
		*err = ast_printf("compiling %s failed: %s", module, log_excerpt(log));
		return NULL;
	}
	struct debuginfo *di = dbg_open_dwarf(obj, err);
	if (di) {
		di->module = module;
		di->user_space = !kernel;
	}
	return di;
}

struct debuginfo *headers_debuginfo(struct session *s, const char *module, const char **err)
{
	struct vec *compiled = kernel_header_types(s);
	for (int i = 0; i < compiled->n; i++) {
		struct header_types *h = compiled->items[i];
		if (!strcmp(h->module, module)) {
			*err = h->err;
			return h->di;
		}
	}
	struct header_types *h = ast_alloc(sizeof(*h));
	h->module = module;
	h->di = compile(s, module, &h->err);
	vec_push(compiled, h);
	*err = h->err;
	if (s->verbose >= 2 && h->di)
		fprintf(stderr, "@cast types of %s from %s\n", module, h->di->path);
	return h->di;
}

bool headers_is_module(const char *module)
{
	return module && strchr(module, '<') != NULL;
}
