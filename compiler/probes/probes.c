/*
 * probes.c - pass 2, first step: from the probes a script declares to the
 * probes the module runs, and the provider table.
 *
 * Each point of each script probe is expanded in turn:
 *
 *  - a point whose components match the name of an alias (probe N = ... or
 *    probe N += ...), with '*' matching within a component and '**' across
 *    components, is replaced by the alias's own points, recursively. A
 *    point longer than an alias name it starts with passes the rest on as
 *    a suffix (syscall.open.return -> the alias's points + ".return") when
 *    no alias matches it exactly and the rest has no wildcards;
 *  - any other point goes to the provider named by its first component,
 *    which may expand it further (function name globs) and resolves each
 *    concrete point;
 *  - a point that matches nothing is an error unless it, or a point it was
 *    expanded from, is optional ('?' or '!'); a '!' point that matched
 *    ends its list: the points after it are not tried.
 *
 * Every concrete point remembers the chain of aliases it came through and
 * the "if (cond)" of every point on the way. Points with the same chain
 * and conditions share one derived probe, whose body is the user's body
 * wrapped in each alias body (prologues before, epilogues after; the
 * alias nearest the concrete point outermost), all in one block so alias
 * locals are the user's locals, and whose condition is the conditions
 * and-ed together. Each derived probe gets its own copy of the bodies.
 */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "tapset.h"
#include "probes.h"
#include "families.h"
#include "syscalls.h"

/* Every probe-point family, in the order their tables are emitted (probes/families.def). */
static const struct probe_provider *const providers[] = {
#define PROBE_FAMILY(name) &probe_##name,
#include "probes/families.def"
#undef PROBE_FAMILY
};
#define NPROVIDERS ((int)(sizeof(providers) / sizeof(providers[0])))

/* Aliases may expand to aliases; deeper than this is taken as a cycle. */
#define MAX_ALIAS_DEPTH 32

/* Whether a provider claims a first component by its name or another. */
static bool claims(const struct probe_provider *prov, const char *name)
{
	if (!strcmp(prov->name, name))
		return true;
	for (const char *const *a = prov->also; a && *a; a++)
		if (!strcmp(*a, name))
			return true;
	return false;
}

/*
 * The family claiming a point: one named by its first two components
 * (kernel.trace), else by its first (begin, end and error share one).
 */
static const struct probe_provider *find_provider(const struct probe_point *pp)
{
	const char *first = probes_component(pp, 0)->name;
	if (pp->components.n > 1) {
		const char *two = ast_join(first, ".", probes_component(pp, 1)->name);
		for (int i = 0; i < NPROVIDERS; i++)
			if (!strcmp(providers[i]->name, two))
				return providers[i];
	}
	for (int i = 0; i < NPROVIDERS; i++)
		if (claims(providers[i], first))
			return providers[i];
	return NULL;
}

/* Push every form pattern stands for: each {a,b,...} group (not nested) replaced by each alternative in turn. */
static void expand_braces(const char *pattern, struct vec *out)
{
	const char *open = strchr(pattern, '{');
	const char *close = open ? strchr(open, '}') : NULL;
	if (!close) {
		vec_push(out, (void *)pattern);
		return;
	}
	for (const char *alt = open + 1;; alt++) {
		size_t len = strcspn(alt, ",}");
		expand_braces(ast_printf("%.*s%.*s%s", (int)(open - pattern), pattern, (int)len, alt, close + 1), out);
		alt += len;
		if (*alt == '}')
			break;
	}
}

void probes_runtime_files(const struct vec *used, struct vec *out)
{
	for (int i = 0; i < used->n; i++)
		for (const struct runtime_file *f = ((const struct probe_provider *)used->items[i])->runtime; f && f->name; f++) {
			bool seen = false;
			for (int j = 0; j < out->n && !seen; j++)
				seen = !strcmp(out->items[j], f->name);
			if (!seen)
				vec_push(out, (void *)f->name);
		}
}

void probes_patterns(struct vec *out)
{
	for (int i = 0; i < NPROVIDERS; i++)
		for (const char *const *p = providers[i]->patterns; p && *p; p++)
			expand_braces(*p, out);
}

/* ---- Matching points against alias names ---- */

static bool args_equal(const struct node *a, const struct node *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind)
		return false;
	return a->kind == NODE_NUM ? a->u.num == b->u.num : !strcmp(a->u.str, b->u.str);
}

/* name components [j, j+k) joined with '.', for a "**" pattern component */
static const char *join_components(const struct vec *name, int j, int k)
{
	const char *text = "";
	for (int i = j; i < j + k; i++)
		text = ast_printf("%s%s%s", text, i > j ? "." : "", ((struct probe_component *)name->items[i])->name);
	return text;
}

/*
 * Match pattern components [i..] against alias name components [j..].
 * Returns the pattern index where the name ran out: pat->n for an exact
 * match, less when allow_suffix and the rest of the pattern is a suffix;
 * -1 for no match.
 */
static int match_from(const struct vec *pat, int i, const struct vec *name, int j, bool allow_suffix)
{
	if (j == name->n)
		return i == pat->n || allow_suffix ? i : -1;
	if (i == pat->n)
		return -1;
	const struct probe_component *p = pat->items[i];
	if (strstr(p->name, "**")) {
		for (int k = name->n - j; k >= 1; k--) {
			const struct probe_component *last = name->items[j + k - 1];
			if (!args_equal(p->arg, last->arg) || !probes_glob(p->name, join_components(name, j, k)))
				continue;
			int r = match_from(pat, i + 1, name, j + k, allow_suffix);
			if (r >= 0)
				return r;
		}
		return -1;
	}
	const struct probe_component *c = name->items[j];
	if (!probes_glob(p->name, c->name) || !args_equal(p->arg, c->arg))
		return -1;
	return match_from(pat, i + 1, name, j + 1, allow_suffix);
}

/* ---- Derivation ---- */

/* One level of alias expansion. */
struct expansion {
	struct probe *alias;           /* the alias definition expanded */
	struct probe_point *name;      /* its name that matched */
	struct probe_point *via;       /* the point that named it */
	int suffix;                    /* index of via's first component after the alias name */
	const struct expansion *outer; /* the level it was reached from; NULL: the user's probe */
	const struct diag_expansion *level; /* its diag level, made on first use */
};

/* A concrete point found while deriving one script probe. */
struct match {
	struct resolved_probe *r;      /* resolved by its provider; r->probe set at grouping */
	const struct expansion *exp;   /* innermost alias expansion, or NULL */
};

/* An alias name a point matched. */
struct alias_hit {
	struct probe *alias;
	struct probe_point *name;
	int suffix;                    /* index of the point's first suffix component */
};

struct derive {
	struct session *s;
	struct probe *user;            /* the script probe being derived */
	struct vec matches;            /* of struct match *, in match order */
	struct vec checked_conds;      /* of struct node *: conditions already checked */
	int depth;                     /* alias nesting */
};

/* What diag's "in expansion of ..." notes call an alias use. */
static const char *expansion_what(const void *arg)
{
	const struct expansion *e = arg;
	return ast_printf("alias '%s' at %s:%d:%d", probes_point_text(e->name), e->name->loc.file,
			  e->name->loc.line, e->name->loc.col);
}

/*
 * The diag level of an expansion, for the nodes of its alias body: an error
 * there names this use of the alias and every use around it.
 */
static const struct diag_expansion *expansion_level(struct expansion *e)
{
	if (!e->level) {
		struct srcloc site = e->via->loc;
		if (e->outer && !site.expansion)
			site.expansion = expansion_level((struct expansion *)e->outer);
		e->level = diag_expansion_lazy(expansion_what, e, site);
	}
	return e->level;
}

/*
 * A suffix is passed on literally: it may not hold wildcards, nor follow a
 * '**' (which could as well have swallowed it).
 */
static bool plain_suffix(const struct probe_point *pp, int from)
{
	if (strstr(((struct probe_component *)pp->components.items[from - 1])->name, "**"))
		return false;
	for (int i = from; i < pp->components.n; i++)
		if (probes_has_wildcard(((struct probe_component *)pp->components.items[i])->name))
			return false;
	return true;
}

/* ---- The alias index ---- */

/* One name of one alias, with its place in definition order. */
struct alias_name {
	struct probe *alias;       /* the definition */
	struct probe_point *name;  /* one of its names */
	long seq;                  /* file rank, then position: the order aliases are tried in */
};

/*
 * Alias names indexed by their literal components, so a point looks only at
 * names it could match: a point whose first two components are literal
 * (syscall.open) at the names starting with both (by_two) and the
 * one-component names of its first (one: they match with a suffix); one
 * with a literal first component only (syscall.*) at by_first; one with a
 * wildcard first component at every name. Alias names hold no wildcards.
 * The script's aliases are indexed first; tapset files as they are parsed.
 */
struct alias_index {
	int files_indexed;         /* tapset_parsed()'s files indexed so far */
	struct vec all;            /* of struct alias_name *, in seq order */
	struct strmap by_first;    /* first component -> struct vec of alias_name */
	struct strmap by_two;      /* "first.second" -> struct vec of alias_name, names of 2+ components */
	struct strmap one;         /* first component -> struct vec of alias_name, names of 1 component */
};

/* The session's alias index (session.aliases), made on first use. */
static struct alias_index *alias_index(struct session *s)
{
	if (!s->aliases)
		s->aliases = ast_alloc(sizeof(*s->aliases));
	return s->aliases;
}

static const char *component_name(const struct probe_point *pp, int i)
{
	return ((struct probe_component *)pp->components.items[i])->name;
}

/* Insert keeping seq order: files may be parsed in any order. */
static void push_ordered(struct vec *v, struct alias_name *an)
{
	vec_push(v, an);
	int i = v->n - 1;
	for (; i > 0 && ((struct alias_name *)v->items[i - 1])->seq > an->seq; i--)
		v->items[i] = v->items[i - 1];
	v->items[i] = an;
}

void probes_index_aliases(struct session *s, struct ast_file *f)
{
	struct alias_index *aliases = alias_index(s);
	long pos = 0;
	for (int i = 0; i < f->probes.n; i++) {
		struct probe *p = f->probes.items[i];
		if (p->kind == PROBE_PLAIN)
			continue;
		for (int j = 0; j < p->names.n; j++) {
			struct alias_name *an = ast_alloc(sizeof(*an));
			an->alias = p;
			an->name = p->names.items[j];
			an->seq = ((long)f->rank << 32) + pos++;
			const char *first = component_name(an->name, 0);
			push_ordered(&aliases->all, an);
			push_ordered(strmap_vec(&aliases->by_first, first), an);
			if (an->name->components.n == 1)
				push_ordered(strmap_vec(&aliases->one, first), an);
			else
				push_ordered(strmap_vec(&aliases->by_two,
							ast_join(first, ".", component_name(an->name, 1))), an);
		}
	}
}

/* The aliases of the tapset files parsed since the last look join the index. */
static void index_parsed_files(struct session *s)
{
	const struct vec *parsed = tapset_parsed(s);
	struct alias_index *aliases = alias_index(s);
	while (aliases->files_indexed < parsed->n)
		probes_index_aliases(s, parsed->items[aliases->files_indexed++]);
}

/* The names pp could match, in seq order, into out. */
static void alias_candidates(struct derive *d, const struct probe_point *pp, struct vec *out)
{
	struct alias_index *aliases = alias_index(d->s);
	const char *first = component_name(pp, 0);
	if (probes_has_wildcard(first)) {
		tapset_need_aliases(d->s, NULL);
		index_parsed_files(d->s);
		*out = aliases->all;
		return;
	}
	tapset_need_aliases(d->s, first);
	index_parsed_files(d->s);
	if (pp->components.n == 1 || probes_has_wildcard(component_name(pp, 1))) {
		struct vec *v = strmap_get(&aliases->by_first, first);
		if (v)
			*out = *v;
		return;
	}
	struct vec *two = strmap_get(&aliases->by_two, ast_join(first, ".", component_name(pp, 1)));
	struct vec *one = strmap_get(&aliases->one, first);
	if (!one || !two) {
		if (one || two)
			*out = one ? *one : *two;
		return;
	}
	/* merge, keeping seq order */
	int i = 0, j = 0;
	while (i < one->n || j < two->n) {
		struct alias_name *a = i < one->n ? one->items[i] : NULL;
		struct alias_name *b = j < two->n ? two->items[j] : NULL;
		if (!b || (a && a->seq < b->seq)) {
			vec_push(out, a);
			i++;
		} else {
			vec_push(out, b);
			j++;
		}
	}
}

/*
 * The alias names pp matches exactly or, when none does, those it extends
 * with a plain suffix.
 */
static void find_aliases(struct derive *d, struct probe_point *pp, struct vec *out)
{
	struct vec cands = {0};
	alias_candidates(d, pp, &cands);
	for (int pass = 0; pass < 2 && !out->n; pass++) {
		bool allow_suffix = pass == 1;
		for (int i = 0; i < cands.n; i++) {
			struct alias_name *an = cands.items[i];
			int k = match_from(&pp->components, 0, &an->name->components, 0, allow_suffix);
			if (k < 0 || (k < pp->components.n && !plain_suffix(pp, k)))
				continue;
			struct alias_hit *hit = ast_alloc(sizeof(*hit));
			hit->alias = an->alias;
			hit->name = an->name;
			hit->suffix = k;
			vec_push(out, hit);
		}
	}
}

/* pp with components [from..] of suffix appended. */
static struct probe_point *with_suffix(struct probe_point *pp, const struct probe_point *suffix, int from)
{
	if (!suffix || from >= suffix->components.n)
		return pp;
	struct probe_point *copy = ast_alloc(sizeof(*copy));
	*copy = *pp;
	copy->components = (struct vec){0};
	for (int i = 0; i < pp->components.n; i++)
		vec_push(&copy->components, pp->components.items[i]);
	for (int i = from; i < suffix->components.n; i++)
		vec_push(&copy->components, suffix->components.items[i]);
	return copy;
}

static int expand_point(struct derive *d, struct probe_point *pp, const struct expansion *exp, bool optional);

/*
 * Expand a list of points (a probe's or an alias's), each with the suffix
 * appended. Returns the concrete points matched, or -1 after errors.
 */
static int expand_list(struct derive *d, const struct vec *points, const struct probe_point *suffix,
		       int suffix_from, const struct expansion *exp, bool optional)
{
	int total = 0;
	bool failed = false;
	for (int i = 0; i < points->n; i++) {
		struct probe_point *pp = with_suffix(points->items[i], suffix, suffix_from);
		int n = expand_point(d, pp, exp, optional);
		if (n < 0) {
			failed = true;
			continue;
		}
		total += n;
		if (n > 0 && pp->sufficient)
			break;
	}
	return failed ? -1 : total;
}

static int expand_alias_hits(struct derive *d, struct probe_point *pp, struct vec *hits,
			     const struct expansion *exp, bool optional)
{
	int total = 0;
	bool failed = false;
	for (int i = 0; i < hits->n; i++) {
		struct alias_hit *hit = hits->items[i];
		bool cycle = d->depth >= MAX_ALIAS_DEPTH;
		for (const struct expansion *e = exp; e; e = e->outer)
			cycle |= e->alias == hit->alias;
		if (cycle) {
			diag_error(pp->loc, "alias '%s' expands to itself", probes_point_text(hit->name));
			failed = true;
			continue;
		}
		if (hit->alias->from_tapset)
			tapset_use_alias(d->s, hit->alias);
		struct expansion *e = ast_alloc(sizeof(*e));
		e->alias = hit->alias;
		e->name = hit->name;
		e->via = pp;
		e->suffix = hit->suffix;
		e->outer = exp;
		/* errors while expanding its points end with "in expansion of alias ..." */
		diag_push_expansion_lazy(expansion_what, e, pp->loc);
		d->depth++;
		int n = expand_list(d, &hit->alias->points, pp, hit->suffix, e, optional);
		d->depth--;
		diag_pop_expansion();
		if (n < 0)
			failed = true;
		else
			total += n;
	}
	if (failed)
		return -1;
	if (total == 0 && !optional) {
		diag_error(pp->loc, "probe point '%s' matched no probe point (add '?' to make it optional) [see man error::pass2]",
			   probes_point_text(pp));
		return -1;
	}
	return total;
}

static void report_unknown(struct probe_point *pp)
{
	struct probe_component *first = probes_component(pp, 0);
	bool wild = false;
	for (int i = 0; i < pp->components.n; i++)
		wild |= probes_has_wildcard(((struct probe_component *)pp->components.items[i])->name);
	if (wild)
		diag_error(pp->loc, "probe point '%s' matches no alias (add '?' to make it optional) [see man error::pass2]",
			   probes_point_text(pp));
	else
		diag_error(pp->loc, "unknown probe point '%s': no alias has this name and '%s' is not a probe family [see man error::pass2]",
			   probes_point_text(pp), first->name);
	if (!wild) {
		const char *list = "";
		for (int i = 0; i < NPROVIDERS; i++) {
			if (strchr(providers[i]->name, '.') || providers[i]->name[0] == '_')
				continue; /* a second component of another family's (kernel.trace), or the tapset's own */
			list = ast_printf("%s%s%s", list, *list ? ", " : "", providers[i]->name);
			for (const char *const *a = providers[i]->also; a && *a; a++)
				list = ast_printf("%s, %s", list, *a);
		}
		diag_note(pp->loc, "probe families: %s", list);
	}
}

/*
 * pn(): the user's point with its wildcards expanded but its aliases not: the
 * name of the outermost alias it matched, then the components of the user's
 * point after that name (syscall.* -> syscall.read, syscall.read.return).
 */
static const char *alias_pn_text(const struct expansion *outermost)
{
	struct probe_point named = {.loc = outermost->via->loc};
	for (int i = 0; i < outermost->name->components.n; i++)
		vec_push(&named.components, outermost->name->components.items[i]);
	for (int i = outermost->suffix; i < outermost->via->components.n; i++)
		vec_push(&named.components, outermost->via->components.items[i]);
	return probes_point_text(&named);
}

/* Whether a point has a wildcard in a component's name or string argument. */
/* Is pp, named by the alias of exp, a syscall, nd_syscall or syscall_any alias's point on a call's wrapper? */
static bool syscall_wrapper_point(const struct expansion *exp, const struct probe_point *pp)
{
	if (!exp || probes_ncomponents(pp) < 2)
		return false;
	const char *family = probes_component(exp->name, 0)->name;
	const struct probe_component *fn = probes_component(pp, 1);
	return (!strcmp(family, "syscall") || !strcmp(family, "nd_syscall") || !strcmp(family, "syscall_any")) &&
	       !strcmp(fn->name, "function") &&
	       fn->arg && fn->arg->kind == NODE_STR && (!strncmp(fn->arg->u.str, "__x64_sys_", 10) ||
							!strncmp(fn->arg->u.str, "__arm64_sys_", 12));
}

static bool point_has_wildcard(const struct probe_point *pp)
{
	for (int i = 0; i < pp->components.n; i++) {
		const struct probe_component *c = pp->components.items[i];
		if (probes_has_wildcard(c->name) ||
		    (c->arg && c->arg->kind == NODE_STR && strpbrk(c->arg->u.str, "*?[")))
			return true;
	}
	return false;
}

/*
 * The component names a family's points are spelled with, for wildcards in
 * names (kerne*.funct*("vfs_read")): a wildcard component is tried as each
 * of these that it matches, in every family whose name the first matches.
 */
static const char *const component_words[] = {
	"function", "statement", "trace", "mark", "provider", "library", "plt", "label", "callee", "callees",
	"return", "call", "inline", "exported", "maxactive", "module", "begin", "end", "thread", "syscall",
	"s", "sec", "ms", "msec", "us", "usec", "ns", "nsec", "hz", "jiffies", "randomize", "profile",
	"read", "write", "maxsize", "char", "line", "hook", "pf", "priority", "counter", "sample", "type",
	"config", "process",
};
#define NCOMPONENT_WORDS (int)(sizeof(component_words) / sizeof(component_words[0]))

/* At most this many concrete points are tried for one point with wildcard names. */
#define FAMILY_GLOB_MAX 4096

static int expand_point(struct derive *d, struct probe_point *pp, const struct expansion *exp, bool optional);

/* sp marked as pp is ('?' or not), for its resolved probes. */
static struct probe_point *with_mark(struct probe_point *sp, const struct probe_point *pp)
{
	struct probe_point *copy = ast_alloc(sizeof(*copy));
	*copy = *sp;
	copy->optional = pp->optional;
	copy->sufficient = pp->sufficient;
	return copy;
}

/* Every concrete spelling of pp's wildcard names from component i on, into out (struct probe_point *). */
static void spell_names(struct probe_point *pp, int i, struct vec *out)
{
	if (out->n >= FAMILY_GLOB_MAX)
		return;
	if (i == pp->components.n) {
		struct probe_point *copy = ast_alloc(sizeof(*copy));
		*copy = *pp;
		copy->components = (struct vec){0};
		for (int k = 0; k < pp->components.n; k++)
			vec_push(&copy->components, pp->components.items[k]);
		vec_push(out, copy);
		return;
	}
	struct probe_component *c = pp->components.items[i];
	if (!probes_has_wildcard(c->name)) {
		spell_names(pp, i + 1, out);
		return;
	}
	struct vec words = {0};
	if (i == 0) {
		for (int k = 0; k < NPROVIDERS; k++)
			if (!strchr(providers[k]->name, '.'))
				vec_push(&words, (void *)providers[k]->name);
		vec_push(&words, "end");
		vec_push(&words, "error");
		vec_push(&words, "module");
	} else {
		for (int k = 0; k < NCOMPONENT_WORDS; k++)
			vec_push(&words, (void *)component_words[k]);
	}
	for (int k = 0; k < words.n; k++) {
		if (!probes_glob(c->name, words.items[k]))
			continue;
		struct probe_component *concrete = ast_alloc(sizeof(*concrete));
		*concrete = *c;
		concrete->name = words.items[k];
		pp->components.items[i] = concrete;
		spell_names(pp, i + 1, out);
		pp->components.items[i] = c;
	}
}

/*
 * A point with a wildcard in a family or component name that no alias
 * matched: each concrete spelling a family accepts, as SystemTap matches
 * them. A spelling the family rejects, or that matches nothing, is dropped
 * quietly; the point fails only if no spelling matches.
 */
static int expand_family_glob(struct derive *d, struct probe_point *pp, const struct expansion *exp, bool optional)
{
	struct vec spellings = {0};
	spell_names(pp, 0, &spellings);
	int total = 0;
	for (int i = 0; i < spellings.n; i++) {
		struct probe_point *sp = spellings.items[i];
		sp->optional = true;
		int before = d->matches.n, muted_before = diag_muted_errors();
		diag_mute(1);
		int n = expand_point(d, sp, exp, true);
		diag_mute(-1);
		if (n < 0 || diag_muted_errors() != muted_before) {
			d->matches.n = before;
			continue;
		}
		/* the point keeps its own mark: a spelling that cannot attach is not skipped unless it was optional */
		for (int k = before; k < d->matches.n; k++)
			((struct match *)d->matches.items[k])->r->point = pp->optional ? sp : with_mark(sp, pp);
		total += n;
	}
	if (total == 0 && !optional) {
		report_unknown(pp);
		return -1;
	}
	return total;
}

/* Hand a point with no alias to its provider. */
static int expand_provider(struct derive *d, struct probe_point *pp, const struct expansion *exp, bool optional)
{
	struct probe_component *first = probes_component(pp, 0);
	for (int i = 0; i < pp->components.n; i++)
		if (probes_has_wildcard(((struct probe_component *)pp->components.items[i])->name))
			return expand_family_glob(d, pp, exp, optional);
	const struct probe_provider *prov = probes_has_wildcard(first->name) ? NULL : find_provider(pp);
	if (!prov) {
		if (optional)
			return 0;
		report_unknown(pp);
		return -1;
	}
	if (optional && !pp->optional) {
		/* optional through an outer point: mark a copy, the point may be used elsewhere */
		struct probe_point *copy = ast_alloc(sizeof(*copy));
		*copy = *pp;
		copy->optional = true;
		pp = copy;
	}
	const struct expansion *outermost = exp;
	while (outermost && outermost->outer)
		outermost = outermost->outer;
	struct resolved_probe *r = ast_alloc(sizeof(*r));
	r->point = pp;
	r->user_point = outermost ? outermost->via : pp;
	r->provider = prov;
	struct vec found = {0};
	if (prov->expand) {
		/* an optional point that matches nothing comes back empty, and quietly */
		if (!prov->expand(d->s, pp, r, &found))
			return -1;
	} else {
		if (!prov->resolve(d->s, pp, r))
			return -1;
		vec_push(&found, r);
	}
	for (int i = 0; i < found.n; i++) {
		struct resolved_probe *m = found.items[i];
		if (!m->pp)
			m->pp = probes_point_text(pp);
		m->via_alias = outermost != NULL;
		m->syscall_wrapper = syscall_wrapper_point(exp, pp);
		if (!m->pn)	/* without an alias: as written, or as resolved if it had wildcards */
			m->pn = outermost ? alias_pn_text(outermost)
				: point_has_wildcard(pp) ? m->pp : probes_point_text(pp);
		struct match *match = ast_alloc(sizeof(*match));
		match->r = m;
		match->exp = exp;
		vec_push(&d->matches, match);
	}
	return found.n;
}

/*
 * A wildcard first component may also name the syscall families' aliases,
 * which syscalls.c writes on demand (sys**open: syscall.open,
 * syscall.mq_open): each family's aliases for FAMILY.* with pp's later
 * components, kept where pp matches the whole name.
 */
static void syscall_glob_hits(struct derive *d, struct probe_point *pp, const struct vec *bodies, struct vec *hits)
{
	static const char *const families[] = {"syscall", "nd_syscall"};
	struct vec names = {0};
	syscalls_names(d->s, &names);
	for (int f = 0; f < 2; f++) {
		for (int i = 0; i < names.n; i++) {
			/* FAMILY.NAME and pp's later components: kept if pp matches it whole */
			struct probe_point *one = ast_alloc(sizeof(*one));
			*one = *pp;
			one->optional = true;
			one->cond = NULL;
			one->components = (struct vec){0};
			struct probe_component *family = ast_alloc(sizeof(*family)), *call = ast_alloc(sizeof(*call));
			family->name = families[f];
			call->name = names.items[i];
			family->loc = call->loc = pp->loc;
			vec_push(&one->components, family);
			vec_push(&one->components, call);
			if (match_from(&pp->components, 0, &one->components, 0, true) != 1)
				continue;
			for (int k = 1; k < pp->components.n; k++)
				vec_push(&one->components, pp->components.items[k]);
			struct vec mine = {0};
			diag_mute(1);
			enum syscalls_result r = syscalls_aliases(d->s, one, true, bodies, &mine);
			diag_mute(-1);
			for (int k = 0; r == SYSCALLS_ALIASES && k < mine.n; k++) {
				struct alias_hit *hit = ast_alloc(sizeof(*hit));
				hit->alias = mine.items[k];
				hit->name = hit->alias->names.items[0];
				hit->suffix = pp->components.n;
				vec_push(hits, hit);
			}
		}
	}
}

/* Returns the concrete points pp expands to, or -1 after errors. */
static int expand_point(struct derive *d, struct probe_point *pp, const struct expansion *exp, bool optional)
{
	optional |= pp->optional;
	struct vec hits = {0};
	find_aliases(d, pp, &hits);
	if (hits.n && !point_has_wildcard(pp))
		return expand_alias_hits(d, pp, &hits, exp, optional);
	/*
	 * syscall.*, nd_syscall.*, syscall_any: aliases written for this point
	 * (syscalls.c); a wildcard also matches a tapset's own aliases of the
	 * family (syscall.mycall), and a tapset alias of a call's name replaces
	 * the generated one.
	 */
	struct vec generated = {0}, bodies = {0};
	vec_push(&bodies, d->user->body);
	for (const struct expansion *e = exp; e; e = e->outer) {
		vec_push(&bodies, e->alias->body);
		if (e->alias->epilogue)
			vec_push(&bodies, e->alias->epilogue);
	}
	int from_tapset = hits.n;
	switch (syscalls_aliases(d->s, pp, optional || from_tapset, &bodies, &generated)) {
	case SYSCALLS_NOT_MINE:
		if (from_tapset)
			return expand_alias_hits(d, pp, &hits, exp, optional);
		break;
	case SYSCALLS_NONE:
		if (from_tapset)
			return expand_alias_hits(d, pp, &hits, exp, optional);
		return optional ? 0 : -1;
	case SYSCALLS_ALIASES:
		for (int i = 0; i < generated.n; i++) {
			struct alias_hit *hit = ast_alloc(sizeof(*hit));
			hit->alias = generated.items[i];
			hit->name = hit->alias->names.items[0];
			hit->suffix = pp->components.n;
			const char *text = probes_point_text(hit->name);
			bool replaced = false;
			for (int k = 0; k < from_tapset && !replaced; k++)
				replaced = !strcmp(text, probes_point_text(((struct alias_hit *)hits.items[k])->name));
			if (!replaced)
				vec_push(&hits, hit);
		}
		return expand_alias_hits(d, pp, &hits, exp, optional);
	}
	if (!hits.n && probes_has_wildcard(component_name(pp, 0)))
		syscall_glob_hits(d, pp, &bodies, &hits);
	if (hits.n)
		return expand_alias_hits(d, pp, &hits, exp, optional);
	return expand_provider(d, pp, exp, optional);
}

/* ---- Conditions ---- */

struct cond_check {
	struct session *s;
};

/*
 * Conditions are resolved as written in the script (the user's file), so
 * even an alias's condition sees the script's names: the script's globals
 * and the public ones of the tapsets.
 */
static bool is_global(struct session *s, const char *name)
{
	for (int i = 0; i < s->script->globals.n; i++)
		if (!strcmp(((struct global *)s->script->globals.items[i])->name, name))
			return true;
	return tapset_find_global(s, name, s->script) != NULL;
}

/* A condition may read globals and nothing else: no locals, calls or assignments. */
static bool check_cond_node(struct ast_walker *w, struct node *n)
{
	struct cond_check *cc = w->data;
	switch (n->kind) {
	case NODE_VAR:
		if (!is_global(cc->s, n->u.var.name))
			diag_error(n->loc, "'%s' in a probe condition is not a global: conditions can only read globals",
				   n->u.var.name);
		return true;
	case NODE_CALL:
		diag_error(n->loc, "a probe condition cannot call functions ('%s')", n->u.call.name);
		return false;
	case NODE_ASSIGN:
	case NODE_INCDEC:
	case NODE_STAT_ADD:
		diag_error(n->loc, "a probe condition cannot change variables");
		return false;
	case NODE_STAT_OP:
		/* extracting merges per-CPU data under the write lock: not from a condition */
		diag_error(n->loc, "a probe condition cannot read statistics");
		return false;
	case NODE_NUM: case NODE_STR: case NODE_INDEX: case NODE_UNARY: case NODE_BINARY:
	case NODE_TERNARY: case NODE_IN: case NODE_WILDCARD: case NODE_BLOCK: case NODE_EXPR_STMT:
	case NODE_NULL_STMT: case NODE_IF: case NODE_WHILE: case NODE_FOR: case NODE_FOREACH:
	case NODE_BREAK: case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN: case NODE_DELETE:
	case NODE_TRY: case NODE_EMBEDDED: case NODE_REGEX: case NODE_TARGET: case NODE_DEFINED:
	case NODE_ENTRY:
		return true;
	}
	return true; /* not reached: each kind returns above */
}

static void check_cond(struct derive *d, struct node *cond)
{
	if (!cond)
		return;
	for (int i = 0; i < d->checked_conds.n; i++)
		if (d->checked_conds.items[i] == cond)
			return;
	vec_push(&d->checked_conds, cond);
	struct cond_check cc = {.s = d->s};
	struct ast_walker w = {.pre = check_cond_node, .data = &cc};
	ast_walk(&w, cond);
}

/* cond and-ed onto acc (a copy of it, so each derived probe resolves its own). */
static struct node *and_cond(struct node *acc, struct node *cond)
{
	if (!cond)
		return acc;
	struct node *copy = ast_clone(cond);
	if (!acc)
		return copy;
	struct node *n = ast_new(NODE_BINARY, copy->loc, "&&");
	n->u.binary.op = OP_AND;
	n->u.binary.lhs = acc;
	n->u.binary.rhs = copy;
	return n;
}

/* ---- Grouping matches into derived probes ---- */

static bool same_derivation(const struct match *a, const struct match *b)
{
	if (a->r->point->cond != b->r->point->cond)
		return false;
	const struct expansion *x = a->exp, *y = b->exp;
	for (; x && y; x = x->outer, y = y->outer)
		if (x->alias != y->alias || x->via->cond != y->via->cond)
			return false;
	return x == y;
}

static bool stamp_node(struct ast_walker *w, struct node *n)
{
	if (!n->loc.expansion)
		n->loc.expansion = w->data;
	return true;
}

/* Does the tree assign (=, op=, ++/--, <<<, delete) the variable or array name? */
struct written_search {
	const char *name;
	bool found;
};

static bool lvalue_is(const struct node *n, const char *name)
{
	if (n && n->kind == NODE_INDEX)
		n = n->u.index.array;
	return n && n->kind == NODE_VAR && !strcmp(n->u.var.name, name);
}

static bool find_write(struct ast_walker *w, struct node *n)
{
	struct written_search *ws = w->data;
	ws->found |= (n->kind == NODE_ASSIGN && lvalue_is(n->u.assign.lhs, ws->name)) ||
		     (n->kind == NODE_INCDEC && lvalue_is(n->u.incdec.operand, ws->name)) ||
		     (n->kind == NODE_STAT_ADD && lvalue_is(n->u.stat_add.target, ws->name)) ||
		     (n->kind == NODE_DELETE && lvalue_is(n->u.del.target, ws->name));
	return !ws->found;
}

/* @probewrite(VAR) in an alias body (a call named "@probewrite"): 1 if the handler inside writes VAR, else 0. */
static bool settle_probewrite(struct ast_walker *w, struct node *n)
{
	const struct node *inner = w->data;
	if (n->kind != NODE_CALL || strcmp(n->u.call.name, "@probewrite"))
		return true;
	struct written_search ws = {.name = ((struct node *)n->u.call.args.items[0])->u.var.name};
	struct ast_walker find = {.pre = find_write, .data = &ws};
	ast_walk(&find, (struct node *)inner);
	struct srcloc loc = n->loc;
	n->kind = NODE_NUM;
	n->tok = ws.found ? "1" : "0";
	n->u.num = ws.found;
	n->loc = loc;
	return false;
}

/* A copy of an alias body for dp, carrying e's diag level, its @probewrite settled against inner. */
static struct node *alias_body_copy(struct probe *dp, struct expansion *e, const struct node *from,
				    const struct node *inner)
{
	struct node *body = ast_clone(from);
	struct ast_walker w = {.pre = stamp_node, .data = (void *)expansion_level(e)};
	ast_walk(&w, body);
	struct ast_walker settle = {.pre = settle_probewrite, .data = (void *)inner};
	ast_walk(&settle, body);
	struct probe_body_file *bf = ast_alloc(sizeof(*bf));
	bf->block = body;
	bf->file = e->alias->file;
	vec_push(&dp->body_files, bf);
	return body;
}

/*
 * { alias body; inner } for a prologue, { inner; alias body } for an
 * epilogue, { prologue; inner; epilogue } for an alias with both; the
 * alias bodies' copies carry e's diag level.
 */
static struct node *wrap(struct probe *dp, struct expansion *e, struct node *inner)
{
	struct probe *alias = e->alias;
	struct node *block = ast_new(NODE_BLOCK, inner->loc, "{");
	struct node *body = alias_body_copy(dp, e, alias->body, inner);
	if (alias->kind == PROBE_ALIAS_PROLOGUE) {
		vec_push(&block->u.block.stmts, body);
		vec_push(&block->u.block.stmts, inner);
		if (alias->epilogue)
			vec_push(&block->u.block.stmts, alias_body_copy(dp, e, alias->epilogue, inner));
	} else {
		vec_push(&block->u.block.stmts, inner);
		vec_push(&block->u.block.stmts, body);
	}
	return block;
}

static struct probe *derived_probe(struct derive *d, const struct match *m, bool first)
{
	struct probe *user = d->user;
	struct probe *dp = ast_alloc(sizeof(*dp));
	dp->kind = PROBE_PLAIN;
	dp->loc = user->loc;
	dp->from_tapset = user->from_tapset;
	dp->file = user->file;
	dp->body = first ? user->body : ast_clone(user->body);

	/* Outermost alias (the one the user named) first. */
	struct vec chain = {0};
	for (const struct expansion *e = m->exp; e; e = e->outer)
		vec_push(&chain, (void *)e);
	for (int i = chain.n - 1; i >= 0; i--) {
		const struct expansion *e = chain.items[i];
		check_cond(d, e->via->cond);
		dp->cond = and_cond(dp->cond, e->via->cond);
	}
	check_cond(d, m->r->point->cond);
	dp->cond = and_cond(dp->cond, m->r->point->cond);
	for (int i = chain.n - 1; i >= 0; i--)
		dp->body = wrap(dp, chain.items[i], dp->body);

	dp->index = d->s->probes.n;
	vec_push(&d->s->probes, dp);
	return dp;
}

static void derive_probe(struct derive *d, struct probe *user)
{
	d->user = user;
	d->matches.n = 0;
	if (expand_list(d, &user->points, NULL, 0, NULL, false) < 0)
		return;
	bool first = true;
	for (int i = 0; i < d->matches.n; i++) {
		struct match *m = d->matches.items[i];
		for (int j = 0; j < i && !m->r->probe; j++) {
			struct match *other = d->matches.items[j];
			if (same_derivation(m, other))
				m->r->probe = other->r->probe;
		}
		if (!m->r->probe) {
			m->r->probe = derived_probe(d, m, first);
			first = false;
		}
		vec_push(&m->r->probe->points, m->r->point);
		vec_push(&m->r->probe->resolved, m->r);
		m->r->index = d->s->resolved.n;
		vec_push(&d->s->resolved, m->r);
	}
}

bool probes_derive(struct session *s)
{
	probes_index_aliases(s, s->script);
	return probes_derive_file(s, s->script);
}

bool probes_derive_file(struct session *s, struct ast_file *f)
{
	struct derive d = {.s = s};
	int errors = diag_error_count();
	for (int i = 0; i < f->probes.n; i++) {
		struct probe *p = f->probes.items[i];
		if (p->kind == PROBE_PLAIN)
			derive_probe(&d, p);
	}
	return diag_error_count() == errors;
}

void probes_providers_used(struct session *s, struct vec *out)
{
	bool used[NPROVIDERS] = {0};
	for (int j = 0; j < s->resolved.n; j++) {
		const struct probe_provider *prov = ((struct resolved_probe *)s->resolved.items[j])->provider;
		for (int i = 0; i < NPROVIDERS; i++)
			used[i] |= prov == providers[i];
	}
	for (int i = 0; i < NPROVIDERS; i++)
		if (used[i])
			vec_push(out, (void *)providers[i]);
}

