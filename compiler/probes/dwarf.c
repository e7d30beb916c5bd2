/*
 * probes/dwarf.c - kernel.function / kernel.statement / module("m").function
 * and .statement: functions found in the -r target's debuginfo (DWARF, or BTF
 * without it), attached as kprobes by symbol name plus offset.
 *
 *   kernel.function("PATTERN")[.call|.return|.inline][.exported][.maxactive(N)]
 *   kernel.function("PATTERN").label("LPATTERN")
 *   kernel.statement("PATTERN")
 *   module("MPATTERN").function("PATTERN")...   module("MPATTERN").statement(...)
 *   kernel.function(ADDRESS)[.call|.return], kernel.statement(ADDRESS)[.absolute]
 *
 * PATTERN is func[@file[:LINES|+N]] (linespec.h); func, file and MPATTERN
 * take wildcards (MPATTERN over the target's modules.dep). A function
 * pattern with lines names the functions that span one of them; a
 * statement pattern every line it names that has code (":*" every line of
 * the function, "+N" the line N past its declaration).
 * kernel.function("f") is the function's out-of-line entry (what BTF also
 * knows, so both sources probe the same places); .inline its inlined
 * copies, .label its source labels, statements their lines (DWARF only).
 * Each match becomes one resolved probe of the kprobe family, with the
 * variables visible at the probed address as its target-variable scope.
 */
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "debuginfo/kernel.h"
#include "debuginfo/ktext.h"
#include "diag.h"
#include "probes.h"
#include "families.h"
#include "probes/kprobe.h"
#include "probes/linespec.h"
#include "debuginfo/suggest.h"
#include "syscalls.h"
#include "targetvar.h"

/* The deepest .callees(N): the run time walks N - 1 frames past the return address on each hit. */
#define CALLEES_MAX_DEPTH 16

/* The suffixes after function("..."). */
struct suffixes {
	bool call, ret, inl, exported;
	bool nearest;           /* .statement(...).nearest: a named line without code moves to the nearest */
	int64_t maxactive;
	const char *label;      /* .label("glob"), NULL if none */
	struct probe_component *callee; /* .callee(...) or .callees[(N)], NULL if none */
};

static bool parse_suffixes(struct probe_point *pp, int first, bool statement, struct suffixes *sf)
{
	memset(sf, 0, sizeof(*sf));
	for (int i = first; i < probes_ncomponents(pp); i++) {
		struct probe_component *c = probes_component(pp, i);
		bool ok = !statement;
		if (statement && !strcmp(c->name, "nearest") && !c->arg && !sf->nearest)
			sf->nearest = true;
		else if (ok && !strcmp(c->name, "call") && !c->arg)
			sf->call = true;
		else if (ok && !strcmp(c->name, "return") && !c->arg)
			sf->ret = true;
		else if (ok && !strcmp(c->name, "inline") && !c->arg)
			sf->inl = true;
		else if (ok && !strcmp(c->name, "exported") && !c->arg)
			sf->exported = true;
		else if (ok && !strcmp(c->name, "label") && i == first && probes_ncomponents(pp) == i + 1) {
			if (!c->arg || c->arg->kind != NODE_STR || !*c->arg->u.str) {
				diag_error(c->loc, ".label needs a label name in quotes (wildcards allowed): .label(\"name\")");
				return false;
			}
			sf->label = c->arg->u.str;
		} else if (ok && (!strcmp(c->name, "callee") || !strcmp(c->name, "callees")))
			sf->callee = c;
		else if (ok && !strcmp(c->name, "maxactive") && c->arg && c->arg->kind == NODE_NUM && c->arg->u.num > 0 &&
			 c->arg->u.num <= 4096)
			sf->maxactive = c->arg->u.num;
		else {
			diag_error(c->loc, "unexpected '.%s' here: %s", c->name,
				   statement ? "a statement probe takes only .nearest"
					     : "expected .call, .return, .inline, .exported, .maxactive(N) (1-4096) or .label(\"name\")");
			return false;
		}
	}
	if (sf->callee) {
		struct probe_component *c = sf->callee;
		bool callees = !strcmp(c->name, "callees");
		if (callees ? c->arg && (c->arg->kind != NODE_NUM || c->arg->u.num < 1)
			    : !c->arg || c->arg->kind != NODE_STR || !*c->arg->u.str) {
			diag_error(c->loc, "%s", callees ? ".callees takes a depth of 1 or more: .callees or .callees(N)"
							 : ".callee needs a function name in quotes: .callee(\"name\")");
			return false;
		}
		if (callees && c->arg && c->arg->u.num > CALLEES_MAX_DEPTH) {
			diag_error(c->arg->loc, ".callees(%lld) is too deep: at most .callees(%d), as the run-time check walks "
				   "that many frames up the stack on every hit", (long long)c->arg->u.num, CALLEES_MAX_DEPTH);
			return false;
		}
		if (sf->inl || sf->exported) {
			diag_error(c->loc, ".%s takes only .call, .return or .return.maxactive(N) after it", c->name);
			return false;
		}
	}
	if (sf->maxactive && !sf->ret) {
		diag_error(pp->loc, ".maxactive(N) applies only to .return probes");
		return false;
	}
	if (sf->inl && (sf->ret || sf->call)) {
		diag_error(pp->loc, ".inline cannot be combined with %s: an inlined copy has no call or return",
			   sf->ret ? ".return" : ".call");
		return false;
	}
	return true;
}

static struct target_scope *function_scope(struct debuginfo *di, struct dbg_func *f, uint64_t pc, bool is_return,
					   const char *what)
{
	struct target_scope *sc = ast_alloc(sizeof(*sc));
	sc->di = di;
	dbg_variables(di, f, pc, &sc->vars);
	sc->is_return = is_return;
	sc->ret = f->ret && dbg_type_strip(f->ret) && dbg_type_strip(f->ret)->kind != DBG_VOID ? f->ret : NULL;
	sc->what = what;
	sc->func = f;
	return sc;
}

/* A C type of a system call prototype ("unsigned int", "char *", "struct stat *") in di's terms. */
static struct dbg_type *prototype_type(struct debuginfo *di, const char *ctype)
{
	char *words = ast_strdup(ctype);
	int stars = 0;
	for (char *p = strchr(words, '*'); p; p = strchr(p, '*')) {
		*p++ = '\0';
		stars++;
	}
	size_t len = strlen(words);
	while (len && words[len - 1] == ' ')
		words[--len] = '\0';
	struct dbg_type *t = NULL;
	if (!strncmp(words, "struct ", 7) || !strncmp(words, "union ", 6))
		t = dbg_find_type(di, words);
	else if (!strstr(words, "int") && !strstr(words, "long") && !strstr(words, "short") &&
		 !strstr(words, "char") && !strstr(words, "signed") && strcmp(words, "void"))
		t = dbg_find_type(di, words); /* a typedef: size_t, pid_t, loff_t */
	if (!t && strcmp(words, "void")) {
		/* a base type: char, [unsigned] int, long, long long, short */
		t = dbg_type_new(di, DBG_INT, words, 0);
		t->is_signed = !strstr(words, "unsigned");
		t->size = strstr(words, "char") ? 1 : strstr(words, "short") ? 2 : strstr(words, "long") ? 8 : 4;
		t->is_char = t->size == 1;
	}
	for (int i = 0; i < stars; i++) {
		struct dbg_type *ptr = dbg_type_new(di, DBG_PTR, NULL, 0);
		ptr->size = 8;
		ptr->target = t;
		t = ptr;
	}
	return t;
}

/*
 * A system call's wrapper __x64_sys_F(const struct pt_regs *regs) gets the
 * call's arguments as target variables under the prototype's names ($fd of
 * sys_read), read from the user registers regs points to, as SystemTap's
 * $fd read sys_read's own parameter before the kernel wrapped its calls
 * (DWARF or BTF alike: the prototype comes from the kernel headers).
 */
static void add_syscall_params(struct session *s, struct target_scope *sc, const struct dbg_func *f)
{
	const struct syscalls_param *params;
	const char *prefix = syscalls_wrapper_prefix(s);
	bool arm64 = arch_is_arm64(s);	/* arm64: the user's x0..x5 are regs->regs[0..5] */
	int n = strncmp(f->name, prefix, strlen(prefix)) ? -1 : syscalls_params(s, f->name, &params);
	if (n <= 0 || sc->vars.n != 1)
		return;
	const struct dbg_var *regs = sc->vars.items[0];
	struct dbg_type *pt = dbg_find_type(sc->di, "struct pt_regs");
	static const char *const arg_regs[] = {"di", "si", "dx", "r10", "r8", "r9"};
	for (int i = 0; i < n && i < 6; i++) {
		struct dbg_var *v = ast_alloc(sizeof(*v));
		uint64_t off = 0;
		v->name = params[i].name;
		v->type = prototype_type(sc->di, params[i].ctype);
		v->is_param = true;
		struct dbg_member *m = pt ? dbg_member_find(pt, arm64 ? "regs" : arg_regs[i], &off) : NULL;
		off += arm64 ? 8 * (uint64_t)i : 0;
		if (!v->type || !m || regs->loc.kind != DBG_LOC_REG || regs->loc.value_is_sum)
			v->loc = (struct dbg_loc){.kind = DBG_LOC_NONE,
						  .why = "the system call's registers are not at hand here"};
		else
			/* the argument is regs->ARG: memory at the register holding regs, plus the member */
			v->loc = (struct dbg_loc){.kind = DBG_LOC_MEMORY, .reg = regs->loc.reg, .offset = (int64_t)off};
		vec_push(&sc->vars, v);
	}
}

/* The scope at function f's entry (or return), with a system call's arguments in the kernel. */
static struct target_scope *entry_scope(struct session *s, bool kernel, struct debuginfo *di, struct dbg_func *f,
					bool is_return)
{
	struct target_scope *sc = function_scope(di, f, f->addr, is_return, ast_printf("function %s", f->name));
	if (kernel)
		add_syscall_params(s, sc, f);
	return sc;
}

static const char *where_text(const char *family, const char *name, const char *file, int line)
{
	if (!file)
		return ast_printf("%s(\"%s\")", family, name);
	return ast_printf("%s(\"%s@%s:%d\")", family, name, file, line);
}

static int compare_funcs(const void *a, const void *b)
{
	const struct dbg_func *x = *(const struct dbg_func *const *)a, *y = *(const struct dbg_func *const *)b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->addr > y->addr) - (x->addr < y->addr);
}

/* The kernel image's ftrace sites and blacklist, read once per image; NULL without a DWARF vmlinux. */
static const struct ktext *kernel_text(struct debuginfo *di)
{
	if (!di->ktext_read) {
		const char *err;
		di->ktext_read = true;
		di->ktext = ktext_open_indexed(di->path, di->index, &err);
	}
	return di->ktext;
}

/* More statement probes than this from one point is surely a mistake (and slow to register). */
#define STATEMENT_MAX 10000

/* What one kernel.* or module(...).* point asks for, parsed once for all the modules it names. */
struct request {
	struct probe_point *pp;
	struct probe_component *what;   /* .function(...) or .statement(...) */
	bool statement;
	struct linespec pat;
	struct suffixes sf;
	bool adapted;                   /* pat.func is --adapt's replacement of the script's name */
};

static struct resolved_probe *new_probe(const struct resolved_probe *tmpl, const char *prefix, struct dbg_func *f,
					uint64_t addr)
{
	struct resolved_probe *r = ast_alloc(sizeof(*r));
	struct kprobe_point *kp = ast_alloc(sizeof(*kp));
	*r = *tmpl;
	r->provider = &probe_kprobe;
	r->data = kp;
	kp->symbol = ast_printf("%s%s", prefix, f->symbol);
	kp->offset = (int64_t)(addr - f->symbol_addr);
	return r;
}

/*
 * The kprobes machinery itself (kernel/kprobes.c, arch/ARCH/kernel/kprobes/): a probe there could
 * recurse into the code that runs it, so SystemTap blocklists these files whole, marked or not.
 */
static bool kprobes_own_file(const char *file)
{
	if (!file)
		return false;
	size_t len = strlen(file);
	const char *core = "kernel/kprobes.c";
	bool is_core = len >= strlen(core) && !strcmp(file + len - strlen(core), core) &&
		       (len == strlen(core) || file[len - strlen(core) - 1] == '/');
	return is_core || (strstr(file, "arch/") && strstr(file, "/kernel/kprobes/"));
}

/* Where an inline instance sits: in init text, or in (or inlined into) a blacklisted function, or fine. */
static enum ktext_verdict inline_verdict(const struct ktext *kt, const struct dbg_func *f)
{
	uint64_t site;
	enum ktext_verdict own = ktext_check(kt, f->addr, &site), outer = ktext_check(kt, f->symbol_addr, &site);
	if (own == KTEXT_INIT || own == KTEXT_BLACKLIST)
		return own;
	return outer == KTEXT_INIT || outer == KTEXT_BLACKLIST ? outer : KTEXT_OK;
}

/*
 * A function named alone (no wildcard, file or line) that the BTF does not
 * describe, as the syscall wrappers (__x64_sys_getppid): the symbol table
 * may still have it, so it is probed by name, as kprobe.function would be
 * (a System.map of the target says now if it has no such symbol; without
 * one, only a system call's entry that the BTF vouches for, see
 * kernel_function_unknown). An optional point ('?', as the syscall
 * aliases try their candidates) keeps meaning only what the BTF describes.
 */
static bool by_symbol_only(const struct debuginfo *di, const struct linespec *pat, const struct suffixes *sf)
{
	return (!di || di->source != DBG_SOURCE_DWARF) && !dbg_is_glob(pat->func) && !pat->file &&
	       pat->kind == LINESPEC_NONE && !sf->inl && !sf->label && !sf->callee && !sf->exported;
}

/*
 * The probe on that symbol: no target variables, and the reason said when
 * the body names one (why: the reason, else the BTF of di does not
 * describe the function).
 */
static struct resolved_probe *symbol_probe(const struct resolved_probe *tmpl, const char *prefix, const char *family,
					   const struct linespec *pat, const struct suffixes *sf, const struct debuginfo *di,
					   const char *why)
{
	struct resolved_probe *r = ast_alloc(sizeof(*r));
	*r = *tmpl;
	struct kprobe_point *kp = ast_alloc(sizeof(*kp));
	r->provider = &probe_kprobe;
	r->data = kp;
	kp->symbol = ast_printf("%s%s", prefix, pat->func);
	kp->is_return = sf->ret;
	kp->maxactive = sf->maxactive;
	kp->site_at_load = !*prefix;
	r->pp = ast_printf("%s(\"%s\")%s", family, pat->func, sf->ret ? ".return" : sf->call ? ".call" : "");
	struct target_scope *sc = ast_alloc(sizeof(*sc));
	sc->is_return = sf->ret;
	sc->what = ast_printf("function %s", pat->func);
	sc->no_debuginfo = why ? why : ast_printf("the BTF of %s does not describe it (it is probed by its symbol); "
						 "install the kernel's DWARF (linux-image-RELEASE-dbg) for its variables",
						 di->path);
	r->scope = sc;
	return r;
}

/* Does a plain .function(...) with these suffixes also mean the function's inlined copies? */
static bool covers_inlines(const struct suffixes *sf)
{
	return !sf->call && !sf->ret && !sf->exported && !sf->label && !sf->callee;
}

/* Was pp written in the user's script (not in a tapset alias it expands)? */
static bool written_in_script(struct session *s, const struct probe_point *pp)
{
	return pp->loc.file && s->script && s->script->path && !strcmp(pp->loc.file, s->script->path);
}

/*
 * The out-of-line functions named by the pattern: declared in its file,
 * or for statements (whose lines may come from headers inlined anywhere)
 * only when the file is a .c file, which rules out CUs cheaply.
 */
static void named_functions(struct debuginfo *di, const struct linespec *pat, bool statements, struct vec *out)
{
	size_t n = pat->file ? strlen(pat->file) : 0;
	bool c_file = n > 2 && !strcmp(pat->file + n - 2, ".c");
	dbg_functions(di, pat->func, !statements || c_file ? pat->file : NULL, false, out);
	vec_sort(out, compare_funcs);
}

/* .statement: every line the pattern names that has code, in every matching function; with .nearest the nearest line with code for one without. */
static bool expand_statements(struct session *s, struct request *rq, struct debuginfo *di, const char *family,
			      const char *prefix, const struct resolved_probe *tmpl, struct vec *out)
{
	struct vec funcs = {0}, all = {0};
	named_functions(di, &rq->pat, true, &funcs);
	for (int i = 0; i < funcs.n; i++) {
		struct dbg_func *f = funcs.items[i];
		struct vec lines = {0};
		di->ops->statements(di, f, rq->pat.file, &lines);
		for (int j = 0; j < lines.n; j++)
			vec_push(&all, lines.items[j]);
	}
	struct vec chosen = {0};
	if (rq->sf.nearest)
		linespec_nearest(&rq->pat, &all, &chosen);
	struct vec *lines = rq->sf.nearest ? &chosen : &all;
	for (int j = 0; j < lines->n; j++) {
		struct dbg_line *dl = lines->items[j];
		struct dbg_func *f = dl->func;
		if (!rq->sf.nearest && (!linespec_has_line(&rq->pat, f->line, dl->line) ||
					(rq->pat.kind == LINESPEC_ANY && dl->inlined)))
			continue;
		struct resolved_probe *r = new_probe(tmpl, prefix, f, dl->addr);
		r->pp = where_text(family, f->name, dl->file, dl->line);
		r->scope = function_scope(di, f, dl->addr, false, ast_printf("%s at line %d", f->name, dl->line));
		vec_push(out, r);
		if (out->n > STATEMENT_MAX && !s->list_probes) {
			diag_error(rq->what->arg->loc, "\"%s\" matches more than %d statements", rq->what->arg->u.str,
				   STATEMENT_MAX);
			return false;
		}
	}
	return true;
}

/* .label("glob") of one function: a probe per matching label. */
static void expand_labels(struct request *rq, struct debuginfo *di, struct dbg_func *f, const char *family,
			  const char *prefix, const struct resolved_probe *tmpl, struct vec *out)
{
	struct vec labels = {0};
	di->ops->labels(di, f, rq->sf.label, &labels);
	for (int j = 0; j < labels.n; j++) {
		struct dbg_label *lb = labels.items[j];
		struct resolved_probe *r = new_probe(tmpl, prefix, f, lb->addr);
		r->pp = ast_printf("%s.label(\"%s\")", where_text(family, f->name, f->file, f->line), lb->name);
		r->scope = function_scope(di, f, lb->addr, false, ast_printf("label %s of %s", lb->name, f->name));
		vec_push(out, r);
	}
}

/* The most probes one .callees(N) may expand to: past it, pass 2 fails saying at which depth. */
#define CALLEES_MAX_PROBES 1000

/* One level of a .callee/.callees expansion: the callers above it, outermost first. */
struct callee_walk {
	struct request *rq;
	struct debuginfo *di;
	const struct ktext *kt;
	const struct resolved_probe *tmpl;
	struct vec *out;
	const char *prefix;       /* of the probes' symbols: "" in the kernel, "mod:" in a module */
	const char *glob;
	int depth;                /* levels to expand: 1 for .callee and .callees */
	int nprobes;              /* probes made so far */
	int apart;                /* chains left out: a call site in another section than the callee */
	bool exploded;            /* stopped at CALLEES_MAX_PROBES */
	uint64_t returns[64];     /* the call sites' return addresses, outermost first */
};

/*
 * Whether the call sites above a callee at this level keep their distance
 * from its entry at run time, as the check (link-time differences) needs:
 * always in the kernel image; in a module only those in the callee's own
 * section (a call from f.cold in .text.unlikely to g in .text is not).
 */
static bool callee_chain_together(const struct callee_walk *w, const struct dbg_func *callee, int level)
{
	for (int i = 0; i < level; i++)
		if (!dbg_same_section(w->di, callee->addr, w->returns[i]))
			return false;
	return true;
}

/*
 * .callee("glob") / .callees(N) of one caller: a probe on the entry of each
 * function it calls directly (a DWARF call site, not a tail call) that runs
 * only when the return address is that call site's (runtime/linux/probes/kprobes.c);
 * at depth N, recursively the callees of those callees, each probe keeping
 * the chain of call sites above it, which the runtime checks by walking the
 * stack. pp is the point so far (kernel.function("f").callee("g")...).
 */
static void expand_callees_at(struct callee_walk *w, struct dbg_func *f, const char *pp, int level)
{
	struct vec calls = {0};
	w->di->ops->calls(w->di, f, level == 1 ? w->glob : "*", &calls);
	for (int j = 0; j < calls.n && !w->exploded; j++) {
		struct dbg_call *call = calls.items[j];
		struct vec named = {0};
		struct dbg_func *callee = NULL;
		dbg_functions(w->di, call->callee, NULL, false, &named);
		for (int k = 0; k < named.n && !callee; k++) {
			struct dbg_func *g = named.items[k];
			if (!call->callee_file || (g->file && !strcmp(g->file, call->callee_file)))
				callee = g;
		}
		if (!callee || callee->addr != callee->symbol_addr)
			continue; /* renamed by the compiler (.isra, .constprop): its call sites are not its DWARF's */
		const char *here = callee->file ? ast_printf("%s.callee(\"%s@%s:%d\")", pp, callee->name, callee->file, callee->line)
					       : ast_printf("%s.callee(\"%s\")", pp, callee->name);
		w->returns[level - 1] = call->return_addr;
		uint64_t site;
		bool together = callee_chain_together(w, callee, level);
		w->apart += !together;
		if (together && (!w->kt || ktext_check(w->kt, callee->addr, &site) == KTEXT_OK)) {
			if (w->nprobes == CALLEES_MAX_PROBES) {
				w->exploded = true;
				diag_error(w->rq->sf.callee->loc, ".callees(%d) expands to more than %d probes (at depth %d, under %s); "
					   "use a smaller depth or name the callees with .callee(\"name\")", w->depth,
					   CALLEES_MAX_PROBES, level, pp);
				return;
			}
			w->nprobes++;
			struct resolved_probe *r = new_probe(w->tmpl, w->prefix, callee, callee->addr);
			struct kprobe_point *kp = r->data;
			/* link-time differences from the callee's entry, innermost first */
			kp->callee_return = (int64_t)(w->returns[level - 1] - callee->addr);
			kp->ncallers = level - 1;
			if (kp->ncallers) {
				kp->callers = ast_alloc(sizeof(int64_t) * (size_t)kp->ncallers);
				for (int i = 0; i < kp->ncallers; i++)
					kp->callers[i] = (int64_t)(w->returns[level - 2 - i] - callee->addr);
			}
			kp->is_return = w->rq->sf.ret;
			kp->maxactive = w->rq->sf.maxactive;
			kp->wildcard = true;
			r->pp = ast_printf("%s%s", here, w->rq->sf.ret ? ".return" : w->rq->sf.call ? ".call" : "");
			r->scope = function_scope(w->di, callee, callee->addr, w->rq->sf.ret,
						  ast_printf("function %s called from %s", callee->name, f->name));
			vec_push(w->out, r);
		}
		/* a callee no kprobe may touch still passes its call sites on to the next level */
		if (level < w->depth)
			expand_callees_at(w, callee, here, level + 1);
	}
}

/* What the .callee expansions of all the callers one request matched add up to. */
struct callee_totals {
	int nprobes;              /* probes made, up to CALLEES_MAX_PROBES */
	int apart;                /* chains left out in a module (callee_chain_together) */
};

/*
 * The .callee/.callees probes under f; false once past CALLEES_MAX_PROBES.
 * family ("kernel.function", "module(\"m\").function") and prefix ("", "m:")
 * say where f is.
 */
static bool expand_callees(struct request *rq, struct debuginfo *di, struct dbg_func *f, const char *family,
			   const char *prefix, const struct resolved_probe *tmpl, struct vec *out,
			   struct callee_totals *totals)
{
	struct probe_component *c = rq->sf.callee;
	struct callee_walk w = {.rq = rq, .di = di, .kt = *prefix ? NULL : kernel_text(di), .tmpl = tmpl, .out = out,
				.prefix = prefix, .glob = c->arg && c->arg->kind == NODE_STR ? c->arg->u.str : "*",
				.depth = c->arg && c->arg->kind == NODE_NUM ? (int)c->arg->u.num : 1,
				.nprobes = totals->nprobes};
	expand_callees_at(&w, f, where_text(family, f->name, f->file, f->line), 1);
	totals->nprobes = w.nprobes;
	totals->apart += w.apart;
	return !w.exploded;
}

/*
 * The functions of one module (or the kernel) that the request names;
 * quiet: a module without a match is no error (module("*")). Returns
 * false after a diagnostic; out grows by the matches.
 */
/*
 * The debuginfo of module for request rq, into *out: 1 to go on; 0 when an
 * optional point (or a quiet one) matches nothing here; -1 after an error
 * (no such module, no debuginfo, or what only DWARF knows under BTF).
 */
/*
 * The debuginfo rq needs in *out: 1, or 0 for no match ('?'), -1 after an
 * error; 2 when a module has neither DWARF nor BTF (5.10's modules carry no
 * BTF) but rq names one function plainly: its symbol table may place it,
 * and *why says why it has no target variables.
 */
static int request_debuginfo(struct session *s, const struct request *rq, const char *module, bool quiet,
			     struct debuginfo **out, const char **why)
{
	bool kernel = !strcmp(module, "kernel");
	const char *err = kernel ? NULL : kernel_module_missing(s, module);
	if (err) {
		if (rq->pp->optional)
			return 0; /* '?': no such module is no match */
		diag_error(probes_component(rq->pp, 0)->arg->loc, "%s", err);
		return -1;
	}
	struct debuginfo *di = *out = kernel_debuginfo(s, module, &err);
	if (!di) {
		if (rq->pp->optional || quiet)
			return 0; /* '?': no debuginfo is no match */
		if (!kernel && !rq->statement && by_symbol_only(NULL, &rq->pat, &rq->sf)) {
			*why = err;
			return 2;
		}
		diag_error(rq->what->loc, "%s [see man warning::debuginfo]", err);
		return -1;
	}
	/* what only DWARF knows */
	const char *needs = rq->statement ? "statement probes need" : rq->sf.inl ? ".inline needs"
			    : rq->sf.label ? ".label needs" : rq->sf.callee ? ".callee needs"
			    : rq->pat.file ? "a source file in the pattern needs" : NULL;
	if (needs && di->source != DBG_SOURCE_DWARF) {
		diag_error(rq->what->loc, "%s DWARF debuginfo: %s [see man error::dwarf]", needs, kernel_dwarf_missing(s, module));
		return -1;
	}
	return 1;
}

static bool expand_in(struct session *s, struct request *rq, const char *module, bool quiet,
		      const struct resolved_probe *tmpl, struct vec *out);

/* Does the target kernel have the system call name (syscall.NAME)? */
static bool has_syscall(struct session *s, const char *name)
{
	struct vec names = {0};
	syscalls_names(s, &names);
	for (int i = 0; i < names.n; i++)
		if (!strcmp(names.items[i], name))
			return true;
	return false;
}

/*
 * sys_NAME on a kernel whose system calls have wrappers (x86-64 since
 * 4.17): no such symbol, though without a System.map nothing says so.
 */
static bool syscall_wrapped(struct session *s, const char *name)
{
	return !strncmp(name, "sys_", 4) && !kernel_symbol_known(s, name) && has_syscall(s, name + 4);
}

/*
 * DWARF: the similar names (of const char *) as notes grouped by the file
 * that declares them, only those in the pattern's file if it names one;
 * in the first two .c files, the functions that exist only inlined too
 * (new_sync_read in fs/read_write.c), ranked with the others.
 */
static void similar_by_file(struct debuginfo *di, const struct request *rq, const struct vec *similar,
			    struct vec *notes)
{
	struct vec files = {0}, lists = {0}; /* lists: per file, a struct vec * of its out-of-line names */
	for (int i = 0; i < similar->n; i++) {
		struct vec funcs = {0};
		dbg_functions(di, similar->items[i], rq->pat.file, false, &funcs);
		if (!funcs.n)
			continue;
		const char *file = ((struct dbg_func *)funcs.items[0])->file;
		file = file ? file : "an unknown file";
		int f = 0;
		while (f < files.n && strcmp(files.items[f], file))
			f++;
		if (f == files.n) {
			vec_push(&files, (void *)file);
			vec_push(&lists, ast_alloc(sizeof(struct vec)));
		}
		vec_push(lists.items[f], similar->items[i]);
	}
	for (int f = 0; f < files.n; f++) {
		const char *file = files.items[f];
		struct vec *own = lists.items[f], names = *own, ranked = {0};
		if (f < 2 && strlen(file) > 2 && !strcmp(file + strlen(file) - 2, ".c")) {
			struct vec copies = {0};
			names = (struct vec){0};
			dbg_functions(di, "*", file, true, &copies);
			for (int i = 0; i < own->n; i++)
				vec_push(&names, own->items[i]);
			for (int i = 0; i < copies.n; i++)
				vec_push(&names, (void *)((struct dbg_func *)copies.items[i])->name);
		}
		suggest_similar_among(&names, rq->pat.func, NULL, &ranked);
		const char *list = "";
		for (int i = 0; i < ranked.n; i++) {
			bool out_of_line = false;
			for (int j = 0; j < own->n && !out_of_line; j++)
				out_of_line = !strcmp(own->items[j], ranked.items[i]);
			list = ast_printf("%s%s%s%s", list, i ? ", " : "", (const char *)ranked.items[i],
					  out_of_line ? "" : " (only inlined)");
		}
		vec_push(notes, ast_printf("functions of similar name in %s: %s", file, list));
	}
}

/*
 * A function name the target does not have (suggest.h): what it has
 * instead, as notes (of const char *); returns the one --adapt may use
 * (the x86-64 entry of a system call, else the only prefixed name, else
 * the NAME_noprof an allocator became), or NULL. A function of similar name is another function, so --adapt never
 * takes one: the note lists them for the user to choose.
 */
static const char *function_instead(struct session *s, const struct request *rq, struct debuginfo *di, bool kernel,
				    struct vec *notes)
{
	const char *name = rq->pat.func;
	struct vec prefixed = {0}, similar = {0};
	suggest_prefixed(di, name, &prefixed);
	const char *base = strncmp(name, "sys_", 4) ? NULL : name + 4;
	bool alias = kernel && base && has_syscall(s, base);
	/*
	 * BTF describes __do_sys_NAME, not the __x64_sys_NAME wrapper: the
	 * System.map knows it; without one, every system call of an x86-64
	 * kernel (which has the syscall alias) is entered there.
	 */
	const char *x64 = ast_join(syscalls_wrapper_prefix(s), "", base ? base : name);
	if (kernel && di->source != DBG_SOURCE_DWARF && (!prefixed.n || strcmp(prefixed.items[0], x64)) &&
	    !kernel_symbol_missing(s, x64) && (alias || kernel_symbol_known(s, x64))) {
		vec_push(&prefixed, NULL);
		memmove(prefixed.items + 1, prefixed.items, sizeof(prefixed.items[0]) * (size_t)(prefixed.n - 1));
		prefixed.items[0] = (void *)x64;
	}
	if (prefixed.n || alias) {
		const char *list = "";
		for (int i = 0; i < prefixed.n; i++)
			list = ast_printf("%s%s%s", list, i ? ", " : "", (const char *)prefixed.items[i]);
		vec_push(notes, ast_printf("the kernel has it behind %s%s%s", prefixed.n ? "a prefix: " : "",
					   list, alias ? ast_printf("%sthe alias syscall.%s", prefixed.n ? "; or use " : "no prefix; use ",
								    base) : ""));
		if (prefixed.n && !strncmp(prefixed.items[0], x64, strlen(syscalls_wrapper_prefix(s))))
			return prefixed.items[0]; /* what sys_NAME was for a 64-bit caller */
		return prefixed.n == 1 ? prefixed.items[0] : NULL;
	}
	/* 6.10's allocation profiling: kmem_cache_alloc and its kin became macros over NAME_noprof */
	const char *noprof = ast_join(name, "", "_noprof");
	struct vec renamed = {0};
	dbg_functions(di, noprof, NULL, false, &renamed);
	if (kernel && renamed.n) {
		vec_push(notes, ast_printf("the kernel has it as %s (with allocation profiling, %s is a macro)", noprof, name));
		return noprof;
	}
	suggest_similar(di, name, NULL, &similar);
	if (di->source != DBG_SOURCE_DWARF) {
		if (similar.n) {
			const char *list = "";
			for (int i = 0; i < similar.n; i++)
				list = ast_printf("%s%s%s", list, i ? ", " : "", (const char *)similar.items[i]);
			vec_push(notes, ast_printf("functions of similar name: %s (BTF has no source files: with DWARF, "
						   "stapc groups them by file and adds those only inlined there)", list));
		}
		return NULL; /* another function, not this one renamed: never adapted */
	}
	similar_by_file(di, rq, &similar, notes);
	return NULL; /* another function, not this one renamed: never adapted */
}

/*
 * No function matches rq's name: the error, with what the kernel has
 * instead; or with --adapt and one candidate, a warning and the probes on
 * that function. Returns false after an error.
 */
static bool missing_function(struct session *s, struct request *rq, const char *module, bool quiet,
			     const struct resolved_probe *tmpl, struct vec *out, struct debuginfo *di, const char *error)
{
	struct node *arg = rq->what->arg;
	bool kernel = !strcmp(module, "kernel");
	struct vec notes = {0};
	bool plain = !rq->adapted && !rq->sf.label && !rq->sf.callee && !dbg_is_glob(rq->pat.func) &&
		     !strncmp(arg->u.str, rq->pat.func, strlen(rq->pat.func));
	if (plain && di->source == DBG_SOURCE_DWARF && (rq->sf.call || rq->sf.ret || rq->sf.exported)) {
		/* only inlined copies (.call, .return): the function is there, nothing is said instead */
		struct vec copies = {0};
		dbg_functions(di, rq->pat.func, rq->pat.file, true, &copies);
		plain = !copies.n;
	}
	const char *instead = plain ? function_instead(s, rq, di, kernel, &notes) : NULL;
	if (instead && s->adapt) {
		const char *family = kernel ? "kernel" : ast_printf("module(\"%s\")", module);
		const char *old = rq->pat.func;
		diag_warning(arg->loc, "adapted %s.function(\"%s\") to %s.function(\"%s%s\") (--adapt)", family,
			     arg->u.str, family, instead, arg->u.str + strlen(old));
		rq->pat.func = instead;
		rq->adapted = true;
		bool ok = expand_in(s, rq, module, quiet, tmpl, out);
		rq->pat.func = old;
		rq->adapted = false;
		return ok;
	}
	diag_error(arg->loc, "%s", error);
	for (int i = 0; i < notes.n; i++)
		diag_note(arg->loc, "%s", (const char *)notes.items[i]);
	if (kernel && di->source != DBG_SOURCE_DWARF && !kernel_has_symbol_table(s))
		diag_note(arg->loc, "nor can its symbol table say: %s has no System.map (install linux-image-%s-dbg for "
			  "it)", s->release, s->release);
	if (notes.n && s->adapt)
		diag_note(arg->loc, "--adapt takes only one prefixed or _noprof name of the same function, never a similar name");
	return false;
}

/* The functions rq's .function("...") names in di: out-of-line ones, inline instances (.inline), or both. */
static void matching_functions(struct session *s, const struct request *rq, struct debuginfo *di, struct vec *funcs)
{
	if (rq->sf.inl) {
		dbg_functions(di, rq->pat.func, rq->pat.file, true, funcs);
		vec_sort(funcs, compare_funcs);
		return;
	}
	named_functions(di, &rq->pat, false, funcs);
	/*
	 * A plain .function covers the inlined copies too (man stapprobes);
	 * .call, .return, .exported, .label and .callee mean the out-of-line
	 * function. Only DWARF records inline instances. A point of a tapset
	 * alias means the out-of-line function, as stapc's tapset is written
	 * (its bodies read parameters an inlined copy may have optimized out).
	 */
	if (covers_inlines(&rq->sf) && di->source == DBG_SOURCE_DWARF && written_in_script(s, rq->pp)) {
		dbg_functions(di, rq->pat.func, rq->pat.file, true, funcs);
		vec_sort(funcs, compare_funcs);
	}
}

/*
 * A module function named plainly, the module without debuginfo (why):
 * the probe on its symbol if the .ko's symbol table has it, else the error.
 */
static bool module_symbol_probe(struct session *s, const struct request *rq, const char *module, const char *family,
				const char *prefix, const struct resolved_probe *tmpl, struct vec *out, const char *why)
{
	const char *missing = kernel_module_function_missing(s, module, rq->pat.func);
	if (missing) {
		diag_error(rq->what->arg->loc, "%s; and %s [see man warning::debuginfo]", why, missing);
		return false;
	}
	vec_push(out, symbol_probe(tmpl, prefix, family, &rq->pat, &rq->sf, NULL,
				   ast_printf("%s (it is probed by its symbol)", why)));
	return true;
}

static bool expand_in(struct session *s, struct request *rq, const char *module, bool quiet,
		      const struct resolved_probe *tmpl, struct vec *out)
{
	struct probe_point *pp = rq->pp;
	struct probe_component *what = rq->what;
	struct suffixes sf = rq->sf;
	struct linespec pat = rq->pat;
	bool kernel = !strcmp(module, "kernel");
	const char *family = ast_printf("%s%s", kernel ? "kernel" : ast_printf("module(\"%s\")", module),
					rq->statement ? ".statement" : ".function");
	struct debuginfo *di;
	const char *why = NULL;
	int got = request_debuginfo(s, rq, module, quiet, &di, &why);
	if (got <= 0)
		return got == 0;
	const char *prefix = kernel ? "" : ast_printf("%s:", kernel_module_name(module));
	if (got == 2)
		return module_symbol_probe(s, rq, module, family, prefix, tmpl, out, why);
	int before = out->n;
	if (rq->statement) {
		if (!expand_statements(s, rq, di, family, prefix, tmpl, out))
			return false;
		if (out->n == before && !pp->optional && !quiet) {
			diag_error(what->arg->loc, "no code for line%s %s of %s in a function matching '%s' in %s",
				   linespec_single(&pat) ? "" : "s", linespec_lines_text(&pat) + (*linespec_lines_text(&pat) == ':'),
				   pat.file, pat.func, di->path);
			return false;
		}
		return true;
	}
	struct vec funcs = {0};
	matching_functions(s, rq, di, &funcs);
	/*
	 * A wildcard leaves out the matches no probe can attach to: functions
	 * in .init.text, on the kprobes blacklist, or without an ftrace site
	 * (notrace); counted, and said with -v. A function named without a
	 * wildcard is kept and fails at registration as the kernel says.
	 * Only the vmlinux with DWARF tells (ktext.h); with BTF every match is
	 * tried, and a wildcard match that fails is skipped at run time.
	 */
	bool wildcard = dbg_is_glob(pat.func) || (pat.file && dbg_is_glob(pat.file)) || quiet;
	const struct ktext *kt = kernel && di->source == DBG_SOURCE_DWARF ? kernel_text(di) : NULL;
	int skipped[KTEXT_NOTRACE + 1] = {0}, nskipped = 0;
	struct callee_totals callees = {0};
	for (int i = 0; i < funcs.n; i++) {
		struct dbg_func *f = funcs.items[i];
		if (pat.kind == LINESPEC_RANGES || pat.kind == LINESPEC_RELATIVE) {
			/* the functions that span one of the lines (an inline instance: its declaration line) */
			if (f->inlined ? !linespec_has_line(&pat, f->line, f->line) : !linespec_function_spans(&pat, di, f))
				continue;
		}
		if (sf.exported && !f->exported)
			continue;
		if (sf.label) {
			expand_labels(rq, di, f, family, prefix, tmpl, out);
			continue;
		}
		if (sf.callee) {
			if (!expand_callees(rq, di, f, family, prefix, tmpl, out, &callees))
				return false;
			continue;
		}
		uint64_t site = 0;
		/* an inline instance has no ftrace site of its own: a kprobe at its address */
		enum ktext_verdict verdict = kt && !f->inlined ? ktext_check(kt, f->addr, &site) : KTEXT_OK;
		if (kernel && kprobes_own_file(f->file))
			verdict = KTEXT_BLACKLIST;
		else if (kt && f->inlined && (verdict = inline_verdict(kt, f)) != KTEXT_OK) {
			/* a copy inlined into code no kprobe may touch: never a probe, named or not */
			skipped[verdict]++;
			nskipped++;
			continue;
		}
		if (verdict != KTEXT_OK && wildcard) {
			skipped[verdict]++;
			nskipped++;
			continue;
		}
		if ((verdict == KTEXT_INIT || verdict == KTEXT_BLACKLIST) && !sf.label && !sf.callee) {
			/* named without a wildcard: SystemTap refuses it at pass 2, or skips it with '?' */
			if (pp->optional)
				continue;
			diag_error(what->arg->loc, "function '%s' cannot be probed: %s", f->name,
				   verdict == KTEXT_INIT	  ? "it is in .init.text or .exit.text, freed after boot"
				   : kprobes_own_file(f->file) ? ast_printf("it is part of kprobes itself (%s)", f->file)
							       : "it is on the kernel's kprobes blacklist");
			return false;
		}
		/* BTF also describes a module's .init.text functions, freed before a probe can attach */
		if (!kernel && di->source != DBG_SOURCE_DWARF && kernel_module_function_missing(s, module, f->symbol))
			continue;
		struct resolved_probe *r = new_probe(tmpl, prefix, f, f->addr);
		struct kprobe_point *kp = r->data;
		kp->is_return = sf.ret;
		kp->maxactive = sf.maxactive;
		kp->ftrace_site = verdict == KTEXT_OK && f->addr == f->symbol_addr ? site : 0;
		kp->ktext = kt;
		kp->site_at_load = kernel && di->source != DBG_SOURCE_DWARF && !f->inlined && f->addr == f->symbol_addr;
		kp->wildcard = wildcard;
		r->pp = ast_printf("%s%s%s%s", where_text(family, f->name, f->file, f->line), sf.inl ? ".inline" : "",
				   sf.exported ? ".exported" : "", sf.ret ? ".return" : sf.call ? ".call" : "");
		r->scope = entry_scope(s, kernel, di, f, sf.ret);
		vec_push(out, r);
	}
	const char *why_skipped = ast_printf("%d in .init.text, %d on the kprobes blacklist, %d without an ftrace site",
					     skipped[KTEXT_INIT], skipped[KTEXT_BLACKLIST], skipped[KTEXT_NOTRACE]);
	if (nskipped && s->verbose)
		fprintf(stderr, "%s:%d:%d: %s(\"%s\"): %d functions match, %d skipped (%s)\n", what->arg->loc.file,
			what->arg->loc.line, what->arg->loc.col, family, what->arg->u.str, out->n - before + nskipped,
			nskipped, why_skipped);
	if (callees.apart && s->verbose)
		fprintf(stderr, "%s:%d:%d: %s(\"%s\"): %d callees left out: called from another section of the module "
			"(the distance is known only once loaded)\n", what->arg->loc.file, what->arg->loc.line,
			what->arg->loc.col, family, what->arg->u.str, callees.apart);
	if (out->n == before && !funcs.n && !quiet && !pp->optional && by_symbol_only(di, &pat, &sf) &&
	    (kernel ? !kprobe_function_unknown(s, pat.func) && !syscall_wrapped(s, pat.func)
		    : !kernel_module_function_missing(s, module, pat.func))) {
		vec_push(out, symbol_probe(tmpl, prefix, family, &pat, &sf, di, NULL));
		return true;
	}
	if (out->n == before && !pp->optional && !quiet) {
		const char *where = ast_printf("%s (%s)", kernel ? "the kernel" : ast_printf("module %s", module),
					       di->source == DBG_SOURCE_DWARF ? ast_printf("DWARF of %s", di->path)
									      : ast_printf("BTF of %s", di->path));
		if (sf.label && funcs.n)
			diag_error(what->arg->loc, "no label matching \"%s\" in a function matching \"%s\" in %s", sf.label,
				   what->arg->u.str, where);
		else if (sf.callee && funcs.n)
			diag_error(what->arg->loc, "a function matching \"%s\" calls no probeable function matching \"%s\" "
				   "at a call site DWARF records in %s", what->arg->u.str,
				   sf.callee->arg && sf.callee->arg->kind == NODE_STR ? sf.callee->arg->u.str : "*", where);
		else if (!funcs.n)
			return missing_function(s, rq, module, quiet, tmpl, out, di,
						ast_printf("no %s%sfunction matches \"%s\" in %s [see man error::pass2]",
							   sf.inl ? "inlined " : sf.call || sf.ret ? "out-of-line " : "",
							   sf.exported ? "exported " : "", what->arg->u.str, where));
		else
			diag_error(what->arg->loc, "no %s%sfunction matches \"%s\" in %s%s [see man error::pass2]",
				   sf.inl ? "inlined " : sf.call || sf.ret ? "out-of-line " : "",
				   sf.exported ? "exported " : "", what->arg->u.str, where,
				   nskipped ? ast_printf(" that a probe can attach to: %d skipped (%s)", nskipped, why_skipped) : "");
		return false;
	}
	return true;
}

/* The out-of-line function whose symbol starts at addr (want_start) or whose code holds it, or NULL. */
static struct dbg_func *function_at(struct debuginfo *di, uint64_t addr, bool want_start)
{
	const char *name = NULL;
	uint64_t start = addr;
	struct vec starts = {0}, funcs = {0};
	dbg_func_starts(di, ".text", &starts);
	for (int i = 0; i < starts.n && !name; i++) {
		const struct dbg_func_start *fs = starts.items[i];
		if (want_start ? fs->addr == addr : fs->addr <= addr && addr < fs->addr + fs->size) {
			name = fs->name;
			start = fs->addr;
		}
	}
	if (!name)
		return NULL;
	dbg_functions(di, name, NULL, false, &funcs);
	for (int i = 0; i < funcs.n; i++) {
		struct dbg_func *f = funcs.items[i];
		if (f->symbol_addr == start && !f->inlined)
			return f;
	}
	return NULL;
}

/*
 * kernel.function(ADDRESS)[.call|.return], kernel.statement(ADDRESS): the
 * link-time address of a function's entry, or of an instruction of one
 * (DWARF), attached as its symbol plus offset (so KASLR moves it along);
 * kernel.statement(ADDRESS).absolute (guru): the running kernel's address,
 * unchecked, without debuginfo.
 */
static bool address_expand(struct session *s, struct request *rq, const struct resolved_probe *tmpl, struct vec *out)
{
	struct probe_point *pp = rq->pp;
	uint64_t addr = (uint64_t)rq->what->arg->u.num;
	struct probe_component *next = probes_component(pp, 2);
	const char *family = rq->statement ? "kernel.statement" : "kernel.function";
	if (rq->statement && next && !strcmp(next->name, "absolute") && !next->arg && probes_ncomponents(pp) == 3) {
		if (!s->guru) {
			diag_error(next->loc, "kernel.statement(ADDRESS).absolute needs guru mode (-g): the address is not "
				   "checked against the kernel's code");
			return false;
		}
		struct resolved_probe *r = ast_alloc(sizeof(*r));
		struct kprobe_point *kp = ast_alloc(sizeof(*kp));
		*r = *tmpl;
		r->provider = &probe_kprobe;
		r->data = kp;
		kp->offset = (int64_t)addr;
		r->pp = ast_printf("kernel.statement(0x%llx).absolute", (unsigned long long)addr);
		vec_push(out, r);
		return true;
	}
	if (!parse_suffixes(pp, 2, rq->statement, &rq->sf))
		return false;
	if (rq->sf.inl || rq->sf.label || rq->sf.callee || rq->sf.exported || rq->sf.nearest) {
		diag_error(pp->loc, "%s(ADDRESS) takes only .call, .return or .return.maxactive(N) after it", family);
		return false;
	}
	const char *err = NULL;
	struct debuginfo *di = kernel_debuginfo(s, "kernel", &err);
	if (!di) {
		diag_error(rq->what->loc, "%s", err);
		return false;
	}
	if (di->source != DBG_SOURCE_DWARF) {
		diag_error(rq->what->arg->loc, "%s(ADDRESS) needs the kernel's DWARF (its symbol table and line "
			   "tables): BTF has no addresses; name the function instead", family);
		return false;
	}
	struct dbg_func *f = function_at(di, addr, !rq->statement);
	if (!f) {
		if (pp->optional)
			return true;
		diag_error(rq->what->arg->loc, "no function of kernel %s %s address 0x%llx", s->release,
			   rq->statement ? "holds" : "starts at", (unsigned long long)addr);
		return false;
	}
	struct resolved_probe *r = new_probe(tmpl, "", f, rq->statement ? addr : f->addr);
	struct kprobe_point *kp = r->data;
	kp->is_return = rq->sf.ret;
	kp->maxactive = rq->sf.maxactive;
	r->pp = ast_printf("%s(0x%llx)%s", family, (unsigned long long)addr,
			   rq->sf.ret ? ".return" : rq->sf.call ? ".call" : "");
	r->scope = function_scope(di, f, rq->statement ? addr : f->addr, rq->sf.ret,
				  ast_printf("%s at 0x%llx", f->name, (unsigned long long)addr));
	vec_push(out, r);
	return true;
}

static bool kernel_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl, struct vec *out)
{
	struct probe_component *first = probes_component(pp, 0);
	const char *module = "kernel";
	if (!strcmp(first->name, "module")) {
		if (!first->arg || first->arg->kind != NODE_STR || !*first->arg->u.str) {
			diag_error(first->loc, "module needs a module name or pattern in quotes: module(\"name\")");
			return false;
		}
		module = first->arg->u.str;
	} else if (first->arg) {
		diag_error(first->loc, "'kernel' takes no argument");
		return false;
	}
	struct probe_component *what = probes_component(pp, 1);
	struct request rq = {.pp = pp, .what = what, .statement = what && !strcmp(what->name, "statement")};
	if (what && what->arg && what->arg->kind == NODE_NUM && (rq.statement || !strcmp(what->name, "function"))) {
		if (strcmp(module, "kernel")) {
			diag_error(what->arg->loc, "an address probe is in the kernel: module(\"m\").%s(ADDRESS) is not "
				   "supported", what->name);
			return false;
		}
		return address_expand(s, &rq, tmpl, out);
	}
	if (what && !strcmp(what->name, "mark") && !strcmp(module, "kernel")) {
		/* the markers API left Linux in 2.6.32; man stapprobes: kernel.mark needs a kernel that has it */
		diag_error(what->loc, "kernel.mark(...) needs kernel markers, which Linux removed in 2.6.32 (this "
			   "kernel has none): use the tracepoint, kernel.trace(\"name\")");
		return false;
	}
	if (!what || (!rq.statement && strcmp(what->name, "function")) || !what->arg || what->arg->kind != NODE_STR) {
		diag_error(what ? what->loc : pp->loc, "expected %s.function(\"pattern\")%s", first->name,
			   !strcmp(module, "kernel") ? ", kernel.statement(\"func@file:line\") or kernel.trace(\"name\")"
						    : " or .statement(\"func@file:line\")");
		return false;
	}
	if (!linespec_parse(what->arg->u.str, &rq.pat, what->arg->loc) || !parse_suffixes(pp, 2, rq.statement, &rq.sf))
		return false;
	if (rq.statement && (rq.pat.kind == LINESPEC_NONE || !rq.pat.file)) {
		diag_error(what->arg->loc, "a statement probe needs \"func@file:LINES\" (LINES: N, N-M, a list of those, "
			   "'*', or +N past the function's declaration)");
		return false;
	}
	if (!dbg_is_glob(module))
		return expand_in(s, &rq, module, false, tmpl, out);
	/* module("pattern"): every installed module of the target it matches whose symbols have the function */
	struct vec mods = {0};
	kernel_modules_matching(s, module, &mods);
	int n = 0;
	for (int i = 0; i < mods.n; i++) {
		if (!rq.sf.inl && !kernel_module_has_function(s, mods.items[i], rq.pat.func))
			continue;
		n++;
		if (!expand_in(s, &rq, mods.items[i], true, tmpl, out))
			return false;
	}
	if (!out->n && !pp->optional) {
		diag_error(what->arg->loc, "no module matching \"%s\" of kernel %s has %s matching \"%s\" (%d of %d "
			   "modules have a function of that name)", module, s->release,
			   rq.statement ? "code" : rq.sf.label ? "a label in a function" : "a function", what->arg->u.str,
			   n, mods.n);
		return false;
	}
	return true;
}

const struct probe_provider probe_kernel = {
	.name = "kernel",
	.also = (const char *const[]){"module", NULL},
	.patterns = (const char *const[]){
		"kernel.function(number){,.call,.return,.return.maxactive(number)}",
		"kernel.statement(number){,.absolute}",
		"{kernel,module(string)}.function(string){,.call,.return,.return.maxactive(number),.inline,.exported,.exported.call,.exported.return,.label(string),.callee(string),.callee(string).call,.callee(string).return,.callees,.callees.call,.callees.return,.callees(number),.callees(number).call,.callees(number).return}",
		"{kernel,module(string)}.statement(string){,.nearest}",
		NULL,
	},
	.expand = kernel_expand,
};
