/*
 * skips.c - hand-written "generated" module for the reentrancy/MAXSKIPPED path:
 *
 *	global hits
 *	probe kprobe.function("vsnprintf") { hits++ }
 *	probe timer.ms(1) { printf("tick\n") }     # printf calls vsnprintf: a nested hit
 *
 * Every timer body's printf re-enters through the kprobe on the same CPU;
 * those hits are skipped, and the 101st ends the script with an error.
 */

#define STP_MODULE_NAME "stap_ex_skips"
#define STP_HAVE_KPROBES 1
#define STP_HAVE_TIMERS 1
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

static struct {
	int64_t hits;			/* global hits */
	struct _stp_rwlock hits_lock;
} _stp_global;

static void probe_0(struct context *c)
{
	if (!_stp_write_trylock(&_stp_global.hits_lock)) {
		_stp_skip_probe(&c->base, "lock hits");
		return;
	}
	_stp_global.hits++;
	_stp_write_unlock(&_stp_global.hits_lock);
}

static void probe_1(struct context *c)
{
	c->base.last_stmt = "identifier 'printf' at skips.stp:3:21";
	_stp_printf("tick %d\n", 1);
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "kprobe.function(\"vsnprintf\")", .location = "skips.stp:2:7" },
	{ .body = probe_1, .pp = "timer.ms(1)", .location = "skips.stp:3:7" },
};

static struct _stp_timer_probe _stp_timer_probes[] = {
	{ .probe = &_stp_probes[1], .period_ns = 1000000ULL },
};

static struct _stp_kprobe_probe _stp_kprobe_probes[] = {
	{ .probe = &_stp_probes[0], .symbol = "vsnprintf", .is_return = 0 },
};

static int _stp_globals_init(void)
{
	_stp_rwlock_init(&_stp_global.hits_lock);
	return 0;
}

static void _stp_globals_free(void)
{
}

#include "module_main.c"
