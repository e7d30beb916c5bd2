/* absent.c - what the core calls of a probe family the script does not use, whose file the module leaves out: a no-op each. */

#ifndef STP_HAVE_BEGIN_END
/* module_main.c runs the begin, end and error probes: there are none. */
static void _stp_be_run(enum _stp_be_type type)
{
}
#endif

#ifndef STP_HAVE_INPUT
/* control.c hands on stapio's INPUT: it sends none to a module without the _stp_has_input parameter. */
static int _stp_input_feed(const char *buf, size_t len)
{
	return 0;
}
#endif

#ifndef STP_HAVE_PROCESS
/* A program's @var read from a kernel probe: no uprobe hit, so no load bias (runtime_api.h). */
static unsigned long _stp_uprobe_bias(struct _stp_context *c, const struct pt_regs *regs)
{
	return 0;
}
#endif
