/* timing.c - stap -t: each probe's hits and cycles, counted per CPU by the runner and printed at the end. */

#ifdef STP_TIMING

/* One probe's counts on one CPU; only that CPU writes them, with interrupts off. */
struct _stp_probe_timing {
	u64 hits;		/* bodies run */
	u64 sum;		/* cycles, summed */
	u64 sumsq;		/* squares of the cycles (each capped at 2^31), summed, for the variance */
	u64 min;		/* fewest cycles of one hit */
	u64 max;		/* most cycles of one hit */
};

#define STP_NPROBES (sizeof(_stp_probes) / sizeof(_stp_probes[0]))

static struct _stp_probe_timing __percpu *_stp_timings; /* STP_NPROBES per CPU */

static int _stp_timing_init(void)
{
	_stp_timings = __alloc_percpu(sizeof(struct _stp_probe_timing) * STP_NPROBES,
				      __alignof__(struct _stp_probe_timing));
	return _stp_timings ? 0 : -ENOMEM;
}

static void _stp_timing_free(void)
{
	free_percpu(_stp_timings);
	_stp_timings = NULL;
}

/* From the runner, interrupts off: one hit of p took cycles. */
static __always_inline void _stp_timing_add(const struct _stp_probe *p, u64 cycles)
{
	struct _stp_probe_timing *t;
	u64 capped = min_t(u64, cycles, 1ULL << 31);
	size_t i = p - _stp_probes;

	if (i >= STP_NPROBES)
		return;
	t = this_cpu_ptr(_stp_timings) + i;
	if (!t->hits || cycles < t->min)
		t->min = cycles;
	if (cycles > t->max)
		t->max = cycles;
	t->hits++;
	t->sum += cycles;
	t->sumsq += capped * capped;
}

/*
 * The report, from the last end probe (no other probe runs any more):
 * "----- probe hit report: " then one line per probe that ran, as
 * SystemTap prints it: point, (script location), hits, cycles
 * min/avg/max, variance, the point as written, and its index.
 */
static void _stp_timing_report(void)
{
	size_t i;
	int cpu;

	_stp_printf("----- probe hit report: \n");
	for (i = 0; i < STP_NPROBES; i++) {
		struct _stp_probe_timing all = { 0 };
		u64 avg, var = 0;

		for_each_possible_cpu(cpu) {
			const struct _stp_probe_timing *t = per_cpu_ptr(_stp_timings, cpu) + i;

			if (!t->hits)
				continue;
			if (!all.hits || t->min < all.min)
				all.min = t->min;
			all.max = max(all.max, t->max);
			all.hits += t->hits;
			all.sum += t->sum;
			all.sumsq += t->sumsq;
		}
		if (!all.hits)
			continue;
		avg = div64_u64(all.sum, all.hits);
		if (all.hits > 1) {
			u64 mean = min_t(u64, avg, 1ULL << 31);
			u64 sq = div64_u64(all.sumsq, all.hits);

			var = sq > mean * mean ? sq - mean * mean : 0;
		}
		_stp_printf("%s, (%s), hits: %llu, cycles: %llumin/%lluavg/%llumax, variance: %llu, from: %s, index: %zu\n",
			    _stp_probes[i].pp, _stp_probes[i].location, all.hits, all.min, avg, all.max, var,
			    _stp_probes[i].pn ? _stp_probes[i].pn : _stp_probes[i].pp, i);
		_stp_print_flush();
	}
}

#else

static inline int _stp_timing_init(void) { return 0; }
static inline void _stp_timing_free(void) { }

#endif
