/* timers.c - timer.ms(N) and friends: one hrtimer per probe, re-armed from its own callback. */

#ifdef STP_HAVE_TIMERS

#define STP_TIMER_MIN_NS 50000ULL	/* shortest period accepted: 50 us */

static size_t _stp_timers_started;	/* _stp_timer_probes[0..n) have been started */

static u64 _stp_timer_period(const struct _stp_timer_probe *tp)
{
	return max_t(u64, tp->period_ns, STP_TIMER_MIN_NS);
}

/*
 * In hard interrupt context; the runner skips the body unless RUNNING.
 * The timer may fire while the session is still STARTING (the kprobes
 * are being registered): it stays armed then, and only stops once the
 * session is on its way out.
 */
static enum hrtimer_restart _stp_timer_fire(struct hrtimer *timer)
{
	struct _stp_timer_probe *tp = container_of(timer, struct _stp_timer_probe, timer);
	int state;

	_stp_run_probe(tp->probe, NULL);
	state = atomic_read(&_stp_session_state);
	if (state != STP_SESSION_RUNNING && state != STP_SESSION_STARTING)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(_stp_timer_period(tp)));
	return HRTIMER_RESTART;
}

static int _stp_timers_register(void)
{
	for (; _stp_timers_started < ARRAY_SIZE(_stp_timer_probes); _stp_timers_started++) {
		struct _stp_timer_probe *tp = &_stp_timer_probes[_stp_timers_started];

		hrtimer_init(&tp->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		tp->timer.function = _stp_timer_fire;
		hrtimer_start(&tp->timer, ns_to_ktime(_stp_timer_period(tp)),
			      HRTIMER_MODE_REL);
	}
	return 0;
}

/* Returns with no timer callback running or pending. */
static void _stp_timers_unregister(void)
{
	while (_stp_timers_started > 0)
		hrtimer_cancel(&_stp_timer_probes[--_stp_timers_started].timer);
}

#else

static int _stp_timers_register(void)
{
	return 0;
}

static void _stp_timers_unregister(void)
{
}

#endif
