/* Stand-in: the helper arm64's watchpoint handler asks whether to step (6.1's stable updates). */
#ifdef CONFIG_BPF_SYSCALL
static inline bool uses_default_overflow_handler(struct perf_event *event)
{
	return true;
}
#endif
