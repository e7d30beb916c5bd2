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

/* The kernel's own unwinder (ORC): struct unwind_state, unwind_start... for linux/stack.c. */
#include <asm/unwind.h>

#endif
