/* sched.h - fake: as 5.10 declares it (later kernels: unsigned int __state;) */
struct task_struct {
	volatile long			state;
};
