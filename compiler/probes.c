/* probes.c - the probe provider table and probe-point resolution (pass 2). */
#include <string.h>

#include <stdlib.h>

#include "diag.h"
#include "probes.h"
#include "targetvar.h"

/* Every probe-point family, in the order their tables are emitted. */
static const struct probe_provider *const providers[] = {
	&probe_begin_end,
	&probe_timer,
	&probe_kprobe,
	&probe_kernel,
	&probe_tracepoint,
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

/* "begin, end, error, timer, ...": the first components the table claims, for diagnostics. */
static const char *supported_families(void)
{
	const char *list = "begin, end, error";
	for (int i = 0; i < NPROVIDERS; i++) {
		if (providers[i] == &probe_begin_end || providers[i] == &probe_tracepoint)
			continue; /* tracepoints are reached as kernel.trace */
		list = ast_printf("%s, %s", list, providers[i]->name);
		if (providers[i] == &probe_kernel)
			list = ast_printf("%s, module", list);
	}
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
		if (providers[i] == &probe_kernel && !strcmp(name, "module"))
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
			if (prov->expand) {
				struct vec matches = {0};
				if (!prov->expand(s, pp, r, &matches)) {
					ok = false;
					continue;
				}
				for (int k = 0; k < matches.n; k++) {
					struct resolved_probe *m = matches.items[k];
					if (!m->pp)
						m->pp = probes_point_text(pp);
					m->index = s->resolved.n;
					vec_push(&s->resolved, m);
				}
				continue;
			}
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

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void probes_list(struct session *s, FILE *out)
{
	struct vec lines = {0};
	for (int i = 0; i < s->resolved.n; i++) {
		struct resolved_probe *r = s->resolved.items[i];
		if (!r->probe)
			continue;
		vec_push(&lines, (void *)(s->list_vars ? ast_printf("%s%s", r->pp, targetvar_list(r->scope)) : r->pp));
	}
	qsort(lines.items, (size_t)lines.n, sizeof(void *), compare_lines);
	for (int i = 0; i < lines.n; i++)
		if (i == 0 || strcmp(lines.items[i], lines.items[i - 1]))
			fprintf(out, "%s\n", (char *)lines.items[i]);
}
