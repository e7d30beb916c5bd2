/* arch_arm64.h - arm64's part of the runtime: address checks and pt_regs access. */
#ifndef _STP_ARCH_ARM64_H
#define _STP_ARCH_ARM64_H

#include <linux/kallsyms.h>
#include <linux/llist.h>

/*
 * Whether a kernel write may even be tried at addr: in the kernel's half
 * (PAGE_OFFSET is its lowest address for the largest VA_BITS), where a fault
 * is fixed up through the exception table; a user address is refused (PAN).
 */
static inline bool _stp_arch_kernel_addr_ok(unsigned long addr, int size)
{
	return addr >= (unsigned long)PAGE_OFFSET && addr + size > addr;
}

/*
 * The system call convention: arguments 0-5 in x0..x5 (the first also in
 * orig_x0, which keeps it once x0 holds the result), the call's number in
 * syscallno (32 bits), the wrapper __arm64_sys_F(regs) gets regs in x0.
 */
#define _STP_SC_ARG_OFFSETS { \
	offsetof(struct pt_regs, orig_x0), offsetof(struct pt_regs, regs[1]), \
	offsetof(struct pt_regs, regs[2]), offsetof(struct pt_regs, regs[3]), \
	offsetof(struct pt_regs, regs[4]), offsetof(struct pt_regs, regs[5]), \
}
#define _STP_SC_NR_OFFSET offsetof(struct pt_regs, syscallno)
#define _STP_SC_NR_SIZE 4
#define _STP_FIRST_ARG(r) ((r)->regs[0])

/* User frames: the frame pointer x29, the link register x30, and a function's entry. */
#define _STP_UREG_FP(r) ((r)->regs[29])
#define _STP_UREG_LR(r) ((r)->regs[30])
#define _STP_UENTRY_CFA_OFFSET 0UL	/* bl leaves sp alone */
/* A user return address without its pointer-authentication code: code built with branch
 * protection (Debian 13's glibc) signs the link register it saves (paciasp), in the bits
 * above the user address space. */
#define _STP_USTRIP(addr) ((addr) & ((1UL << VA_BITS) - 1))

/* At a user function's first instruction: its return address, in the link register. */
static inline bool _stp_arch_uentry_ret(unsigned long sp, unsigned long lr, unsigned long *ret)
{
	*ret = lr;
	return true;
}

/* The value of a user register an SDT operand names: x0..x30 or sp. */
static inline unsigned long _stp_arch_ureg_value(const struct pt_regs *regs, enum _stp_ureg reg)
{
	if (reg >= STP_UREG_X0 && reg <= STP_UREG_X30)
		return regs->regs[reg - STP_UREG_X0];
	return reg == STP_UREG_SP ? regs->sp : 0;
}

/*
 * Kernel stacks for linux/services/stack.c: arm64 exports no unwinder that starts
 * from registers, and its kernels always keep frame pointers, so the
 * frame records ([fp] = the caller's fp, [fp + 8] = the return address)
 * are walked here with the same interface as x86's unwinder. Each read is
 * fault-safe, a record must be 16-aligned and above the one before, and
 * the return addresses lose their pointer authentication code (the bits
 * above VA_BITS of a kernel address are all ones). Started from
 * registers, the link register comes first (a probe on a function's
 * first instruction is before its frame record exists), and the first
 * record's return address is dropped when it is that same address.
 */
struct unwind_state {
	unsigned long fp;       /* the frame record to read next, 0 when done */
	unsigned long ret;      /* the return address reported now */
	unsigned long lr;       /* started from registers: their link register, to drop its repeat */
	struct llist_node *kri; /* the current task's next pending kretprobe instance, or NULL */
};

static inline unsigned long _stp_arm64_strip_pac(unsigned long addr)
{
	return addr | ~((1UL << VA_BITS) - 1);
}

#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
/*
 * A return probe's trampoline in the chain stands for the return address
 * its instance saved: the task's instances are newest first, as the
 * trampolines are met innermost first. The trampoline's address is not
 * exported: it is learned from its name (kallsyms, into a per-CPU buffer:
 * probe handlers run with preemption off) the first time, then kept.
 */
static unsigned long _stp_arm64_kretprobe_tramp;
static DEFINE_PER_CPU(char[KSYM_SYMBOL_LEN], _stp_arm64_symbuf);

static inline bool _stp_arm64_is_tramp(unsigned long addr)
{
	char *buf;

	if (_stp_arm64_kretprobe_tramp)
		return addr == _stp_arm64_kretprobe_tramp;
	buf = this_cpu_ptr(&_stp_arm64_symbuf[0]);
	sprint_symbol(buf, addr);
	if (strncmp(buf, "__kretprobe_trampoline+0x0/", 27))
		return false;
	WRITE_ONCE(_stp_arm64_kretprobe_tramp, addr);
	return true;
}

static inline void _stp_arm64_kretprobe_ret(struct unwind_state *st)
{
	struct kretprobe_instance *ri;

	if (!st->kri || !_stp_arm64_is_tramp(st->ret))
		return;
	ri = container_of(st->kri, struct kretprobe_instance, llist);
	st->ret = (unsigned long)ri->ret_addr;
	st->kri = st->kri->next;
}

static inline struct llist_node *_stp_arm64_kretprobe_first(struct task_struct *task)
{
	return task == current ? READ_ONCE(task->kretprobe_instances.first) : NULL;
}
#else
static inline void _stp_arm64_kretprobe_ret(struct unwind_state *st)
{
}

static inline struct llist_node *_stp_arm64_kretprobe_first(struct task_struct *task)
{
	return NULL;
}
#endif

static inline void unwind_next_frame(struct unwind_state *st)
{
	unsigned long rec[2];

	for (;;) {
		if (!st->fp || (st->fp & 15) || st->fp < (unsigned long)PAGE_OFFSET ||
		    copy_from_kernel_nofault(rec, (void *)st->fp, sizeof(rec)) || !rec[1]) {
			st->fp = 0;
			st->ret = 0;
			return;
		}
		st->fp = rec[0] > st->fp ? rec[0] : 0;
		st->ret = _stp_arm64_strip_pac(rec[1]);
		if (st->ret != st->lr) {
			_stp_arm64_kretprobe_ret(st);
			return;
		}
		st->lr = 0;	/* the link register, already reported: read on */
	}
}

static inline void unwind_start(struct unwind_state *st, struct task_struct *task, struct pt_regs *regs,
				unsigned long *first_frame)
{
	st->lr = 0;
	st->kri = _stp_arm64_kretprobe_first(task);
	if (regs) {
		st->fp = regs->regs[29];
		st->ret = st->lr = _stp_arm64_strip_pac(regs->regs[30]);
		_stp_arm64_kretprobe_ret(st);
	} else if (task == current) {
		st->fp = (unsigned long)__builtin_frame_address(0);
		unwind_next_frame(st);
	} else {
		st->fp = thread_saved_fp(task);
		st->ret = thread_saved_pc(task);
	}
}

static inline bool unwind_done(struct unwind_state *st)
{
	return !st->ret;
}

static inline unsigned long unwind_get_return_address(struct unwind_state *st)
{
	return st->ret;
}

#endif
