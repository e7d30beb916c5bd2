/* run.h - pass 5: the module run here by staprun, in a QEMU guest by stapvm, or on a fleet. */
#ifndef STAPC_RUN_H
#define STAPC_RUN_H

#include "session.h"

/* Run s->ko_path; the exit code (staprun's, or stapvm's). */
int run_module(struct session *s);
/* The release stapvm would boot by default (newest with a build tree), or NULL. */
const char *run_pick_guest_release(void);
/* Pass 5's pieces the fleet (remote_ssh.c) shares: staprun's options (output: -o's file as
   staprun sees it, or NULL), and -G's module parameters. */
void run_staprun_options(struct session *s, struct vec *argv, const char *output);
void run_global_params(struct session *s, struct vec *argv);
/* --remote with ssh, direct:// or several targets: passes 1-4 per kernel release (stap run again
   with s->argv), pass 5 on each target, output merged (remote_ssh.c); the exit code. */
int remote_fleet_run(struct session *s);

#endif
