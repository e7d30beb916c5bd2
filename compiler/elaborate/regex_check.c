/* regex_check.c - pass 2 of s =~ "re": each literal pattern compiled once, a bad one reported at the literal. */
#include <string.h>

#include "diag.h"
#include "regex.h"
#include "regex_check.h"

static bool regex_pre(struct ast_walker *w, struct node *n)
{
	(void)w;
	if (n->kind != NODE_REGEX || n->u.regex.prog || n->u.regex.pattern->kind != NODE_STR)
		return true;
	const char *error = NULL;
	int offset = 0;
	n->u.regex.prog = regex_compile(n->u.regex.pattern->u.str, &error, &offset);
	if (!n->u.regex.prog) {
		/* point at the offending character when the literal has no escapes before it */
		struct node *lit = n->u.regex.pattern;
		struct srcloc at = lit->loc;
		if (lit->tok && strncmp(lit->tok + 1, lit->u.str, (size_t)offset) == 0 && !memchr(lit->tok + 1, '\\', (size_t)offset))
			at.col += 1 + offset;
		diag_error(at, "bad regular expression: %s (at offset %d of \"%s\")", error, offset, lit->u.str);
	}
	return true;
}

bool regex_elaborate(struct session *s)
{
	struct ast_walker w = {.pre = regex_pre};
	for (int i = 0; i < s->functions.n; i++)
		ast_walk(&w, ((struct function *)s->functions.items[i])->body);
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		ast_walk(&w, p->body);
		ast_walk(&w, p->cond);  /* probe p if (s =~ "re") */
	}
	return diag_error_count() == 0;
}
