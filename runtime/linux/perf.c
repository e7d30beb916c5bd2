/* perf.c - perf.sw.* / perf.hw.* probes: a kernel perf counter per online CPU whose overflow runs the probe. */

#ifndef STP_FAMILY_DECLS /* only code here (families.h) */

/*
 * The overflow handler runs in interrupt context (an hrtimer for the
 * software clocks) or in NMI (hardware counters); the runner copes with
 * both: interrupts off, a probe already running on the CPU makes the hit
 * a skipped one. Counters exist on the CPUs online when the session
 * starts (a CPU brought online later is not sampled). perf_event_release_kernel() waits for a running handler, so no
 * body runs once every counter is released.
 */

#ifdef STP_HAVE_PERF

#include <linux/perf_event.h>

static size_t _stp_perf_registered;	/* _stp_perf_probes[0..n) have their counters */

static void _stp_perf_overflow(struct perf_event *event, struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	struct _stp_perf_probe *pp = event->overflow_handler_context;

	_stp_run_probe(pp->probe, regs);
}

static void _stp_perf_release(struct _stp_perf_probe *pp)
{
	int cpu;

	if (!pp->events)
		return;
	for_each_possible_cpu(cpu)
		if (pp->events[cpu])
			perf_event_release_kernel(pp->events[cpu]);
	kfree(pp->events);
	pp->events = NULL;
}

static const char *_stp_perf_strerror(int rc)
{
	switch (rc) {
	case -ENOENT:
	case -EOPNOTSUPP:
		return "this machine has no such counter (hardware events need a PMU, which this one lacks)";
	case -EINVAL:
		return "the kernel rejects this event or sample period";
	case -EACCES:
	case -EPERM:
		return "not allowed";
	case -ENOMEM:
		return "out of memory";
	default:
		return "cannot create the counter";
	}
}

static int _stp_perf_create(struct _stp_perf_probe *pp)
{
	struct perf_event_attr attr = {
		.type = pp->type,
		.size = sizeof(attr),
		.config = pp->config,
		.sample_period = pp->sample_period,
		.pinned = 1,
	};
	int cpu;

	pp->events = kcalloc(nr_cpu_ids, sizeof(*pp->events), GFP_KERNEL);
	if (!pp->events)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		struct perf_event *ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
									  _stp_perf_overflow, pp);
		if (IS_ERR(ev))
			return PTR_ERR(ev);
		pp->events[cpu] = ev;
	}
	return 0;
}

static void _stp_perf_unregister(void)
{
	while (_stp_perf_registered > 0)
		_stp_perf_release(&_stp_perf_probes[--_stp_perf_registered]);
}

/* All or nothing: on a failure, report it naming the probe, and release the rest. */
static int _stp_perf_register(void)
{
	for (; _stp_perf_registered < ARRAY_SIZE(_stp_perf_probes); _stp_perf_registered++) {
		struct _stp_perf_probe *pp = &_stp_perf_probes[_stp_perf_registered];
		int rc;

		rc = _stp_perf_create(pp);
		if (rc) {
			_stp_session_error("probe %s at %s: %s (%d)", pp->probe->pp, pp->probe->location,
					   _stp_perf_strerror(rc), rc);
			_stp_perf_release(pp);
			_stp_perf_unregister();
			return rc;
		}
	}
	return 0;
}

STP_FAMILY(perf, _stp_perf_register, _stp_perf_unregister);

#endif

#endif /* STP_FAMILY_DECLS */
