/* tracepoints.c - kernel.trace("name"): find each tracepoint by name, register a callback, roll back on failure. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

#ifdef STP_HAVE_TRACEPOINTS

#include <linux/module.h>
#include <linux/notifier.h>
#include <linux/tracepoint.h>

/*
 * Tracepoints of vmlinux register at START, all or nothing. Those of a
 * module (tpp->module set) attach whenever the module is there:
 *
 *  START     after the vmlinux ones, the tracepoint module notifier is
 *            registered; the kernel calls it at once (MODULE_STATE_COMING)
 *            for each module already loaded, and their tracepoints attach.
 *            A module that is not loaded is not an error.
 *  COMING    a module is loading (its tracepoints are set up, its init has
 *            not run yet): its tracepoints attach, so its init is traced too.
 *            A failure ends the script with an error naming the probe.
 *  GOING     the module's exit has run: its tracepoints detach (and no
 *            callback is left running) before its memory goes.
 *  STOP      unregistering the notifier makes the kernel call it with GOING
 *            for every module: every module tracepoint detaches.
 *
 * The notifier's calls are serialized by the kernel's own lock of its list
 * of modules with tracepoints; the module entries' tp and registered are
 * only touched there. They run in process context; a callback takes no lock.
 */

static size_t _stp_tracepoints_registered;	/* _stp_tracepoint_probes[0..n) are registered, or modules' */

#ifdef CONFIG_MODULES
static bool _stp_tp_modules_on;		/* the notifier is registered (session mutex) */
static int _stp_tp_modules_error;	/* a module tracepoint failed to register while starting */
#endif

/* Called by the generated callbacks with the tracepoint's arguments. */
static void _stp_tracepoint_hit(void *data, const unsigned long *args)
{
	struct _stp_tracepoint_probe *tpp = data;

	_stp_run_probe_with(tpp->probe, NULL, NULL, args);
}

static void _stp_tracepoint_lookup(struct tracepoint *tp, void *priv)
{
	struct _stp_tracepoint_probe *tpp = priv;

	if (!tpp->tp && !strcmp(tp->name, tpp->name))
		tpp->tp = tp;
}

#ifdef CONFIG_MODULES
static bool _stp_tracepoint_of(const struct _stp_tracepoint_probe *tpp, const struct module *mod)
{
	return tpp->module && !strcmp(tpp->module, mod->name);
}

/* The tracepoint called name among mod's, NULL if it has none. */
static struct tracepoint *_stp_module_tracepoint(struct module *mod, const char *name)
{
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp = tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (!strcmp(tp->name, name))
			return tp;
	}
	return NULL;
}

static void _stp_tp_module_coming(struct module *mod)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_tracepoint_probes); i++) {
		struct _stp_tracepoint_probe *tpp = &_stp_tracepoint_probes[i];
		int rc = -ENOENT;

		if (tpp->registered || !_stp_tracepoint_of(tpp, mod))
			continue;
		tpp->tp = _stp_module_tracepoint(mod, tpp->name);
		if (tpp->tp)
			rc = tracepoint_probe_register(tpp->tp, tpp->callback, tpp);
		if (rc) {
			_stp_session_error("probe %s at %s: cannot register: %s in module %s (%d)", tpp->probe->pp,
					   tpp->probe->location,
					   tpp->tp ? "registration failed" : "no such tracepoint", mod->name, rc);
			_stp_tp_modules_error = rc;
			tpp->tp = NULL;
			return;	/* the script ends with that error */
		}
		tpp->registered = 1;
	}
}

static void _stp_tp_module_going(struct module *mod)
{
	bool any = false;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_tracepoint_probes); i++) {
		struct _stp_tracepoint_probe *tpp = &_stp_tracepoint_probes[i];

		if (!tpp->registered || !_stp_tracepoint_of(tpp, mod))
			continue;
		tracepoint_probe_unregister(tpp->tp, tpp->callback, tpp);
		tpp->registered = 0;
		tpp->tp = NULL;
		any = true;
	}
	if (any)
		tracepoint_synchronize_unregister();	/* no callback still runs */
}

static int _stp_tp_modules_notify(struct notifier_block *nb, unsigned long state, void *data)
{
	struct tp_module *tp_mod = data;

	if (state == MODULE_STATE_COMING)
		_stp_tp_module_coming(tp_mod->mod);
	else if (state == MODULE_STATE_GOING)
		_stp_tp_module_going(tp_mod->mod);
	return NOTIFY_OK;
}

static struct notifier_block _stp_tp_modules_nb = {
	.notifier_call = _stp_tp_modules_notify,
};

static bool _stp_tp_modules_any(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_tracepoint_probes); i++)
		if (_stp_tracepoint_probes[i].module)
			return true;
	return false;
}
#endif

static void _stp_tracepoints_unregister(void)
{
	bool any = _stp_tracepoints_registered > 0;

#ifdef CONFIG_MODULES
	if (_stp_tp_modules_on)
		unregister_tracepoint_module_notifier(&_stp_tp_modules_nb);	/* GOING for each module */
	_stp_tp_modules_on = false;
#endif
	while (_stp_tracepoints_registered > 0) {
		struct _stp_tracepoint_probe *tpp = &_stp_tracepoint_probes[--_stp_tracepoints_registered];

		if (tpp->registered && !tpp->module)
			tracepoint_probe_unregister(tpp->tp, tpp->callback, tpp);
		if (!tpp->module)
			tpp->registered = 0;
	}
	if (any)
		tracepoint_synchronize_unregister();	/* no callback still runs */
}

/* All or nothing: a tracepoint missing from the running kernel ends the start; a module's waits for it. */
static int _stp_tracepoints_register(void)
{
	for (; _stp_tracepoints_registered < ARRAY_SIZE(_stp_tracepoint_probes);
	     _stp_tracepoints_registered++) {
		struct _stp_tracepoint_probe *tpp = &_stp_tracepoint_probes[_stp_tracepoints_registered];
		int rc = -ENOENT;

		if (tpp->module)
			continue;	/* attached by the module notifier */
		tpp->tp = NULL;
		for_each_kernel_tracepoint(_stp_tracepoint_lookup, tpp);
		if (tpp->tp)
			rc = tracepoint_probe_register(tpp->tp, tpp->callback, tpp);
		if (rc) {
			_stp_session_error("probe %s at %s: cannot register: %s (%d)", tpp->probe->pp,
					   tpp->probe->location,
					   tpp->tp ? "registration failed" : "no such tracepoint in the kernel", rc);
			_stp_tracepoints_unregister();
			return rc;
		}
		tpp->registered = 1;
	}
#ifdef CONFIG_MODULES
	if (_stp_tp_modules_any()) {
		int rc = register_tracepoint_module_notifier(&_stp_tp_modules_nb);

		if (rc)
			_stp_session_error("cannot watch module loads for module tracepoints (%d)", rc);
		else
			_stp_tp_modules_on = true;
		if (!rc && _stp_tp_modules_error)
			rc = _stp_tp_modules_error;	/* reported by the notifier */
		if (rc) {
			_stp_tracepoints_unregister();
			return rc;
		}
	}
#endif
	return 0;
}

STP_FAMILY(tracepoints, _stp_tracepoints_register, _stp_tracepoints_unregister);

#endif

#endif /* STP_FAMILY_DECLS */
