/* kprobes.h - fake: as 6.12 declares it */
static nokprobe_inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return READ_ONCE(ri->rph->rp);
}
