// SPDX-License-Identifier: GPL-2.0
/*
 * fret.c - return probes over thousands of functions behind one ftrace_ops:
 * the mechanism issue 18 item 6 asks for, measured by hand before the
 * compiler emits it.
 *
 * One ftrace_ops (registers saved, so regs->sp at a function's ftrace site
 * points at its return address) filtered on __x64_sys_getppid plus every
 * function matching the ftrace globs of the module parameter `globs`. On
 * each hit the callback records {task, return-address slot, original
 * return address} in a bounded shadow-stack table and puts the address
 * of fret_trampoline in the slot. The function returns into the
 * trampoline, which saves the return-value registers and calls
 * fret_return(): it finds the task's record for that slot, counts the
 * return, and hands back the original address, which the trampoline
 * returns to. The count of getppid's returns (and all returns) is logged
 * at unload, so a bench can check every return was seen.
 *
 * The table: FRET_BUCKETS buckets keyed by task, each with a raw spinlock,
 * a list of live records (newest first) and FRET_PER_BUCKET free records.
 * A full bucket, an NMI, or a slot that does not hold the return address
 * ftrace reported: the function is not hijacked, and a miss is counted.
 * A task that exits drops its records at sched_process_exit (its callers
 * below do_exit never return), and again at sched_process_free (for
 * do_task_dead, which never returns either); the unload leaves a dead
 * task's slots alone (its stack may be gone).
 *
 * Unload: unregister the ftrace_ops (no new records); under each bucket
 * lock, write every live record's original address back into its slot if
 * the slot still holds the trampoline (the records stay, for a task
 * already past its function's ret); synchronize_rcu_tasks(), so that no
 * task is still inside the trampoline or about to enter it; only then the
 * table is freed and the module text goes away. A live record whose slot
 * holds something else means a second hijacker (a kretprobe, the function
 * graph tracer) took the slot after us and will return into the
 * trampoline later: unload then waits for those records to be popped.
 */
#include <linux/ftrace.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/objtool.h>
#include <linux/sched.h>
#include <linux/trace_recursion.h>
#include <linux/tracepoint.h>
#include <linux/vmalloc.h>
#include <linux/delay.h>
#include <asm/linkage.h>

#define FRET_BUCKET_BITS 8
#define FRET_BUCKETS (1 << FRET_BUCKET_BITS)
#define FRET_PER_BUCKET 64

struct fret_record {
	struct fret_record *next;	/* in the bucket's live or free list */
	struct task_struct *task;	/* whose stack holds the slot */
	unsigned long *slot;		/* the return-address slot now holding the trampoline */
	unsigned long ret;		/* the original return address */
	unsigned long func;		/* the function's ftrace site */
	bool foreign;			/* at unload, the slot held another hijacker's address */
};

struct fret_bucket {
	raw_spinlock_t lock;
	struct fret_record *live;	/* newest first */
	struct fret_record *free;
	struct fret_record records[FRET_PER_BUCKET];
} ____cacheline_aligned;

static char globs[512] = "vfs_*,pipe_*";
module_param_string(globs, globs, sizeof(globs), 0444);
MODULE_PARM_DESC(globs, "ftrace filter globs, comma-separated (besides __x64_sys_getppid)");

static struct fret_bucket *fret_table;
/*
 * Set while this CPU holds a bucket lock (irqs off): a traced function
 * called from inside (the lock's own code, say) is not hijacked, or its
 * return would take the same lock again.
 */
static DEFINE_PER_CPU(int, fret_busy);
static unsigned long fret_getppid;		/* getppid's ftrace site */
static atomic_long_t fret_calls, fret_returns, fret_getppid_returns, fret_missed, fret_lost;

/*
 * The trampoline. A function returns here with sp one word above its
 * return-address slot; the slot is reused for the original address. ORC
 * sees "end of stack" from the byte before the entry (a return address is
 * looked up at address - 1) to the end, so an unwinder stops at a
 * hijacked frame instead of reading a wrong frame. Not an STT_FUNC: code
 * with an undefined stack state, as in entry code.
 */
unsigned long fret_return(unsigned long *saved);
void fret_trampoline(void);
asm(
	"	.pushsection .text, \"ax\"\n"
	"	.balign 16\n"
	"fret_trampoline_pad:\n"
	UNWIND_HINT(ORC_REG_UNDEFINED, 0, UNWIND_HINT_TYPE_CALL, 1)
	"	int3\n"
	"	.globl fret_trampoline\n"
	"fret_trampoline:\n"
	UNWIND_HINT(ORC_REG_UNDEFINED, 0, UNWIND_HINT_TYPE_CALL, 1)
	"	pushq %rax\n"		/* the slot for the original address */
	"	pushq %rbp\n"
	"	pushq %rdx\n"
	"	pushq %rax\n"
	"	movq %rsp, %rdi\n"	/* saved[0] ax, [1] dx, [2] bp, [3] the slot */
	"	call fret_return\n"
	"	movq %rax, 24(%rsp)\n"
	"	popq %rax\n"
	"	popq %rdx\n"
	"	popq %rbp\n"
	"	" ASM_RET
	"	.type fret_trampoline, @notype\n"
	"	.size fret_trampoline, .-fret_trampoline\n"
	"	.popsection\n"
);

static __always_inline struct fret_bucket *fret_bucket_of(struct task_struct *t)
{
	return &fret_table[hash_ptr(t, FRET_BUCKET_BITS)];
}

/* Irqs off and bucket b locked, unless this CPU is inside a locked region already. */
static __always_inline bool fret_lock(struct fret_bucket *b, unsigned long *flags)
{
	local_irq_save(*flags);
	if (unlikely(__this_cpu_read(fret_busy))) {
		local_irq_restore(*flags);
		return false;
	}
	__this_cpu_write(fret_busy, 1);
	raw_spin_lock(&b->lock);
	return true;
}

static __always_inline void fret_unlock(struct fret_bucket *b, unsigned long flags)
{
	raw_spin_unlock(&b->lock);
	__this_cpu_write(fret_busy, 0);
	local_irq_restore(flags);
}

/* At a function's ftrace site: record the return and hijack it. */
static void notrace fret_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
			      struct ftrace_regs *fregs)
{
	struct pt_regs *regs = ftrace_get_regs(fregs);
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);
	struct fret_bucket *b;
	struct fret_record *r;
	unsigned long *slot, flags;

	if (bit < 0) {
		atomic_long_inc(&fret_missed);
		return;
	}
	atomic_long_inc(&fret_calls);
	if (unlikely(!regs || in_nmi()))
		goto miss;
	slot = (unsigned long *)kernel_stack_pointer(regs);
	if (unlikely(*slot != parent_ip))
		goto miss;
	b = fret_bucket_of(current);
	if (!fret_lock(b, &flags))
		goto miss;
	r = b->free;
	if (unlikely(!r)) {
		fret_unlock(b, flags);
		goto miss;
	}
	b->free = r->next;
	r->task = current;
	r->slot = slot;
	r->ret = parent_ip;
	r->func = ip;
	r->next = b->live;
	b->live = r;
	*slot = (unsigned long)fret_trampoline;
	fret_unlock(b, flags);
	ftrace_test_recursion_unlock(bit);
	return;
miss:
	atomic_long_inc(&fret_missed);
	ftrace_test_recursion_unlock(bit);
}

/* From the trampoline: the original return address of the frame whose slot is &saved[3]. */
unsigned long notrace fret_return(unsigned long *saved)
{
	unsigned long *slot = &saved[3], flags, ret = 0, func = 0;
	struct fret_bucket *b = fret_bucket_of(current);
	struct fret_record *r, **link;

	/* never busy here: no function is hijacked inside a locked region */
	BUG_ON(!fret_lock(b, &flags));
	for (link = &b->live; (r = *link) != NULL; link = &r->next) {
		if (r->task != current || r->slot != slot)
			continue;
		*link = r->next;
		ret = r->ret;
		func = r->func;
		r->task = NULL;
		r->foreign = false;
		r->next = b->free;
		b->free = r;
		break;
	}
	fret_unlock(b, flags);
	/* the record is pushed before the slot is written, and only an exit drops it */
	BUG_ON(!ret);
	atomic_long_inc(&fret_returns);
	if (func == fret_getppid)
		atomic_long_inc(&fret_getppid_returns);
	return ret;
}

/* A task that exits never returns from its frames below do_exit: drop its records. */
static void notrace fret_exit(void *data, struct task_struct *t)
{
	struct fret_bucket *b = fret_bucket_of(t);
	struct fret_record *r, **link;
	unsigned long flags;

	if (!fret_lock(b, &flags))
		return;	/* not reached: the tracepoint is not called from a locked region */
	for (link = &b->live; (r = *link) != NULL;) {
		if (r->task != t) {
			link = &r->next;
			continue;
		}
		*link = r->next;
		r->task = NULL;
		r->foreign = false;
		r->next = b->free;
		b->free = r;
		atomic_long_inc(&fret_lost);
	}
	fret_unlock(b, flags);
}

static struct ftrace_ops fret_ops = {
	.func = fret_call,
	.flags = FTRACE_OPS_FL_SAVE_REGS,
};

static struct tracepoint *fret_exit_tp, *fret_free_tp;

static void fret_find_tp(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_process_exit"))
		fret_exit_tp = tp;
	else if (!strcmp(tp->name, "sched_process_free"))
		fret_free_tp = tp;
}

/*
 * Put back every live record's original address (where the slot still
 * holds the trampoline); count those whose slot another hijacker took.
 */
static unsigned long fret_restore(void)
{
	unsigned long flags, foreign = 0;
	struct fret_record *r;
	int i;

	for (i = 0; i < FRET_BUCKETS; i++) {
		struct fret_bucket *b = &fret_table[i];

		raw_spin_lock_irqsave(&b->lock, flags);
		for (r = b->live; r; r = r->next) {
			if (READ_ONCE(r->task->__state) & TASK_DEAD)
				continue;
			if (READ_ONCE(*r->slot) == (unsigned long)fret_trampoline)
				WRITE_ONCE(*r->slot, r->ret);
			else
				foreign += r->foreign = true;
		}
		raw_spin_unlock_irqrestore(&b->lock, flags);
	}
	return foreign;
}

/* Live records whose slot is not ours any more (a later hijacker returns into the trampoline). */
static unsigned long fret_foreign(void)
{
	unsigned long flags, n = 0;
	struct fret_record *r;
	int i;

	for (i = 0; i < FRET_BUCKETS; i++) {
		raw_spin_lock_irqsave(&fret_table[i].lock, flags);
		for (r = fret_table[i].live; r; r = r->next)
			n += r->foreign;
		raw_spin_unlock_irqrestore(&fret_table[i].lock, flags);
	}
	return n;
}

static int __init fret_init(void)
{
	struct kprobe kp = { .symbol_name = "__x64_sys_getppid", .flags = KPROBE_FLAG_DISABLED };
	ktime_t t0 = ktime_get(), t1;
	char *g, *buf;
	int i, j, rc;

	fret_table = vzalloc(sizeof(*fret_table) * FRET_BUCKETS);
	if (!fret_table)
		return -ENOMEM;
	for (i = 0; i < FRET_BUCKETS; i++) {
		raw_spin_lock_init(&fret_table[i].lock);
		for (j = 0; j < FRET_PER_BUCKET; j++) {
			fret_table[i].records[j].next = fret_table[i].free;
			fret_table[i].free = &fret_table[i].records[j];
		}
	}
	for_each_kernel_tracepoint(fret_find_tp, NULL);
	rc = fret_exit_tp && fret_free_tp ? tracepoint_probe_register(fret_exit_tp, fret_exit, NULL) : -ENOENT;
	if (rc)
		goto out_table;
	rc = tracepoint_probe_register(fret_free_tp, fret_exit, NULL);
	if (rc) {
		tracepoint_probe_unregister(fret_exit_tp, fret_exit, NULL);
		tracepoint_synchronize_unregister();
		goto out_table;
	}
	rc = register_kprobe(&kp);
	if (rc)
		goto out_tp;
	fret_getppid = (unsigned long)kp.addr;
	rc = ftrace_set_filter_ip(&fret_ops, fret_getppid, 0, 0);
	unregister_kprobe(&kp);
	buf = globs;
	while (!rc && (g = strsep(&buf, ",")) != NULL)
		if (*g && ftrace_set_filter(&fret_ops, g, strlen(g), 0))
			pr_info("fret: no function matches %s\n", g);
	t1 = ktime_get();
	if (!rc)
		rc = register_ftrace_function(&fret_ops);
	if (rc) {
		ftrace_free_filter(&fret_ops);
		goto out_tp;
	}
	pr_info("fret: attached in %lld us (filter by globs %lld us, registration %lld us)\n",
		ktime_us_delta(ktime_get(), t0), ktime_us_delta(t1, t0), ktime_us_delta(ktime_get(), t1));
	return 0;
out_tp:
	tracepoint_probe_unregister(fret_exit_tp, fret_exit, NULL);
	tracepoint_probe_unregister(fret_free_tp, fret_exit, NULL);
	tracepoint_synchronize_unregister();
out_table:
	vfree(fret_table);
	return rc;
}

static void __exit fret_exit_module(void)
{
	ktime_t t0 = ktime_get();
	unsigned long foreign;
	int waited = 0;

	unregister_ftrace_function(&fret_ops);
	ftrace_free_filter(&fret_ops);
	foreign = fret_restore();
	synchronize_rcu_tasks();
	while (fret_foreign() && waited++ < 100000)
		msleep(10);
	tracepoint_probe_unregister(fret_exit_tp, fret_exit, NULL);
	tracepoint_probe_unregister(fret_free_tp, fret_exit, NULL);
	tracepoint_synchronize_unregister();
	vfree(fret_table);
	pr_info("fret: %ld calls %ld returns %ld getppid %ld missed %ld lost %lu foreign, detached in %lld us\n",
		atomic_long_read(&fret_calls), atomic_long_read(&fret_returns),
		atomic_long_read(&fret_getppid_returns), atomic_long_read(&fret_missed),
		atomic_long_read(&fret_lost), foreign, ktime_us_delta(ktime_get(), t0));
}

module_init(fret_init);
module_exit(fret_exit_module);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stapc benchmark: return probes over many functions behind one ftrace_ops");
