/*
 * timers.c - timer.ms(N) and friends: one hrtimer per probe, re-armed from
 * its own callback, each period drawn afresh with .randomize(M); and
 * timer.profile: a pinned hrtimer per CPU, firing every tick (or N times a
 * second: timer.profile.freq.hz(N)), in hard
 * interrupt context even on PREEMPT_RT (_HARD: else RT expires it from
 * the timer softirq, where get_irq_regs() is no sample's registers).
 */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

#ifdef STP_HAVE_TIMERS

#include <linux/random.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>

#define STP_TIMER_MIN_NS 50000ULL	/* shortest period accepted: 50 us */

/* One CPU's timer of a timer.profile probe. */
struct _stp_profile_timer {
	struct hrtimer timer;
	struct _stp_timer_probe *tp;	/* the probe it belongs to */
};

static size_t _stp_timers_started;	/* _stp_timer_probes[0..n) have been started */

/* timer.profile probes' per-CPU timers, by index in _stp_timer_probes[] (NULL for others). */
static struct _stp_profile_timer __percpu *_stp_profile_timers[ARRAY_SIZE(_stp_timer_probes)];

/* The next period: period_ns, plus or minus up to randomize_ns. */
static u64 _stp_timer_period(const struct _stp_timer_probe *tp)
{
	u64 ns = tp->period_ns;

	if (tp->randomize_ns)
		ns = ns - tp->randomize_ns + get_random_u64() % (2 * tp->randomize_ns + 1);
	return max_t(u64, ns, STP_TIMER_MIN_NS);
}

/* Whether a timer should keep firing: until the session is on its way out. */
static bool _stp_timer_live(void)
{
	int state = atomic_read(&_stp_session_state);

	return state == STP_SESSION_RUNNING || state == STP_SESSION_STARTING;
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

	_stp_run_probe(tp->probe, NULL);
	if (!_stp_timer_live())
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(_stp_timer_period(tp)));
	return HRTIMER_RESTART;
}

/* A profile timer's period: a tick, or timer.profile.freq.hz(N)'s. */
static u64 _stp_profile_period(const struct _stp_timer_probe *tp)
{
	return tp->period_ns ? tp->period_ns : TICK_NSEC;
}

/* timer.profile: on the CPU it is pinned to, with the interrupted registers. */
static enum hrtimer_restart _stp_profile_fire(struct hrtimer *timer)
{
	struct _stp_profile_timer *pt = container_of(timer, struct _stp_profile_timer, timer);

	_stp_run_probe(pt->tp->probe, get_irq_regs());
	if (!_stp_timer_live())
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(_stp_profile_period(pt->tp)));
	return HRTIMER_RESTART;
}

/*
 * on_each_cpu callback: start this CPU's profile timer, pinned here. Only
 * CPUs online at start get one: a CPU brought up later is not profiled.
 * info is the probe's index (a __percpu pointer does not pass through void *
 * where the compiler gives per-CPU data its own address space, as 7.2's does).
 */
static void _stp_profile_start_cpu(void *info)
{
	struct _stp_profile_timer *pt = this_cpu_ptr(_stp_profile_timers[(uintptr_t)info]);

	hrtimer_start(&pt->timer, ns_to_ktime(_stp_profile_period(pt->tp)), HRTIMER_MODE_REL_PINNED_HARD);
}

static int _stp_profile_register(size_t i)
{
	struct _stp_timer_probe *tp = &_stp_timer_probes[i];
	int cpu;

	_stp_profile_timers[i] = alloc_percpu(struct _stp_profile_timer);
	if (!_stp_profile_timers[i])
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct _stp_profile_timer *pt = per_cpu_ptr(_stp_profile_timers[i], cpu);

		_stp_hrtimer_setup(&pt->timer, _stp_profile_fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		pt->tp = tp;
	}
	on_each_cpu(_stp_profile_start_cpu, (void *)(uintptr_t)i, 1);
	return 0;
}

static void _stp_profile_unregister(size_t i)
{
	int cpu;

	if (!_stp_profile_timers[i])
		return;
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(_stp_profile_timers[i], cpu)->timer);
	free_percpu(_stp_profile_timers[i]);
	_stp_profile_timers[i] = NULL;
}

static int _stp_timers_register(void)
{
	for (; _stp_timers_started < ARRAY_SIZE(_stp_timer_probes); _stp_timers_started++) {
		struct _stp_timer_probe *tp = &_stp_timer_probes[_stp_timers_started];

		if (tp->profile) {
			int rc = _stp_profile_register(_stp_timers_started);

			if (rc) {
				_stp_session_error("probe %s at %s: cannot start its timers (%d)",
						   tp->probe->pp, tp->probe->location, rc);
				return rc;
			}
			continue;
		}
		_stp_hrtimer_setup(&tp->timer, _stp_timer_fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		hrtimer_start(&tp->timer, ns_to_ktime(_stp_timer_period(tp)),
			      HRTIMER_MODE_REL);
	}
	return 0;
}

/* Returns with no timer callback running or pending. */
static void _stp_timers_unregister(void)
{
	while (_stp_timers_started > 0) {
		struct _stp_timer_probe *tp = &_stp_timer_probes[--_stp_timers_started];

		if (tp->profile)
			_stp_profile_unregister(_stp_timers_started);
		else
			hrtimer_cancel(&tp->timer);
	}
}

STP_FAMILY(timers, _stp_timers_register, _stp_timers_unregister);

#endif

#endif /* STP_FAMILY_DECLS */
