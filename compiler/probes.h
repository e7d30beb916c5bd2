/* probes.h - probe points: the provider table, resolution (pass 2) and emission hooks (pass 3). */
#ifndef STAPC_PROBES_H
#define STAPC_PROBES_H

#include "emit.h"
#include "session.h"

struct probe_provider;

/* One probe point of one probe, resolved to something the runtime can attach. */
struct resolved_probe {
	struct probe *probe;                    /* whose body runs */
	struct probe_point *point;              /* as written */
	const struct probe_provider *provider;  /* who attaches it */
	const char *pp;                         /* canonical text, e.g. timer.ms(100) */
	int index;                              /* position in _stp_probes[] */
	/* provider data */
	int be_type;                            /* begin_end: 0 begin, 1 end, 2 error */
	int64_t priority;                       /* begin_end: begin(N) */
	uint64_t period_ns;                     /* timer */
	const char *symbol;                     /* kprobe: function name */
	bool is_return;                         /* kprobe: .return */
	void *data;                             /* other providers: their own resolved data */
};

/*
 * A probe-point family. Each lives in its own file under probes/; a new one
 * is added to the table in probes.c and never touches the core.
 */
struct probe_provider {
	const char *name;   /* first component it claims: "begin", "timer", "kprobe" */
	/*
	 * Resolve pp (whose first component is name) into out; report a
	 * diagnostic at the offending component and return false if it is not
	 * a valid point of this family.
	 */
	bool (*resolve)(struct session *s, struct probe_point *pp, struct resolved_probe *out);
	/*
	 * Pass 3, before runtime.h is included: emit the STP_HAVE_* define.
	 * Pass 3, after the probe bodies: emit this family's table over mine
	 * (the resolved probes it owns, in order). Contract: the table's name
	 * and element type are the ones runtime_api.h lists for the family.
	 */
	void (*emit_defines)(struct emitter *e);
	void (*emit_table)(struct emitter *e, struct session *s, struct vec *mine);
	/*
	 * Pass 2, optional: what target variable n ($name) means at point r.
	 * Set n->type and n->u.target.rvalue (a C expression of the generated
	 * body, which may set c->base.last_error), and n->u.target.lvalue when
	 * write (n is assigned to) and the family allows it; report at n and
	 * return false otherwise. NULL: the family has no target variables.
	 */
	bool (*target_var)(struct session *s, struct resolved_probe *r, struct node *n, bool write);
};

extern const struct probe_provider probe_begin_end;
extern const struct probe_provider probe_timer;
extern const struct probe_provider probe_kprobe;
extern const struct probe_provider probe_procfs;
extern const struct probe_provider probe_process;
extern const struct probe_provider probe_perf;

/* Resolve every point of every probe into s->resolved; false on errors. */
bool probes_resolve(struct session *s);

/* Give every target variable of every probe body its meaning; false on errors. */
bool probes_resolve_targets(struct session *s);

/* Providers used by the session, each once, in table order. */
void probes_providers_used(struct session *s, const struct probe_provider **out, int *n);

/* Canonical text of a point as written. */
const char *probes_point_text(const struct probe_point *pp);

/* Helpers for providers. */
struct probe_component *probes_component(const struct probe_point *pp, int i);
int probes_ncomponents(const struct probe_point *pp);

#endif
