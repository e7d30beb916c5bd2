/* uprobes_buildid.c - process("BUILD-ID") uprobes on every program with that build-id that a process execs. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

/*
 * uprobes.c registers a build-id row on the file the compiler found.
 * This family, registered after it and stopped before it, watches exec
 * (tracepoint sched_process_exec) for other files with the same build-id:
 * a copy under another path, in a container's file system. The exec
 * tracepoint cannot sleep (nor allocate, on PREEMPT_RT), so it queues a
 * task work from a preallocated pool on the exec'ing task (with a
 * reference to the file), which runs before the task returns to
 * user space, so before the program's first instruction: it reads the
 * file's build-id note (kernel_read of the ELF and program headers and the
 * PT_NOTE segments) and, when a row wants it, registers a copy of the
 * row's uprobe (an extra consumer, uprobes.c) on that inode at the row's
 * offset (the same build-id: the same bytes at the same offsets). Bodies
 * of extras run as the row's.
 *
 * Bounds: STP_UPROBE_BUILDID_EXTRAS registrations in all (a row on a new
 * file past that is counted as a skipped probe), STP_UPROBE_BUILDID_EXECS execs being
 * checked at once (one past that is skipped and counted); every exec while the
 * session runs reads up to a few KiB of the new program (page cache).
 * The programs processes run when the session starts are checked the same
 * way, once each, after the tracepoint is on (so a process that execs in
 * between is seen by one or the other): at most STP_UPROBE_BUILDID_SCAN distinct
 * files, the others left out.
 *
 * Stopping: the tracepoint is unregistered and waited out, then stop
 * waits until every queued task work has finished (a counter: a task runs
 * its works when it returns to user space, before a signal or ptrace
 * stop, or when it exits) before unregistering
 * the extras, so no work or handler runs once it returns. The last work
 * wakes the waiter as its last action; only the return from that wake up
 * is left when the waiter goes on.
 */

#ifdef STP_HAVE_PROCESS
#ifdef STP_UPROBES_BUILDID

#include <linux/binfmts.h>
#include <linux/elf.h>
#include <linux/file.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>

#ifndef NT_GNU_BUILD_ID
#define NT_GNU_BUILD_ID 3	/* the note type (name "GNU"); the kernel's headers do not export it */
#endif
#define STP_UBID_BUF 4096	/* ELF header, program headers and notes read at once */
#ifndef STP_UPROBE_BUILDID_SCAN
#define STP_UPROBE_BUILDID_SCAN 1024	/* programs of the running processes checked at START */
#endif

#ifndef STP_UPROBE_BUILDID_EXECS
#define STP_UPROBE_BUILDID_EXECS 64	/* checks queued at once (execs not yet returned to user space) */
#endif

/* A queued check of one exec'd file, in a preallocated pool (no allocation in the tracepoint). */
struct _stp_ubid_work {
	struct callback_head work;
	struct file *file;	/* the program exec'd, held */
	atomic_t busy;		/* claimed by an exec */
};
static struct _stp_ubid_work _stp_ubid_works[STP_UPROBE_BUILDID_EXECS];

static DEFINE_MUTEX(_stp_ubid_mutex);		/* guards the extras and _stp_ubid_stopping */
static bool _stp_ubid_stopping;			/* no new registration */
static atomic_t _stp_ubid_pending = ATOMIC_INIT(0);	/* task works queued, not finished */
static DECLARE_WAIT_QUEUE_HEAD(_stp_ubid_wait);
static struct tracepoint *_stp_ubid_exec_tp;	/* sched_process_exec, while registered */

/* The GNU build-id in the notes buf[0..size) into hex (2 * 64 + 1 bytes); false if none. */
static bool _stp_ubid_note(const char *buf, size_t size, char *hex)
{
	size_t at = 0;

	while (at + sizeof(Elf64_Nhdr) <= size) {
		const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(buf + at);
		size_t name = at + sizeof(*nh), desc = name + ALIGN(nh->n_namesz, 4);

		if (desc > size || nh->n_descsz > size - desc)
			return false;
		if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 && !memcmp(buf + name, "GNU", 4) &&
		    nh->n_descsz > 0 && nh->n_descsz <= 64) {
			bin2hex(hex, buf + desc, nh->n_descsz);
			hex[2 * nh->n_descsz] = 0;
			return true;
		}
		at = desc + ALIGN(nh->n_descsz, 4);
	}
	return false;
}

/* file's build-id into hex, using buf (STP_UBID_BUF bytes); false if it has none or cannot be read. */
static bool _stp_ubid_of_file(struct file *file, char *buf, char *hex)
{
	Elf64_Ehdr eh;
	loff_t pos = 0;
	int i;

	if (kernel_read(file, &eh, sizeof(eh), &pos) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr))
		return false;
	for (i = 0; i < eh.e_phnum && i < 64; i++) {
		Elf64_Phdr ph;
		ssize_t n;

		pos = eh.e_phoff + (loff_t)i * sizeof(ph);
		if (kernel_read(file, &ph, sizeof(ph), &pos) != sizeof(ph))
			return false;
		if (ph.p_type != PT_NOTE)
			continue;
		pos = ph.p_offset;
		n = kernel_read(file, buf, min_t(u64, ph.p_filesz, STP_UBID_BUF), &pos);
		if (n > 0 && _stp_ubid_note(buf, n, hex))
			return true;
	}
	return false;
}

/* Register a copy of up on inode, unless one is there; with _stp_ubid_mutex held. */
static void _stp_ubid_attach(struct _stp_uprobe *up, struct inode *inode)
{
	struct _stp_uprobe_extra *free_slot = NULL;
	size_t i;

	for (i = 0; i < STP_UPROBE_BUILDID_EXTRAS; i++) {
		struct _stp_uprobe_extra *x = &_stp_uprobe_extras[i];

		if (x->up == up && x->inode == inode)
			return;
		if (!x->up && !free_slot)
			free_slot = x;
	}
	if (!free_slot) {
		_stp_count_skipped();
		return;
	}
	_stp_uprobe_consumer_init(up, &free_slot->consumer);
	ihold(inode);
	if (_stp_uprobe_register(&free_slot->reg, inode, up->offset, up->semaphore, &free_slot->consumer)) {
		iput(inode);
		_stp_count_skipped();
		return;
	}
	free_slot->inode = inode;
	free_slot->up = up;
}

/* Attach the rows that want file's build-id to it (process context: reads the file). */
static void _stp_ubid_match(struct file *file)
{
	struct inode *inode = d_real_inode(file->f_path.dentry);
	char *buf = kmalloc(STP_UBID_BUF + 129, GFP_KERNEL);
	size_t i;

	if (buf && _stp_ubid_of_file(file, buf, buf + STP_UBID_BUF)) {
		mutex_lock(&_stp_ubid_mutex);
		for (i = 0; i < ARRAY_SIZE(_stp_uprobes) && !_stp_ubid_stopping; i++) {
			struct _stp_uprobe *up = &_stp_uprobes[i];

			if (up->buildid && up->registered && !strcmp(up->buildid, buf + STP_UBID_BUF) &&
			    inode != d_real_inode(up->kpath.dentry))
				_stp_ubid_attach(up, inode);
		}
		mutex_unlock(&_stp_ubid_mutex);
	}
	kfree(buf);
}

/* The task work: in the exec'ing task, before it returns to user space. */
static void _stp_ubid_check(struct callback_head *work)
{
	struct _stp_ubid_work *w = container_of(work, struct _stp_ubid_work, work);

	_stp_ubid_match(w->file);
	fput(w->file);
	w->file = NULL;
	atomic_set_release(&w->busy, 0);
	if (atomic_dec_and_test(&_stp_ubid_pending))
		wake_up(&_stp_ubid_wait);
}

/* At START: the programs processes run now, each distinct file once (at most STP_UPROBE_BUILDID_SCAN of them). */
static void _stp_ubid_scan(void)
{
	struct file **files = kcalloc(STP_UPROBE_BUILDID_SCAN, sizeof(*files), GFP_KERNEL);
	struct task_struct *t;
	size_t n = 0, i;

	if (!files)
		return;
	rcu_read_lock();
	for_each_process(t) {
		struct file *exe = NULL;

		if (t->flags & PF_KTHREAD)
			continue;
		task_lock(t);
		if (t->mm)
			exe = _stp_get_file_rcu(&t->mm->exe_file);
		task_unlock(t);
		for (i = 0; exe && i < n; i++)
			if (file_inode(files[i]) == file_inode(exe))
				break;
		if (exe && i == n && n < STP_UPROBE_BUILDID_SCAN)
			files[n++] = exe;
		else if (exe)
			fput(exe);
	}
	rcu_read_unlock();
	for (i = 0; i < n; i++) {
		_stp_ubid_match(files[i]);
		fput(files[i]);
	}
	kfree(files);
}

static void _stp_ubid_on_exec(void *data, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct _stp_ubid_work *w = NULL;
	size_t i;

#ifdef STP_PRIVILEGE_STAPUSR
	if (!_stp_myproc())
		return;	/* only the loading user's own processes */
#endif
	for (i = 0; i < STP_UPROBE_BUILDID_EXECS && !w; i++)
		if (!atomic_read(&_stp_ubid_works[i].busy) && !atomic_cmpxchg(&_stp_ubid_works[i].busy, 0, 1))
			w = &_stp_ubid_works[i];
	if (!w) {
		_stp_count_skipped();
		return;
	}
	w->file = get_file(bprm->file);
	init_task_work(&w->work, _stp_ubid_check);
	atomic_inc(&_stp_ubid_pending);
	if (task_work_add(current, &w->work, TWA_RESUME)) {	/* the task is exiting */
		fput(w->file);
		w->file = NULL;
		atomic_set_release(&w->busy, 0);
		atomic_dec(&_stp_ubid_pending);
	}
}

static void _stp_ubid_find_exec(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exec"))
		*(struct tracepoint **)priv = tp;
}

static void _stp_ubid_unregister(void)
{
	size_t i;

	mutex_lock(&_stp_ubid_mutex);
	_stp_ubid_stopping = true;
	mutex_unlock(&_stp_ubid_mutex);
	if (_stp_ubid_exec_tp) {
		tracepoint_probe_unregister(_stp_ubid_exec_tp, _stp_ubid_on_exec, NULL);
		tracepoint_synchronize_unregister();	/* no handler queues a work past here */
		_stp_ubid_exec_tp = NULL;
	}
	wait_event(_stp_ubid_wait, !atomic_read(&_stp_ubid_pending));
	for (i = 0; i < STP_UPROBE_BUILDID_EXTRAS; i++) {
		struct _stp_uprobe_extra *x = &_stp_uprobe_extras[i];

		if (!x->up)
			continue;
		_stp_uprobe_unregister(&x->reg, &x->consumer);
		iput(x->inode);
		x->up = NULL;
		x->inode = NULL;
	}
}

static int _stp_ubid_register(void)
{
	struct tracepoint *tp = NULL;
	int rc;

	_stp_ubid_stopping = false;
	for_each_kernel_tracepoint(_stp_ubid_find_exec, &tp);
	rc = tp ? tracepoint_probe_register(tp, _stp_ubid_on_exec, NULL) : -ENOENT;
	if (rc) {
		_stp_session_error("process(\"BUILD-ID\") probes: cannot attach to tracepoint sched_process_exec (%d)",
				   rc);
		return rc;
	}
	_stp_ubid_exec_tp = tp;
	_stp_ubid_scan();
	return 0;
}

STP_FAMILY(uprobes_buildid, _stp_ubid_register, _stp_ubid_unregister);

#else

static int _stp_ubid_none(void)
{
	return 0;
}

static void _stp_ubid_none_stop(void)
{
}

STP_FAMILY(uprobes_buildid, _stp_ubid_none, _stp_ubid_none_stop);

#endif /* STP_UPROBES_BUILDID */
#endif /* STP_HAVE_PROCESS */

#endif /* STP_FAMILY_DECLS */
