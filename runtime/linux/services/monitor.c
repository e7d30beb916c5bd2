/* monitor.c - stap --monitor: each probe's hits, probes switched off by stapio, and the status it shows. */

#ifdef STP_MONITOR

#define STP_MONITOR_NPROBES (sizeof(_stp_probes) / sizeof(_stp_probes[0]))

static u64 __percpu *_stp_monitor_hits;		/* STP_MONITOR_NPROBES per CPU, bodies run */
static atomic_t _stp_monitor_off[STP_MONITOR_NPROBES]; /* 1: stapio switched the probe off */
static unsigned long _stp_monitor_loaded;	/* jiffies when the module was initialized */

/* The generated code: show every global on STATUS lines, or reset each to its initial value. */
static void _stp_monitor_globals(void);
static void _stp_monitor_reset(void);

static int _stp_monitor_init(void)
{
	_stp_monitor_loaded = jiffies;
	_stp_monitor_hits = __alloc_percpu(sizeof(u64) * STP_MONITOR_NPROBES, __alignof__(u64));
	return _stp_monitor_hits ? 0 : -ENOMEM;
}

static void _stp_monitor_free(void)
{
	free_percpu(_stp_monitor_hits);
	_stp_monitor_hits = NULL;
}

/* From the runner, interrupts off: whether p is switched off. */
static __always_inline bool _stp_monitor_is_off(const struct _stp_probe *p)
{
	size_t i = p - _stp_probes;

	return i < STP_MONITOR_NPROBES && atomic_read(&_stp_monitor_off[i]);
}

/* From the runner, interrupts off: p's body ran once more. */
static __always_inline void _stp_monitor_hit(const struct _stp_probe *p)
{
	size_t i = p - _stp_probes;

	if (i < STP_MONITOR_NPROBES)
		this_cpu_ptr(_stp_monitor_hits)[i]++;
}

/* One STATUS line (process context: it may use the reserved room of the ring). */
static __printf(1, 2) void _stp_monitor_line(const char *fmt, ...)
{
	char text[STP_MSG_TEXT_MAX];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	_stp_ctl_send(STP_MSG_STATUS, text, n, false);
}

/*
 * The status, from the .cmd write handler (process context): a header
 * line, "globals", one line per global, "probes", one line per probe
 * (index, on/off, hits summed over the CPUs, point, location), then an
 * empty STATUS. Lines that find no room in the ring are lost (counted).
 */
static void _stp_monitor_status(void)
{
	size_t i;
	int cpu;

	_stp_monitor_line("module: %s  uid: %u  uptime: %us", module_name(THIS_MODULE), _stp_uid,
			  jiffies_to_msecs(jiffies - _stp_monitor_loaded) / 1000);
	_stp_monitor_line("memory: %u bytes of contexts per CPU, %lu bytes of hit counters",
			  (unsigned int)sizeof(struct context),
			  (unsigned long)(sizeof(u64) * STP_MONITOR_NPROBES * num_possible_cpus()));
	_stp_monitor_line("globals:");
	_stp_monitor_globals();
	_stp_monitor_line("probes:");
	for (i = 0; i < STP_MONITOR_NPROBES; i++) {
		u64 hits = 0;

		for_each_possible_cpu(cpu)
			hits += per_cpu_ptr(_stp_monitor_hits, cpu)[i];
		_stp_monitor_line("%zu %s %llu %s (%s)", i, atomic_read(&_stp_monitor_off[i]) ? "off" : "on",
				  hits, _stp_probes[i].pp, _stp_probes[i].location);
	}
	_stp_ctl_send(STP_MSG_STATUS, "", 0, true);
}

/* A MONITOR command, from the .cmd write handler. */
static int _stp_monitor_cmd(const struct _stp_cmd_monitor *m)
{
	size_t i;

	switch (m->op) {
	case STP_MONITOR_STATUS:
		_stp_monitor_status();
		return 0;
	case STP_MONITOR_RESET:
		_stp_monitor_reset();
		return 0;
	case STP_MONITOR_PAUSE:
	case STP_MONITOR_RESUME:
		for (i = 0; i < STP_MONITOR_NPROBES; i++)
			atomic_set(&_stp_monitor_off[i], m->op == STP_MONITOR_PAUSE);
		return 0;
	case STP_MONITOR_TOGGLE:
		if (m->index >= STP_MONITOR_NPROBES)
			return -EINVAL;
		atomic_set(&_stp_monitor_off[m->index], !atomic_read(&_stp_monitor_off[m->index]));
		return 0;
	default:
		return -EINVAL;
	}
}

#else

static inline int _stp_monitor_init(void) { return 0; }
static inline void _stp_monitor_free(void) { }

static int _stp_monitor_cmd(const struct _stp_cmd_monitor *m)
{
	return -EOPNOTSUPP;
}

#endif
