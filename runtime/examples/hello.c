/* hello.c - hand-written "generated" module for: probe begin { println("hello world"); exit() } */

#define STP_MODULE_NAME "stap_ex_hello"
#define STP_HAVE_BEGIN_END 1
#include "runtime.h"

struct context {
	struct _stp_context base;
	union {
		struct probe_0_locals {
		} probe_0;
		struct probe_1_locals {
		} probe_1;
	} probe_locals;
	union {
		struct function_dummy_locals {
		} function_dummy;
	} locals[MAXNESTING + 1];
};

/* hello.stp:1:1 probe begin */
static void probe_0(struct context *c)
{
	/* hello.stp:2:9 println("hello world") */
	c->base.last_stmt = "identifier 'println' at hello.stp:2:9";
	if (--c->base.actionremaining < 0) {
		c->base.last_error = "MAXACTION exceeded";
		return;
	}
	_stp_print("hello world\n");

	/* hello.stp:3:9 exit() */
	c->base.last_stmt = "identifier 'exit' at hello.stp:3:9";
	_stp_request_exit();
}

/* hello.stp:5:1 probe end */
static void probe_1(struct context *c)
{
	c->base.last_stmt = "identifier 'println' at hello.stp:6:9";
	_stp_print("goodbye\n");
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "begin", .location = "hello.stp:1:7" },
	{ .body = probe_1, .pp = "end", .location = "hello.stp:5:7" },
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
