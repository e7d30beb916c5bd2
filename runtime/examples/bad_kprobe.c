/*
 * bad_kprobe.c - hand-written "generated" module for bad.stp, a probe point that cannot be registered:
 *
 *	probe begin { println("begin: must not run") }
 *	probe kprobe.function("vfs_read") { }
 *	probe kprobe.function("no_such_fn_stapc") { }
 *	probe end { println("end: must not run") }
 *	probe error { println("error: must not run") }
 *
 * The failure is reported naming the probe point, vfs_read is unregistered
 * again, and no probe body runs at all.
 */

#define STP_MODULE_NAME "stap_ex_bad_kprobe"
#define STP_HAVE_KPROBES 1
#define STP_HAVE_BEGIN_END 1
#include "runtime.h"

struct context {
	struct _stp_context base;
	union {
		struct probe_0_locals {
		} probe_0;
	} probe_locals;
	union {
		struct function_none_locals {
		} function_none;
	} locals[MAXNESTING + 1];
};

static void probe_0(struct context *c)
{
	_stp_print("begin: must not run\n");
}

static void probe_1(struct context *c)
{
}

static void probe_2(struct context *c)
{
}

static void probe_3(struct context *c)
{
	_stp_print("end: must not run\n");
}

static void probe_4(struct context *c)
{
	_stp_print("error: must not run\n");
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "begin", .location = "bad.stp:1:7" },
	{ .body = probe_1, .pp = "kprobe.function(\"vfs_read\")", .location = "bad.stp:2:7" },
	{ .body = probe_2, .pp = "kprobe.function(\"no_such_fn_stapc\")", .location = "bad.stp:3:7" },
	{ .body = probe_3, .pp = "end", .location = "bad.stp:4:7" },
	{ .body = probe_4, .pp = "error", .location = "bad.stp:5:7" },
};

static const struct _stp_be_probe _stp_be_probes[] = {
	{ .probe = &_stp_probes[0], .type = STP_BE_BEGIN, .priority = 0 },
	{ .probe = &_stp_probes[3], .type = STP_BE_END, .priority = 0 },
	{ .probe = &_stp_probes[4], .type = STP_BE_ERROR, .priority = 0 },
};

static struct _stp_kprobe_probe _stp_kprobe_probes[] = {
	{ .probe = &_stp_probes[1], .symbol = "vfs_read", .is_return = 0 },
	{ .probe = &_stp_probes[2], .symbol = "no_such_fn_stapc", .is_return = 0 },
};

static int _stp_globals_init(void)
{
	return 0;
}

static void _stp_globals_free(void)
{
}

#include "module_main.c"
