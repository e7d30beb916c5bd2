/* sched.h - fake: as 6.12 declares it */
struct task_struct {
	unsigned int			__state;
};
