/*
 * order.c - hand-written "generated" module for the cross-CPU output order test:
 *
 *	global seq
 *	probe kprobe.function("vfs_read") { seq++; printf("%d %d\n", seq, cpu()); flush inside the lock }
 *	probe end { printf("total %d\n", seq) }
 *
 * Each line is flushed while the lock is held, so the relay records are
 * produced in seq order; stapio must print them in exactly that order.
 */

#define STP_MODULE_NAME "stap_ex_order"
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

static struct {
	int64_t seq;			/* global seq */
	struct _stp_rwlock seq_lock;
} _stp_global;

static void probe_0(struct context *c)
{
	if (!_stp_write_trylock(&_stp_global.seq_lock)) {
		_stp_skip_probe(&c->base, "lock seq");
		return;
	}
	c->base.last_stmt = "identifier 'printf' at order.stp:2:45";
	_stp_global.seq++;
	_stp_printf("%lld %d\n", (long long)_stp_global.seq, smp_processor_id());
	_stp_print_flush();
	_stp_write_unlock(&_stp_global.seq_lock);
}

static void probe_1(struct context *c)
{
	if (!_stp_read_trylock(&_stp_global.seq_lock)) {
		_stp_skip_probe(&c->base, "lock seq");
		return;
	}
	_stp_printf("total %lld\n", (long long)_stp_global.seq);
	_stp_read_unlock(&_stp_global.seq_lock);
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "kprobe.function(\"vfs_read\")", .location = "order.stp:2:7" },
	{ .body = probe_1, .pp = "end", .location = "order.stp:3:7" },
};

static const struct _stp_be_probe _stp_be_probes[] = {
	{ .probe = &_stp_probes[1], .type = STP_BE_END, .priority = 0 },
};

static struct _stp_kprobe_probe _stp_kprobe_probes[] = {
	{ .probe = &_stp_probes[0], .symbol = "vfs_read", .is_return = 0 },
};

static int _stp_globals_init(void)
{
	_stp_rwlock_init(&_stp_global.seq_lock);
	return 0;
}

static void _stp_globals_free(void)
{
}

#include "module_main.c"
