/*
 * targetvar.c - target variables in pass 2: from the parser's nodes (targetvar_parse.c) to a plan per probe point, which translate/codegen_target.c turns into fault-safe C.
 *
 * A target expression ($file->f_pos, $buf[2], &$task->comm, $$parms$,
 * @cast(p, "task_struct")->pid, @var("jiffies_64")) is planned in pass 2 for
 * each probe point separately, because where a variable lives depends on the
 * point (a register at one function's entry, a stack slot in another).
 * A probe whose body uses target variables is therefore split into one probe
 * per point, as SystemTap's derived probes are; each copy shares the body.
 *
 * A plan is a short program on one unsigned long "v":
 *   start:  v = a register | a constant | a tracepoint argument | a relocated
 *           kernel address | a script expression (@cast) | rax ($return)
 *   then:   v += k | v += index * k | v = load(size, signed) | v = bit-field
 *           | v = truncated to the type's size
 * State while planning: the current type, and whether v holds the value or
 * the address of the object (in memory). Loads are fault-safe runtime calls
 * (_stp_deref: copy_from_kernel_nofault / copy_from_user_nofault); a bad
 * address sets "kernel read fault at 0x..." and ends the probe, which the
 * runtime reports as ERROR ... near <the expression> at file:line:col.
 *
 * Return probes: $return is rax; every other target expression (and each
 * @entry(expr)) is evaluated at the function's entry by a kretprobe entry
 * handler (see targetvar_emit_entry) and read back from the instance's data.
 *
 * Pretty printing ($var$, $var$$, $$parms, $$locals, $$vars, $$return)
 * expands the type at compile time into appends to a string; a field that
 * cannot be read prints as "?" instead of failing.
 *
 * Some variables come from the probe point itself rather than from
 * debuginfo (struct target_provided: procfs $value, SDT $argN, $$name,
 * $$provider): the provider hands over the C that reads (or writes) them,
 * and they are typed before type inference, since $value is a string.
 *
 * User space (process(...) probes, scope->user): loads use
 * copy_from_user_nofault (uprobe handlers run in the probed task), and a
 * link-time address (a global of a PIE or a library) moves by the load
 * bias the uprobe runtime measures at the hit.
 */
#include <inttypes.h>
#include <string.h>

#include "debuginfo/headers.h"
#include "debuginfo/kernel.h"
#include "debuginfo/suggest.h"
#include "ctxfunc.h"
#include "diag.h"
#include "probes.h"
#include "targetvar.h"

/* ---- variables a probe point defines ---- */

void targetvar_provide(struct target_scope *scope, const char *name, enum stp_type type, const char *rvalue,
		       const char *lvalue, bool in_parms)
{
	struct target_provided *pv = ast_alloc(sizeof(*pv));
	pv->name = name;
	pv->type = type;
	pv->rvalue = rvalue;
	pv->lvalue = lvalue;
	pv->in_parms = in_parms;
	vec_push(&scope->provided, pv);
}


/* The error for $name, which scope does not have: what it has instead. */
static const char *missing_var(struct target_scope *scope, const char *name)
{
	char *names = "";
	int listed = 0;
	for (int i = 0; i < scope->provided.n && listed < 12; i++, listed++)
		names = ast_printf("%s%s$%s", names, listed ? " " : "",
				   ((struct target_provided *)scope->provided.items[i])->name);
	for (int i = 0; i < scope->vars.n && listed < 12; i++, listed++)
		names = ast_printf("%s%s$%s", names, listed ? " " : "", ((struct dbg_var *)scope->vars.items[i])->name);
	if (scope->is_return && scope->ret && listed < 12)
		names = ast_printf("%s%s$return", names, listed ? " " : "");
	if (scope->no_debuginfo)
		return ast_printf("no target variable '$%s' in %s: %s%s", name, scope->what, scope->no_debuginfo,
				  *names ? ast_printf(" (it has: %s)", names) : "");
	return ast_printf("no target variable '$%s' in %s (it has: %s)", name, scope->what, *names ? names : "none");
}

static struct target_provided *scope_provided(struct target_scope *scope, const char *name)
{
	for (int i = 0; scope && i < scope->provided.n; i++) {
		struct target_provided *pv = scope->provided.items[i];
		if (!strcmp(pv->name, name))
			return pv;
	}
	return NULL;
}

/* One probe body being typed: its points, and whether they agreed. */
/* What nodes_of_kind collects: the nodes of one kind. */
struct kind_walk {
	enum node_kind kind; /* the kind wanted */
	struct vec found;    /* of struct node * */
};

static bool kind_pre(struct ast_walker *w, struct node *n)
{
	struct kind_walk *kw = w->data;
	if (n->kind == kw->kind)
		vec_push(&kw->found, n);
	return true;
}

/* The nodes of kind inside n (n itself if it is one), outermost first. */
static struct vec nodes_of_kind(struct node *n, enum node_kind kind)
{
	struct kind_walk kw = {.kind = kind};
	struct ast_walker w = {.pre = kind_pre, .data = &kw};
	ast_walk(&w, n);
	return kw.found;
}

/* The target expressions inside n (n itself if it is one), outermost first. */
struct vec targetvar_inner_targets(struct node *n)
{
	return nodes_of_kind(n, NODE_TARGET);
}

/* Record as guarded (by @defined) the text of every target expression in operand. */
static void note_guarded(struct vec *guarded, struct node *operand)
{
	struct vec targets = targetvar_inner_targets(operand);
	for (int i = 0; i < targets.n; i++)
		vec_push(guarded, (void *)ast_expr_text(targets.items[i]));
}

struct bind_walk {
	struct vec points;         /* of struct resolved_probe *: those with variables of their own */
	struct vec guarded;        /* of const char *: operands of @defined in the body */
	bool ok;
};

static bool guard_pre(struct ast_walker *w, struct node *n)
{
	struct bind_walk *bw = w->data;
	if (n->kind == NODE_DEFINED)
		note_guarded(&bw->guarded, n->u.at_op.operand);
	return true;
}

static bool bind_pre(struct ast_walker *w, struct node *n)
{
	struct bind_walk *bw = w->data;
	if (n->kind != NODE_TARGET || n->u.target.base != TARGET_BASE_VAR)
		return true;
	struct resolved_probe *first = NULL;
	for (int i = 0; i < bw->points.n; i++) {
		struct resolved_probe *r = bw->points.items[i];
		struct target_provided *pv = scope_provided(r->scope, n->u.target.name);
		if (!pv) {
			/*
			 * A point with nothing but its own variables (procfs, an SDT
			 * marker) cannot have this one: say so now, rather than as a
			 * type error it would cause.
			 */
			struct target_scope *sc = r->scope;
			bool closed = !sc->di && !sc->vars.n && !sc->is_return;
			bool guarded = false;
			for (int j = 0; j < bw->guarded.n && !guarded; j++)
				guarded = !strcmp(bw->guarded.items[j], ast_expr_text(n));
			if (closed && !guarded) {
				diag_error(n->loc, "%s", missing_var(sc, n->u.target.name));
				bw->ok = false;
				return true;
			}
			continue;
		}
		if (first && pv->type != n->u.target.provided_type) {
			diag_error(n->loc, "'$%s' is a %s at '%s' but a %s at '%s': write separate probes", n->u.target.name,
				   ast_type_name(n->u.target.provided_type), first->pp, ast_type_name(pv->type), r->pp);
			bw->ok = false;
			return true;
		}
		first = r;
		n->u.target.provided_type = pv->type;
	}
	return true;
}

bool targetvar_bind_provided(struct session *s)
{
	bool ok = true;
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct bind_walk bw = {.ok = true};
		for (int j = 0; j < p->resolved.n; j++) {
			struct resolved_probe *r = p->resolved.items[j];
			if (r->scope && r->scope->provided.n)
				vec_push(&bw.points, r);
		}
		if (!bw.points.n)
			continue;
		/* the context-sensitive functions it calls read its points too */
		struct vec reached = {0};
		ctxfunc_reached(p->body, &reached);
		struct ast_walker g = {.pre = guard_pre, .data = &bw};
		ast_walk(&g, p->body);
		for (int j = 0; j < reached.n; j++)
			ast_walk(&g, ((struct ctx_call *)reached.items[j])->fn->body);
		struct ast_walker w = {.pre = bind_pre, .data = &bw};
		ast_walk(&w, p->body);
		for (int j = 0; j < reached.n; j++)
			ast_walk(&w, ((struct ctx_call *)reached.items[j])->fn->body);
		ok &= bw.ok;
	}
	return ok;
}

/* ---- plans ---- */

/*
 * The plans of one node, one per probe copy. The copies are planned in
 * the order of their indexes, so a binary search finds one at once (a
 * wildcard's body has thousands); a linear search stays as the fallback.
 */
struct tv_plan *targetvar_plan_of(struct node *n, struct probe *p)
{
	struct vec *plans = n->kind == NODE_TARGET ? n->u.target.resolved : n->u.at_op.resolved;
	int lo = 0, hi = plans ? plans->n - 1 : -1;
	while (lo <= hi && p) {
		int mid = lo + (hi - lo) / 2;
		struct tv_plan *pl = plans->items[mid];
		if (pl->probe == p)
			return pl;
		if (!pl->probe || pl->probe->index < p->index)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	for (int i = 0; plans && i < plans->n; i++) {
		struct tv_plan *pl = plans->items[i];
		if (pl->probe == p)
			return pl;
	}
	return NULL;
}

/*
 * Kept in the order of the probes' indexes for targetvar_plan_of: a
 * context-sensitive function's node gets plans from the copies of several
 * probes, whose indexes interleave.
 */
static void add_plan(struct node *n, struct tv_plan *pl)
{
	void **slot = n->kind == NODE_TARGET ? &n->u.target.resolved : &n->u.at_op.resolved;
	if (!*slot)
		*slot = ast_alloc(sizeof(struct vec));
	struct vec *plans = *slot;
	vec_push(plans, pl);
	int i = plans->n - 1;
	for (; i > 0 && pl->probe && ((struct tv_plan *)plans->items[i - 1])->probe &&
	       ((struct tv_plan *)plans->items[i - 1])->probe->index > pl->probe->index; i--)
		plans->items[i] = plans->items[i - 1];
	plans->items[i] = pl;
}

static struct tv_op *add_op(struct tv_plan *pl, enum tv_op_kind kind)
{
	struct tv_op *op = ast_alloc(sizeof(*op));
	op->kind = kind;
	vec_push(&pl->ops, op);
	return op;
}

static const char *type_text(struct dbg_type *t)
{
	return dbg_type_text(t);
}

/* Make v hold the value (not the address) of a scalar or an array's address. */
static bool to_value(struct tv_plan *pl)
{
	struct dbg_type *t = dbg_type_strip(pl->type);
	if (!pl->in_memory)
		return true;
	if (t && t->kind == DBG_ARRAY) {
		/* an array's value is its address, as in C */
		pl->in_memory = false;
		struct dbg_type *ptr = dbg_type_new(t->di, DBG_PTR, NULL, 0);
		ptr->size = 8;
		ptr->target = t->target;
		pl->type = ptr;
		return true;
	}
	if (t && t->kind == DBG_FLOAT && (t->size == 4 || t->size == 8)) {
		/* its bits, as the fp_* tapset functions take them; a float's widened to a double's (SystemTap 4.5) */
		struct tv_op *op = add_op(pl, TV_LOAD);
		op->size = (int)t->size;
		if (t->size == 4)
			add_op(pl, TV_WIDEN_FLOAT);
		pl->in_memory = false;
		pl->settable_reg = false;
		return true;
	}
	if (!dbg_type_is_scalar(t))
		return false;
	struct tv_op *op = add_op(pl, TV_LOAD);
	op->size = (int)t->size;
	op->is_signed = t->is_signed;
	if (pl->bits) {
		struct tv_op *b = add_op(pl, TV_BITS);
		b->bit = pl->bit;
		b->bits = pl->bits;
		b->is_signed = t->is_signed;
		pl->bits = 0;
	}
	pl->in_memory = false;
	pl->settable_reg = false;
	return true;
}

/* Start a plan from a debuginfo variable located by the provider. */
static bool start_var(struct tv_plan *pl, struct dbg_var *v)
{
	pl->type = v->type;
	struct dbg_type *t = dbg_type_strip(v->type);
	struct tv_op *op;
	switch (v->loc.kind) {
	case DBG_LOC_NONE:
		pl->error = ast_printf("'$%s' is not available here: %s", v->name, v->loc.why ? v->loc.why : "no location");
		return false;
	case DBG_LOC_REG:
	case DBG_LOC_ARG:
		if (!dbg_type_is_scalar(t)) {
			pl->error = ast_printf("'$%s' (%s) is held in registers, which only works for scalars", v->name,
					       type_text(v->type));
			return false;
		}
		op = add_op(pl, v->loc.kind == DBG_LOC_REG ? TV_START_REG : TV_START_ARG);
		op->reg = v->loc.reg;
		op->k = v->loc.value_is_sum ? v->loc.offset : 0;
		pl->settable_reg = v->loc.kind == DBG_LOC_REG && !v->loc.value_is_sum;
		pl->reg = v->loc.reg;
		if (t->size < 8) {
			op = add_op(pl, TV_TRUNC);
			op->size = (int)t->size;
			op->is_signed = t->is_signed;
		}
		return true;
	case DBG_LOC_MEMORY:
		if (v->loc.absolute) {
			op = add_op(pl, TV_START_ABS);
			op->k = v->loc.offset;
		} else {
			op = add_op(pl, TV_START_REG);
			op->reg = v->loc.reg;
			op->k = v->loc.offset;
		}
		pl->in_memory = true;
		return true;
	case DBG_LOC_CONST:
		op = add_op(pl, TV_START_CONST);
		op->k = v->loc.offset;
		return true;
	}
	return false;
}

/*
 * n's text with step i's field spelled fields[i] when set, and for a $name
 * the name spelled name (--adapt's rewrite). Any base: a @cast, a @var, an
 * autocast operand (a local holding a typed pointer) or $$parms is printed
 * as written, without its path.
 */
static const char *target_text(struct node *n, const char *name, const struct vec *fields)
{
	struct node head = *n;
	head.u.target.path = (struct vec){0};
	head.u.target.pretty = 0;
	if (n->u.target.base == TARGET_BASE_VAR && name)
		head.u.target.name = name;
	const char *text = ast_expr_text(&head);
	for (int i = 0; i < n->u.target.path.n; i++) {
		struct target_step *st = n->u.target.path.items[i];
		const char *field = i < fields->n && fields->items[i] ? fields->items[i] : st->field;
		text = st->field ? ast_join(text, "->", field) : ast_printf("%s[%s]", text, ast_expr_text(st->index));
	}
	return n->u.target.pretty ? ast_join(text, "", n->u.target.pretty == 2 ? "$$" : "$") : text;
}

/* The member at path ("bi_iter->bi_size", from suggest_members) of t; *off accumulates its offset. */
static struct dbg_member *follow_members(struct dbg_type *t, const char *path, uint64_t *off)
{
	struct dbg_member *m = NULL;
	for (const char *p = path; t && *p;) {
		const char *arrow = strstr(p, "->");
		size_t len = arrow ? (size_t)(arrow - p) : strlen(p);
		uint64_t o = 0;
		m = dbg_member_find(t, ast_strndup(p, len), &o);
		if (!m)
			return NULL;
		*off += o;
		t = dbg_type_strip(m->type);
		p += len + (arrow ? 2 : 0);
	}
	return m;
}

/*
 * How an error names struct t reached by step i of n: its type, and for an
 * anonymous struct or union (futex_key's shared) the member that holds it and
 * what it has, since "struct <anonymous>" alone does not say which one.
 */
static const char *anonymous_text(struct node *n, int i, struct dbg_type *t)
{
	struct target_step *prev = i > 0 ? n->u.target.path.items[i - 1] : NULL;
	if (t->name || !prev || !prev->field)
		return type_text(t);
	const char *names = "";
	int shown = 0;
	for (int j = 0; j < t->members.n && shown < 8; j++) {
		struct dbg_member *m = t->members.items[j];
		if (m->name)
			names = ast_printf("%s%s%s", names, shown++ ? ", " : "", m->name);
	}
	return ast_printf("%s (member '%s', with %s%s)", type_text(t), prev->field, shown ? names : "no named member",
			  t->members.n > shown && shown == 8 ? ", ..." : "");
}

/*
 * '->field' that struct t does not have: the error, and what t has instead
 * one or two embedded structs down (suggest_members); under adapt, the
 * only such member, recorded in pl->adapt_fields[i]. NULL after an error.
 */
static struct dbg_member *missing_member(struct tv_plan *pl, struct node *n, int i, struct dbg_type *t, bool adapt,
					 uint64_t *off)
{
	struct target_step *st = n->u.target.path.items[i];
	if (t->incomplete) {
		pl->error = ast_printf("'->%s': %s is only declared here: its members are unknown", st->field, type_text(t));
		return NULL;
	}
	struct vec paths = {0};
	suggest_members(t, st->field, &paths);
	if (adapt && paths.n == 1) {
		while (pl->adapt_fields.n <= i)
			vec_push(&pl->adapt_fields, NULL);
		pl->adapt_fields.items[i] = paths.items[0];
		return follow_members(t, paths.items[0], off);
	}
	pl->error = ast_printf("'->%s': %s has no member named '%s'", st->field, anonymous_text(n, i, t), st->field);
	for (int j = 0; j < paths.n; j++) {
		struct vec fields = {0};
		for (int k = 0; k < i; k++)
			vec_push(&fields, NULL);
		vec_push(&fields, paths.items[j]);
		const char *text = ast_printf("'%s'", target_text(n, pl->adapt_name ? pl->adapt_name : n->u.target.name,
								     &fields));
		pl->suggestion = pl->suggestion ? ast_printf("%s or %s", pl->suggestion, text)
						: ast_printf("%s has '%s' inside a member: %s", type_text(t), st->field, text);
	}
	pl->adaptable = paths.n == 1 && n->u.target.base == TARGET_BASE_VAR;
	return NULL;
}

/* "->field" and "[index]" steps; under adapt, a missing member may be found further down (missing_member). */
static bool walk_path(struct tv_plan *pl, struct node *n, const char *what, bool adapt)
{
	for (int i = 0; i < n->u.target.path.n; i++) {
		struct target_step *st = n->u.target.path.items[i];
		struct dbg_type *t = dbg_type_strip(pl->type);
		if (st->field) {
			if (t && t->kind == DBG_PTR) {
				if (!to_value(pl))
					return false;
				t = dbg_type_strip(t->target);
				pl->type = t;
				pl->in_memory = true;
			} else if (!pl->in_memory || !t || (t->kind != DBG_STRUCT && t->kind != DBG_UNION)) {
				pl->error = ast_printf("'->%s': %s is %s, not a struct, a union or a pointer to one",
						       st->field, what, type_text(pl->type));
				return false;
			}
			if (!t || (t->kind != DBG_STRUCT && t->kind != DBG_UNION)) {
				pl->error = ast_printf("'->%s': %s points to %s, not to a struct or a union", st->field,
						       what, type_text(t));
				return false;
			}
			uint64_t off = 0;
			struct dbg_member *m = dbg_member_find(t, st->field, &off);
			if (!m && !(m = missing_member(pl, n, i, t, adapt, &off)))
				return false;
			if (off)
				add_op(pl, TV_ADD)->k = (int64_t)off;
			pl->type = m->type;
			pl->bit = m->bit_offset;
			pl->bits = m->bit_size;
			pl->settable_reg = false;
			what = ast_printf("member '%s'", st->field);
		} else {
			struct dbg_type *elem;
			if (t && t->kind == DBG_PTR) {
				if (!to_value(pl))
					return false;
				elem = t->target;
			} else if (t && t->kind == DBG_ARRAY && pl->in_memory) {
				elem = t->target;
			} else if (i == 0 && n->u.target.base == TARGET_BASE_CAST && pl->in_memory) {
				/* @cast(p, "type")[i]: p as an array of type, as SystemTap allows */
				elem = pl->type;
			} else {
				pl->error = ast_printf("'[...]': %s is %s, not an array or a pointer", what, type_text(pl->type));
				return false;
			}
			struct dbg_type *es = dbg_type_strip(elem);
			if (!es || !es->size) {
				pl->error = ast_printf("'[...]': the elements of %s have no known size", what);
				return false;
			}
			struct tv_op *op = add_op(pl, TV_INDEX);
			op->expr = st->index;
			op->k = (int64_t)es->size;
			pl->type = elem;
			pl->in_memory = true;
			pl->settable_reg = false;
			what = "the element";
		}
	}
	return true;
}

/* Where the resolver is. */
struct tv_ctx {
	struct session *s;
	struct probe *probe;           /* the probe copy being planned, NULL in functions */
	struct resolved_probe *point;  /* its point, NULL in functions */
	struct target_scope *scope;    /* point->scope, or NULL */
	struct vec defined;            /* of struct node *: target expressions inside a @defined operand */
	struct node *body;             /* the body planned: where autocast looks for a local's assignments */
	struct vec typing;             /* of struct symbol *: locals whose type autocast is finding */
	int depth;                     /* autocast's nesting through locals and calls */
	int *budget;                   /* autocast: steps left for one '->' (bounds the search), NULL: none yet */
	bool adapt;                    /* planning again under --adapt: apply the only suggestion */
	struct vec nodes;              /* of struct node *: target nodes of the body */
	struct vec written;            /* of struct node *: the target nodes assignments write */
	struct vec choices;            /* of struct node *: ifs, ternaries, && and || whose test has a @defined */
	bool in_function;              /* planning a context-sensitive function's body for probe */
};

static struct dbg_var *scope_var(struct target_scope *scope, const char *name)
{
	for (int i = 0; scope && i < scope->vars.n; i++) {
		struct dbg_var *v = scope->vars.items[i];
		if (!strcmp(v->name, name))
			return v;
	}
	return NULL;
}

static struct debuginfo *types_for(struct tv_ctx *cx, const char *module, const char **err)
{
	if (!module && cx->scope && cx->scope->di)
		return cx->scope->di;
	if (!module && cx->scope && cx->scope->user) {
		/* a program's types never come from the kernel's */
		*err = cx->scope->no_debuginfo ? cx->scope->no_debuginfo : "the probed program has no debuginfo";
		return NULL;
	}
	if (headers_is_module(module))
		return headers_debuginfo(cx->s, module, err);
	return kernel_debuginfo(cx->s, module ? module : "kernel", err);
}

static struct tv_plan *plan_target(struct tv_ctx *cx, struct node *n);

/*
 * Autocast: the type of the value of expression n (a pointer, for '->' to
 * follow), known when n is a target expression, @entry of one, a local
 * every typed assignment of which agrees, or a call of a function whose
 * returns are typed (an embedded-C one says so with pragma:autocast:TYPE).
 * NULL if unknown, with *why saying so (NULL *why: an assignment to skip,
 * e.g. p = p->next while p's own type is being found).
 */
static struct dbg_type *autocast_type(struct tv_ctx *cx, struct node *n, const char **why);

struct assign_walk {
	struct symbol *sym;        /* the local */
	struct vec values;         /* of struct node *: right-hand sides of 'sym = value', or RETURN values */
};

static bool assign_pre(struct ast_walker *w, struct node *n)
{
	struct assign_walk *aw = w->data;
	if (!aw->sym && n->kind == NODE_RETURN && n->u.ret.value)
		vec_push(&aw->values, n->u.ret.value);
	if (aw->sym && n->kind == NODE_ASSIGN && n->u.assign.op == OP_NONE && n->u.assign.lhs->kind == NODE_VAR &&
	    n->u.assign.lhs->u.var.sym == aw->sym)
		vec_push(&aw->values, n->u.assign.rhs);
	return true;
}

/* The one type the values agree on (literal numbers, like p = 0, do not count). */
static struct dbg_type *agreed_type(struct tv_ctx *cx, struct vec *values, const char *what, const char **why)
{
	struct dbg_type *type = NULL;
	const char *first_why = NULL;
	for (int i = 0; i < values->n; i++) {
		struct node *v = values->items[i];
		if (v->kind == NODE_NUM)
			continue;
		const char *w = NULL;
		struct dbg_type *t = autocast_type(cx, v, &w);
		if (cx->budget && *cx->budget < 0) {
			*why = "finding it takes too many steps";
			return NULL;
		}
		if (!t) {
			if (w && !first_why)
				first_why = w;
			continue;
		}
		if (type && strcmp(dbg_type_text(type), dbg_type_text(t)) != 0) {
			*why = ast_printf("%s is given both %s and %s", what, dbg_type_text(type), dbg_type_text(t));
			return NULL;
		}
		type = t;
	}
	if (!type)
		*why = first_why ? first_why : ast_printf("%s is never given a typed value", what);
	return type;
}

/* Where an array's elements (key < 0) or its keys at position key are stored: arr[k] = v, arr[k] op= v, arr[k] <<< v. */
struct index_walk {
	struct symbol *sym; /* the array */
	int key;            /* -1: the values stored; else the key at that position */
	struct vec values;  /* of struct node * */
};

static bool index_pre(struct ast_walker *w, struct node *n)
{
	struct index_walk *iw = w->data;
	struct node *lhs = n->kind == NODE_ASSIGN ? n->u.assign.lhs : n->kind == NODE_STAT_ADD ? n->u.stat_add.target : NULL;
	if (!lhs || lhs->kind != NODE_INDEX || lhs->u.index.array->u.var.sym != iw->sym)
		return true;
	if (iw->key < 0 && n->kind == NODE_ASSIGN && n->u.assign.op == OP_NONE)
		vec_push(&iw->values, n->u.assign.rhs);
	else if (iw->key >= 0 && iw->key < lhs->u.index.keys.n)
		vec_push(&iw->values, lhs->u.index.keys.items[iw->key]);
	return true;
}

/* The stores of one body into the array, typed in that body's context cx. */
static struct dbg_type *stores_type(struct tv_ctx *cx, struct symbol *sym, int key, const char *what,
				    const char **why)
{
	struct index_walk iw = {.sym = sym, .key = key};
	struct ast_walker w = {.pre = index_pre, .data = &iw};
	ast_walk(&w, cx->body);
	*why = NULL;
	return iw.values.n ? agreed_type(cx, &iw.values, what, why) : NULL;
}

/*
 * The type of a global array's elements (key < 0) or keys at position key: what its stores in
 * every probe agree on, each store typed in its own probe (the array is shared by all of them).
 */
static struct dbg_type *array_type(struct tv_ctx *cx, struct symbol *sym, int key, const char **why)
{
	const char *what = key < 0 ? ast_printf("'%s[...]'", sym->name)
				   : ast_printf("key %d of '%s'", key + 1, sym->name);
	for (int i = 0; i < cx->typing.n; i++)
		if (cx->typing.items[i] == sym)
			return NULL; /* a[k] = a[j]: the other stores decide */
	vec_push(&cx->typing, sym);
	cx->depth++;
	struct vec ctxs = {0};
	vec_push(&ctxs, cx);
	for (int i = 0; i < cx->s->probes.n; i++) {
		struct probe *p = cx->s->probes.items[i];
		bool seen = false;
		for (int j = 0; j < ctxs.n && !seen; j++)
			seen = ((struct tv_ctx *)ctxs.items[j])->body == p->body;
		if (seen || !p->resolved.n)
			continue;
		struct resolved_probe *r = p->resolved.items[0];
		struct tv_ctx *px = ast_alloc(sizeof(*px));
		*px = (struct tv_ctx){.s = cx->s, .probe = p, .point = r, .scope = r->scope, .body = p->body,
				      .depth = cx->depth, .budget = cx->budget};
		vec_push(&px->typing, sym);
		vec_push(&ctxs, px);
	}
	struct dbg_type *type = NULL;
	const char *first_why = NULL;
	*why = NULL;
	for (int i = 0; i < ctxs.n && !*why; i++) {
		const char *wy = NULL;
		struct dbg_type *t = stores_type(ctxs.items[i], sym, key, what, &wy);
		if (!t && wy && strstr(wy, " is given both "))
			*why = wy;
		else if (!t)
			first_why = first_why ? first_why : wy;
		else if (type && strcmp(dbg_type_text(type), dbg_type_text(t)) != 0)
			*why = ast_printf("%s is given both %s and %s", what, dbg_type_text(type), dbg_type_text(t));
		else
			type = t;
	}
	cx->depth--;
	cx->typing.n--;
	if (*why)
		return NULL;
	if (!type)
		*why = first_why ? first_why : ast_printf("%s is never given a typed value", what);
	return type;
}

/* A local a foreach binds: the array it walks and which key (-1: the value), or NULL. */
struct foreach_walk {
	struct symbol *sym;   /* the local */
	struct symbol *array; /* found: the array */
	int key;              /* found: its key position, -1 for the value */
};

static bool foreach_pre(struct ast_walker *w, struct node *n)
{
	struct foreach_walk *fw = w->data;
	if (fw->array || n->kind != NODE_FOREACH || n->u.foreach.array->kind != NODE_VAR)
		return !fw->array;
	if (n->u.foreach.value && n->u.foreach.value->u.var.sym == fw->sym) {
		fw->array = n->u.foreach.array->u.var.sym;
		fw->key = -1;
	}
	for (int i = 0; i < n->u.foreach.keys.n && !fw->array; i++)
		if (((struct node *)n->u.foreach.keys.items[i])->u.var.sym == fw->sym) {
			fw->array = n->u.foreach.array->u.var.sym;
			fw->key = i;
		}
	return !fw->array;
}

static struct dbg_type *autocast_type(struct tv_ctx *cx, struct node *n, const char **why)
{
	*why = NULL;
	if (cx->depth > 16) {
		*why = "autocast nests too deeply";
		return NULL;
	}
	if (cx->budget && --*cx->budget < 0) {
		*why = "finding it takes too many steps";
		return NULL;
	}
	switch (n->kind) {
	case NODE_TARGET: {
		if (n->u.target.pretty || n->u.target.base >= TARGET_BASE_PARMS)
			break;
		cx->depth++;
		struct tv_plan *pl = plan_target(cx, n);
		cx->depth--;
		if (pl->error || pl->provided) {
			*why = pl->error ? pl->error : ast_printf("'%s' has no C type", ast_expr_text(n));
			return NULL;
		}
		if (n->u.target.address_of) {
			struct dbg_type *ptr = dbg_type_new(pl->type ? pl->type->di : NULL, DBG_PTR, NULL, 0);
			ptr->size = 8;
			ptr->target = pl->type;
			return ptr;
		}
		return pl->type;
	}
	case NODE_ENTRY:
		return autocast_type(cx, n->u.at_op.operand, why);
	case NODE_TERNARY: {
		/* both branches must agree, as the assignments to a local must */
		struct vec branches = {0};
		vec_push(&branches, n->u.ternary.then);
		vec_push(&branches, n->u.ternary.otherwise);
		return agreed_type(cx, &branches, ast_printf("'%s'", ast_expr_text(n)), why);
	}
	case NODE_VAR: {
		struct symbol *sym = n->u.var.sym;
		if (sym && sym->kind == SYM_GLOBAL) {
			*why = ast_printf("global '%s' keeps no type, only locals and function returns do", n->u.var.name);
			return NULL;
		}
		if (!sym || sym->kind != SYM_LOCAL) {
			*why = ast_printf("the type of parameter '%s' is not known", n->u.var.name);
			return NULL;
		}
		for (int i = 0; i < cx->typing.n; i++)
			if (cx->typing.items[i] == sym)
				return NULL; /* p = p->next: the other assignments decide */
		/* a foreach key or value: typed as the array's keys or elements are */
		struct foreach_walk fw = {.sym = sym};
		struct ast_walker fwk = {.pre = foreach_pre, .data = &fw};
		ast_walk(&fwk, cx->body);
		if (fw.array && fw.array->kind == SYM_GLOBAL) {
			vec_push(&cx->typing, sym);
			struct dbg_type *t = array_type(cx, fw.array, fw.key, why);
			cx->typing.n--;
			return t;
		}
		struct assign_walk aw = {.sym = sym};
		struct ast_walker w = {.pre = assign_pre, .data = &aw};
		ast_walk(&w, cx->body);
		vec_push(&cx->typing, sym);
		cx->depth++;
		struct dbg_type *t = agreed_type(cx, &aw.values, ast_printf("'%s'", n->u.var.name), why);
		cx->depth--;
		cx->typing.n--;
		return t;
	}
	case NODE_CALL: {
		struct function *fn = n->u.call.func;
		if (!fn)
			break;
		if (fn->body->kind == NODE_EMBEDDED) {
			const char *err = NULL;
			struct debuginfo *di = fn->autocast ? kernel_debuginfo(cx->s, "kernel", &err) : NULL;
			struct dbg_type *t = di ? dbg_find_type(di, fn->autocast) : NULL;
			if (!t) {
				*why = fn->autocast ? (di ? ast_printf("no type '%s' in the kernel", fn->autocast) : err)
						    : ast_printf("'%s' returns an untyped number", fn->name);
				return NULL;
			}
			struct dbg_type *ptr = dbg_type_new(di, DBG_PTR, NULL, 0);
			ptr->size = 8;
			ptr->target = t;
			return ptr;
		}
		/* a script function: its returns, typed in its own body (at the caller's point if it reads it) */
		struct tv_ctx fx = {.s = cx->s, .body = fn->body, .depth = cx->depth + 1, .budget = cx->budget};
		if (fn->context_sensitive) {
			fx.probe = cx->probe;
			fx.point = cx->point;
			fx.scope = cx->scope;
			fx.in_function = true;
		}
		struct assign_walk aw = {0};
		struct ast_walker w = {.pre = assign_pre, .data = &aw};
		ast_walk(&w, fn->body);
		return agreed_type(&fx, &aw.values, ast_printf("the value '%s' returns", fn->name), why);
	}
	case NODE_INDEX: {
		/* an element of a global array: typed as the stores of every probe agree */
		struct symbol *array = n->u.index.array->kind == NODE_VAR ? n->u.index.array->u.var.sym : NULL;
		if (!array || array->kind != SYM_GLOBAL) {
			*why = ast_printf("the elements of a local array keep no type");
			return NULL;
		}
		return array_type(cx, array, -1, why);
	}
	case NODE_NUM: case NODE_STR: case NODE_UNARY: case NODE_BINARY: case NODE_ASSIGN:
	case NODE_INCDEC: case NODE_IN: case NODE_WILDCARD: case NODE_BLOCK: case NODE_EXPR_STMT:
	case NODE_NULL_STMT: case NODE_IF: case NODE_WHILE: case NODE_FOR: case NODE_FOREACH:
	case NODE_BREAK: case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN: case NODE_DELETE:
	case NODE_TRY: case NODE_EMBEDDED: case NODE_STAT_ADD: case NODE_STAT_OP: case NODE_REGEX:
	case NODE_DEFINED:
		break;
	}
	*why = ast_printf("the type of '%s' is not known", ast_expr_text(n));
	return NULL;
}

/*
 * $name that the scope does not have: the error, and the parameters that
 * may stand for it (suggest_variables: typed like its name, or having the
 * members the body reads through it); under --adapt the only one, recorded
 * in pl->adapt_name. NULL after an error.
 */
static struct dbg_var *missing_param(struct tv_ctx *cx, struct node *n, struct tv_plan *pl)
{
	const char *name = n->u.target.name;
	struct vec members = {0}, found = {0};
	for (int i = 0; i < cx->nodes.n; i++) {
		struct node *u = cx->nodes.items[i];
		struct target_step *st = u->kind == NODE_TARGET && u->u.target.base == TARGET_BASE_VAR &&
			!strcmp(u->u.target.name, name) && u->u.target.path.n ? u->u.target.path.items[0] : NULL;
		if (st && st->field)
			vec_push(&members, (void *)st->field);
	}
	suggest_variables(&cx->scope->vars, name, &members, &found);
	if (cx->adapt && found.n == 1) {
		struct dbg_var *v = found.items[0];
		pl->adapt_name = v->name;
		return v;
	}
	pl->error = missing_var(cx->scope, name);
	for (int i = 0; i < found.n; i++) {
		struct dbg_var *v = found.items[i];
		const char *text = ast_printf("parameter $%s (%s): '%s'", v->name, type_text(v->type),
					      target_text(n, v->name, &pl->adapt_fields));
		pl->suggestion = pl->suggestion ? ast_printf("%s, or %s", pl->suggestion, text)
						: ast_printf("'$%s' may now be %s", name, text);
	}
	pl->adaptable = found.n == 1;
	return NULL;
}

/* Plan the expression n (a TARGET) at the context's point. */
/*
 * $name: where the variable starts (a provided one, $return, or a parameter
 * or local of the scope), into pl. False when pl is settled already (an
 * error, or a variable the point provides); *what names it for errors.
 */
static bool plan_var_start(struct tv_ctx *cx, struct node *n, struct tv_plan *pl, const char **what)
{
	const char *name = n->u.target.name;
	*what = ast_printf("'$%s'", name);
	if (!cx->scope) {
		pl->error = ast_printf("target variable '$%s' is not available at probe point '%s': it has no "
				       "target variables", name, cx->point ? cx->point->pp : "a function");
		return false;
	}
	struct target_provided *pv = scope_provided(cx->scope, name);
	if (pv) {
		if (n->u.target.path.n || n->u.target.address_of || n->u.target.pretty) {
			pl->error = ast_printf("'$%s' is defined by probe point '%s': it is a %s, with no members, "
					       "elements, address or pretty form", name, cx->point->pp,
					       ast_type_name(pv->type));
			return false;
		}
		pl->provided = pv;
		return false;
	}
	if (!strcmp(name, "return")) {
		if (!cx->scope->is_return) {
			pl->error = ast_printf("'$return' is only available in .return probes");
			return false;
		}
		if (!cx->scope->ret) {
			pl->error = cx->scope->no_debuginfo ? missing_var(cx->scope, name)
					: ast_printf("'$return': %s returns void", cx->scope->what);
			return false;
		}
		struct dbg_var rv = {.name = "return", .type = cx->scope->ret,
				     .loc = {.kind = DBG_LOC_REG, .reg = DBG_REG_AX}};
		if (!start_var(pl, &rv))
			return false;
		return true;
	}
	struct dbg_var *v = scope_var(cx->scope, name);
	if (!v && cx->scope->di && cx->scope->func) {
		/* an enum's constant, $PIDTYPE_PID (SystemTap 4.5): only when no variable has the name */
		struct dbg_var *e = ast_alloc(sizeof(*e));
		if (dbg_enumerator(cx->scope->di, cx->scope->func, name, e))
			v = e;
	}
	if (!v && !(v = missing_param(cx, n, pl)))
		return false;
	if (!start_var(pl, v))
		return false;
	return true;
}

static struct tv_plan *plan_target(struct tv_ctx *cx, struct node *n)
{
	struct tv_plan *pl = ast_alloc(sizeof(*pl));
	pl->probe = cx->probe;
	pl->saved = -1;
	pl->user = cx->scope && cx->scope->user;
	const char *what = NULL;
	const char *err = NULL;
	switch (n->u.target.base) {
	case TARGET_BASE_VAR:
		if (!plan_var_start(cx, n, pl, &what))
			return pl;
		break;
	case TARGET_BASE_CAST: {
		what = "the @cast pointer";
		struct debuginfo *di = types_for(cx, n->u.target.module, &err);
		struct dbg_type *t = di ? dbg_find_type(di, n->u.target.name) : NULL;
		if (!t) {
			pl->error = di ? ast_printf("@cast: no type '%s' in %s", n->u.target.name, di->module ? di->module : di->path)
				       : ast_printf("@cast: %s", err);
			return pl;
		}
		struct tv_op *op = add_op(pl, TV_START_EXPR);
		op->expr = n->u.target.operand;
		pl->type = t;
		pl->in_memory = true;
		/* in a user-space probe, a kernel type (@cast(p, "t", "kernel")) is read in kernel memory */
		pl->user = (cx->scope && cx->scope->user && di == cx->scope->di) || di->user_space;
		break;
	}
	case TARGET_BASE_AT_VAR: {
		what = ast_printf("@var(\"%s\")", n->u.target.name);
		char *name = ast_strdup(n->u.target.name);
		char *at = strchr(name, '@');
		if (at)
			*at++ = '\0';
		struct debuginfo *di = types_for(cx, n->u.target.module, &err);
		if (di && di->source != DBG_SOURCE_DWARF) {
			const char *missing = kernel_dwarf_missing(cx->s, n->u.target.module ? n->u.target.module : "kernel");
			pl->error = ast_printf("@var needs DWARF debuginfo: %s", missing ? missing : "BTF has no variables");
			return pl;
		}
		struct dbg_var *v = di ? dbg_global(di, name, at) : NULL;
		if (!v) {
			pl->error = di ? ast_printf("@var: no global variable '%s'%s", name, at ? ast_printf(" in %s", at) : "")
				       : ast_printf("@var: %s", err);
			return pl;
		}
		if (n->u.target.module && strcmp(n->u.target.module, "kernel") && !pl->user) {
			/* found by its symbol where the module is loaded, at each use: the symbol must be unique */
			const char *why = kernel_module_data_symbol_unique(cx->s, n->u.target.module, name);
			if (why) {
				pl->error = ast_printf("@var: %s", why);
				return pl;
			}
			struct tv_op *op = add_op(pl, TV_START_MODSYM);
			op->module = kernel_module_name(n->u.target.module);
			op->symbol = ast_strdup(name);
			pl->type = v->type;
			pl->in_memory = true;
			break;
		}
		if (pl->user) {
			/* the program's global: relocated by the uprobe's load bias (TV_START_ABS) */
			if (!start_var(pl, v))
				return pl;
			break;
		}
		struct dbg_var *anchor = dbg_global(di, "init_task", NULL);
		if (!anchor) {
			pl->error = "@var: init_task (used to find where the kernel was loaded) is not in the debuginfo";
			return pl;
		}
		if (!start_var(pl, v))
			return pl;
		((struct tv_op *)pl->ops.items[0])->size_base = anchor->loc.offset;
		break;
	}
	case TARGET_BASE_AUTO: {
		/* the search through locals and calls may branch: at most 1,000 steps per '->' */
		int budget = 1000, *outer = cx->budget;
		if (!outer)
			cx->budget = &budget;
		struct dbg_type *t = autocast_type(cx, n->u.target.operand, &err);
		cx->budget = outer;
		if (!t) {
			pl->error = ast_printf("cannot use '->' on '%s': %s (use @cast(ptr, \"type\"))",
					       ast_expr_text(n->u.target.operand), err ? err : "its type is not known");
			return pl;
		}
		what = ast_printf("'%s'", ast_expr_text(n->u.target.operand));
		add_op(pl, TV_START_EXPR)->expr = n->u.target.operand;
		pl->type = t;
		/* task_current()->pid in a user-space probe reads kernel memory: where the type came from */
		pl->user = (cx->scope && cx->scope->user && t->di == cx->scope->di) || (t->di && t->di->user_space);
		break;
	}
	default:
		return pl; /* $$parms & co are planned by plan_vars */
	}
	if (!walk_path(pl, n, what, cx->adapt))
		return pl;
	if (n->u.target.pretty)
		return pl;
	if (n->u.target.address_of) {
		if (!pl->in_memory || pl->bits) {
			pl->error = pl->bits ? "'&' of a bit-field" : "'&' of a value held in a register";
			return pl;
		}
		pl->in_memory = false;
		pl->settable_reg = false;
		return pl;
	}
	if (!to_value(pl))
		pl->error = ast_printf("%s is %s, which is not a number: use ->member, or '$'/'$$' to print it",
				       n->u.target.path.n ? "the expression" : what, type_text(pl->type));
	return pl;
}

/* $$parms, $$locals, $$vars, $$return: one plan per variable. */
static struct tv_plan *plan_vars(struct tv_ctx *cx, struct node *n)
{
	struct tv_plan *pl = ast_alloc(sizeof(*pl));
	pl->probe = cx->probe;
	pl->saved = -1;
	if (!cx->scope) {
		pl->error = ast_printf("%s is not available at probe point '%s': it has no target variables", n->tok,
				       cx->point ? cx->point->pp : "a function");
		return pl;
	}
	if (n->u.target.base == TARGET_BASE_RETURN) {
		if (cx->scope->is_return && cx->scope->ret) {
			struct tv_named *nm = ast_alloc(sizeof(*nm));
			nm->name = "return";
			nm->plan = ast_alloc(sizeof(*nm->plan));
			nm->plan->saved = -1;
			struct dbg_var rv = {.name = "return", .type = cx->scope->ret,
					     .loc = {.kind = DBG_LOC_REG, .reg = DBG_REG_AX}};
			start_var(nm->plan, &rv);
			vec_push(&pl->vars, nm);
		}
		return pl;
	}
	for (int i = 0; i < cx->scope->provided.n && n->u.target.base != TARGET_BASE_LOCALS; i++) {
		struct target_provided *pv = cx->scope->provided.items[i];
		if (!pv->in_parms)
			continue;
		struct tv_named *nm = ast_alloc(sizeof(*nm));
		nm->name = pv->name;
		nm->provided = pv;
		vec_push(&pl->vars, nm);
	}
	for (int i = 0; i < cx->scope->vars.n; i++) {
		struct dbg_var *v = cx->scope->vars.items[i];
		if ((n->u.target.base == TARGET_BASE_PARMS && !v->is_param) || (n->u.target.base == TARGET_BASE_LOCALS && v->is_param))
			continue;
		struct tv_named *nm = ast_alloc(sizeof(*nm));
		nm->name = v->name;
		nm->plan = ast_alloc(sizeof(*nm->plan));
		nm->plan->saved = -1;
		nm->plan->user = cx->scope->user;
		start_var(nm->plan, v);
		vec_push(&pl->vars, nm);
	}
	return pl;
}

/*
 * Is n inside a @defined operand? Only that very node is guarded: the same
 * text elsewhere (a user's $x in a probe on an alias whose body asks
 * @defined($x)) must still exist.
 */
static bool is_guarded(struct tv_ctx *cx, struct node *n)
{
	for (int i = 0; i < cx->defined.n; i++)
		if (cx->defined.items[i] == n)
			return true;
	return false;
}

/* Does the plan start from the probed code's registers or memory (so a return probe must save it at entry)? */
/* --compatible=4.0 or older: @var in a .return probe is read at the entry, as @entry(@var(...)) (NEWS 4.1). */
static bool at_var_at_entry(const struct session *s)
{
	int major = 0, minor = 0;
	return s->compatible && sscanf(s->compatible, "%d.%d", &major, &minor) >= 1 &&
	       (major < 4 || (major == 4 && minor == 0));
}

static bool reads_probed_state(const struct tv_ctx *cx, struct node *n)
{
	if (n->u.target.base == TARGET_BASE_VAR)
		return strcmp(n->u.target.name, "return") != 0;
	if (n->u.target.base == TARGET_BASE_AT_VAR)
		return at_var_at_entry(cx->s);
	return n->u.target.base == TARGET_BASE_PARMS || n->u.target.base == TARGET_BASE_LOCALS || n->u.target.base == TARGET_BASE_VARS;
}

static void save_at_entry(struct tv_ctx *cx, struct node *n, struct tv_plan *entry_plan, struct tv_plan *pl)
{
	for (int i = 0; i < n->u.target.path.n; i++) {
		struct target_step *st = n->u.target.path.items[i];
		if (st->index && st->index->kind != NODE_NUM) {
			diag_error(st->index->loc, "in a .return probe, '%s' is read at the function's entry, so its "
				   "index must be a number", ast_expr_text(n));
			return;
		}
	}
	struct tv_saved *sv = ast_alloc(sizeof(*sv));
	sv->plan = entry_plan;
	sv->node = n;
	sv->is_string = targetvar_value_type(n) == TYPE_STRING;
	vec_push(&cx->scope->saved, sv);
	pl->at_entry = entry_plan; /* pl->saved is set when the layout is known */
}

/* Does e contain a @defined? */
static bool mentions_defined(struct node *e)
{
	return nodes_of_kind(e, NODE_DEFINED).n > 0;
}

/*
 * The value of e at probe p when @defined operands (planned there) and
 * number literals decide it, through !, && and ||: 1 or 0, -1 if not
 * decided. *by_defined is set when a @defined took part.
 */
static int decided_value(struct node *e, struct probe *p, bool *by_defined)
{
	if (e->kind == NODE_NUM)
		return e->u.num != 0;
	if (e->kind == NODE_DEFINED) {
		struct tv_plan *pl = targetvar_plan_of(e, p);
		if (!pl)
			return -1;
		*by_defined = true;
		return pl->defined;
	}
	if (e->kind == NODE_UNARY && e->u.unary.op == OP_NOT) {
		int v = decided_value(e->u.unary.operand, p, by_defined);
		return v < 0 ? -1 : !v;
	}
	if (e->kind != NODE_BINARY || (e->u.binary.op != OP_AND && e->u.binary.op != OP_OR))
		return -1;
	int short_circuit = e->u.binary.op == OP_OR; /* the value that ends the test */
	int l = decided_value(e->u.binary.lhs, p, by_defined);
	if (l == short_circuit)
		return l;
	int r = decided_value(e->u.binary.rhs, p, by_defined);
	return r == short_circuit || l >= 0 ? r : -1;
}

/* The condition of an if or ternary; the left operand of && or ||. */
static struct node *choice_test(struct node *choice)
{
	if (choice->kind == NODE_TERNARY)
		return choice->u.ternary.cond;
	if (choice->kind == NODE_IF)
		return choice->u.if_stmt.cond;
	return choice->u.binary.lhs;
}

/* The part of choice its test, valued taken, rules out (NULL if none). */
static struct node *choice_dead_part(struct node *choice, int taken)
{
	if (choice->kind == NODE_TERNARY)
		return taken ? choice->u.ternary.otherwise : choice->u.ternary.then;
	if (choice->kind == NODE_IF)
		return taken ? choice->u.if_stmt.otherwise : choice->u.if_stmt.then;
	/* 'L && R' never reads R when L is 0, 'L || R' when L is 1 */
	return taken == (choice->u.binary.op == OP_OR) ? choice->u.binary.rhs : NULL;
}

static bool collect_pre(struct ast_walker *w, struct node *n)
{
	struct tv_ctx *cx = w->data;
	if (n->kind == NODE_TARGET || n->kind == NODE_DEFINED || n->kind == NODE_ENTRY)
		vec_push(&cx->nodes, n);
	if (n->kind == NODE_DEFINED) {
		struct vec inner = targetvar_inner_targets(n->u.at_op.operand);
		for (int i = 0; i < inner.n; i++)
			vec_push(&cx->defined, inner.items[i]);
	}
	if (n->kind == NODE_ASSIGN && n->u.assign.lhs->kind == NODE_TARGET)
		vec_push(&cx->written, n->u.assign.lhs);
	bool logical = n->kind == NODE_BINARY && (n->u.binary.op == OP_AND || n->u.binary.op == OP_OR);
	if ((n->kind == NODE_TERNARY || n->kind == NODE_IF || logical) && mentions_defined(choice_test(n)))
		vec_push(&cx->choices, n);
	return true;
}

struct contains_walk {
	struct node *wanted;
	bool found;
};

static bool contains_pre(struct ast_walker *w, struct node *n)
{
	struct contains_walk *cw = w->data;
	if (n == cw->wanted)
		cw->found = true;
	return !cw->found;
}

/*
 * Is n in the part that a test decided by @defined at this point rules
 * out (an if's or ternary's branch, the right operand of && or ||)? That
 * part is never compiled to a read, so what it names need not exist here:
 * @choose_defined($s, $cachep) on a function with $s never looks for
 * $cachep, and 'execname() == "cat" && @defined($dfd)' guards a $dfd in
 * its if's body.
 */
static bool in_dead_branch(struct tv_ctx *cx, struct node *n)
{
	for (int i = 0; i < cx->choices.n; i++) {
		struct node *choice = cx->choices.items[i];
		bool by_defined = false;
		int taken = decided_value(choice_test(choice), cx->probe, &by_defined);
		if (taken < 0)
			continue;
		struct node *dead = choice_dead_part(choice, taken);
		struct contains_walk cw = {.wanted = n};
		struct ast_walker w = {.pre = contains_pre, .data = &cw};
		if (dead)
			ast_walk(&w, dead);
		if (cw.found)
			return true;
	}
	return false;
}

static bool is_written(struct tv_ctx *cx, struct node *n)
{
	for (int i = 0; i < cx->written.n; i++)
		if (cx->written.items[i] == n)
			return true;
	return false;
}

/*
 * An assignment to n, planned as pl: a provided variable must have a
 * buffer; anything else needs -g (checked here for names some point
 * provides, which check_writes_pre let through).
 */
static bool check_write(struct tv_ctx *cx, struct node *n, struct tv_plan *pl)
{
	if (pl->provided && !pl->provided->lvalue) {
		diag_error(n->loc, "%s", pl->provided->readonly_why ? pl->provided->readonly_why
				   : ast_printf("'$%s' cannot be assigned at probe point '%s'", n->u.target.name,
						cx->point->pp));
		return false;
	}
	if (!pl->provided && !cx->s->guru) {
		diag_error(n->loc, "writing to target variable '%s' needs guru mode (-g)", ast_expr_text(n));
		return false;
	}
	return true;
}

/* @entry($x->y) reads a target expression, which a return probe saves anyway; anything else is saved whole. */
static bool entry_of_target(struct node *n)
{
	struct node *op = n->u.at_op.operand;
	return op->kind == NODE_TARGET && op->u.target.base != TARGET_BASE_AUTO;
}

struct entry_check {
	struct tv_ctx *cx;
	struct vec seen;           /* of struct function *: visited */
	const char *why;           /* the first thing it may not use */
	bool in_function;          /* walking a called function's body: its parameters and locals are its own */
};

static bool entry_check_pre(struct ast_walker *w, struct node *n)
{
	struct entry_check *ec = w->data;
	if (ec->why)
		return false;
	if (n->kind == NODE_VAR && n->u.var.sym && (!ec->in_function || n->u.var.sym->kind == SYM_GLOBAL)) {
		ec->why = ast_printf("%s '%s'", n->u.var.sym->kind == SYM_GLOBAL ? "global" : "script variable",
				     n->u.var.name);
	} else if (n->kind == NODE_STAT_OP || n->kind == NODE_STAT_ADD || n->kind == NODE_INDEX) {
		ec->why = "a global";
	} else if (n->kind == NODE_CALL && n->u.call.func) {
		struct function *fn = n->u.call.func;
		for (int i = 0; i < ec->seen.n; i++)
			if (ec->seen.items[i] == fn)
				return true;
		vec_push(&ec->seen, fn);
		if (fn->globals_read.n || fn->globals_written.n)
			ec->why = ast_printf("function '%s', which uses globals", fn->name);
		else if (fn->body->kind != NODE_EMBEDDED) {
			bool outer = ec->in_function;
			ec->in_function = true;
			ast_walk(w, fn->body);
			ec->in_function = outer;
		}
	}
	return true;
}

/*
 * @entry(expr) runs in the kretprobe's entry handler, before the body and
 * without its locks: it may call functions and read target variables, but
 * not use script variables or globals.
 */
static bool check_entry_expr(struct tv_ctx *cx, struct node *n)
{
	struct entry_check ec = {.cx = cx};
	struct ast_walker w = {.pre = entry_check_pre, .data = &ec};
	ast_walk(&w, n->u.at_op.operand);
	if (!ec.why)
		return true;
	diag_error(n->loc, "@entry(%s) is evaluated at the function's entry, before the probe body: it cannot use %s",
		   ast_expr_text(n->u.at_op.operand), ec.why);
	return false;
}

/* Plan every target node of the body at one point. */
/*
 * --adapt: n planned again taking the only suggestion of pl (a member
 * further down, a parameter for a missing variable); the new plan, with a
 * warning showing the rewrite once per expression, or pl if it still
 * fails. cx->adapt stays set for the rest of n's planning (the entry
 * handler's copy of a return probe's expression).
 */
static struct tv_plan *adapt_target(struct tv_ctx *cx, struct node *n, struct tv_plan *pl)
{
	cx->adapt = true;
	struct tv_plan *again = plan_target(cx, n);
	if (again->error) {
		cx->adapt = false;
		return pl;
	}
	for (int i = 0; i < cx->s->adapted.n; i++)
		if (cx->s->adapted.items[i] == n)
			return again;
	vec_push(&cx->s->adapted, n);
	diag_warning(n->loc, "adapted '%s' to '%s' (--adapt)", ast_expr_text(n),
		     target_text(n, again->adapt_name ? again->adapt_name : n->u.target.name, &again->adapt_fields));
	return again;
}

static bool plan_body(struct tv_ctx *cx)
{
	bool ok = true;
	struct vec entries = {0}; /* of struct node *: @entry(expr) saved whole */
	for (int i = 0; i < cx->nodes.n; i++) {
		struct node *n = cx->nodes.items[i];
		if (n->kind == NODE_DEFINED || n->kind == NODE_ENTRY) {
			struct tv_plan *pl = ast_alloc(sizeof(*pl));
			pl->probe = cx->probe;
			pl->saved = -1;
			if (n->kind == NODE_ENTRY && (!cx->scope || !cx->scope->is_return)) {
				if (cx->point)
					diag_error(n->loc, "@entry is only valid in a .return probe: '%s' is not a function's return",
						   cx->point->pp);
				else
					diag_error(n->loc, "@entry is only valid in a .return probe");
				ok = false;
			} else if (n->kind == NODE_ENTRY && !entry_of_target(n) && cx->in_function) {
				/* its C runs in the entry handler, which has the probe's locals, not the function's */
				diag_error(n->loc, "@entry in a function can only save a target expression ($x, $p->f), not '%s'",
					   ast_expr_text(n->u.at_op.operand));
				ok = false;
			} else if (n->kind == NODE_ENTRY && !entry_of_target(n)) {
				ok &= check_entry_expr(cx, n);
				vec_push(&entries, n);
				pl->saved = 0; /* set with the layout below */
			}
			if (n->kind == NODE_DEFINED) {
				/* defined when every target expression in the operand is */
				struct vec targets = targetvar_inner_targets(n->u.at_op.operand);
				pl->defined = true;
				for (int j = 0; j < targets.n; j++) {
					struct node *t = targets.items[j];
					struct tv_plan *probe_plan = t->u.target.base >= TARGET_BASE_PARMS ? plan_vars(cx, t)
													 : plan_target(cx, t);
					pl->defined &= !probe_plan->error;
				}
			}
			add_plan(n, pl);
			continue;
		}
		struct tv_plan *pl = n->u.target.base >= TARGET_BASE_PARMS ? plan_vars(cx, n) : plan_target(cx, n);
		if (cx->in_function && pl->provided && !pl->error) {
			/* its C reads the probe's own buffers; functions read debuginfo (kernel and user) only */
			pl->error = ast_printf("'%s' belongs to probe point '%s' itself: a function cannot read it, "
					       "pass it as an argument", ast_expr_text(n), cx->point->pp);
			pl->provided = NULL;
		}
		if (pl->error && pl->adaptable && cx->s->adapt && !is_guarded(cx, n) && !in_dead_branch(cx, n))
			pl = adapt_target(cx, n, pl);
		if (pl->error) {
			if (cx->s->skip_badvars && !is_written(cx, n)) {
				diag_warning(n->loc, "%s; it reads as %s (--skip-badvars)", pl->error,
					     n->type == TYPE_STRING ? "\"\"" : "0");
				pl->skipped = true;
			} else if (!is_guarded(cx, n) && !in_dead_branch(cx, n)) {
				diag_error(n->loc, "%s", pl->error);
				if (pl->suggestion)
					diag_note(n->loc, "%s%s", pl->suggestion,
						  cx->s->adapt ? " (--adapt applies a suggestion only when it is the only one)"
							       : pl->adaptable ? " (--adapt applies it)" : "");
				ok = false;
			}
		} else if (n->u.target.provided_type != TYPE_UNKNOWN && is_written(cx, n) && !check_write(cx, n, pl)) {
			ok = false;
		} else if (pl->provided && pl->provided->writeonly_why && !is_written(cx, n)) {
			diag_error(n->loc, "%s", pl->provided->writeonly_why);
			ok = false;
		} else if (cx->scope && cx->scope->is_return && !pl->provided && reads_probed_state(cx, n)) {
			/* read at entry: plan it again against the entry state (same variables, no $return) */
			struct tv_plan *entry = n->u.target.base >= TARGET_BASE_PARMS ? plan_vars(cx, n) : plan_target(cx, n);
			save_at_entry(cx, n, entry, pl);
		}
		cx->adapt = false;
		add_plan(n, pl);
	}
	/* after the targets inside them, which the entry handler saves (and so reads back) first */
	for (int i = 0; i < entries.n && cx->scope; i++) {
		struct node *n = entries.items[i];
		struct tv_saved *sv = ast_alloc(sizeof(*sv));
		sv->node = n;
		sv->expr = n->u.at_op.operand;
		sv->is_string = n->type == TYPE_STRING;
		vec_push(&cx->scope->saved, sv);
		targetvar_plan_of(n, cx->probe)->entry_expr = sv;
	}
	/* values saved at entry: longs first (8 bytes each), then strings (MAXSTRINGLEN each) */
	if (cx->scope && cx->scope->saved.n) {
		int longs = 0, strings = 0;
		for (int i = 0; i < cx->scope->saved.n; i++) {
			struct tv_saved *sv = cx->scope->saved.items[i];
			sv->offset = sv->is_string ? -(1 + strings++) : 8 * longs++;
		}
		cx->scope->entry_size = 8 * longs;
		for (int i = 0; i < cx->nodes.n; i++) {
			struct node *n = cx->nodes.items[i];
			struct tv_plan *pl = targetvar_plan_of(n, cx->probe);
			if (pl && pl->entry_expr)
				pl->saved = pl->entry_expr->offset;
			for (int j = 0; pl && pl->at_entry && j < cx->scope->saved.n; j++) {
				struct tv_saved *sv = cx->scope->saved.items[j];
				if (sv->plan == pl->at_entry)
					pl->saved = sv->offset;
			}
		}
	}
	return ok;
}

/* Assignments, increments and deletes of target variables: checked once per body. */
struct write_check {
	struct session *s;
	bool ok;
};

static bool check_writes_pre(struct ast_walker *w, struct node *n)
{
	struct write_check *wc = w->data;
	struct node *t = NULL;
	const char *how = NULL;
	if (n->kind == NODE_ASSIGN && n->u.assign.lhs->kind == NODE_TARGET) {
		t = n->u.assign.lhs;
		if (t->u.target.provided_type != TYPE_UNKNOWN) {
			/* a probe point's own variable: checked per point in plan_body */
			if (n->u.assign.op != OP_NONE && !(n->u.assign.op == OP_CONCAT && t->u.target.provided_type == TYPE_STRING)) {
				diag_error(n->loc, "only '='%s can assign to '%s', not '%s='",
					   t->u.target.provided_type == TYPE_STRING ? " and '.='" : "", ast_expr_text(t),
					   ast_op_spelling(n->u.assign.op));
				wc->ok = false;
			}
			return true;
		}
		if (n->u.assign.op != OP_NONE)
			how = ast_printf("only '=' can assign to a target variable, not '%s='", ast_op_spelling(n->u.assign.op));
	} else if (n->kind == NODE_INCDEC && n->u.incdec.operand->kind == NODE_TARGET) {
		t = n->u.incdec.operand;
		how = "'++' and '--' do not apply to target variables";
	} else if (n->kind == NODE_DELETE && n->u.del.target->kind == NODE_TARGET) {
		t = n->u.del.target;
		how = "a target variable cannot be deleted";
	}
	if (!t)
		return true;
	if (!how && !wc->s->guru)
		how = ast_printf("writing to target variable '%s' needs guru mode (-g)", ast_expr_text(t));
	if (!how && (t->u.target.pretty || t->u.target.address_of || t->u.target.base >= TARGET_BASE_PARMS))
		how = ast_printf("'%s' cannot be assigned", ast_expr_text(t));
	if (how) {
		diag_error(n->loc, "%s", how);
		wc->ok = false;
	}
	return true;
}

static bool is_entry(const struct node *n)
{
	return n->kind == NODE_ENTRY;
}

/* Does body, or a context-sensitive function it reaches (of struct ctx_call *), use @entry(...)? */
static bool has_entry(struct node *body, struct vec *reached)
{
	bool found = ast_contains(body, is_entry);
	for (int i = 0; i < reached->n && !found; i++)
		found = ast_contains(((struct ctx_call *)reached->items[i])->fn->body, is_entry);
	return found;
}

/*
 * The context-sensitive functions that outer (a body planned for one probe
 * copy) calls, planned in turn with the copy's point, and those they call:
 * their target nodes get a plan for this copy, as the body's do. A call in
 * the branch a @defined condition rules out here is not followed (it is
 * never run at this point). done (of struct function *) holds those planned
 * for the copy already. An error names the call chain.
 */
static bool plan_functions(struct tv_ctx *outer, const struct ctx_call *caller, struct vec *done)
{
	bool ok = true;
	struct vec calls = {0};
	ctxfunc_calls(outer->body, &calls);
	for (int i = 0; i < calls.n; i++) {
		struct node *n = calls.items[i];
		bool seen = false;
		for (int j = 0; j < done->n && !seen; j++)
			seen = done->items[j] == n->u.call.func;
		if (seen || in_dead_branch(outer, n))
			continue;
		vec_push(done, n->u.call.func);
		struct ctx_call *call = ast_alloc(sizeof(*call));
		*call = (struct ctx_call){.fn = n->u.call.func, .call = n, .caller = caller};
		struct tv_ctx cx = {.s = outer->s, .body = call->fn->body, .probe = outer->probe, .point = outer->point,
				    .scope = outer->scope, .in_function = true};
		struct ast_walker c = {.pre = collect_pre, .data = &cx};
		ast_walk(&c, call->fn->body);
		ctxfunc_push_chain(call, outer->point->pp);
		ok &= plan_body(&cx);
		ctxfunc_pop_chain(call);
		ok &= plan_functions(&cx, call, done);
	}
	return ok;
}

/*
 * A return probe on a bare symbol (kprobe.function("f").return, the
 * nd_syscall.*.return aliases) has no variables, but its entry can still
 * save what @entry(expr) computes: a scope with none, for that.
 */
static struct target_scope *symbol_return_scope(struct resolved_probe *r)
{
	struct target_scope *sc = ast_alloc(sizeof(*sc));
	sc->is_return = true;
	sc->what = r->pp;
	sc->no_debuginfo = "a probe on a symbol has no target variables";
	return sc;
}

bool targetvar_resolve(struct session *s)
{
	bool ok = true;
	/* function bodies: @cast only (resolve.c rejects the rest), planned without a probe */
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (fn->context_sensitive) {
			/* planned with each probe that calls it (plan_functions); its writes checked once */
			struct write_check wc = {.s = s, .ok = true};
			struct ast_walker ww = {.pre = check_writes_pre, .data = &wc};
			ast_walk(&ww, fn->body);
			ok &= wc.ok;
			continue;
		}
		struct tv_ctx cx = {.s = s, .body = fn->body};
		struct ast_walker c = {.pre = collect_pre, .data = &cx};
		ast_walk(&c, fn->body);
		if (ok && cx.nodes.n)
			ok &= plan_body(&cx);
	}
	int nprobes = s->probes.n;
	for (int i = 0; i < nprobes; i++) {
		struct probe *p = s->probes.items[i];
		struct write_check wc = {.s = s, .ok = true};
		struct ast_walker ww = {.pre = check_writes_pre, .data = &wc};
		ast_walk(&ww, p->body);
		ok &= wc.ok;
		struct tv_ctx proto = {.s = s, .body = p->body};
		struct ast_walker c = {.pre = collect_pre, .data = &proto};
		ast_walk(&c, p->body);
		struct vec reached = {0}; /* of struct ctx_call *: context-sensitive functions it calls */
		ctxfunc_reached(p->body, &reached);
		if (!proto.nodes.n && !reached.n)
			continue;
		/* one probe per point: each gets its own plans */
		struct vec points = p->resolved;
		p->resolved = (struct vec){0};
		for (int j = 0; j < points.n; j++) {
			struct resolved_probe *r = points.items[j];
			struct probe *copy = p;
			if (j > 0) {
				copy = ast_alloc(sizeof(*copy));
				*copy = *p;
				copy->index = s->probes.n;
				copy->resolved = (struct vec){0};
				vec_push(&s->probes, copy);
				r->probe = copy;
			}
			vec_push(&copy->resolved, r);
			if (!r->scope && r->provider->is_return && r->provider->is_return(r) && has_entry(p->body, &reached))
				r->scope = symbol_return_scope(r);
			struct tv_ctx cx = proto;
			cx.probe = copy;
			cx.point = r;
			cx.scope = r->scope;
			ok &= plan_body(&cx);
			struct vec done = {0};
			ok &= plan_functions(&cx, NULL, &done);
		}
	}
	return ok;
}

/* -L: " $name:type" for each variable of scope. */
const char *targetvar_list(struct target_scope *scope)
{
	char *text = "";
	if (!scope)
		return text;
	for (int i = 0; i < scope->provided.n; i++) {
		struct target_provided *pv = scope->provided.items[i];
		text = ast_printf("%s $%s:%s", text, pv->name, ast_type_name(pv->type));
	}
	for (int i = 0; i < scope->vars.n; i++) {
		struct dbg_var *v = scope->vars.items[i];
		text = ast_printf("%s $%s:%s", text, v->name, dbg_type_text(v->type));
	}
	if (scope->is_return && scope->ret)
		text = ast_printf("%s $return:%s", text, dbg_type_text(scope->ret));
	return text;
}

static bool stmt_inert(struct node *n, struct probe *p, bool *by_defined)
{
	if (!n || n->kind == NODE_NULL_STMT)
		return true;
	if (n->kind == NODE_BLOCK) {
		for (int i = 0; i < n->u.block.stmts.n; i++)
			if (!stmt_inert(n->u.block.stmts.items[i], p, by_defined))
				return false;
		return true;
	}
	if (n->kind != NODE_IF)
		return false;
	int taken = decided_value(n->u.if_stmt.cond, p, by_defined);
	return taken >= 0 && stmt_inert(taken ? n->u.if_stmt.then : n->u.if_stmt.otherwise, p, by_defined);
}

bool targetvar_probe_inert(struct probe *p, bool *by_defined)
{
	return stmt_inert(p->body, p, by_defined);
}
