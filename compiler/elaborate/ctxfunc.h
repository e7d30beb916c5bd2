/*
 * ctxfunc.h - context-sensitive functions: script functions that read the
 * probe point ($x, $$vars, @entry, @defined($x)), which pass 2 plans and
 * pass 3 generates once per probe that calls them.
 */
#ifndef STAPC_CTXFUNC_H
#define STAPC_CTXFUNC_H

#include "ast.h"
#include "session.h"

/* One call reaching a context-sensitive function from a probe body, through the chain of callers. */
struct ctx_call {
	struct function *fn;            /* the function called */
	struct node *call;              /* the CALL node, in the probe body or in the caller's body */
	const struct ctx_call *caller;  /* the call that reached the function holding this call; NULL: the probe */
};

/*
 * Set fn->context_sensitive on every script function (not the tapset's)
 * whose body, or a function it calls, reads the probe point; such a function
 * may not recurse (it is cloned per probe). After resolve_program. False on
 * an error.
 */
bool ctxfunc_mark(struct session *s);

/* Append to out (of struct ctx_call *) each context-sensitive function body reaches, once, callers first. */
void ctxfunc_reached(struct node *body, struct vec *out);

/* Append to out (of struct node *) the calls of context-sensitive functions in body itself. */
void ctxfunc_calls(struct node *body, struct vec *out);

/* Push the call chain of c as expansion notes naming the probe point pp (pop with ctxfunc_pop_chain). */
void ctxfunc_push_chain(const struct ctx_call *c, const char *pp);
void ctxfunc_pop_chain(const struct ctx_call *c);

#endif
