/* probes.h - the provider interface: what passes 2 and 3 call the probe families (probes/) through, resolution and emission hooks. */
#ifndef STAPC_PROBES_H
#define STAPC_PROBES_H

#include "emit.h"
#include "points.h"
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
	const char *pn;                         /* pn(): the user's point, wildcards expanded, aliases not */
	bool via_alias;                         /* matched through a probe alias: -l lists pn, not pp */
	bool syscall_wrapper;                   /* a syscall.NAME / nd_syscall.NAME (/ syscall_any) alias's point on the
						   call's wrapper __x64_sys_F(regs): at its entry int_arg(n)
						   and friends read the call's arguments
						   (struct _stp_probe.syscall_args) */
	int index;                              /* position in _stp_probes[] */
	struct target_scope *scope;             /* target variables here (targetvar.h), NULL if none */
	void *data;                             /* the provider's own resolved data (its struct, e.g.
						   struct kprobe_point in probes/kprobe.h), or NULL */
};

/*
 * A runtime file of a provider, runtime/linux/probes/NAME.c. With ranks it is a
 * family the runtime registers: struct _stp_family _stp_family_NAME in that
 * file (runtime_api.h). Generated code lists the registering files of the
 * providers the script uses (STP_FAMILIES, STP_FAMILIES_STOP) and the
 * runtime registers and stops exactly those, in the orders the ranks give.
 */
struct runtime_file {
	const char *name;   /* NAME, without ".c"; NULL ends a list */
	int start_rank;     /* registration order at START, lower first (a failure unwinds in reverse); 0: none */
	int stop_rank;      /* unregistration order at stop, lower first */
};

/*
 * A probe-point family. Each lives in its own file under probes/ (and its
 * runtime half under runtime/linux/probes/, named in its runtime field); a new one
 * is a row in probes/families.def and never touches the core
 * (docs/internals.md, "Adding a probe family").
 */
struct probe_provider {
	/*
	 * The point it claims: a first component ("begin", "timer", "kprobe"),
	 * or the names of the first two ("kernel.trace", "process.syscall"),
	 * which take precedence over a provider of the first alone; arguments
	 * do not matter (process("p").syscall is process.syscall's).
	 */
	const char *name;
	const char *const *also;     /* other first components it claims ("end", "error"), NULL-terminated; or NULL */
	/*
	 * Every form it accepts, NULL-terminated, as --dump-probe-types prints
	 * them: string and number for an argument, EVENT for a name chosen
	 * from a list (docs/language.md#probe-points). A group {a,b,...}
	 * stands for each alternative in turn, "" among them:
	 * "timer.ms(number){,.randomize(number)}" is two forms.
	 */
	const char *const *patterns;
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
	 * Optional: whether a resolved point of the family fires on return (a
	 * point with no target scope still gets one for @entry there); NULL
	 * for families without return points.
	 */
	bool (*is_return)(const struct resolved_probe *r);
	/*
	 * Its feature define ("STP_HAVE_TIMERS"), which pass 3 emits as
	 * "#define FEATURE 1" when the script uses the family; NULL for none
	 * (a family attached by another: kernel.function by kprobe).
	 */
	const char *feature;
	/*
	 * Optional (both). Pass 3, before runtime.h is included, after the
	 * feature define: emit the STP_* defines that say which parts of the
	 * family's runtime mine (the resolved probes it owns) needs; the
	 * runtime compiles out the others (runtime_api.h lists them).
	 * Pass 3, after the probe bodies: emit this family's table over mine
	 * (in order). Contract: the table's name and element type are the
	 * ones the family's runtime file declares (its STP_FAMILY_DECLS half,
	 * or runtime_api.h for the older families).
	 */
	void (*emit_defines)(struct emitter *e, struct session *s, struct vec *mine);
	void (*emit_table)(struct emitter *e, struct session *s, struct vec *mine);
	/*
	 * Optional, for a table of one row per probe: its element type
	 * ("_stp_perf_probe", the table being _stp_perf_probes) and the row
	 * of r. Pass 3 emits them after emit_table (when there is one): the
	 * declaration "static struct T Ts[] = {", the rows of mine in order,
	 * "};".
	 */
	const char *table;
	void (*row)(struct emitter *e, const struct resolved_probe *r);
	/*
	 * Its runtime files in the order they are included, {0}-terminated;
	 * NULL for none: {{"kprobes", 2, 6}, {"modules"}, {0}}. Pass 3
	 * includes every provider's, in table order, each file once (at its
	 * first place: task_finder, which several name), and registers those
	 * with ranks of the providers the script uses.
	 */
	const struct runtime_file *runtime;
	/*
	 * Optional. The kernel function ("mod:name" in a module) whose lines
	 * klines.c tabulates for r (a kprobe's), or NULL.
	 */
	const char *(*kernel_function)(const struct resolved_probe *r);
	/*
	 * Optional. Push the user files r probes (programs, libraries) onto
	 * out: symbols only those whose symbols its hits look up (uprobes'
	 * files, usyms.c), else every file the guest needs (run.c).
	 */
	void (*user_files)(const struct resolved_probe *r, bool symbols, struct vec *out);
};

/*
 * An end probe of the module's own, with a priority after (INT64_MAX) every
 * end probe of the script: the display, the -t report (probes/begin_end.c).
 */
struct resolved_probe *probes_make_end(int64_t priority);

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

/*
 * The runtime files (const char *, "kprobes": runtime/linux/probes/NAME.c)
 * of the providers in used (probes_providers_used), in their order, each
 * once, into out: all a module includes of probes/.
 */
void probes_runtime_files(const struct vec *used, struct vec *out);

/* Every form of every provider (--dump-probe-types), {a,b} groups expanded, in table order, into out (of const char *). */
void probes_patterns(struct vec *out);

#endif
