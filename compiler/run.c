/* run.c - pass 5: run the module with staprun here, or in a disposable QEMU guest with stapvm. */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "passes.h"
#include "../runtime/transport_msgs.h"

/* staprun's options for this session, appended to argv. */
static void staprun_options(struct session *s, struct vec *argv)
{
	if (s->output_file) {
		vec_push(argv, "-o");
		vec_push(argv, (char *)s->output_file);
	}
	if (s->buffer_mb) {
		vec_push(argv, "-s");
		vec_push(argv, ast_printf("%d", s->buffer_mb));
	}
	if (s->target_cmd) {
		vec_push(argv, "-c");
		vec_push(argv, (char *)s->target_cmd);
	}
	if (s->target_pid) {
		vec_push(argv, "-x");
		vec_push(argv, ast_printf("%ld", s->target_pid));
	}
	if (s->verbose > 1)
		vec_push(argv, "-v");
}

/* Run argv, passing SIGINT/SIGTERM on to it; returns its exit status. */
static int run_child(struct vec *argv)
{
	vec_push(argv, NULL);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "stap: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		execv(argv->items[0], (char **)argv->items);
		fprintf(stderr, "stap: cannot run %s: %s\n", (char *)argv->items[0], strerror(errno));
		_exit(127);
	}
	/* The child shares our terminal's process group and gets Ctrl-C itself. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int run_module(struct session *s)
{
	struct vec argv = {0};
	if (s->remote) {
		/* the module and nothing else goes to /work in the guest */
		vec_push(&argv, ast_printf("%s/stapvm", s->bin_dir));
		vec_push(&argv, "-r");
		vec_push(&argv, (char *)s->release);
		vec_push(&argv, "-d");
		vec_push(&argv, (char *)s->tmpdir);
		if (s->verbose)
			vec_push(&argv, "-v");
		vec_push(&argv, "--");
		vec_push(&argv, "staprun");
		staprun_options(s, &argv);
		vec_push(&argv, ast_printf("/work/%s.ko", s->module_name));
		/* one target: remote_id() 0, remote_uri() the --remote argument */
		vec_push(&argv, ast_printf("%s=0", STP_REMOTE_ID_PARAM));
		vec_push(&argv, ast_printf("%s=%s", STP_REMOTE_URI_PARAM, s->remote));
		return run_child(&argv);
	}
	vec_push(&argv, ast_printf("%s/staprun", s->bin_dir));
	staprun_options(s, &argv);
	vec_push(&argv, (char *)s->ko_path);
	return run_child(&argv);
}
