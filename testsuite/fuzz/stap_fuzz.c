/*
 * stap_fuzz.c - a fuzz target over passes 1 and 2: stap's own main() on one input.
 *
 * Input (a file named on the command line, AFL++'s @@): the script, then
 * optionally its arguments, each after a NUL byte ("$1\0x $1" is the
 * script "$1" with the argument "x $1"). It runs as
 *
 *     stap -p2 -r testsuite/fake-kernel -e SCRIPT -- ARGS...
 *
 * against the stand-in kernel tree, so probes that need debuginfo fail at
 * once instead of reading a real kernel's DWARF.
 *
 * Built with STAP_FUZZ_KERNEL (the stap-fuzz-kernel executable), it
 * elaborates against a real kernel's types instead:
 *
 *     stap -p2 -r RELEASE --debuginfo=btf|dwarf -e SCRIPT -- ARGS...
 *
 * RELEASE from $STAP_FUZZ_RELEASE (default the cloud kernel), DWARF when
 * the script starts with "#dwarf" (a comment, so mutations keep it or drop
 * it), else BTF: target-variable paths, @cast, autocast locals and the
 * suggestions of pass 2 meet real structs (testsuite/fuzz/kernel-corpus). The compiler keeps a
 * script's state in its session, so one process takes many inputs: every
 * file named on the command line, or under AFL++ (afl-clang-fast) its
 * persistent loop, FUZZ_INPUTS_PER_PROCESS inputs before a fresh process
 * (the arena is never freed: the bound keeps memory in check).
 *
 * Built with STAP_FUZZ_LSP (stap-fuzz-lsp), the input is what an editor
 * would write to the language server instead, LSP messages with their
 * Content-Length headers, read as stdin by
 *
 *     stap --language-server -r testsuite/fake-kernel
 *
 * whose children (one per analysis) run passes 1-2 on the documents the
 * messages open and edit, at the positions they name
 * (testsuite/fuzz/lsp-corpus). That configuration's server aborts when a
 * child dies by a signal (lsp/lsp.c), so a crash of an analysis is one of
 * the target's. One input per process: the server reads stdin to its end.
 * See docs/testing.md, "Fuzzing".
 */
#define main stap_main
#include "../../compiler/main.c"
#undef main

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

/* The compiler never frees (its arena policy): leaks are not findings. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

/* Script arguments taken from one input at most. */
#define FUZZ_MAX_ARGS 8

#ifdef STAP_FUZZ_KERNEL
/* stap, -p2, -r RELEASE, --debuginfo=KIND, -e SCRIPT, --: the arguments before the script's own. */
#define FUZZ_FIXED_ARGS 8
/* The kernel whose types the inputs elaborate against unless $STAP_FUZZ_RELEASE names another. */
#define FUZZ_DEFAULT_RELEASE "6.1.0-56-cloud-amd64"
#else
/* stap, -p2, -r FAKE-KERNEL, -e SCRIPT, --: the arguments before the script's own. */
#define FUZZ_FIXED_ARGS 7
#endif

/* Inputs one process takes under AFL++'s persistent mode before it starts afresh. */
#define FUZZ_INPUTS_PER_PROCESS 64

#ifdef STAP_FUZZ_LSP
/* Serve the messages in path (as stdin) with stap --language-server; its exit status. */
static int fuzz_one(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0 || dup2(fd, 0) < 0) {
		perror(path);
		return 2;
	}
	close(fd);
	char *stap_argv[] = {"stap", "--language-server", "-r", STAPC_SOURCE_DIR "/testsuite/fake-kernel", NULL};
	optind = 0;
	return stap_main(4, stap_argv);
}
#else
/* Compile the input in path as stap -p2; stap's exit status. */
static int fuzz_one(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 2;
	}
	static char buf[1 << 20]; /* inputs past 1 MB are cut: passes 1-2 are what is tested, not I/O */
	size_t len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';

	/* "--": an argument like "-p4" stays a script argument, never an option. */
#ifdef STAP_FUZZ_KERNEL
	const char *release = getenv("STAP_FUZZ_RELEASE");
	char *stap_argv[FUZZ_FIXED_ARGS + FUZZ_MAX_ARGS + 1] = {
		"stap", "-p2", "-r", (char *)(release && *release ? release : FUZZ_DEFAULT_RELEASE),
		strncmp(buf, "#dwarf", 6) ? "--debuginfo=btf" : "--debuginfo=dwarf", "-e", buf, "--",
	};
#else
	char *stap_argv[FUZZ_FIXED_ARGS + FUZZ_MAX_ARGS + 1] = {
		"stap", "-p2", "-r", STAPC_SOURCE_DIR "/testsuite/fake-kernel", "-e", buf, "--",
	};
#endif
	int n = FUZZ_FIXED_ARGS;
	for (size_t i = 0; i < len && n < FUZZ_FIXED_ARGS + FUZZ_MAX_ARGS; i++)
		if (buf[i] == '\0')
			stap_argv[n++] = buf + i + 1;
	stap_argv[n] = NULL;
	optind = 0; /* a new command line for getopt */
	return stap_main(n, stap_argv);
}
#endif

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: stap-fuzz INPUT...  (each: the script, then NUL-separated script arguments;\n"
				"       stap-fuzz-lsp: LSP messages with their headers)\n");
		return 2;
	}
	int status = 0;
#if defined(__AFL_LOOP) && !defined(STAP_FUZZ_LSP)
	while (__AFL_LOOP(FUZZ_INPUTS_PER_PROCESS))
		status = fuzz_one(argv[1]);
#else
	for (int i = 1; i < argc; i++)
		status |= fuzz_one(argv[i]);
#endif
	return status;
}
