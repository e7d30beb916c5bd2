// SPDX-License-Identifier: GPL-2.0
/*
 * floor_kret.c - the floor of a return probe through the kernel's own
 * mechanism: one kretprobe on __x64_sys_getppid whose handler adds one to
 * a counter (the kernel arms it through ftrace on these kernels, and returns
 * through its rethook trampoline). bench/run's Return table compares stap's shared return
 * trampoline with this. The count is logged at unload.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

static unsigned long floor_kret_hits;	/* return handler calls */

static int floor_kret_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	floor_kret_hits++;
	return 0;
}

static struct kretprobe floor_kret_rp = {
	.kp.symbol_name = "__x64_sys_getppid",
	.handler = floor_kret_ret,
	.maxactive = 8,
};

static int __init floor_kret_init(void)
{
	return register_kretprobe(&floor_kret_rp);
}

static void __exit floor_kret_exit(void)
{
	unregister_kretprobe(&floor_kret_rp);
	pr_info("floor_kret: %lu hits %d missed\n", floor_kret_hits, floor_kret_rp.nmissed);
}

module_init(floor_kret_init);
module_exit(floor_kret_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stapc benchmark floor: count kretprobe returns of __x64_sys_getppid");
