/* probes/never.c - the never probe: checked and compiled like any other, attached to nothing. */
#include "diag.h"
#include "probes.h"

static bool never_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	(void)s;
	(void)out;
	struct probe_component *c = probes_component(pp, 0);
	if (c->arg) {
		diag_error(c->arg->loc, "never takes no argument");
		return false;
	}
	if (probes_ncomponents(pp) > 1) {
		struct probe_component *extra = probes_component(pp, 1);
		diag_error(extra->loc, "unexpected '.%s' after 'never': never probes take no further components",
			   extra->name);
		return false;
	}
	return true;
}

/* Nothing to attach: the body is in _stp_probes[] and no table refers to it. */
static void never_table(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	emit_line(e, "/* %d never probe%s: attached to nothing */", mine->n, mine->n == 1 ? "" : "s");
}

const struct probe_provider probe_never = {
	.name = "never",
	.patterns = (const char *const[]){
		"never",
		NULL,
	},
	.resolve = never_resolve,
	.emit_table = never_table,
};
