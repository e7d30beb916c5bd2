/*
 * types.c - pass 2, step 2: type inference and checking.
 *
 * Every expression, symbol, array key and function return is long or
 * string. Inference runs over all bodies until nothing changes (types only
 * ever go from unknown to known), then one last checking round reports
 * conflicts and whatever stayed unknown. Printf-style formats are parsed
 * here once and checked against their arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "format.h"
#include "resolve.h"
#include "types.h"
#include "targetvar.h"

/* What inference keeps between rounds and calls (session.types). */
struct types_state {
	struct vec reported_locs;  /* of struct srcloc *: locations with a type error reported */
	struct strmap formats;     /* format text -> struct vec * of its specs, parsed once */
};

/* State of one round. */
struct infer {
	bool changed;   /* some type became known this round */
	bool report;    /* the final round: report conflicts and unknowns */
	bool would_report; /* an earlier round met something the final round would report */
	struct function *func; /* body being walked, NULL in probes */
	struct types_state *st; /* the session's */
};

/* Locations that already have a type error: one report per place is enough. */
static bool first_report_at(struct infer *in, struct srcloc loc)
{
	struct vec *reported_locs = &in->st->reported_locs;
	for (int i = 0; i < reported_locs->n; i++) {
		struct srcloc *r = reported_locs->items[i];
		if (r->file == loc.file && r->line == loc.line && r->col == loc.col)
			return false;
	}
	struct srcloc *copy = ast_alloc(sizeof(*copy));
	*copy = loc;
	vec_push(reported_locs, copy);
	return true;
}

/*
 * Whether to report a problem found here: only in the final round. The
 * other rounds note that there is one, so that when the last of them
 * changed nothing and met none, the final round (which formats a text for
 * every node it types) is not needed at all.
 */
static bool reporting(struct infer *in)
{
	if (!in->report)
		in->would_report = true;
	return in->report;
}

/*
 * What a diagnostic calls the thing being typed. Only the final round
 * reports, so the text is formatted only then (NULL in the other rounds):
 * the earlier rounds run over every body of a large tapset.
 */
#define WHAT(in, ...) ((in)->report ? ast_printf(__VA_ARGS__) : NULL)

static const char *type_name(enum stp_type t)
{
	return ast_type_name(t);
}

/* Make *slot agree with t. what names the thing for the diagnostic. */
static void unify(struct infer *in, enum stp_type *slot, enum stp_type t, struct srcloc loc, const char *what)
{
	if (t == TYPE_UNKNOWN || t == TYPE_VOID)
		return;
	if (*slot == TYPE_UNKNOWN) {
		*slot = t;
		in->changed = true;
	} else if (*slot != t && reporting(in) && first_report_at(in, loc)) {
		diag_error(loc, "type mismatch for %s: %s here, but %s elsewhere", what, type_name(t),
			   type_name(*slot));
	}
}

static void set_arity(struct infer *in, struct symbol *sym, int arity, struct srcloc loc)
{
	if (sym->arity < 0) {
		sym->arity = arity;
		in->changed = true;
	} else if (sym->arity != arity && reporting(in) && first_report_at(in, loc)) {
		if (arity == 0)
			diag_error(loc, "'%s' is an array with %d key%s; it is used here as a scalar", sym->name,
				   sym->arity, sym->arity == 1 ? "" : "s");
		else if (sym->arity == 0)
			diag_error(loc, "'%s' is a scalar; it is used here as an array", sym->name);
		else
			diag_error(loc, "array '%s' has %d key%s; it is indexed here with %d", sym->name, sym->arity,
				   sym->arity == 1 ? "" : "s", arity);
	}
}

static void infer_node(struct infer *in, struct node *n);

/*
 * n, already walked this round, must be of type t. Each node is walked once
 * per round: walking it again here would double the work per nesting level
 * (x = x = ... = 1).
 */
static void expect_type(struct infer *in, struct node *n, enum stp_type t, const char *what)
{
	if (n->type != TYPE_UNKNOWN && n->type != TYPE_VOID && n->type != t) {
		if (reporting(in) && first_report_at(in, n->loc))
			diag_error(n->loc, "%s must be %s, but this is a %s", what,
				   t == TYPE_STRING ? "strings" : "longs", ast_type_name(n->type));
		return;
	}
	/* A node whose type is still open adopts the expectation (e.g. an unused local). */
	if (n->kind == NODE_VAR && n->u.var.sym)
		unify(in, &n->u.var.sym->type, t, n->loc, WHAT(in, "'%s'", n->u.var.sym->name));
	else if (n->kind == NODE_INDEX && n->u.index.array->u.var.sym)
		unify(in, &n->u.index.array->u.var.sym->type, t, n->loc,
		      WHAT(in, "elements of '%s'", n->u.index.array->u.var.sym->name));
	else if (n->kind == NODE_CALL && n->u.call.func)
		unify(in, &n->u.call.func->type, t, n->loc, WHAT(in, "the value of '%s'", n->u.call.name));
	unify(in, &n->type, t, n->loc, what);
}

/* Walk n, then expect type t of it. */
static void infer_expect(struct infer *in, struct node *n, enum stp_type t, const char *what)
{
	infer_node(in, n);
	expect_type(in, n, t, what);
}

/* The keys of an array access agree with the array's key types. */
static void infer_keys(struct infer *in, struct symbol *arr, struct vec *keys, struct srcloc loc)
{
	if (keys->n > 9 && reporting(in))
		diag_error(loc, "arrays take at most 9 keys, not %d", keys->n);
	set_arity(in, arr, keys->n, loc);
	for (int i = 0; i < keys->n && i < 9; i++) {
		struct node *k = keys->items[i];
		if (k->kind == NODE_WILDCARD)
			continue; /* matches a key of any type */
		infer_node(in, k);
		if (arr->arity == keys->n) {
			enum stp_type kt = arr->keys[i];
			if (k->type != TYPE_UNKNOWN)
				unify(in, &arr->keys[i], k->type, k->loc,
				      WHAT(in, "key %d of '%s'", i + 1, arr->name));
			else if (kt != TYPE_UNKNOWN)
				expect_type(in, k, kt, WHAT(in, "key %d of '%s'", i + 1, arr->name));
		}
	}
}

/* One argument of a printf-style call must be of type want; what names its role. */
static void infer_format_arg(struct infer *in, struct node *arg, enum stp_type want, const char *what)
{
	infer_node(in, arg);
	if (arg->type == TYPE_UNKNOWN)
		expect_type(in, arg, want, "a format argument");
	else if (arg->type != want && reporting(in) && first_report_at(in, arg->loc))
		diag_error(arg->loc, "%s expects a %s, but this argument is a %s", what, type_name(want),
			   type_name(arg->type));
}

/* Printf-style call: check the format against the arguments ('*' widths take a long each). */
static void infer_format(struct infer *in, struct node *n, int first_arg)
{
	struct node *fmt = n->u.call.args.items[0];
	if (fmt->kind != NODE_STR)
		return;
	/* every round checks every printf: parse each format once (a failure is parsed again, to report it) */
	struct vec *cached = strmap_get(&in->st->formats, fmt->u.str);
	if (!cached) {
		struct vec parsed = {0};
		if (!format_parse(fmt->u.str, fmt->loc, &parsed, in->report)) {
			reporting(in); /* the final round reports why */
			return;
		}
		cached = ast_alloc(sizeof(*cached));
		*cached = parsed;
		*strmap_slot(&in->st->formats, fmt->u.str) = cached;
	}
	struct vec specs = *cached;
	int argi = first_arg;
	for (int i = 0; i < specs.n; i++) {
		struct format_spec *sp = specs.items[i];
		if (!sp->conv || sp->conv == '%')
			continue;
		int need = (sp->width == FORMAT_STAR) + (sp->precision == FORMAT_STAR) + 1;
		if (argi + need > n->u.call.args.n) {
			if (reporting(in))
				diag_error(fmt->loc, "format '%s' has no matching argument in this %s call", sp->text,
					   n->u.call.name);
			return;
		}
		if (sp->width == FORMAT_STAR)
			infer_format_arg(in, n->u.call.args.items[argi++], TYPE_LONG,
					 WHAT(in, "the '*' width of format '%s'", sp->text));
		if (sp->precision == FORMAT_STAR)
			infer_format_arg(in, n->u.call.args.items[argi++], TYPE_LONG,
					 WHAT(in, "the '*' precision of format '%s'", sp->text));
		infer_format_arg(in, n->u.call.args.items[argi++], sp->conv == 's' ? TYPE_STRING : TYPE_LONG,
				 WHAT(in, "format '%s'", sp->text));
	}
	if (argi < n->u.call.args.n && reporting(in))
		diag_error(((struct node *)n->u.call.args.items[argi])->loc,
			   "too many arguments for the format of %s", n->u.call.name);
}

static void infer_call(struct infer *in, struct node *n)
{
	switch ((enum builtin)n->u.call.builtin) {
	case BUILTIN_PRINTF:
	case BUILTIN_SPRINTF:
		if (n->u.call.args.n)
			infer_format(in, n, 1);
		n->type = n->u.call.builtin == BUILTIN_SPRINTF ? TYPE_STRING : TYPE_VOID;
		return;
	case BUILTIN_PRINT:
	case BUILTIN_PRINTLN:
	case BUILTIN_SPRINT:
	case BUILTIN_SPRINTLN:
	case BUILTIN_PRINTD:
	case BUILTIN_PRINTDLN:
	case BUILTIN_SPRINTD:
	case BUILTIN_SPRINTDLN: {
		int b = n->u.call.builtin;
		for (int i = 0; i < n->u.call.args.n; i++) {
			struct node *a = n->u.call.args.items[i];
			infer_node(in, a);
			if (i == 0 && builtin_is_delimited(b))
				continue; /* the delimiter: a string literal (checked at pass 1) */
			if (a->type == TYPE_UNKNOWN && reporting(in))
				diag_error(a->loc, "cannot tell whether this %s argument is a number or a string",
					   n->u.call.name);
		}
		bool to_string = b == BUILTIN_SPRINT || b == BUILTIN_SPRINTLN || b == BUILTIN_SPRINTD ||
				 b == BUILTIN_SPRINTDLN;
		n->type = to_string ? TYPE_STRING : TYPE_VOID;
		return;
	}
	case BUILTIN_CONST:
		n->type = TYPE_LONG;
		return;
	case BUILTIN_ENUMNAME:
		infer_expect(in, n->u.call.args.items[0], TYPE_LONG, "the values @enumname names");
		n->type = TYPE_STRING;
		return;
	case BUILTIN_NONE:
		break;
	}
	struct function *fn = n->u.call.func;
	if (!fn)
		return;
	for (int i = 0; i < n->u.call.args.n && i < fn->params.n; i++) {
		struct node *a = n->u.call.args.items[i];
		struct param *p = fn->params.items[i];
		infer_node(in, a);
		if (a->type != TYPE_UNKNOWN)
			unify(in, &p->sym->type, a->type, a->loc,
			      WHAT(in, "parameter '%s' of '%s'", p->name, fn->name));
		else if (p->sym->type != TYPE_UNKNOWN)
			expect_type(in, a, p->sym->type, WHAT(in, "parameter '%s' of '%s'", p->name, fn->name));
	}
	if (fn->type != TYPE_UNKNOWN)
		unify(in, &n->type, fn->type, n->loc, WHAT(in, "the value of '%s'", fn->name));
}

/* Both sides of a comparison or a ternary's branches agree. */
static void infer_pair(struct infer *in, struct node *a, struct node *b, struct srcloc loc, const char *what)
{
	infer_node(in, a);
	infer_node(in, b);
	if (a->type != TYPE_UNKNOWN && b->type == TYPE_UNKNOWN)
		expect_type(in, b, a->type, what);
	else if (b->type != TYPE_UNKNOWN && a->type == TYPE_UNKNOWN)
		expect_type(in, a, b->type, what);
	else if (a->type != b->type && a->type != TYPE_UNKNOWN && reporting(in) && first_report_at(in, loc))
		diag_error(loc, "type mismatch for %s: %s and %s", what, type_name(a->type), type_name(b->type));
}

static void infer_lvalue_type(struct infer *in, struct node *lhs, enum stp_type t, struct srcloc loc)
{
	if (lhs->kind == NODE_VAR && lhs->u.var.sym) {
		struct symbol *sym = lhs->u.var.sym;
		set_arity(in, sym, 0, lhs->loc);
		unify(in, &sym->type, t, loc, WHAT(in, "'%s'", sym->name));
	} else if (lhs->kind == NODE_INDEX && lhs->u.index.array->u.var.sym) {
		struct symbol *arr = lhs->u.index.array->u.var.sym;
		unify(in, &arr->type, t, loc, WHAT(in, "elements of '%s'", arr->name));
	}
}

static void infer_foreach(struct infer *in, struct node *n)
{
	if (n->u.foreach.array->kind == NODE_STAT_OP) {
		/* histogram buckets: the index and the count are longs */
		infer_node(in, n->u.foreach.array);
		for (int i = 0; i < n->u.foreach.keys.n; i++) {
			struct node *k = n->u.foreach.keys.items[i];
			if (k->u.var.sym)
				set_arity(in, k->u.var.sym, 0, k->loc);
			infer_expect(in, k, TYPE_LONG, "histogram bucket indexes");
		}
		struct node *v = n->u.foreach.value;
		if (v && v->u.var.sym)
			set_arity(in, v->u.var.sym, 0, v->loc);
		if (v)
			infer_expect(in, v, TYPE_LONG, "histogram bucket counts");
		if (n->u.foreach.limit)
			infer_expect(in, n->u.foreach.limit, TYPE_LONG, "a foreach limit");
		infer_node(in, n->u.foreach.body);
		return;
	}
	struct symbol *arr = n->u.foreach.array->u.var.sym;
	if (arr) {
		set_arity(in, arr, n->u.foreach.keys.n, n->loc);
		for (int i = 0; i < n->u.foreach.slice.n && i < 9; i++) {
			struct node *k = n->u.foreach.slice.items[i];
			if (k->kind == NODE_WILDCARD)
				continue;
			infer_node(in, k);
			if (arr->keys[i] != TYPE_UNKNOWN)
				infer_expect(in, k, arr->keys[i], WHAT(in, "key %d of '%s'", i + 1, arr->name));
			else if (k->type != TYPE_UNKNOWN && arr->arity == n->u.foreach.slice.n)
				unify(in, &arr->keys[i], k->type, k->loc, WHAT(in, "key %d of '%s'", i + 1, arr->name));
		}
		for (int i = 0; i < n->u.foreach.keys.n && i < 9; i++) {
			struct node *k = n->u.foreach.keys.items[i];
			if (!k->u.var.sym)
				continue;
			set_arity(in, k->u.var.sym, 0, k->loc);
			if (arr->keys[i] != TYPE_UNKNOWN)
				unify(in, &k->u.var.sym->type, arr->keys[i], k->loc, WHAT(in, "'%s'", k->u.var.name));
			else if (k->u.var.sym->type != TYPE_UNKNOWN && arr->arity == n->u.foreach.keys.n)
				unify(in, &arr->keys[i], k->u.var.sym->type, k->loc,
				      WHAT(in, "key %d of '%s'", i + 1, arr->name));
			k->type = k->u.var.sym->type;
		}
		struct node *v = n->u.foreach.value;
		if (v && v->u.var.sym) {
			set_arity(in, v->u.var.sym, 0, v->loc);
			if (arr->type != TYPE_UNKNOWN)
				unify(in, &v->u.var.sym->type, arr->type, v->loc, WHAT(in, "'%s'", v->u.var.name));
			else if (v->u.var.sym->type != TYPE_UNKNOWN)
				unify(in, &arr->type, v->u.var.sym->type, v->loc,
				      WHAT(in, "elements of '%s'", arr->name));
			v->type = v->u.var.sym->type;
		}
	}
	if (n->u.foreach.limit)
		infer_expect(in, n->u.foreach.limit, TYPE_LONG, "a foreach limit");
	infer_node(in, n->u.foreach.body);
}

static void infer_assign(struct infer *in, struct node *n)
{
	struct node *lhs = n->u.assign.lhs, *rhs = n->u.assign.rhs;
	enum ast_op op = n->u.assign.op;
	infer_node(in, lhs);
	infer_node(in, rhs);
	enum stp_type t = op == OP_NONE ? TYPE_UNKNOWN : op == OP_CONCAT ? TYPE_STRING : TYPE_LONG;
	if (t == TYPE_UNKNOWN)
		t = lhs->type != TYPE_UNKNOWN ? lhs->type : rhs->type;
	if (t == TYPE_UNKNOWN)
		return;
	if ((lhs->type != TYPE_UNKNOWN && lhs->type != t) || (rhs->type != TYPE_UNKNOWN && rhs->type != t)) {
		/* one clear report at the operator instead of one per side */
		if (reporting(in) && first_report_at(in, n->loc))
			diag_error(n->loc, "type mismatch in '%s=': %s on the left, %s on the right",
				   op == OP_NONE ? "" : ast_op_spelling(op),
				   ast_type_name(lhs->type != TYPE_UNKNOWN ? lhs->type : t),
				   ast_type_name(rhs->type != TYPE_UNKNOWN ? rhs->type : t));
		return;
	}
	infer_lvalue_type(in, lhs, t, n->loc);
	expect_type(in, lhs, t, "the target of the assignment");
	expect_type(in, rhs, t, "the assigned value");
	unify(in, &n->type, t, n->loc, "the assignment");
}

static void infer_stat_op(struct infer *in, struct node *n)
{
	/* extractors and histogram buckets are longs; a whole histogram can only be printed */
	struct node *t = n->u.stat_op.operand;
	infer_lvalue_type(in, t, TYPE_STATS, t->loc);
	infer_node(in, t);
	for (int i = 0; i < n->u.stat_op.args.n; i++)
		infer_expect(in, n->u.stat_op.args.items[i], TYPE_LONG,
			     WHAT(in, "parameters of %s", ast_stat_op_name(n->u.stat_op.op)));
	if (n->u.stat_op.bucket)
		infer_expect(in, n->u.stat_op.bucket, TYPE_LONG, "histogram bucket indexes");
	bool hist = n->u.stat_op.op == STAT_HIST_LINEAR || n->u.stat_op.op == STAT_HIST_LOG;
	n->type = hist && !n->u.stat_op.bucket ? TYPE_STATS : TYPE_LONG;
}

static void infer_try(struct infer *in, struct node *n)
{
	infer_node(in, n->u.try_stmt.body);
	struct node *var = n->u.try_stmt.var;
	if (var && var->u.var.sym) {
		set_arity(in, var->u.var.sym, 0, var->loc);
		unify(in, &var->u.var.sym->type, TYPE_STRING, var->loc,
		      WHAT(in, "'%s' (the message of a caught error)", var->u.var.name));
		var->type = TYPE_STRING;
	}
	infer_node(in, n->u.try_stmt.handler);
}

static void infer_binary(struct infer *in, struct node *n)
{
	enum ast_op op = n->u.binary.op;
	const char *what = WHAT(in, "operands of '%s'", ast_op_spelling(op));
	if (op == OP_CONCAT) {
		infer_expect(in, n->u.binary.lhs, TYPE_STRING, what);
		infer_expect(in, n->u.binary.rhs, TYPE_STRING, what);
		n->type = TYPE_STRING;
	} else if (op >= OP_EQ && op <= OP_GE) {
		infer_pair(in, n->u.binary.lhs, n->u.binary.rhs, n->loc, what);
		n->type = TYPE_LONG;
	} else {
		infer_expect(in, n->u.binary.lhs, TYPE_LONG, what);
		infer_expect(in, n->u.binary.rhs, TYPE_LONG, what);
		n->type = TYPE_LONG;
	}
}

static void infer_target(struct infer *in, struct node *n)
{
	/* the value type follows from the syntax: strings when pretty-printed */
	for (int i = 0; i < n->u.target.path.n; i++) {
		struct target_step *st = n->u.target.path.items[i];
		if (st->index)
			infer_expect(in, st->index, TYPE_LONG, "an index of a target variable");
	}
	if (n->u.target.operand)
		infer_expect(in, n->u.target.operand, TYPE_LONG, n->u.target.base == TARGET_BASE_AUTO
			     ? "the pointer before '->'" : "the address given to @cast");
	unify(in, &n->type, targetvar_value_type(n), n->loc, "a target variable");
}

static void infer_return(struct infer *in, struct node *n)
{
	if (n->u.ret.value && in->func) {
		infer_node(in, n->u.ret.value);
		if (n->u.ret.value->type != TYPE_UNKNOWN)
			unify(in, &in->func->type, n->u.ret.value->type, n->u.ret.value->loc,
			      WHAT(in, "the value of '%s'", in->func->name));
		else if (in->func->type != TYPE_UNKNOWN)
			expect_type(in, n->u.ret.value, in->func->type,
				     WHAT(in, "the value of '%s'", in->func->name));
	}
}

static void infer_node(struct infer *in, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case NODE_NUM:
		n->type = TYPE_LONG;
		break;
	case NODE_STR:
		n->type = TYPE_STRING;
		break;
	case NODE_VAR: {
		struct symbol *sym = n->u.var.sym;
		if (!sym)
			break;
		set_arity(in, sym, 0, n->loc);
		if (sym->type != TYPE_UNKNOWN)
			unify(in, &n->type, sym->type, n->loc, WHAT(in, "'%s'", sym->name));
		break;
	}
	case NODE_INDEX: {
		struct symbol *arr = n->u.index.array->u.var.sym;
		if (!arr)
			break;
		infer_keys(in, arr, &n->u.index.keys, n->loc);
		if (arr->type != TYPE_UNKNOWN)
			unify(in, &n->type, arr->type, n->loc, WHAT(in, "elements of '%s'", arr->name));
		break;
	}
	case NODE_CALL:
		infer_call(in, n);
		break;
	case NODE_UNARY:
		infer_expect(in, n->u.unary.operand, TYPE_LONG, WHAT(in, "operand of '%s'", ast_op_spelling(n->u.unary.op)));
		n->type = TYPE_LONG;
		break;
	case NODE_BINARY:
		infer_binary(in, n);
		break;
	case NODE_TERNARY:
		infer_expect(in, n->u.ternary.cond, TYPE_LONG, "a condition");
		infer_pair(in, n->u.ternary.then, n->u.ternary.otherwise, n->loc, "the branches of '?:'");
		if (n->u.ternary.then->type != TYPE_UNKNOWN)
			unify(in, &n->type, n->u.ternary.then->type, n->loc, "'?:'");
		break;
	case NODE_ASSIGN:
		infer_assign(in, n);
		break;
	case NODE_INCDEC:
		infer_node(in, n->u.incdec.operand);
		infer_lvalue_type(in, n->u.incdec.operand, TYPE_LONG, n->loc);
		expect_type(in, n->u.incdec.operand, TYPE_LONG, WHAT(in, "operand of '%s'", ast_op_spelling(n->u.incdec.op)));
		n->type = TYPE_LONG;
		break;
	case NODE_IN: {
		struct symbol *arr = n->u.in.array->u.var.sym;
		if (arr)
			infer_keys(in, arr, &n->u.in.keys, n->loc);
		n->type = TYPE_LONG;
		break;
	}
	case NODE_BLOCK:
		for (int i = 0; i < n->u.block.stmts.n; i++)
			infer_node(in, n->u.block.stmts.items[i]);
		break;
	case NODE_EXPR_STMT:
		infer_node(in, n->u.expr_stmt.expr);
		break;
	case NODE_IF:
		infer_expect(in, n->u.if_stmt.cond, TYPE_LONG, "an if condition");
		infer_node(in, n->u.if_stmt.then);
		infer_node(in, n->u.if_stmt.otherwise);
		break;
	case NODE_WHILE:
		infer_expect(in, n->u.while_stmt.cond, TYPE_LONG, "a while condition");
		infer_node(in, n->u.while_stmt.body);
		break;
	case NODE_FOR:
		infer_node(in, n->u.for_stmt.init);
		if (n->u.for_stmt.cond)
			infer_expect(in, n->u.for_stmt.cond, TYPE_LONG, "a for condition");
		infer_node(in, n->u.for_stmt.step);
		infer_node(in, n->u.for_stmt.body);
		break;
	case NODE_FOREACH:
		infer_foreach(in, n);
		break;
	case NODE_RETURN:
		infer_return(in, n);
		break;
	case NODE_DELETE:
		if (n->u.del.target->kind == NODE_INDEX)
			infer_node(in, n->u.del.target);
		break;
	case NODE_TRY:
		infer_try(in, n);
		break;
	case NODE_STAT_ADD:
		infer_lvalue_type(in, n->u.stat_add.target, TYPE_STATS, n->loc);
		infer_node(in, n->u.stat_add.target);
		infer_expect(in, n->u.stat_add.value, TYPE_LONG, "values added with '<<<'");
		n->type = TYPE_LONG;
		break;
	case NODE_STAT_OP:
		infer_stat_op(in, n);
		break;
	case NODE_REGEX:
		infer_expect(in, n->u.regex.subject, TYPE_STRING,
			     WHAT(in, "operands of '%s'", n->u.regex.negate ? "!~" : "=~"));
		n->type = TYPE_LONG;
		break;
	case NODE_TARGET:
		infer_target(in, n);
		break;
	case NODE_DEFINED:
		infer_node(in, n->u.at_op.operand);
		n->type = TYPE_LONG;
		break;
	case NODE_ENTRY:
		infer_node(in, n->u.at_op.operand);
		unify(in, &n->type, n->u.at_op.operand->type, n->loc, "@entry");
		break;
	case NODE_EMBEDDED:
		/* as an expression: a string if it says so, as an embedded-C function's result would */
		n->type = strstr(n->u.embedded.code, "/* string */") ? TYPE_STRING : TYPE_LONG;
		break;
	case NODE_WILDCARD: case NODE_NULL_STMT: case NODE_BREAK: case NODE_CONTINUE:
	case NODE_NEXT:
		break;
	}
}

static void report_unknown(struct symbol *sym, const char *owner)
{
	if (sym->arity > 0) {
		if (sym->type == TYPE_UNKNOWN)
			diag_error(sym->loc, "cannot infer the element type of array '%s'%s", sym->name, owner);
		for (int i = 0; i < sym->arity && i < 9; i++)
			if (sym->keys[i] == TYPE_UNKNOWN)
				diag_error(sym->loc, "cannot infer the type of key %d of array '%s'%s", i + 1,
					   sym->name, owner);
	} else if (sym->type == TYPE_UNKNOWN) {
		diag_error(sym->loc, "cannot infer the type of '%s'%s: it is never given a value", sym->name, owner);
	}
}

static void infer_round(struct session *s, struct infer *in)
{
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		in->func = fn;
		infer_node(in, fn->body);
	}
	in->func = NULL;
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		infer_node(in, p->body);
		if (p->cond)
			infer_expect(in, p->cond, TYPE_LONG, "a probe condition");
	}
}

bool types_infer(struct session *s)
{
	if (!s->types)
		s->types = ast_alloc(sizeof(*s->types));
	struct infer in = {.st = s->types};
	/* Declared parameter and return types seed the inference. */
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		for (int j = 0; j < fn->params.n; j++) {
			struct param *p = fn->params.items[j];
			p->sym->arity = 0;
			p->sym->type = p->type;
		}
	}
	bool settled = false;
	for (int round = 0; round < 100 && !settled; round++) {
		in.changed = false;
		in.would_report = false;
		infer_round(s, &in);
		settled = !in.changed;
	}
	/* The final round sees what the settled one saw: needed only if that had something to say. */
	if (!settled || in.would_report) {
		in.report = true;
		infer_round(s, &in);
	}
	if (diag_error_count())
		return false;

	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		if (g->sym->arity < 0) {
			if (!g->from_tapset)
				diag_warning(g->loc, "global '%s' is never used", g->name);
			g->sym->arity = 0;
			if (g->sym->type == TYPE_UNKNOWN)
				g->sym->type = TYPE_LONG;
			continue;
		}
		if (g->max_entries > 0 && g->sym->arity == 0)
			diag_error(g->loc, "'%s' is declared with a size but used as a scalar", g->name);
		else if (g->wrap && g->sym->arity == 0)
			diag_error(g->loc, "'%s' is declared as a wrapping array (%%) but used as a scalar", g->name);
		report_unknown(g->sym, "");
	}
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		const char *owner = NULL;
		for (int j = 0; j < fn->params.n; j++) {
			struct param *p = fn->params.items[j];
			if (p->sym->type == TYPE_UNKNOWN)
				diag_error(p->loc, "cannot infer the type of parameter '%s' of '%s'", p->name, fn->name);
		}
		for (int j = 0; j < fn->locals.n; j++) {
			struct symbol *sym = fn->locals.items[j];
			if (!owner && (sym->type == TYPE_UNKNOWN || sym->arity > 0))
				owner = ast_printf(" in function '%s'", fn->name);
			report_unknown(sym, owner);
		}
		if (fn->type == TYPE_UNKNOWN)
			fn->type = TYPE_VOID;
	}
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		for (int j = 0; j < p->locals.n; j++)
			report_unknown(p->locals.items[j], "");
	}
	return diag_error_count() == 0;
}
