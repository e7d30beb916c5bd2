/* sched.h - fake: as 6.12 declares it */
struct task_struct {
	unsigned int			__state;
};
static inline unsigned int task_cpu(const struct task_struct *p)
{
	return READ_ONCE(task_thread_info(p)->cpu);
}
