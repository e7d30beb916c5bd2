/* points.h - probe point text (points.c): what providers, aliases and syscalls.c share. */
#ifndef STAPC_POINTS_H
#define STAPC_POINTS_H

#include "ast.h"

/* Canonical text of a point's components (no marks, no condition). */
const char *probes_point_text(const struct probe_point *pp);

/* Helpers for providers. */
struct probe_component *probes_component(const struct probe_point *pp, int i);
int probes_ncomponents(const struct probe_point *pp);
/* True if a component name has a '*' wildcard. */
bool probes_has_wildcard(const char *name);
/* Glob match of probe point names: '*' matches any run but '.', "**" any run. */
bool probes_glob(const char *pattern, const char *text);

#endif
