/* conds.c - conditional probes: the flags generated code keeps current, and arming kprobes to match them. */

#ifdef STP_HAVE_CONDS

#include <linux/irq_work.h>

/*
 * A flag change may come from any probe context, even an NMI, where
 * nothing but an irq_work may be queued. The irq_work queues the refresh
 * on the session's ordered workqueue (after START, before EXIT work), and
 * the refresh arms or disarms kprobes in process context, where
 * enable_kprobe/disable_kprobe may sleep on the kprobe mutex.
 */
static void _stp_conds_refresh(struct work_struct *work)
{
	int i;

	mutex_lock(&_stp_session_mutex);
	for (i = 0; _stp_families[i]; i++)
		if (_stp_families[i]->arm)
			_stp_families[i]->arm();	/* touches only probes still registered */
	mutex_unlock(&_stp_session_mutex);
}

static DECLARE_WORK(_stp_conds_work, _stp_conds_refresh);

static void _stp_conds_kick(struct irq_work *w)
{
	if (_stp_wq)
		queue_work(_stp_wq, &_stp_conds_work);
}

static DEFINE_IRQ_WORK(_stp_conds_irq_work, _stp_conds_kick);

static void _stp_cond_set(atomic_t *flag, int value)
{
	if (atomic_xchg(flag, value) != value)
		irq_work_queue(&_stp_conds_irq_work);
}

/* START, before anything is registered: every flag from the initial globals. */
static void _stp_conds_init(void)
{
	_stp_probe_run(&_stp_cond_init_probe, NULL, STP_SESSION_STARTING);
}

/* Teardown, once no probe body can run: nothing queued or running afterwards. */
static void _stp_conds_exit(void)
{
	irq_work_sync(&_stp_conds_irq_work);
	cancel_work_sync(&_stp_conds_work);
}

#else

/* No conditional probe (the compiler defines STP_HAVE_CONDS for one). */
static void _stp_conds_init(void)
{
}

static void _stp_conds_exit(void)
{
}

#endif
