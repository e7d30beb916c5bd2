/* module_main.c - init/exit, per-CPU contexts, the probe runner and the session state machine; included last by generated code. */

/*
 * Lifecycle
 *
 *  insmod       init: contexts, print buffers, globals, debugfs files,
 *               relay. Nothing is registered, no probe runs.   LOADED
 *  START        (workqueue) the script's families (_stp_families[]:
 *               timers, kprobes, ...) are registered in order (their
 *               bodies wait for RUNNING); if one fails, all are rolled
 *               back, the error names the probe point, and nothing runs,
 *               not even end or error probes. Then the begin probes in
 *               table order; STARTED {status} goes back. STARTING -> RUNNING
 *  exit()       a probe asks to stop: no more bodies run; REQUEST_EXIT
 *               is flagged for stapio.                         -> STOPPING
 *  an error     reported as ERROR; no more bodies run; stapio will send
 *               EXIT.                                          -> ERROR
 *  EXIT         (workqueue) unregister everything and wait until no
 *               handler runs; end probes, or the error probes if the
 *               script ended with an error; EXITED {counters}. -> STOPPED
 *  rmmod        the same stop if stapio never sent EXIT, then frees all.
 *
 * Commands run on an ordered workqueue, so the write() that carries them
 * returns at once and stapio keeps draining output while begin and end
 * probes print; the mutex also serializes them with module exit.
 */

/* The families the script uses (STP_FAMILIES from the generated code), NULL-terminated. */
#define STP_FAMILY_REF(name) &_stp_family_##name,
static const struct _stp_family *const _stp_families[] = { STP_FAMILIES(STP_FAMILY_REF) NULL };
static const struct _stp_family *const _stp_families_stop[] = { STP_FAMILIES_STOP(STP_FAMILY_REF) NULL };
#undef STP_FAMILY_REF

#include "linux/probes/conds.c"
#include "linux/probes/absent.c"

/* ---- Errors, skips and exit: callable from any probe context ---- */

/*
 * The script ends with an error: report it, stop running probe bodies,
 * and have stapio send EXIT (which runs the error probes).
 */
static void _stp_session_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_stp_ctl_vsend_text(STP_MSG_ERROR, fmt, ap);
	va_end(ap);
	atomic_inc(&_stp_error_count);
	atomic_set(&_stp_errored, 1);
	if (atomic_cmpxchg(&_stp_session_state, STP_SESSION_RUNNING,
			   STP_SESSION_ERROR) != STP_SESSION_RUNNING)
		atomic_cmpxchg(&_stp_session_state, STP_SESSION_STARTING,
			       STP_SESSION_ERROR);
	_stp_ctl_request_exit();
}

static void _stp_error_fmt(struct _stp_context *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(c->error_buf, sizeof(c->error_buf), fmt, ap);
	va_end(ap);
	c->last_error = c->error_buf;
}

/* Count one skipped hit; too many end the script (not with --suppress-handler-errors). */
static void _stp_count_skipped(void)
{
	if (atomic64_inc_return(&_stp_skipped) == MAXSKIPPED + 1 &&
	    !IS_ENABLED(STP_SUPPRESS_HANDLER_ERRORS))
		_stp_session_error("Skipped too many probes, check MAXSKIPPED or try again with stap -t for more details.");
}

static void _stp_skip_probe(struct _stp_context *c, const char *why)
{
	_stp_count_skipped();
}

static void _stp_request_exit(void)
{
	if (atomic_cmpxchg(&_stp_session_state, STP_SESSION_RUNNING,
			   STP_SESSION_STOPPING) != STP_SESSION_RUNNING &&
	    atomic_cmpxchg(&_stp_session_state, STP_SESSION_STARTING,
			   STP_SESSION_STOPPING) != STP_SESSION_STARTING)
		return;		/* already stopping, or ended with an error */
	_stp_ctl_request_exit();
}

/* ---- Contexts and the probe runner ---- */

/*
 * The contexts, one per possible CPU. They are allocated with kvzalloc
 * rather than alloc_percpu(struct context): the generated context holds
 * MAXNESTING+1 frames of locals and easily outgrows the per-CPU
 * allocator's 32 KB limit. A per-CPU pointer finds this CPU's in one
 * %gs-relative load; _stp_contexts keeps them for freeing.
 */
static DEFINE_PER_CPU(struct context *, _stp_this_context);

static int _stp_contexts_alloc(void)
{
	int cpu;

	_stp_contexts = kcalloc(nr_cpu_ids, sizeof(*_stp_contexts), GFP_KERNEL);
	if (!_stp_contexts)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		_stp_contexts[cpu] = kvzalloc_node(sizeof(struct context), GFP_KERNEL,
						   cpu_to_node(cpu));
		if (!_stp_contexts[cpu])
			return -ENOMEM;
		per_cpu(_stp_this_context, cpu) = _stp_contexts[cpu];
	}
	return 0;
}

static void _stp_contexts_free(void)
{
	int cpu;

	if (!_stp_contexts)
		return;
	for_each_possible_cpu(cpu) {
		per_cpu(_stp_this_context, cpu) = NULL;
		kvfree(_stp_contexts[cpu]);
	}
	kfree(_stp_contexts);
	_stp_contexts = NULL;
}

/*
 * ", called from SITE" for each call an error unwound through, innermost
 * first, "(N times)" for a recursion ("" for an error in the probe body
 * itself); past STP_CALL_CHAIN sites, how many calls more. In the
 * context's chain_buf: the whole error message is cut at STP_MSG_TEXT_MAX.
 */
static const char *_stp_call_chain(struct context *c)
{
	int used = 0, i;

	BUILD_BUG_ON(sizeof(c->base.chain_buf) < STP_MSG_TEXT_MAX);
	c->base.chain_buf[0] = '\0';
	for (i = 0; i < c->base.ncalled; i++) {
		used += scnprintf(c->base.chain_buf + used, sizeof(c->base.chain_buf) - used, ", called from %s",
				  c->base.called_from[i]);
		if (c->base.called_times[i] > 1)
			used += scnprintf(c->base.chain_buf + used, sizeof(c->base.chain_buf) - used, " (%d times)",
					  c->base.called_times[i]);
	}
	if (c->base.called_more)
		scnprintf(c->base.chain_buf + used, sizeof(c->base.chain_buf) - used, ", and from %d more call%s",
			  c->base.called_more, c->base.called_more == 1 ? "" : "s");
	return c->base.chain_buf;
}

/*
 * A body ended with c->base.last_error set: report it, and put back the
 * fields the hot path counts on (see _stp_probe_run). Out of line: the
 * common case pays only for the test.
 */
static noinline void _stp_probe_failed(struct context *c)
{
	_stp_print_flush();	/* output before the error, so stapio shows it first */
	if (c->base.last_error == _stp_next_unwind)
		;		/* 'next' in a function unwound to the probe: not an error */
	else if (IS_ENABLED(STP_SUPPRESS_HANDLER_ERRORS))
		atomic_inc(&_stp_error_count);	/* --suppress-handler-errors: counted, the script goes on */
	else if (c->base.last_stmt)
		_stp_session_error("%s near %s%s", c->base.last_error, c->base.last_stmt, _stp_call_chain(c));
	else
		_stp_session_error("%s", c->base.last_error);
	c->base.last_error = NULL;
	c->base.last_stmt = NULL;
	c->base.ncalled = 0;
	c->base.called_more = 0;
	c->base.nesting = 0;
}

/*
 * Run one probe body if the session is in state; whether it ran (a .return
 * probe's entry tells its return so: see kprobes.c and uprobes.c).
 *
 * Interrupts stay off from the state check to the end of the body: a
 * timer cannot land in the middle of a kprobe body (a kprobe on an
 * ftrace site or an optimized one runs with interrupts on), and once the
 * state has changed, synchronize_rcu() waits out every body that saw the
 * old one. A hit on a CPU already running a body (an NMI, or a kprobe in
 * something the body called) is skipped and counted.
 *
 * This is every probe's fixed cost, so it is inlined into each handler
 * and does the least it can:
 *  - busy is a plain per-CPU flag: only this CPU touches its context, and
 *    an NMI landing between the test and the store runs to completion and
 *    leaves it as it found it, so no atomic is needed, only compiler
 *    barriers around the body;
 *  - last_error and last_stmt are NULL and nesting is 0 whenever no body
 *    runs (functions return to the depth they were called at, even on an
 *    error; _stp_probe_failed resets them after a failure, and also
 *    absorbs the unwind of a 'next' inside a function), so only the
 *    per-hit fields are written here;
 *  - the regex match cache is reset only in a script that matches
 *    regexes (elsewhere it stays invalid from allocation);
 *  - entry_data (a .return probe's saved entry values), probe_args (a
 *    tracepoint's arguments) and hit_data (a procfs file's text, a
 *    uprobe's table entry) are set only by the runners of those probes
 *    (with_data): no other body reads them;
 *  - the output buffer is checked only after a body that may print
 *    (p->quiet is 0), and regs and probe are set only for a body that may
 *    read them (p->regless is 0); with a constant p from the const
 *    _stp_probes[] these tests fold away at compile time.
 */
static __always_inline bool _stp_probe_run_inline(const struct _stp_probe *p, struct pt_regs *regs,
						  int state, bool with_data, void *entry_data,
						  const unsigned long *args, void *hit_data)
{
	struct context *c;
	unsigned long flags;
	bool ran = false;

	local_irq_save(flags);
	if (unlikely(atomic_read(&_stp_session_state) != state))
		goto out;
	/* probe p if (cond) while cond is false; a constant NULL for most probes */
	if (p->cond && !atomic_read(p->cond))
		goto out;
#ifdef STP_MONITOR
	/* stapio's monitor switched it off (begin and end probes always run) */
	if (state == STP_SESSION_RUNNING && _stp_monitor_is_off(p))
		goto out;
#endif
	c = this_cpu_read(_stp_this_context);
	if (unlikely(c->base.busy)) {
		_stp_count_skipped();
		goto out;
	}
	c->base.busy = 1;
	barrier();
#ifdef STP_HAVE_REGEX
	c->base.regex.valid = 0;
#endif
	c->base.actionremaining = MAXACTION;
	if (!p->regless) {
		c->base.regs = regs;
		c->base.probe = p;
	}
	if (with_data) {
		c->base.entry_data = entry_data;
		c->base.probe_args = args;
		c->base.hit_data = hit_data;
	}
#ifdef STP_TIMING
	{
		cycles_t start = get_cycles();

		p->body(c);
		_stp_timing_add(p, get_cycles() - start);
	}
#else
	p->body(c);
#endif
#ifdef STP_MONITOR
	_stp_monitor_hit(p);
#endif
	if (unlikely(c->base.last_error))
		_stp_probe_failed(c);
	else if (!p->quiet)
		_stp_print_flush_if_any();
	barrier();
	c->base.busy = 0;
	ran = true;
out:
	local_irq_restore(flags);
	return ran;
}

/* For begin, end and error probes, which run in process context. */
static void _stp_probe_run(const struct _stp_probe *p, struct pt_regs *regs, int state)
{
	_stp_probe_run_inline(p, regs, state, true, NULL, NULL, NULL);
}

/* The runner for timers, kprobes and ftrace hooks: only while RUNNING. */
static __always_inline void _stp_run_probe(const struct _stp_probe *p, struct pt_regs *regs)
{
	_stp_probe_run_inline(p, regs, STP_SESSION_RUNNING, false, NULL, NULL, NULL);
}

/* The same, with kretprobe instance data or tracepoint arguments. */
static bool _stp_run_probe_with(const struct _stp_probe *p, struct pt_regs *regs, void *entry_data,
				const unsigned long *args)
{
	return _stp_probe_run_inline(p, regs, STP_SESSION_RUNNING, true, entry_data, args, NULL);
}

/* The same, with data for the provider's target variables (c->base.hit_data). */
static bool _stp_run_probe_data(const struct _stp_probe *p, struct pt_regs *regs, void *entry_data,
				void *hit_data)
{
	return _stp_probe_run_inline(p, regs, STP_SESSION_RUNNING, true, entry_data, NULL, hit_data);
}

/* ---- Session: START and EXIT, in process context ---- */

static void _stp_send_started(int status)
{
	struct _stp_msg_started msg = {
		.status = status,
		.version = STP_PROTOCOL_VERSION,
	};

	_stp_ctl_send(STP_MSG_STARTED, &msg, sizeof(msg), true);
}

/*
 * START is over: the begin probes have run (the state left STARTING) or the
 * families were rolled back. A procfs file exists from its family's
 * registration on, and its open waits for this, so a read or write that
 * comes while the begin probes run is served once they are done instead of
 * being dropped. Set before a rollback removes the files: proc_remove()
 * waits for opens in progress.
 */
static void _stp_start_settle(void)
{
	WRITE_ONCE(_stp_start_settled, true);
	wake_up_all(&_stp_start_wq);
}

static void _stp_session_start(struct work_struct *work)
{
	int rc = 0;
	int i;

	mutex_lock(&_stp_session_mutex);
	if (_stp_start_cmd.version != STP_PROTOCOL_VERSION) {
		_stp_session_error("protocol mismatch: stapio speaks version %u, module %u",
				   _stp_start_cmd.version, STP_PROTOCOL_VERSION);
		_stp_send_started(-EPROTO);
		goto out;
	}
	if (atomic_cmpxchg(&_stp_session_state, STP_SESSION_LOADED,
			   STP_SESSION_STARTING) != STP_SESSION_LOADED)
		goto out;	/* stopped before it started */
	_stp_target = _stp_start_cmd.target_pid;

	_stp_conds_init();	/* kprobes register armed or not by these */
	for (i = 0; _stp_families[i]; i++) {
		rc = _stp_families[i]->register_all();	/* reports and rolls back its own failure */
		if (rc)
			break;
	}
	if (rc) {
		/* undo the families before the one that failed */
		_stp_start_settle();
		while (i-- > 0)
			_stp_families[i]->unregister_all();
		_stp_send_started(rc);
		goto out;
	}

	_stp_begun = true;
	_stp_be_run(STP_BE_BEGIN);
	/* Unless exit() or an error in a begin probe changed it already. */
	atomic_cmpxchg(&_stp_session_state, STP_SESSION_STARTING, STP_SESSION_RUNNING);
	_stp_start_settle();
	_stp_send_started(0);
out:
	mutex_unlock(&_stp_session_mutex);
}

/*
 * Stop the session, once: no handler runs after the unregistration, then
 * the end probes (or the error probes) run. Reports EXITED when told to.
 */
static void _stp_session_stop(bool report)
{
	struct _stp_msg_exited msg = { 0 };
	u64 missed = 0;
	int i;

	mutex_lock(&_stp_session_mutex);
	if (atomic_xchg(&_stp_session_state, STP_SESSION_STOPPING) == STP_SESSION_STOPPED) {
		atomic_set(&_stp_session_state, STP_SESSION_STOPPED);
		mutex_unlock(&_stp_session_mutex);
		return;
	}
	for (i = 0; _stp_families_stop[i]; i++)
		_stp_families_stop[i]->unregister_all();	/* tracepoints wait for callbacks in flight */
	synchronize_rcu();	/* every body that saw RUNNING has finished */

	if (_stp_begun) {
		_stp_be_run(STP_BE_END);
		if (atomic_read(&_stp_errored))
			_stp_be_run(STP_BE_ERROR);
	}
	atomic_set(&_stp_session_state, STP_SESSION_STOPPED);

	if (report) {
		msg.errored = atomic_read(&_stp_errored);
		msg.errors = atomic_read(&_stp_error_count);
		for (i = 0; _stp_families[i]; i++)
			if (_stp_families[i]->missed)
				missed += _stp_families[i]->missed();
		msg.skipped = atomic64_read(&_stp_skipped) + missed;
		msg.dropped = _stp_relay_dropped_count();
		msg.overwritten = _stp_relay_overwritten_count();
		msg.lost_msgs = atomic64_read(&_stp_ctl_lost);
		_stp_ctl_send(STP_MSG_EXITED, &msg, sizeof(msg), true);
	}
	mutex_unlock(&_stp_session_mutex);
}

static void _stp_session_exit_work(struct work_struct *work)
{
	_stp_session_stop(true);
}

static DECLARE_WORK(_stp_start_work, _stp_session_start);
static DECLARE_WORK(_stp_exit_work, _stp_session_exit_work);

/*
 * From the .cmd write handler. Only queues the work (the ordered queue
 * runs START before a later EXIT), and never waits for the session mutex,
 * so an EXIT sent while begin probes run returns at once too.
 */
static int _stp_session_cmd_start(const struct _stp_cmd_start *start)
{
	mutex_lock(&_stp_cmd_mutex);
	if (_stp_started || _stp_exit_queued) {
		mutex_unlock(&_stp_cmd_mutex);
		return -EBUSY;
	}
	_stp_started = true;
	_stp_start_cmd = *start;	/* read by the work, which the queueing orders after this */
	queue_work(_stp_wq, &_stp_start_work);
	mutex_unlock(&_stp_cmd_mutex);
	return 0;
}

/* From the .cmd write handler; a repeated EXIT is accepted and ignored. */
static int _stp_session_cmd_exit(void)
{
	mutex_lock(&_stp_cmd_mutex);
	if (!_stp_exit_queued) {
		_stp_exit_queued = true;
		queue_work(_stp_wq, &_stp_exit_work);
	}
	mutex_unlock(&_stp_cmd_mutex);
	return 0;
}

/* ---- Module init and exit ---- */

/* Release everything init set up; safe after a partial init. */
static void _stp_teardown(void)
{
	_stp_relay_exit();
	_stp_debugfs_exit();
	_stp_conds_exit();
	if (_stp_wq)
		destroy_workqueue(_stp_wq);
	_stp_wq = NULL;
	_stp_globals_free();
	_stp_timing_free();
	_stp_monitor_free();
	_stp_print_free();
	_stp_contexts_free();
}

static int __init _stp_module_init(void)
{
	int rc;

	rc = _stp_contexts_alloc();
	if (!rc)
		rc = _stp_print_init();
	if (!rc)
		rc = _stp_globals_init();
	if (!rc)
		rc = _stp_timing_init();
	if (!rc)
		rc = _stp_monitor_init();
	if (!rc) {
		_stp_wq = alloc_ordered_workqueue("stap_%s", 0, module_name(THIS_MODULE));
		if (!_stp_wq)
			rc = -ENOMEM;
	}
	if (!rc)
		rc = _stp_debugfs_init();
	if (!rc)
		rc = _stp_relay_init();
	if (!rc)
		rc = _stp_ctl_init();
	if (rc) {
		pr_err("%s: initialization failed (%d)\n", module_name(THIS_MODULE), rc);
		_stp_teardown();
	}
	return rc;
}

/* Also the path when stapio died without EXIT: stop first, then free. */
static void __exit _stp_module_exit(void)
{
	flush_workqueue(_stp_wq);
	_stp_session_stop(false);
	_stp_teardown();
}

module_init(_stp_module_init);
module_exit(_stp_module_exit);

#pragma GCC diagnostic pop
