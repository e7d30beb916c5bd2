/*
 * flood.c - hand-written "generated" module that floods the relay from one begin probe,
 * for the drop accounting and drain tests (the loop ignores MAXACTION on purpose):
 *
 *	probe begin { for (i = 0; i < $flood_lines; i++) printf("line %06d %s\n", i, 80 x "x"); exit() }
 */

#define STP_MODULE_NAME "stap_ex_flood"
#define STP_HAVE_BEGIN_END 1
#include "runtime.h"

static int flood_lines = 1000;	/* lines to print, a module parameter */
module_param(flood_lines, int, 0400);

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

	c->base.last_stmt = "identifier 'printf' at flood.stp:1:50";
	for (l->i = 0; l->i < flood_lines; l->i++)
		_stp_printf("line %06lld %s\n", (long long)l->i,
			    "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	_stp_request_exit();
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "begin", .location = "flood.stp:1:7" },
};

static const struct _stp_be_probe _stp_be_probes[] = {
	{ .probe = &_stp_probes[0], .type = STP_BE_BEGIN, .priority = 0 },
};

static int _stp_globals_init(void)
{
	return 0;
}

static void _stp_globals_free(void)
{
}

#include "module_main.c"
