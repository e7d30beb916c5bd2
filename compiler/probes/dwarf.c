/*
 * probes/dwarf.c - kernel.function / kernel.statement / module("m").function
 * and .statement: functions found in the -r target's debuginfo (DWARF, or BTF
 * without it), attached as kprobes by symbol name plus offset.
 *
 *   kernel.function("PATTERN")[.call|.return|.inline][.exported][.maxactive(N)]
 *   kernel.statement("func@file:line")
 *   module("name").function("PATTERN")...   module("name").statement(...)
 *   kernel.trace("...")                     handed to probes/tracepoint.c
 *
 * PATTERN is func, func@file or func@file:lines (lines N, N-M, a list of
 * those separated by ',', or '*': functions declared there); func and file
 * take wildcards. kernel.function("f") is the function's out-of-line entry (what BTF also knows, so both sources
 * probe the same places); .inline its inlined copies (DWARF only). Each
 * match becomes one resolved probe of the kprobe family, with the variables
 * visible at the probed address as its target-variable scope.
 */
#include <stdlib.h>
#include <string.h>

#include "debuginfo/kernel.h"
#include "debuginfo/ktext.h"
#include "diag.h"
#include "probes.h"
#include "targetvar.h"

/* A parsed "func@file:lines" pattern. */
struct fpattern {
	const char *func;   /* glob */
	const char *file;   /* glob or NULL */
	int line_lo;        /* the first range: 0 if no line or ':*' */
	int line_hi;
	int nranges;        /* ':x,y-z': line ranges, 0 for any line */
	int ranges[16][2];  /* [lo, hi] */
};

/* Does line fall in the pattern's lines (any line without a line part or with ':*')? */
static bool pattern_has_line(const struct fpattern *p, int line)
{
	for (int i = 0; i < p->nranges; i++)
		if (line >= p->ranges[i][0] && line <= p->ranges[i][1])
			return true;
	return p->nranges == 0;
}

/* ":N", ":N-M", ":x,y-z" (at most 16 ranges) or ":*". */
static bool parse_lines(char *text, struct fpattern *p)
{
	size_t len = strlen(text);
	if (!strcmp(text, "*"))
		return true;
	if (!len || text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,"))
		return false;
	for (char *part = strtok(text, ","); part; part = strtok(NULL, ",")) {
		char *end;
		if (p->nranges == 16)
			return false;
		int lo = (int)strtol(part, &end, 10), hi = lo;
		if (end == part)
			return false;
		if (*end == '-')
			hi = (int)strtol(end + 1, &end, 10);
		if (*end || lo <= 0 || hi < lo)
			return false;
		p->ranges[p->nranges][0] = lo;
		p->ranges[p->nranges][1] = hi;
		p->nranges++;
	}
	if (!p->nranges)
		return false;
	p->line_lo = p->ranges[0][0];
	p->line_hi = p->ranges[0][1];
	return true;
}

static bool parse_pattern(const char *text, struct fpattern *p, struct srcloc loc)
{
	char *s = ast_strdup(text);
	memset(p, 0, sizeof(*p));
	char *at = strchr(s, '@');
	if (at) {
		*at++ = '\0';
		char *colon = strrchr(at, ':');
		if (colon) {
			*colon++ = '\0';
			if (!parse_lines(ast_strdup(colon), p)) {
				diag_error(loc, "bad line number '%s' in \"%s\" (expected N, N-M, a list of those "
					   "separated by ',', or '*')", colon, text);
				return false;
			}
		}
		if (!*at) {
			diag_error(loc, "missing file name after '@' in \"%s\"", text);
			return false;
		}
		p->file = at;
	}
	if (!*s) {
		diag_error(loc, "missing function name in \"%s\"", text);
		return false;
	}
	p->func = s;
	return true;
}

/* The suffixes after function("..."). */
struct suffixes {
	bool call, ret, inl, exported;
	int64_t maxactive;
};

static bool parse_suffixes(struct probe_point *pp, int first, bool statement, struct suffixes *sf)
{
	memset(sf, 0, sizeof(*sf));
	for (int i = first; i < probes_ncomponents(pp); i++) {
		struct probe_component *c = probes_component(pp, i);
		bool ok = !statement;
		if (ok && !strcmp(c->name, "call") && !c->arg)
			sf->call = true;
		else if (ok && !strcmp(c->name, "return") && !c->arg)
			sf->ret = true;
		else if (ok && !strcmp(c->name, "inline") && !c->arg)
			sf->inl = true;
		else if (ok && !strcmp(c->name, "exported") && !c->arg)
			sf->exported = true;
		else if (ok && !strcmp(c->name, "maxactive") && c->arg && c->arg->kind == NODE_NUM && c->arg->u.num > 0 &&
			 c->arg->u.num <= 4096)
			sf->maxactive = c->arg->u.num;
		else {
			diag_error(c->loc, "unexpected '.%s' here: %s", c->name,
				   statement ? "a statement probe takes no suffix"
					     : "expected .call, .return, .inline, .exported or .maxactive(N) (1-4096)");
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

/* The kernel image's ftrace sites and blacklist, read once per run; NULL without a DWARF vmlinux. */
static const struct ktext *kernel_text(struct debuginfo *di)
{
	static const char *path;
	static const struct ktext *k;
	if (!path || strcmp(path, di->path)) {
		const char *err;
		path = di->path;
		k = ktext_open(path, &err);
	}
	return k;
}

static bool kernel_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl, struct vec *out)
{
	struct probe_component *first = probes_component(pp, 0);
	const char *module = "kernel";
	if (!strcmp(first->name, "module")) {
		if (!first->arg || first->arg->kind != NODE_STR || !*first->arg->u.str || dbg_is_glob(first->arg->u.str)) {
			diag_error(first->loc, "module needs a module name in quotes (no wildcards): module(\"name\")");
			return false;
		}
		module = first->arg->u.str;
	} else if (first->arg) {
		diag_error(first->loc, "'kernel' takes no argument");
		return false;
	}
	struct probe_component *what = probes_component(pp, 1);
	if (what && !strcmp(what->name, "trace") && !strcmp(module, "kernel"))
		return probe_tracepoint.expand(s, pp, tmpl, out);
	bool statement = what && !strcmp(what->name, "statement");
	if (!what || (!statement && strcmp(what->name, "function")) || !what->arg || what->arg->kind != NODE_STR) {
		diag_error(what ? what->loc : pp->loc, "expected %s.function(\"pattern\")%s", first->name,
			   !strcmp(module, "kernel") ? ", kernel.statement(\"func@file:line\") or kernel.trace(\"name\")"
						    : " or .statement(\"func@file:line\")");
		return false;
	}
	struct fpattern pat;
	struct suffixes sf;
	if (!parse_pattern(what->arg->u.str, &pat, what->arg->loc) || !parse_suffixes(pp, 2, statement, &sf))
		return false;
	const char *family = ast_printf("%s%s", !strcmp(module, "kernel") ? "kernel" : ast_printf("module(\"%s\")", module),
					statement ? ".statement" : ".function");
	const char *err = strcmp(module, "kernel") ? kernel_module_missing(s, module) : NULL;
	if (err) {
		if (pp->optional)
			return true; /* '?': no such module is no match */
		diag_error(first->arg->loc, "%s", err);
		return false;
	}
	struct debuginfo *di = kernel_debuginfo(s, module, &err);
	if (!di) {
		if (pp->optional)
			return true; /* '?': no debuginfo is no match */
		diag_error(what->loc, "%s", err);
		return false;
	}
	/* what only DWARF knows */
	const char *needs = statement ? "statement probes need" : sf.inl ? ".inline needs"
			    : pat.file ? "a source file in the pattern needs" : NULL;
	if (needs && di->source != DBG_SOURCE_DWARF) {
		diag_error(what->loc, "%s DWARF debuginfo: %s", needs, kernel_dwarf_missing(s, module));
		return false;
	}
	const char *prefix = strcmp(module, "kernel") ? ast_printf("%s:", kernel_module_name(module)) : "";
	if (statement) {
		if (pat.nranges != 1 || pat.line_lo != pat.line_hi || !pat.file) {
			diag_error(what->arg->loc, "a statement probe needs \"func@file:line\" with one line number");
			return false;
		}
		struct vec lines = {0};
		di->ops->lines(di, pat.func, pat.file, pat.line_lo, &lines);
		if (!lines.n) {
			if (pp->optional)
				return true;
			diag_error(what->arg->loc, "no code for line %d of %s in a function matching '%s' in %s", pat.line_lo,
				   pat.file, pat.func, di->path);
			return false;
		}
		for (int i = 0; i < lines.n; i++) {
			struct dbg_line *dl = lines.items[i];
			struct resolved_probe *r = ast_alloc(sizeof(*r));
			*r = *tmpl;
			r->provider = &probe_kprobe;
			r->symbol = ast_printf("%s%s", prefix, dl->func->symbol);
			r->offset = (int64_t)(dl->addr - dl->func->symbol_addr);
			r->pp = where_text(family, dl->func->name, dl->file, dl->line);
			r->scope = function_scope(di, dl->func, dl->addr, false,
						  ast_printf("%s at line %d", dl->func->name, dl->line));
			vec_push(out, r);
		}
		return true;
	}
	struct vec funcs = {0};
	dbg_functions(di, pat.func, pat.file, sf.inl, &funcs);
	vec_sort(&funcs, compare_funcs);
	/*
	 * A wildcard leaves out the matches no probe can attach to: functions
	 * in .init.text, on the kprobes blacklist, or without an ftrace site
	 * (notrace); counted, and said with -v. A function named without a
	 * wildcard is kept and fails at registration as the kernel says.
	 * Only the vmlinux with DWARF tells (ktext.h); with BTF every match is
	 * tried, and a wildcard match that fails is skipped at run time.
	 */
	bool wildcard = dbg_is_glob(pat.func) || (pat.file && dbg_is_glob(pat.file));
	const struct ktext *kt = !strcmp(module, "kernel") && di->source == DBG_SOURCE_DWARF && !sf.inl
				 ? kernel_text(di) : NULL;
	int skipped[KTEXT_NOTRACE + 1] = {0}, nskipped = 0;
	for (int i = 0; i < funcs.n; i++) {
		struct dbg_func *f = funcs.items[i];
		if (!pattern_has_line(&pat, f->line))
			continue;
		if (sf.exported && !f->exported)
			continue;
		uint64_t site = 0;
		enum ktext_verdict verdict = kt ? ktext_check(kt, f->addr, &site) : KTEXT_OK;
		if (verdict != KTEXT_OK && wildcard) {
			skipped[verdict]++;
			nskipped++;
			continue;
		}
		/* BTF also describes a module's .init.text functions, freed before a probe can attach */
		if (strcmp(module, "kernel") && di->source != DBG_SOURCE_DWARF &&
		    kernel_module_function_missing(s, module, f->symbol))
			continue;
		struct resolved_probe *r = ast_alloc(sizeof(*r));
		*r = *tmpl;
		r->provider = &probe_kprobe;
		r->symbol = ast_printf("%s%s", prefix, f->symbol);
		r->offset = (int64_t)(f->addr - f->symbol_addr);
		r->is_return = sf.ret;
		r->maxactive = sf.maxactive;
		r->ftrace_site = verdict == KTEXT_OK && f->addr == f->symbol_addr ? site : 0;
		r->ktext = kt;
		r->wildcard = wildcard;
		r->pp = ast_printf("%s%s%s%s", where_text(family, f->name, f->file, f->line), sf.inl ? ".inline" : "",
				   sf.exported ? ".exported" : "", sf.ret ? ".return" : sf.call ? ".call" : "");
		r->scope = function_scope(di, f, f->addr, sf.ret, ast_printf("function %s", f->name));
		vec_push(out, r);
	}
	const char *why_skipped = ast_printf("%d in .init.text, %d on the kprobes blacklist, %d without an ftrace site",
					     skipped[KTEXT_INIT], skipped[KTEXT_BLACKLIST], skipped[KTEXT_NOTRACE]);
	if (nskipped && s->verbose)
		fprintf(stderr, "%s:%d:%d: %s(\"%s\"): %d functions match, %d skipped (%s)\n", what->arg->loc.file,
			what->arg->loc.line, what->arg->loc.col, family, what->arg->u.str, out->n + nskipped, nskipped,
			why_skipped);
	if (!out->n) {
		if (pp->optional)
			return true; /* '?': the core skips the point */
		diag_error(what->arg->loc, "no %s%sfunction matches \"%s\" in %s (%s)%s", sf.inl ? "inlined " : "",
			   sf.exported ? "exported " : "", what->arg->u.str,
			   strcmp(module, "kernel") ? ast_printf("module %s", module) : "the kernel",
			   di->source == DBG_SOURCE_DWARF ? ast_printf("DWARF of %s", di->path) : ast_printf("BTF of %s", di->path),
			   nskipped ? ast_printf(" that a probe can attach to: %d skipped (%s)", nskipped, why_skipped) : "");
		return false;
	}
	return true;
}

static void kernel_defines(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	(void)mine;
	(void)e; /* its probes belong to the kprobe and tracepoint families */
}

static void kernel_table(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)e;
	(void)s;
	(void)mine;
}

const struct probe_provider probe_kernel = {
	.name = "kernel",
	.expand = kernel_expand,
	.emit_defines = kernel_defines,
	.emit_table = kernel_table,
};
