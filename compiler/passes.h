/* passes.h - the pass table and the interfaces of each pass. */
#ifndef STAPC_PASSES_H
#define STAPC_PASSES_H

#include <stdio.h>

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
int run_module(struct session *s);

/* --dump-probe-types, --dump-functions, --dump-probe-aliases (dump.c); returns the exit code. */
int dump_run(struct session *s);

/* A temporary directory for passes 3-5, created on first use; removed at exit unless -k. */
const char *session_tmpdir(struct session *s);

#endif
