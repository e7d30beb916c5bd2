/* probes/begin_end.c - begin, end and error probes, with an optional (priority). */
#include <inttypes.h>
#include <string.h>

#include "diag.h"
#include "probes.h"

static bool be_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	(void)s;
	struct probe_component *c = probes_component(pp, 0);
	if (probes_ncomponents(pp) != 1) {
		struct probe_component *extra = probes_component(pp, 1);
		diag_error(extra->loc, "unexpected '.%s' after '%s': %s probes take no further components",
			   extra->name, c->name, c->name);
		return false;
	}
	out->be_type = !strcmp(c->name, "begin") ? 0 : !strcmp(c->name, "end") ? 1 : 2;
	if (c->arg) {
		if (c->arg->kind != NODE_NUM) {
			diag_error(c->arg->loc, "%s(N) needs a number, the probe's run order", c->name);
			return false;
		}
		out->priority = c->arg->u.num;
	}
	return true;
}

static void be_defines(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	(void)mine;
	emit_line(e, "#define STP_HAVE_BEGIN_END 1");
}

static const char *const be_names[] = {"STP_BE_BEGIN", "STP_BE_END", "STP_BE_ERROR"};

/* Sorted by (type, priority), keeping script order among equals: the run order. */
static void be_table(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	emit_open(e, "static const struct _stp_be_probe _stp_be_probes[] = {");
	for (int type = 0; type < 3; type++) {
		bool *done = ast_alloc((size_t)mine->n + 1);
		for (;;) {
			int best = -1;
			for (int i = 0; i < mine->n; i++) {
				struct resolved_probe *r = mine->items[i];
				if (done[i] || r->be_type != type)
					continue;
				if (best < 0 || r->priority < ((struct resolved_probe *)mine->items[best])->priority)
					best = i;
			}
			if (best < 0)
				break;
			done[best] = true;
			struct resolved_probe *r = mine->items[best];
			emit_line(e, "{ .probe = &_stp_probes[%d], .type = %s, .priority = %" PRId64 "LL },",
				  r->index, be_names[type], r->priority);
		}
	}
	emit_close(e, "};");
}

const struct probe_provider probe_begin_end = {
	.name = "begin",
	.resolve = be_resolve,
	.emit_defines = be_defines,
	.emit_table = be_table,
};
