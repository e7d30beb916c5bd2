/*
 * process_data.c - process[("path")].data(...).write / .rw: hardware
 * watchpoints in user space, one per thread of each process running the
 * program (register_user_hw_breakpoint), whose hits run the probe.
 *
 * Which threads, and when they are armed:
 *  - processes already running the program when the session starts: each
 *    thread is armed at START, before any body runs;
 *  - a process that execs the program: the sched_process_exec tracepoint
 *    queues a task_work on it (from a fixed pool), which arms it in its own
 *    context as it returns from execve, before its first user instruction;
 *  - threads and processes it creates afterwards: the watchpoint is
 *    created with attr.inherit, so the kernel copies it into each child at
 *    clone() itself. A child that execs another program keeps the copy but
 *    its hits are ignored (the handler checks the program).
 * A PIE's symbol is found at its link-time address plus the load bias:
 * the start of the program's first mapping (file offset 0).
 *
 * The handler runs from the debug exception of the user access, with
 * interrupts off, as kernel.data's (hwbkpt.c). At stop the exec tracepoint
 * goes first, then the queued task_works are waited for (each runs as its
 * task leaves execve), then every watchpoint armed is unregistered, which
 * removes its inherited copies and waits for handlers in flight. At most
 * STP_UDATA_EVENTS threads are armed (more: counted as skipped probes).
 *
 * arm64 reports a watchpoint before the access and steps over it only for
 * perf's own overflow handler: with another one the access would trap again
 * forever. Where the kernel asks uses_default_overflow_handler(), the
 * event's orig_overflow_handler is set to perf's (looked up at START) as it
 * is registered, so the kernel steps; a kernel without that helper refuses
 * the probes at START. The kernel asks before it runs the handler, and the
 * copy a new thread inherits has no orig_overflow_handler: its first hit
 * only sets it and is not reported; the access traps again, and that hit is.
 */

#ifdef STP_FAMILY_DECLS
#ifdef STP_HAVE_PROCESS_DATA
#include <linux/hw_breakpoint.h>
#include <linux/path.h>

/* process("path").data(ADDRESS | "symbol")[.length(N)].write / .rw */
struct _stp_udata_probe {
	const struct _stp_probe *probe;
	const char *path;                /* the program watched */
	unsigned long address;           /* run-time address, or link-time if relative */
	int length;                      /* 1, 2, 4 or 8 bytes */
	int rw;                          /* 1: reads and writes; 0: writes */
	int relative;                    /* 1: add the PIE's load bias */
	int target_only;                 /* 1: only the -c/-x target and its descendants */
	struct path kpath;               /* runtime-owned: path, held while registered */
};
#endif
#else /* the code */
#ifdef STP_HAVE_PROCESS_DATA

#include <linux/cred.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>

#define STP_UDATA_EVENTS 256		/* watchpoints armed at once, one per thread and probe */
#define STP_UDATA_WORKS 64		/* execs whose arming is queued at once */

/* A queued arming of the task that exec'd the program. */
struct _stp_udata_work {
	struct callback_head head;	/* task_work_add's */
	bool busy;			/* queued (under _stp_udata_lock) */
};

static DEFINE_RAW_SPINLOCK(_stp_udata_lock);	/* guards the two tables */
static struct perf_event *_stp_udata_events[STP_UDATA_EVENTS]; /* armed, freed at stop */
static struct _stp_udata_work _stp_udata_works[STP_UDATA_WORKS];
static atomic_t _stp_udata_queued = ATOMIC_INIT(0);	/* task_works not yet done */
static struct tracepoint *_stp_udata_exec_tp;
static bool _stp_udata_exec_on;			/* the exec tracepoint is registered */

#if defined(CONFIG_ARM64) && defined(STP_HAVE_USES_DEFAULT_OVERFLOW_HANDLER) && defined(CONFIG_BPF_SYSCALL)
#define STP_UDATA_STEP 1
#include <linux/kprobes.h>

static perf_overflow_handler_t _stp_udata_step;	/* perf_event_output_forward, found at START */

/* perf_event_output_forward, which modules cannot name: through kallsyms_lookup_name, found by a kprobe. */
static perf_overflow_handler_t _stp_udata_find_step(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long (*lookup)(const char *name);

	if (register_kprobe(&kp))
		return NULL;
	lookup = (unsigned long (*)(const char *))kp.addr;
	unregister_kprobe(&kp);
	return (perf_overflow_handler_t)lookup("perf_event_output_forward");
}
#endif

static void _stp_udata_hit(struct perf_event *bp, struct perf_sample_data *data, struct pt_regs *regs)
{
	const struct _stp_udata_probe *p = bp->overflow_handler_context;

#ifdef STP_UDATA_STEP
	if (bp->orig_overflow_handler != _stp_udata_step) {
		/* an inherited copy: no step this time, so the access traps again and is reported then */
		bp->orig_overflow_handler = _stp_udata_step;
		return;
	}
#endif
	if (current->flags & PF_KTHREAD)
		return;
#ifdef STP_PRIVILEGE_STAPUSR
	if (!_stp_myproc())
		return;	/* only the loading user's own processes */
#endif
	/* an inherited copy in a child that exec'd something else */
	if (_stp_tf_exe_inode(current, true) != d_inode(p->kpath.dentry))
		return;
	if (p->target_only && !_stp_tf_in_target(current))
		return;
	_stp_run_probe(p->probe, regs);
}

/* Whether probe p watches task t, which runs exe. */
static bool _stp_udata_match(const struct _stp_udata_probe *p, struct task_struct *t, struct inode *exe)
{
	if (!exe || exe != d_inode(p->kpath.dentry))
		return false;
	return !p->target_only || _stp_tf_in_target(t);
}

/* The load bias of exe in t: the start of its mapping at file offset 0; 0 if none. */
static unsigned long _stp_udata_bias(struct task_struct *t, struct inode *exe)
{
	struct mm_struct *mm = get_task_mm(t);
	struct vm_area_struct *vma;
	unsigned long bias = 0;

	if (!mm)
		return 0;
	mmap_read_lock(mm);
	for (vma = find_vma(mm, 0); vma; vma = find_vma(mm, vma->vm_end))
		if (vma->vm_file && file_inode(vma->vm_file) == exe && vma->vm_pgoff == 0) {
			bias = vma->vm_start;
			break;
		}
	mmap_read_unlock(mm);
	mmput(mm);
	return bias;
}

/* Whether t already has p's watchpoint (the exec hook and the scan at START can both see it). */
static bool _stp_udata_armed(const struct _stp_udata_probe *p, struct task_struct *t)
{
	unsigned long flags;
	bool found = false;
	size_t i;

	raw_spin_lock_irqsave(&_stp_udata_lock, flags);
	for (i = 0; i < STP_UDATA_EVENTS && !found; i++)
		found = _stp_udata_events[i] && _stp_udata_events[i]->hw.target == t &&
			_stp_udata_events[i]->overflow_handler_context == p;
	raw_spin_unlock_irqrestore(&_stp_udata_lock, flags);
	return found;
}

/* Keep bp in the table; false if it is full. */
static bool _stp_udata_keep(struct perf_event *bp)
{
	unsigned long flags;
	bool kept = false;
	size_t i;

	raw_spin_lock_irqsave(&_stp_udata_lock, flags);
	for (i = 0; i < STP_UDATA_EVENTS && !kept; i++)
		if (!_stp_udata_events[i]) {
			_stp_udata_events[i] = bp;
			kept = true;
		}
	raw_spin_unlock_irqrestore(&_stp_udata_lock, flags);
	return kept;
}

/* Arm every probe that watches t (process context: it sleeps). */
static void _stp_udata_arm(struct task_struct *t)
{
	struct inode *exe = _stp_tf_exe_inode(t, false);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_udata_probes); i++) {
		const struct _stp_udata_probe *p = &_stp_udata_probes[i];
		struct perf_event_attr attr;
		struct perf_event *bp;
		unsigned long addr = p->address;

		if (!_stp_udata_match(p, t, exe) || _stp_udata_armed(p, t))
			continue;
		if (p->relative) {
			unsigned long bias = _stp_udata_bias(t, exe);

			if (!bias) {
				_stp_count_skipped();
				continue;
			}
			addr += bias;
		}
		hw_breakpoint_init(&attr);
		attr.bp_addr = addr;
		attr.bp_len = p->length;	/* HW_BREAKPOINT_LEN_N is N */
		attr.bp_type = p->rw ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
		attr.inherit = 1;		/* the threads and children t creates get a copy */
		bp = register_user_hw_breakpoint(&attr, _stp_udata_hit, (void *)p, t);
		if (IS_ERR(bp)) {
			_stp_warn("probe %s: cannot set a watchpoint at 0x%lx in process %d (%ld%s)", p->probe->pp,
				  addr, t->pid, PTR_ERR(bp),
				  PTR_ERR(bp) == -ENOSPC ? ": all debug registers are in use" : "");
			continue;
		}
#ifdef STP_UDATA_STEP
		bp->orig_overflow_handler = _stp_udata_step;	/* a hit before this: see _stp_udata_hit */
#endif
		if (!_stp_udata_keep(bp)) {
			unregister_hw_breakpoint(bp);
			_stp_count_skipped();
		}
	}
}

/* A queued arming, in the task that exec'd, as it leaves execve. */
static void _stp_udata_work_fn(struct callback_head *head)
{
	struct _stp_udata_work *w = container_of(head, struct _stp_udata_work, head);
	unsigned long flags;

	_stp_udata_arm(current);
	raw_spin_lock_irqsave(&_stp_udata_lock, flags);
	w->busy = false;
	raw_spin_unlock_irqrestore(&_stp_udata_lock, flags);
	atomic_dec(&_stp_udata_queued);	/* last: stop waits for this */
}

static void _stp_udata_on_exec(void *data, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct inode *exe = _stp_tf_exe_inode(current, true);
	struct _stp_udata_work *w = NULL;
	unsigned long flags;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_udata_probes); i++)
		if (_stp_udata_match(&_stp_udata_probes[i], current, exe))
			break;
	if (i == ARRAY_SIZE(_stp_udata_probes))
		return;
	raw_spin_lock_irqsave(&_stp_udata_lock, flags);
	for (i = 0; i < STP_UDATA_WORKS && !w; i++)
		if (!_stp_udata_works[i].busy) {
			w = &_stp_udata_works[i];
			w->busy = true;
		}
	raw_spin_unlock_irqrestore(&_stp_udata_lock, flags);
	if (!w) {
		_stp_count_skipped();
		return;
	}
	atomic_inc(&_stp_udata_queued);
	init_task_work(&w->head, _stp_udata_work_fn);
	if (task_work_add(current, &w->head, TWA_RESUME)) {
		w->busy = false;	/* exiting: nothing to arm */
		atomic_dec(&_stp_udata_queued);
	}
}

/* Arm the threads running a watched program now (START). */
static void _stp_udata_scan(void)
{
	static struct task_struct *tasks[STP_UDATA_EVENTS];
	struct task_struct *g, *t;
	size_t n = 0, i, k;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		struct inode *exe;

		if (t->flags & (PF_KTHREAD | PF_EXITING) || n == STP_UDATA_EVENTS)
			continue;
#ifdef STP_PRIVILEGE_STAPUSR
		if (!uid_eq(task_uid(t), make_kuid(&init_user_ns, _stp_uid)) ||
		    !uid_eq(task_euid(t), make_kuid(&init_user_ns, _stp_uid)))
			continue;
#endif
		exe = _stp_tf_exe_inode(t, false);
		for (k = 0; k < ARRAY_SIZE(_stp_udata_probes); k++)
			if (_stp_udata_match(&_stp_udata_probes[k], t, exe)) {
				get_task_struct(t);
				tasks[n++] = t;
				break;
			}
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		_stp_udata_arm(tasks[i]);
		put_task_struct(tasks[i]);
	}
}

static void _stp_udata_find_tracepoint(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exec"))
		_stp_udata_exec_tp = tp;
}

static void _stp_udata_unregister(void)
{
	size_t i;

	if (_stp_udata_exec_on) {
		tracepoint_probe_unregister(_stp_udata_exec_tp, _stp_udata_on_exec, NULL);
		tracepoint_synchronize_unregister();	/* no new task_work past here */
		_stp_udata_exec_on = false;
	}
	/* a queued task_work runs as its task leaves execve (before any signal stops it) */
	while (atomic_read(&_stp_udata_queued))
		msleep(1);
	for (i = 0; i < STP_UDATA_EVENTS; i++) {
		if (_stp_udata_events[i])
			unregister_hw_breakpoint(_stp_udata_events[i]);
		_stp_udata_events[i] = NULL;
	}
	for (i = 0; i < ARRAY_SIZE(_stp_udata_probes); i++) {
		if (_stp_udata_probes[i].kpath.dentry)
			path_put(&_stp_udata_probes[i].kpath);
		memset(&_stp_udata_probes[i].kpath, 0, sizeof(struct path));
	}
}

/* All or nothing: a failure names the probe point and undoes the rest. */
static int _stp_udata_register(void)
{
	size_t i;
	int rc;

#if defined(CONFIG_ARM64) && !defined(STP_UDATA_STEP)
	_stp_session_error("process.data probes: this arm64 kernel steps over a watched access only for perf's "
			   "own handler (no uses_default_overflow_handler() with CONFIG_BPF_SYSCALL)");
	return -EOPNOTSUPP;
#endif
#ifdef STP_UDATA_STEP
	_stp_udata_step = _stp_udata_find_step();
	if (!_stp_udata_step) {
		_stp_session_error("process.data probes: cannot find perf_event_output_forward, which arm64 "
				   "needs to step over a watched access");
		return -ENOENT;
	}
#endif
	for (i = 0; i < ARRAY_SIZE(_stp_udata_probes); i++) {
		rc = _stp_tf_hold_path(_stp_udata_probes[i].probe, _stp_udata_probes[i].path,
				       &_stp_udata_probes[i].kpath);
		if (rc) {
			_stp_udata_unregister();
			return rc;
		}
	}
	for_each_kernel_tracepoint(_stp_udata_find_tracepoint, NULL);
	rc = _stp_udata_exec_tp ? tracepoint_probe_register(_stp_udata_exec_tp, _stp_udata_on_exec, NULL) : -ENOENT;
	if (rc) {
		_stp_session_error("process.data probes: cannot attach to tracepoint sched_process_exec (%d)", rc);
		_stp_udata_unregister();
		return rc;
	}
	_stp_udata_exec_on = true;
	_stp_udata_scan();	/* after the hook: a process exec'ing meanwhile is seen by one or both */
	return 0;
}

STP_FAMILY(process_data, _stp_udata_register, _stp_udata_unregister);

#endif
#endif /* STP_FAMILY_DECLS */
