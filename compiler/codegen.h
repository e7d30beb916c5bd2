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
	struct vec slots;         /* of const char *: extra locals-struct members ("string_t __tmp3") */
	int ntemps;               /* counter for C temporaries and slots */
	const char *fail_label;   /* where a failing operation jumps: "out", or a try's catch label */
};

/* Emit the statements of body (a BLOCK) at e's indentation. */
void codegen_body(struct codegen *g, struct node *body);

/* "operator '/' at t.stp:1:30": the "near" text of runtime errors. */
const char *codegen_near(const struct node *n);

/* C spelling of a symbol: l->l_x for locals and parameters, stp_global.s_x for globals. */
const char *codegen_symbol(const struct symbol *sym);

/* C member type of a value type (int64_t or string_t). */
const char *codegen_ctype(enum stp_type t);

/* The _stp_type enumerator for a value type. */
const char *codegen_stp_type(enum stp_type t);

#endif
