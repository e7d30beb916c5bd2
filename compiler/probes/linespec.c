/* probes/linespec.c - parsing and matching "func@file:lines" and "func@file+N" (linespec.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo/debuginfo.h"
#include "diag.h"
#include "probes/linespec.h"

/* A positive line number filling all of text. */
static bool parse_line(const char *text, int *out)
{
	char *end;
	long v = strtol(text, &end, 10);
	if (end == text || *end || v <= 0 || v > INT_MAX || text[0] == '+' || text[0] == '-' || text[0] == ' ')
		return false;
	*out = (int)v;
	return true;
}

/* "N", "N-M", "x,y-z" (at most LINESPEC_MAX_RANGES ranges) or "*". */
static bool parse_lines(char *text, struct linespec *ls)
{
	size_t len = strlen(text);
	if (!strcmp(text, "*")) {
		ls->kind = LINESPEC_ANY;
		return true;
	}
	if (!len || text[0] == ',' || text[len - 1] == ',' || strstr(text, ",,"))
		return false;
	ls->kind = LINESPEC_RANGES;
	for (char *part = strtok(text, ","); part; part = strtok(NULL, ",")) {
		if (ls->nranges == LINESPEC_MAX_RANGES)
			return false;
		char *dash = strchr(part, '-');
		int lo, hi;
		if (dash)
			*dash = '\0';
		if (!parse_line(part, &lo) || (dash ? !parse_line(dash + 1, &hi) : (hi = lo, false)) || hi < lo)
			return false;
		ls->ranges[ls->nranges][0] = lo;
		ls->ranges[ls->nranges][1] = hi;
		ls->nranges++;
	}
	return ls->nranges > 0;
}

bool linespec_parse(const char *text, struct linespec *ls, struct srcloc loc)
{
	char *s = ast_strdup(text);
	memset(ls, 0, sizeof(*ls));
	char *at = strchr(s, '@');
	if (at) {
		*at++ = '\0';
		char *colon = strrchr(at, ':'), *plus = strrchr(at, '+');
		if (plus && (!colon || plus > colon) && plus[1] && strspn(plus + 1, "0123456789") == strlen(plus + 1)) {
			*plus++ = '\0';
			ls->kind = LINESPEC_RELATIVE;
			ls->relative = (int)strtol(plus, NULL, 10);
			if (strlen(plus) > 6) {
				diag_error(loc, "relative line '+%s' in \"%s\" is too large", plus, text);
				return false;
			}
		} else if (colon) {
			*colon++ = '\0';
			if (!parse_lines(ast_strdup(colon), ls)) {
				diag_error(loc, "bad line number '%s' in \"%s\" (expected N, N-M, a list of those "
					   "separated by ',', or '*')", colon, text);
				return false;
			}
		}
		if (!*at) {
			diag_error(loc, "missing file name after '@' in \"%s\"", text);
			return false;
		}
		ls->file = at;
	}
	if (!*s) {
		diag_error(loc, "missing function name in \"%s\"", text);
		return false;
	}
	ls->func = s;
	return true;
}

bool linespec_has_line(const struct linespec *ls, int decl_line, int line)
{
	switch (ls->kind) {
	case LINESPEC_NONE:
	case LINESPEC_ANY:
		return true;
	case LINESPEC_RELATIVE:
		return decl_line > 0 && line == decl_line + ls->relative;
	case LINESPEC_RANGES:
		for (int i = 0; i < ls->nranges; i++)
			if (line >= ls->ranges[i][0] && line <= ls->ranges[i][1])
				return true;
		return false;
	}
	return false;
}

bool linespec_spans(const struct linespec *ls, int decl_line, int first, int last)
{
	switch (ls->kind) {
	case LINESPEC_NONE:
	case LINESPEC_ANY:
		return true;
	case LINESPEC_RELATIVE:
		return decl_line > 0 && decl_line + ls->relative >= first && decl_line + ls->relative <= last;
	case LINESPEC_RANGES:
		for (int i = 0; i < ls->nranges; i++)
			if (ls->ranges[i][0] <= last && ls->ranges[i][1] >= first)
				return true;
		return false;
	}
	return false;
}

bool linespec_function_spans(const struct linespec *ls, struct debuginfo *di, struct dbg_func *f)
{
	if (ls->kind == LINESPEC_NONE || ls->kind == LINESPEC_ANY)
		return true;
	if (!f->file || !di->ops->statements)
		return false;
	struct vec lines = {0};
	di->ops->statements(di, f, f->file, &lines);
	int first = f->line, last = 0;
	for (int i = 0; i < lines.n; i++) {
		struct dbg_line *dl = lines.items[i];
		if (dl->inlined)
			continue;
		if (!first || dl->line < first)
			first = dl->line;
		if (dl->line > last)
			last = dl->line;
	}
	return last > 0 && linespec_spans(ls, f->line, first, last);
}

static int compare_ints(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The distinct lines of lines (only the function's own code with own_only), sorted; their number in *n. */
static int *distinct_lines(const struct vec *lines, bool own_only, int *n)
{
	int *v = ast_alloc((lines->n + 1) * sizeof(*v)), k = 0, u = 0;
	for (int i = 0; i < lines->n; i++) {
		const struct dbg_line *dl = lines->items[i];
		if (!own_only || !dl->inlined)
			v[k++] = dl->line;
	}
	qsort(v, k, sizeof(*v), compare_ints);
	for (int i = 0; i < k; i++)
		if (!u || v[u - 1] != v[i])
			v[u++] = v[i];
	*n = u;
	return v;
}

/* The own line of func nearest to want, the later on a tie; -1 if it has none. */
static int nearest_own_line(const struct vec *lines, const struct dbg_func *func, int want)
{
	int best = -1;
	for (int i = 0; i < lines->n; i++) {
		const struct dbg_line *dl = lines->items[i];
		if (dl->func != func || dl->inlined)
			continue;
		int d = abs(dl->line - want), bd = abs(best - want);
		if (best < 0 || d < bd || (d == bd && dl->line > best))
			best = dl->line;
	}
	return best;
}

/*
 * A named line with code (its own or inlined there) is kept as it is; one
 * without moves to the nearest line of a matching function's own code.
 */
void linespec_nearest(const struct linespec *ls, const struct vec *lines, struct vec *out)
{
	bool *keep = ast_alloc(lines->n + 1);
	for (int i = 0; i < lines->n; i++) {
		const struct dbg_line *dl = lines->items[i];
		keep[i] = linespec_has_line(ls, dl->func->line, dl->line) && !(ls->kind == LINESPEC_ANY && dl->inlined);
	}
	if (ls->kind == LINESPEC_RELATIVE) {
		for (int i = 0; i < lines->n; i++) {
			const struct dbg_line *dl = lines->items[i];
			bool exact = false;
			for (int j = 0; j < lines->n && !exact; j++)
				exact = keep[j] && ((const struct dbg_line *)lines->items[j])->func == dl->func;
			if (!exact && !dl->inlined)
				keep[i] = dl->line == nearest_own_line(lines, dl->func, dl->func->line + ls->relative);
		}
	}
	int nall, nown;
	int *all = distinct_lines(lines, false, &nall), *own = distinct_lines(lines, true, &nown);
	if (ls->kind == LINESPEC_RANGES && nown) {
		bool *chosen = ast_alloc(nown);
		for (int r = 0; r < ls->nranges; r++) {
			int lo = ls->ranges[r][0], hi = ls->ranges[r][1];
			chosen[0] |= lo < all[0];                     /* named lines before any code */
			chosen[nown - 1] |= hi > all[nall - 1];       /* and after it */
			for (int want = lo > all[0] ? lo : all[0]; want <= hi && want <= all[nall - 1]; want++) {
				if (bsearch(&want, all, nall, sizeof(*all), compare_ints))
					continue;
				int k = 0;
				while (k < nown - 1 && own[k] < want)
					k++;
				/* own[k] is the first at or after want, or the last; the one before may be nearer */
				if (k > 0 && (own[k] < want || want - own[k - 1] < own[k] - want))
					k--;
				chosen[k] = true;
			}
		}
		for (int i = 0; i < lines->n; i++) {
			const struct dbg_line *dl = lines->items[i];
			const int *at = dl->inlined ? NULL : bsearch(&dl->line, own, nown, sizeof(*own), compare_ints);
			keep[i] |= at && chosen[at - own];
		}
	}
	for (int i = 0; i < lines->n; i++)
		if (keep[i])
			vec_push(out, lines->items[i]);
}

bool linespec_single(const struct linespec *ls)
{
	return ls->kind == LINESPEC_RELATIVE ||
	       (ls->kind == LINESPEC_RANGES && ls->nranges == 1 && ls->ranges[0][0] == ls->ranges[0][1]);
}

const char *linespec_lines_text(const struct linespec *ls)
{
	switch (ls->kind) {
	case LINESPEC_NONE:
		return "";
	case LINESPEC_ANY:
		return ":*";
	case LINESPEC_RELATIVE:
		return ast_printf("+%d", ls->relative);
	case LINESPEC_RANGES: {
		const char *t = ":";
		for (int i = 0; i < ls->nranges; i++)
			t = ls->ranges[i][0] == ls->ranges[i][1]
				    ? ast_printf("%s%s%d", t, i ? "," : "", ls->ranges[i][0])
				    : ast_printf("%s%s%d-%d", t, i ? "," : "", ls->ranges[i][0], ls->ranges[i][1]);
		return t;
	}
	}
	return "";
}
