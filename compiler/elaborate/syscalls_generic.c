/*
 * syscalls_generic.c - the system call table of a kernel whose architecture
 * uses the generic numbering (arm64: include/uapi/asm-generic/unistd.h),
 * written out in the form x86's generated headers have, for syscalls.c.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "syscalls.h"
#include "tapset.h"

/* Run the target's preprocessor (argv) with its output into out; true if it succeeded. */
static bool run_cpp(char *const argv[], const char *out)
{
	pid_t pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		setpgid(0, 0);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		session_exec_logged(argv, out);
	}
	int status;
	return session_wait_child(pid, &status) && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* The cross preprocessor on src with the target's uapi headers; its output, or NULL. */
static char *preprocess(struct session *s, const char *src, const char *text, bool macros)
{
	const char *tmp = session_tmpdir(s);
	FILE *f = tmp ? fopen(src, "w") : NULL;
	if (!f)
		return NULL;
	fputs(text, f);
	fclose(f);
	const char *common = syscalls_source_tree(s->kernel_build), *k = s->arch->kbuild;
	const char *out = ast_printf("%s.out", src);
	char *argv[] = {ast_printf("%sgcc", s->arch->cross_prefix), "-E", "-P", "-nostdinc", macros ? "-dM" : "-E",
			ast_printf("-I%s/arch/%s/include/uapi", common, k),
			ast_printf("-I%s/arch/%s/include/generated/uapi", s->kernel_build, k),
			ast_printf("-I%s/include/uapi", common), (char *)src, NULL};
	return run_cpp(argv, out) ? tapset_read_file(out) : NULL;
}

bool syscalls_generic_tables(struct session *s, char **table, char **unistd)
{
	const char *tmp = session_tmpdir(s);
	if (!tmp)
		return false;
	/* each call the target's 64-bit table has: "STAPC_SC NR sys_FUNC" */
	char *calls = preprocess(s, ast_printf("%s/sc_table.c", tmp),
				 "#define __SYSCALL(nr, f) STAPC_SC nr f\n#include <asm/unistd.h>\n", false);
	/* the __NR_ names, "#define __NR_read 63" or "#define __NR_fcntl __NR3264_fcntl" */
	char *names = preprocess(s, ast_printf("%s/sc_names.c", tmp), "#include <asm/unistd.h>\n", true);
	if (!calls || !names)
		return false;
	char *t = "", *u = "";
	for (const char *p = calls; (p = strstr(p, "STAPC_SC ")); p++) {
		int nr;
		char func[128];
		if (sscanf(p, "STAPC_SC %d %127[a-z0-9_]", &nr, func) == 2)
			t = ast_printf("%s__SYSCALL(%d, %s)\n", t, nr, func);
	}
	for (const char *p = names; (p = strstr(p, "#define __NR_")); p++) {
		char name[128], value[128];
		if (sscanf(p, "#define __NR_%127[a-z0-9_] %127[A-Za-z0-9_]", name, value) != 2 ||
		    !strcmp(name, "syscalls"))
			continue;
		if (!strncmp(value, "__NR3264_", 9)) {	/* the 64-bit name of a 32/64 pair */
			const char *v = strstr(names, ast_printf("#define %s ", value));
			if (!v || sscanf(v + strlen(value) + 9, "%127[0-9]", value) != 1)
				continue;
		}
		u = ast_printf("%s#define __NR_%s %s\n", u, name, value);
	}
	*table = t;
	*unistd = u;
	return *t && *u;
}
