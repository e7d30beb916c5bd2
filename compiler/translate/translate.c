/*
 * translate.c - pass 3: the module's C file.
 *
 * Layout (the contract is runtime/runtime_api.h):
 *   limits and STP_HAVE_* defines, #include "runtime.h" and the families'
 *   declarations (emit_family_files), top-level embedded C,
 *   the globals struct (each global with its lock), struct context (runtime
 *   part, a union of per-probe locals, a union of per-function frames for
 *   each nesting level), function and probe bodies, the probe tables, globals
 *   init/free, #include "module_base.c", the families' code, "module_main.c".
 *
 * Bodies are generated first into memory, since generating them decides the
 * string slots their locals structs need.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "codegen.h"
#include "diag.h"
#include "resolve.h"
#include "translate.h"
#include "privilege.h"
#include "probes.h"
#include "klines.h"
#include "usyms.h"

/* A generated body and the extra slots it needs in its locals struct. */
struct body_text {
	char *text;        /* C statements */
	struct vec slots;  /* of const char *: member declarations */
	int ntemps;        /* temporaries numbered so far (more code may join the body) */
	char *conds;       /* probes: statements re-evaluating the conditions it may change, or NULL */
};

/* One clone of a context-sensitive function: the C of its body for the probes that run it. */
struct fn_clone {
	struct function *fn;
	int number;            /* N, its index among fn's clones */
	const char *name;      /* its C name after "function_": NAME__ctxN */
	const char *text;      /* its function and frame under a placeholder name, to compare clones */
	struct body_text bt;
};

/* FNV-1a, for the default module name. */
static uint64_t hash_text(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 1099511628211ull;
	}
	return h;
}

static const char *module_name(struct session *s)
{
	if (s->module_name)
		return s->module_name;
	uint64_t h = hash_text(1469598103934665603ull, s->script_text);
	for (int i = 0; i < s->defines.n; i++) {
		struct define *d = s->defines.items[i];
		h = hash_text(h, d->name);
		h = hash_text(h, d->value ? d->value : "");
	}
	h = hash_text(h, s->release ? s->release : "");
	s->module_name = ast_printf("stap_%012llx", (unsigned long long)(h & 0xffffffffffffull));
	return s->module_name;
}

static struct body_text generate(struct session *s, struct function *fn, struct probe *probe, struct node *body,
				 int indent)
{
	struct body_text bt = {0};
	size_t len = 0;
	FILE *mem = open_memstream(&bt.text, &len);
	struct emitter e = {.out = mem, .indent = indent};
	struct codegen g = {.e = &e, .s = s, .func = fn, .probe = probe};
	codegen_body(&g, body);
	fclose(mem);
	bt.slots = g.slots;
	bt.ntemps = g.ntemps;
	return bt;
}

/*
 * Conditional probes. Each has a flag (_stp_cond_state[cond_index]) the
 * runtime checks before running its body and uses to arm or disarm it. The
 * flag always holds the condition's current value: it is computed once
 * before anything is registered, then again at the end of every probe that
 * writes a global the condition reads, under that probe's locks, which are
 * widened to read-lock every global of those conditions (two writers of a
 * condition's globals therefore never update its flag concurrently).
 */
static bool updates_cond(const struct probe *p, const struct probe *q)
{
	if (!q->cond)
		return false;
	for (int i = 0; i < p->globals_written.n; i++)
		for (int j = 0; j < q->cond_reads.n; j++)
			if (p->globals_written.items[i] == q->cond_reads.items[j])
				return true;
	return false;
}

/* Statements storing each condition's value in its flag, in the locals of body_text bt. */
static char *generate_cond_sets(struct session *s, struct vec *conds, struct body_text *bt)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct emitter e = {.out = mem, .indent = 1};
	struct codegen g = {.e = &e, .s = s, .slots = bt->slots, .ntemps = bt->ntemps};
	for (int i = 0; i < conds->n; i++) {
		struct probe *q = conds->items[i];
		emit_line(&e, "_stp_cond_set(&_stp_cond_state[%d], (%s) != 0); /* condition of the probe at %s:%d:%d */",
			  q->cond_index, codegen_expr(&g, q->cond), q->loc.file, q->loc.line, q->loc.col);
	}
	fclose(mem);
	bt->slots = g.slots;
	bt->ntemps = g.ntemps;
	return text;
}

/* The conditions p may change, if any, re-evaluated when its body ends. */
static void generate_probe_conds(struct session *s, struct probe *p, struct body_text *bt)
{
	struct vec affected = {0};
	for (int i = 0; i < s->probes.n; i++)
		if (updates_cond(p, s->probes.items[i]))
			vec_push(&affected, s->probes.items[i]);
	if (affected.n)
		bt->conds = generate_cond_sets(s, &affected, bt);
}

/* The function computing every condition at start, and its _stp_probe for the runner. */
static void emit_conds_init(struct emitter *e, struct body_text *bt)
{
	emit_line(e, "/* the initial value of every probe condition: at start, before any probe is registered */");
	emit_line(e, "static void probe_conds_init(struct context *c)");
	emit_open(e, "{");
	emit_line(e, "struct probe_conds_locals *l = &c->probe_locals.probe_conds;");
	emit_line(e, "(void)l;");
	emit_raw(e, "%s", bt->text);
	emit_close(e, "out: __attribute__((unused));");
	e->indent++;
	emit_line(e, ";");
	emit_close(e, "}");
	emit_line(e, "static const struct _stp_probe _stp_cond_init_probe = "
		  "{ .body = probe_conds_init, .pp = \"probe conditions\", .location = \"<start>\" };");
	emit_blank(e);
}

static void emit_symbol_member(struct emitter *e, const struct symbol *sym)
{
	emit_line(e, "%s l_%s;", codegen_ctype(sym->type), sym->name);
}

static void emit_globals(struct emitter *e, struct session *s)
{
	codegen_stats_layouts(e, s);
	emit_open(e, "struct stp_globals {");
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		struct symbol *sym = g->sym;
		if (sym->type == TYPE_STATS)
			codegen_stats_global_member(e, g);
		else if (sym->arity > 0)
			emit_line(e, "struct _stp_map *s_%s; /* %s */", g->name, g->name);
		else
			emit_line(e, "%s s_%s; /* %s */", codegen_ctype(sym->type), g->name, g->name);
		emit_line(e, "struct _stp_rwlock s_%s_lock;", g->name);
	}
	if (!s->globals.n)
		emit_line(e, "int unused; /* no globals */");
	emit_close(e, "};");
	emit_line(e, "static struct stp_globals stp_global __attribute__((unused));");
	emit_blank(e);
}

/* The frame of fn, or of its clone called name: struct function_NAME_locals, member function_NAME. */
static void emit_function_locals(struct emitter *e, struct function *fn, const char *name, struct body_text *bt)
{
	emit_open(e, "struct function_%s_locals {", name);
	for (int i = 0; i < fn->params.n; i++)
		emit_symbol_member(e, ((struct param *)fn->params.items[i])->sym);
	for (int i = 0; i < fn->locals.n; i++)
		emit_symbol_member(e, fn->locals.items[i]);
	if (fn->type == TYPE_LONG)
		emit_line(e, "int64_t __retvalue;");
	else if (fn->type == TYPE_STRING)
		emit_line(e, "char *__retvalue; /* the caller's string_t */");
	for (int i = 0; i < bt->slots.n; i++)
		emit_line(e, "%s", (char *)bt->slots.items[i]);
	emit_close(e, "} function_%s;", name);
}

/* A probe's locals: struct probe_ID_locals, member probe_ID of the context's union. */
static void emit_probe_locals(struct emitter *e, struct probe *p, const char *id, struct body_text *bt)
{
	emit_open(e, "struct probe_%s_locals { /* %s:%d:%d */", id, p->loc.file, p->loc.line, p->loc.col);
	for (int j = 0; j < p->locals.n; j++)
		emit_symbol_member(e, p->locals.items[j]);
	for (int j = 0; j < bt->slots.n; j++)
		emit_line(e, "%s", (char *)bt->slots.items[j]);
	emit_line(e, "char unused;");
	emit_close(e, "} probe_%s;", id);
}

/* Probes the body of an earlier one serves (p->body_index) have no locals of their own. */
static void emit_context(struct emitter *e, struct session *s, struct body_text *probes, struct body_text *funcs,
			 struct vec *clones, struct body_text *conds_init)
{
	emit_open(e, "struct context {");
	emit_line(e, "struct _stp_context base;");
	emit_open(e, "union {");
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		if (p->body_index == i)
			emit_probe_locals(e, p, ast_printf("%d", i), &probes[i]);
	}
	if (conds_init) {
		emit_open(e, "struct probe_conds_locals { /* evaluating probe conditions at start */");
		for (int j = 0; j < conds_init->slots.n; j++)
			emit_line(e, "%s", (char *)conds_init->slots.items[j]);
		emit_line(e, "char unused;");
		emit_close(e, "} probe_conds;");
	}
	emit_close(e, "} probe_locals;");
	emit_open(e, "union {");
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (fn->body->kind != NODE_EMBEDDED && !fn->context_sensitive)
			emit_function_locals(e, fn, fn->name, &funcs[i]);
	}
	for (int i = 0; i < clones->n; i++) {
		struct fn_clone *cl = clones->items[i];
		emit_function_locals(e, cl->fn, cl->name, &cl->bt);
	}
	emit_line(e, "char unused;");
	emit_close(e, "} locals[MAXNESTING + 1];");
	emit_close(e, "};");
	emit_blank(e);
}

/* Locals start as 0 and "" on every hit and call (parameters are set by the caller). */
static void emit_local_init(struct emitter *e, struct vec *locals)
{
	for (int i = 0; i < locals->n; i++) {
		struct symbol *sym = locals->items[i];
		if (sym->type == TYPE_STRING)
			emit_line(e, "l->l_%s[0] = '\\0';", sym->name);
		else
			emit_line(e, "l->l_%s = 0;", sym->name);
	}
}

/*
 * An embedded-C function cannot call script functions, so it cannot
 * recurse: it needs no frame and no nesting check. It is emitted as a C
 * function the compiler can inline at each call site: parameters are C
 * parameters, a long result is the C return value, and a string result
 * is written straight into the caller's buffer (__ret, a string_t).
 * Small ones are always inlined.
 */
static const char *embedded_signature(struct function *fn)
{
	bool small = fn->pure || strlen(fn->body->u.embedded.code) < 600;
	char *sig = ast_printf("static %s %s function_%s(struct context *c", small ? "__always_inline" : "inline",
			       fn->type == TYPE_LONG ? "int64_t" : "void", fn->name);
	if (fn->type == TYPE_STRING)
		sig = ast_printf("%s, char *__ret", sig);
	for (int i = 0; i < fn->params.n; i++) {
		struct param *p = fn->params.items[i];
		sig = ast_printf("%s, %s l_%s", sig, p->sym->type == TYPE_STRING ? "const char *" : "int64_t", p->name);
	}
	return ast_printf("%s)", sig);
}

/* The embedded-C function interface: STAP_ARG_x, STAP_RETVALUE, STAP_RETURN, STAP_ERROR, STAP_PRINTF. */
static void emit_embedded_function(struct emitter *e, struct function *fn)
{
	emit_line(e, "/* function %s at %s:%d:%d */", fn->name, fn->loc.file, fn->loc.line, fn->loc.col);
	emit_line(e, "%s", embedded_signature(fn));
	emit_open(e, "{");
	if (fn->type == TYPE_LONG)
		emit_line(e, "int64_t __retvalue = 0;");
	else if (fn->type == TYPE_STRING)
		emit_line(e, "__ret[0] = '\\0';");
	for (int i = 0; i < fn->params.n; i++) {
		struct param *p = fn->params.items[i];
		emit_line(e, "#define STAP_ARG_%s (l_%s)", p->name, p->name);
	}
	if (fn->type == TYPE_STRING) {
		emit_line(e, "#define STAP_RETVALUE (__ret)");
		emit_line(e, "#define STAP_RETURN(v) do { _stp_strlcpy(STAP_RETVALUE, (v)); goto out; } while (0)");
	} else if (fn->type == TYPE_LONG) {
		emit_line(e, "#define STAP_RETVALUE (__retvalue)");
		emit_line(e, "#define STAP_RETURN(v) do { STAP_RETVALUE = (v); goto out; } while (0)");
	} else {
		emit_line(e, "#define STAP_RETURN() goto out");
	}
	emit_line(e, "#define STAP_ERROR(...) do { _stp_error_fmt(&c->base, __VA_ARGS__); goto out; } while (0)");
	emit_line(e, "#define STAP_PRINTF(...) _stp_printf(__VA_ARGS__)");
	emit_line(e, "#define CONTEXT (&c->base)");
	if (fn->myproc_unprivileged) {
		/* --privilege=stapusr: only in the loading user's own processes (man stap, UNPRIVILEGED USERS) */
		emit_line(e, "#ifdef STP_PRIVILEGE_STAPUSR");
		emit_line(e, "if (!_stp_myproc())");
		emit_line(e, "\tSTAP_ERROR(\"myproc-unprivileged function '%s' called outside the user's own process\");", fn->name);
		emit_line(e, "#endif");
	}
	emit_open(e, "{");
	emit_raw(e, "%s\n", fn->body->u.embedded.code);
	emit_close(e, "}");
	emit_line(e, "goto out;");
	for (int i = 0; i < fn->params.n; i++)
		emit_line(e, "#undef STAP_ARG_%s", ((struct param *)fn->params.items[i])->name);
	if (fn->type == TYPE_LONG || fn->type == TYPE_STRING)
		emit_line(e, "#undef STAP_RETVALUE");
	emit_line(e, "#undef STAP_RETURN");
	emit_line(e, "#undef STAP_ERROR");
	emit_line(e, "#undef STAP_PRINTF");
	emit_line(e, "#undef CONTEXT");
	emit_close(e, "out: __attribute__((unused));");
	e->indent++;
	emit_line(e, fn->type == TYPE_LONG ? "return __retvalue;" : ";");
	emit_close(e, "}");
	emit_blank(e);
}

/*
 * A script function: a frame per nesting level in the context, bounded by
 * MAXNESTING. A string result goes straight to the caller's buffer, whose
 * address the caller leaves in the frame's __retvalue.
 */
static void emit_function(struct emitter *e, struct function *fn, const char *name, struct body_text *bt)
{
	if (fn->body->kind == NODE_EMBEDDED) {
		emit_embedded_function(e, fn);
		return;
	}
	emit_line(e, "/* function %s at %s:%d:%d */", fn->name, fn->loc.file, fn->loc.line, fn->loc.col);
	emit_line(e, "static void notrace function_%s(struct context *c)", name);
	emit_open(e, "{");
	emit_line(e, "struct function_%s_locals *l = &c->locals[c->base.nesting].function_%s;", name, name);
	emit_line(e, "(void)l;");
	emit_open(e, "if (unlikely(c->base.nesting >= MAXNESTING)) {");
	emit_line(e, "c->base.last_error = \"MAXNESTING exceeded\";");
	emit_line(e, "return;");
	emit_close(e, "}");
	emit_line(e, "c->base.nesting++;");
	emit_local_init(e, &fn->locals);
	if (fn->type == TYPE_STRING)
		emit_line(e, "l->__retvalue[0] = '\\0';");
	else if (fn->type == TYPE_LONG)
		emit_line(e, "l->__retvalue = 0;");
	emit_raw(e, "%s", bt->text);
	emit_close(e, "out: __attribute__((unused));");
	e->indent++;
	emit_line(e, "c->base.nesting--;");
	emit_close(e, "}");
	emit_blank(e);
}

/*
 * The C function probe_ID running probe p's body (and probe_ID_conds when
 * it may change a condition). Take each global the probe uses, in index
 * order: write locks where it writes.
 */
static void emit_probe(struct emitter *e, struct session *s, struct vec *conds, struct probe *p, const char *id,
		       struct body_text *bt)
{
	struct vec locks = {0};
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		bool w = false, r = false;
		for (int j = 0; j < p->globals_written.n; j++)
			w |= p->globals_written.items[j] == g->sym;
		for (int j = 0; j < p->globals_read.n; j++)
			r |= p->globals_read.items[j] == g->sym;
		for (int q = 0; q < conds->n; q++) {
			struct probe *cp = conds->items[q];
			if (!updates_cond(p, cp))
				continue;
			for (int j = 0; j < cp->cond_reads.n; j++)
				r |= cp->cond_reads.items[j] == g->sym;
		}
		if (w || r)
			vec_push(&locks, ast_printf("%s:%s", w ? "write" : "read", g->name));
	}
	if (bt->conds) {
		emit_line(e, "/* conditions the probe at %s:%d:%d may change */", p->loc.file, p->loc.line, p->loc.col);
		emit_line(e, "static void probe_%s_conds(struct context *c)", id);
		emit_open(e, "{");
		emit_line(e, "struct probe_%s_locals *l = &c->probe_locals.probe_%s;", id, id);
		emit_line(e, "(void)l;");
		emit_raw(e, "%s", bt->conds);
		emit_close(e, "out: __attribute__((unused));");
		e->indent++;
		emit_line(e, ";");
		emit_close(e, "}");
		emit_blank(e);
	}
	emit_line(e, "/* probe at %s:%d:%d */", p->loc.file, p->loc.line, p->loc.col);
	emit_line(e, "static void notrace probe_%s(struct context *c)", id);
	emit_open(e, "{");
	emit_line(e, "struct probe_%s_locals *l = &c->probe_locals.probe_%s;", id, id);
	emit_line(e, "(void)l;");
	for (int i = 0; i < locks.n; i++) {
		char *spec = locks.items[i];
		char *name = strchr(spec, ':') + 1;
		const char *kind = spec[0] == 'w' ? "write" : "read";
		emit_open(e, "if (unlikely(!_stp_%s_trylock(&stp_global.s_%s_lock))) {", kind, name);
		for (int j = i - 1; j >= 0; j--) {
			char *prev = locks.items[j];
			emit_line(e, "_stp_%s_unlock(&stp_global.s_%s_lock);", prev[0] == 'w' ? "write" : "read",
				  strchr(prev, ':') + 1);
		}
		emit_line(e, "_stp_skip_probe(&c->base, \"global '%s' is locked\");", name);
		emit_line(e, "return;");
		emit_close(e, "}");
	}
	emit_local_init(e, &p->locals);
	emit_raw(e, "%s", bt->text);
	emit_close(e, "out: __attribute__((unused));");
	e->indent++;
	if (bt->conds) {
		/* also after a 'next' unwinding from a function (cleared later by the runner) */
		emit_line(e, "if (!c->base.last_error || c->base.last_error == _stp_next_unwind)");
		emit_line(e, "\tprobe_%s_conds(c);", id);
	}
	for (int i = locks.n - 1; i >= 0; i--) {
		char *spec = locks.items[i];
		emit_line(e, "_stp_%s_unlock(&stp_global.s_%s_lock);", spec[0] == 'w' ? "write" : "read",
			  strchr(spec, ':') + 1);
	}
	emit_line(e, ";");
	emit_close(e, "}");
	emit_blank(e);
}

/*
 * Context-sensitive functions (elaborate/ctxfunc.c): a clone per probe
 * that reaches one, generated with that probe's plans. Callees are cloned
 * first, so a clone's C names the callee clones it calls; a clone whose C
 * reads the same as an earlier clone of the same function (under a
 * placeholder name) is that clone, so probes that read their variables
 * alike still share one body (share_bodies).
 */
struct clone_walk {
	struct session *s;
	struct probe *probe;
	struct vec *clones;    /* of struct fn_clone * */
};

static void clone_for(struct clone_walk *cw, struct function *fn);

static bool clone_callees_pre(struct ast_walker *w, struct node *n)
{
	if (n->kind == NODE_CALL && n->u.call.func && n->u.call.func->context_sensitive)
		clone_for(w->data, n->u.call.func);
	return true;
}

static void clone_for(struct clone_walk *cw, struct function *fn)
{
	if (fn->clone_of[cw->probe->index] >= 0)
		return;
	struct ast_walker w = {.pre = clone_callees_pre, .data = cw};
	ast_walk(&w, fn->body);
	struct fn_clone *cl = ast_alloc(sizeof(*cl));
	cl->fn = fn;
	cl->bt = generate(cw->s, fn, cw->probe, fn->body, 1);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	struct emitter e = {.out = mem};
	emit_function_locals(&e, fn, "@", &cl->bt);
	emit_function(&e, fn, "@", &cl->bt);
	fclose(mem);
	cl->text = ast_strdup(text);
	free(text);
	for (int i = 0; i < cw->clones->n; i++) {
		struct fn_clone *other = cw->clones->items[i];
		if (other->fn == fn && !strcmp(other->text, cl->text)) {
			fn->clone_of[cw->probe->index] = other->number;
			return;
		}
	}
	cl->number = fn->clone_of[cw->probe->index] = fn->nclones++;
	cl->name = ast_printf("%s__ctx%d", fn->name, cl->number);
	vec_push(cw->clones, cl);
}

static void make_clones(struct session *s, struct vec *clones)
{
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (!fn->context_sensitive)
			continue;
		fn->clone_of = ast_alloc(sizeof(int) * (size_t)(s->probes.n + 1));
		for (int j = 0; j <= s->probes.n; j++)
			fn->clone_of[j] = -1;
	}
	for (int i = 0; i < s->probes.n; i++) {
		struct clone_walk cw = {.s = s, .probe = s->probes.items[i], .clones = clones};
		struct ast_walker w = {.pre = clone_callees_pre, .data = &cw};
		ast_walk(&w, cw.probe->body);
	}
}

/*
 * Each body is generated once. A probe split per point by targetvar.c
 * (one per function a wildcard matched) generates the same C at most of
 * its points: what differs there (a register, a stack offset, a type's
 * size, whether @defined holds) shows in the text, and everything else
 * about the point (its address, pp, pn, its condition flag, its entry
 * handler) is data in its table rows. So the probes whose function and
 * locals struct would read the same, apart from their own number, share
 * the first one's: p->body_index. A wildcard over thousands of functions
 * then compiles a handful of bodies instead of one per function.
 */
static void share_bodies(struct session *s, struct vec *conds, struct body_text *probes)
{
	struct strmap first = {0}; /* the text of a probe's function and locals, under the name "@" -> the probe */
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);
		struct emitter e = {.out = mem};
		emit_probe_locals(&e, p, "@", &probes[i]);
		emit_probe(&e, s, conds, p, "@", &probes[i]);
		fclose(mem);
		struct probe *same = strmap_get(&first, text);
		if (!same)
			*strmap_slot(&first, ast_strdup(text)) = same = p;
		free(text);
		p->body_index = same->index;
	}
}

/*
 * At the end, SystemTap shows globals the script wrote but never read or
 * printed: scalars as name=value, arrays as name[keys]=value per element.
 */
static bool displayed(const struct global *g)
{
	return !g->from_tapset && g->sym->written && !g->sym->read;
}

static void emit_display_probe(struct emitter *e, struct session *s)
{
	emit_line(e, "/* end of script: show globals that were written and never read */");
	emit_line(e, "static void probe_display(struct context *c)");
	emit_open(e, "{");
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		struct symbol *sym = g->sym;
		if (!displayed(g))
			continue;
		emit_open(e, "if (_stp_write_trylock(&stp_global.s_%s_lock)) {", g->name);
		if (sym->type == TYPE_STATS) {
			codegen_stats_display(e, g);
		} else if (sym->arity == 0) {
			if (sym->type == TYPE_STRING)
				emit_line(e, "_stp_printf(\"%s=\\\"%%s\\\"\\n\", stp_global.s_%s);", g->name, g->name);
			else
				emit_line(e, "_stp_printf(\"%s=%%lld\\n\", (long long)stp_global.s_%s);", g->name, g->name);
		} else {
			emit_line(e, "struct _stp_map_node *n;");
			if (sym->type == TYPE_LONG)
				emit_line(e, "_stp_map_sort(stp_global.s_%s, 0, -1);", g->name);
			emit_open(e, "for (n = _stp_map_first(stp_global.s_%s); n; n = _stp_map_next(stp_global.s_%s, n)) {",
				  g->name, g->name);
			codegen_emit_display_keys(e, g->name, sym);
			if (sym->type == TYPE_STRING)
				emit_line(e, "_stp_printf(\"]=\\\"%%s\\\"\\n\", _stp_node_str(n));");
			else
				emit_line(e, "_stp_printf(\"]=%%lld\\n\", (long long)*_stp_node_long(n));");
			emit_line(e, "_stp_print_flush();");
			emit_close(e, "}");
		}
		emit_line(e, "_stp_write_unlock(&stp_global.s_%s_lock);", g->name);
		emit_close(e, "}");
	}
	emit_line(e, "(void)c;");
	emit_close(e, "}");
	emit_blank(e);
}

static bool any_displayed(struct session *s)
{
	for (int i = 0; i < s->globals.n; i++)
		if (displayed(s->globals.items[i]))
			return true;
	return false;
}

/*
 * A script global that a module parameter may set (stap -G, staprun NAME=VALUE): a scalar long or string;
 * a tapset's public ones too (argv.stp's argv_N), not its internals (named _*).
 */
static bool global_param(const struct global *g)
{
	return (!g->from_tapset || g->name[0] != '_') && !g->is_private && g->sym->arity == 0 &&
	       (g->sym->type == TYPE_LONG || g->sym->type == TYPE_STRING) && strncmp(g->name, "_stp_", 5) != 0;
}

/* The module parameters of the script's scalar globals (runtime/linux/services/global_params.c). */
static void emit_global_params(struct emitter *e, struct session *s)
{
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		if (!global_param(g))
			continue;
		emit_line(e, "static struct _stp_global_param _stp_gparam_%s = { .is_string = %d };", g->name,
			  g->sym->type == TYPE_STRING);
		emit_line(e, "module_param_cb(%s, &_stp_global_param_ops, &_stp_gparam_%s, 0);", g->name, g->name);
		emit_line(e, "MODULE_PARM_DESC(%s, \"the script's global '%s' (%s)\");", g->name, g->name,
			  g->sym->type == TYPE_STRING ? "string" : "long");
	}
	emit_blank(e);
}

static void emit_globals_init(struct emitter *e, struct session *s)
{
	emit_global_params(e, s);
	emit_line(e, "static int _stp_globals_init(void)");
	emit_open(e, "{");
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		struct symbol *sym = g->sym;
		emit_line(e, "_stp_rwlock_init(&stp_global.s_%s_lock);", g->name);
		if (sym->type == TYPE_STATS) {
			codegen_stats_global_init(e, g);
		} else if (sym->arity > 0) {
			char *types = "";
			for (int k = 0; k < sym->arity; k++)
				types = ast_printf("%s%s%s", types, k ? ", " : "", codegen_stp_type(sym->keys[k]));
			emit_open(e, "{");
			emit_line(e, "static const enum _stp_type keys[] = { %s };", types);
			emit_line(e, "stp_global.s_%s = _stp_map_new(%s, %d, keys, %s);", g->name,
				  g->max_entries ? ast_printf("%" PRId64, g->max_entries) : "MAXMAPENTRIES",
				  sym->arity, codegen_stp_type(sym->type));
			emit_line(e, "if (!stp_global.s_%s)", g->name);
			emit_line(e, "\treturn -ENOMEM;");
			if (g->wrap)
				emit_line(e, "_stp_map_set_wrap(stp_global.s_%s);", g->name);
			emit_close(e, "}");
		} else if (g->init && g->init->kind == NODE_STR) {
			emit_line(e, "_stp_strlcpy(stp_global.s_%s, %s);", g->name, emit_c_string(g->init->u.str));
		} else if (g->init) {
			if (sym->type == TYPE_STRING)
				diag_error(g->init->loc, "global '%s' is a string but is initialized with a number", g->name);
			emit_line(e, "stp_global.s_%s = %" PRId64 "LL;", g->name, g->init->u.num);
		}
		if (global_param(g) && g->sym->type == TYPE_STRING)
			emit_line(e, "if (_stp_gparam_%s.given) _stp_strlcpy(stp_global.s_%s, _stp_gparam_%s.str);",
				  g->name, g->name, g->name);
		else if (global_param(g))
			emit_line(e, "if (_stp_gparam_%s.given) stp_global.s_%s = _stp_gparam_%s.num;", g->name, g->name,
				  g->name);
	}
	emit_line(e, "return 0;");
	emit_close(e, "}");
	emit_blank(e);
	emit_line(e, "static void _stp_globals_free(void)");
	emit_open(e, "{");
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		if (g->sym->type == TYPE_STATS) {
			codegen_stats_global_free(e, g);
		} else if (g->sym->arity > 0) {
			emit_line(e, "if (stp_global.s_%s)", g->name);
			emit_line(e, "\t_stp_map_free(stp_global.s_%s);", g->name);
			emit_line(e, "stp_global.s_%s = NULL;", g->name);
		}
	}
	emit_close(e, "}");
	emit_blank(e);
}


/* The resolved probes prov owns, in order. */
typedef void provider_fn(struct emitter *e, struct session *s, const struct probe_provider *prov, struct vec *mine);

/* fn for each provider the script uses, in providers[] order, with the resolved probes it owns (in order). */
static void each_provider(struct emitter *e, struct session *s, provider_fn *fn)
{
	struct vec used = {0};
	probes_providers_used(s, &used);
	for (int i = 0; i < used.n; i++) {
		const struct probe_provider *prov = used.items[i];
		struct vec mine = {0};
		for (int j = 0; j < s->resolved.n; j++) {
			struct resolved_probe *r = s->resolved.items[j];
			if (r->provider == prov)
				vec_push(&mine, r);
		}
		fn(e, s, prov, &mine);
	}
}

static void provider_tables(struct emitter *e, struct session *s, const struct probe_provider *prov, struct vec *mine)
{
	if (prov->emit_table)
		prov->emit_table(e, s, mine);
	if (prov->table) {
		emit_open(e, "static struct %s %ss[] = {", prov->table, prov->table);
		for (int j = 0; j < mine->n; j++)
			prov->row(e, mine->items[j]);
		emit_close(e, "};");
	}
}

static void provider_defines(struct emitter *e, struct session *s, const struct probe_provider *prov, struct vec *mine)
{
	if (prov->feature)
		emit_line(e, "#define %s 1", prov->feature);
	if (prov->emit_defines)
		prov->emit_defines(e, s, mine);
}

static void emit_tables(struct emitter *e, struct session *s)
{
	emit_open(e, "static const struct _stp_probe _stp_probes[] = {");
	for (int i = 0; i < s->resolved.n; i++) {
		struct resolved_probe *r = s->resolved.items[i];
		if (r->probe) {
			struct probe_point *at = r->user_point ? r->user_point : r->point;
			int n = probes_ncomponents(r->point);
			/* at the wrapper's entry only: its registers are gone at the return */
			bool syscall_args = r->syscall_wrapper && strcmp(probes_component(r->point, n - 1)->name, "return");
			emit_line(e, "{ .body = probe_%d, .pp = %s, .pn = %s, .location = \"%s:%d:%d\"%s%s%s%s },",
				  r->probe->body_index, emit_c_string(r->pp), emit_c_string(r->pn ? r->pn : r->pp), at->loc.file, at->loc.line, at->loc.col,
				  r->probe->cond ? ast_printf(", .cond = &_stp_cond_state[%d]", r->probe->cond_index) : "",
				  r->probe->quiet ? ", .quiet = 1" : "", r->probe->uses_regs ? "" : ", .regless = 1",
				  syscall_args ? ", .syscall_args = 1" : "");
		}
		else if (r == s->timing_report)
			emit_line(e, "{ .body = probe_timing_report, .pp = \"end\", .pn = \"end\", .location = \"<timing report>\" },");
		else
			emit_line(e, "{ .body = probe_display, .pp = \"end\", .pn = \"end\", .location = \"<global display>\" },");
	}
	emit_close(e, "};");
	each_provider(e, s, provider_tables);
	emit_blank(e);
}

/* The runtime families of the providers used, sorted by start (stop: false) or stop rank. */
static void emit_family_list(struct emitter *e, struct vec *used, const char *macro, bool stop)
{
	struct vec fams = {0};
	for (int i = 0; i < used->n; i++) {
		const struct probe_provider *prov = used->items[i];
		for (const struct runtime_file *f = prov->runtime; f && f->name; f++) {
			if (!f->start_rank)
				continue; /* a file of helpers, not a family */
			int rank = stop ? f->stop_rank : f->start_rank;
			int at = fams.n;
			vec_push(&fams, (void *)f);
			for (; at > 0; at--) {
				const struct runtime_file *prev = fams.items[at - 1];
				if ((stop ? prev->stop_rank : prev->start_rank) <= rank)
					break;
				fams.items[at] = fams.items[at - 1];
			}
			fams.items[at] = (void *)f;
		}
	}
	char *list = "";
	for (int i = 0; i < fams.n; i++)
		list = ast_printf("%s X(%s)", list, ((const struct runtime_file *)fams.items[i])->name);
	emit_line(e, "#define %s(X)%s", macro, list);
}

/*
 * The runtime files of the providers the script uses (probes_runtime_files),
 * and no other: with decls, their declaration halves (STP_FAMILY_DECLS: the
 * element types of the tables), after runtime.h; without, their code,
 * between module_base.c and module_main.c.
 */
static void emit_family_files(struct emitter *e, struct session *s, bool decls)
{
	struct vec used = {0}, files = {0};
	probes_providers_used(s, &used);
	probes_runtime_files(&used, &files);
	if (!files.n)
		return;
	if (decls)
		emit_line(e, "#define STP_FAMILY_DECLS 1");
	for (int i = 0; i < files.n; i++)
		emit_line(e, "#include \"linux/probes/%s.c\"", (const char *)files.items[i]);
	if (decls)
		emit_line(e, "#undef STP_FAMILY_DECLS");
}

/* The families module_main.c registers at START and stops at the end (runtime_api.h). */
static void emit_families(struct emitter *e, struct session *s)
{
	struct vec used = {0};
	probes_providers_used(s, &used);
	emit_line(e, "/* the probe families this module registers, in order, and the order they stop in */");
	emit_family_list(e, &used, "STP_FAMILIES", false);
	emit_family_list(e, &used, "STP_FAMILIES_STOP", true);
	emit_blank(e);
}

/*
 * What a body may do, decided from the AST: whether it prints (a print
 * builtin, or an embedded-C function marked pragma:print) and whether it
 * reads the registers or the probe's entry (a target variable, @entry, or
 * embedded C marked pragma:regs). Embedded C outside the tapset carries
 * no such contract, so it is assumed to do both. A false "may" only costs
 * a few instructions per hit; a false "never" would lose output or read
 * stale registers.
 */
struct effects {
	bool prints;      /* may write to the output */
	bool regs;        /* may read c->base.regs or c->base.probe */
	struct vec seen;  /* of struct function *: already walked */
};

static void function_effects(struct function *fn, struct effects *fx);

static bool effects_node(struct ast_walker *w, struct node *n)
{
	struct effects *fx = w->data;
	switch (n->kind) {
	case NODE_CALL:
		switch ((enum builtin)n->u.call.builtin) {
		case BUILTIN_PRINTF:
		case BUILTIN_PRINT:
		case BUILTIN_PRINTLN:
		case BUILTIN_PRINTD:
		case BUILTIN_PRINTDLN:
			fx->prints = true;
			break;
		case BUILTIN_SPRINTF:
		case BUILTIN_SPRINT:
		case BUILTIN_SPRINTLN:
		case BUILTIN_SPRINTD:
		case BUILTIN_SPRINTDLN:
			break;
		case BUILTIN_CONST:
			/* C written by the user: assume it does both, as embedded C outside the tapset */
			fx->prints = fx->regs = true;
			break;
		case BUILTIN_ENUMNAME:
			break;
		case BUILTIN_NONE:
			if (n->u.call.func)
				function_effects(n->u.call.func, fx);
			break;
		}
		return true;
	case NODE_TARGET:
	case NODE_ENTRY:
		fx->regs = true;
		return true;
	case NODE_EMBEDDED:
		/* embedded C in a script body (guru mode): no contract */
		fx->prints = fx->regs = true;
		return true;
	case NODE_NUM: case NODE_STR: case NODE_VAR: case NODE_INDEX: case NODE_UNARY:
	case NODE_BINARY: case NODE_TERNARY: case NODE_ASSIGN: case NODE_INCDEC: case NODE_IN:
	case NODE_WILDCARD: case NODE_BLOCK: case NODE_EXPR_STMT: case NODE_NULL_STMT: case NODE_IF:
	case NODE_WHILE: case NODE_FOR: case NODE_FOREACH: case NODE_BREAK: case NODE_CONTINUE:
	case NODE_NEXT: case NODE_RETURN: case NODE_DELETE: case NODE_TRY: case NODE_STAT_ADD:
	case NODE_STAT_OP: case NODE_REGEX: case NODE_DEFINED:
		return true;
	}
	return true; /* not reached: each kind returns above */
}

static void function_effects(struct function *fn, struct effects *fx)
{
	for (int i = 0; i < fx->seen.n; i++)
		if (fx->seen.items[i] == fn)
			return;
	vec_push(&fx->seen, fn);
	if (fn->body->kind == NODE_EMBEDDED) {
		const char *code = fn->body->u.embedded.code;
		/* a safety net for the contract: a direct read of the registers must say so */
		if (fn->from_tapset && !fn->reads_regs &&
		    (strstr(code, "CONTEXT->regs") || strstr(code, "c->regs") ||
		     strstr(code, "CONTEXT->probe") || strstr(code, "c->probe")))
			diag_error(fn->loc, "embedded C of '%s' reads the registers or the probe: mark it /* pragma:regs */",
				   fn->name);
		fx->prints |= fn->from_tapset ? fn->prints : true;
		fx->regs |= fn->from_tapset ? fn->reads_regs : true;
		return;
	}
	struct ast_walker w = {.pre = effects_node, .data = fx};
	ast_walk(&w, fn->body);
}

/* Set p->quiet and p->uses_regs from its body and every function it reaches. */
static void probe_effects(struct probe *p)
{
	struct effects fx = {0};
	struct ast_walker w = {.pre = effects_node, .data = &fx};
	ast_walk(&w, p->body);
	p->quiet = !fx.prints;
	p->uses_regs = fx.regs;
}

/* An end probe of the module's own, after every end probe of the script (the display, the -t report). */
static struct resolved_probe *add_last_end_probe(struct session *s)
{
	struct resolved_probe *r = probes_make_end(INT64_MAX);
	r->index = s->resolved.n;
	vec_push(&s->resolved, r);
	return r;
}

/*
 * -G NAME=VALUE: NAME must be a scalar global of the script that a module
 * parameter can set, and a long one takes a number. Reported here, before
 * the build, rather than by the kernel at load.
 */
static bool check_global_params(struct session *s)
{
	bool ok = true;
	for (int i = 0; i < s->global_params.n; i++) {
		const char *arg = s->global_params.items[i];
		const char *eq = strchr(arg, '=');
		const char *name = ast_strndup(arg, (size_t)(eq - arg));
		struct global *found = NULL;
		for (int j = 0; j < s->globals.n && !found; j++) {
			struct global *g = s->globals.items[j];
			if (!g->from_tapset && !strcmp(g->name, name))
				found = g;
		}
		if (!found || !global_param(found)) {
			fprintf(stderr, "stap: -G %s: '%s' is not %s\n", arg, name,
				found ? "a number or string global (arrays and statistics cannot be set)"
				      : "a global of the script (or pass 2 removed it as unused)");
			ok = false;
			continue;
		}
		char *end;
		errno = 0;
		(void)strtoll(eq + 1, &end, 0);
		if (found->sym->type == TYPE_LONG && (!eq[1] || *end || errno)) {
			fprintf(stderr, "stap: -G %s: global '%s' is a number, not '%s'\n", arg, name, eq + 1);
			ok = false;
		}
	}
	return ok;
}

/* -t: the report, printed by the last end probe from the runtime's per-CPU counts. */
static void emit_timing_report_probe(struct emitter *e)
{
	emit_line(e, "/* -t: each probe's hits and cycles */");
	emit_line(e, "static void probe_timing_report(struct context *c)");
	emit_open(e, "{");
	emit_line(e, "_stp_timing_report();");
	emit_line(e, "(void)c;");
	emit_close(e, "}");
	emit_blank(e);
}

/*
 * stap --monitor (runtime/linux/services/monitor.c): _stp_monitor_globals shows each
 * global on a STATUS line (a scalar's value, an array's entry count),
 * _stp_monitor_reset sets each back to its initial value (or zero, "",
 * empty), both from process context with interrupts off and each global's
 * lock taken as the script's own code takes it; a global whose lock is
 * busy is shown as busy, or left alone.
 */
/* The statement that shows g's value on its STATUS line. */
static void monitor_show(struct emitter *e, const struct global *g)
{
	struct symbol *sym = g->sym;
	if (sym->type == TYPE_STATS)
		emit_line(e, "_stp_monitor_line(\"%s: statistics\");", g->name);
	else if (sym->arity > 0)
		emit_line(e, "_stp_monitor_line(\"%s: %%u entries\", _stp_map_size(stp_global.s_%s));", g->name, g->name);
	else if (sym->type == TYPE_STRING)
		emit_line(e, "_stp_monitor_line(\"%s = \\\"%%.200s\\\"\", stp_global.s_%s);", g->name, g->name);
	else
		emit_line(e, "_stp_monitor_line(\"%s = %%lld\", (long long)stp_global.s_%s);", g->name, g->name);
}

/* The statements that set g back to its initial value (or the -G value it was given). */
static void monitor_reset(struct emitter *e, const struct global *g)
{
	struct symbol *sym = g->sym;
	if (sym->type == TYPE_STATS)
		emit_line(e, "%s(stp_global.s_%s);", sym->arity > 0 ? "_stp_pmap_clear" : "_stp_pstat_clear", g->name);
	else if (sym->arity > 0)
		emit_line(e, "_stp_map_clear(stp_global.s_%s);", g->name);
	else if (sym->type == TYPE_STRING)
		emit_line(e, "_stp_strlcpy(stp_global.s_%s, %s);", g->name,
			  emit_c_string(g->init && g->init->kind == NODE_STR ? g->init->u.str : ""));
	else
		emit_line(e, "stp_global.s_%s = %" PRId64 "LL;", g->name,
			  g->init && g->init->kind != NODE_STR ? g->init->u.num : 0);
	if (sym->arity == 0 && sym->type != TYPE_STATS && global_param(g)) {
		if (sym->type == TYPE_STRING)
			emit_line(e, "if (_stp_gparam_%s.given) _stp_strlcpy(stp_global.s_%s, _stp_gparam_%s.str);",
				  g->name, g->name, g->name);
		else
			emit_line(e, "if (_stp_gparam_%s.given) stp_global.s_%s = _stp_gparam_%s.num;", g->name,
				  g->name, g->name);
	}
}

/*
 * static void NAME(void) running each global's statements (body) under a
 * trylock of its lock, read or write, with interrupts off; a busy global
 * is shown as busy (read) or left alone (write).
 */
static void emit_monitor_fn(struct emitter *e, struct session *s, const char *name, bool write,
			    void (*body)(struct emitter *e, const struct global *g))
{
	const char *mode = write ? "write" : "read";
	emit_line(e, "static void %s(void)", name);
	emit_open(e, "{");
	emit_line(e, "unsigned long flags __maybe_unused;");
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		emit_line(e, "local_irq_save(flags);");
		emit_open(e, "if (_stp_%s_trylock(&stp_global.s_%s_lock)) {", mode, g->name);
		body(e, g);
		emit_line(e, "_stp_%s_unlock(&stp_global.s_%s_lock);", mode, g->name);
		if (!write) {
			emit_close(e, "} else {");
			e->indent++;
			emit_line(e, "_stp_monitor_line(\"%s: busy\");", g->name);
		}
		emit_close(e, "}");
		emit_line(e, "local_irq_restore(flags);");
	}
	emit_close(e, "}");
	emit_blank(e);
}

static void emit_monitor_globals(struct emitter *e, struct session *s)
{
	emit_monitor_fn(e, s, "_stp_monitor_globals", false, monitor_show);
	emit_monitor_fn(e, s, "_stp_monitor_reset", true, monitor_reset);
}

static void write_module(struct emitter *e, struct session *s)
{
	bool display = any_displayed(s);
	s->timing_report = NULL;
	if (display)
		add_last_end_probe(s);	/* the display runs as the last end probe */
	if (s->timing)
		s->timing_report = add_last_end_probe(s);	/* and the -t report after it */
	struct body_text *probes = ast_alloc(sizeof(*probes) * (size_t)(s->probes.n + 1));
	struct body_text *funcs = ast_alloc(sizeof(*funcs) * (size_t)(s->functions.n + 1));
	struct vec conds = {0};
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		if (p->cond) {
			p->cond_index = conds.n;
			vec_push(&conds, p);
		}
	}
	struct body_text conds_init = {0};
	if (conds.n)
		conds_init.text = generate_cond_sets(s, &conds, &conds_init);
	struct vec clones = {0}; /* of struct fn_clone * */
	make_clones(s, &clones);
	for (int i = 0; i < s->probes.n; i++) {
		probes[i] = generate(s, NULL, s->probes.items[i], ((struct probe *)s->probes.items[i])->body, 1);
		if (conds.n)
			generate_probe_conds(s, s->probes.items[i], &probes[i]);
	}
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (fn->body->kind != NODE_EMBEDDED && !fn->context_sensitive)
			funcs[i] = generate(s, fn, NULL, fn->body, 1);
	}

	for (int i = 0; i < s->probes.n; i++)
		probe_effects(s->probes.items[i]);
	share_bodies(s, &conds, probes);

	emit_line(e, "/* Generated by stapc %s from %s: module %s. Do not edit. */", STAPC_VERSION, s->script_path,
		  module_name(s));
	emit_line(e, "#define STP_MODULE_NAME \"%s\"", module_name(s));
	each_provider(e, s, provider_defines);
	if (conds.n)
		emit_line(e, "#define STP_HAVE_CONDS 1");
	if (s->timing)
		emit_line(e, "#define STP_TIMING 1");
	if (s->monitor)
		emit_line(e, "#define STP_MONITOR 1");
	if (s->suppress_handler_errors)
		emit_line(e, "#define STP_SUPPRESS_HANDLER_ERRORS 1");
	if (s->bulk)
		emit_line(e, "#define STP_BULKMODE 1");
	if (s->privilege == PRIV_STAPUSR)
		emit_line(e, "#define STP_PRIVILEGE_STAPUSR 1");
	/* the level the module was compiled at, for staprun and modinfo */
	emit_line(e, "#define STP_PRIVILEGE \"%s\"", privilege_name(s->privilege));
	if (codegen_regex_work_words(s)) {
		emit_line(e, "#define STP_HAVE_REGEX 1");
		emit_line(e, "#define STP_REGEX_WORK_WORDS %d", codegen_regex_work_words(s));
	}
	emit_line(e, "#include \"runtime.h\"");
	emit_family_files(e, s, true);
	emit_blank(e);
	usyms_emit(e, s);
	klines_emit(e, s);
	emit_line(e, "/* A failing operation: record what and where, then leave the body. */");
	emit_line(e, "#define STP_FAIL_AT(label, msg, where) \\");
	emit_line(e, "\tdo { c->base.last_error = (msg); c->base.last_stmt = (where); goto label; } while (0)");
	emit_blank(e);
	for (int i = 0; i < s->embedded.n; i++)
		emit_raw(e, "%s\n", (char *)s->embedded.items[i]);
	codegen_regex_emit_all(s, e);
	emit_globals(e, s);
	emit_context(e, s, probes, funcs, &clones, conds.n ? &conds_init : NULL);
	if (conds.n) {
		emit_line(e, "static atomic_t _stp_cond_state[%d]; /* a flag per conditional probe */", conds.n);
		emit_blank(e);
	}
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (fn->body->kind == NODE_EMBEDDED)
			emit_line(e, "%s;", embedded_signature(fn));
		else if (!fn->context_sensitive)
			emit_line(e, "static void notrace function_%s(struct context *c);", fn->name);
	}
	for (int i = 0; i < clones.n; i++)
		emit_line(e, "static void notrace function_%s(struct context *c);", ((struct fn_clone *)clones.items[i])->name);
	emit_blank(e);
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (!fn->context_sensitive)
			emit_function(e, fn, fn->name, &funcs[i]);
	}
	for (int i = 0; i < clones.n; i++) {
		struct fn_clone *cl = clones.items[i];
		emit_function(e, cl->fn, cl->name, &cl->bt);
	}
	if (conds.n)
		emit_conds_init(e, &conds_init);
	for (int i = 0; i < s->probes.n; i++)
		if (((struct probe *)s->probes.items[i])->body_index == i)
			emit_probe(e, s, &conds, s->probes.items[i], ast_printf("%d", i), &probes[i]);
	if (display)
		emit_display_probe(e, s);
	if (s->timing_report)
		emit_timing_report_probe(e);
	emit_tables(e, s);
	emit_globals_init(e, s);
	if (s->monitor)
		emit_monitor_globals(e, s);
	emit_families(e, s);
	emit_line(e, "#include \"module_base.c\"");
	emit_family_files(e, s, false);
	emit_line(e, "#include \"module_main.c\"");
}

bool translate(struct session *s)
{
	resolve_c_names(s);
	if (!check_global_params(s))
		return false;
	const char *dir = session_tmpdir(s);
	if (!dir)
		return false;
	s->c_file = ast_printf("%s/%s.c", dir, module_name(s));
	FILE *out = fopen(s->c_file, "w");
	if (!out) {
		fprintf(stderr, "stap: cannot write %s: %s\n", s->c_file, strerror(errno));
		return false;
	}
	struct emitter e = {.out = out};
	write_module(&e, s);
	if (fclose(out) != 0) {
		fprintf(stderr, "stap: cannot write %s: %s\n", s->c_file, strerror(errno));
		return false;
	}
	return diag_error_count() == 0;
}
