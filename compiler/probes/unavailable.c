/*
 * probes/unavailable.c - __unavailable("why"): a point for tapset aliases
 * whose kernel code is gone. It never resolves: used directly it is an
 * error at pass 2 saying why (with the "in expansion of alias" note that
 * names the script's point); optional ('?', or through an optional alias)
 * or reached through a wildcard (vfs.*) it matches nothing, quietly, so an
 * umbrella alias or a wildcard skips it. A suffix an alias passes on
 * (nfsd.proc2.read.return) is as unavailable as the point itself.
 */
#include "diag.h"
#include "probes.h"

static bool user_point_has_wildcard(const struct probe_point *pp)
{
	for (int i = 0; i < probes_ncomponents(pp); i++)
		if (probes_has_wildcard(probes_component(pp, i)->name))
			return true;
	return false;
}

static bool unavailable_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl,
			       struct vec *out)
{
	(void)s;
	(void)out;
	struct probe_component *c = probes_component(pp, 0);
	if (!c->arg || c->arg->kind != NODE_STR) {
		diag_error(c->loc, "__unavailable needs one string, the reason");
		return false;
	}
	if (pp->optional || user_point_has_wildcard(tmpl->user_point))
		return true;
	diag_error(c->loc, "%s", c->arg->u.str);
	return false;
}

/* Never resolves, so it owns no probe: nothing to emit. */
static void unavailable_emit(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)e;
	(void)s;
	(void)mine;
}

const struct probe_provider probe_unavailable = {
	.name = "__unavailable",
	.expand = unavailable_expand,
	.emit_defines = unavailable_emit,
	.emit_table = unavailable_emit,
};
