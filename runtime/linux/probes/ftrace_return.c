/* ftrace_return.c - .return probes on many kernel functions through the shared ftrace_ops of ftrace_multi.c and one return trampoline. */

/*
 * A row of _stp_fentries with a ret_probe is hijacked at its ftrace site:
 * the shared callback (registers saved, so regs->sp points at the
 * function's return-address slot) records {task, slot, original return
 * address, row} in a bounded table and writes the address of
 * _stp_fret_trampoline into the slot. The function returns into the
 * trampoline, which saves the return-value registers and bp and calls
 * _stp_fret_return: it takes the task's record for that slot, runs the
 * .return body with a pt_regs holding ax (for $return), dx, bp, the
 * original return address as ip and the stack pointer after the return
 * (the other registers 0), and hands the original address back for the
 * trampoline to return to.
 *
 * The table: STP_FRET_BUCKETS buckets keyed by task, each a raw spinlock
 * with its live records (newest first) and STP_FRET_PER_BUCKET free
 * ones, allocated at start. In NMI context, when the bucket is full, or
 * when the slot does not hold the return address ftrace reported, the
 * function is not hijacked and a miss is counted (as a kretprobe counts
 * one when out of instances). A per-CPU flag, set while a bucket is
 * locked with irqs off, keeps a traced function called from inside (the
 * lock's own code) from being hijacked, whose return would take the lock
 * again. A task that exits drops its records at sched_process_exit (the
 * frames below do_exit never return) and again when it is freed
 * (sched_process_free: a function that never returns, do_task_dead, may
 * have been hijacked after the first); the detach leaves the slots of a
 * dead task alone, since its stack may be gone already.
 *
 * Detach (after the ftrace_ops is unregistered, so no new record): under
 * each bucket lock, every live record's slot that still holds the
 * trampoline gets its original address back; the records stay, for a task
 * already past its function's ret. synchronize_rcu_tasks() then waits
 * until no task is inside the trampoline (it never sleeps, so a task
 * that was has left it). A slot that held something else may belong to a
 * second hijacker that came after us (a kretprobe or the function graph
 * tracer on the same function), which will return into the trampoline
 * later: the unload waits for those records to be popped, as the module
 * text must stay. Then the table is freed.
 */
#ifdef STP_FENTRY_RETURN

#include <linux/hash.h>
#include <linux/objtool.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <asm/linkage.h>

#define STP_FRET_BUCKET_BITS 8
#define STP_FRET_BUCKETS (1 << STP_FRET_BUCKET_BITS)
#ifndef STP_FRET_PER_BUCKET
#define STP_FRET_PER_BUCKET 64	/* records per bucket: returns in flight for the tasks hashed there */
#endif

struct _stp_fret_record {
	struct _stp_fret_record *next;	/* in the bucket's live or free list */
	struct task_struct *task;	/* whose stack holds the slot */
	unsigned long *slot;		/* the return-address slot holding the trampoline */
	unsigned long ret;		/* the original return address */
	const struct _stp_fentry *e;	/* the row: its ret_probe runs at the return */
	bool foreign;			/* at detach, the slot held another hijacker's address */
};

struct _stp_fret_bucket {
	raw_spinlock_t lock;
	struct _stp_fret_record *live;	/* newest first */
	struct _stp_fret_record *free;
	struct _stp_fret_record records[STP_FRET_PER_BUCKET];
} ____cacheline_aligned;

static struct _stp_fret_bucket *_stp_fret_table;
static DEFINE_PER_CPU(int, _stp_fret_busy);	/* this CPU holds a bucket lock, irqs off */
static struct tracepoint *_stp_fret_exit_tp;	/* sched_process_exit */
static struct tracepoint *_stp_fret_free_tp;	/* sched_process_free */

/*
 * The trampoline. A hijacked function returns here with sp one word
 * above its slot, which is reused for the original address. ORC sees
 * "end of stack" from the byte before the entry (an unwinder looks a
 * return address up at address - 1) to the end, so a stack trace through
 * a hijacked frame stops there cleanly. Code, not an STT_FUNC, as entry
 * code is: its stack state is not a function's.
 */
unsigned long _stp_fret_return(unsigned long *saved);
void _stp_fret_trampoline(void);
asm(
	"	.pushsection .text, \"ax\"\n"
	"	.balign 16\n"
	"_stp_fret_trampoline_pad:\n"
	UNWIND_HINT(ORC_REG_UNDEFINED, 0, UNWIND_HINT_TYPE_CALL, 1)
	"	int3\n"
	"	.globl _stp_fret_trampoline\n"
	"_stp_fret_trampoline:\n"
	UNWIND_HINT(ORC_REG_UNDEFINED, 0, UNWIND_HINT_TYPE_CALL, 1)
	"	pushq %rax\n"		/* the slot for the original address */
	"	pushq %rbp\n"
	"	pushq %rdx\n"
	"	pushq %rax\n"
	"	movq %rsp, %rdi\n"	/* saved[0] ax, [1] dx, [2] bp, [3] the slot */
	"	call _stp_fret_return\n"
	"	movq %rax, 24(%rsp)\n"
	"	popq %rax\n"
	"	popq %rdx\n"
	"	popq %rbp\n"
	"	" ASM_RET
	"	.type _stp_fret_trampoline, @notype\n"
	"	.size _stp_fret_trampoline, .-_stp_fret_trampoline\n"
	"	.popsection\n"
);

static __always_inline struct _stp_fret_bucket *_stp_fret_bucket_of(struct task_struct *t)
{
	return &_stp_fret_table[hash_ptr(t, STP_FRET_BUCKET_BITS)];
}

/* Irqs off and bucket b locked, unless this CPU is inside a locked region already. */
static __always_inline bool _stp_fret_lock(struct _stp_fret_bucket *b, unsigned long *flags)
{
	local_irq_save(*flags);
	if (unlikely(__this_cpu_read(_stp_fret_busy))) {
		local_irq_restore(*flags);
		return false;
	}
	__this_cpu_write(_stp_fret_busy, 1);
	raw_spin_lock(&b->lock);
	return true;
}

static __always_inline void _stp_fret_unlock(struct _stp_fret_bucket *b, unsigned long flags)
{
	raw_spin_unlock(&b->lock);
	__this_cpu_write(_stp_fret_busy, 0);
	local_irq_restore(flags);
}

static __always_inline void _stp_fret_free(struct _stp_fret_bucket *b, struct _stp_fret_record *r)
{
	r->task = NULL;
	r->foreign = false;
	r->next = b->free;
	b->free = r;
}

/* From the shared callback, at row e's ftrace site: record the return and hijack it; false if missed. */
static __always_inline bool _stp_fret_hijack(const struct _stp_fentry *e, struct pt_regs *regs,
					     unsigned long parent_ip)
{
	struct _stp_fret_bucket *b;
	struct _stp_fret_record *r;
	unsigned long *slot, flags;

	if (unlikely(!regs || in_nmi()))
		return false;
	slot = (unsigned long *)kernel_stack_pointer(regs);
	if (unlikely(*slot != parent_ip))
		return false;
	b = _stp_fret_bucket_of(current);
	if (!_stp_fret_lock(b, &flags))
		return false;
	r = b->free;
	if (likely(r)) {
		b->free = r->next;
		r->task = current;
		r->slot = slot;
		r->ret = parent_ip;
		r->e = e;
		r->next = b->live;
		b->live = r;
		*slot = (unsigned long)_stp_fret_trampoline;
	}
	_stp_fret_unlock(b, flags);
	return r != NULL;
}

/*
 * From the trampoline: run the .return body of the frame whose slot is
 * &saved[3]; its original return address. The body's registers: ax and dx
 * (the return value), bp (for an unwinder starting there), the ip
 * returned to and the stack pointer after the return.
 */
__visible unsigned long notrace _stp_fret_return(unsigned long *saved)
{
	unsigned long *slot = &saved[3], flags, ret = 0;
	struct _stp_fret_bucket *b = _stp_fret_bucket_of(current);
	const struct _stp_fentry *e = NULL;
	struct _stp_fret_record *r, **link;
	struct pt_regs regs;

	/* never busy here: no function is hijacked inside a locked region */
	BUG_ON(!_stp_fret_lock(b, &flags));
	for (link = &b->live; (r = *link) != NULL; link = &r->next) {
		if (r->task != current || r->slot != slot)
			continue;
		*link = r->next;
		ret = r->ret;
		e = r->e;
		_stp_fret_free(b, r);
		break;
	}
	_stp_fret_unlock(b, flags);
	/* the record is in before the slot is written, and only the task's exit drops it */
	BUG_ON(!ret);
	if (e->ret_probe->regless) {
		_stp_run_probe(e->ret_probe, NULL);
		return ret;
	}
	memset(&regs, 0, sizeof(regs));
	regs.ax = saved[0];
	regs.dx = saved[1];
	regs.bp = saved[2];
	regs.ip = ret;
	regs.sp = (unsigned long)(slot + 1);
	regs.cs = __KERNEL_CS;
	regs.ss = __KERNEL_DS;
	regs.flags = X86_EFLAGS_IF;
	_stp_run_probe(e->ret_probe, &regs);
	return ret;
}

/* A task that exits never returns from its frames below do_exit, one that is freed from none: drop its records. */
static void notrace _stp_fret_exit(void *data, struct task_struct *t)
{
	struct _stp_fret_bucket *b = _stp_fret_bucket_of(t);
	struct _stp_fret_record *r, **link;
	unsigned long flags;

	if (!_stp_fret_lock(b, &flags))
		return;	/* not reached: the tracepoint is not called from a locked region */
	for (link = &b->live; (r = *link) != NULL;) {
		if (r->task != t) {
			link = &r->next;
			continue;
		}
		*link = r->next;
		_stp_fret_free(b, r);
	}
	_stp_fret_unlock(b, flags);
}

static void _stp_fret_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exit"))
		_stp_fret_exit_tp = tp;
	else if (!strcmp(tp->name, "sched_process_free"))
		_stp_fret_free_tp = tp;
}

/* Before the ftrace_ops is registered: the table and the exit hook. */
static int _stp_fret_start(void)
{
	int i, j, rc;

	_stp_fret_table = vzalloc(sizeof(*_stp_fret_table) * STP_FRET_BUCKETS);
	if (!_stp_fret_table)
		return -ENOMEM;
	for (i = 0; i < STP_FRET_BUCKETS; i++) {
		struct _stp_fret_bucket *b = &_stp_fret_table[i];

		raw_spin_lock_init(&b->lock);
		for (j = 0; j < STP_FRET_PER_BUCKET; j++)
			_stp_fret_free(b, &b->records[j]);
	}
	_stp_fret_exit_tp = _stp_fret_free_tp = NULL;
	for_each_kernel_tracepoint(_stp_fret_find_tp, NULL);
	rc = _stp_fret_exit_tp && _stp_fret_free_tp ? 0 : -ENOENT;
	if (!rc)
		rc = tracepoint_probe_register(_stp_fret_exit_tp, _stp_fret_exit, NULL);
	if (!rc) {
		rc = tracepoint_probe_register(_stp_fret_free_tp, _stp_fret_exit, NULL);
		if (rc) {
			tracepoint_probe_unregister(_stp_fret_exit_tp, _stp_fret_exit, NULL);
			tracepoint_synchronize_unregister();
		}
	}
	if (rc) {
		_stp_session_error("cannot hook sched_process_exit and sched_process_free for the .return probes (%d)", rc);
		vfree(_stp_fret_table);
		_stp_fret_table = NULL;
	}
	return rc;
}

/*
 * Put back the original address of every live record whose slot still
 * holds the trampoline; flag the others. A dead task's records (until
 * sched_process_free drops them) are left alone: it runs no more, and its
 * stack may have been freed.
 */
static unsigned long _stp_fret_restore(void)
{
	unsigned long flags, foreign = 0;
	struct _stp_fret_record *r;
	int i;

	for (i = 0; i < STP_FRET_BUCKETS; i++) {
		struct _stp_fret_bucket *b = &_stp_fret_table[i];

		raw_spin_lock_irqsave(&b->lock, flags);
		for (r = b->live; r; r = r->next) {
			if (_stp_task_state(r->task) & TASK_DEAD)
				continue;
			if (READ_ONCE(*r->slot) == (unsigned long)_stp_fret_trampoline) {
				WRITE_ONCE(*r->slot, r->ret);
			} else {
				r->foreign = true;
				foreign++;
			}
		}
		raw_spin_unlock_irqrestore(&b->lock, flags);
	}
	return foreign;
}

/* Live records flagged by _stp_fret_restore: returns still to come through the trampoline. */
static unsigned long _stp_fret_foreign(void)
{
	unsigned long flags, n = 0;
	struct _stp_fret_record *r;
	int i;

	for (i = 0; i < STP_FRET_BUCKETS; i++) {
		raw_spin_lock_irqsave(&_stp_fret_table[i].lock, flags);
		for (r = _stp_fret_table[i].live; r; r = r->next)
			n += r->foreign;
		raw_spin_unlock_irqrestore(&_stp_fret_table[i].lock, flags);
	}
	return n;
}

/* After the ftrace_ops is unregistered: no return into the trampoline is left to come. */
static void _stp_fret_stop(void)
{
	unsigned long waited = 0;

	if (!_stp_fret_table)
		return;
	if (_stp_fret_restore()) {
		synchronize_rcu_tasks();
		while (_stp_fret_foreign()) {
			if (waited++ % 1000 == 0)
				_stp_warn("unloading waits for %lu hooked functions to return (another tracer "
					  "hooked their return after this module)", _stp_fret_foreign());
			msleep(10);
		}
	}
	synchronize_rcu_tasks();
	tracepoint_probe_unregister(_stp_fret_exit_tp, _stp_fret_exit, NULL);
	tracepoint_probe_unregister(_stp_fret_free_tp, _stp_fret_exit, NULL);
	tracepoint_synchronize_unregister();
	vfree(_stp_fret_table);
	_stp_fret_table = NULL;
}

#endif
