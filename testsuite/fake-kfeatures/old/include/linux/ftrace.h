/* ftrace.h - fake: as 5.10 declares it (callbacks take struct pt_regs; 5.11 added struct ftrace_regs) */
typedef void (*ftrace_func_t)(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct pt_regs *regs);
