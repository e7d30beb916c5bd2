/*
 * unit_sessions.c - one process compiles several scripts: each gives the same
 * pass-3 C as it does alone in a fresh process.
 *
 * stap's own main() runs here (renamed) as `stap -p3 -r fake-kernel -m unit
 * -e SCRIPT`, its stdout sent to a file. Every script is first compiled alone
 * in a forked child that has compiled nothing before (a fresh process), then
 * all of them in this one process, in turn and again in another order. Any
 * compiler state that outlived its session (a tapset table, a syscall cache,
 * a diagnostic count, preprocessor macros) shows as a difference.
 */
#define main stap_main
#include "../../compiler/main.c"
#include "tapset.h"
#undef main

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Scripts that reach different parts of pass 2 and 3 (no debuginfo: the stand-in kernel has none). */
static const char *const scripts[] = {
	"global a, st\n"
	"probe begin { a[\"x\"] = 1; st <<< 3; printf(\"hi %d %s\\n\", a[\"x\"], ctime(0)) }\n"
	"probe timer.ms(100) { println(@count(st)) %( kernel_v >= \"2.6\" %? exit() %) }\n",

	"@define twice(x) %( (@x) * 2 %)\n"
	"function f:long (n:long) { return @twice(n) }\n"
	"probe begin { if (\"abc\" =~ \"b+\") println(matched(0)); try { error(\"e\") } catch (m) { println(m) } }\n"
	"probe end { printf(\"%d %s\\n\", f(21), sprint_ustack(ubacktrace())) }\n",

	"global h\n"
	"probe timer.s(1) { h <<< randint(100) }\n"
	"probe end { print(@hist_linear(h, 0, 100, 10)); printf(\"%s %d\\n\", execname(), pid()) }\n",
};
#define NSCRIPTS (int)(sizeof(scripts) / sizeof(scripts[0]))

static int failures;

/* Run stap_main on script i, its stdout into path; returns its exit status. */
static int compile(int i, const char *path)
{
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (saved < 0 || fd < 0) {
		perror(path);
		exit(2);
	}
	dup2(fd, STDOUT_FILENO);
	close(fd);
	optind = 0; /* getopt starts over: a new command line */
	char *argv[] = {"stap", "-p3", "-r", STAPC_SOURCE_DIR "/testsuite/fake-kernel", "-m", "unit",
			"-e", (char *)scripts[i], NULL};
	int rc = stap_main(8, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	return rc;
}

static char *slurp(const char *path)
{
	char *text = tapset_read_file(path);
	if (!text) {
		fprintf(stderr, "cannot read %s\n", path);
		exit(2);
	}
	return text;
}

static void expect_same(const char *what, int i, const char *alone, const char *path)
{
	char *text = slurp(path);
	if (strcmp(alone, text) != 0) {
		fprintf(stderr, "FAIL: script %d compiled %s differs from it compiled alone (%s)\n", i, what, path);
		failures++;
	}
}

int main(void)
{
	char dir[] = "/tmp/unit_sessionsXXXXXX";
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	char *alone[NSCRIPTS];
	for (int i = 0; i < NSCRIPTS; i++) {
		const char *path = ast_printf("%s/alone%d.c", dir, i);
		pid_t pid = fork();
		if (pid == 0)
			_exit(compile(i, path));
		int status;
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			fprintf(stderr, "FAIL: script %d alone: stap -p3 failed (status %#x)\n", i, status);
			return 1;
		}
		alone[i] = slurp(path);
		if (!strstr(alone[i], "STP_MODULE_NAME \"unit\"")) {
			fprintf(stderr, "FAIL: script %d alone: no generated C in %s\n", i, path);
			return 1;
		}
	}
	/* In one process: each in turn, then backwards, so every script follows another. */
	for (int round = 0; round < 2; round++) {
		for (int k = 0; k < NSCRIPTS; k++) {
			int i = round == 0 ? k : NSCRIPTS - 1 - k;
			const char *path = ast_printf("%s/shared%d_%d.c", dir, round, i);
			if (compile(i, path) != 0) {
				fprintf(stderr, "FAIL: script %d in round %d: stap -p3 failed\n", i, round);
				failures++;
				continue;
			}
			expect_same(round == 0 ? "after the ones before it" : "after the others, backwards", i, alone[i],
				    path);
		}
	}
	if (!failures) {
		for (int i = 0; i < NSCRIPTS; i++) {
			unlink(ast_printf("%s/alone%d.c", dir, i));
			for (int round = 0; round < 2; round++)
				unlink(ast_printf("%s/shared%d_%d.c", dir, round, i));
		}
		rmdir(dir);
		printf("unit_sessions: %d scripts, each the same alone and after the others\n", NSCRIPTS);
	} else {
		fprintf(stderr, "outputs kept in %s\n", dir);
	}
	return failures ? 1 : 0;
}
