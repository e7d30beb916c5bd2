/*
 * process_syscall.c - process.syscall and .syscall.return: the sys_enter
 * and sys_exit tracepoints, each hit run for the probes whose task filter
 * (task_finder.c's: a PID, a program, the -c/-x target) current passes.
 *
 * The handlers run in the task making the system call, with preemption
 * off; a --privilege=stapusr module sees only the loading user's tasks. $syscall, $arg1..$arg6 and $return come from a struct
 * _stp_syscall_hit on the handler's stack (c->base.hit_data). Every
 * system call of every task goes through the tracepoints while they are
 * registered, and pays for the filter of each probe. Unregistration waits
 * for handlers in flight (tracepoint_synchronize_unregister).
 */

#ifdef STP_FAMILY_DECLS
#ifdef STP_HAVE_PROCESS_SYSCALL
#include <linux/path.h>

/* process[("path") | (PID)].syscall[.return] */
struct _stp_syscall_probe {
	const struct _stp_probe *probe;
	const char *path;                /* only tasks running this program; NULL: any */
	long pid;                        /* only this process's threads; 0: any */
	int is_return;                   /* 1: at the system call's exit */
	struct path kpath;               /* runtime-owned: path, held while registered */
};

/* What $syscall, $argN and $return read (c->base.hit_data). */
struct _stp_syscall_hit {
	long nr;                         /* the system call's number */
	unsigned long args[6];           /* its arguments (entry) */
	long ret;                        /* its return value (exit) */
};
#endif
#else /* the code */
#ifdef STP_HAVE_PROCESS_SYSCALL

#include <linux/tracepoint.h>
#include <asm/syscall.h>

static struct tracepoint *_stp_syscall_enter_tp, *_stp_syscall_exit_tp;
static bool _stp_syscall_enter_on, _stp_syscall_exit_on; /* registered */

/* Whether probe p fires for current. */
static bool _stp_syscall_match(const struct _stp_syscall_probe *p)
{
	if (current->flags & PF_KTHREAD)
		return false;
#ifdef STP_PRIVILEGE_STAPUSR
	if (!_stp_myproc())
		return false;	/* only the loading user's own processes */
#endif
	if (p->pid)
		return current->tgid == p->pid;
	if (p->path)
		return _stp_tf_exe_inode(current, true) == d_inode(p->kpath.dentry);
	if (_stp_target)
		return _stp_tf_in_target(current);
	return true;
}

/* Run the probes of one kind (entry or return) that match current with hit. */
static void _stp_syscall_run(struct pt_regs *regs, int is_return, struct _stp_syscall_hit *hit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_syscall_probes); i++) {
		const struct _stp_syscall_probe *p = &_stp_syscall_probes[i];

		if (p->is_return == is_return && _stp_syscall_match(p))
			_stp_run_probe_data(p->probe, regs, NULL, hit);
	}
}

static void _stp_syscall_on_enter(void *data, struct pt_regs *regs, long id)
{
	struct _stp_syscall_hit hit = { .nr = id };

	syscall_get_arguments(current, regs, hit.args);
	_stp_syscall_run(regs, 0, &hit);
}

static void _stp_syscall_on_exit(void *data, struct pt_regs *regs, long ret)
{
	struct _stp_syscall_hit hit = { .nr = syscall_get_nr(current, regs), .ret = ret };

	_stp_syscall_run(regs, 1, &hit);
}

static void _stp_syscall_find_tracepoint(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		_stp_syscall_enter_tp = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		_stp_syscall_exit_tp = tp;
}

static void _stp_syscall_unregister(void)
{
	size_t i;

	if (_stp_syscall_enter_on)
		tracepoint_probe_unregister(_stp_syscall_enter_tp, _stp_syscall_on_enter, NULL);
	if (_stp_syscall_exit_on)
		tracepoint_probe_unregister(_stp_syscall_exit_tp, _stp_syscall_on_exit, NULL);
	if (_stp_syscall_enter_on || _stp_syscall_exit_on)
		tracepoint_synchronize_unregister();	/* no handler runs past here */
	_stp_syscall_enter_on = _stp_syscall_exit_on = false;
	for (i = 0; i < ARRAY_SIZE(_stp_syscall_probes); i++) {
		if (_stp_syscall_probes[i].kpath.dentry)
			path_put(&_stp_syscall_probes[i].kpath);
		memset(&_stp_syscall_probes[i].kpath, 0, sizeof(struct path));
	}
}

/* Attach one of the two tracepoints; a failure is reported and undoes the rest. */
static int _stp_syscall_attach(struct tracepoint *tp, const char *name, void *handler, bool *on)
{
	int rc = tp ? tracepoint_probe_register(tp, handler, NULL) : -ENOENT;

	if (rc) {
		_stp_session_error("process.syscall probes: cannot attach to tracepoint %s (%d)", name, rc);
		_stp_syscall_unregister();
		return rc;
	}
	*on = true;
	return 0;
}

/* All or nothing: a failure names the probe point and undoes the rest. */
static int _stp_syscall_register(void)
{
	bool entry = false, exit = false;
	size_t i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(_stp_syscall_probes); i++) {
		struct _stp_syscall_probe *p = &_stp_syscall_probes[i];

		if (p->is_return)
			exit = true;
		else
			entry = true;
		if (!p->path)
			continue;
		rc = _stp_tf_hold_path(p->probe, p->path, &p->kpath);
		if (rc) {
			_stp_syscall_unregister();
			return rc;
		}
	}
	for_each_kernel_tracepoint(_stp_syscall_find_tracepoint, NULL);
	if (entry) {
		rc = _stp_syscall_attach(_stp_syscall_enter_tp, "sys_enter", _stp_syscall_on_enter,
					 &_stp_syscall_enter_on);
		if (rc)
			return rc;
	}
	if (exit)
		return _stp_syscall_attach(_stp_syscall_exit_tp, "sys_exit", _stp_syscall_on_exit,
					   &_stp_syscall_exit_on);
	return 0;
}

STP_FAMILY(process_syscall, _stp_syscall_register, _stp_syscall_unregister);

#endif
#endif /* STP_FAMILY_DECLS */
