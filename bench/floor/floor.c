// SPDX-License-Identifier: GPL-2.0
/*
 * floor.c - the benchmark's floor: the least a kprobe handler can do.
 *
 * One kprobe on __x64_sys_getppid whose pre-handler adds one to a counter.
 * What a getppid() costs with this module loaded, minus what it costs
 * without, is the price of the kprobe mechanism itself; a generated stapc
 * handler on the same function is measured against it. The count is
 * logged at unload, so the bench can check every call was seen.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

static unsigned long floor_hits;	/* pre-handler calls */

static int floor_pre(struct kprobe *kp, struct pt_regs *regs)
{
	floor_hits++;
	return 0;
}

static struct kprobe floor_probe = {
	.symbol_name = "__x64_sys_getppid",
	.pre_handler = floor_pre,
};

static int __init floor_init(void)
{
	return register_kprobe(&floor_probe);
}

static void __exit floor_exit(void)
{
	unregister_kprobe(&floor_probe);
	pr_info("floor: %lu hits\n", floor_hits);
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stapc benchmark floor: count kprobe hits on __x64_sys_getppid");
