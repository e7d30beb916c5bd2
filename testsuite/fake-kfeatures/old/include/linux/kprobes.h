/* kprobes.h - fake: as 5.10 declares it (the kretprobe is a field; 5.11 added get_kretprobe()) */
struct kretprobe_instance {
	struct kretprobe *rp;
};
struct kprobe {
	kprobe_fault_handler_t fault_handler;
};
