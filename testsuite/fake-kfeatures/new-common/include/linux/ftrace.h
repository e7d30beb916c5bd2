/* ftrace.h - fake: as 6.12 declares it */
struct ftrace_regs {
	struct pt_regs		regs;
};
