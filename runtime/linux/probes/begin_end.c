/* begin_end.c - begin, end and error probes: run in process context, in the order of the generated table. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

#ifdef STP_HAVE_BEGIN_END

/*
 * Run every probe of one type, in table order (the translator sorts the
 * table by priority, then by script order).
 *  - begin: after every other probe is registered; each runs only while
 *    the session is still STARTING, so after exit() or an error in one,
 *    the later ones are skipped;
 *  - end: run while STOPPING, unless the script has ended with an error,
 *    and stop at the first one that fails;
 *  - error: run instead of the end probes after an error; each of them
 *    is attempted, even when an earlier one fails.
 */
static void _stp_be_run(enum _stp_be_type type)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_be_probes); i++) {
		const struct _stp_be_probe *bp = &_stp_be_probes[i];

		if (bp->type != type)
			continue;
		switch (type) {
		case STP_BE_BEGIN:
			_stp_probe_run(bp->probe, NULL, STP_SESSION_STARTING);
			break;
		case STP_BE_END:
			if (atomic_read(&_stp_errored))
				return;
			_stp_probe_run(bp->probe, NULL, STP_SESSION_STOPPING);
			break;
		case STP_BE_ERROR:
			_stp_probe_run(bp->probe, NULL, STP_SESSION_STOPPING);
			break;
		}
		cond_resched();
	}
}

#endif

#endif /* STP_FAMILY_DECLS */
