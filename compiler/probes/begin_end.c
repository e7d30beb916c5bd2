/* probes/begin_end.c - begin, end and error probes, with an optional (priority). */
#include <inttypes.h>
#include <string.h>

#include "diag.h"
#include "probes.h"
#include "families.h"

/* A resolved_probe's data: which of the three, and its run order. */
struct be_point {
	int type;              /* 0 begin, 1 end, 2 error */
	int64_t priority;      /* begin(N): lower runs first; 0 by default */
};

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
	struct be_point *be = ast_alloc(sizeof(*be));
	be->type = !strcmp(c->name, "begin") ? 0 : !strcmp(c->name, "end") ? 1 : 2;
	if (c->arg) {
		if (c->arg->kind != NODE_NUM) {
			diag_error(c->arg->loc, "%s(N) needs a number, the probe's run order", c->name);
			return false;
		}
		be->priority = c->arg->u.num;
	}
	out->data = be;
	return true;
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
				const struct be_point *be = ((struct resolved_probe *)mine->items[i])->data;
				if (done[i] || be->type != type)
					continue;
				if (best < 0 ||
				    be->priority < ((struct be_point *)((struct resolved_probe *)mine->items[best])->data)->priority)
					best = i;
			}
			if (best < 0)
				break;
			done[best] = true;
			struct resolved_probe *r = mine->items[best];
			emit_line(e, "{ .probe = &_stp_probes[%d], .type = %s, .priority = %" PRId64 "LL },",
				  r->index, be_names[type], ((struct be_point *)r->data)->priority);
		}
	}
	emit_close(e, "};");
}

struct resolved_probe *probes_make_end(int64_t priority)
{
	struct resolved_probe *r = ast_alloc(sizeof(*r));
	struct be_point *be = ast_alloc(sizeof(*be));
	be->type = 1;
	be->priority = priority;
	r->provider = &probe_begin_end;
	r->data = be;
	r->pp = "end";
	return r;
}

const struct probe_provider probe_begin_end = {
	.name = "begin",
	.also = (const char *const[]){"end", "error", NULL},
	.patterns = (const char *const[]){"begin", "begin(number)", "end", "end(number)", "error", "error(number)", NULL},
	.resolve = be_resolve,
	.feature = "STP_HAVE_BEGIN_END",
	.emit_table = be_table,
	.runtime = (const struct runtime_file[]){{"begin_end", 0, 0}, {0}},
};
