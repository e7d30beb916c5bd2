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
#include "resolve.h"
#include "enums.h"
#include "tapset.h"
#include "probes.h"
#include "syscalls.h"

/* Where the resolver is: the body being walked and what it collects into. */
struct scope {
	struct session *s;
	struct function *func;    /* NULL in a probe body */
	struct probe *probe;      /* NULL in a function body */
	struct ast_file *file;    /* the file the body is in: decides which private names it sees */
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
	{"sprint", BUILTIN_SPRINT},
	{"sprintln", BUILTIN_SPRINTLN},
	{"printd", BUILTIN_PRINTD},
	{"printdln", BUILTIN_PRINTDLN},
	{"sprintd", BUILTIN_SPRINTD},
	{"sprintdln", BUILTIN_SPRINTDLN},
	{"@const", BUILTIN_CONST},
	{"@enumname", BUILTIN_ENUMNAME},
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

/* Private declarations are visible only inside their own file. */
static bool visible_from(bool is_private, const struct ast_file *owner, const struct ast_file *from)
{
	return !is_private || owner == from;
}

void resolve_add_global(struct session *s, struct global *g)
{
	struct vec *same = strmap_vec(&s->globals_by_name, g->name);
	for (int i = 0; i < same->n; i++) {
		struct global *other = same->items[i];
		/* A private global clashes only with names of its own file. */
		bool clash = other->file == g->file || (!other->is_private && !g->is_private);
		if (!strcmp(other->name, g->name) && clash) {
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
	vec_push(same, g);
}

/* The global `name` as seen from file `from`: its own private one first. */
/*
 * The tapset files lookups pulled into the program since the last call
 * (s->tapset_files grows as tapset.c finds things in them): their globals
 * and top-level embedded C join the program.
 */
static void join_used_files(struct session *s)
{
	for (; s->tapset_files_joined < s->tapset_files.n; s->tapset_files_joined++) {
		struct ast_file *f = s->tapset_files.items[s->tapset_files_joined];
		for (int j = 0; j < f->globals.n; j++)
			resolve_add_global(s, f->globals.items[j]);
		for (int j = 0; j < f->embedded.n; j++)
			vec_push(&s->embedded, (void *)((struct node *)f->embedded.items[j])->u.embedded.code);
	}
}

static struct global *find_global(struct session *s, const char *name, const struct ast_file *from)
{
	struct global *public = NULL;
	struct vec *same = strmap_get(&s->globals_by_name, name);
	for (int i = 0; same && i < same->n; i++) {
		struct global *g = same->items[i];
		if (!visible_from(g->is_private, g->file, from))
			continue;
		if (g->file == from)
			return g;
		if (!public)
			public = g;
	}
	if (public)
		return public;
	struct global *g = tapset_find_global(s, name, from);
	join_used_files(s);
	return g;
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
	struct global *g = find_global(sc->s, name, sc->file);
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

/* The keys of 'delete a[...]' and '[...] in a', where '*' matches any key. */
static void resolve_match_keys(struct scope *sc, struct vec *keys)
{
	for (int i = 0; i < keys->n; i++) {
		struct node *k = keys->items[i];
		if (k->kind != NODE_WILDCARD)
			resolve_node(sc, k);
	}
}

/*
 * @defined(expr): does expr resolve? Decided here, at compile time, without
 * resolving (or later evaluating) the operand. Calls must name a known
 * function; variables always resolve (a new name is a local). Target
 * variables add their case here.
 */
static bool expr_resolves(struct scope *sc, struct node *n);

static bool all_resolve(struct scope *sc, struct vec *v)
{
	for (int i = 0; i < v->n; i++) {
		struct node *k = v->items[i];
		if (k->kind != NODE_WILDCARD && !expr_resolves(sc, k))
			return false;
	}
	return true;
}

static struct function *find_function(struct session *s, const char *name, int nargs, struct ast_file *from,
				      struct vec *candidates);

/* Is there a function name(nargs arguments) visible here? Pulls nothing into the program. */
static bool function_exists(struct scope *sc, const char *name, int nargs)
{
	if (resolve_builtin(name))
		return true;
	struct vec candidates = {0};
	find_function(sc->s, name, nargs, sc->file, &candidates);
	for (int i = 0; i < candidates.n; i++)
		if (((struct function *)candidates.items[i])->params.n == nargs)
			return true;
	return false;
}

static bool expr_resolves(struct scope *sc, struct node *n)
{
	switch (n->kind) {
	case NODE_CALL:
		return function_exists(sc, n->u.call.name, n->u.call.args.n) && all_resolve(sc, &n->u.call.args);
	case NODE_INDEX:
		return all_resolve(sc, &n->u.index.keys);
	case NODE_IN:
		return all_resolve(sc, &n->u.in.keys);
	case NODE_UNARY:
		return expr_resolves(sc, n->u.unary.operand);
	case NODE_BINARY:
		return expr_resolves(sc, n->u.binary.lhs) && expr_resolves(sc, n->u.binary.rhs);
	case NODE_TERNARY:
		return expr_resolves(sc, n->u.ternary.cond) && expr_resolves(sc, n->u.ternary.then) &&
		       expr_resolves(sc, n->u.ternary.otherwise);
	case NODE_ASSIGN:
		return expr_resolves(sc, n->u.assign.lhs) && expr_resolves(sc, n->u.assign.rhs);
	case NODE_INCDEC:
		return expr_resolves(sc, n->u.incdec.operand);
	case NODE_WILDCARD:
		return false;
	case NODE_NUM: case NODE_STR: case NODE_VAR: case NODE_BLOCK: case NODE_EXPR_STMT:
	case NODE_NULL_STMT: case NODE_IF: case NODE_WHILE: case NODE_FOR: case NODE_FOREACH:
	case NODE_BREAK: case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN: case NODE_DELETE:
	case NODE_TRY: case NODE_EMBEDDED: case NODE_STAT_ADD: case NODE_STAT_OP: case NODE_REGEX:
	case NODE_TARGET: case NODE_DEFINED: case NODE_ENTRY:
		return true;
	}
	return true; /* not reached: each kind returns above */
}

static bool is_target(const struct node *n)
{
	return n->kind == NODE_TARGET || n->kind == NODE_ENTRY;
}

/* Does n use a target variable (whose existence depends on the probe point)? */
static bool has_target(struct node *n)
{
	return ast_contains(n, is_target);
}

/* Fold @defined(expr) into the number 1 or 0. */
static void fold_defined(struct scope *sc, struct node *n)
{
	bool yes = expr_resolves(sc, n->u.at_op.operand);
	n->kind = NODE_NUM;
	n->u.num = yes;
}

/* Is n @defined(...) or !@defined(...) decided now? Conditions on it choose code at compile time. */
static bool is_defined_test(const struct node *n)
{
	if (n->kind == NODE_UNARY && n->u.unary.op == OP_NOT)
		n = n->u.unary.operand;
	return n->kind == NODE_DEFINED && !has_target(n->u.at_op.operand);
}

/* The value of such a condition once resolve folded its @defined. */
static bool defined_test_value(const struct node *n)
{
	if (n->kind == NODE_UNARY)
		return !n->u.unary.operand->u.num;
	return n->u.num != 0;
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
		resolve_node(sc, t); /* its index expressions; targetvar.c checks the write */
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

/* Is the body being resolved part of a tapset (where embedded C is always allowed)? */
static bool caller_from_tapset(const struct scope *sc)
{
	return sc->func ? sc->func->from_tapset : sc->probe->from_tapset;
}

static bool function_matches(const struct function *fn, const char *name, int nargs, const struct ast_file *from,
			     struct vec *candidates)
{
	if (strcmp(fn->name, name) || !visible_from(fn->is_private, fn->file, from))
		return false;
	if (candidates) {
		vec_push(candidates, (void *)fn);
		return false;
	}
	return fn->params.n == nargs;
}

/*
 * The function `name` taking nargs arguments, as seen from file `from`: its
 * own file first (private functions included), then the script, then the
 * tapsets. With candidates, collect every visible `name` instead (any arity).
 */
/* The functions of file f named name (a struct vec, or NULL); f's table is built on first use. */
static struct vec *file_functions_named(struct ast_file *f, const char *name)
{
	if (!f->functions_by_name.n && f->functions.n)
		for (int i = 0; i < f->functions.n; i++) {
			struct function *fn = f->functions.items[i];
			vec_push(strmap_vec(&f->functions_by_name, fn->name), fn);
		}
	return strmap_get(&f->functions_by_name, name);
}

/* The first function of file f matching (see function_matches), or NULL. */
static struct function *find_in_file(struct ast_file *f, const char *name, int nargs, const struct ast_file *from,
				     struct vec *candidates)
{
	struct vec *same = file_functions_named(f, name);
	for (int i = 0; same && i < same->n; i++)
		if (function_matches(same->items[i], name, nargs, from, candidates))
			return same->items[i];
	return NULL;
}

static struct function *find_function(struct session *s, const char *name, int nargs, struct ast_file *from,
				      struct vec *candidates)
{
	struct function *fn = from ? find_in_file(from, name, nargs, from, candidates) : NULL;
	if (!fn && from != s->script)
		fn = find_in_file(s->script, name, nargs, from, candidates);
	if (fn)
		return fn;
	fn = tapset_find_function(s, name, nargs, from, candidates);
	if (!fn && syscalls_provide_function(s, name))	/* the call table, generated on first use */
		fn = tapset_find_function(s, name, nargs, from, candidates);
	join_used_files(s);
	return fn;
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

/* Tapset functions SystemTap's NEWS says were deprecated, with the release that did it. */
static const struct {
	const char *name, *release, *instead;
} deprecated_functions[] = {
	{"task_exe_file", "3.2", "current_exe_file()"},
	{"__count_envp", "3.2", "the env_str variable of syscall.execve"},
	{"__count_compat_evenp", "3.2", "the env_str variable of syscall.execve"},
	{"get_mmap_args", "3.0", NULL},
	{"get_32mmap_args", "3.0", NULL},
	{"_adjtx_mode_str", "2.7", NULL},
	{"_statfs_f_type_str", "2.7", NULL},
	{"_waitid_opt_str", "2.7", NULL},
	{"_internal_wait_opt_str", "2.7", NULL},
	{"_epoll_events_str", "2.7", NULL},
	{"_sendflags_str", "2.5", NULL},
	{"_recvflags_str", "2.5", NULL},
	{"stap_NFS_CLIENT", "2.3", NULL},
	{"__getfh_inode", "2.3", NULL},
	{"_success_check", "2.3", NULL},
	{"_sock_prot_num", "2.3", NULL},
	{"_sock_fam_num", "2.3", NULL},
	{"_sock_state_num", "2.3", NULL},
	{"_sock_type_num", "2.3", NULL},
	{"_sock_flags_num", "2.3", NULL},
	{"ppos_pos", "2.2", NULL},
	{"_dev_minor", "2.2", NULL},
	{"_dev_major", "2.2", NULL},
	{"daddr_to_string", "1.8", NULL},
	{"task_backtrace", "1.6", NULL},
	{"cpuid", "1.5", "cpu()"},
};

/* Tapset functions an older --compatible leaves out, as SystemTap's NEWS says: up to that release. */
static const struct {
	const char *name, *release;
} later_functions[] = {
	{"abort", "3.3"},
};

/* Is --compatible given and older than RELEASE ("MAJOR.MINOR")? */
static bool compatible_before(const struct session *s, const char *release)
{
	int major = 0, minor = 0, rel_major = 0, rel_minor = 0;
	if (!s->compatible || sscanf(s->compatible, "%d.%d", &major, &minor) < 1 ||
	    sscanf(release, "%d.%d", &rel_major, &rel_minor) < 1)
		return false;
	return major < rel_major || (major == rel_major && minor < rel_minor);
}

/*
 * After "unresolved function" (a note), or after a call that resolved, with
 * --check-version or under a --compatible older than the deprecation (a
 * warning, as man stap's DEPRECATION section says; -W makes it an error):
 * say so when SystemTap deprecated it, and what replaced it.
 */
static void note_deprecated(struct session *s, struct node *n, const char *name, bool resolved)
{
	for (size_t i = 0; i < sizeof(later_functions) / sizeof(later_functions[0]) && s->compatible && !resolved; i++)
		if (!strcmp(later_functions[i].name, name))
			diag_note(n->loc, "'%s' is left out by --compatible=%s or older (--compatible=%s here)", name,
				  later_functions[i].release, s->compatible);
	for (size_t i = 0; i < sizeof(deprecated_functions) / sizeof(deprecated_functions[0]); i++) {
		if (strcmp(deprecated_functions[i].name, name))
			continue;
		const char *instead = deprecated_functions[i].instead;
		if (resolved && compatible_before(s, deprecated_functions[i].release))
			diag_warning(n->loc, "'%s' was deprecated in SystemTap %s: --compatible=%s keeps it%s%s", name,
				     deprecated_functions[i].release, s->compatible, instead ? "; use " : "",
				     instead ? instead : "");
		else if (resolved && s->check_version)
			diag_warning(n->loc, "'%s' was deprecated in SystemTap %s%s%s [--check-version]", name,
				     deprecated_functions[i].release, instead ? "; use " : "", instead ? instead : "");
		else if (!resolved)
			diag_note(n->loc, "'%s' was deprecated in SystemTap %s%s%s%s", name,
				  deprecated_functions[i].release,
				  s->compatible ? ast_printf(" (--compatible=%s)", s->compatible) : "",
				  instead ? "; use " : "", instead ? instead : "");
		return;
	}
}

static void resolve_call(struct scope *sc, struct node *n)
{
	struct session *s = sc->s;
	const char *name = n->u.call.name;
	if (!strcmp(name, "@probewrite")) { /* an alias body's are settled when it is wrapped (probes.c) */
		diag_error(n->loc, "@probewrite(%s) can only be used in the prologue or epilogue of a probe alias",
			   ((struct node *)n->u.call.args.items[0])->u.var.name);
		return;
	}
	if (!strcmp(name, "@enum")) { /* the enumerator's value, read now from the kernel's types */
		enums_value(s, n);
		return;
	}
	resolve_vec(sc, &n->u.call.args);
	n->u.call.builtin = resolve_builtin(name);
	if (n->u.call.builtin == BUILTIN_ENUMNAME)
		return; /* the parser checked the literals; the type is looked up after the targets (enums.c) */
	if (n->u.call.builtin == BUILTIN_CONST) {
		/* the parser checked its one string literal */
		if (!s->guru && !caller_from_tapset(sc))
			diag_error(n->loc, "@const(\"%s\") is C code: it needs guru mode (-g)",
				   ((struct node *)n->u.call.args.items[0])->u.str);
		return;
	}
	if (n->u.call.builtin) {
		int nargs = n->u.call.args.n;
		bool fmt = n->u.call.builtin == BUILTIN_PRINTF || n->u.call.builtin == BUILTIN_SPRINTF;
		bool delim = builtin_is_delimited(n->u.call.builtin);
		bool newline_only = n->u.call.builtin == BUILTIN_PRINTLN || n->u.call.builtin == BUILTIN_SPRINTLN;
		if (nargs == 0 && newline_only)
			return; /* println(): just the newline */
		if (nargs == 0)
			diag_error(n->loc, "%s needs at least one argument%s", name,
				   fmt ? ", the format" : delim ? ", the delimiter" : "");
		else if (fmt && ((struct node *)n->u.call.args.items[0])->kind != NODE_STR)
			diag_error(((struct node *)n->u.call.args.items[0])->loc,
				   "the format of %s must be a string literal", name);
		else if (delim && nargs < 2)
			diag_error(n->loc, "%s needs a value to print after the delimiter", name);
		return;
	}
	int nargs = n->u.call.args.n;
	struct function *fn = find_function(s, name, nargs, sc->file, NULL);
	if (!fn) {
		struct vec candidates = {0};
		find_function(s, name, nargs, sc->file, &candidates);
		if (!candidates.n) {
			diag_error(n->loc, "unresolved function '%s'", name);
			const char *why = syscalls_function_missing_why(s, name);
			if (why)
				diag_note(n->loc, "%s", why);
			note_deprecated(sc->s, n, name, false);
			return;
		}
		const char *counts = "";
		for (int i = 0; i < candidates.n; i++) {
			struct function *c = candidates.items[i];
			counts = ast_printf("%s%s%d", counts, i == 0 ? "" : i == candidates.n - 1 ? " or " : ", ",
					    c->params.n);
		}
		struct function *last = candidates.items[candidates.n - 1];
		diag_error(n->loc, "function '%s' takes %s argument%s, %d given", name, counts,
			   candidates.n == 1 && last->params.n == 1 ? "" : "s", nargs);
		for (int i = 0; i < candidates.n; i++) {
			struct function *c = candidates.items[i];
			if (candidates.n == 1)
				diag_note(c->loc, "'%s' is defined here", name);
			else
				diag_note(c->loc, "'%s' with %d parameter%s is defined here", name, c->params.n,
					  c->params.n == 1 ? "" : "s");
		}
		return;
	}
	if (fn->guru_only && !s->guru && !caller_from_tapset(sc)) {
		diag_error(n->loc, "function '%s' is marked /* guru */: calling it from a script needs guru mode (-g)",
			   name);
		diag_note(fn->loc, "'%s' is defined here", name);
	}
	if ((s->check_version || s->compatible) && !caller_from_tapset(sc))
		note_deprecated(s, n, name, true);
	n->u.call.func = fn;
	push_unique(sc->callees, fn);
	use_function(s, fn);
}

/* The local a foreach binds (a key or the value). */
static void bind_foreach_var(struct scope *sc, struct node *v, const char *what)
{
	struct symbol *sym = lookup(sc, v);
	if (sym->kind == SYM_GLOBAL)
		diag_error(v->loc, "foreach %s '%s' must be a local variable, not a global", what, sym->name);
	note_access(sc, sym, false, true);
}

/*
 * foreach over histogram buckets: the histogram is read like any other
 * (once, before the loop), the bucket index and count are bound to locals.
 */
static void resolve_foreach_hist(struct scope *sc, struct node *n)
{
	resolve_node(sc, n->u.foreach.array);
	for (int i = 0; i < n->u.foreach.keys.n; i++)
		bind_foreach_var(sc, n->u.foreach.keys.items[i], "key");
	if (n->u.foreach.value)
		bind_foreach_var(sc, n->u.foreach.value, "value");
	resolve_node(sc, n->u.foreach.limit);
	sc->loop_depth++;
	resolve_node(sc, n->u.foreach.body);
	sc->loop_depth--;
}

static void resolve_foreach(struct scope *sc, struct node *n)
{
	if (n->u.foreach.array->kind == NODE_STAT_OP) {
		resolve_foreach_hist(sc, n);
		return;
	}
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
	if (n->u.foreach.slice.n && n->u.foreach.slice.n != n->u.foreach.keys.n)
		diag_error(n->loc, "foreach binds %d key%s but its slice has %d", n->u.foreach.keys.n,
			   n->u.foreach.keys.n == 1 ? "" : "s", n->u.foreach.slice.n);
	for (int i = 0; i < n->u.foreach.slice.n; i++) {
		struct node *k = n->u.foreach.slice.items[i];
		if (k->kind != NODE_WILDCARD)
			resolve_node(sc, k);
	}
	resolve_node(sc, n->u.foreach.limit);
	/* a sort would reorder the list the enclosing loop is walking */
	for (int i = 0; n->u.foreach.sort_dir && i < sc->iterating.n; i++)
		if (sc->iterating.items[i] == arr)
			diag_error(n->loc, "cannot sort array '%s' inside a foreach over it: iterate it unsorted",
				   arr->name);
	sc->loop_depth++;
	vec_push(&sc->iterating, arr);
	resolve_node(sc, n->u.foreach.body);
	sc->iterating.n--;
	sc->loop_depth--;
}

static void resolve_target_node(struct scope *sc, struct node *n)
{
	/*
	 * A script function may read the probe point's variables (ctxfunc.c
	 * clones it per probe); a tapset function has no probe point whose
	 * variables it could read: a kernel global (@var) it can read
	 * anywhere, and typed values.
	 */
	if (sc->func && sc->func->from_tapset && n->u.target.base != TARGET_BASE_CAST && n->u.target.base != TARGET_BASE_AUTO &&
	    n->u.target.base != TARGET_BASE_AT_VAR)
		diag_error(n->loc, "'%s' can only be used in a probe body (functions may use @var, @cast and '->' on typed values)",
			   ast_expr_text(n));
	resolve_node(sc, n->u.target.operand);
	for (int i = 0; i < n->u.target.path.n; i++)
		resolve_node(sc, ((struct target_step *)n->u.target.path.items[i])->index);
}

static void resolve_try(struct scope *sc, struct node *n)
{
	resolve_node(sc, n->u.try_stmt.body);
	struct node *var = n->u.try_stmt.var;
	if (var) {
		struct symbol *sym = lookup(sc, var);
		if (sym->kind == SYM_GLOBAL)
			diag_error(var->loc, "catch variable '%s' must be a local variable, not a global",
				   sym->name);
		note_access(sc, sym, false, true);
	}
	resolve_node(sc, n->u.try_stmt.handler);
}

static void resolve_block(struct scope *sc, struct node *n)
{
	/* an alias body in a derived probe sees its own file's private names */
	struct ast_file *outer = sc->file;
	for (int i = 0; sc->probe && i < sc->probe->body_files.n; i++) {
		struct probe_body_file *bf = sc->probe->body_files.items[i];
		if (bf->block == n)
			sc->file = bf->file;
	}
	resolve_vec(sc, &n->u.block.stmts);
	sc->file = outer;
}

static void resolve_if(struct scope *sc, struct node *n)
{
	if (is_defined_test(n->u.if_stmt.cond)) {
		/* only the branch @defined chose is compiled */
		resolve_node(sc, n->u.if_stmt.cond);
		struct node *live = defined_test_value(n->u.if_stmt.cond) ? n->u.if_stmt.then : n->u.if_stmt.otherwise;
		if (live) {
			*n = *live;
			resolve_node(sc, n);
		} else {
			n->kind = NODE_NULL_STMT;
		}
		return;
	}
	resolve_node(sc, n->u.if_stmt.cond);
	resolve_node(sc, n->u.if_stmt.then);
	resolve_node(sc, n->u.if_stmt.otherwise);
}

static void resolve_delete(struct scope *sc, struct node *n)
{
	struct node *t = n->u.del.target;
	if (t->kind == NODE_VAR) {
		struct symbol *sym = lookup(sc, t);
		note_access(sc, sym, false, true);
		check_not_iterating(sc, sym, t);
	} else if (t->kind == NODE_INDEX) {
		struct symbol *arr = array_symbol(sc, t->u.index.array);
		note_access(sc, arr, false, true);
		check_not_iterating(sc, arr, t);
		resolve_match_keys(sc, &t->u.index.keys);
	} else {
		diag_error(t->loc, "delete needs a variable, an array or an array element");
	}
}

static void resolve_ternary(struct scope *sc, struct node *n)
{
	if (is_defined_test(n->u.ternary.cond)) {
		/* only the branch @defined chose is compiled */
		resolve_node(sc, n->u.ternary.cond);
		*n = *(defined_test_value(n->u.ternary.cond) ? n->u.ternary.then : n->u.ternary.otherwise);
		resolve_node(sc, n);
		return;
	}
	resolve_node(sc, n->u.ternary.cond);
	resolve_node(sc, n->u.ternary.then);
	resolve_node(sc, n->u.ternary.otherwise);
}

static void resolve_node(struct scope *sc, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case NODE_NUM:
	case NODE_STR:
	case NODE_NULL_STMT:
		break;
	case NODE_EMBEDDED:
		if (!sc->s->guru && !caller_from_tapset(sc))
			diag_error(n->loc, "embedded C in a script needs guru mode (-g)");
		break;
	case NODE_TARGET:
		resolve_target_node(sc, n);
		break;
	case NODE_ENTRY:
		if (sc->func && sc->func->from_tapset)
			diag_error(n->loc, "'%s' can only be used in a probe body", ast_expr_text(n));
		else
			resolve_node(sc, n->u.at_op.operand);
		break;
	case NODE_WILDCARD:
		diag_error(n->loc, "'*' matches any key only in 'delete' and 'in'");
		break;
	case NODE_DEFINED:
		/* on target variables: decided per probe point by targetvar.c; otherwise now */
		if (has_target(n->u.at_op.operand))
			resolve_node(sc, n->u.at_op.operand);
		else
			fold_defined(sc, n);
		break;
	case NODE_TRY:
		resolve_try(sc, n);
		break;
	case NODE_VAR: {
		struct symbol *sym = lookup(sc, n);
		note_access(sc, sym, true, false);
		break;
	}
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
		resolve_ternary(sc, n);
		break;
	case NODE_ASSIGN:
		resolve_node(sc, n->u.assign.rhs);
		resolve_target(sc, n->u.assign.lhs, n->u.assign.op != OP_NONE);
		break;
	case NODE_INCDEC:
		resolve_target(sc, n->u.incdec.operand, true);
		break;
	case NODE_IN:
		resolve_match_keys(sc, &n->u.in.keys);
		note_access(sc, array_symbol(sc, n->u.in.array), true, false);
		break;
	case NODE_BLOCK:
		resolve_block(sc, n);
		break;
	case NODE_EXPR_STMT:
		resolve_node(sc, n->u.expr_stmt.expr);
		break;
	case NODE_IF:
		resolve_if(sc, n);
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
	case NODE_FOREACH:
		resolve_foreach(sc, n);
		break;
	case NODE_BREAK:
	case NODE_CONTINUE:
		if (!sc->loop_depth)
			diag_error(n->loc, "'%s' outside a loop", n->kind == NODE_BREAK ? "break" : "continue");
		break;
	case NODE_NEXT:
		/* in a function, 'next' ends the probe handler that called it */
		break;
	case NODE_RETURN:
		/* outside a function it is a pass-1 error (parser.y, check_body) */
		resolve_node(sc, n->u.ret.value);
		break;
	case NODE_DELETE:
		resolve_delete(sc, n);
		break;
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
	}
}

static void resolve_function(struct session *s, struct function *fn)
{
	struct scope sc = {.s = s, .func = fn, .file = fn->file, .locals = &fn->locals, .reads = &fn->globals_read,
			   .writes = &fn->globals_written, .callees = &fn->callees};
	if (fn->body->kind == NODE_EMBEDDED) {
		if (!fn->from_tapset && !s->guru)
			diag_error(fn->loc, "embedded C in function '%s' needs guru mode (-g)", fn->name);
		return;
	}
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

/* A walk looking for code that changes array arr: stores, deletes, sorts. */
struct modifies_walk {
	struct symbol *arr;  /* the array iterated */
	bool found;          /* some node changes it */
};

static bool names_arr(const struct node *var, const struct symbol *arr)
{
	return var && var->kind == NODE_VAR && var->u.var.sym == arr;
}

static bool modifies_pre(struct ast_walker *w, struct node *n)
{
	struct modifies_walk *mw = w->data;
	const struct node *t = NULL;
	if (n->kind == NODE_ASSIGN)
		t = n->u.assign.lhs;
	else if (n->kind == NODE_INCDEC)
		t = n->u.incdec.operand;
	else if (n->kind == NODE_DELETE)
		t = n->u.del.target;
	if (t && (names_arr(t, mw->arr) || (t->kind == NODE_INDEX && names_arr(t->u.index.array, mw->arr))))
		mw->found = true;
	if (n->kind == NODE_FOREACH && n->u.foreach.sort_dir && names_arr(n->u.foreach.array, mw->arr))
		mw->found = true;
	return !mw->found;
}

/* Does fn, or a function it reaches, store into, delete from or sort array arr? */
static bool function_modifies(struct function *fn, struct symbol *arr, struct vec *seen)
{
	for (int i = 0; i < seen->n; i++)
		if (seen->items[i] == fn)
			return false;
	vec_push(seen, fn);
	struct modifies_walk mw = {.arr = arr};
	struct ast_walker w = {.pre = modifies_pre, .data = &mw};
	ast_walk(&w, fn->body);
	if (mw.found)
		return true;
	for (int i = 0; i < fn->callees.n; i++)
		if (function_modifies(fn->callees.items[i], arr, seen))
			return true;
	return false;
}

/*
 * The foreach check through calls: a function called inside a foreach
 * must not modify (directly or through its callees) the array iterated.
 * Runs once every function's writes are known.
 */
static bool check_foreach_calls_pre(struct ast_walker *w, struct node *n)
{
	struct vec *iterating = w->data;
	if (n->kind == NODE_FOREACH && n->u.foreach.array->kind == NODE_VAR) {
		ast_walk(w, n->u.foreach.limit); /* evaluated before the loop starts */
		vec_push(iterating, n->u.foreach.array->u.var.sym);
		ast_walk(w, n->u.foreach.body);
		iterating->n--;
		return false;
	}
	if (n->kind == NODE_CALL && n->u.call.func) {
		for (int i = 0; i < iterating->n; i++) {
			struct symbol *arr = iterating->items[i];
			struct vec seen = {0};
			if (arr && function_modifies(n->u.call.func, arr, &seen))
				diag_error(n->loc, "cannot modify array '%s' inside a foreach over it: '%s' changes or sorts it",
					   arr->name, n->u.call.name);
		}
	}
	return true;
}

static void check_foreach_calls(struct node *body)
{
	struct vec iterating = {0};
	struct ast_walker w = {.pre = check_foreach_calls_pre, .data = &iterating};
	ast_walk(&w, body);
}

/* Resolve the bodies and conditions of s->probes from index first on; returns how many there are. */
static int resolve_probes_from(struct session *s, int first)
{
	for (int i = first; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct scope sc = {.s = s, .probe = p, .file = p->file, .locals = &p->locals, .reads = &p->globals_read,
				   .writes = &p->globals_written, .callees = &p->callees};
		resolve_node(&sc, p->body);
		if (p->cond) {
			/* Only globals (probes.c checked): its reads are kept apart from the body's. */
			struct vec none = {0};
			struct scope cs = {.s = s, .probe = p, .file = s->script, .locals = &none,
					   .reads = &p->cond_reads, .writes = &none, .callees = &none};
			resolve_node(&cs, p->cond);
		}
	}
	return s->probes.n;
}

bool resolve_program(struct session *s)
{
	struct ast_file *f = s->script;
	for (int i = 0; i < f->globals.n; i++)
		resolve_add_global(s, f->globals.items[i]);
	join_used_files(s);	/* the files of the aliases probes.c expanded */
	for (int i = 0; i < f->functions.n; i++) {
		struct function *fn = f->functions.items[i];
		fn->file = f;
		for (int j = 0; j < i; j++) {
			struct function *other = f->functions.items[j];
			if (!strcmp(other->name, fn->name) && other->params.n == fn->params.n) {
				diag_error(fn->loc, "function '%s' is defined twice", fn->name);
				diag_note(other->loc, "first defined here");
			}
		}
		if (resolve_builtin(fn->name))
			diag_error(fn->loc, "'%s' is a builtin and cannot be redefined", fn->name);
	}
	for (int i = 0; i < f->embedded.n; i++) {
		struct node *n = f->embedded.items[i];
		if (!s->guru)
			diag_error(n->loc, "embedded C in a script needs guru mode (-g)");
		vec_push(&s->embedded, (void *)n->u.embedded.code);
	}

	/* Probes first (as probes.c derived them); functions join s->functions as calls reach them. */
	int probes_done = resolve_probes_from(s, 0);
	int done = 0;
	for (; done < s->functions.n; done++) /* grows while we go */
		resolve_function(s, s->functions.items[done]);
	/*
	 * A tapset file that joined the program brings its plain probes (argv.stp's
	 * begin(-1)); resolving them may use more files. The list grows while we go.
	 */
	for (int k = 0; k < s->tapset_files.n; k++) {
		probes_derive_file(s, s->tapset_files.items[k]);
		probes_done = resolve_probes_from(s, probes_done);
		for (; done < s->functions.n; done++)
			resolve_function(s, s->functions.items[done]);
	}
	/* The script's other functions are checked too; the optimizer elides them (not with -u). */
	for (int i = 0; i < f->functions.n; i++) {
		struct function *fn = f->functions.items[i];
		bool duplicate = false;
		for (int j = 0; j < i && !duplicate; j++)
			duplicate = !strcmp(((struct function *)f->functions.items[j])->name, fn->name) &&
				    ((struct function *)f->functions.items[j])->params.n == fn->params.n;
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
		check_foreach_calls(p->body);
	}
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (fn->body->kind != NODE_EMBEDDED)
			check_foreach_calls(fn->body);
	}
	return diag_error_count() == 0;
}

/* Append "__N" (N unique) to the C-side name of every later holder of a taken name. */
void resolve_c_names(struct session *s)
{
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		for (int j = 0; j < i; j++)
			if (!strcmp(((struct function *)s->functions.items[j])->name, fn->name)) {
				fn->name = ast_printf("%s__%d", fn->name, i);
				break;
			}
	}
	/* Globals: keep the script's own name (it may be displayed at exit), rename the others. */
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		for (int j = 0; j < s->globals.n; j++) {
			struct global *other = s->globals.items[j];
			if (i == j || strcmp(other->name, g->name))
				continue;
			if (g->from_tapset && (!other->from_tapset || j < i)) {
				g->name = ast_printf("%s__%d", g->name, i);
				g->sym->name = g->name;
				break;
			}
		}
	}
}
