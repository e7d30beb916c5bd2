/*
 * resolve.c - pass 2, step 1: bind every identifier to a symbol (local,
 * parameter or global) and every call to a function or builtin; pull tapset
 * functions in on demand; record which globals each probe touches, through
 * the functions it calls, so pass 3 locks exactly those.
 *
 * Identifiers not declared global are locals of their probe or function,
 * created on first use, as in SystemTap. Arrays must be global.
 */
#include <string.h>

#include "diag.h"
#include "elaborate.h"

/* Where the resolver is: the body being walked and what it collects into. */
struct scope {
	struct session *s;
	struct function *func;    /* NULL in a probe body */
	struct probe *probe;      /* NULL in a function body */
	struct vec *locals;       /* the body's locals */
	struct vec *reads;        /* globals read */
	struct vec *writes;       /* globals written */
	struct vec *callees;      /* functions called */
	int loop_depth;           /* for break/continue */
	struct vec iterating;     /* of struct symbol *: arrays of the enclosing foreach loops */
};

static const struct {
	const char *name;
	enum builtin id;
} builtins[] = {
	{"printf", BUILTIN_PRINTF},
	{"sprintf", BUILTIN_SPRINTF},
	{"print", BUILTIN_PRINT},
	{"println", BUILTIN_PRINTLN},
};

enum builtin resolve_builtin(const char *name)
{
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (!strcmp(builtins[i].name, name))
			return builtins[i].id;
	return BUILTIN_NONE;
}

static void push_unique(struct vec *v, void *item)
{
	for (int i = 0; i < v->n; i++)
		if (v->items[i] == item)
			return;
	vec_push(v, item);
}

static struct symbol *new_symbol(const char *name, enum symbol_kind kind, struct srcloc loc)
{
	struct symbol *sym = ast_alloc(sizeof(*sym));
	sym->name = name;
	sym->kind = kind;
	sym->arity = -1;
	sym->loc = loc;
	return sym;
}

void resolve_add_global(struct session *s, struct global *g)
{
	for (int i = 0; i < s->globals.n; i++) {
		struct global *other = s->globals.items[i];
		if (!strcmp(other->name, g->name)) {
			if (other != g && !g->from_tapset) {
				diag_error(g->loc, "global '%s' is declared twice", g->name);
				diag_note(other->loc, "first declared here");
			}
			return;
		}
	}
	struct symbol *sym = new_symbol(g->name, SYM_GLOBAL, g->loc);
	sym->global = g;
	sym->index = s->globals.n;
	if (g->max_entries > 0)
		sym->arity = -1; /* arr[N]: an array of unknown arity */
	if (g->init) {
		sym->type = g->init->kind == NODE_STR ? TYPE_STRING : TYPE_LONG;
		sym->arity = 0;
	}
	g->sym = sym;
	vec_push(&s->globals, g);
}

static struct global *find_global(struct session *s, const char *name)
{
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		if (!strcmp(g->name, name))
			return g;
	}
	return tapset_find_global(s, name);
}

/* Name lookup: locals and parameters, then globals, else a new local. */
static struct symbol *lookup(struct scope *sc, struct node *var)
{
	const char *name = var->u.var.name;
	if (var->u.var.sym)
		return var->u.var.sym;
	for (int i = 0; i < sc->locals->n; i++) {
		struct symbol *sym = sc->locals->items[i];
		if (!strcmp(sym->name, name))
			return var->u.var.sym = sym;
	}
	if (sc->func) {
		for (int i = 0; i < sc->func->params.n; i++) {
			struct param *p = sc->func->params.items[i];
			if (!strcmp(p->name, name))
				return var->u.var.sym = p->sym;
		}
	}
	struct global *g = find_global(sc->s, name);
	if (g)
		return var->u.var.sym = g->sym;
	struct symbol *sym = new_symbol(name, SYM_LOCAL, var->loc);
	sym->index = sc->locals->n;
	vec_push(sc->locals, sym);
	return var->u.var.sym = sym;
}

static void note_access(struct scope *sc, struct symbol *sym, bool read, bool write)
{
	if (read)
		sym->read = true;
	if (write)
		sym->written = true;
	if (sym->kind != SYM_GLOBAL)
		return;
	if (read)
		push_unique(sc->reads, sym);
	if (write)
		push_unique(sc->writes, sym);
}

/* The VAR naming an array in arr[k], k in arr, foreach: must be a global. */
static struct symbol *array_symbol(struct scope *sc, struct node *var)
{
	struct symbol *sym = lookup(sc, var);
	if (sym->kind != SYM_GLOBAL && !sym->global) {
		diag_error(var->loc, "'%s' is used as an array but is not a global: declare it with 'global %s'",
			   sym->name, sym->name);
		sym->kind = SYM_GLOBAL; /* once is enough */
	}
	return sym;
}

static void resolve_node(struct scope *sc, struct node *n);

/* Changing an array inside a foreach over it would pull the list from under the loop. */
static void check_not_iterating(struct scope *sc, struct symbol *arr, struct node *where)
{
	for (int i = 0; i < sc->iterating.n; i++)
		if (sc->iterating.items[i] == arr)
			diag_error(where->loc, "cannot modify array '%s' inside a foreach over it", arr->name);
}

static void resolve_vec(struct scope *sc, struct vec *v)
{
	for (int i = 0; i < v->n; i++)
		resolve_node(sc, v->items[i]);
}

/* An lvalue: VAR or INDEX; read is true for compound updates (x += 1) only for locks. */
static void resolve_target(struct scope *sc, struct node *t, bool also_read)
{
	if (t->kind == NODE_VAR) {
		struct symbol *sym = lookup(sc, t);
		note_access(sc, sym, false, true);
		if (also_read && sym->kind == SYM_GLOBAL)
			push_unique(sc->reads, sym);
	} else if (t->kind == NODE_INDEX) {
		struct symbol *sym = array_symbol(sc, t->u.index.array);
		note_access(sc, sym, false, true);
		check_not_iterating(sc, sym, t);
		if (also_read)
			push_unique(sc->reads, sym);
		resolve_vec(sc, &t->u.index.keys);
	} else if (t->kind == NODE_TARGET) {
		resolve_node(sc, t); /* whether it is writable depends on the probe point */
	} else {
		diag_error(t->loc, "cannot assign to this %s: expected a variable or an array element",
			   ast_kind_name(t->kind));
		resolve_node(sc, t);
	}
}

/*
 * The statistic named by x <<< v or @op(x): a global scalar or an element
 * of a global array. Adding takes no global lock at all (each CPU adds to
 * its own slot, see runtime/stat.c), so the symbol is marked written but
 * not put in the probe's lock sets; reading an aggregate merges the CPUs
 * into the global's own storage, which needs the exclusive lock.
 */
static void resolve_statistic(struct scope *sc, struct node *t, bool adding)
{
	struct symbol *sym;

	if (t->kind == NODE_INDEX) {
		sym = array_symbol(sc, t->u.index.array);
		resolve_vec(sc, &t->u.index.keys);
	} else if (t->kind == NODE_VAR) {
		sym = lookup(sc, t);
		if (sym->kind != SYM_GLOBAL) {
			diag_error(t->loc, "statistics variable '%s' must be a global: declare it with 'global %s'",
				   sym->name, sym->name);
			sym->kind = SYM_GLOBAL; /* once is enough */
			return;
		}
	} else {
		resolve_node(sc, t);
		return;
	}
	if (adding) {
		sym->written = true;
	} else {
		sym->read = true;
		if (sym->global)
			push_unique(sc->writes, sym);
	}
}

/* A function joins the program (s->functions), to be resolved in its turn. */
static void use_function(struct session *s, struct function *fn)
{
	if (fn->used)
		return;
	for (int i = 0; i < fn->params.n; i++) {
		struct param *p = fn->params.items[i];
		p->sym = new_symbol(p->name, SYM_PARAM, p->loc);
		p->sym->index = i;
	}
	fn->used = true;
	fn->index = s->functions.n;
	vec_push(&s->functions, fn);
}

static void resolve_call(struct scope *sc, struct node *n)
{
	struct session *s = sc->s;
	const char *name = n->u.call.name;
	resolve_vec(sc, &n->u.call.args);
	n->u.call.builtin = resolve_builtin(name);
	if (n->u.call.builtin) {
		int nargs = n->u.call.args.n;
		bool fmt = n->u.call.builtin == BUILTIN_PRINTF || n->u.call.builtin == BUILTIN_SPRINTF;
		if (nargs == 0)
			diag_error(n->loc, "%s needs at least one argument%s", name, fmt ? ", the format" : "");
		else if (fmt && ((struct node *)n->u.call.args.items[0])->kind != NODE_STR)
			diag_error(((struct node *)n->u.call.args.items[0])->loc,
				   "the format of %s must be a string literal", name);
		return;
	}
	struct function *fn = NULL;
	for (int i = 0; i < s->script->functions.n && !fn; i++) {
		struct function *cand = s->script->functions.items[i];
		if (!strcmp(cand->name, name))
			fn = cand;
	}
	if (!fn)
		fn = tapset_find_function(s, name);
	if (!fn) {
		diag_error(n->loc, "unresolved function '%s'", name);
		return;
	}
	if (fn->params.n != n->u.call.args.n) {
		diag_error(n->loc, "function '%s' takes %d argument%s, %d given", name, fn->params.n,
			   fn->params.n == 1 ? "" : "s", n->u.call.args.n);
		diag_note(fn->loc, "'%s' is defined here", name);
	}
	n->u.call.func = fn;
	push_unique(sc->callees, fn);
	use_function(s, fn);
}

static void resolve_node(struct scope *sc, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case NODE_NUM:
	case NODE_STR:
	case NODE_NULL_STMT:
	case NODE_EMBEDDED:
		break;
	case NODE_VAR: {
		struct symbol *sym = lookup(sc, n);
		note_access(sc, sym, true, false);
		break;
	}
	case NODE_TARGET:
		/* its meaning comes from the probe point (probes_resolve_targets) */
		if (sc->func)
			diag_error(n->loc, "target variable '%s' used in function '%s': target variables are "
				   "only available in probe bodies", n->u.target.name, sc->func->name);
		break;
	case NODE_INDEX:
		note_access(sc, array_symbol(sc, n->u.index.array), true, false);
		resolve_vec(sc, &n->u.index.keys);
		break;
	case NODE_CALL:
		resolve_call(sc, n);
		break;
	case NODE_UNARY:
		resolve_node(sc, n->u.unary.operand);
		break;
	case NODE_BINARY:
		resolve_node(sc, n->u.binary.lhs);
		resolve_node(sc, n->u.binary.rhs);
		break;
	case NODE_TERNARY:
		resolve_node(sc, n->u.ternary.cond);
		resolve_node(sc, n->u.ternary.then);
		resolve_node(sc, n->u.ternary.otherwise);
		break;
	case NODE_ASSIGN:
		resolve_node(sc, n->u.assign.rhs);
		resolve_target(sc, n->u.assign.lhs, n->u.assign.op != OP_NONE);
		break;
	case NODE_INCDEC:
		resolve_target(sc, n->u.incdec.operand, true);
		break;
	case NODE_IN:
		resolve_vec(sc, &n->u.in.keys);
		note_access(sc, array_symbol(sc, n->u.in.array), true, false);
		break;
	case NODE_BLOCK:
		resolve_vec(sc, &n->u.block.stmts);
		break;
	case NODE_EXPR_STMT:
		resolve_node(sc, n->u.expr_stmt.expr);
		break;
	case NODE_IF:
		resolve_node(sc, n->u.if_stmt.cond);
		resolve_node(sc, n->u.if_stmt.then);
		resolve_node(sc, n->u.if_stmt.otherwise);
		break;
	case NODE_WHILE:
		resolve_node(sc, n->u.while_stmt.cond);
		sc->loop_depth++;
		resolve_node(sc, n->u.while_stmt.body);
		sc->loop_depth--;
		break;
	case NODE_FOR:
		resolve_node(sc, n->u.for_stmt.init);
		resolve_node(sc, n->u.for_stmt.cond);
		resolve_node(sc, n->u.for_stmt.step);
		sc->loop_depth++;
		resolve_node(sc, n->u.for_stmt.body);
		sc->loop_depth--;
		break;
	case NODE_FOREACH: {
		struct symbol *arr = array_symbol(sc, n->u.foreach.array);
		note_access(sc, arr, true, false);
		/* Sorting reorders the array's list: that needs the write lock. */
		if (arr->kind == SYM_GLOBAL)
			push_unique(sc->writes, arr);
		for (int i = 0; i < n->u.foreach.keys.n; i++) {
			struct node *k = n->u.foreach.keys.items[i];
			struct symbol *sym = lookup(sc, k);
			if (sym->kind == SYM_GLOBAL)
				diag_error(k->loc, "foreach key '%s' must be a local variable, not a global", sym->name);
			note_access(sc, sym, false, true);
		}
		if (n->u.foreach.value) {
			struct symbol *sym = lookup(sc, n->u.foreach.value);
			if (sym->kind == SYM_GLOBAL)
				diag_error(n->u.foreach.value->loc, "foreach value '%s' must be a local variable",
					   sym->name);
			note_access(sc, sym, false, true);
		}
		if (n->u.foreach.sort_dir && n->u.foreach.sort_column > n->u.foreach.keys.n)
			diag_error(n->loc, "foreach sorts by key %d but binds only %d key%s",
				   n->u.foreach.sort_column, n->u.foreach.keys.n,
				   n->u.foreach.keys.n == 1 ? "" : "s");
		resolve_node(sc, n->u.foreach.limit);
		sc->loop_depth++;
		vec_push(&sc->iterating, arr);
		resolve_node(sc, n->u.foreach.body);
		sc->iterating.n--;
		sc->loop_depth--;
		break;
	}
	case NODE_BREAK:
	case NODE_CONTINUE:
		if (!sc->loop_depth)
			diag_error(n->loc, "'%s' outside a loop", n->kind == NODE_BREAK ? "break" : "continue");
		break;
	case NODE_NEXT:
		if (sc->func)
			diag_error(n->loc, "'next' is only allowed in a probe body");
		break;
	case NODE_RETURN:
		if (!sc->func)
			diag_error(n->loc, "'return' outside a function: use 'next' to leave a probe");
		resolve_node(sc, n->u.ret.value);
		break;
	case NODE_DELETE: {
		struct node *t = n->u.del.target;
		if (t->kind == NODE_VAR) {
			struct symbol *sym = lookup(sc, t);
			note_access(sc, sym, false, true);
			check_not_iterating(sc, sym, t);
		} else if (t->kind == NODE_INDEX) {
			struct symbol *arr = array_symbol(sc, t->u.index.array);
			note_access(sc, arr, false, true);
			check_not_iterating(sc, arr, t);
			resolve_vec(sc, &t->u.index.keys);
		} else {
			diag_error(t->loc, "delete needs a variable, an array or an array element");
		}
		break;
	}
	case NODE_STAT_ADD:
		resolve_node(sc, n->u.stat_add.value);
		resolve_statistic(sc, n->u.stat_add.target, true);
		break;
	case NODE_STAT_OP:
		resolve_statistic(sc, n->u.stat_op.operand, false);
		resolve_vec(sc, &n->u.stat_op.args);
		resolve_node(sc, n->u.stat_op.bucket);
		break;
	case NODE_REGEX:
		resolve_node(sc, n->u.regex.subject);
		resolve_node(sc, n->u.regex.pattern);
		break;
	case NODE_KIND_COUNT:
		break;
	}
}

static void resolve_function(struct session *s, struct function *fn)
{
	struct scope sc = {.s = s, .func = fn, .locals = &fn->locals, .reads = &fn->globals_read,
			   .writes = &fn->globals_written, .callees = &fn->callees};
	if (fn->body->kind == NODE_EMBEDDED && !fn->from_tapset && !s->guru)
		diag_error(fn->loc, "embedded C in function '%s' needs guru mode (-g)", fn->name);
	resolve_node(&sc, fn->body);
}

/* Expand a probe's globals through the functions it reaches. */
static void collect_function_globals(struct probe *p, struct function *fn, struct vec *seen)
{
	for (int i = 0; i < seen->n; i++)
		if (seen->items[i] == fn)
			return;
	vec_push(seen, fn);
	for (int i = 0; i < fn->globals_read.n; i++)
		push_unique(&p->globals_read, fn->globals_read.items[i]);
	for (int i = 0; i < fn->globals_written.n; i++)
		push_unique(&p->globals_written, fn->globals_written.items[i]);
	for (int i = 0; i < fn->callees.n; i++)
		collect_function_globals(p, fn->callees.items[i], seen);
}

bool resolve_program(struct session *s)
{
	struct ast_file *f = s->script;
	for (int i = 0; i < f->globals.n; i++)
		resolve_add_global(s, f->globals.items[i]);
	for (int i = 0; i < f->functions.n; i++) {
		struct function *fn = f->functions.items[i];
		fn->file = f;
		for (int j = 0; j < i; j++) {
			struct function *other = f->functions.items[j];
			if (!strcmp(other->name, fn->name)) {
				diag_error(fn->loc, "function '%s' is defined twice", fn->name);
				diag_note(other->loc, "first defined here");
			}
		}
		if (resolve_builtin(fn->name))
			diag_error(fn->loc, "'%s' is a builtin and cannot be redefined", fn->name);
	}
	if (!s->guru)
		for (int i = 0; i < f->embedded.n; i++)
			diag_error((struct srcloc){.file = f->path}, "embedded C in a script needs guru mode (-g)");
	for (int i = 0; i < f->embedded.n; i++)
		vec_push(&s->embedded, f->embedded.items[i]);

	/* Probes first; functions join s->functions as calls reach them. */
	for (int i = 0; i < f->probes.n; i++) {
		struct probe *p = f->probes.items[i];
		struct scope sc = {.s = s, .probe = p, .locals = &p->locals, .reads = &p->globals_read,
				   .writes = &p->globals_written, .callees = &p->callees};
		p->index = s->probes.n;
		vec_push(&s->probes, p);
		resolve_node(&sc, p->body);
	}
	int done = 0;
	for (; done < s->functions.n; done++) /* grows while we go */
		resolve_function(s, s->functions.items[done]);
	/* The script's other functions are checked too; the optimizer elides them (not with -u). */
	for (int i = 0; i < f->functions.n; i++) {
		struct function *fn = f->functions.items[i];
		bool duplicate = false;
		for (int j = 0; j < i && !duplicate; j++)
			duplicate = !strcmp(((struct function *)f->functions.items[j])->name, fn->name);
		if (!duplicate)
			use_function(s, fn);
	}
	for (; done < s->functions.n; done++)
		resolve_function(s, s->functions.items[done]);
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct vec seen = {0};
		for (int j = 0; j < p->callees.n; j++)
			collect_function_globals(p, p->callees.items[j], &seen);
	}
	return diag_error_count() == 0;
}
