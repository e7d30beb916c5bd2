/* sched.h - fake: as 5.10 declares it (later kernels: unsigned int __state;) */
struct task_struct {
	volatile long			state;
};
static inline unsigned int task_cpu(const struct task_struct *p)
{
#ifdef CONFIG_THREAD_INFO_IN_TASK
	return READ_ONCE(p->cpu);
#else
	return READ_ONCE(task_thread_info(p)->cpu);
#endif
}
