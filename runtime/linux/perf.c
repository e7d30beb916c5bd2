/* perf.c - perf.sw.* / perf.hw.* probes: a kernel perf counter per online CPU (or on the target task) whose overflow runs the probe, or that @perf reads. */

#ifdef STP_FAMILY_DECLS
#ifdef STP_HAVE_PERF
/* @perf("name") (tapset/linux/perf.stp): the count of .counter("name") now; -ENOENT if none. */
static int _stp_perf_read(const char *name, s64 *value);
#endif
#else

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
	case -ESRCH:
		return "the target process is gone";
	default:
		return "cannot create the counter";
	}
}

/*
 * .process: one counter on the target task, created before stapio lets a
 * -c command run (it waits for START), so it counts from the exec on.
 * It counts only that task: threads and children it makes are not added.
 */
static int _stp_perf_create_task(struct _stp_perf_probe *pp, struct perf_event_attr *attr)
{
	struct pid *pid = find_get_pid(_stp_target);
	struct task_struct *task = pid ? get_pid_task(pid, PIDTYPE_PID) : NULL;
	struct perf_event *ev;

	put_pid(pid);
	if (!task)
		return -ESRCH;
	ev = perf_event_create_kernel_counter(attr, -1, task, pp->counter ? NULL : _stp_perf_overflow, pp);
	put_task_struct(task);
	if (IS_ERR(ev))
		return PTR_ERR(ev);
	pp->events[0] = ev;
	return 0;
}

static int _stp_perf_create(struct _stp_perf_probe *pp)
{
	struct perf_event_attr attr = {
		.type = pp->type,
		.size = sizeof(attr),
		.config = pp->config,
		.sample_period = pp->sample_period,
		.freq = pp->freq,
		.pinned = 1,
	};
	int cpu;

	pp->events = kcalloc(nr_cpu_ids, sizeof(*pp->events), GFP_KERNEL);
	if (!pp->events)
		return -ENOMEM;
	if (pp->task)
		return _stp_perf_create_task(pp, &attr);
	for_each_online_cpu(cpu) {
		struct perf_event *ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
									  _stp_perf_overflow, pp);
		if (IS_ERR(ev))
			return PTR_ERR(ev);
		pp->events[cpu] = ev;
	}
	return 0;
}

/*
 * @perf keeps working in the bodies that run after the counters are gone
 * (end probes, those of families stopped later): each counter's final value
 * is kept, and once _stp_perf_closed is seen no body reads a counter.
 */
static bool _stp_perf_closed;

static void _stp_perf_unregister(void)
{
	u64 enabled, running;
	size_t i;

	for (i = 0; i < _stp_perf_registered; i++)
		if (_stp_perf_probes[i].counter)
			_stp_perf_probes[i].final = perf_event_read_value(_stp_perf_probes[i].events[0],
									  &enabled, &running);
	WRITE_ONCE(_stp_perf_closed, true);
	synchronize_rcu();	/* a body reading a counter runs with interrupts off */
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

/*
 * Probe context, interrupts off: the count of a task counter, brought up
 * to date first when it is counting on this CPU (the task is current, as
 * in a probe of the target), as perf_event_read_local does (which modules
 * cannot call); otherwise as of the task's last switch out.
 */
static int _stp_perf_read(const char *name, s64 *value)
{
	bool closed = READ_ONCE(_stp_perf_closed);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_perf_probes); i++) {
		struct _stp_perf_probe *pp = &_stp_perf_probes[i];
		struct perf_event *ev;

		if (!pp->counter || strcmp(pp->counter, name))
			continue;
		if (closed || !pp->events || !pp->events[0]) {
			*value = pp->final;
			return 0;
		}
		ev = pp->events[0];
		if (READ_ONCE(ev->oncpu) == smp_processor_id() && ev->state == PERF_EVENT_STATE_ACTIVE)
			ev->pmu->read(ev);
		*value = local64_read(&ev->count) + atomic64_read(&ev->child_count);
		return 0;
	}
	return -ENOENT;
}

STP_FAMILY(perf, _stp_perf_register, _stp_perf_unregister);

#endif

#endif /* STP_FAMILY_DECLS */
