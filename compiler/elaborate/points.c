/* points.c - probe point text: components, wildcards and globs, the canonical spelling. */
#include <string.h>

#include "points.h"

struct probe_component *probes_component(const struct probe_point *pp, int i)
{
	return i < pp->components.n ? pp->components.items[i] : NULL;
}

int probes_ncomponents(const struct probe_point *pp)
{
	return pp->components.n;
}

bool probes_has_wildcard(const char *name)
{
	return strchr(name, '*') != NULL;
}

/* '*' matches any run of characters except '.', "**" any run at all. */
static bool glob_at(const char *p, const char *t)
{
	while (*p) {
		if (*p == '*') {
			bool cross = p[1] == '*';
			while (*p == '*')
				p++;
			for (const char *rest = t;; rest++) {
				if (glob_at(p, rest))
					return true;
				if (!*rest || (!cross && *rest == '.'))
					return false;
			}
		}
		if (*p != *t)
			return false;
		p++;
		t++;
	}
	return *t == '\0';
}

bool probes_glob(const char *pattern, const char *text)
{
	return glob_at(pattern, text);
}

/* Canonical text of the components only, e.g. kprobe.function("x").return. */
const char *probes_point_text(const struct probe_point *pp)
{
	struct probe_point bare = {.components = pp->components, .loc = pp->loc};
	return ast_probe_point_text(&bare);
}
