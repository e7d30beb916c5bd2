/*
 * stats.c - pass 2, after types: the rules for statistics that type
 * inference alone does not enforce.
 *
 *  - A statistic (x <<< v) lives in a global scalar or a global array; it
 *    is only ever added to, read through an extractor (@count ... @variance),
 *    printed as a histogram, indexed by bucket, or deleted. Anywhere else a
 *    statistics value is an error (assigned, compared, passed, returned...).
 *  - Extractor parameters are literals: @variance(x, shift) with shift in
 *    0..64, @hist_linear(x, lo, hi, step) with step > 0, hi > lo and at most
 *    STATS_MAX_LINEAR_BUCKETS steps.
 *  - Each global keeps one histogram: every @hist_* naming it must agree.
 *    The result is recorded in its struct global for the translator.
 *  - A foreach sorted by an aggregate (@sum-) walks a statistics array.
 */
#include <inttypes.h>

#include "diag.h"
#include "resolve.h"
#include "stats.h"

/* Most regular buckets a linear histogram may have ((hi - lo) / step + 1). */
#define STATS_MAX_LINEAR_BUCKETS 1024

/* Walk state: the chain of enclosing nodes, innermost last. */
struct stats_walk {
	struct vec parents; /* of struct node * */
};

static bool is_hist(const struct node *n)
{
	return n->kind == NODE_STAT_OP && !n->u.stat_op.bucket &&
	       (n->u.stat_op.op == STAT_HIST_LINEAR || n->u.stat_op.op == STAT_HIST_LOG);
}

static bool is_print(const struct node *n)
{
	return n->kind == NODE_CALL &&
	       (n->u.call.builtin == BUILTIN_PRINT || n->u.call.builtin == BUILTIN_PRINTLN);
}

/* The global behind a statistic operand (VAR or INDEX), or NULL. */
static struct global *operand_global(const struct node *t)
{
	const struct node *var = t->kind == NODE_INDEX ? t->u.index.array : t;
	if (var->kind != NODE_VAR || !var->u.var.sym)
		return NULL;
	return var->u.var.sym->global;
}

static const char *operand_name(const struct node *t)
{
	const struct node *var = t->kind == NODE_INDEX ? t->u.index.array : t;
	return var->kind == NODE_VAR ? var->u.var.name : "?";
}

/* A literal number, possibly negated: true and *v, or false. */
static bool literal_value(const struct node *n, int64_t *v)
{
	if (n->kind == NODE_NUM) {
		*v = n->u.num;
		return true;
	}
	if (n->kind == NODE_UNARY && (n->u.unary.op == OP_NEG || n->u.unary.op == OP_PLUS) &&
	    literal_value(n->u.unary.operand, v)) {
		if (n->u.unary.op == OP_NEG)
			*v = (int64_t)(0 - (uint64_t)*v);
		return true;
	}
	return false;
}

static const char *hist_text(const struct stat_hist *h, const char *name)
{
	if (h->kind == STAT_HIST_LOG)
		return ast_printf("@hist_log(%s)", name);
	return ast_printf("@hist_linear(%s, %" PRId64 ", %" PRId64 ", %" PRId64 ")", name, h->lo, h->hi, h->step);
}

/* Check an operator's parameters; for histograms, record or compare the global's histogram. */
static void check_stat_op(struct node *n)
{
	enum stat_op op = n->u.stat_op.op;
	const char *name = ast_stat_op_name(op);
	struct vec *args = &n->u.stat_op.args;
	int64_t v[3] = {0, 0, 0};

	switch (op) {
	case STAT_VARIANCE:
		if (args->n > 1) {
			diag_error(n->loc, "@variance takes a statistic and an optional bit shift, not %d parameters",
				   args->n + 1);
		} else if (args->n == 1 && (!literal_value(args->items[0], &v[0]) || v[0] < 0 || v[0] > 64)) {
			diag_error(((struct node *)args->items[0])->loc,
				   "the bit shift of @variance must be a literal number from 0 to 64");
		}
		return;
	case STAT_HIST_LINEAR:
		if (args->n != 3) {
			diag_error(n->loc, "@hist_linear takes a statistic and three numbers (low, high, step), not %d "
				   "parameter%s", args->n + 1, args->n ? "s" : "");
			return;
		}
		for (int i = 0; i < 3; i++) {
			if (!literal_value(args->items[i], &v[i])) {
				diag_error(((struct node *)args->items[i])->loc,
					   "the %s of @hist_linear must be a literal number",
					   i == 0 ? "low bound" : i == 1 ? "high bound" : "step");
				return;
			}
		}
		if (v[2] <= 0) {
			diag_error(((struct node *)args->items[2])->loc, "the step of @hist_linear must be positive");
			return;
		}
		if (v[1] <= v[0]) {
			diag_error(((struct node *)args->items[1])->loc,
				   "the high bound of @hist_linear must be above its low bound");
			return;
		}
		if (((uint64_t)v[1] - (uint64_t)v[0]) / (uint64_t)v[2] >= STATS_MAX_LINEAR_BUCKETS) {
			diag_error(n->loc, "@hist_linear(%s, %" PRId64 ", %" PRId64 ", %" PRId64 ") would have %" PRIu64
				   " buckets; at most %d are allowed", operand_name(n->u.stat_op.operand), v[0], v[1], v[2],
				   ((uint64_t)v[1] - (uint64_t)v[0]) / (uint64_t)v[2] + 1, STATS_MAX_LINEAR_BUCKETS);
			return;
		}
		break;
	default:
		if (args->n) {
			diag_error(((struct node *)args->items[0])->loc, "%s takes only the statistic, not %d parameters",
				   name, args->n + 1);
			return;
		}
		if (op != STAT_HIST_LOG)
			return;
		break;
	}

	struct global *g = operand_global(n->u.stat_op.operand);
	if (!g)
		return;
	struct stat_hist h = {.kind = op, .lo = v[0], .hi = v[1], .step = v[2], .loc = n->loc};
	if (g->hist.kind == STAT_COUNT) {
		g->hist = h;
	} else if (g->hist.kind != h.kind || g->hist.lo != h.lo || g->hist.hi != h.hi || g->hist.step != h.step) {
		diag_error(n->loc, "'%s' keeps one histogram: %s here, but %s elsewhere", g->name,
			   hist_text(&h, g->name), hist_text(&g->hist, g->name));
		diag_note(g->hist.loc, "first histogram of '%s' here", g->name);
	}
}

/* A statistics value n appears under parent: fine, or one clear error. */
static void check_use(struct node *parent, struct node *n)
{
	if (parent) {
		switch (parent->kind) {
		case NODE_STAT_ADD:
			if (n == parent->u.stat_add.target)
				return;
			break;
		case NODE_STAT_OP:
			if (n == parent->u.stat_op.operand)
				return;
			break;
		case NODE_DELETE:
			return;
		case NODE_CALL:
			if (is_print(parent) && is_hist(n))
				return;
			if (is_print(parent)) {
				diag_error(n->loc, "'%s' holds statistics: print an extractor such as @count(%s) or a histogram",
					   operand_name(n), operand_name(n));
				return;
			}
			break;
		case NODE_ASSIGN:
			if (is_hist(n))
				break;
			diag_error(parent->loc, "statistics cannot be assigned: add values with '<<<'");
			return;
		case NODE_FOREACH:
			if (parent->u.foreach.array->kind == NODE_STAT_OP)
				return; /* foreach (bucket in @hist_log(x)): the histogram itself; keys are longs */
			diag_error(n->loc, "a foreach over statistics array '%s' cannot bind its value: read it with "
				   "@count(%s[...]) and the other extractors", parent->u.foreach.array->u.var.name,
				   parent->u.foreach.array->u.var.name);
			return;
		case NODE_NUM: case NODE_STR: case NODE_VAR: case NODE_INDEX: case NODE_UNARY:
		case NODE_BINARY: case NODE_TERNARY: case NODE_INCDEC: case NODE_IN:
		case NODE_WILDCARD: case NODE_BLOCK: case NODE_EXPR_STMT: case NODE_NULL_STMT:
		case NODE_IF: case NODE_WHILE: case NODE_FOR: case NODE_BREAK: case NODE_CONTINUE:
		case NODE_NEXT: case NODE_RETURN: case NODE_TRY: case NODE_EMBEDDED:
		case NODE_REGEX: case NODE_TARGET: case NODE_DEFINED: case NODE_ENTRY:
			break;
		}
	}
	if (is_hist(n))
		diag_error(n->loc, "a histogram can only be printed (print, println) or indexed by bucket");
	else
		diag_error(n->loc, "statistics cannot be used as a value here: use @count, @sum, @min, @max, @avg "
			   "or @variance");
}

/*
 * Only the places a statistics value comes from are checked: a global's
 * name or element, a histogram, a foreach value. Whatever a misuse there
 * made stats-typed downstream (a local it was assigned to, a parameter,
 * the assignment itself) would only repeat the same error.
 */
static bool is_source(const struct node *parent, const struct node *n)
{
	if (is_hist(n))
		return true;
	if (n->kind == NODE_VAR && parent && parent->kind == NODE_FOREACH)
		return true;
	if (n->kind == NODE_INDEX)
		n = n->u.index.array;
	else if (parent && parent->kind == NODE_INDEX)
		return false; /* the array name inside a[k] */
	return n->kind == NODE_VAR && n->u.var.sym && n->u.var.sym->kind == SYM_GLOBAL;
}

static bool stats_pre(struct ast_walker *w, struct node *n)
{
	struct stats_walk *sw = w->data;
	struct node *parent = sw->parents.n ? sw->parents.items[sw->parents.n - 1] : NULL;

	if (n->type == TYPE_STATS && is_source(parent, n))
		check_use(parent, n);
	if (n->kind == NODE_STAT_OP)
		check_stat_op(n);
	/* '*' keys (delete a[*, k], [*, k] in a) work on value arrays only */
	struct vec *keys = n->kind == NODE_IN ? &n->u.in.keys
			   : n->kind == NODE_DELETE && n->u.del.target->kind == NODE_INDEX ? &n->u.del.target->u.index.keys
			   : NULL;
	struct node *arr_var = n->kind == NODE_IN ? n->u.in.array : keys ? n->u.del.target->u.index.array : NULL;
	for (int i = 0; keys && i < keys->n; i++) {
		struct node *k = keys->items[i];
		if (k->kind == NODE_WILDCARD && arr_var->u.var.sym && arr_var->u.var.sym->type == TYPE_STATS) {
			diag_error(k->loc, "'*' keys are not supported on statistics array '%s'", arr_var->u.var.name);
			break;
		}
	}
	if (n->kind == NODE_FOREACH && n->u.foreach.sort_stat && n->u.foreach.array->kind == NODE_VAR) {
		struct symbol *arr = n->u.foreach.array->u.var.sym;
		if (arr && arr->type != TYPE_STATS)
			diag_error(n->loc, "foreach sorts by %s, but '%s' is not a statistics array",
				   ast_stat_op_name((enum stat_op)(n->u.foreach.sort_stat - 1)), arr->name);
	}
	vec_push(&sw->parents, n);
	return true;
}

static void stats_post(struct ast_walker *w, struct node *n)
{
	struct stats_walk *sw = w->data;
	(void)n;
	sw->parents.n--;
}

bool stats_check(struct session *s)
{
	struct stats_walk sw = {0};
	struct ast_walker w = {.pre = stats_pre, .post = stats_post, .data = &sw};

	for (int i = 0; i < s->functions.n; i++)
		ast_walk(&w, ((struct function *)s->functions.items[i])->body);
	for (int i = 0; i < s->probes.n; i++)
		ast_walk(&w, ((struct probe *)s->probes.items[i])->body);
	return diag_error_count() == 0;
}
