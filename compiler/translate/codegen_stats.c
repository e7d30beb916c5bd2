/*
 * codegen_stats.c - pass 3 for statistics: x <<< v, the extractors,
 * histograms, foreach over statistics arrays, and the statistics globals.
 *
 * A scalar statistics global is a struct _stp_pstat *, an array a struct
 * _stp_pmap * (runtime/stat.c), each with a constant struct
 * _stp_stat_layout stp_layout_NAME describing its histogram. Adding takes
 * no global lock (the probe's lock set leaves it out, see resolve.c): the
 * runtime locks only the adding CPU's slot. Anything that reads an
 * aggregate runs under the global's write lock. A slot that stays locked
 * (STP_STAT_BUSY) skips the probe hit like a global lock that cannot be
 * taken; a full per-CPU or aggregate map is an array overflow error.
 */
#include <inttypes.h>

#include "codegen.h"
#include "diag.h"

/* The global symbol behind a statistic operand (VAR or INDEX). */
static struct symbol *stat_symbol(const struct node *t)
{
	return (t->kind == NODE_INDEX ? t->u.index.array : t)->u.var.sym;
}

static const char *overflow_message(const struct symbol *sym)
{
	if (sym->global && sym->global->max_entries)
		return ast_printf("Array overflow, check size limit (%" PRId64 ")", sym->global->max_entries);
	return "Array overflow, check MAXMAPENTRIES";
}

/* C that skips the probe hit: a statistic's per-CPU slot stayed locked. */
static const char *skip(const struct symbol *sym)
{
	return ast_printf("{ _stp_skip_probe(&c->base, %s); goto out; }",
			  emit_c_string(ast_printf("statistics '%s' are locked", sym->name)));
}

/* C that acts on a status variable st: skip when busy, fail when full. */
static const char *check_status(struct codegen *g, const char *st, const struct symbol *sym,
				const struct node *where)
{
	return ast_printf("if (unlikely(%s != STP_STAT_OK)) { if (%s == STP_STAT_BUSY) %s %s; } ", st, st, skip(sym),
			  codegen_fail(g, overflow_message(sym), where));
}

const char *codegen_stats_add(struct codegen *g, struct node *n)
{
	struct node *t = n->u.stat_add.target;
	struct symbol *sym = stat_symbol(t);
	const char *v = codegen_temp(g, "v"), *st = codegen_temp(g, "st");
	const char *var = codegen_symbol(sym);

	if (t->kind == NODE_INDEX) {
		const char *k = codegen_temp(g, "k");
		const char *keys = codegen_keys(g, &t->u.index.keys, k);
		return ast_printf("({ %sint64_t %s = %s; enum _stp_stat_status %s = _stp_pmap_add(%s, %s, %s); %s%s; })",
				  keys, v, codegen_expr(g, n->u.stat_add.value), st, var, k, v,
				  check_status(g, st, sym, n), v);
	}
	return ast_printf("({ int64_t %s = %s; enum _stp_stat_status %s = _stp_pstat_add(%s, %s); %s%s; })", v,
			  codegen_expr(g, n->u.stat_add.value), st, var, v, check_status(g, st, sym, n), v);
}

/*
 * Declarations that leave the merged statistic of operand t in a
 * "const struct _stp_stat *" named stat (whole variable, or one element).
 */
static const char *merged(struct codegen *g, struct node *t, const char *stat)
{
	struct symbol *sym = stat_symbol(t);
	const char *var = codegen_symbol(sym);

	if (t->kind == NODE_INDEX) {
		const char *k = codegen_temp(g, "k");
		const char *keys = codegen_keys(g, &t->u.index.keys, k);
		return ast_printf("%sconst struct _stp_stat *%s = _stp_pmap_element(%s, %s, NULL); if (unlikely(!%s)) %s ",
				  keys, stat, var, k, stat, skip(sym));
	}
	return ast_printf("const struct _stp_stat *%s = _stp_pstat_aggregate(%s); if (unlikely(!%s)) %s ", stat, var,
			  stat, skip(sym));
}

static const char *layout_of(const struct symbol *sym)
{
	return ast_printf("stp_layout_%s", sym->name);
}

const char *codegen_stats_op(struct codegen *g, struct node *n)
{
	struct node *t = n->u.stat_op.operand;
	const char *stat = codegen_temp(g, "stat"), *r = codegen_temp(g, "r"), *e = codegen_temp(g, "e");

	if (n->u.stat_op.bucket) {
		/* the index first: it may itself read this statistic */
		const char *i = codegen_temp(g, "i");
		const char *index = codegen_expr(g, n->u.stat_op.bucket);
		return ast_printf("({ int64_t %s = %s; %sint64_t %s = 0; const char *%s = _stp_stat_bucket(%s, &%s, %s, &%s); "
				  "if (unlikely(%s)) STP_FAIL_AT(%s, %s, %s); %s; })",
				  i, index, merged(g, t, stat), r, e, stat, layout_of(stat_symbol(t)), i, r, e,
				  codegen_fail_label(g), e, emit_c_string(codegen_near(n)), r);
	}
	return ast_printf("({ %sint64_t %s = 0; const char *%s = _stp_stat_extract(%s, %d, &%s); "
			  "if (unlikely(%s)) STP_FAIL_AT(%s, %s, %s); %s; })",
			  merged(g, t, stat), r, e, stat, (int)n->u.stat_op.op, r, e, codegen_fail_label(g), e,
			  emit_c_string(codegen_near(n)), r);
}

const char *codegen_stats_print_hist(struct codegen *g, struct node *n)
{
	struct node *t = n->u.stat_op.operand;
	const char *stat = codegen_temp(g, "stat");

	return ast_printf("({ %s_stp_stat_print_hist(%s, &%s); })", merged(g, t, stat), stat,
			  layout_of(stat_symbol(t)));
}

const char *codegen_stats_in(struct codegen *g, struct node *n)
{
	struct symbol *sym = n->u.in.array->u.var.sym;
	const char *k = codegen_temp(g, "k"), *x = codegen_temp(g, "x");
	const char *keys = codegen_keys(g, &n->u.in.keys, k);

	return ast_printf("({ %sint %s = _stp_pmap_exists(%s, %s); if (unlikely(%s < 0)) %s (int64_t)%s; })", keys, x,
			  codegen_symbol(sym), k, x, skip(sym), x);
}

/*
 * foreach over a statistics array: merge every CPU into the aggregate
 * map, sort it, iterate it. Reading the same array's aggregate again
 * inside the loop (a nested foreach over it) would rebuild the map under
 * the loop: each step checks the aggregate's generation first.
 */
void codegen_stats_foreach(struct codegen *g, struct node *n)
{
	struct symbol *sym = n->u.foreach.array->u.var.sym;
	const char *map = codegen_symbol(sym);
	const char *node = codegen_temp(g, "n"), *agg = codegen_temp(g, "agg");
	const char *st = codegen_temp(g, "st"), *gen = codegen_temp(g, "gen");
	const char *limit = NULL;

	emit_open(g->e, "{ /* foreach at %s:%d:%d */", n->loc.file, n->loc.line, n->loc.col);
	emit_line(g->e, "struct _stp_map_node *%s;", node);
	emit_line(g->e, "struct _stp_map *%s;", agg);
	emit_line(g->e, "enum _stp_stat_status %s;", st);
	emit_line(g->e, "u64 %s;", gen);
	if (n->u.foreach.limit) {
		limit = codegen_temp(g, "limit");
		emit_line(g->e, "int64_t %s = %s;", limit, codegen_expr(g, n->u.foreach.limit));
	}
	const char *slice = codegen_foreach_slice(g, n, node); /* declarations first */
	emit_line(g->e, "%s = _stp_pmap_aggregate(%s, &%s);", agg, map, st);
	emit_line(g->e, "%s", check_status(g, st, sym, n));
	emit_line(g->e, "%s = _stp_pmap_generation(%s);", gen, map);
	if (n->u.foreach.sort_dir && n->u.foreach.sort_column == 0)
		emit_line(g->e, "_stp_stat_map_sort(%s, %d, %d);", agg,
			  n->u.foreach.sort_stat ? n->u.foreach.sort_stat - 1 : (int)STAT_COUNT, n->u.foreach.sort_dir);
	else if (n->u.foreach.sort_dir)
		emit_line(g->e, "_stp_map_sort(%s, %d, %d);", agg, n->u.foreach.sort_column, n->u.foreach.sort_dir);
	const char *changed = codegen_fail(g,
		ast_printf("statistics array '%s' was aggregated again inside a foreach over it", sym->name), n);
	emit_open(g->e, "for (%s = _stp_map_first(%s); %s%s; %s = ({ if (unlikely(_stp_pmap_generation(%s) != %s)) %s; "
		  "_stp_map_next(%s, %s); })) {",
		  node, agg, node, limit && !slice ? ast_printf(" && %s-- > 0", limit) : "", node, map, gen, changed, agg,
		  node);
	codegen_charge(g, 1, n);
	if (slice)
		codegen_foreach_filter(g, slice, limit);
	codegen_bind_foreach_keys(g, n, node);
	codegen_substmt(g, n->u.foreach.body);
	emit_close(g->e, "}");
	emit_close(g->e, "}");
}

/* Does the walk meet a read of statistic sym, or a call that might read it? */
struct reads_stat_walk {
	const struct symbol *sym;
	bool found;
};

static bool reads_stat_pre(struct ast_walker *w, struct node *n)
{
	struct reads_stat_walk *rw = w->data;
	if (n->kind == NODE_STAT_OP && stat_symbol(n->u.stat_op.operand) == rw->sym)
		rw->found = true;
	if (n->kind == NODE_FOREACH && n->u.foreach.array->kind == NODE_VAR && n->u.foreach.array->u.var.sym == rw->sym)
		rw->found = true;
	if (n->kind == NODE_CALL && n->u.call.func)
		rw->found = true;
	return !rw->found;
}

/*
 * foreach over the buckets of a histogram: every bucket index in order,
 * the key set from a counter of our own (the body may assign the key).
 * The statistic is merged once before the loop; if the body may read it
 * again (which reuses the merged storage of an array element), it is
 * merged afresh at each step.
 */
void codegen_stats_foreach_hist(struct codegen *g, struct node *n)
{
	struct node *hist = n->u.foreach.array, *t = hist->u.stat_op.operand;
	struct symbol *sym = stat_symbol(t);
	const char *stat = codegen_temp(g, "stat"), *i = codegen_temp(g, "b"), *r = codegen_temp(g, "r");
	const char *e = codegen_temp(g, "e"), *limit = NULL;
	struct reads_stat_walk rw = {.sym = sym};
	struct ast_walker w = {.pre = reads_stat_pre, .data = &rw};
	ast_walk(&w, n->u.foreach.body);

	emit_open(g->e, "{ /* foreach over the buckets of %s at %s:%d:%d */", hist->tok, n->loc.file, n->loc.line,
		  n->loc.col);
	if (n->u.foreach.limit) {
		limit = codegen_temp(g, "limit");
		emit_line(g->e, "int64_t %s = %s;", limit, codegen_expr(g, n->u.foreach.limit));
	}
	emit_line(g->e, "int64_t %s, %s = 0;", i, r);
	emit_line(g->e, "const char *%s;", e);
	if (!rw.found)
		emit_line(g->e, "%s", merged(g, t, stat));
	emit_open(g->e, "for (%s = 0; %s < %s.nbuckets%s; %s++) {", i, i, layout_of(sym),
		  limit ? ast_printf(" && %s-- > 0", limit) : "", i);
	codegen_charge(g, 1, n);
	if (rw.found)
		emit_line(g->e, "%s", merged(g, t, stat));
	emit_line(g->e, "%s = _stp_stat_bucket(%s, &%s, %s, &%s);", e, stat, layout_of(sym), i, r);
	emit_line(g->e, "if (unlikely(%s)) STP_FAIL_AT(%s, %s, %s);", e, codegen_fail_label(g), e,
		  emit_c_string(codegen_near(n)));
	for (int k = 0; k < n->u.foreach.keys.n; k++)
		emit_line(g->e, "%s = %s;", codegen_symbol(((struct node *)n->u.foreach.keys.items[k])->u.var.sym), i);
	if (n->u.foreach.value)
		emit_line(g->e, "%s = %s;", codegen_symbol(n->u.foreach.value->u.var.sym), r);
	codegen_substmt(g, n->u.foreach.body);
	emit_close(g->e, "}");
	emit_close(g->e, "}");
}

void codegen_stats_delete(struct codegen *g, struct node *n)
{
	struct node *t = n->u.del.target;
	struct symbol *sym = stat_symbol(t);
	const char *st = codegen_temp(g, "st");

	if (t->kind == NODE_INDEX) {
		const char *k = codegen_temp(g, "k");
		const char *keys = codegen_keys(g, &t->u.index.keys, k);
		emit_line(g->e, "{ %senum _stp_stat_status %s = _stp_pmap_delete(%s, %s); %s}", keys, st,
			  codegen_symbol(sym), k, check_status(g, st, sym, n));
	} else {
		emit_line(g->e, "{ enum _stp_stat_status %s = %s(%s); %s}", st,
			  sym->arity > 0 ? "_stp_pmap_clear" : "_stp_pstat_clear", codegen_symbol(sym),
			  check_status(g, st, sym, n));
	}
}

/* ---- The globals ---- */

void codegen_stats_layouts(struct emitter *e, struct session *s)
{
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		const struct stat_hist *h = &g->hist;
		if (g->sym->type != TYPE_STATS)
			continue;
		if (h->kind == STAT_HIST_LINEAR)
			emit_line(e, "static const struct _stp_stat_layout stp_layout_%s = { STP_HIST_LINEAR, %" PRId64
				  "LL, %" PRId64 "LL, %" PRId64 "LL, %" PRIu64 " };", g->name, h->lo, h->hi, h->step,
				  ((uint64_t)h->hi - (uint64_t)h->lo) / (uint64_t)h->step + 3);
		else if (h->kind == STAT_HIST_LOG)
			emit_line(e, "static const struct _stp_stat_layout stp_layout_%s = { STP_HIST_LOG, 0, 0, 0, "
				  "STP_HIST_LOG_BUCKETS };", g->name);
		else
			emit_line(e, "static const struct _stp_stat_layout stp_layout_%s = { STP_HIST_NONE, 0, 0, 0, 0 };",
				  g->name);
	}
}

void codegen_stats_global_member(struct emitter *e, struct global *g)
{
	if (g->sym->arity > 0)
		emit_line(e, "struct _stp_pmap *s_%s; /* %s: statistics array */", g->name, g->name);
	else
		emit_line(e, "struct _stp_pstat *s_%s; /* %s: statistics */", g->name, g->name);
}

void codegen_stats_global_init(struct emitter *e, struct global *g)
{
	struct symbol *sym = g->sym;

	if (sym->arity > 0) {
		char *types = "";
		for (int k = 0; k < sym->arity; k++)
			types = ast_printf("%s%s%s", types, k ? ", " : "", codegen_stp_type(sym->keys[k]));
		emit_open(e, "{");
		emit_line(e, "static const enum _stp_type keys[] = { %s };", types);
		emit_line(e, "stp_global.s_%s = _stp_pmap_new(%s, %d, keys, &stp_layout_%s);", g->name,
			  g->max_entries ? ast_printf("%" PRId64, g->max_entries) : "MAXMAPENTRIES", sym->arity, g->name);
		if (g->wrap)
			emit_line(e, "if (stp_global.s_%s && _stp_pmap_set_wrap(stp_global.s_%s)) { _stp_pmap_free(stp_global.s_%s); "
				  "stp_global.s_%s = NULL; }", g->name, g->name, g->name, g->name);
		emit_close(e, "}");
	} else {
		emit_line(e, "stp_global.s_%s = _stp_pstat_new(&stp_layout_%s);", g->name, g->name);
	}
	emit_line(e, "if (!stp_global.s_%s)", g->name);
	emit_line(e, "\treturn -ENOMEM;");
}

void codegen_stats_global_free(struct emitter *e, struct global *g)
{
	emit_line(e, "%s(stp_global.s_%s);", g->sym->arity > 0 ? "_stp_pmap_free" : "_stp_pstat_free", g->name);
	emit_line(e, "stp_global.s_%s = NULL;", g->name);
}

/*
 * "x @count=3 @min=1 @max=5 @sum=9 @avg=3" for a scalar; one such line per
 * element, keys in brackets, by descending @count, for an array. Runs with
 * the global's write lock held.
 */
void codegen_stats_display(struct emitter *e, struct global *g)
{
	struct symbol *sym = g->sym;

	if (sym->arity == 0) {
		emit_line(e, "const struct _stp_stat *st = _stp_pstat_aggregate(stp_global.s_%s);", g->name);
		emit_open(e, "if (st) {");
		emit_line(e, "_stp_print(\"%s \");", g->name);
		emit_line(e, "_stp_stat_print_summary(st);");
		emit_line(e, "_stp_print_char('\\n');");
		emit_close(e, "}");
		return;
	}
	emit_line(e, "enum _stp_stat_status st;");
	emit_line(e, "struct _stp_map *agg = _stp_pmap_aggregate(stp_global.s_%s, &st);", g->name);
	emit_line(e, "struct _stp_map_node *n;");
	emit_open(e, "if (agg) {");
	emit_line(e, "_stp_stat_map_sort(agg, STP_STAT_COUNT, -1);");
	emit_open(e, "for (n = _stp_map_first(agg); n; n = _stp_map_next(agg, n)) {");
	codegen_emit_display_keys(e, g->name, sym);
	emit_line(e, "_stp_print(\"] \");");
	emit_line(e, "_stp_stat_print_summary(_stp_node_stat(n));");
	emit_line(e, "_stp_print_char('\\n');");
	emit_line(e, "_stp_print_flush();");
	emit_close(e, "}");
	emit_close(e, "}");
}
