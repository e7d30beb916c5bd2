/* codegen.h - pass 3 internals: C for statements and expressions of one body. */
#ifndef STAPC_CODEGEN_H
#define STAPC_CODEGEN_H

#include "emit.h"
#include "session.h"

/*
 * Generating one probe or function body. Expressions become C expressions
 * (GNU statement expressions where they need sequencing or error checks);
 * strings that must outlive their producer get a slot in the body's locals
 * struct (the context, never the small kernel stack).
 */
struct codegen {
	struct emitter *e;        /* where the body's statements go */
	struct session *s;
	struct function *func;    /* NULL in a probe */
	struct probe *probe;      /* the probe whose body this is (or whose clone of a context-sensitive
	                             function), NULL in another function */
	struct vec slots;         /* of const char *: extra locals-struct members ("string_t __tmp3") */
	int ntemps;               /* counter for C temporaries and slots */
	const char *fail_label;   /* where a failing operation jumps: "out", or a try's catch label */
};

/* Emit the statements of body (a BLOCK) at e's indentation. */
void codegen_body(struct codegen *g, struct node *body);

/* C name (after "function_") of fn called from g's body: a context-sensitive function's clone for g->probe. */
const char *codegen_function_name(const struct codegen *g, const struct function *fn);

/* "operator '/' at t.stp:1:30": the "near" text of runtime errors. */
const char *codegen_near(const struct node *n);

/* C spelling of a symbol: l->l_x for locals and parameters, stp_global.s_x for globals. */
const char *codegen_symbol(const struct symbol *sym);

/* C member type of a value type (int64_t or string_t). */
const char *codegen_ctype(enum stp_type t);

/* The _stp_type enumerator for a value type. */
const char *codegen_stp_type(enum stp_type t);

/* Building blocks for the files below and targetvar.c (see codegen.c). */
void codegen_bind_foreach_keys(struct codegen *g, const struct node *n, const char *node);
const char *codegen_foreach_slice(struct codegen *g, const struct node *n, const char *node);
void codegen_foreach_filter(struct codegen *g, const char *slice, const char *limit);
void codegen_emit_display_keys(struct emitter *e, const char *name, const struct symbol *sym);
const char *codegen_expr(struct codegen *g, struct node *n);         /* C expression for n */
const char *codegen_temp(struct codegen *g, const char *prefix);     /* fresh C identifier */
const char *codegen_string_slot(struct codegen *g);                  /* a string_t in the locals */
const char *codegen_fail(struct codegen *g, const char *msg, const struct node *n); /* fail, near n */
const char *codegen_fail_label(struct codegen *g);                   /* where failures jump: out or a catch */
const char *codegen_keys(struct codegen *g, struct vec *keys, const char *k); /* union _stp_key k[] = keys */
void codegen_charge(struct codegen *g, int count, const struct node *n);     /* MAXACTION */
void codegen_substmt(struct codegen *g, struct node *n);             /* a loop or if body */

/* codegen_stats.c: statistics in bodies, and the statistics globals of the module. */
const char *codegen_stats_add(struct codegen *g, struct node *n);        /* x <<< v */
const char *codegen_stats_op(struct codegen *g, struct node *n);         /* @count(x), @hist_log(x)[i] */
const char *codegen_stats_print_hist(struct codegen *g, struct node *n); /* print(@hist_log(x)) */
const char *codegen_stats_in(struct codegen *g, struct node *n);         /* [k] in stats_array */
void codegen_stats_foreach(struct codegen *g, struct node *n);
void codegen_stats_foreach_hist(struct codegen *g, struct node *n);
void codegen_stats_delete(struct codegen *g, struct node *n);
void codegen_stats_layouts(struct emitter *e, struct session *s);     /* histogram layouts of the globals */
void codegen_stats_global_member(struct emitter *e, struct global *g);
void codegen_stats_global_init(struct emitter *e, struct global *g);
void codegen_stats_global_free(struct emitter *e, struct global *g);
void codegen_stats_display(struct emitter *e, struct global *g);     /* end-of-script display */

/* regex_use.c: s =~ "re" as C, and the matchers the module needs. */
const char *codegen_regex(struct codegen *g, struct node *n);
int codegen_regex_work_words(struct session *s);   /* 0 when the script has no regex */
void codegen_regex_emit_all(struct session *s, struct emitter *e); /* every matcher generated so far */

/* codegen_target.c: target variables from the plans of pass 2 (targetvar.h). */
struct target_scope;
/* C for a TARGET, DEFINED or ENTRY node; C for an assignment to a TARGET. */
const char *targetvar_gen_expr(struct codegen *g, struct node *n);
const char *targetvar_gen_assign(struct codegen *g, struct node *assign);

/*
 * Pass 3 (probes/kprobe.c): for a return probe whose scope saves values at
 * entry, emit "static void NAME(struct context *c)" storing them into
 * c->base.entry_data. Returns false (emitting nothing) if nothing is saved.
 */
bool targetvar_emit_entry(struct emitter *e, struct session *s, struct target_scope *scope, struct probe *probe,
			  const char *name);

/* C expression for the bytes of kretprobe instance data the saved values need. */
const char *targetvar_entry_size(struct target_scope *scope);

#endif
