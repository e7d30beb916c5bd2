/* probes.h - probe points: the provider table, resolution (pass 2) and emission hooks (pass 3). */
#ifndef STAPC_PROBES_H
#define STAPC_PROBES_H

#include "emit.h"
#include "session.h"

struct probe_provider;
struct ktext;

/* One probe point of one probe, resolved to something the runtime can attach. */
struct resolved_probe {
	struct probe *probe;                    /* whose body runs (a derived probe) */
	struct probe_point *point;              /* concrete: after alias, wildcard and provider
						   expansion; point->optional says whether the
						   runtime may quietly skip it if it cannot attach */
	struct probe_point *user_point;         /* the point in the user's probe it came from */
	const struct probe_provider *provider;  /* who attaches it */
	const char *pp;                         /* canonical text, e.g. timer.ms(100) */
	const char *pn;                         /* pn(): the user's point, wildcards expanded, aliases not */
	bool via_alias;                         /* matched through a probe alias: -l lists pn, not pp */
	int index;                              /* position in _stp_probes[] */
	/* provider data */
	int be_type;                            /* begin_end: 0 begin, 1 end, 2 error */
	int64_t priority;                       /* begin_end: begin(N) */
	uint64_t period_ns;                     /* timer */
	uint64_t randomize_ns;                  /* timer: .randomize(M), 0 if none */
	bool profile;                           /* timer.profile: every tick on every CPU */
	const char *symbol;                     /* kprobe: function name ("mod:name" in a module) */
	bool is_return;                         /* kprobe: .return */
	int64_t offset;                         /* kprobe: bytes past symbol (statements, inline instances) */
	int64_t maxactive;                      /* kprobe .return: .maxactive(N), 0 for the default */
	uint64_t ftrace_site;                   /* kprobe: link-time address of the function's ftrace call
						   site (kernel functions with DWARF), 0 if unknown */
	const struct ktext *ktext;              /* kprobe: the kernel image ftrace_site is in (ktext.h) */
	int64_t callee_return;                  /* kprobe .callee: the call site's return address minus the
						   callee's entry (link-time); 0 for none */
	bool wildcard;                          /* kprobe: matched by a wildcard: skipped with a warning
						   when it cannot be attached, where a named one is fatal */
	struct target_scope *scope;             /* target variables here (targetvar.h), NULL if none */
	const char *tracepoint;                 /* tracepoint: the kernel's name for it */
	int tp_nargs;                           /* tracepoint: arguments its probe function takes */
	const char *tp_module;                  /* tracepoint: the module that defines it (its kernel name), NULL for vmlinux */
	void *data;                             /* other providers: their own resolved data */
};

/*
 * The runtime half of a family: struct _stp_family _stp_family_NAME in its
 * runtime/linux/ file (runtime_api.h). Generated code lists the families
 * the script uses (STP_FAMILIES, STP_FAMILIES_STOP) and the runtime
 * registers and stops exactly those, in the orders the ranks give.
 */
struct runtime_family {
	const char *name;   /* NAME of _stp_family_NAME; NULL ends a list */
	int start_rank;     /* registration order at START, lower first (a failure unwinds in reverse) */
	int stop_rank;      /* unregistration order at stop, lower first */
};

/*
 * A probe-point family. Each lives in its own file under probes/ (and its
 * runtime half under runtime/linux/); a new one is one row in the table in
 * probes.c and never touches the core.
 */
struct probe_provider {
	const char *name;   /* first component it claims: "begin", "timer", "kprobe" */
	/*
	 * Resolve one pp (whose first component is name) into out; report a
	 * diagnostic at the offending component and return false if it is not
	 * a valid point of this family. Runs in pass 2 before the probe bodies
	 * are resolved (probes_derive).
	 */
	bool (*resolve)(struct session *s, struct probe_point *pp, struct resolved_probe *out);
	/*
	 * Instead of resolve, for families where one point may match many
	 * (wildcards): push a filled-in copy of tmpl (struct resolved_probe *)
	 * per match onto out. A match may name another provider in ->provider
	 * (kernel.function is attached by the kprobe family). Return false
	 * with a diagnostic when the point is invalid. When nothing matches:
	 * if pp->optional ('?', '!', or inherited through aliases) return true
	 * with out empty and say nothing (the core skips the point, or tries
	 * the next alternative after a '!'); otherwise report and return false.
	 */
	bool (*expand)(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl, struct vec *out);
	/*
	 * Pass 3, before runtime.h is included: emit the STP_HAVE_* define,
	 * and the STP_* feature defines that say which parts of the family's
	 * runtime mine (the resolved probes it owns) needs; the runtime
	 * compiles out the others (runtime_api.h lists them).
	 * Pass 3, after the probe bodies: emit this family's table over mine
	 * (in order). Contract: the table's name and element type are the
	 * ones runtime_api.h lists for the family.
	 */
	void (*emit_defines)(struct emitter *e, struct session *s, struct vec *mine);
	void (*emit_table)(struct emitter *e, struct session *s, struct vec *mine);
	const struct runtime_family *families; /* its runtime families, {0}-terminated; NULL for none */
};

extern const struct probe_provider probe_begin_end;
extern const struct probe_provider probe_timer;
extern const struct probe_provider probe_kprobe;
extern const struct probe_provider probe_never;
extern const struct probe_provider probe_kernel;      /* kernel.*, module("m").*: probes/dwarf.c */
extern const struct probe_provider probe_tracepoint;  /* kernel.trace("..."): probes/tracepoint.c */
extern const struct probe_provider probe_procfs;      /* procfs("name").read/.write: probes/procfs.c */
extern const struct probe_provider probe_input;       /* input.char, input.line: probes/input.c */
extern const struct probe_provider probe_process;     /* process.*, uprobes: probes/process.c, uprobe.c */
extern const struct probe_provider probe_perf;        /* perf.sw/.hw/.type: probes/perf.c */
extern const struct probe_provider probe_netfilter;   /* netfilter.hook().pf(): probes/netfilter.c */

/* -l / -L: print the resolved points (with -L their target variables), sorted, once each. */
void probes_list(struct session *s, FILE *out);

/*
 * Pass 2, before name resolution: derive the probes the module runs from
 * the script's probes. Aliases are expanded (the user's body wrapped in
 * copies of the alias bodies), wildcards matched against alias names,
 * brace-expanded points already split by the parser, '?' and '!' applied,
 * and each concrete point handed to its provider. Fills s->probes and
 * s->resolved; false on errors.
 */
bool probes_derive(struct session *s);

/*
 * The plain probes of f, a tapset file the program uses (argv.stp's
 * begin(-1)): derived as the script's are, appended to s->probes. Called by
 * resolve.c as files join the program; false on errors.
 */
bool probes_derive_file(struct session *s, struct ast_file *f);

/*
 * Add the alias definitions of f (the script, or a tapset file when it is
 * parsed) to the index probes_derive matches points against; f->rank
 * orders them.
 */
void probes_index_aliases(struct session *s, struct ast_file *f);

/* Providers used by the session (of const struct probe_provider *), each once, in table order. */
void probes_providers_used(struct session *s, struct vec *out);

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
