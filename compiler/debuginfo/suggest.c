/* suggest.c - candidates for a member, function or parameter the target kernel no longer has (see suggest.h). */
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

/* ---- members ---- */

/*
 * Paths to field inside the named embedded structs/unions of t, depth
 * levels down (an anonymous member is no level: its members are t's).
 */
static void members_below(struct dbg_type *t, const char *field, const char *prefix, int depth, struct vec *out)
{
	const struct vec *members = dbg_type_members(t);
	for (int i = 0; members && i < members->n; i++) {
		struct dbg_member *m = members->items[i];
		struct dbg_type *mt = dbg_type_strip(m->type);
		if (!mt || (mt->kind != DBG_STRUCT && mt->kind != DBG_UNION))
			continue;
		if (!m->name) {
			members_below(mt, field, prefix, depth, out);
			continue;
		}
		const char *path = prefix ? ast_join(prefix, "->", m->name) : m->name;
		uint64_t off = 0;
		if (depth == 1 && dbg_member_find(mt, field, &off))
			vec_push(out, (void *)ast_join(path, "->", field));
		else if (depth > 1)
			members_below(mt, field, path, depth - 1, out);
	}
}

void suggest_members(struct dbg_type *t, const char *field, struct vec *out)
{
	t = dbg_type_strip(t);
	if (!t || (t->kind != DBG_STRUCT && t->kind != DBG_UNION))
		return;
	for (int depth = 1; depth <= 2 && !out->n; depth++)
		members_below(t, field, NULL, depth, out);
}

/* ---- the index of function names ---- */

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const struct vec *suggest_function_names(struct debuginfo *di)
{
	if (di->names_read)
		return &di->names;
	di->names_read = true;
	struct vec all = {0};
	if (di->ops->function_names)
		di->ops->function_names(di, &all);
	vec_sort(&all, compare_names);
	for (int i = 0; i < all.n; i++)
		if (!di->names.n || strcmp(di->names.items[di->names.n - 1], all.items[i]))
			vec_push(&di->names, all.items[i]);
	return &di->names;
}

static bool has_function(struct debuginfo *di, const char *name)
{
	const struct vec *names = suggest_function_names(di);
	return names->n && bsearch(&name, names->items, (size_t)names->n, sizeof(names->items[0]), compare_names);
}

/* ---- the same function behind a prefix ---- */

void suggest_prefix_forms(const char *name, struct vec *out)
{
	static const char *const prefixes[] = {"__x64_sys_", "__arm64_sys_", "__ia32_sys_", "__se_sys_", "__do_sys_", "ksys_"};
	const char *base = strncmp(name, "sys_", 4) ? name : name + 4;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		const char *candidate = ast_join(prefixes[i], "", base);
		if (strcmp(candidate, name))
			vec_push(out, (void *)candidate);
	}
}

void suggest_prefixed(struct debuginfo *di, const char *name, struct vec *out)
{
	struct vec forms = {0};
	suggest_prefix_forms(name, &forms);
	for (int i = 0; i < forms.n; i++)
		if (has_function(di, forms.items[i]))
			vec_push(out, forms.items[i]);
}

/* ---- similar names ---- */

/* Levenshtein distance of a and b, or bound + 1 once it must exceed bound (b at most 127 bytes). */
static int bounded_distance(const char *a, const char *b, int bound)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	if (abs(la - lb) > bound || lb > 127)
		return bound + 1;
	int row[128], next[128];
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		next[0] = i;
		int best = i;
		for (int j = 1; j <= lb; j++) {
			int d = row[j - 1] + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < d)
				d = row[j] + 1;
			if (next[j - 1] + 1 < d)
				d = next[j - 1] + 1;
			next[j] = d;
			if (d < best)
				best = d;
		}
		if (best > bound)
			return bound + 1;
		memcpy(row, next, sizeof(row[0]) * (size_t)(lb + 1));
	}
	return row[lb] <= bound ? row[lb] : bound + 1;
}

/* Does candidate hold every '_'-separated word of name, in order, as whole words? */
static bool has_words_in_order(const char *name, const char *candidate)
{
	const char *c = candidate;
	for (const char *w = name; *w;) {
		size_t n = strcspn(w, "_");
		if (n) {
			bool found = false;
			while (*c && !found) {
				size_t m = strcspn(c, "_");
				found = m == n && !strncmp(c, w, n);
				c += m;
				c += *c == '_';
			}
			if (!found)
				return false;
		}
		w += n;
		w += *w == '_';
	}
	return true;
}

/* Words of name ('_'-separated), and the length of its first and of its last one. */
static int word_count(const char *name, size_t *first, size_t *last)
{
	int n = 0;
	*first = *last = 0;
	for (const char *w = name; *w;) {
		size_t len = strcspn(w, "_");
		if (len) {
			if (!n++)
				*first = len;
			*last = len;
		}
		w += len;
		w += *w == '_';
	}
	return n;
}

/*
 * The same first and last word around one other middle (do_sync_read,
 * do_iter_read): a step of a path renamed for what it now does.
 */
static bool same_ends(const char *name, const char *candidate)
{
	size_t f1, l1, f2, l2;
	int n1 = word_count(name, &f1, &l1), n2 = word_count(candidate, &f2, &l2);
	size_t len1 = strlen(name), len2 = strlen(candidate);
	return n1 >= 3 && n2 >= n1 - 1 && n2 <= n1 + 1 && f1 == f2 && l1 == l2 && !strncmp(name, candidate, f1) &&
	       name[f1] == '_' && candidate[f2] == '_' && !strcmp(name + len1 - l1, candidate + len2 - l2) &&
	       name[len1 - l1 - 1] == '_' && candidate[len2 - l2 - 1] == '_';
}

/* Names the compiler or tracing generates around a function, never what a script meant. */
static bool generated_name(const char *name)
{
	static const char *const prefixes[] = {"__SCT__", "__traceiter_", "__bpf_trace_", "trace_event_raw_event_",
					       "perf_trace_", "trace_raw_output_", "__probestub_", "__pfx_"};
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return strchr(name, '.') != NULL;
}

struct scored {
	const char *name;
	int score;
};

static int compare_scored(const void *a, const void *b)
{
	const struct scored *x = *(const struct scored *const *)a, *y = *(const struct scored *const *)b;
	return x->score != y->score ? x->score - y->score : strcmp(x->name, y->name);
}

void suggest_similar(struct debuginfo *di, const char *name, const struct vec *skip, struct vec *out)
{
	suggest_similar_among(suggest_function_names(di), name, skip, out);
}

void suggest_similar_among(const struct vec *names, const char *name, const struct vec *skip, struct vec *out)
{
	int len = (int)strlen(name);
	int bound = len / 4 < 2 ? 2 : len / 4 > 5 ? 5 : len / 4;
	struct vec found = {0};
	for (int i = 0; i < names->n; i++) {
		const char *c = names->items[i];
		int lc = (int)strlen(c);
		if (lc < len - bound || lc > len + 12 || !strcmp(c, name))
			continue;
		int d = bounded_distance(name, c, bound);
		if (d > bound) {
			if (lc > len && has_words_in_order(name, c))
				d = bound + 1 + (lc - len); /* after every close spelling, the shorter first */
			else if (same_ends(name, c))
				d = bound + 14 + abs(lc - len); /* after those */
			else
				continue;
		}
		bool skipped = generated_name(c);
		for (int j = 0; skip && j < skip->n && !skipped; j++)
			skipped = !strcmp(skip->items[j], c);
		for (int j = 0; j < found.n && !skipped; j++)
			skipped = !strcmp(((struct scored *)found.items[j])->name, c); /* names need not be unique */
		if (skipped)
			continue;
		struct scored *sc = ast_alloc(sizeof(*sc));
		sc->name = c;
		sc->score = d;
		vec_push(&found, sc);
	}
	vec_sort(&found, compare_scored);
	for (int i = 0; i < found.n && i < SUGGEST_MAX_SIMILAR; i++)
		vec_push(out, (void *)((struct scored *)found.items[i])->name);
}

/* ---- parameters ---- */

/* The name of what t is or points to ("kmem_cache" for struct kmem_cache *), or NULL. */
static const char *pointee_name(struct dbg_type *t)
{
	t = dbg_type_strip(t);
	if (t && t->kind == DBG_PTR)
		t = dbg_type_strip(t->target);
	return t ? t->name : NULL;
}

/* Is a type named type_name what a variable called name stands for (bio, cachep: kmem_cache)? */
static bool named_like(const char *type_name, const char *name)
{
	size_t n = strlen(name), tn = strlen(type_name);
	size_t base = n > 3 && name[n - 1] == 'p' ? n - 1 : n; /* cachep: a pointer to a cache */
	if (n > 4 && !strcmp(name + n - 3, "ptr"))
		base = n - 3;
	if (!strcmp(type_name, name) || (tn == base && !strncmp(type_name, name, base)))
		return true;
	/* kmem_cache for cache: the type's last words */
	return tn > base && type_name[tn - base - 1] == '_' && !strncmp(type_name + tn - base, name, base);
}

void suggest_variables(const struct vec *vars, const char *name, const struct vec *members, struct vec *out)
{
	for (int i = 0; i < vars->n; i++) {
		struct dbg_var *v = vars->items[i];
		const char *tn = pointee_name(v->type);
		if (v->is_param && tn && named_like(tn, name))
			vec_push(out, v);
	}
	if (out->n || !members->n)
		return;
	for (int i = 0; i < vars->n; i++) {
		struct dbg_var *v = vars->items[i];
		struct dbg_type *t = dbg_type_strip(v->type);
		if (t && t->kind == DBG_PTR)
			t = dbg_type_strip(t->target);
		if (!v->is_param || !t || (t->kind != DBG_STRUCT && t->kind != DBG_UNION))
			continue;
		bool all = true;
		for (int j = 0; j < members->n && all; j++) {
			uint64_t off = 0;
			all = dbg_member_find(t, members->items[j], &off) != NULL;
		}
		if (all)
			vec_push(out, v);
	}
}
