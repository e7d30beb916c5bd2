/* probes.c - the probe provider table and probe-point resolution (pass 2). */
#include <string.h>

#include "diag.h"
#include "probes.h"

/* Every probe-point family, in the order their tables are emitted. */
static const struct probe_provider *const providers[] = {
	&probe_begin_end,
	&probe_timer,
	&probe_kprobe,
	&probe_procfs,
	&probe_process,
	&probe_perf,


};
#define NPROVIDERS ((int)(sizeof(providers) / sizeof(providers[0])))

struct probe_component *probes_component(const struct probe_point *pp, int i)
{
	return i < pp->components.n ? pp->components.items[i] : NULL;
}

int probes_ncomponents(const struct probe_point *pp)
{
	return pp->components.n;
}

const char *probes_point_text(const struct probe_point *pp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	ast_print_probe_point(f, pp);
	fclose(f);
	return buf;
}

/* "begin, end, error, timer, ...": the families of the table, for diagnostics. */
static const char *supported_families(void)
{
	const char *list = "begin, end, error";
	for (int i = 0; i < NPROVIDERS; i++)
		if (providers[i] != &probe_begin_end)
			list = ast_printf("%s, %s", list, providers[i]->name);
	return list;
}

/* Find the family claiming the first component; begin/end/error share one provider. */
static const struct probe_provider *find_provider(const char *name)
{
	for (int i = 0; i < NPROVIDERS; i++) {
		if (!strcmp(providers[i]->name, name))
			return providers[i];
		if (providers[i] == &probe_begin_end && (!strcmp(name, "end") || !strcmp(name, "error")))
			return providers[i];
	}
	return NULL;
}

bool probes_resolve(struct session *s)
{
	bool ok = true;
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		for (int j = 0; j < p->points.n; j++) {
			struct probe_point *pp = p->points.items[j];
			struct probe_component *first = probes_component(pp, 0);
			const struct probe_provider *prov = first ? find_provider(first->name) : NULL;
			if (!prov) {
				diag_error(pp->loc, "unknown probe point '%s'", probes_point_text(pp));
				diag_note(pp->loc, "supported here: %s", supported_families());
				ok = false;
				continue;
			}
			struct resolved_probe *r = ast_alloc(sizeof(*r));
			r->probe = p;
			r->point = pp;
			r->provider = prov;
			if (!prov->resolve(s, pp, r)) {
				ok = false;
				continue;
			}
			if (!r->pp)
				r->pp = probes_point_text(pp);
			r->index = s->resolved.n;
			vec_push(&s->resolved, r);
		}
	}
	return ok;
}

void probes_providers_used(struct session *s, const struct probe_provider **out, int *n)
{
	*n = 0;
	for (int i = 0; i < NPROVIDERS; i++) {
		for (int j = 0; j < s->resolved.n; j++) {
			struct resolved_probe *r = s->resolved.items[j];
			if (r->provider == providers[i]) {
				out[(*n)++] = providers[i];
				break;
			}
		}
	}
}

/* Walking one probe body: its resolved points, and whether all went well. */
struct target_walk {
	struct session *s;
	struct vec points; /* of struct resolved_probe *: the probe's points */
	bool ok;
};

/* Resolve n at every point of the probe; all must agree on what it is. */
static void resolve_target_node(struct target_walk *tw, struct node *n, bool write)
{
	if (n->u.target.rvalue)
		return;
	const char *rvalue = NULL, *lvalue = NULL;
	enum stp_type type = TYPE_UNKNOWN;
	for (int i = 0; i < tw->points.n; i++) {
		struct resolved_probe *r = tw->points.items[i];
		if (!r->provider->target_var) {
			diag_error(n->loc, "target variable '%s' is not available at probe point '%s'",
				   n->u.target.name, r->pp);
			tw->ok = false;
			return;
		}
		n->u.target.rvalue = n->u.target.lvalue = NULL;
		if (!r->provider->target_var(tw->s, r, n, write)) {
			tw->ok = false;
			return;
		}
		if (i > 0 && (n->type != type || strcmp(n->u.target.rvalue, rvalue) ||
			      (lvalue && strcmp(n->u.target.lvalue, lvalue)))) {
			diag_error(n->loc, "target variable '%s' means different things at '%s' and '%s': "
				   "write separate probes", n->u.target.name,
				   ((struct resolved_probe *)tw->points.items[0])->pp, r->pp);
			tw->ok = false;
			return;
		}
		type = n->type;
		rvalue = n->u.target.rvalue;
		lvalue = n->u.target.lvalue;
	}
}

static bool target_pre(struct ast_walker *w, struct node *n)
{
	struct target_walk *tw = w->data;
	if (n->kind == NODE_ASSIGN && n->u.assign.lhs->kind == NODE_TARGET) {
		resolve_target_node(tw, n->u.assign.lhs, true);
	} else if (n->kind == NODE_INCDEC && n->u.incdec.operand->kind == NODE_TARGET) {
		diag_error(n->loc, "target variable '%s' cannot be incremented or decremented",
			   n->u.incdec.operand->u.target.name);
		tw->ok = false;
	} else if (n->kind == NODE_DELETE && n->u.del.target->kind == NODE_TARGET) {
		diag_error(n->loc, "target variable '%s' cannot be deleted", n->u.del.target->u.target.name);
		tw->ok = false;
	} else if (n->kind == NODE_TARGET) {
		resolve_target_node(tw, n, false);
	}
	return true;
}

bool probes_resolve_targets(struct session *s)
{
	bool ok = true;
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		struct target_walk tw = {.s = s, .ok = true};
		for (int j = 0; j < s->resolved.n; j++) {
			struct resolved_probe *r = s->resolved.items[j];
			if (r->probe == p)
				vec_push(&tw.points, r);
		}
		struct ast_walker w = {.pre = target_pre, .data = &tw};
		ast_walk(&w, p->body);
		ok &= tw.ok;
	}
	return ok;
}
