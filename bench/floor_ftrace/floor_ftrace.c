// SPDX-License-Identifier: GPL-2.0
/*
 * floor_ftrace.c - the floor of the ftrace path: the least an ftrace
 * callback on a function's entry can do.
 *
 * One ftrace_ops filtered on __x64_sys_getppid whose callback takes
 * ftrace's recursion guard (which every callback without
 * FTRACE_OPS_FL_RECURSION must take; it also disables preemption) and adds
 * one to a counter. No registers are saved. stapc hooks entry probes this
 * way (runtime/linux/probes/kprobes.c); this module shows what the mechanism
 * itself costs, next to the kprobe floor (bench/floor). The count is
 * logged at unload, so the bench can check every call was seen.
 *
 * The address comes from a kprobe registered disabled (kprobes resolve
 * symbols; kallsyms_lookup_name is not exported), as in stapc's runtime:
 * a filter by name would not do, since ftrace knows the function by its
 * alias __do_sys_getppid.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/trace_recursion.h>

static unsigned long floor_hits;	/* callback calls */

static void notrace floor_ftrace_hit(unsigned long ip, unsigned long parent_ip,
				     struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit < 0)
		return;
	floor_hits++;
	ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops floor_ops = {
	.func = floor_ftrace_hit,
};

static int __init floor_ftrace_init(void)
{
	struct kprobe kp = {
		.symbol_name = "__x64_sys_getppid",
		.flags = KPROBE_FLAG_DISABLED,
	};
	int rc = register_kprobe(&kp);

	if (rc)
		return rc;
	rc = ftrace_set_filter_ip(&floor_ops, (unsigned long)kp.addr, 0, 0);
	unregister_kprobe(&kp);
	if (!rc)
		rc = register_ftrace_function(&floor_ops);
	if (rc)
		ftrace_free_filter(&floor_ops);
	return rc;
}

static void __exit floor_ftrace_exit(void)
{
	unregister_ftrace_function(&floor_ops);
	ftrace_free_filter(&floor_ops);
	pr_info("floor_ftrace: %lu hits\n", floor_hits);
}

module_init(floor_ftrace_init);
module_exit(floor_ftrace_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("stapc benchmark floor: count ftrace hits on __x64_sys_getppid");
