/* probes.h - probe points: the provider table, resolution (pass 2) and emission hooks (pass 3). */
#ifndef STAPC_PROBES_H
#define STAPC_PROBES_H

#include "emit.h"
#include "session.h"

struct probe_provider;

/* One probe point of one probe, resolved to something the runtime can attach. */
struct resolved_probe {
	struct probe *probe;                    /* whose body runs (a derived probe) */
	struct probe_point *point;              /* concrete: after alias, wildcard and provider
						   expansion; point->optional says whether the
						   runtime may quietly skip it if it cannot attach */
	struct probe_point *user_point;         /* the point in the user's probe it came from */
	const struct probe_provider *provider;  /* who attaches it */
	const char *pp;                         /* canonical text, e.g. timer.ms(100) */
	int index;                              /* position in _stp_probes[] */
	/* provider data */
	int be_type;                            /* begin_end: 0 begin, 1 end, 2 error */
	int64_t priority;                       /* begin_end: begin(N) */
	uint64_t period_ns;                     /* timer */
	uint64_t randomize_ns;                  /* timer: .randomize(M), 0 if none */
	bool profile;                           /* timer.profile: every tick on every CPU */
	const char *symbol;                     /* kprobe: function name */
	bool is_return;                         /* kprobe: .return */
};

/*
 * A probe-point family. Each lives in its own file under probes/; a new one
 * is added to the table in probes.c and never touches the core.
 */
struct probe_provider {
	const char *name;   /* first component it claims: "begin", "timer", "kprobe" */
	/*
	 * Optional, for families whose points name sets of things (a function
	 * name glob, say): expand pp (whose first component is name) into the
	 * concrete points it matches, pushing each struct probe_point * onto
	 * out (build them with probes_point_with_arg or by hand; keep pp's
	 * optional, sufficient and cond fields). Return how many were pushed:
	 * 0 means no match, which the core reports unless the point is
	 * optional ('?', '!'); return -1 after reporting a diagnostic for an
	 * invalid point. Without expand, every point is its own single match.
	 */
	int (*expand)(struct session *s, struct probe_point *pp, struct vec *out);
	/*
	 * Resolve one concrete pp (whose first component is name) into out;
	 * report a diagnostic at the offending component and return false if
	 * it is not a valid point of this family. Runs before the probe
	 * bodies are resolved.
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
};

extern const struct probe_provider probe_begin_end;
extern const struct probe_provider probe_timer;
extern const struct probe_provider probe_kprobe;
extern const struct probe_provider probe_never;

/*
 * Pass 2, before name resolution: derive the probes the module runs from
 * the script's probes. Aliases are expanded (the user's body wrapped in
 * copies of the alias bodies), wildcards matched against alias names,
 * brace-expanded points already split by the parser, '?' and '!' applied,
 * and each concrete point handed to its provider. Fills s->probes and
 * s->resolved; false on errors.
 */
bool probes_derive(struct session *s);

/* Providers used by the session, each once, in table order. */
void probes_providers_used(struct session *s, const struct probe_provider **out, int *n);

/* Canonical text of a point as written. */
const char *probes_point_text(const struct probe_point *pp);

/* Helpers for providers. */
struct probe_component *probes_component(const struct probe_point *pp, int i);
int probes_ncomponents(const struct probe_point *pp);
/* True if a component name has a '*' wildcard. */
bool probes_has_wildcard(const char *name);
/* Glob match of one component name: '*' matches any run of characters. */
bool probes_glob(const char *pattern, const char *text);
/* A copy of pp (marks and condition kept) whose component i has arg as its argument. */
struct probe_point *probes_point_with_arg(const struct probe_point *pp, int i, struct node *arg);

#endif
