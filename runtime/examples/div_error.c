/*
 * div_error.c - hand-written "generated" module for err.stp, the error path:
 *
 *	probe begin { println("first begin") }
 *	probe begin { x = 0; printf("%d\n", 10 / x) }
 *	probe begin { println("third begin: must not run") }
 *	probe end { println("end: must not run") }
 *	probe error { println("error probe ran") }
 *	probe error { println("second error probe ran") }
 */

#define STP_MODULE_NAME "stap_ex_div_error"
#define STP_HAVE_BEGIN_END 1
#include "runtime.h"

struct context {
	struct _stp_context base;
	union {
		struct probe_1_locals {
			int64_t x;	/* x */
		} probe_1;
	} probe_locals;
	union {
		struct function_none_locals {
		} function_none;
	} locals[MAXNESTING + 1];
};

static void probe_0(struct context *c)
{
	c->base.last_stmt = "identifier 'println' at err.stp:1:15";
	_stp_print("first begin\n");
}

static void probe_1(struct context *c)
{
	struct probe_1_locals *l = &c->probe_locals.probe_1;
	int64_t divisor;

	c->base.last_stmt = "operator '=' at err.stp:2:17";
	l->x = 0;
	c->base.last_stmt = "operator '/' at err.stp:2:39";
	divisor = l->x;
	if (divisor == 0) {
		c->base.last_error = "division by zero";
		return;
	}
	_stp_printf("%lld\n", (long long)(10 / divisor));
}

static void probe_2(struct context *c)
{
	_stp_print("third begin: must not run\n");
}

static void probe_3(struct context *c)
{
	_stp_print("end: must not run\n");
}

static void probe_4(struct context *c)
{
	_stp_print("error probe ran\n");
}

static void probe_5(struct context *c)
{
	_stp_print("second error probe ran\n");
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "begin", .location = "err.stp:1:7" },
	{ .body = probe_1, .pp = "begin", .location = "err.stp:2:7" },
	{ .body = probe_2, .pp = "begin", .location = "err.stp:3:7" },
	{ .body = probe_3, .pp = "end", .location = "err.stp:4:7" },
	{ .body = probe_4, .pp = "error", .location = "err.stp:5:7" },
	{ .body = probe_5, .pp = "error", .location = "err.stp:6:7" },
};

static const struct _stp_be_probe _stp_be_probes[] = {
	{ .probe = &_stp_probes[0], .type = STP_BE_BEGIN, .priority = 0 },
	{ .probe = &_stp_probes[1], .type = STP_BE_BEGIN, .priority = 0 },
	{ .probe = &_stp_probes[2], .type = STP_BE_BEGIN, .priority = 0 },
	{ .probe = &_stp_probes[3], .type = STP_BE_END, .priority = 0 },
	{ .probe = &_stp_probes[4], .type = STP_BE_ERROR, .priority = 0 },
	{ .probe = &_stp_probes[5], .type = STP_BE_ERROR, .priority = 0 },
};

static int _stp_globals_init(void)
{
	return 0;
}

static void _stp_globals_free(void)
{
}

#include "module_main.c"
