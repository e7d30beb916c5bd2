/* arch_x86_64.h - x86-64's part of the runtime: address checks and pt_regs access. */
#ifndef _STP_ARCH_X86_64_H
#define _STP_ARCH_X86_64_H

#include <asm/processor.h>

/*
 * Whether a kernel write may even be tried at addr: not in the user half nor
 * the non-canonical hole, as copy_from_kernel_nofault checks before it reads.
 * A fault there is not fixed up: with SMAP a kernel access to a user address
 * oopses without looking at the exception table.
 */
static inline bool _stp_arch_kernel_addr_ok(unsigned long addr, int size)
{
	return addr >= TASK_SIZE_MAX + PAGE_SIZE && addr + size > addr &&
	       __is_canonical_address(addr, boot_cpu_data.x86_virt_bits);
}

/* The system call convention: arguments 0-5 in struct pt_regs, the call's number, the wrapper's regs. */
#define _STP_SC_ARG_OFFSETS { \
	offsetof(struct pt_regs, di), offsetof(struct pt_regs, si), offsetof(struct pt_regs, dx), \
	offsetof(struct pt_regs, r10), offsetof(struct pt_regs, r8), offsetof(struct pt_regs, r9), \
}
#define _STP_SC_NR_OFFSET offsetof(struct pt_regs, orig_ax)
#define _STP_SC_NR_SIZE 8
#define _STP_FIRST_ARG(r) ((r)->di)

/* User frames: the frame pointer, the link register (none), and a function's entry. */
#define _STP_UREG_FP(r) ((r)->bp)
#define _STP_UREG_LR(r) 0UL
#define _STP_UENTRY_CFA_OFFSET sizeof(long)	/* the call pushed the return address */
#define _STP_USTRIP(addr) (addr)	/* no signed return addresses */

/* At a user function's first instruction: its return address, at [sp]. */
static inline bool _stp_arch_uentry_ret(unsigned long sp, unsigned long lr, unsigned long *ret)
{
	return !copy_from_user_nofault(ret, (const void __user *)sp, sizeof(*ret));
}

/* The value of a user register an SDT operand names. */
static inline unsigned long _stp_arch_ureg_value(const struct pt_regs *regs, enum _stp_ureg reg)
{
	switch (reg) {
	case STP_UREG_AX: return regs->ax;
	case STP_UREG_BX: return regs->bx;
	case STP_UREG_CX: return regs->cx;
	case STP_UREG_DX: return regs->dx;
	case STP_UREG_SI: return regs->si;
	case STP_UREG_DI: return regs->di;
	case STP_UREG_BP: return regs->bp;
	case STP_UREG_SP: return regs->sp;
	case STP_UREG_R8: return regs->r8;
	case STP_UREG_R9: return regs->r9;
	case STP_UREG_R10: return regs->r10;
	case STP_UREG_R11: return regs->r11;
	case STP_UREG_R12: return regs->r12;
	case STP_UREG_R13: return regs->r13;
	case STP_UREG_R14: return regs->r14;
	case STP_UREG_R15: return regs->r15;
	case STP_UREG_IP: return regs->ip;
	default: return 0;
	}
}

/* The kernel's own unwinder (ORC): struct unwind_state, unwind_start... for linux/stack.c. */
#include <asm/unwind.h>

#endif
