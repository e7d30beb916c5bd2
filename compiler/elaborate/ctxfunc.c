/*
 * ctxfunc.c - context-sensitive functions (SystemTap 4.3): a script function
 * may read the probe point as a probe body does ($x, $$vars, $var->field,
 * &$var, @cast($var, ...), @entry, @defined($x)), itself or through a
 * function it calls. Such a function has no single meaning: targetvar.c
 * plans its target expressions at each point of each probe that calls it,
 * and pass 3 generates one clone of it per probe (translate.c), sharing the
 * clones whose C reads the same. A call from a probe that lacks a variable
 * is an error at the variable, with the call chain as notes. Tapset
 * functions stay as they were (resolve.c refuses target variables there).
 */
#include "ctxfunc.h"
#include "diag.h"

/* Does n itself read the probe point (a cast, @var or autocast alone does not)? */
static bool reads_point(const struct node *n)
{
	if (n->kind == NODE_ENTRY)
		return true;
	if (n->kind != NODE_TARGET)
		return false;
	switch (n->u.target.base) {
	case TARGET_BASE_VAR:
	case TARGET_BASE_PARMS:
	case TARGET_BASE_LOCALS:
	case TARGET_BASE_VARS:
	case TARGET_BASE_RETURN:
		return true;
	case TARGET_BASE_CAST:
	case TARGET_BASE_AT_VAR:
	case TARGET_BASE_AUTO:
		return false;
	}
	return false;
}


/* Does fn reach target through context-sensitive callees? path collects the functions on the way. */
static bool reaches(struct function *fn, struct function *target, struct vec *seen, struct vec *path)
{
	for (int i = 0; i < fn->callees.n; i++) {
		struct function *c = fn->callees.items[i];
		if (!c->context_sensitive)
			continue;
		if (c == target)
			return true;
		bool visited = false;
		for (int j = 0; j < seen->n && !visited; j++)
			visited = seen->items[j] == c;
		if (visited)
			continue;
		vec_push(seen, c);
		vec_push(path, c);
		if (reaches(c, target, seen, path))
			return true;
		path->n--;
	}
	return false;
}

static bool check_recursion(struct session *s)
{
	bool ok = true;
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		struct vec seen = {0}, path = {0};
		if (!fn->context_sensitive || !reaches(fn, fn, &seen, &path))
			continue;
		char *through = "";
		for (int j = 0; j < path.n; j++)
			through = ast_printf("%s%s'%s'", through, j ? ", " : " through ", ((struct function *)path.items[j])->name);
		diag_error(fn->loc, "function '%s' is context-sensitive (it reads target variables, or calls a function that does) "
			   "and calls itself%s: it is cloned for each "
			   "probe that calls it, so it cannot recurse", fn->name, through);
		ok = false;
	}
	return ok;
}

bool ctxfunc_mark(struct session *s)
{
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		fn->context_sensitive = !fn->from_tapset && fn->body->kind != NODE_EMBEDDED && ast_contains(fn->body, reads_point);
	}
	for (bool changed = true; changed;) {
		changed = false;
		for (int i = 0; i < s->functions.n; i++) {
			struct function *fn = s->functions.items[i];
			for (int j = 0; j < fn->callees.n && !fn->context_sensitive && !fn->from_tapset; j++)
				if (((struct function *)fn->callees.items[j])->context_sensitive)
					fn->context_sensitive = changed = true;
		}
	}
	return check_recursion(s);
}

struct reach_walk {
	struct vec *out;               /* of struct ctx_call * */
	const struct ctx_call *caller; /* the call whose function is being walked, NULL in the probe body */
};

static bool reach_pre(struct ast_walker *w, struct node *n)
{
	struct reach_walk *rw = w->data;
	if (n->kind != NODE_CALL || !n->u.call.func || !n->u.call.func->context_sensitive)
		return true;
	for (int i = 0; i < rw->out->n; i++)
		if (((struct ctx_call *)rw->out->items[i])->fn == n->u.call.func)
			return true;
	struct ctx_call *c = ast_alloc(sizeof(*c));
	c->fn = n->u.call.func;
	c->call = n;
	c->caller = rw->caller;
	vec_push(rw->out, c);
	const struct ctx_call *outer = rw->caller;
	rw->caller = c;
	ast_walk(w, c->fn->body);
	rw->caller = outer;
	return true;
}

void ctxfunc_reached(struct node *body, struct vec *out)
{
	struct reach_walk rw = {.out = out};
	struct ast_walker w = {.pre = reach_pre, .data = &rw};
	ast_walk(&w, body);
}

static bool calls_pre(struct ast_walker *w, struct node *n)
{
	if (n->kind == NODE_CALL && n->u.call.func && n->u.call.func->context_sensitive)
		vec_push(w->data, n);
	return true;
}

void ctxfunc_calls(struct node *body, struct vec *out)
{
	struct ast_walker w = {.pre = calls_pre, .data = out};
	ast_walk(&w, body);
}

/* Outermost first, so the notes print innermost first. */
void ctxfunc_push_chain(const struct ctx_call *c, const char *pp)
{
	if (!c)
		return;
	ctxfunc_push_chain(c->caller, pp);
	diag_push_expansion(ast_printf("function '%s' for probe point '%s'", c->fn->name, pp), c->call->loc);
}

void ctxfunc_pop_chain(const struct ctx_call *c)
{
	for (; c; c = c->caller)
		diag_pop_expansion();
}
