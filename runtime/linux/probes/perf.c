/* perf.c - perf.sw.* / perf.hw.* probes: a kernel perf counter per online CPU (or on the target task, or on each task running a program) whose overflow runs the probe, or that @perf reads. */

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

#include <linux/binfmts.h>
#include <linux/perf_event.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

static size_t _stp_perf_registered;	/* _stp_perf_probes[0..n) have their counters */

static void _stp_perf_overflow(struct perf_event *event, struct perf_sample_data *data,
			       struct pt_regs *regs)
{
	struct _stp_perf_probe *pp = event->overflow_handler_context;

	_stp_run_probe(pp->probe, regs);
}

static void _stp_perf_release_tasks(struct _stp_perf_probe *pp);

static void _stp_perf_release(struct _stp_perf_probe *pp)
{
	int cpu;

	_stp_perf_release_tasks(pp);
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
 * .process("path") of another program than the target's: a counter on each
 * task (process or thread) that runs path: those running it when the session
 * starts, those that exec it later, and the tasks these make. The scheduler's
 * tracepoints that see them run with preemption off, where a counter cannot
 * be created (that sleeps), so they only claim a slot of the probe's table,
 * holding the task, and a worker creates the counter moments later: the first
 * instructions after an exec or a fork are not counted. The worker also
 * releases the counters of tasks that have exited. A task that execs another
 * program keeps its counter. With the table full (STP_PERF_TASKS tasks
 * counted at once) a new task is not counted, and a skipped probe is counted.
 *
 * @perf reads the slot of current without the lock (a body may run in NMI):
 * a slot's counter is set before its state becomes ACTIVE (release/acquire),
 * and is released only after its task exited, and after an RCU grace period
 * (bodies run with interrupts off) once the slot stopped being ACTIVE.
 */
#define STP_PERF_TASKS 256

enum _stp_perf_state {
	STP_PERF_FREE,		/* no task */
	STP_PERF_WANTED,	/* the worker is to create the task's counter */
	STP_PERF_ACTIVE,	/* counting (event may be NULL: creating it failed) */
	STP_PERF_DEAD,		/* the task exited: the worker is to release the slot */
};

struct _stp_perf_task {
	struct task_struct *task;	/* held (get_task_struct) while the slot is not free */
	struct perf_event *event;	/* the task's counter, once created */
	int state;			/* enum _stp_perf_state */
};

static DEFINE_RAW_SPINLOCK(_stp_perf_lock);	/* guards every tasks table's slots */
static void _stp_perf_work_fn(struct work_struct *work);
static DECLARE_WORK(_stp_perf_work, _stp_perf_work_fn);
static bool _stp_perf_warned;			/* a failed task counter was reported */

/* Give t a slot of pp's table (unless it has one); the worker makes its counter. Any context but NMI. */
static void _stp_perf_claim(struct _stp_perf_probe *pp, struct task_struct *t)
{
	struct _stp_perf_task *free = NULL;
	unsigned long flags;
	size_t i;

	raw_spin_lock_irqsave(&_stp_perf_lock, flags);
	for (i = 0; i < STP_PERF_TASKS; i++) {
		struct _stp_perf_task *slot = &pp->tasks[i];

		if (slot->state == STP_PERF_FREE) {
			if (!free)
				free = slot;
		} else if (slot->task == t && slot->state != STP_PERF_DEAD) {
			raw_spin_unlock_irqrestore(&_stp_perf_lock, flags);
			return;
		}
	}
	if (free) {
		get_task_struct(t);
		free->task = t;
		free->event = NULL;
		free->state = STP_PERF_WANTED;
	}
	raw_spin_unlock_irqrestore(&_stp_perf_lock, flags);
	if (free)
		queue_work(system_wq, &_stp_perf_work);
	else
		_stp_count_skipped();
}

/* Claim t in each path probe whose program is exe. */
static void _stp_perf_claim_all(struct task_struct *t, struct inode *exe)
{
	size_t i;

	for (i = 0; exe && i < ARRAY_SIZE(_stp_perf_probes); i++) {
		struct _stp_perf_probe *pp = &_stp_perf_probes[i];

		if (pp->tasks && d_inode(pp->kpath.dentry) == exe)
			_stp_perf_claim(pp, t);
	}
}

static void _stp_perf_on_exec(void *data, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	_stp_perf_claim_all(p, file_inode(bprm->file));
}

static void _stp_perf_on_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	if (!(child->flags & PF_KTHREAD))
		_stp_perf_claim_all(child, _stp_tf_exe_inode(child, true));
}

static void _stp_perf_on_exit(void *data, struct task_struct *p)
{
	bool dead = false;
	unsigned long flags;
	size_t i, j;

	raw_spin_lock_irqsave(&_stp_perf_lock, flags);
	for (i = 0; i < ARRAY_SIZE(_stp_perf_probes); i++) {
		struct _stp_perf_task *tasks = _stp_perf_probes[i].tasks;

		for (j = 0; tasks && j < STP_PERF_TASKS; j++) {
			if (tasks[j].task == p && (tasks[j].state == STP_PERF_WANTED ||
						   tasks[j].state == STP_PERF_ACTIVE)) {
				WRITE_ONCE(tasks[j].state, STP_PERF_DEAD);
				dead = true;
			}
		}
	}
	raw_spin_unlock_irqrestore(&_stp_perf_lock, flags);
	if (dead)
		queue_work(system_wq, &_stp_perf_work);
}

/* The event pp counts, as perf_event_create_kernel_counter takes it. */
static void _stp_perf_attr(const struct _stp_perf_probe *pp, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = pp->type;
	attr->size = sizeof(*attr);
	attr->config = pp->config;
	attr->sample_period = pp->sample_period;
	attr->freq = pp->freq;
	attr->pinned = 1;
}

/* Process context: the counter of pp on t, or NULL (a failure reported once a session). */
static struct perf_event *_stp_perf_task_counter(struct _stp_perf_probe *pp, struct task_struct *t)
{
	struct perf_event_attr attr;
	struct perf_event *ev;

	_stp_perf_attr(pp, &attr);
	ev = perf_event_create_kernel_counter(&attr, -1, t, pp->counter ? NULL : _stp_perf_overflow, pp);

	if (!IS_ERR(ev))
		return ev;
	/* -ESRCH: the task exited before its counter was made (a short-lived one): nothing to say */
	if (PTR_ERR(ev) != -ESRCH && !xchg(&_stp_perf_warned, true))
		_stp_warn("probe %s at %s: no counter for task %d: %s (%ld)", pp->probe->pp, pp->probe->location,
			  task_pid_nr(t), _stp_perf_strerror((int)PTR_ERR(ev)), PTR_ERR(ev));
	return NULL;
}

/* Create the counters wanted, release the slots of tasks gone. */
static void _stp_perf_work_fn(struct work_struct *work)
{
	struct _stp_perf_task *slot;
	struct perf_event *ev;
	unsigned long flags;
	bool any_dead = false;
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(_stp_perf_probes); i++) {
		struct _stp_perf_probe *pp = &_stp_perf_probes[i];

		for (j = 0; pp->tasks && j < STP_PERF_TASKS; j++) {
			slot = &pp->tasks[j];
			if (READ_ONCE(slot->state) != STP_PERF_WANTED)
				continue;
			ev = _stp_perf_task_counter(pp, slot->task);	/* the slot holds the task */
			raw_spin_lock_irqsave(&_stp_perf_lock, flags);
			slot->event = ev;
			if (slot->state == STP_PERF_WANTED)
				smp_store_release(&slot->state, STP_PERF_ACTIVE);
			raw_spin_unlock_irqrestore(&_stp_perf_lock, flags);
		}
	}
	for (i = 0; i < ARRAY_SIZE(_stp_perf_probes); i++)
		for (j = 0; _stp_perf_probes[i].tasks && j < STP_PERF_TASKS; j++)
			any_dead |= READ_ONCE(_stp_perf_probes[i].tasks[j].state) == STP_PERF_DEAD;
	if (!any_dead)
		return;
	synchronize_rcu();	/* no body still reads a counter of a slot that stopped being ACTIVE */
	for (i = 0; i < ARRAY_SIZE(_stp_perf_probes); i++) {
		for (j = 0; _stp_perf_probes[i].tasks && j < STP_PERF_TASKS; j++) {
			struct task_struct *t;

			slot = &_stp_perf_probes[i].tasks[j];
			raw_spin_lock_irqsave(&_stp_perf_lock, flags);
			if (slot->state != STP_PERF_DEAD) {
				raw_spin_unlock_irqrestore(&_stp_perf_lock, flags);
				continue;
			}
			ev = slot->event;
			t = slot->task;
			slot->event = NULL;
			slot->task = NULL;
			slot->state = STP_PERF_FREE;
			raw_spin_unlock_irqrestore(&_stp_perf_lock, flags);
			if (ev)
				perf_event_release_kernel(ev);
			put_task_struct(t);
		}
	}
}

/* Probe context: current's counter of pp, or NULL. */
static struct perf_event *_stp_perf_current(struct _stp_perf_probe *pp)
{
	size_t i;

	for (i = 0; i < STP_PERF_TASKS; i++) {
		struct _stp_perf_task *slot = &pp->tasks[i];

		if (READ_ONCE(slot->task) == current && smp_load_acquire(&slot->state) == STP_PERF_ACTIVE)
			return READ_ONCE(slot->event);
	}
	return NULL;
}

/* The tracepoints that find the tasks, looked up by name (they are not exported). */
static struct {
	const char *name;
	void *handler;
	struct tracepoint *tp;		/* found */
	bool registered;
} _stp_perf_tracepoints[] = {
	{ "sched_process_exit", _stp_perf_on_exit },
	{ "sched_process_fork", _stp_perf_on_fork },
	{ "sched_process_exec", _stp_perf_on_exec },
};

static void _stp_perf_find_tracepoint(struct tracepoint *tp, void *priv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_perf_tracepoints); i++)
		if (!strcmp(tp->name, _stp_perf_tracepoints[i].name))
			_stp_perf_tracepoints[i].tp = tp;
}

/* Stop finding tasks: after this no slot changes but by the caller. */
static void _stp_perf_stop_tasks(void)
{
	bool any = false;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_perf_tracepoints); i++) {
		if (!_stp_perf_tracepoints[i].registered)
			continue;
		tracepoint_probe_unregister(_stp_perf_tracepoints[i].tp, _stp_perf_tracepoints[i].handler, NULL);
		_stp_perf_tracepoints[i].registered = false;
		any = true;
	}
	if (any)
		tracepoint_synchronize_unregister();
	cancel_work_sync(&_stp_perf_work);
}

/* Start finding the tasks of the path probes: attach the tracepoints, then claim the tasks running now. */
static int _stp_perf_start_tasks(void)
{
	struct task_struct *g, *t;
	size_t i;
	int rc;

	for_each_kernel_tracepoint(_stp_perf_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(_stp_perf_tracepoints); i++) {
		rc = _stp_perf_tracepoints[i].tp ? tracepoint_probe_register(_stp_perf_tracepoints[i].tp,
				_stp_perf_tracepoints[i].handler, NULL) : -ENOENT;
		if (rc) {
			_stp_session_error("perf .process(\"path\") probes: cannot attach to tracepoint %s (%d)",
					   _stp_perf_tracepoints[i].name, rc);
			return rc;
		}
		_stp_perf_tracepoints[i].registered = true;
	}
	rcu_read_lock();
	for_each_process_thread(g, t)
		if (!(t->flags & (PF_KTHREAD | PF_EXITING)))
			_stp_perf_claim_all(t, _stp_tf_exe_inode(t, false));
	rcu_read_unlock();
	return 0;
}

/* Release pp's task counters and program: after _stp_perf_stop_tasks. */
static void _stp_perf_release_tasks(struct _stp_perf_probe *pp)
{
	size_t i;

	if (pp->tasks) {
		for (i = 0; i < STP_PERF_TASKS; i++) {
			if (pp->tasks[i].event)
				perf_event_release_kernel(pp->tasks[i].event);
			if (pp->tasks[i].task)
				put_task_struct(pp->tasks[i].task);
		}
		kfree(pp->tasks);
		pp->tasks = NULL;
	}
	if (pp->kpath.dentry)
		path_put(&pp->kpath);
	memset(&pp->kpath, 0, sizeof(pp->kpath));
}

/* A path counter's value at the end: the sum over the tasks still counted. */
static s64 _stp_perf_tasks_total(struct _stp_perf_probe *pp)
{
	u64 enabled, running;
	s64 total = 0;
	size_t i;

	for (i = 0; i < STP_PERF_TASKS; i++)
		if (pp->tasks[i].event)
			total += perf_event_read_value(pp->tasks[i].event, &enabled, &running);
	return total;
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
	struct perf_event_attr attr;
	int cpu;

	_stp_perf_attr(pp, &attr);
	if (pp->path) {
		int rc = _stp_tf_hold_path(pp->probe, pp->path, &pp->kpath);

		if (rc)
			return rc;
		pp->tasks = kcalloc(STP_PERF_TASKS, sizeof(*pp->tasks), GFP_KERNEL);
		return pp->tasks ? 0 : -ENOMEM;
	}
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

	_stp_perf_stop_tasks();
	for (i = 0; i < _stp_perf_registered; i++) {
		if (!_stp_perf_probes[i].counter)
			continue;
		if (_stp_perf_probes[i].tasks)
			_stp_perf_probes[i].final = _stp_perf_tasks_total(&_stp_perf_probes[i]);
		else
			_stp_perf_probes[i].final = perf_event_read_value(_stp_perf_probes[i].events[0],
									  &enabled, &running);
	}
	WRITE_ONCE(_stp_perf_closed, true);
	synchronize_rcu();	/* a body reading a counter runs with interrupts off */
	while (_stp_perf_registered > 0)
		_stp_perf_release(&_stp_perf_probes[--_stp_perf_registered]);
}

/* All or nothing: on a failure, report it naming the probe, and release the rest. */
static int _stp_perf_register(void)
{
	bool paths = false;
	int rc;

	for (; _stp_perf_registered < ARRAY_SIZE(_stp_perf_probes); _stp_perf_registered++) {
		struct _stp_perf_probe *pp = &_stp_perf_probes[_stp_perf_registered];

		rc = _stp_perf_create(pp);
		if (rc) {
			_stp_session_error("probe %s at %s: %s (%d)", pp->probe->pp, pp->probe->location,
					   _stp_perf_strerror(rc), rc);
			_stp_perf_release(pp);
			_stp_perf_unregister();
			return rc;
		}
		paths |= !!pp->path;
	}
	rc = paths ? _stp_perf_start_tasks() : 0;
	if (rc)
		_stp_perf_unregister();
	return rc;
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
		if (closed || !(pp->tasks || (pp->events && pp->events[0]))) {
			*value = pp->final;
			return 0;
		}
		ev = pp->tasks ? _stp_perf_current(pp) : pp->events[0];
		if (!ev) {
			*value = 0;	/* current is not counted (yet) */
			return 0;
		}
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
