/*
 * probes/timer.c - timer.ns/us/ms/s/jiffies/hz(N), with .randomize(M) for
 * all but hz: periodic hrtimers; timer.profile[.tick]: every tick on every CPU;
 * timer.profile.freq.hz(N): N times a second on every CPU.
 */
#include <inttypes.h>
#include <string.h>

#include "diag.h"
#include "probes.h"

/* A resolved_probe's data. */
struct timer_point {
	uint64_t period_ns;        /* the period, whatever the unit */
	uint64_t randomize_ns;     /* .randomize(M), 0 if none */
	bool profile;              /* timer.profile: on every CPU, every tick or period_ns (.freq.hz(N)) */
};

/* Jiffies are converted with the target's HZ; Debian's kernels use 250. */
#define STAPC_ASSUMED_HZ 250

/* Units: name and nanoseconds per unit (0: hz, a frequency). */
static const struct {
	const char *name;
	uint64_t ns;
} timer_units[] = {
	{"ns", 1},
	{"us", 1000},
	{"ms", 1000000},
	{"s", 1000000000},
	{"sec", 1000000000},
	{"msec", 1000000},
	{"usec", 1000},
	{"nsec", 1},
	{"jiffies", 1000000000 / STAPC_ASSUMED_HZ},
	{"hz", 0},
};

/*
 * timer.profile, timer.profile.tick: every tick on every CPU. Linux 6.1 has no
 * timer hook (register_timer_hook is long gone), so .tick, which asks for that
 * hook, is the same per-CPU tick timer as timer.profile. timer.profile.freq.hz(N):
 * the same per-CPU timer N times a second.
 */
static bool profile_resolve(struct probe_point *pp, struct probe_component *c, struct timer_point *out)
{
	if (c->arg) {
		diag_error(c->arg->loc, "timer.profile takes no argument");
		return false;
	}
	out->profile = true;
	int n = probes_ncomponents(pp), next = 2;
	struct probe_component *mode = n > 2 ? probes_component(pp, 2) : NULL;
	if (mode && !mode->arg && !strcmp(mode->name, "tick")) {
		next = 3;
	} else if (mode && !mode->arg && !strcmp(mode->name, "freq")) {
		struct probe_component *hz = n > 3 ? probes_component(pp, 3) : NULL;
		if (!hz || strcmp(hz->name, "hz") || !hz->arg || hz->arg->kind != NODE_NUM) {
			diag_error(hz ? hz->loc : mode->loc, "timer.profile.freq needs .hz(N), e.g. timer.profile.freq.hz(100)");
			return false;
		}
		int64_t hertz = hz->arg->u.num;
		if (hertz <= 0 || hertz > 10000) {
			diag_error(hz->arg->loc, "timer.profile.freq.hz(N) needs N in 1..10000 (a period of at least 100 us), "
				   "not %" PRId64, hertz);
			return false;
		}
		out->period_ns = 1000000000ull / (uint64_t)hertz;
		next = 4;
	}
	if (n > next) {
		struct probe_component *extra = probes_component(pp, next);
		diag_error(extra->loc, "unexpected '.%s' after timer.profile%s", extra->name,
			   next == 3 ? ".tick" : next == 4 ? ".freq.hz(N)" : "");
		return false;
	}
	return true;
}

/* .randomize(M) after timer.UNIT(N): M in the same unit, 0 < M < N. */
static bool randomize_resolve(struct probe_point *pp, struct probe_component *unit, uint64_t unit_ns,
			      struct timer_point *out)
{
	struct probe_component *r = probes_component(pp, 2);
	if (strcmp(r->name, "randomize")) {
		diag_error(r->loc, "unexpected '.%s' in a timer probe point (only .randomize(M) may follow)", r->name);
		return false;
	}
	if (probes_ncomponents(pp) > 3) {
		struct probe_component *extra = probes_component(pp, 3);
		diag_error(extra->loc, "unexpected '.%s' after .randomize(M)", extra->name);
		return false;
	}
	if (!unit_ns) {
		diag_error(r->loc, "timer.hz(N) cannot be randomized");
		return false;
	}
	if (!r->arg || r->arg->kind != NODE_NUM) {
		diag_error(r->loc, "randomize needs a number, the most the period may vary by, e.g. randomize(5)");
		return false;
	}
	int64_t m = r->arg->u.num, n = unit->arg->u.num;
	if (m <= 0) {
		diag_error(r->arg->loc, "randomize(M) needs a positive M, not %" PRId64, m);
		return false;
	}
	if (m >= n) {
		diag_error(r->arg->loc, "randomize(%" PRId64 ") must be smaller than the period %s(%" PRId64 ")", m,
			   unit->name, n);
		return false;
	}
	out->randomize_ns = (uint64_t)m * unit_ns;
	return true;
}

static bool timer_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *r)
{
	(void)s;
	struct timer_point *out = ast_alloc(sizeof(*out));
	r->data = out;
	struct probe_component *unit = probes_component(pp, 1);
	if (!unit) {
		diag_error(pp->loc, "timer probe needs a unit and a period, e.g. timer.ms(100)");
		return false;
	}
	if (!strcmp(unit->name, "profile"))
		return profile_resolve(pp, unit, out);
	for (size_t i = 0; i < sizeof(timer_units) / sizeof(timer_units[0]); i++) {
		if (strcmp(unit->name, timer_units[i].name))
			continue;
		if (!unit->arg || unit->arg->kind != NODE_NUM) {
			diag_error(unit->loc, "timer.%s needs a number, e.g. timer.%s(10)", unit->name, unit->name);
			return false;
		}
		int64_t n = unit->arg->u.num;
		if (n <= 0) {
			diag_error(unit->arg->loc, "timer period must be positive, not %" PRId64, n);
			return false;
		}
		uint64_t ns = timer_units[i].ns ? (uint64_t)n * timer_units[i].ns : 1000000000ull / (uint64_t)n;
		if (timer_units[i].ns && (uint64_t)n > UINT64_MAX / timer_units[i].ns) {
			diag_error(unit->arg->loc, "timer period %" PRId64 " %s is too long", n, unit->name);
			return false;
		}
		if (ns < 100000) {
			diag_error(unit->arg->loc, "timer period below 100 us would swamp the machine");
			return false;
		}
		out->period_ns = ns;
		if (probes_ncomponents(pp) > 2)
			return randomize_resolve(pp, unit, timer_units[i].ns, out);
		return true;
	}
	diag_error(unit->loc, "unknown timer unit '%s' (expected ns, us, ms, s, jiffies, hz or profile)", unit->name);
	return false;
}

static void timer_row(struct emitter *e, const struct resolved_probe *r)
{
	const struct timer_point *t = r->data;
	if (t->profile)
		emit_line(e, "{ .probe = &_stp_probes[%d], .profile = 1, .period_ns = %" PRIu64 "ULL },", r->index,
			  t->period_ns);
	else
		emit_line(e, "{ .probe = &_stp_probes[%d], .period_ns = %" PRIu64 "ULL, .randomize_ns = %" PRIu64 "ULL },",
			  r->index, t->period_ns, t->randomize_ns);
}

const struct probe_provider probe_timer = {
	.name = "timer",
	.patterns = (const char *const[]){
		"timer.profile{,.tick}",
		"timer.profile.freq.hz(number)",
		"timer.hz(number)",
		"timer.{ns,us,ms,s,sec,msec,usec,nsec,jiffies}(number){,.randomize(number)}",
		NULL,
	},
	.resolve = timer_resolve,
	.feature = "STP_HAVE_TIMERS",
	.table = "_stp_timer_probe",
	.row = timer_row,
	.runtime = (const struct runtime_file[]){{"timers", 1, 5}, {0}},
};
