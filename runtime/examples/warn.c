/*
 * warn.c - hand-written "generated" module for the control channel under load:
 *
 *	probe begin { for (i = 0; i < $warn_count; i++) warn(sprintf("warning %d", i)); exit() }
 *	probe end { println("end ran") }
 *
 * More warnings than the ring holds: the surplus is counted as lost, and
 * REQUEST_EXIT and EXITED still get through.
 */

#define STP_MODULE_NAME "stap_ex_warn"
#define STP_HAVE_BEGIN_END 1
#include "runtime.h"

static int warn_count = 10;	/* warnings to send, a module parameter */
module_param(warn_count, int, 0400);

struct context {
	struct _stp_context base;
	union {
		struct probe_0_locals {
			int64_t i;	/* loop counter */
		} probe_0;
	} probe_locals;
	union {
		struct function_none_locals {
		} function_none;
	} locals[MAXNESTING + 1];
};

static void probe_0(struct context *c)
{
	struct probe_0_locals *l = &c->probe_locals.probe_0;

	c->base.last_stmt = "identifier 'warn' at warn.stp:1:50";
	for (l->i = 0; l->i < warn_count; l->i++)
		_stp_warn("warning %lld", (long long)l->i);
	_stp_request_exit();
}

static void probe_1(struct context *c)
{
	_stp_print("end ran\n");
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "begin", .location = "warn.stp:1:7" },
	{ .body = probe_1, .pp = "end", .location = "warn.stp:2:7" },
};

static const struct _stp_be_probe _stp_be_probes[] = {
	{ .probe = &_stp_probes[0], .type = STP_BE_BEGIN, .priority = 0 },
	{ .probe = &_stp_probes[1], .type = STP_BE_END, .priority = 0 },
};

static int _stp_globals_init(void)
{
	return 0;
}

static void _stp_globals_free(void)
{
}

#include "module_main.c"
