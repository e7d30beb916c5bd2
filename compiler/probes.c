/* probes.c - the probe provider table and probe-point resolution (pass 2). */
#include <string.h>

#include "diag.h"
#include "probes.h"

/* Every probe-point family, in the order their tables are emitted. */
static const struct probe_provider *const providers[] = {
	&probe_begin_end,
	&probe_timer,
	&probe_kprobe,
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
				diag_note(pp->loc, "supported here: begin, end, error, timer.ms(N) and the other "
					  "timer units, kprobe.function(\"name\")[.return]");
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
