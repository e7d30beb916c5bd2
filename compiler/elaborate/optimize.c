/*
 * optimize.c - pass 2, last step: warnings about code that does nothing,
 * then (unless -u) a smaller program that behaves the same.
 *
 * Two entry points, called by elaborate():
 *
 *   optimize_prune_functions, right after resolution: functions no probe
 *   reaches leave the program before types are inferred (as in SystemTap,
 *   an unused function is checked for names but not for types). A user's
 *   function gets "eliding unused function".
 *
 *   optimize_program, after types and probe points:
 *     warnings (also with -u): a local read but never assigned;
 *     then, until nothing changes (bounded rounds):
 *     - constant folding: integer arithmetic wraps exactly as the runtime
 *       does (codegen.c's arith()), comparisons, !, ~, unary -, && and ||
 *       with a deciding constant left side, ?: with a constant condition,
 *       concatenation of literals when the result fits MAXSTRINGLEN.
 *       Division or modulo by a constant zero is never folded: it stays a
 *       run-time error, as the user wrote it;
 *     - dead code: if/while/for with constant conditions, statements after
 *       return/next/break/continue in the same block, empty blocks and ';';
 *     - expression statements without side effects are dropped with a
 *       warning (a division may fail, so it counts as a side effect unless
 *       the divisor is a non-zero constant);
 *     - locals assigned but never read: the assignments and the local go,
 *       their right sides stay when they have side effects;
 *     - functions no longer reached and globals nothing uses (except those
 *       the end-of-script display shows) leave the program.
 *
 * Rewrites happen in place: a node's contents are replaced (`*n = *other`),
 * so parents need not know. Node kinds this file does not know (added by
 * other passes) are walked but never folded, and count as side effects.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "optimize.h"

/* State of one optimizer run. */
struct opt {
	struct session *s;
	bool changed;          /* some rewrite happened this round */
	long max_concat;       /* longest string a folded concatenation may make, -1: never fold */
	struct vec synthetic;  /* of struct node *: statements the optimizer made (no warnings) */
};

/* ---- side effects ---- */

static bool has_side_effects(const struct node *n);

static bool any_side_effects(const struct vec *v)
{
	for (int i = 0; i < v->n; i++)
		if (has_side_effects(v->items[i]))
			return true;
	return false;
}

/* Can evaluating n change anything or fail? Unknown kinds: assume so. */
static bool has_side_effects(const struct node *n)
{
	if (!n)
		return false;
	switch (n->kind) {
	case NODE_NUM:
	case NODE_STR:
	case NODE_VAR:
		return false;
	case NODE_INDEX:
		return any_side_effects(&n->u.index.keys);
	case NODE_IN:
		return any_side_effects(&n->u.in.keys);
	case NODE_UNARY:
		return has_side_effects(n->u.unary.operand);
	case NODE_BINARY:
		if ((n->u.binary.op == OP_DIV || n->u.binary.op == OP_MOD) &&
		    !(n->u.binary.rhs->kind == NODE_NUM && n->u.binary.rhs->u.num != 0))
			return true; /* may be a division by zero: a run-time error */
		return has_side_effects(n->u.binary.lhs) || has_side_effects(n->u.binary.rhs);
	case NODE_TERNARY:
		return has_side_effects(n->u.ternary.cond) || has_side_effects(n->u.ternary.then) ||
		       has_side_effects(n->u.ternary.otherwise);
	case NODE_CALL:
		/* Only embedded-C functions marked pure are known to have none. */
		if (n->u.call.func && n->u.call.func->pure)
			return any_side_effects(&n->u.call.args);
		return true;
	case NODE_ASSIGN: case NODE_INCDEC: case NODE_WILDCARD: case NODE_BLOCK:
	case NODE_EXPR_STMT: case NODE_NULL_STMT: case NODE_IF: case NODE_WHILE: case NODE_FOR:
	case NODE_FOREACH: case NODE_BREAK: case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN:
	case NODE_DELETE: case NODE_TRY: case NODE_EMBEDDED: case NODE_STAT_ADD: case NODE_STAT_OP:
	case NODE_REGEX: case NODE_TARGET: case NODE_DEFINED: case NODE_ENTRY:
		return true;
	}
	return true; /* not reached: each kind returns above */
}

/* ---- constant folding ---- */

static void make_num(struct node *n, int64_t value)
{
	n->kind = NODE_NUM;
	n->type = TYPE_LONG;
	n->u.num = value;
	n->tok = ast_printf("%" PRId64, value);
}

/* a OP b exactly as the generated C computes it (b != 0 for / and %). */
static int64_t fold_arith(enum ast_op op, int64_t a, int64_t b)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	switch (op) {
	case OP_ADD: return (int64_t)(ua + ub);
	case OP_SUB: return (int64_t)(ua - ub);
	case OP_MUL: return (int64_t)(ua * ub);
	case OP_DIV: return b == -1 ? (int64_t)(0 - ua) : a / b;
	case OP_MOD: return b == -1 ? 0 : a % b;
	case OP_SHL: return (int64_t)(ua << (b & 63));
	case OP_SHR: return a >> (b & 63);
	case OP_BITAND: return a & b;
	case OP_BITOR: return a | b;
	case OP_BITXOR: return a ^ b;
	case OP_EQ: return a == b;
	case OP_NE: return a != b;
	case OP_LT: return a < b;
	case OP_LE: return a <= b;
	case OP_GT: return a > b;
	case OP_GE: return a >= b;
	case OP_AND: return a && b;
	case OP_OR: return a || b;
	default: abort();
	}
}

static bool is_comparison(enum ast_op op)
{
	return op >= OP_EQ && op <= OP_GE;
}

static void fold_binary(struct opt *o, struct node *n)
{
	enum ast_op op = n->u.binary.op;
	struct node *a = n->u.binary.lhs, *b = n->u.binary.rhs;

	/* The left side alone decides: the right side is never evaluated. */
	if (a->kind == NODE_NUM && ((op == OP_AND && a->u.num == 0) || (op == OP_OR && a->u.num != 0))) {
		make_num(n, op == OP_OR);
		o->changed = true;
		return;
	}
	if (a->kind == NODE_NUM && b->kind == NODE_NUM) {
		if ((op == OP_DIV || op == OP_MOD) && b->u.num == 0)
			return; /* stays a run-time error */
		make_num(n, fold_arith(op, a->u.num, b->u.num));
		o->changed = true;
		return;
	}
	if (a->kind != NODE_STR || b->kind != NODE_STR)
		return;
	if (is_comparison(op)) {
		int c = strcmp(a->u.str, b->u.str);
		make_num(n, fold_arith(op, c, 0));
		o->changed = true;
	} else if (op == OP_CONCAT && o->max_concat >= 0 &&
		   strlen(a->u.str) + strlen(b->u.str) <= (size_t)o->max_concat) {
		const char *joined = ast_printf("%s%s", a->u.str, b->u.str);
		n->kind = NODE_STR;
		n->type = TYPE_STRING;
		n->u.str = joined;
		n->tok = "\"";
		o->changed = true;
	}
}

static void fold_unary(struct opt *o, struct node *n)
{
	struct node *a = n->u.unary.operand;
	if (a->kind != NODE_NUM)
		return;
	int64_t v = a->u.num;
	switch (n->u.unary.op) {
	case OP_NEG: v = (int64_t)(0 - (uint64_t)v); break;
	case OP_BITNOT: v = ~v; break;
	case OP_NOT: v = !v; break;
	case OP_PLUS: break;
	default: return;
	}
	make_num(n, v);
	o->changed = true;
}

/* ---- statements ---- */

static struct node *null_stmt(struct srcloc loc)
{
	return ast_new(NODE_NULL_STMT, loc, ";");
}

/* An expression statement the optimizer made: no warning if it turns out useless. */
static struct node *synthetic_stmt(struct opt *o, struct node *expr)
{
	struct node *st = ast_new(NODE_EXPR_STMT, expr->loc, expr->tok);
	st->u.expr_stmt.expr = expr;
	vec_push(&o->synthetic, st);
	return st;
}

static bool is_synthetic(struct opt *o, struct node *st)
{
	for (int i = 0; i < o->synthetic.n; i++)
		if (o->synthetic.items[i] == st)
			return true;
	return false;
}

static bool is_empty_stmt(const struct node *n)
{
	return !n || n->kind == NODE_NULL_STMT || (n->kind == NODE_BLOCK && n->u.block.stmts.n == 0);
}

/* Replace statement n by what still has to run of cond. */
static void keep_only_condition(struct opt *o, struct node *n, struct node *cond)
{
	*n = has_side_effects(cond) ? *synthetic_stmt(o, cond) : *null_stmt(n->loc);
	if (n->kind == NODE_EXPR_STMT)
		vec_push(&o->synthetic, n);
}

static void simplify_block(struct opt *o, struct node *n)
{
	struct vec kept = {0};
	struct vec *stmts = &n->u.block.stmts;
	for (int i = 0; i < stmts->n; i++) {
		struct node *st = stmts->items[i];
		if (is_empty_stmt(st))
			continue;
		vec_push(&kept, st);
		if (st->kind == NODE_RETURN || st->kind == NODE_NEXT || st->kind == NODE_BREAK ||
		    st->kind == NODE_CONTINUE)
			break; /* the rest can never run */
	}
	if (kept.n != stmts->n)
		o->changed = true;
	*stmts = kept;
}

static void simplify_stmt(struct opt *o, struct node *n)
{
	switch (n->kind) {
	case NODE_BLOCK:
		simplify_block(o, n);
		break;
	case NODE_EXPR_STMT:
		if (has_side_effects(n->u.expr_stmt.expr))
			break;
		if (!is_synthetic(o, n))
			diag_warning(n->u.expr_stmt.expr->loc, "eliding side-effect-free expression");
		*n = *null_stmt(n->loc);
		o->changed = true;
		break;
	case NODE_IF: {
		struct node *cond = n->u.if_stmt.cond;
		if (cond->kind == NODE_NUM) {
			struct node *taken = cond->u.num ? n->u.if_stmt.then : n->u.if_stmt.otherwise;
			*n = taken ? *taken : *null_stmt(n->loc);
			o->changed = true;
		} else if (is_empty_stmt(n->u.if_stmt.then) && is_empty_stmt(n->u.if_stmt.otherwise)) {
			keep_only_condition(o, n, cond);
			o->changed = true;
		}
		break;
	}
	case NODE_WHILE:
		if (n->u.while_stmt.cond->kind == NODE_NUM && n->u.while_stmt.cond->u.num == 0) {
			*n = *null_stmt(n->loc);
			o->changed = true;
		}
		break;
	case NODE_FOR: {
		struct node *cond = n->u.for_stmt.cond;
		if (cond && cond->kind == NODE_NUM && cond->u.num == 0) {
			struct node *init = n->u.for_stmt.init;
			if (init)
				keep_only_condition(o, n, init);
			else
				*n = *null_stmt(n->loc);
			o->changed = true;
		}
		break;
	}
	case NODE_NUM: case NODE_STR: case NODE_VAR: case NODE_INDEX: case NODE_CALL:
	case NODE_UNARY: case NODE_BINARY: case NODE_TERNARY: case NODE_ASSIGN: case NODE_INCDEC:
	case NODE_IN: case NODE_WILDCARD: case NODE_NULL_STMT: case NODE_FOREACH: case NODE_BREAK:
	case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN: case NODE_DELETE: case NODE_TRY:
	case NODE_EMBEDDED: case NODE_STAT_ADD: case NODE_STAT_OP: case NODE_REGEX:
	case NODE_TARGET: case NODE_DEFINED: case NODE_ENTRY:
		break;
	}
}

/* Bottom-up: children are already simplified when a node is visited. */
static void simplify_post(struct ast_walker *w, struct node *n)
{
	struct opt *o = w->data;
	switch (n->kind) {
	case NODE_UNARY:
		fold_unary(o, n);
		break;
	case NODE_BINARY:
		fold_binary(o, n);
		break;
	case NODE_TERNARY:
		if (n->u.ternary.cond->kind == NODE_NUM) {
			*n = *(n->u.ternary.cond->u.num ? n->u.ternary.then : n->u.ternary.otherwise);
			o->changed = true;
		}
		break;
	case NODE_NUM: case NODE_STR: case NODE_VAR: case NODE_INDEX: case NODE_CALL:
	case NODE_ASSIGN: case NODE_INCDEC: case NODE_IN: case NODE_WILDCARD: case NODE_BLOCK:
	case NODE_EXPR_STMT: case NODE_NULL_STMT: case NODE_IF: case NODE_WHILE: case NODE_FOR:
	case NODE_FOREACH: case NODE_BREAK: case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN:
	case NODE_DELETE: case NODE_TRY: case NODE_EMBEDDED: case NODE_STAT_ADD: case NODE_STAT_OP:
	case NODE_REGEX: case NODE_TARGET: case NODE_DEFINED: case NODE_ENTRY:
		simplify_stmt(o, n);
		break;
	}
}

/* ---- use counts ---- */

/* How one symbol is used in the bodies counted. */
struct use {
	struct symbol *sym;
	int reads;  /* value used */
	int writes; /* assigned, deleted, bound by foreach, incremented */
};

/* Use counts being gathered. */
struct uses {
	struct vec items; /* of struct use * */
};

static struct use *use_of(struct uses *u, struct symbol *sym)
{
	for (int i = 0; i < u->items.n; i++) {
		struct use *x = u->items.items[i];
		if (x->sym == sym)
			return x;
	}
	struct use *x = ast_alloc(sizeof(*x));
	x->sym = sym;
	vec_push(&u->items, x);
	return x;
}

static void note_write(struct uses *u, struct node *target)
{
	if (target && target->kind == NODE_VAR && target->u.var.sym)
		use_of(u, target->u.var.sym)->writes++;
	else if (target && target->kind == NODE_INDEX && target->u.index.array->u.var.sym)
		use_of(u, target->u.index.array->u.var.sym)->writes++;
}

static bool count_pre(struct ast_walker *w, struct node *n)
{
	struct uses *u = w->data;
	switch (n->kind) {
	case NODE_VAR:
		if (n->u.var.sym)
			use_of(u, n->u.var.sym)->reads++;
		return false;
	case NODE_ASSIGN:
		note_write(u, n->u.assign.lhs);
		if (n->u.assign.op == OP_NONE && n->u.assign.lhs->kind == NODE_VAR) {
			/* x = e: x is only written */
			ast_walk(w, n->u.assign.rhs);
			return false;
		}
		return true;
	case NODE_INCDEC:
		note_write(u, n->u.incdec.operand);
		return true;
	case NODE_DELETE:
		note_write(u, n->u.del.target);
		if (n->u.del.target->kind == NODE_VAR)
			return false;
		return true;
	case NODE_FOREACH:
		note_write(u, n->u.foreach.value);
		for (int i = 0; i < n->u.foreach.keys.n; i++)
			note_write(u, n->u.foreach.keys.items[i]);
		return true;
	case NODE_TRY:
		/* catch (msg) assigns msg */
		note_write(u, n->u.try_stmt.var);
		ast_walk(w, n->u.try_stmt.body);
		ast_walk(w, n->u.try_stmt.handler);
		return false;
	case NODE_NUM: case NODE_STR: case NODE_INDEX: case NODE_CALL: case NODE_UNARY:
	case NODE_BINARY: case NODE_TERNARY: case NODE_IN: case NODE_WILDCARD: case NODE_BLOCK:
	case NODE_EXPR_STMT: case NODE_NULL_STMT: case NODE_IF: case NODE_WHILE: case NODE_FOR:
	case NODE_BREAK: case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN: case NODE_EMBEDDED:
	case NODE_STAT_ADD: case NODE_STAT_OP: case NODE_REGEX: case NODE_TARGET: case NODE_DEFINED:
	case NODE_ENTRY:
		return true;
	}
	return true; /* not reached: each kind returns above */
}

static void count_uses(struct uses *u, struct node *body)
{
	struct ast_walker w = {.pre = count_pre, .data = u};
	ast_walk(&w, body);
}

/* ---- warnings ---- */

static void warn_never_assigned(struct vec *locals, struct node *body)
{
	struct uses u = {0};
	count_uses(&u, body);
	for (int i = 0; i < locals->n; i++) {
		struct symbol *sym = locals->items[i];
		struct use *x = use_of(&u, sym);
		/* the resolver agrees (it also knows bindings this file does not) */
		if (x->reads && !x->writes && !sym->written)
			diag_warning(sym->loc, "never-assigned local variable '%s'", sym->name);
	}
}

/* ---- unused locals ---- */

/* The locals being elided from the body walked. */
struct elide {
	struct opt *o;
	struct vec dead; /* of struct symbol * */
};

static bool is_dead(struct elide *e, const struct node *target)
{
	if (!target || target->kind != NODE_VAR)
		return false;
	for (int i = 0; i < e->dead.n; i++)
		if (e->dead.items[i] == target->u.var.sym)
			return true;
	return false;
}

static bool elide_pre(struct ast_walker *w, struct node *n)
{
	struct elide *e = w->data;
	if (n->kind == NODE_EXPR_STMT) {
		struct node *x = n->u.expr_stmt.expr;
		/* x = e; with x dead: only e's side effects remain */
		while (x->kind == NODE_ASSIGN && x->u.assign.op == OP_NONE && is_dead(e, x->u.assign.lhs))
			x = x->u.assign.rhs;
		if (x != n->u.expr_stmt.expr) {
			if (has_side_effects(x)) {
				n->u.expr_stmt.expr = x;
				vec_push(&e->o->synthetic, n);
			} else {
				*n = *null_stmt(n->loc);
			}
			e->o->changed = true;
		}
	} else if (n->kind == NODE_DELETE && is_dead(e, n->u.del.target)) {
		*n = *null_stmt(n->loc);
		e->o->changed = true;
	} else if (n->kind == NODE_TRY && is_dead(e, n->u.try_stmt.var)) {
		n->u.try_stmt.var = NULL; /* catch (msg) with msg unused: just catch */
		e->o->changed = true;
	}
	return true;
}

static void elide_post(struct ast_walker *w, struct node *n)
{
	struct elide *e = w->data;
	/* (x = e) used as a value: its value is e's */
	if (n->kind == NODE_ASSIGN && n->u.assign.op == OP_NONE && is_dead(e, n->u.assign.lhs)) {
		*n = *n->u.assign.rhs;
		e->o->changed = true;
	}
}

/* Locals assigned but never read leave the body and the locals list. */
static void elide_unused_locals(struct opt *o, struct vec *locals, struct node *body)
{
	struct uses u = {0};
	count_uses(&u, body);
	struct elide e = {.o = o};
	struct vec kept = {0};
	for (int i = 0; i < locals->n; i++) {
		struct symbol *sym = locals->items[i];
		struct use *x = use_of(&u, sym);
		if (x->reads == 0 && x->writes > 0) {
			diag_warning(sym->loc, "eliding unused variable '%s': it is assigned but never read", sym->name);
			vec_push(&e.dead, sym);
		} else {
			/*
			 * Kept, even when no longer mentioned (it was only in dead
			 * code): a construct this file does not know may still bind it.
			 */
			sym->index = kept.n;
			vec_push(&kept, sym);
		}
	}
	if (e.dead.n) {
		struct ast_walker w = {.pre = elide_pre, .post = elide_post, .data = &e};
		ast_walk(&w, body);
	}
	*locals = kept;
}

/* ---- functions and globals ---- */

static bool in_vec(const struct vec *v, const void *item)
{
	for (int i = 0; i < v->n; i++)
		if (v->items[i] == item)
			return true;
	return false;
}

/* Functions the walk reaches, each once: fn->used marks those already in the list. */
static bool calls_pre(struct ast_walker *w, struct node *n)
{
	struct vec *reached = w->data;
	if (n->kind == NODE_CALL && n->u.call.func && !n->u.call.func->used) {
		n->u.call.func->used = true;
		vec_push(reached, n->u.call.func);
	}
	return true;
}

/* Keep only the functions of v still in the program (marked used). */
static void filter_functions(struct vec *v)
{
	int k = 0;
	for (int i = 0; i < v->n; i++)
		if (((struct function *)v->items[i])->used)
			v->items[k++] = v->items[i];
	v->n = k;
}

/* Keep only the items of v that are in `in` (pointer comparison). */
static void filter_vec(struct vec *v, const struct vec *in)
{
	int k = 0;
	for (int i = 0; i < v->n; i++)
		for (int j = 0; j < in->n; j++)
			if (in->items[j] == v->items[i]) {
				v->items[k++] = v->items[i];
				break;
			}
	v->n = k;
}

/*
 * Walk everything a probe evaluates itself (not through a function): its
 * body and its condition. A construct that gives probes more code must be
 * walked here too, or the functions only it calls would be elided.
 */
static void walk_probe_code(struct session *s, struct ast_walker *w)
{
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		ast_walk(w, p->body);
		ast_walk(w, p->cond);
	}
}

/* The functions the probes still call, in s->functions order; warn about the others. */
static bool prune_functions(struct session *s)
{
	struct vec reached = {0};
	struct ast_walker w = {.pre = calls_pre, .data = &reached};
	for (int i = 0; i < s->functions.n; i++)
		((struct function *)s->functions.items[i])->used = false;	/* until reached */
	walk_probe_code(s, &w);
	for (int i = 0; i < reached.n; i++) /* grows while we go */
		ast_walk(&w, ((struct function *)reached.items[i])->body);

	struct vec kept = {0};
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (!fn->used) {
			if (!fn->from_tapset)
				diag_warning(fn->loc, "eliding unused function '%s'", fn->name);
			continue;
		}
		fn->index = kept.n;
		vec_push(&kept, fn);
	}
	bool changed = kept.n != s->functions.n;
	s->functions = kept;
	for (int i = 0; i < s->functions.n; i++)
		filter_functions(&((struct function *)s->functions.items[i])->callees);
	for (int i = 0; i < s->probes.n; i++)
		filter_functions(&((struct probe *)s->probes.items[i])->callees);
	return changed;
}

void optimize_prune_functions(struct session *s)
{
	prune_functions(s);
}

/*
 * Globals that no remaining probe or function touches leave the program,
 * unless the end-of-script display shows them (translate.c: a script global
 * written and never read). "Touches" is the resolver's read/write sets, the
 * ones pass 3 locks by: every construct that uses a global must be in them,
 * so this never drops a global some code still needs. (A global used only
 * in code the optimizer removed stays: those sets are not recomputed.)
 */
static bool prune_globals(struct session *s)
{
	struct vec kept = {0}, kept_syms = {0};
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		bool used = !g->from_tapset && g->sym->written && !g->sym->read;
		for (int j = 0; j < s->probes.n && !used; j++) {
			struct probe *p = s->probes.items[j];
			used = in_vec(&p->globals_read, g->sym) || in_vec(&p->globals_written, g->sym) ||
			       in_vec(&p->cond_reads, g->sym);
		}
		for (int j = 0; j < s->functions.n && !used; j++) {
			struct function *fn = s->functions.items[j];
			used = in_vec(&fn->globals_read, g->sym) || in_vec(&fn->globals_written, g->sym);
		}
		if (!used)
			continue;
		g->sym->index = kept.n;
		vec_push(&kept, g);
		vec_push(&kept_syms, g->sym);
	}
	bool changed = kept.n != s->globals.n;
	s->globals = kept;
	s->globals_by_name = (struct strmap){0};
	for (int i = 0; i < kept.n; i++)
		vec_push(strmap_vec(&s->globals_by_name, ((struct global *)kept.items[i])->name), kept.items[i]);
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		filter_vec(&p->globals_read, &kept_syms);
		filter_vec(&p->globals_written, &kept_syms);
		filter_vec(&p->cond_reads, &kept_syms);
	}
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		filter_vec(&fn->globals_read, &kept_syms);
		filter_vec(&fn->globals_written, &kept_syms);
	}
	return changed;
}

/* ---- driver ---- */

/* MAXSTRINGLEN - 1 from -D, else the runtime's default; -1 if not a plain number. */
long optimize_string_limit(struct session *s)
{
	long maxstringlen = 128; /* runtime.h */
	for (int i = 0; i < s->defines.n; i++) {
		struct define *d = s->defines.items[i];
		if (strcmp(d->name, "MAXSTRINGLEN") != 0)
			continue;
		char *end;
		maxstringlen = d->value ? strtol(d->value, &end, 0) : 0;
		if (!d->value || *end || maxstringlen < 2)
			return -1;
	}
	return maxstringlen - 1;
}

static void simplify_body(struct opt *o, struct node *body)
{
	struct ast_walker w = {.post = simplify_post, .data = o};
	ast_walk(&w, body);
}

void optimize_program(struct session *s)
{
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		warn_never_assigned(&p->locals, p->body);
	}
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		warn_never_assigned(&fn->locals, fn->body);
	}
	if (s->unoptimized)
		return;

	struct opt o = {.s = s, .max_concat = optimize_string_limit(s)};
	for (int round = 0; round < 20; round++) {
		o.changed = false;
		for (int i = 0; i < s->probes.n; i++) {
			struct probe *p = s->probes.items[i];
			simplify_body(&o, p->body);
			elide_unused_locals(&o, &p->locals, p->body);
		}
		for (int i = 0; i < s->functions.n; i++) {
			struct function *fn = s->functions.items[i];
			simplify_body(&o, fn->body);
			elide_unused_locals(&o, &fn->locals, fn->body);
		}
		if (prune_functions(s))
			o.changed = true;
		if (prune_globals(s))
			o.changed = true;
		if (!o.changed)
			break;
	}
}
