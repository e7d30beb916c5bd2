/* kprobes.h - fake: as 6.12 declares it */
static nokprobe_inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return READ_ONCE(ri->rph->rp);
}
unsigned long kretprobe_find_ret_addr(struct task_struct *tsk, void *fp,
				      struct llist_node **cur);
