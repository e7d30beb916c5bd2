/*
 * probes/perf.c - perf.sw.NAME and perf.hw.NAME [.sample(N) | .hz(N)]: a
 * perf event counter on every CPU whose overflow, every N events (default
 * 1000000) or N times a second, runs the probe. Also perf.type(T).config(C)
 * for any raw type and config. With .process the counter is the -c/-x
 * target's instead; with .process("path") every task running path has its
 * own (the target's alone when path is its program); with .counter("NAME")
 * after that it only counts, and @perf("NAME") reads the current task's.
 *
 * Hardware counters need a PMU: where there is none (a virtual machine
 * without one) the module reports it when the session starts.
 */
#include <inttypes.h>
#include <string.h>

#include "diag.h"
#include "probes.h"
#include "probes/process.h"

#define PERF_DEFAULT_SAMPLE 1000000

/* What a perf point resolved to. */
struct perf_point {
	uint32_t type;       /* PERF_TYPE_* (0 hardware, 1 software, ...) */
	uint64_t config;     /* the event within the type */
	uint64_t sample;     /* events per probe hit, or hits a second with freq; 0 for a counter */
	bool freq;           /* .hz(N): sample is a frequency */
	bool task;           /* .process: counts in one task (the -c/-x target) or in path's, not per CPU */
	const char *path;    /* .process("path") of another program than the target's: every task running it; or NULL */
	const char *counter; /* .counter("NAME"): read with @perf("NAME"), the body never runs; or NULL */
};

/* Names SystemTap uses, with the kernel's enum perf_hw_id / perf_sw_ids values. */
static const struct {
	const char *name;
	uint64_t config;
} hw_events[] = {
	{"cpu_cycles", 0}, {"cycles", 0}, {"instructions", 1}, {"cache_references", 2},
	{"cache_misses", 3}, {"branch_instructions", 4}, {"branches", 4}, {"branch_misses", 5},
	{"bus_cycles", 6}, {"stalled_cycles_frontend", 7}, {"stalled_cycles_backend", 8},
	{"ref_cpu_cycles", 9},
}, sw_events[] = {
	{"cpu_clock", 0}, {"task_clock", 1}, {"page_faults", 2}, {"context_switches", 3},
	{"cpu_migrations", 4}, {"page_faults_min", 5}, {"page_faults_maj", 6},
	{"alignment_faults", 7}, {"emulation_faults", 8},
};

static bool number_arg(struct probe_component *c, const char *what, int64_t *v)
{
	if (!c->arg || c->arg->kind != NODE_NUM || c->arg->u.num < 0) {
		diag_error(c->loc, "perf ...%s(N) needs %s", c->name, what);
		return false;
	}
	*v = c->arg->u.num;
	return true;
}

/*
 * .process or .process("path"). Without a path, or with the program of the
 * -c/-x target, the counter follows the target (the task stapio starts or
 * attaches to), so the session needs one. Any other path: every task that
 * runs it gets its own counter (*path, the program's absolute path).
 */
static bool perf_process(struct session *s, struct probe_component *c, const char **path)
{
	*path = NULL;
	if (!c->arg) {
		if (!s->target_cmd && !s->target_pid) {
			diag_error(c->loc, "perf ....process counts in the -c or -x target, and this session has "
				   "neither (name a program: .process(\"path\"))");
			return false;
		}
		return true;
	}
	const char *want, *target = process_target_program(s);
	if (c->arg->kind != NODE_STR || !process_program_path(s, c->arg->u.str, c->arg->loc, false, &want))
		return false;
	const char *have;
	if ((s->target_cmd || s->target_pid) && target && process_program_path(s, target, c->loc, true, &have) &&
	    !strcmp(have, want))
		return true;
	*path = want;
	return true;
}

static bool perf_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	struct perf_point *pt = ast_alloc(sizeof(*pt));
	struct probe_component *kind = probes_component(pp, 1), *ev = probes_component(pp, 2);
	int next = 3;
	if (kind && (!strcmp(kind->name, "sw") || !strcmp(kind->name, "hw")) && !kind->arg) {
		bool hw = !strcmp(kind->name, "hw");
		size_t n = hw ? sizeof(hw_events) / sizeof(hw_events[0]) : sizeof(sw_events) / sizeof(sw_events[0]);
		size_t i;
		for (i = 0; ev && !ev->arg && i < n; i++)
			if (!strcmp(ev->name, hw ? hw_events[i].name : sw_events[i].name))
				break;
		if (!ev || ev->arg || i == n) {
			diag_error(ev ? ev->loc : kind->loc, "unknown perf.%s event%s%s (for example perf.%s.%s)",
				   kind->name, ev ? " " : "", ev ? ev->name : "", kind->name,
				   hw ? "cpu_cycles" : "cpu_clock");
			return false;
		}
		pt->type = hw ? 0 : 1;
		pt->config = hw ? hw_events[i].config : sw_events[i].config;
	} else if (kind && !strcmp(kind->name, "type") && ev && !strcmp(ev->name, "config")) {
		int64_t type, config;
		if (!number_arg(kind, "an event type number", &type) || !number_arg(ev, "a config number", &config))
			return false;
		if (type > 0xffffffffll) {
			diag_error(kind->arg->loc, "perf event type %" PRId64 " is too large", type);
			return false;
		}
		pt->type = (uint32_t)type;
		pt->config = (uint64_t)config;
	} else {
		diag_error(kind ? kind->loc : pp->loc, "expected perf.sw.EVENT, perf.hw.EVENT or perf.type(T).config(C)");
		return false;
	}
	pt->sample = PERF_DEFAULT_SAMPLE;
	struct probe_component *c = probes_component(pp, next);
	bool rate_given = c && (!strcmp(c->name, "sample") || !strcmp(c->name, "hz"));
	if (rate_given) {
		int64_t n;
		pt->freq = !strcmp(c->name, "hz");
		if (!number_arg(c, pt->freq ? "a positive frequency in hertz" : "a positive event count", &n))
			return false;
		if (n == 0) {
			diag_error(c->arg->loc, "perf %s must be positive", pt->freq ? "frequency" : "sample period");
			return false;
		}
		pt->sample = (uint64_t)n;
		c = probes_component(pp, ++next);
	}
	if (c && !strcmp(c->name, "process")) {
		if (!perf_process(s, c, &pt->path))
			return false;
		pt->task = true;
		c = probes_component(pp, ++next);
	}
	if (c && !strcmp(c->name, "counter")) {
		if (!c->arg || c->arg->kind != NODE_STR || !*c->arg->u.str) {
			diag_error(c->loc, "perf ....counter(\"NAME\") needs a name in quotes, which @perf(\"NAME\") reads");
			return false;
		}
		/* man stapprobes lists .counter without .process: the -c/-x target's, when there is one */
		if (!pt->task && !s->target_cmd && !s->target_pid) {
			diag_error(c->loc, "a perf .counter needs .process[(\"path\")] before it, or a -c/-x target: "
				   "@perf reads the counter of the task its probe runs in (a counter per CPU is not "
				   "current elsewhere)");
			return false;
		}
		pt->task = true;
		if (rate_given) {
			diag_error(c->loc, "a perf .counter only counts: it takes no .sample or .hz");
			return false;
		}
		pt->counter = c->arg->u.str;
		pt->sample = 0;
		c = probes_component(pp, ++next);
	}
	if (c) {
		diag_error(c->loc, "unexpected '.%s' in a perf probe point: after the event come .sample(N) or "
			   ".hz(N), .process[(\"path\")], .counter(\"NAME\")", c->name);
		return false;
	}
	out->data = pt;
	return true;
}

static void perf_row(struct emitter *e, const struct resolved_probe *r)
{
	const struct perf_point *pt = r->data;
	emit_line(e, "{ .probe = &_stp_probes[%d], .type = %" PRIu32 ", .config = %" PRIu64 "ULL, "
		  ".sample_period = %" PRIu64 "ULL%s%s%s%s%s%s },", r->index, pt->type, pt->config, pt->sample,
		  pt->freq ? ", .freq = 1" : "", pt->task ? ", .task = 1" : "",
		  pt->path ? ", .path = " : "", pt->path ? emit_c_string(pt->path) : "",
		  pt->counter ? ", .counter = " : "", pt->counter ? emit_c_string(pt->counter) : "");
}

const struct probe_provider probe_perf = {
	.name = "perf",
	.patterns = (const char *const[]){
		"perf.{hw,sw}.EVENT{,.sample(number),.hz(number),.process(string).counter(string)}",
		"perf.type(number).config(number){,.sample(number),.hz(number),.process,.process(string),.counter(string),.process(string).counter(string)}",
		NULL,
	},
	.resolve = perf_resolve,
	.feature = "STP_HAVE_PERF",
	.table = "_stp_perf_probe",
	.row = perf_row,
	.runtime = (const struct runtime_file[]){{"task_finder", 0, 0}, {"perf", 7, 1}, {0}},
};
