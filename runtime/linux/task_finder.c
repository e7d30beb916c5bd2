/* task_finder.c - process.begin/.end and process.thread.begin/.end, from the scheduler's tracepoints. */

/*
 * Events and where the bodies run (always in the task concerned):
 *
 *  begin         a new process, when it first returns to user space: the
 *                fork tracepoint runs in the parent, so the child is put
 *                in a "pending" set and its first syscall exit (raw
 *                tracepoint sys_exit, which ret_from_fork goes through)
 *                runs the probe. Processes already running when the
 *                session starts are made pending the same way, and begin
 *                on their next syscall exit. process("path").begin also
 *                fires when a process execs path (sched_process_exec).
 *  thread.begin  the same for a new thread of an existing process.
 *  end           the last thread of a process exits (sched_process_exit
 *                once signal->live has dropped to 0).
 *  thread.end    any other thread exits.
 *
 * Which processes: process(PID) that one; process("path") those running
 * path (compared by inode); unnamed probes with -c or -x only the target
 * process and its descendants, else all. At exit the program is gone
 * (exit_mm ran before the tracepoint), so processes running a path that
 * has .end probes are remembered in a "tracked" set from their exec, fork
 * or the start of the session, with a bit per such probe.
 *
 * Both sets are fixed open-addressing tables of STP_TF_SLOTS entries under
 * one raw spinlock: bounded time, no allocation in the tracepoints. When
 * one is full the event is missed and counted as a skipped probe.
 * Unregistration waits for every tracepoint handler (no body runs after),
 * then frees the sets; pending entries never outlive the session.
 */

#include <linux/binfmts.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/namei.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/tracepoint.h>

/* The inode of the program mm runs, or NULL; mm must stay alive meanwhile. */
static struct inode *_stp_tf_mm_exe(struct mm_struct *mm)
{
	struct inode *inode = NULL;
	struct file *exe;

	if (!mm)
		return NULL;
	rcu_read_lock();
	exe = rcu_dereference(mm->exe_file);
	if (exe)
		inode = file_inode(exe);
	rcu_read_unlock();
	return inode;
}

/*
 * The inode of the program t runs, or NULL (a kernel thread, or past
 * exit_mm). Only current changes its own mm, and a child not yet running
 * none, so those need no lock; another task's mm is read under task_lock
 * (process context only: a sleeping lock on PREEMPT_RT).
 */
static struct inode *_stp_tf_exe_inode(struct task_struct *t, bool stable)
{
	struct inode *inode;

	if (t == current || stable)
		return _stp_tf_mm_exe(t->mm);
	task_lock(t);
	inode = _stp_tf_mm_exe(t->mm);
	task_unlock(t);
	return inode;
}

#ifdef STP_HAVE_PROCESS

#define STP_TF_SLOTS 1024		/* entries in each set; a power of two */
#define STP_TF_PENDING_PROCESS 1	/* pending flags: a new process ... */
#define STP_TF_PENDING_THREAD 2		/* ... or a new thread */
#define STP_TF_MAX_DEPTH 64		/* ancestors looked at for "descendant of the target" */

/* A set of pids with flags; pid 0 is a free slot, -1 a deleted one. */
struct _stp_tf_set {
	int count;			/* live entries */
	struct {
		pid_t pid;
		u64 flags;
	} slot[STP_TF_SLOTS];
};

static DEFINE_RAW_SPINLOCK(_stp_tf_lock);	/* guards both sets */
static struct _stp_tf_set *_stp_tf_pending;	/* tid -> STP_TF_PENDING_* */
static struct _stp_tf_set *_stp_tf_tracked;	/* tgid -> bit i: runs _stp_tf_probes[i].path */
static atomic_t _stp_tf_npending = ATOMIC_INIT(0); /* fast check for every syscall exit */
static bool _stp_tf_have[4];			/* a probe of each enum _stp_tf_kind exists */
static u64 _stp_tf_path_end_mask;		/* the path probes of kind end / thread.end */

/* ---- The sets: call with _stp_tf_lock held ---- */

static int _stp_tf_find(struct _stp_tf_set *set, pid_t pid)
{
	unsigned i, h = hash_32((u32)pid, ilog2(STP_TF_SLOTS));

	for (i = 0; i < STP_TF_SLOTS; i++, h = (h + 1) & (STP_TF_SLOTS - 1)) {
		if (set->slot[h].pid == pid)
			return h;
		if (set->slot[h].pid == 0)
			return -1;
	}
	return -1;
}

/* Add flags to pid's entry, creating it; false if the set is full. */
static bool _stp_tf_put(struct _stp_tf_set *set, pid_t pid, u64 flags)
{
	unsigned i, h = hash_32((u32)pid, ilog2(STP_TF_SLOTS));
	int at = _stp_tf_find(set, pid);

	if (at >= 0) {
		set->slot[at].flags |= flags;
		return true;
	}
	for (i = 0; i < STP_TF_SLOTS; i++, h = (h + 1) & (STP_TF_SLOTS - 1)) {
		if (set->slot[h].pid <= 0) {
			set->slot[h].pid = pid;
			set->slot[h].flags = flags;
			set->count++;
			return true;
		}
	}
	return false;
}

/* Remove pid's entry; its flags, 0 if it had none. */
static u64 _stp_tf_take(struct _stp_tf_set *set, pid_t pid)
{
	int at = _stp_tf_find(set, pid);
	u64 flags;

	if (at < 0)
		return 0;
	flags = set->slot[at].flags;
	set->slot[at].pid = -1;
	set->count--;
	return flags;
}

static u64 _stp_tf_get(struct _stp_tf_set *set, pid_t pid)
{
	int at = _stp_tf_find(set, pid);

	return at < 0 ? 0 : set->slot[at].flags;
}

/* ---- Matching ---- */

/* t is the target process or one of its descendants. */
static bool _stp_tf_in_target(struct task_struct *t)
{
	bool found = false;
	int depth;

	rcu_read_lock();
	for (depth = 0; depth < STP_TF_MAX_DEPTH && t->pid; depth++) {
		struct task_struct *parent;

		if (t->tgid == _stp_target) {
			found = true;
			break;
		}
		parent = rcu_dereference(t->real_parent);
		if (parent == t)
			break;
		t = parent;
	}
	rcu_read_unlock();
	return found;
}

/*
 * Whether probe i fires for task t. exe is t's program (NULL after
 * exit_mm); tracked is t's entry in the tracked set, used for path probes
 * when exe is gone.
 */
static bool _stp_tf_match(size_t i, struct task_struct *t, struct inode *exe, u64 tracked)
{
	const struct _stp_tf_probe *p = &_stp_tf_probes[i];

	if (p->pid)
		return t->tgid == p->pid;
	if (p->path)
		return exe ? exe == d_inode(p->kpath.dentry) : !!(tracked & BIT_ULL(i));
	if (_stp_target)
		return _stp_tf_in_target(t);
	return true;
}

/* Bits of the path probes with .end kinds that a process running exe matches. */
static u64 _stp_tf_path_bits(struct inode *exe)
{
	u64 bits = 0;
	size_t i;

	for (i = 0; exe && i < ARRAY_SIZE(_stp_tf_probes) && i < 64; i++)
		if ((_stp_tf_path_end_mask & BIT_ULL(i)) && exe == d_inode(_stp_tf_probes[i].kpath.dentry))
			bits |= BIT_ULL(i);
	return bits;
}

/* Run the probes of kind that match current. */
static void _stp_tf_fire(enum _stp_tf_kind kind, u64 tracked)
{
	struct inode *exe = _stp_tf_exe_inode(current, true);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_tf_probes); i++)
		if (_stp_tf_probes[i].kind == kind && _stp_tf_match(i, current, exe, tracked))
			_stp_run_probe(_stp_tf_probes[i].probe, task_pt_regs(current));
}

/* Whether some probe of kind could fire for t (checked again when it does); stable: see _stp_tf_exe_inode. */
static bool _stp_tf_wanted(enum _stp_tf_kind kind, struct task_struct *t, bool stable)
{
	struct inode *exe;
	size_t i;

	if (!_stp_tf_have[kind])
		return false;
	exe = _stp_tf_exe_inode(t, stable);
	for (i = 0; i < ARRAY_SIZE(_stp_tf_probes); i++)
		if (_stp_tf_probes[i].kind == kind && _stp_tf_match(i, t, exe, 0))
			return true;
	return false;
}

static void _stp_tf_make_pending(struct task_struct *t, u64 flags)
{
	unsigned long irqflags;
	bool ok;

	raw_spin_lock_irqsave(&_stp_tf_lock, irqflags);
	ok = _stp_tf_put(_stp_tf_pending, t->pid, flags);
	atomic_set(&_stp_tf_npending, _stp_tf_pending->count);
	raw_spin_unlock_irqrestore(&_stp_tf_lock, irqflags);
	if (!ok)
		_stp_count_skipped();
}

static void _stp_tf_track(pid_t tgid, u64 bits, bool replace)
{
	unsigned long irqflags;
	bool ok = true;

	raw_spin_lock_irqsave(&_stp_tf_lock, irqflags);
	if (replace)
		_stp_tf_take(_stp_tf_tracked, tgid);
	if (bits)
		ok = _stp_tf_put(_stp_tf_tracked, tgid, bits);
	raw_spin_unlock_irqrestore(&_stp_tf_lock, irqflags);
	if (!ok)
		_stp_count_skipped();
}

/* ---- Tracepoint handlers ---- */

static void _stp_tf_on_fork(void *data, struct task_struct *parent, struct task_struct *child)
{
	bool thread = child->tgid == parent->tgid;
	unsigned long irqflags;
	u64 bits;

	if (child->flags & PF_KTHREAD)
		return;
	if (_stp_tf_wanted(thread ? STP_TF_THREAD_BEGIN : STP_TF_BEGIN, child, true))
		_stp_tf_make_pending(child, thread ? STP_TF_PENDING_THREAD : STP_TF_PENDING_PROCESS);
	if (!thread && _stp_tf_path_end_mask) {
		raw_spin_lock_irqsave(&_stp_tf_lock, irqflags);
		bits = _stp_tf_get(_stp_tf_tracked, parent->tgid);
		raw_spin_unlock_irqrestore(&_stp_tf_lock, irqflags);
		_stp_tf_track(child->tgid, bits, false);
	}
}

static void _stp_tf_on_exec(void *data, struct task_struct *p, pid_t old_pid,
			    struct linux_binprm *bprm)
{
	struct inode *exe = file_inode(bprm->file);
	size_t i;

	if (_stp_tf_path_end_mask)
		_stp_tf_track(p->tgid, _stp_tf_path_bits(exe), true);
	for (i = 0; i < ARRAY_SIZE(_stp_tf_probes); i++) {
		const struct _stp_tf_probe *tp = &_stp_tf_probes[i];

		if (tp->kind == STP_TF_BEGIN && tp->path && exe == d_inode(tp->kpath.dentry))
			_stp_run_probe(tp->probe, task_pt_regs(current));
	}
}

static void _stp_tf_on_exit(void *data, struct task_struct *p)
{
	bool group_dead = atomic_read(&p->signal->live) == 0;
	unsigned long irqflags;
	u64 tracked;

	raw_spin_lock_irqsave(&_stp_tf_lock, irqflags);
	_stp_tf_take(_stp_tf_pending, p->pid);
	atomic_set(&_stp_tf_npending, _stp_tf_pending->count);
	tracked = group_dead ? _stp_tf_take(_stp_tf_tracked, p->tgid)
			     : _stp_tf_get(_stp_tf_tracked, p->tgid);
	raw_spin_unlock_irqrestore(&_stp_tf_lock, irqflags);
	_stp_tf_fire(group_dead ? STP_TF_END : STP_TF_THREAD_END, tracked);
}

/* Every syscall exit: is current a new task waiting for its begin probe? */
static void _stp_tf_on_sys_exit(void *data, struct pt_regs *regs, long ret)
{
	unsigned long irqflags;
	u64 flags;

	if (likely(!atomic_read(&_stp_tf_npending)))
		return;
	/* before RUNNING the body would not run: keep the entry until then */
	if (atomic_read(&_stp_session_state) != STP_SESSION_RUNNING)
		return;
	raw_spin_lock_irqsave(&_stp_tf_lock, irqflags);
	flags = _stp_tf_take(_stp_tf_pending, current->pid);
	atomic_set(&_stp_tf_npending, _stp_tf_pending->count);
	raw_spin_unlock_irqrestore(&_stp_tf_lock, irqflags);
	if (flags & STP_TF_PENDING_PROCESS)
		_stp_tf_fire(STP_TF_BEGIN, 0);
	else if (flags & STP_TF_PENDING_THREAD)
		_stp_tf_fire(STP_TF_THREAD_BEGIN, 0);
}

/* ---- Registration ---- */

/* The tracepoints used, looked up by name (they are not exported). */
static struct {
	const char *name;
	void *handler;
	struct tracepoint *tp;		/* found */
	bool registered;
} _stp_tf_tracepoints[] = {
	{ "sched_process_fork", _stp_tf_on_fork },
	{ "sched_process_exec", _stp_tf_on_exec },
	{ "sched_process_exit", _stp_tf_on_exit },
	{ "sys_exit", _stp_tf_on_sys_exit },
};

static void _stp_tf_find_tracepoint(struct tracepoint *tp, void *priv)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_tf_tracepoints); i++)
		if (!strcmp(tp->name, _stp_tf_tracepoints[i].name))
			_stp_tf_tracepoints[i].tp = tp;
}

static void _stp_tf_unregister(void)
{
	bool any = false;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_tf_tracepoints); i++) {
		if (!_stp_tf_tracepoints[i].registered)
			continue;
		tracepoint_probe_unregister(_stp_tf_tracepoints[i].tp,
					    _stp_tf_tracepoints[i].handler, NULL);
		_stp_tf_tracepoints[i].registered = false;
		any = true;
	}
	if (any)
		tracepoint_synchronize_unregister();	/* no handler runs past here */
	for (i = 0; i < ARRAY_SIZE(_stp_tf_probes); i++) {
		if (_stp_tf_probes[i].kpath.dentry)
			path_put(&_stp_tf_probes[i].kpath);
		memset(&_stp_tf_probes[i].kpath, 0, sizeof(struct path));
	}
	atomic_set(&_stp_tf_npending, 0);
	kfree(_stp_tf_pending);
	kfree(_stp_tf_tracked);
	_stp_tf_pending = _stp_tf_tracked = NULL;
}

/* Processes and threads running now: pending begins, tracked paths. */
static void _stp_tf_scan(void)
{
	struct task_struct *g, *t;

	rcu_read_lock();
	for_each_process_thread(g, t) {
		bool thread = !thread_group_leader(t);

		if (t->flags & (PF_KTHREAD | PF_EXITING))
			continue;
		if (_stp_tf_wanted(thread ? STP_TF_THREAD_BEGIN : STP_TF_BEGIN, t, false))
			_stp_tf_make_pending(t, thread ? STP_TF_PENDING_THREAD : STP_TF_PENDING_PROCESS);
		if (!thread && _stp_tf_path_end_mask)
			_stp_tf_track(t->tgid, _stp_tf_path_bits(_stp_tf_exe_inode(t, false)), false);
	}
	rcu_read_unlock();
}

/* All or nothing: on a failure, report it naming the probe, and undo the rest. */
static int _stp_tf_register(void)
{
	size_t i;
	int rc;

	if (!ARRAY_SIZE(_stp_tf_probes))
		return 0;
	_stp_tf_pending = kzalloc(sizeof(*_stp_tf_pending), GFP_KERNEL);
	_stp_tf_tracked = kzalloc(sizeof(*_stp_tf_tracked), GFP_KERNEL);
	if (!_stp_tf_pending || !_stp_tf_tracked) {
		_stp_session_error("process probes: out of memory");
		_stp_tf_unregister();
		return -ENOMEM;
	}
	for (i = 0; i < ARRAY_SIZE(_stp_tf_probes); i++) {
		struct _stp_tf_probe *p = &_stp_tf_probes[i];

		_stp_tf_have[p->kind] = true;
		if (!p->path)
			continue;
		rc = kern_path(p->path, LOOKUP_FOLLOW, &p->kpath);
		if (rc) {
			memset(&p->kpath, 0, sizeof(struct path));
			_stp_session_error("probe %s at %s: cannot find %s (%d)", p->probe->pp,
					   p->probe->location, p->path, rc);
			_stp_tf_unregister();
			return rc;
		}
		if (p->kind == STP_TF_END || p->kind == STP_TF_THREAD_END) {
			if (i >= 64) {
				_stp_session_error("probe %s at %s: too many process probes (at most 64 "
						   "before a process(\"path\").end)", p->probe->pp,
						   p->probe->location);
				_stp_tf_unregister();
				return -E2BIG;
			}
			_stp_tf_path_end_mask |= BIT_ULL(i);
		}
	}
	for_each_kernel_tracepoint(_stp_tf_find_tracepoint, NULL);
	for (i = 0; i < ARRAY_SIZE(_stp_tf_tracepoints); i++) {
		/* sys_exit is only needed to run begin probes */
		if (i == 3 && !_stp_tf_have[STP_TF_BEGIN] && !_stp_tf_have[STP_TF_THREAD_BEGIN])
			continue;
		rc = _stp_tf_tracepoints[i].tp ? tracepoint_probe_register(_stp_tf_tracepoints[i].tp,
				_stp_tf_tracepoints[i].handler, NULL) : -ENOENT;
		if (rc) {
			_stp_session_error("process probes: cannot attach to tracepoint %s (%d)",
					   _stp_tf_tracepoints[i].name, rc);
			_stp_tf_unregister();
			return rc;
		}
		_stp_tf_tracepoints[i].registered = true;
	}
	_stp_tf_scan();
	return 0;
}

#else

static int _stp_tf_register(void)
{
	return 0;
}

static void _stp_tf_unregister(void)
{
}

#endif
