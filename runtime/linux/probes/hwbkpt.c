/*
 * hwbkpt.c - kernel.data(...).write / .rw: a hardware watchpoint on every
 * CPU (register_wide_hw_breakpoint) whose hits run the probe.
 *
 * The handler runs from the debug exception, after the access, with
 * interrupts off; the runner copes with that as with an NMI (a hit while
 * a body runs on the CPU is skipped and counted). A symbol's address is
 * looked up at START with kallsyms_lookup_name, which modules cannot call
 * by name since 5.7: its address comes from a kprobe registered on it and
 * removed at once. unregister_wide_hw_breakpoint() waits for handlers in
 * flight, so no body runs once every watchpoint is gone.
 */

#ifdef STP_FAMILY_DECLS
#ifdef STP_HAVE_HWBKPT
#include <linux/hw_breakpoint.h>

/* kernel.data(ADDRESS | "symbol")[.length(N)].write / .rw */
struct _stp_hwbkpt_probe {
	const struct _stp_probe *probe;
	const char *symbol;              /* the variable watched, or NULL: address */
	unsigned long address;           /* the address watched when symbol is NULL */
	int length;                      /* 1, 2, 4 or 8 bytes */
	int rw;                          /* 1: reads and writes; 0: writes */
	struct perf_event * __percpu *events; /* runtime-owned: one per CPU while registered */
};
#endif
#else /* the code */
#ifdef STP_HAVE_HWBKPT

static void _stp_hwbkpt_hit(struct perf_event *bp, struct perf_sample_data *data, struct pt_regs *regs)
{
	const struct _stp_hwbkpt_probe *p = bp->overflow_handler_context;

	_stp_run_probe(p->probe, regs);
}

/* The kernel's kallsyms_lookup_name, found through a kprobe on it; NULL if it cannot be. */
static unsigned long (*_stp_hwbkpt_lookup(void))(const char *name)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	void *addr;

	if (register_kprobe(&kp))
		return NULL;
	addr = kp.addr;
	unregister_kprobe(&kp);
	return (unsigned long (*)(const char *))addr;
}

static void _stp_hwbkpt_unregister(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_hwbkpt_probes); i++) {
		if (!_stp_hwbkpt_probes[i].events)
			continue;
		unregister_wide_hw_breakpoint(_stp_hwbkpt_probes[i].events);
		_stp_hwbkpt_probes[i].events = NULL;
	}
}

/* All or nothing: a failure names the probe point and undoes the rest. */
static int _stp_hwbkpt_register(void)
{
	unsigned long (*lookup)(const char *name) = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_hwbkpt_probes); i++) {
		struct _stp_hwbkpt_probe *p = &_stp_hwbkpt_probes[i];
		struct perf_event_attr attr;
		struct perf_event * __percpu *events;
		unsigned long addr = p->address;

		if (p->symbol) {
			if (!lookup)
				lookup = _stp_hwbkpt_lookup();
			addr = lookup ? lookup(p->symbol) : 0;
			if (!addr) {
				_stp_session_error("probe %s at %s: %s", p->probe->pp, p->probe->location,
						   lookup ? "no such kernel symbol"
							  : "cannot find kallsyms_lookup_name to look the symbol up");
				_stp_hwbkpt_unregister();
				return -ENOENT;
			}
		}
		hw_breakpoint_init(&attr);
		attr.bp_addr = addr;
		attr.bp_len = p->length;	/* HW_BREAKPOINT_LEN_N is N */
		attr.bp_type = p->rw ? HW_BREAKPOINT_RW : HW_BREAKPOINT_W;
		events = register_wide_hw_breakpoint(&attr, _stp_hwbkpt_hit, p);
		/* an error pointer in the __percpu address space (gcc 16, 7.2): tested as a number */
		if (IS_ERR_VALUE((__force unsigned long)events)) {
			int rc = (int)(__force long)events;

			_stp_session_error("probe %s at %s: cannot set a hardware watchpoint at 0x%lx (%d%s)",
					   p->probe->pp, p->probe->location, addr, rc,
					   rc == -ENOSPC ? ": all debug registers are in use" : "");
			_stp_hwbkpt_unregister();
			return rc;
		}
		p->events = events;
	}
	return 0;
}

STP_FAMILY(hwbkpt, _stp_hwbkpt_register, _stp_hwbkpt_unregister);

#endif
#endif /* STP_FAMILY_DECLS */
