/* passes.h - the pass table and the interfaces of each pass. */
#ifndef STAPC_PASSES_H
#define STAPC_PASSES_H

#include <stdio.h>
#include <sys/types.h>

#include "session.h"

/* Run passes 1..s->last_pass; returns the process exit code. */
int passes_run(struct session *s);

/* The release stapvm would boot by default (newest with a build tree), or NULL. */
const char *passes_pick_guest_release(void);

/* Pass 1: parse.c. Pass 2: elaborate.c. Pass 3: translate.c. Pass 4: build.c. Pass 5: run.c. */
bool elaborate(struct session *s);
void elaborate_print(struct session *s, FILE *out);
bool translate(struct session *s);
bool build_module(struct session *s);
/* Pass 5's pieces the fleet (remote_ssh.c) shares: staprun's options (output: -o's file as
   staprun sees it, or NULL), and -G's module parameters. */
void run_staprun_options(struct session *s, struct vec *argv, const char *output);
void run_global_params(struct session *s, struct vec *argv);
/* --remote with ssh, direct:// or several targets: passes 1-4 per kernel release, pass 5 on each
   target, output merged (remote_ssh.c); argv is stap's own, options before argv[script_index]. */
int remote_fleet_run(struct session *s);
int run_module(struct session *s);

/* --dump-probe-types, --dump-functions, --dump-probe-aliases (dump.c); returns the exit code. */
int dump_run(struct session *s);

/*
 * Stop signals during passes 1-4. passes_run catches SIGINT, SIGTERM, SIGHUP and
 * SIGPIPE (a closed stdout: the write fails, stap exits 1 and cleans up) (without SA_RESTART, so a blocking wait returns EINTR): the pass in progress
 * ends, no module is written, the temporary directory is removed and stap exits
 * 1. passes_stop_signal() is the signal caught, or 0. A child stap starts (the
 * kernel build) goes in a process group of its own, named with
 * passes_watch_child(): a stop signal then stops that whole group, so no make
 * or gcc outlives stap. That group's leader is a watcher (build.c) with
 * PR_SET_PDEATHSIG: a stap killed by SIGKILL stops the group through it. Pass 5 hands the signals on to the session (run.c).
 */
int passes_stop_signal(void);
void passes_watch_child(pid_t pgid);

/* Remove a directory tree (the temporary directory). */
void passes_remove_tree(const char *path);

/* A temporary directory for passes 3-5, created on first use; removed at exit unless -k. */
const char *session_tmpdir(struct session *s);

#endif
