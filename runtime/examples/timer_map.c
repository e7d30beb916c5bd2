/*
 * timer_map.c - hand-written "generated" module for timer.stp:
 *
 *	global hits, n
 *	probe timer.ms(10) { hits["fast"]++; if (++n >= 30) exit() }
 *	probe timer.ms(25) { hits["slow"]++ }
 *	probe timer.ms(7) { hits[sprintf("seven%d", n % 3)]++ }
 *	probe end { foreach (k in hits-) printf("%s %d\n", k, hits[k]); printf("n=%d\n", n) }
 */

#define STP_MODULE_NAME "stap_ex_timer_map"
#define STP_HAVE_TIMERS 1
#define STP_HAVE_BEGIN_END 1
#include "runtime.h"

struct context {
	struct _stp_context base;
	union {
		struct probe_2_locals {
			string_t tmp0;	/* sprintf("seven%d", n % 3) */
		} probe_2;
		struct probe_3_locals {
			string_t k;	/* foreach key */
		} probe_3;
	} probe_locals;
	union {
		struct function_none_locals {
		} function_none;
	} locals[MAXNESTING + 1];
};

/* Script globals, each with its lock. */
static struct {
	struct _stp_map *hits;		/* global hits: [string] long */
	struct _stp_rwlock hits_lock;
	int64_t n;			/* global n: long */
	struct _stp_rwlock n_lock;
} _stp_global;

static const enum _stp_type _stp_hits_keys[] = { STP_TYPE_STRING };

/* hits[key]++ ; error if the array is full. Returns 0 on error. */
static int hits_incr(struct context *c, const char *key)
{
	union _stp_key k[1] = { { .s = key } };
	struct _stp_map_node *node = _stp_map_get(_stp_global.hits, k);

	if (!node) {
		_stp_error_fmt(&c->base, "array hits overflow (MAXMAPENTRIES=%d)", MAXMAPENTRIES);
		return 0;
	}
	++*_stp_node_long(node);
	return 1;
}

/* timer.stp:2:1 probe timer.ms(10) */
static void probe_0(struct context *c)
{
	if (!_stp_write_trylock(&_stp_global.hits_lock)) {
		_stp_skip_probe(&c->base, "lock hits");
		return;
	}
	if (!_stp_write_trylock(&_stp_global.n_lock)) {
		_stp_write_unlock(&_stp_global.hits_lock);
		_stp_skip_probe(&c->base, "lock n");
		return;
	}
	/* timer.stp:2:22 hits["fast"]++ */
	c->base.last_stmt = "operator '++' at timer.stp:2:32";
	if (!hits_incr(c, "fast"))
		goto out;
	/* timer.stp:2:38 if (++n >= 30) exit() */
	c->base.last_stmt = "keyword at timer.stp:2:38";
	if (++_stp_global.n >= 30)
		_stp_request_exit();
out:
	_stp_write_unlock(&_stp_global.n_lock);
	_stp_write_unlock(&_stp_global.hits_lock);
}

/* timer.stp:3:1 probe timer.ms(25) */
static void probe_1(struct context *c)
{
	if (!_stp_write_trylock(&_stp_global.hits_lock)) {
		_stp_skip_probe(&c->base, "lock hits");
		return;
	}
	c->base.last_stmt = "operator '++' at timer.stp:3:32";
	hits_incr(c, "slow");
	_stp_write_unlock(&_stp_global.hits_lock);
}

/* timer.stp:4:1 probe timer.ms(7) */
static void probe_2(struct context *c)
{
	struct probe_2_locals *l = &c->probe_locals.probe_2;

	if (!_stp_write_trylock(&_stp_global.hits_lock)) {
		_stp_skip_probe(&c->base, "lock hits");
		return;
	}
	if (!_stp_read_trylock(&_stp_global.n_lock)) {
		_stp_write_unlock(&_stp_global.hits_lock);
		_stp_skip_probe(&c->base, "lock n");
		return;
	}
	c->base.last_stmt = "identifier 'sprintf' at timer.stp:4:31";
	_stp_snprintf(l->tmp0, MAXSTRINGLEN, "seven%lld", (long long)(_stp_global.n % 3));
	c->base.last_stmt = "operator '++' at timer.stp:4:58";
	hits_incr(c, l->tmp0);
	_stp_read_unlock(&_stp_global.n_lock);
	_stp_write_unlock(&_stp_global.hits_lock);
}

/* timer.stp:5:1 probe end */
static void probe_3(struct context *c)
{
	struct probe_3_locals *l = &c->probe_locals.probe_3;
	struct _stp_map_node *node;

	if (!_stp_write_trylock(&_stp_global.hits_lock)) {
		_stp_skip_probe(&c->base, "lock hits");
		return;
	}
	if (!_stp_read_trylock(&_stp_global.n_lock)) {
		_stp_write_unlock(&_stp_global.hits_lock);
		_stp_skip_probe(&c->base, "lock n");
		return;
	}
	/* timer.stp:5:13 foreach (k in hits-) */
	c->base.last_stmt = "keyword at timer.stp:5:13";
	_stp_map_sort(_stp_global.hits, 0, -1);
	for (node = _stp_map_first(_stp_global.hits); node;
	     node = _stp_map_next(_stp_global.hits, node)) {
		if (--c->base.actionremaining < 0) {
			c->base.last_error = "MAXACTION exceeded";
			goto out;
		}
		_stp_strlcpy(l->k, _stp_node_key_str(node, 0));
		c->base.last_stmt = "identifier 'printf' at timer.stp:5:35";
		_stp_printf("%s %lld\n", l->k, (long long)*_stp_node_long(node));
	}
	c->base.last_stmt = "identifier 'printf' at timer.stp:5:71";
	_stp_printf("n=%lld\n", (long long)_stp_global.n);
out:
	_stp_read_unlock(&_stp_global.n_lock);
	_stp_write_unlock(&_stp_global.hits_lock);
}

static struct _stp_probe _stp_probes[] = {
	{ .body = probe_0, .pp = "timer.ms(10)", .location = "timer.stp:2:7" },
	{ .body = probe_1, .pp = "timer.ms(25)", .location = "timer.stp:3:7" },
	{ .body = probe_2, .pp = "timer.ms(7)", .location = "timer.stp:4:7" },
	{ .body = probe_3, .pp = "end", .location = "timer.stp:5:7" },
};

static const struct _stp_be_probe _stp_be_probes[] = {
	{ .probe = &_stp_probes[3], .type = STP_BE_END, .priority = 0 },
};

static struct _stp_timer_probe _stp_timer_probes[] = {
	{ .probe = &_stp_probes[0], .period_ns = 10000000ULL },
	{ .probe = &_stp_probes[1], .period_ns = 25000000ULL },
	{ .probe = &_stp_probes[2], .period_ns = 7000000ULL },
};

static int _stp_globals_init(void)
{
	_stp_global.hits = _stp_map_new(MAXMAPENTRIES, 1, _stp_hits_keys, STP_TYPE_LONG);
	if (!_stp_global.hits)
		return -ENOMEM;
	_stp_rwlock_init(&_stp_global.hits_lock);
	_stp_global.n = 0;
	_stp_rwlock_init(&_stp_global.n_lock);
	return 0;
}

static void _stp_globals_free(void)
{
	_stp_map_free(_stp_global.hits);
	_stp_global.hits = NULL;
}

#include "module_main.c"
