/* modules.c - kprobes in kernel modules: attached while their module is live, whenever it loads. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

#if defined(STP_HAVE_KPROBES) && defined(STP_KPROBES_MODULES)

#include <linux/module.h>
#include <linux/notifier.h>

/*
 * A kprobe whose symbol reads "module:name" (module("m").function,
 * kprobe.module("m").function) lives in a module that may come and go
 * while the script runs:
 *
 *  START     the module notifier is registered first, then each module
 *            kprobe is tried: it attaches if its module is loaded, and
 *            waits if not (-ENOENT: not an error, the module may never
 *            load). Any other failure fails START like a kernel kprobe's.
 *  LIVE      the module's init has run and its text is final: its waiting
 *            kprobes register. A failure now ends the script with an
 *            error naming the probe. (COMING is too early: the module is
 *            not yet live, and its init, which nothing can probe, is
 *            about to run.)
 *  GOING     the module's exit has run but its text is still there: its
 *            kprobes unregister, and wait again for the next load.
 *  STOP      every module kprobe unregisters, then the notifier goes.
 *
 * An entry probe may be hooked through ftrace instead (kprobes.c): its
 * address-resolving kprobe is dropped after each round of registrations,
 * and its ftrace slot is given back when its module goes.
 *
 * Locking: _stp_modules_mutex serializes the notifier with START, STOP and
 * the arming of conditional kprobes (_stp_kprobes_arm). The notifier never
 * takes the session mutex: STOP holds that one while it waits, in
 * unregister_module_notifier, for notifier calls in flight. All of this
 * runs in process context; probe handlers take no lock of it.
 */

static DEFINE_MUTEX(_stp_modules_mutex);
static bool _stp_modules_active;	/* START..STOP: the notifier attaches (_stp_modules_mutex) */
static bool _stp_modules_notifier_on;	/* the notifier is registered (session mutex) */
static u64 _stp_modules_missed;		/* hits dropped by module kprobes since unregistered */

/* Module kprobes are unregistered in batches of this many, from the stack. */
#define STP_MODULES_BATCH 16

static void _stp_modules_lock(void)
{
	mutex_lock(&_stp_modules_mutex);
}

static void _stp_modules_unlock(void)
{
	mutex_unlock(&_stp_modules_mutex);
}

/* The length of "module" in a "module:symbol" kprobe, 0 for a kernel symbol. */
static size_t _stp_kprobe_module_len(const struct _stp_kprobe_probe *kpp)
{
	const char *colon = kpp->symbol ? strchr(kpp->symbol, ':') : NULL;

	return colon ? colon - kpp->symbol : 0;
}

/* Does kpp belong to mod (any module if mod is NULL)? */
static bool _stp_kprobe_in_module(const struct _stp_kprobe_probe *kpp, const struct module *mod)
{
	size_t n = _stp_kprobe_module_len(kpp);

	if (!n)
		return false;
	return !mod || (strlen(mod->name) == n && !strncmp(kpp->symbol, mod->name, n));
}

static bool _stp_modules_any(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_kprobe_probes); i++)
		if (_stp_kprobe_module_len(&_stp_kprobe_probes[i]))
			return true;
	return false;
}

static u64 _stp_modules_missed_before(void)
{
	return _stp_modules_missed;
}

/*
 * kpp was just unregistered: move its dropped hits to _stp_modules_missed
 * and clear them, so _stp_kprobes_missed() counts them once whatever
 * happens to kpp next.
 */
static void _stp_modules_keep_missed(struct _stp_kprobe_probe *kpp)
{
	if (_stp_kpp_is_return(kpp))
		_stp_modules_missed += kpp->u.rp.nmissed + kpp->u.rp.kp.nmissed;
	else
		_stp_modules_missed += kpp->u.kp.nmissed;
	memset(&kpp->u, 0, sizeof(kpp->u));
#ifdef STP_FTRACE
	_stp_modules_missed += atomic_long_read(&kpp->ftrace_missed);
	atomic_long_set(&kpp->ftrace_missed, 0);
#endif
}

/*
 * Register module kprobe i (_stp_modules_mutex held). waiting_ok: a
 * missing symbol means the module is not loaded (START), not an error.
 */
static int _stp_modules_register_one(size_t i, bool waiting_ok)
{
	struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];
	int rc;

	rc = _stp_kprobe_register_one(i);
	if (!rc) {
		kpp->registered = 1;
		return 0;
	}
	memset(&kpp->u, 0, sizeof(kpp->u));
	if ((rc == -ENOENT && waiting_ok) || kpp->optional)
		return 0;
	if (_stp_kpp_is_wildcard(kpp)) {
		/* a wildcard's match that cannot be attached: skipped, with a warning */
		_stp_warn("probe %s: cannot attach it (%s, %d): skipped", kpp->probe->pp,
			  _stp_kprobe_strerror(rc), rc);
		return 0;
	}
	_stp_session_error("probe %s at %s: cannot register: %s (%d)", kpp->probe->pp,
			   kpp->probe->location, _stp_kprobe_strerror(rc), rc);
	return rc;
}

/*
 * Unregister the registered kprobes of mod (all modules if NULL): kprobes
 * and kretprobes a batch at a time (one RCU grace period per batch), an
 * entry probe hooked through ftrace on its own.
 */
static void _stp_modules_unregister(const struct module *mod)
{
	struct _stp_kprobe_probe *batch[STP_MODULES_BATCH];
	struct kprobe *kps[STP_MODULES_BATCH];
	struct kretprobe *rps[STP_MODULES_BATCH];
	size_t i = 0, j, n, nk, nr;

	while (i < ARRAY_SIZE(_stp_kprobe_probes)) {
		for (n = nk = nr = 0; i < ARRAY_SIZE(_stp_kprobe_probes) && n < STP_MODULES_BATCH; i++) {
			struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];

			if (!kpp->registered || !_stp_kprobe_in_module(kpp, mod))
				continue;
#ifdef STP_FTRACE
			if (kpp->ftrace) {
				_stp_kprobe_unregister_one(kpp);
				_stp_ftrace_hooked--;	/* its slot is free again */
				_stp_modules_keep_missed(kpp);
				continue;
			}
#endif
			if (_stp_kpp_is_return(kpp))
				rps[nr++] = &kpp->u.rp;
			else
				kps[nk++] = &kpp->u.kp;
			batch[n++] = kpp;
			kpp->registered = 0;
		}
		if (nk)
			unregister_kprobes(kps, nk);
		if (nr)
			unregister_kretprobes(rps, nr);
		for (j = 0; j < n; j++)
			_stp_modules_keep_missed(batch[j]);
	}
}

static int _stp_modules_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct module *mod = data;
	size_t i;

	if (state != MODULE_STATE_LIVE && state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	mutex_lock(&_stp_modules_mutex);
	if (_stp_modules_active && state == MODULE_STATE_GOING)
		_stp_modules_unregister(mod);
	for (i = 0; _stp_modules_active && state == MODULE_STATE_LIVE &&
		    i < ARRAY_SIZE(_stp_kprobe_probes); i++) {
		struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];

		/* already there if START found the module while it was coming */
		if (!kpp->registered && _stp_kprobe_in_module(kpp, mod) &&
		    _stp_modules_register_one(i, false))
			break;	/* the script ends with that error */
	}
	if (state == MODULE_STATE_LIVE)
		_stp_ftrace_drop_resolvers();	/* the kprobes that found the ftrace hooks' addresses */
	mutex_unlock(&_stp_modules_mutex);
	return NOTIFY_DONE;
}

static struct notifier_block _stp_modules_nb = {
	.notifier_call = _stp_modules_notify,
};

/*
 * START, session mutex held, after the kernel kprobes: attach what can be
 * attached now, and watch for the rest. On failure (reported) the caller
 * rolls back with _stp_modules_stop.
 */
static int _stp_modules_start(void)
{
	size_t i;
	int rc;

	if (!_stp_modules_any())
		return 0;
	/* first, so that a module going live from here on is seen */
	rc = register_module_notifier(&_stp_modules_nb);
	if (rc) {
		_stp_session_error("cannot watch module loads for module probes (%d)", rc);
		return rc;
	}
	_stp_modules_notifier_on = true;
	mutex_lock(&_stp_modules_mutex);
	_stp_modules_active = true;
	for (i = 0, rc = 0; !rc && i < ARRAY_SIZE(_stp_kprobe_probes); i++)
		if (_stp_kprobe_module_len(&_stp_kprobe_probes[i]) && !_stp_kprobe_probes[i].registered)
			rc = _stp_modules_register_one(i, true);
	_stp_ftrace_drop_resolvers();
	mutex_unlock(&_stp_modules_mutex);
	return rc;
}

/* STOP (or START's rollback), session mutex held: no module kprobe and no notifier call afterwards. */
static void _stp_modules_stop(void)
{
	mutex_lock(&_stp_modules_mutex);
	_stp_modules_active = false;
	_stp_modules_unregister(NULL);
	mutex_unlock(&_stp_modules_mutex);
	if (_stp_modules_notifier_on)
		unregister_module_notifier(&_stp_modules_nb);	/* waits for calls in flight */
	_stp_modules_notifier_on = false;
}

#elif defined(STP_HAVE_KPROBES)

/* No "module:symbol" kprobe (the compiler defines STP_KPROBES_MODULES for one): nothing to watch. */
static void _stp_modules_lock(void)
{
}

static void _stp_modules_unlock(void)
{
}

static size_t _stp_kprobe_module_len(const struct _stp_kprobe_probe *kpp)
{
	return 0;
}

static u64 _stp_modules_missed_before(void)
{
	return 0;
}

static int _stp_modules_start(void)
{
	return 0;
}

static void _stp_modules_stop(void)
{
}

#endif

#endif /* STP_FAMILY_DECLS */
