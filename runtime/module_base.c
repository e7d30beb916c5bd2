/*
 * module_base.c - the session state, the module parameters and the transport
 * (control, ring, relay, copy, timing, monitor): what the probe families' code
 * builds on. Generated code includes it after its own code, then the runtime
 * file of every probe family (pass 3 lists them from the providers of
 * compiler/probes/families.def), then module_main.c. Its diagnostic push is
 * popped in module_main.c.
 */

/* Any one module uses only part of the runtime API (see runtime.h). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"

#include <linux/workqueue.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/wait.h>
#include <linux/cpumask.h>

MODULE_LICENSE("GPL");
#ifdef STP_PRIVILEGE
MODULE_INFO(stapc_privilege, STP_PRIVILEGE);	/* stap --privilege: what the module may do */
#endif
MODULE_DESCRIPTION("stapc probe module " STP_MODULE_NAME);

enum _stp_session_state {
	STP_SESSION_LOADED,	/* module initialized, no START yet */
	STP_SESSION_STARTING,	/* begin probes are running */
	STP_SESSION_RUNNING,	/* timers and kprobes are live */
	STP_SESSION_ERROR,	/* a probe failed: bodies no longer run */
	STP_SESSION_STOPPING,	/* exit() or EXIT: only end/error probes still run */
	STP_SESSION_STOPPED,	/* unregistered, end/error probes done */
};

static atomic_t _stp_session_state = ATOMIC_INIT(STP_SESSION_LOADED);
static atomic_t _stp_errored = ATOMIC_INIT(0);	/* the script has ended with an error */
static atomic_t _stp_error_count = ATOMIC_INIT(0); /* ERRORs reported */
static atomic64_t _stp_skipped = ATOMIC64_INIT(0); /* probe hits skipped */
static struct context **_stp_contexts;		/* one per possible CPU, by CPU id */
static DEFINE_MUTEX(_stp_session_mutex);	/* serializes start, stop and exit */
static DEFINE_MUTEX(_stp_cmd_mutex);		/* guards the command flags below */
static struct workqueue_struct *_stp_wq;	/* runs START and EXIT in order */
static struct _stp_cmd_start _stp_start_cmd;	/* the START being carried out */
static bool _stp_started;			/* START was accepted (_stp_cmd_mutex) */
static bool _stp_begun;				/* begin probes ran: end/error probes will */
static bool _stp_exit_queued;			/* EXIT was accepted (_stp_cmd_mutex) */
static bool _stp_start_settled;			/* START has run its begin probes or rolled back */
static DECLARE_WAIT_QUEUE_HEAD(_stp_start_wq);	/* woken when _stp_start_settled is set */

long _stp_target;
long _stp_stapio_pid;

long _stp_tz_gmtoff;
module_param(_stp_tz_gmtoff, long, 0400);
MODULE_PARM_DESC(_stp_tz_gmtoff, "local time zone, seconds west of UTC (set by staprun)");
char _stp_tz_name[STP_TZ_NAME_MAX] = "UTC";
module_param_string(_stp_tz_name, _stp_tz_name, STP_TZ_NAME_MAX, 0400);
MODULE_PARM_DESC(_stp_tz_name, "local time zone name (set by staprun)");

/* stap -b: staprun reads this (/sys/module/NAME/parameters/) and has stapio write a file per CPU. */
static int _stp_bulkmode = IS_ENABLED(STP_BULKMODE);
module_param(_stp_bulkmode, int, 0444);
MODULE_PARM_DESC(_stp_bulkmode, "1 if built with stap -b: output goes to one file per CPU (read only)");

static int _stp_monitor = IS_ENABLED(STP_MONITOR);
module_param(_stp_monitor, int, 0444);
MODULE_PARM_DESC(_stp_monitor, "1 if built with stap --monitor: staprun -M can show its status (read only)");

/* The user staprun runs for: a --privilege=stapusr module probes only their processes (_stp_myproc). */
static unsigned int _stp_uid;
module_param(_stp_uid, uint, 0400);
MODULE_PARM_DESC(_stp_uid, "the uid of the user who loaded the module (set by staprun)");

/*
 * The running task belongs to the loading user: its real and effective uid
 * are theirs (a setuid program of someone else's is not). Safe in any
 * context: the current task's credentials are stable while it runs.
 */
static bool _stp_myproc(void)
{
	kuid_t user = make_kuid(&init_user_ns, _stp_uid);

	return uid_eq(current_uid(), user) && uid_eq(current_euid(), user);
}

long _stp_namespaces_pid;
module_param(_stp_namespaces_pid, long, 0400);
MODULE_PARM_DESC(_stp_namespaces_pid, "staprun -N: the process whose namespaces ns_pid() and friends use, 0: stapio's");

long _stp_remote_id = -1;
module_param(_stp_remote_id, long, 0400);
MODULE_PARM_DESC(_stp_remote_id, "index of this run among stap --remote targets, -1 if none");
char _stp_remote_uri[STP_REMOTE_URI_MAX];
module_param_string(_stp_remote_uri, _stp_remote_uri, STP_REMOTE_URI_MAX, 0400);
MODULE_PARM_DESC(_stp_remote_uri, "the stap --remote target of this run, empty if none");

static void _stp_probe_run(const struct _stp_probe *p, struct pt_regs *regs, int state);
static __always_inline void _stp_run_probe(const struct _stp_probe *p, struct pt_regs *regs);
static bool _stp_run_probe_with(const struct _stp_probe *p, struct pt_regs *regs, void *entry_data,
				const unsigned long *args);
static bool _stp_run_probe_data(const struct _stp_probe *p, struct pt_regs *regs, void *entry_data,
				void *hit_data);
static __printf(1, 2) void _stp_session_error(const char *fmt, ...);
static void _stp_count_skipped(void);

#include "linux/services/time.c"
#include "linux/transport/control.c"
#include "linux/transport/ring.c"
#include "linux/transport/relay.c"
#include "linux/services/copy.c"
#include "linux/services/timing.c"
#include "linux/services/monitor.c"
