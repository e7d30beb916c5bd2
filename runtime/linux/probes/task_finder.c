/* task_finder.c - process.begin/.end and process.thread.begin/.end, from the scheduler's tracepoints. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

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
 *  end           the last thread of a process exits: sched_process_exit
 *                once signal->live has dropped to 0, in one thread only
 *                (see "Which thread ends the process" below).
 *  thread.end    any other thread exits.
 *
 * Which processes: process(PID) that one; process("path") those running
 * path (compared by inode); unnamed probes with -c or -x only the target
 * process and its descendants, else all. At exit the program is gone
 * (exit_mm ran before the tracepoint), so processes running a path that
 * has .end probes are remembered in a "tracked" set from their exec, fork
 * or the start of the session, with a bit per such probe.
 *
 * The sets (those two and the "ended" set below) are fixed open-addressing
 * tables of STP_TF_SLOTS entries under one raw spinlock: bounded time, no
 * allocation in the tracepoints. When one is full the event is missed and
 * counted as a skipped probe. Unregistration waits for every tracepoint
 * handler (no body runs after), then frees the sets; pending entries never
 * outlive the session.
 *
 * Which thread ends the process
 *
 * do_exit() takes signal->live down with atomic_dec_and_test(): the thread
 * that takes it to 0 is the kernel's "group_dead" one. But sched_process_exit
 * comes later, after exit_mm() (which already wakes a pthread_join() on the
 * thread), and is not told group_dead. Between a thread's decrement and its
 * tracepoint, other threads can decrement too, so when threads of a process
 * exit together several can read live == 0 at their tracepoints (a worker
 * still between exit_mm() and the tracepoint when main, having joined it,
 * returns from main() is enough). live == 0 tells that the process is dead,
 * not which thread saw it die; firing end on it alone fires it twice.
 *
 * So live == 0 only makes a thread a candidate, and the candidates agree
 * under _stp_tf_lock: the first one to take the lock fires end, and leaves
 * the process's signal_struct in the "ended" set if another candidate may
 * follow; a later one finds it there and fires thread.end. This is exact
 * whatever the interleaving, because:
 *  - live never rises from 0 (only a live thread can clone another), so
 *    every thread that reads 0 does so after the last decrement, and the
 *    one that did the last decrement reads 0 too: there is at least one
 *    candidate, and the lock orders them all;
 *  - a later candidate has not passed its tracepoint, so it is still on
 *    the thread list with exit_state 0 (set by exit_notify(), after the
 *    tracepoint; it leaves the list only at release_task(), later still).
 *    The first candidate records the process unless no other thread has
 *    exit_state 0, so a single-threaded process never uses the set;
 *  - an entry goes when the group leader is freed (sched_process_free): the
 *    leader is released only once every other thread was, each after its
 *    own tracepoint, so no candidate can follow; and the signal_struct,
 *    freed with the group's last task_struct, cannot belong to another
 *    process before then.
 * The end thus fires once per process, in whichever dying thread got there
 * first; a thread.end of the same process may follow it.
 */

#include <linux/namei.h>
#include <linux/sched/task.h>

/*
 * Up to STP_HAVE_PROCESS: helpers (which program a task runs, the target
 * tree, holding a process("path") probe's program) that process_syscall.c
 * uses too.
 */

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

/* Hold path, a process("path") probe's program: 0, or an error reported naming the probe. */
static int _stp_tf_hold_path(const struct _stp_probe *probe, const char *path, struct path *kpath)
{
	int rc = kern_path(path, LOOKUP_FOLLOW, kpath);

	if (rc) {
		memset(kpath, 0, sizeof(*kpath));
		_stp_session_error("probe %s at %s: cannot find %s (%d)", probe->pp, probe->location, path, rc);
	}
	return rc;
}

#define STP_TF_MAX_DEPTH 64		/* ancestors looked at for "descendant of the target" */

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

#ifdef STP_HAVE_PROCESS

#include <linux/binfmts.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/sched/signal.h>
#include <linux/tracepoint.h>

#define STP_TF_SLOTS 1024		/* entries in each set; a power of two */
#define STP_TF_PENDING_PROCESS 1	/* pending flags: a new process ... */
#define STP_TF_PENDING_THREAD 2		/* ... or a new thread */
#define STP_TF_DELETED ULONG_MAX	/* the key of a deleted slot */

/* A set of keys (pids, or signal_struct addresses) with flags; key 0 is a free slot. */
struct _stp_tf_set {
	int count;			/* live entries */
	struct {
		unsigned long key;	/* 0: free, STP_TF_DELETED: deleted */
		u64 flags;
	} slot[STP_TF_SLOTS];
};

static DEFINE_RAW_SPINLOCK(_stp_tf_lock);	/* guards the three sets */
static struct _stp_tf_set *_stp_tf_pending;	/* tid -> STP_TF_PENDING_* */
static struct _stp_tf_set *_stp_tf_tracked;	/* tgid -> bit i: runs _stp_tf_probes[i].path */
static struct _stp_tf_set *_stp_tf_ended;	/* signal_struct -> tracked bits: end fired, threads may still exit */
static atomic_t _stp_tf_npending = ATOMIC_INIT(0); /* fast check for every syscall exit */
static atomic_t _stp_tf_nended = ATOMIC_INIT(0);   /* fast check for every task freed */
static bool _stp_tf_have[4];			/* a probe of each enum _stp_tf_kind exists */
static u64 _stp_tf_path_end_mask;		/* the path probes of kind end / thread.end */

/* ---- The sets: call with _stp_tf_lock held ---- */

/* key's slot, or -1; key is neither 0 nor STP_TF_DELETED (pids are > 0). */
static int _stp_tf_find(struct _stp_tf_set *set, unsigned long key)
{
	unsigned i, h = hash_long(key, ilog2(STP_TF_SLOTS));

	for (i = 0; i < STP_TF_SLOTS; i++, h = (h + 1) & (STP_TF_SLOTS - 1)) {
		if (set->slot[h].key == key)
			return h;
		if (set->slot[h].key == 0)
			return -1;
	}
	return -1;
}

/* Add flags to key's entry, creating it; false if the set is full. */
static bool _stp_tf_put(struct _stp_tf_set *set, unsigned long key, u64 flags)
{
	unsigned i, h = hash_long(key, ilog2(STP_TF_SLOTS));
	int at = _stp_tf_find(set, key);

	if (at >= 0) {
		set->slot[at].flags |= flags;
		return true;
	}
	for (i = 0; i < STP_TF_SLOTS; i++, h = (h + 1) & (STP_TF_SLOTS - 1)) {
		if (set->slot[h].key == 0 || set->slot[h].key == STP_TF_DELETED) {
			set->slot[h].key = key;
			set->slot[h].flags = flags;
			set->count++;
			return true;
		}
	}
	return false;
}

/* Remove key's entry; its flags, 0 if it had none. */
static u64 _stp_tf_take(struct _stp_tf_set *set, unsigned long key)
{
	int at = _stp_tf_find(set, key);
	u64 flags;

	if (at < 0)
		return 0;
	flags = set->slot[at].flags;
	set->slot[at].key = STP_TF_DELETED;
	set->count--;
	return flags;
}

static u64 _stp_tf_get(struct _stp_tf_set *set, unsigned long key)
{
	int at = _stp_tf_find(set, key);

	return at < 0 ? 0 : set->slot[at].flags;
}

/* ---- Matching ---- */

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
	struct inode *exe;
	size_t i;

#ifdef STP_PRIVILEGE_STAPUSR
	if (!_stp_myproc())
		return;	/* only the loading user's own processes */
#endif
	exe = _stp_tf_exe_inode(current, true);
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
#ifdef STP_PRIVILEGE_STAPUSR
	if (!_stp_myproc())
		return;	/* only the loading user's own processes */
#endif
	for (i = 0; i < ARRAY_SIZE(_stp_tf_probes); i++) {
		const struct _stp_tf_probe *tp = &_stp_tf_probes[i];

		if (tp->kind == STP_TF_BEGIN && tp->path && exe == d_inode(tp->kpath.dentry))
			_stp_run_probe(tp->probe, task_pt_regs(current));
	}
}

/* Another thread of p's process has not reached its exit tracepoint yet, or may not have. */
static bool _stp_tf_others_exiting(struct task_struct *p)
{
	struct task_struct *t;
	bool found = false;

	rcu_read_lock();
	for_each_thread(p, t) {
		if (t != p && !READ_ONCE(t->exit_state)) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}

/*
 * With _stp_tf_lock held, at p's exit tracepoint: 1 if p ends its process
 * (see "Which thread ends the process"), 0 if it is a thread.end, -1 if
 * it would end it but could not record that (the ended set is full: a
 * later candidate tries again). *tracked gets the process's tracked bits.
 */
static int _stp_tf_ends_process(struct task_struct *p, u64 *tracked)
{
	unsigned long sig = (unsigned long)p->signal;
	int at;

	if (atomic_read(&p->signal->live)) {
		*tracked = _stp_tf_get(_stp_tf_tracked, p->tgid);
		return 0;
	}
	at = _stp_tf_find(_stp_tf_ended, sig);
	if (at >= 0) {
		*tracked = _stp_tf_ended->slot[at].flags;
		return 0;
	}
	*tracked = _stp_tf_take(_stp_tf_tracked, p->tgid);
	if (!_stp_tf_others_exiting(p))
		return 1;
	if (!_stp_tf_put(_stp_tf_ended, sig, *tracked)) {
		if (*tracked)
			_stp_tf_put(_stp_tf_tracked, p->tgid, *tracked);	/* just freed a slot */
		return -1;
	}
	atomic_set(&_stp_tf_nended, _stp_tf_ended->count);
	return 1;
}

static void _stp_tf_on_exit(void *data, struct task_struct *p)
{
	/* kernel threads have no begin (see _stp_tf_on_fork), nor an end */
	bool any_end = (_stp_tf_have[STP_TF_END] || _stp_tf_have[STP_TF_THREAD_END]) &&
		       !(p->flags & PF_KTHREAD);
	unsigned long irqflags;
	u64 tracked = 0;
	int ends = 0;

	raw_spin_lock_irqsave(&_stp_tf_lock, irqflags);
	_stp_tf_take(_stp_tf_pending, p->pid);
	atomic_set(&_stp_tf_npending, _stp_tf_pending->count);
	if (any_end)
		ends = _stp_tf_ends_process(p, &tracked);
	raw_spin_unlock_irqrestore(&_stp_tf_lock, irqflags);
	if (!any_end)
		return;
	if (ends < 0)
		_stp_count_skipped();
	else
		_stp_tf_fire(ends ? STP_TF_END : STP_TF_THREAD_END, tracked);
}

/* A task is freed (an RCU callback): once its group leader, no thread of the process exits any more. */
static void _stp_tf_on_free(void *data, struct task_struct *p)
{
	unsigned long irqflags;

	if (likely(!atomic_read(&_stp_tf_nended)) || !thread_group_leader(p))
		return;
	raw_spin_lock_irqsave(&_stp_tf_lock, irqflags);
	_stp_tf_take(_stp_tf_ended, (unsigned long)p->signal);
	atomic_set(&_stp_tf_nended, _stp_tf_ended->count);
	raw_spin_unlock_irqrestore(&_stp_tf_lock, irqflags);
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

/* Which probes need a tracepoint (beyond those every session needs). */
enum _stp_tf_need { STP_TF_NEED_ALWAYS, STP_TF_NEED_BEGINS, STP_TF_NEED_ENDS };

/*
 * The tracepoints used, looked up by name (they are not exported), in
 * registration order: sched_process_free before sched_process_exit, so no
 * entry of the ended set can miss the free that removes it.
 */
static struct {
	const char *name;
	void *handler;
	enum _stp_tf_need need;
	struct tracepoint *tp;		/* found */
	bool registered;
} _stp_tf_tracepoints[] = {
	{ "sched_process_fork", _stp_tf_on_fork, STP_TF_NEED_ALWAYS },
	{ "sched_process_exec", _stp_tf_on_exec, STP_TF_NEED_ALWAYS },
	{ "sched_process_free", _stp_tf_on_free, STP_TF_NEED_ENDS },
	{ "sched_process_exit", _stp_tf_on_exit, STP_TF_NEED_ALWAYS },
	{ "sys_exit", _stp_tf_on_sys_exit, STP_TF_NEED_BEGINS },
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
	atomic_set(&_stp_tf_nended, 0);
	kfree(_stp_tf_pending);
	kfree(_stp_tf_tracked);
	kfree(_stp_tf_ended);
	_stp_tf_pending = _stp_tf_tracked = _stp_tf_ended = NULL;
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
	_stp_tf_ended = kzalloc(sizeof(*_stp_tf_ended), GFP_KERNEL);
	if (!_stp_tf_pending || !_stp_tf_tracked || !_stp_tf_ended) {
		_stp_session_error("process probes: out of memory");
		_stp_tf_unregister();
		return -ENOMEM;
	}
	for (i = 0; i < ARRAY_SIZE(_stp_tf_probes); i++) {
		struct _stp_tf_probe *p = &_stp_tf_probes[i];

		_stp_tf_have[p->kind] = true;
		if (!p->path)
			continue;
		rc = _stp_tf_hold_path(p->probe, p->path, &p->kpath);
		if (rc) {
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
		enum _stp_tf_need need = _stp_tf_tracepoints[i].need;

		if (need == STP_TF_NEED_BEGINS && !_stp_tf_have[STP_TF_BEGIN] &&
		    !_stp_tf_have[STP_TF_THREAD_BEGIN])
			continue;
		if (need == STP_TF_NEED_ENDS && !_stp_tf_have[STP_TF_END] && !_stp_tf_have[STP_TF_THREAD_END])
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

STP_FAMILY(task_finder, _stp_tf_register, _stp_tf_unregister);

#endif

#endif /* STP_FAMILY_DECLS */
