/*
 * kprobe_count.c - hand-written "generated" module for opens.stp:
 *
 *	global opens, returns, mine
 *	probe begin { printf("target=%d\n", target()) }
 *	probe kprobe.function("do_sys_openat2") {
 *		opens[execname()]++
 *		if (pid() == target()) mine++
 *	}
 *	probe kprobe.function("do_sys_openat2").return { returns++ }
 *	probe end {
 *		foreach (name in opens- limit 5) printf("%s %d\n", name, opens[name])
 *		printf("returns>0: %d mine>0: %d\n", returns > 0, mine > 0)
 *	}
 */

#define STP_MODULE_NAME "stap_ex_kprobe_count"
#define STP_HAVE_KPROBES 1
#define STP_HAVE_BEGIN_END 1
#include "runtime.h"

struct context {
	struct _stp_context base;
	union {
		struct probe_1_locals {
			string_t tmp0;	/* execname() */
		} probe_1;
		struct probe_3_locals {
			string_t name;	/* foreach key */
			int64_t limit;	/* foreach limit counter */
		} probe_3;
	} probe_locals;
	union {
		struct function_none_locals {
		} function_none;
	} locals[MAXNESTING + 1];
};

static struct {
	struct _stp_map *opens;		/* global opens: [string] long */
	struct _stp_rwlock opens_lock;
	int64_t returns;		/* global returns: long */
	struct _stp_rwlock returns_lock;
	int64_t mine;			/* global mine: long */
	struct _stp_rwlock mine_lock;
} _stp_global;

static const enum _stp_type _stp_opens_keys[] = { STP_TYPE_STRING };

/* opens.stp:2:1 probe begin */
static void probe_0(struct context *c)
{
	c->base.last_stmt = "identifier 'printf' at opens.stp:2:15";
	_stp_printf("target=%lld\n", (long long)_stp_target);
}

/* opens.stp:3:1 probe kprobe.function("do_sys_openat2") */
static void probe_1(struct context *c)
{
	struct probe_1_locals *l = &c->probe_locals.probe_1;
	union _stp_key k[1];
	struct _stp_map_node *node;

	if (!_stp_write_trylock(&_stp_global.opens_lock)) {
		_stp_skip_probe(&c->base, "lock opens");
		return;
	}
	if (!_stp_write_trylock(&_stp_global.mine_lock)) {
		_stp_write_unlock(&_stp_global.opens_lock);
		_stp_skip_probe(&c->base, "lock mine");
		return;
	}
	c->base.last_stmt = "operator '++' at opens.stp:4:25";
	_stp_strlcpy(l->tmp0, current->comm);
	k[0].s = l->tmp0;
	node = _stp_map_get(_stp_global.opens, k);
	if (!node) {
		_stp_error_fmt(&c->base, "array opens overflow (MAXMAPENTRIES=%d)", MAXMAPENTRIES);
		goto out;
	}
	++*_stp_node_long(node);
	c->base.last_stmt = "keyword at opens.stp:5:9";
	if (_stp_target && current->tgid == _stp_target)
		_stp_global.mine++;
out:
	_stp_write_unlock(&_stp_global.mine_lock);
	_stp_write_unlock(&_stp_global.opens_lock);
}

/* opens.stp:7:1 probe kprobe.function("do_sys_openat2").return */
static void probe_2(struct context *c)
{
	if (!_stp_write_trylock(&_stp_global.returns_lock)) {
		_stp_skip_probe(&c->base, "lock returns");
		return;
	}
	c->base.last_stmt = "operator '++' at opens.stp:7:57";
	_stp_global.returns++;
	_stp_write_unlock(&_stp_global.returns_lock);
}

/* opens.stp:8:1 probe end */
static void probe_3(struct context *c)
{
	struct probe_3_locals *l = &c->probe_locals.probe_3;
	struct _stp_map_node *node;

	if (!_stp_write_trylock(&_stp_global.opens_lock))
		goto skip;
	if (!_stp_read_trylock(&_stp_global.returns_lock))
		goto skip_opens;
	if (!_stp_read_trylock(&_stp_global.mine_lock))
		goto skip_returns;
	c->base.last_stmt = "keyword at opens.stp:9:9";
	_stp_map_sort(_stp_global.opens, 0, -1);
	l->limit = 0;
	for (node = _stp_map_first(_stp_global.opens); node && l->limit < 5;
	     node = _stp_map_next(_stp_global.opens, node), l->limit++) {
		_stp_strlcpy(l->name, _stp_node_key_str(node, 0));
		c->base.last_stmt = "identifier 'printf' at opens.stp:9:44";
		_stp_printf("%s %lld\n", l->name, (long long)*_stp_node_long(node));
	}
	c->base.last_stmt = "identifier 'printf' at opens.stp:10:9";
	_stp_printf("returns>0: %lld mine>0: %lld\n", (long long)(_stp_global.returns > 0),
		    (long long)(_stp_global.mine > 0));
	_stp_read_unlock(&_stp_global.mine_lock);
	_stp_read_unlock(&_stp_global.returns_lock);
	_stp_write_unlock(&_stp_global.opens_lock);
	return;
skip_returns:
	_stp_read_unlock(&_stp_global.returns_lock);
skip_opens:
	_stp_write_unlock(&_stp_global.opens_lock);
skip:
	_stp_skip_probe(&c->base, "locks");
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "begin", .location = "opens.stp:2:7" },
	{ .body = probe_1, .pp = "kprobe.function(\"do_sys_openat2\")", .location = "opens.stp:3:7" },
	{ .body = probe_2, .pp = "kprobe.function(\"do_sys_openat2\").return",
	  .location = "opens.stp:7:7" },
	{ .body = probe_3, .pp = "end", .location = "opens.stp:8:7" },
};

static const struct _stp_be_probe _stp_be_probes[] = {
	{ .probe = &_stp_probes[0], .type = STP_BE_BEGIN, .priority = 0 },
	{ .probe = &_stp_probes[3], .type = STP_BE_END, .priority = 0 },
};

static struct _stp_kprobe_probe _stp_kprobe_probes[] = {
	{ .probe = &_stp_probes[1], .symbol = "do_sys_openat2", .is_return = 0 },
	{ .probe = &_stp_probes[2], .symbol = "do_sys_openat2", .is_return = 1 },
};

static int _stp_globals_init(void)
{
	_stp_global.opens = _stp_map_new(MAXMAPENTRIES, 1, _stp_opens_keys, STP_TYPE_LONG);
	if (!_stp_global.opens)
		return -ENOMEM;
	_stp_rwlock_init(&_stp_global.opens_lock);
	_stp_rwlock_init(&_stp_global.returns_lock);
	_stp_rwlock_init(&_stp_global.mine_lock);
	return 0;
}

static void _stp_globals_free(void)
{
	_stp_map_free(_stp_global.opens);
	_stp_global.opens = NULL;
}

#include "module_main.c"
