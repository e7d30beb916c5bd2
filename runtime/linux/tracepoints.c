/* tracepoints.c - kernel.trace("name"): find each tracepoint by name, register a callback, roll back on failure. */

#ifdef STP_HAVE_TRACEPOINTS

#include <linux/tracepoint.h>

static size_t _stp_tracepoints_registered;	/* _stp_tracepoint_probes[0..n) are registered */

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

static void _stp_tracepoints_unregister(void)
{
	bool any = _stp_tracepoints_registered > 0;

	while (_stp_tracepoints_registered > 0) {
		struct _stp_tracepoint_probe *tpp = &_stp_tracepoint_probes[--_stp_tracepoints_registered];

		if (tpp->registered)
			tracepoint_probe_unregister(tpp->tp, tpp->callback, tpp);
		tpp->registered = 0;
	}
	if (any)
		tracepoint_synchronize_unregister();	/* no callback still runs */
}

/* All or nothing: a tracepoint missing from the running kernel (or built as a module) ends the start. */
static int _stp_tracepoints_register(void)
{
	for (; _stp_tracepoints_registered < ARRAY_SIZE(_stp_tracepoint_probes);
	     _stp_tracepoints_registered++) {
		struct _stp_tracepoint_probe *tpp = &_stp_tracepoint_probes[_stp_tracepoints_registered];
		int rc = -ENOENT;

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
	return 0;
}

/* The family's entry in _stp_families[] (runtime_api.h). */
static const struct _stp_family _stp_family_tracepoints = {
	.name = "tracepoints",
	.register_all = _stp_tracepoints_register,
	.unregister_all = _stp_tracepoints_unregister,
};

#endif
