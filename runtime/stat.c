/* stat.c - statistics aggregates: per-CPU accumulation merged on read, exact integer variance, histograms and their ASCII rendering. */

/*
 * Design
 *
 * x <<< v must be cheap and must scale: every CPU accumulates into a slot
 * of its own (count, sum, min, max, sum of squares, histogram buckets).
 * A slot has a small lock that only two parties ever take: the probe
 * adding to it, always on that slot's CPU (interrupts off, so at most one
 * at a time), and a reader merging all the slots. The writer's lock is an
 * uncontended compare-and-swap on a line no other CPU writes, so <<< never
 * bounces a shared cache line. Reading an aggregate (@count(x), printing a
 * histogram, foreach over a statistics array) merges the slots one CPU at
 * a time into storage the global owns; the generated code holds the
 * global's write lock while doing so, which serialises readers.
 *
 * Statistics arrays are the same idea with maps: each CPU has its own
 * preallocated map (map.c) whose values are struct _stp_stat, so adding a
 * new key only ever touches the adding CPU's map. Reading one element
 * merges that key from every CPU's map; a foreach rebuilds an aggregate
 * map holding every key of every CPU, sorts it if asked, and iterates it.
 * The aggregate map has the declared capacity: more distinct keys across
 * the CPUs than that is an array overflow at read time.
 *
 * Variance. The sum of squares is kept exactly in 128 bits, so the sample
 * variance floor((n*sum(v^2) - sum(v)^2) / (n*(n-1))) comes out exact,
 * with no rounding from an online update and nothing lost when CPUs are
 * merged (merging is plain addition). Exact as long as the sum of squares
 * stays below 2^128 and the sum of the values does not wrap. @variance's
 * optional bit_shift, which SystemTap uses to buy precision for its
 * fixed-point update, therefore does not change the result here.
 *
 * Histograms. Linear: bucket 0 counts values below lo, buckets 1..n the
 * steps [lo + (i-1)*step, lo + i*step), bucket n+1 the values at or above
 * lo + n*step, where n = (hi - lo)/step + 1. Log: bucket 64 holds 0,
 * 64+k (k >= 1) holds [2^(k-1), 2^k), and 64-k holds (-2^k, -2^(k-1)];
 * bucket 0 holds -2^63 alone.
 *
 * Rendering (print(@hist_log(x))): a header
 *	value |-------------------------------------------------- count
 * then one row per bucket, "LABEL |BARS COUNT", where LABEL is the
 * bucket's lowest value right-aligned to the widest label shown (at least
 * as wide as "value"), BARS is one '@' per unit of count/scale padded to
 * 50 columns (scale is 1, or ceil(max/50) when the fullest bucket exceeds
 * 50), and COUNT is right-aligned to the widest count. The rows shown run
 * from two buckets below the first non-empty one to two above the last,
 * never into the under/overflow rows of a linear histogram or the other
 * sign of a log histogram unless those hold values. Inside that range a
 * run of empty buckets longer than HIST_ELISION at either end (twice it in
 * the middle) keeps HIST_ELISION rows next to its non-empty neighbours and
 * shows one "~" line (under the '|') for the rest; a trailing run is just
 * cut. A blank line ends the chart.
 */

#define STP_HIST_WIDTH 50	/* columns of '@' for the fullest bucket */

/* Bytes of a struct _stp_stat with its buckets. */
static size_t _stp_stat_size(const struct _stp_stat_layout *l)
{
	return sizeof(struct _stp_stat) + (size_t)l->nbuckets * sizeof(int64_t);
}

/* Index of the most significant set bit, counting from 1; x != 0. */
static unsigned int _stp_stat_fls(u64 x)
{
	return 64 - (unsigned int)__builtin_clzll(x);
}

/* The bucket value v falls in (layout has a histogram). */
static unsigned int _stp_stat_bucket_of(const struct _stp_stat_layout *l, int64_t v)
{
	if (l->type == STP_HIST_LOG) {
		if (v == 0)
			return 64;
		if (v > 0)
			return 64 + _stp_stat_fls((u64)v);
		return 64 - _stp_stat_fls((u64)0 - (u64)v);
	}
	if (v < l->lo)
		return 0;
	/* v - lo computed unsigned: it cannot overflow once v >= lo */
	{
		u64 i = ((u64)v - (u64)l->lo) / (u64)l->step;

		return i >= l->nbuckets - 2 ? l->nbuckets - 1 : (unsigned int)i + 1;
	}
}

static void _stp_stat_add_value(struct _stp_stat *st, const struct _stp_stat_layout *l, int64_t v)
{
	u64 mag = v < 0 ? (u64)0 - (u64)v : (u64)v;
	unsigned __int128 sq = (unsigned __int128)mag * mag;
	unsigned __int128 acc = ((unsigned __int128)st->sumsq_hi << 64) | st->sumsq_lo;

	if (st->count == 0) {
		st->min = v;
		st->max = v;
	} else {
		if (v < st->min)
			st->min = v;
		if (v > st->max)
			st->max = v;
	}
	st->count++;
	st->sum = (int64_t)((u64)st->sum + (u64)v);
	acc += sq;
	st->sumsq_lo = (u64)acc;
	st->sumsq_hi = (u64)(acc >> 64);
	if (l->type != STP_HIST_NONE)
		st->buckets[_stp_stat_bucket_of(l, v)]++;
}

/* dst += src: merging two partial aggregates is exact. */
static void _stp_stat_merge(struct _stp_stat *dst, const struct _stp_stat *src,
			    const struct _stp_stat_layout *l)
{
	unsigned __int128 a, b;
	unsigned int i;

	if (src->count == 0)
		return;
	if (dst->count == 0) {
		dst->min = src->min;
		dst->max = src->max;
	} else {
		if (src->min < dst->min)
			dst->min = src->min;
		if (src->max > dst->max)
			dst->max = src->max;
	}
	dst->count += src->count;
	dst->sum = (int64_t)((u64)dst->sum + (u64)src->sum);
	a = ((unsigned __int128)dst->sumsq_hi << 64) | dst->sumsq_lo;
	b = ((unsigned __int128)src->sumsq_hi << 64) | src->sumsq_lo;
	a += b;
	dst->sumsq_lo = (u64)a;
	dst->sumsq_hi = (u64)(a >> 64);
	for (i = 0; i < l->nbuckets; i++)
		dst->buckets[i] += src->buckets[i];
}

/* n / d and n % d for a 128-bit n and a non-zero 64-bit d: shift and subtract, 128 steps, no libgcc. */
static unsigned __int128 _stp_stat_div128(unsigned __int128 n, u64 d, u64 *rem)
{
	unsigned __int128 q = 0, r = 0;
	int bit;

	for (bit = 127; bit >= 0; bit--) {
		r = (r << 1) | ((n >> bit) & 1);
		if (r >= d) {
			r -= d;
			q |= (unsigned __int128)1 << bit;
		}
	}
	*rem = (u64)r;
	return q;
}

/*
 * floor(M2 / (n-1)) where M2 = sum(v^2) - S^2/n is the sum of squared
 * deviations (S the sum). With S^2 = q*n + r and A = sum(v^2) - q,
 * M2 = A - r/n, so the floor is A/(n-1) unless that division is exact
 * and r > 0, when it is one less.
 */
static int64_t _stp_stat_variance(const struct _stp_stat *st)
{
	u64 n = (u64)st->count, s_mag, r, b;
	unsigned __int128 sumsq, q, a;

	if (st->count < 2)
		return 0;
	s_mag = st->sum < 0 ? (u64)0 - (u64)st->sum : (u64)st->sum;
	sumsq = ((unsigned __int128)st->sumsq_hi << 64) | st->sumsq_lo;
	q = _stp_stat_div128((unsigned __int128)s_mag * s_mag, n, &r);
	if (sumsq < q)
		return 0;	/* only when the sum wrapped */
	a = _stp_stat_div128(sumsq - q, n - 1, &b);
	if (b == 0 && r > 0 && a > 0)
		a--;
	return a > (unsigned __int128)(~0ull >> 1) ? (int64_t)(~0ull >> 1) : (int64_t)a;
}

static const char *_stp_stat_extract(const struct _stp_stat *st, enum _stp_stat_op op, int64_t *out)
{
	switch (op) {
	case STP_STAT_COUNT:
		*out = st->count;
		return NULL;
	case STP_STAT_SUM:
		*out = st->sum;
		return NULL;
	default:
		break;
	}
	if (st->count == 0)
		return "empty aggregate";
	switch (op) {
	case STP_STAT_MIN:
		*out = st->min;
		break;
	case STP_STAT_MAX:
		*out = st->max;
		break;
	case STP_STAT_AVG:
		*out = st->sum / st->count;	/* count >= 1: no trap */
		break;
	default:
		*out = _stp_stat_variance(st);
		break;
	}
	return NULL;
}

static const char *_stp_stat_bucket(const struct _stp_stat *st, const struct _stp_stat_layout *l,
				    int64_t index, int64_t *out)
{
	if (index < 0 || index >= (int64_t)l->nbuckets)
		return "histogram bucket index out of range";
	*out = st->buckets[index];
	return NULL;
}

/* The label of bucket b: its lowest value, or "<lo" / ">hi" for the linear under/overflow. */
static void _stp_stat_label(const struct _stp_stat_layout *l, unsigned int b, char *buf, size_t size)
{
	if (l->type == STP_HIST_LOG) {
		if (b == 64)
			snprintf(buf, size, "0");
		else if (b > 64)
			snprintf(buf, size, "%llu", 1ull << (b - 65));
		else if (b == 0)
			snprintf(buf, size, "-9223372036854775808");
		else
			snprintf(buf, size, "-%llu", 1ull << (63 - b));
	} else if (b == 0) {
		snprintf(buf, size, "<%lld", (long long)l->lo);
	} else if (b == l->nbuckets - 1) {
		snprintf(buf, size, ">%lld", (long long)l->hi);
	} else {
		snprintf(buf, size, "%lld", (long long)(l->lo + (int64_t)(b - 1) * l->step));
	}
}

/* Width of v in decimal. */
static int _stp_stat_digits(int64_t v)
{
	int n = 1;

	if (v < 0) {
		n++;
		v = -(v / 10);
		if (v == 0)
			return n;
	}
	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* One chart row. */
static void _stp_stat_row(const struct _stp_stat *st, const struct _stp_stat_layout *l,
			  unsigned int b, int width, int count_width, int64_t scale)
{
	char label[32];
	char bar[STP_HIST_WIDTH + 1];
	int64_t n = st->buckets[b] / scale;
	int i;

	_stp_stat_label(l, b, label, sizeof(label));
	for (i = 0; i < STP_HIST_WIDTH; i++)
		bar[i] = i < n ? '@' : ' ';
	bar[STP_HIST_WIDTH] = '\0';
	_stp_printf("%*s |%s %*lld\n", width, label, bar, count_width, (long long)st->buckets[b]);
}

static void _stp_stat_rows(const struct _stp_stat *st, const struct _stp_stat_layout *l,
			   unsigned int from, unsigned int to, int width, int count_width, int64_t scale)
{
	unsigned int b;

	for (b = from; b <= to; b++)
		_stp_stat_row(st, l, b, width, count_width, scale);
}

static void _stp_stat_print_hist(const struct _stp_stat *st, const struct _stp_stat_layout *l)
{
	const int elide = HIST_ELISION;
	unsigned int b, first = l->nbuckets, last = 0, lo, hi;
	int64_t max = 0, scale;
	int width = 5, count_width;
	char label[32];

	for (b = 0; b < l->nbuckets; b++) {
		if (!st->buckets[b])
			continue;
		if (first == l->nbuckets)
			first = b;
		last = b;
		if (st->buckets[b] > max)
			max = st->buckets[b];
	}
	if (first == l->nbuckets) {
		/* nothing recorded: the bare header */
		_stp_printf("value |");
		for (b = 0; b < STP_HIST_WIDTH; b++)
			_stp_print_char('-');
		_stp_print(" count\n\n");
		return;
	}

	/* Two buckets of context each side, not into rows that hold nothing by nature. */
	if (l->type == STP_HIST_LOG) {
		lo = first < 64 ? 0 : 64;
		hi = last > 64 ? l->nbuckets - 1 : 64;
	} else {
		lo = first == 0 ? 0 : 1;
		hi = last == l->nbuckets - 1 ? last : l->nbuckets - 2;
	}
	lo = first >= lo + 2 ? first - 2 : lo;
	hi = last + 2 <= hi ? last + 2 : hi;

	for (b = lo; b <= hi; b++) {
		int len;

		_stp_stat_label(l, b, label, sizeof(label));
		len = (int)strlen(label);
		if (len > width)
			width = len;
	}
	scale = max <= STP_HIST_WIDTH ? 1 : (max + STP_HIST_WIDTH - 1) / STP_HIST_WIDTH;
	count_width = _stp_stat_digits(max);

	_stp_printf("%*s |", width, "value");
	for (b = 0; b < STP_HIST_WIDTH; b++)
		_stp_print_char('-');
	_stp_print(" count\n");

	b = lo;
	while (b <= hi) {
		unsigned int end, run;

		if (st->buckets[b] || elide < 0) {
			_stp_stat_row(st, l, b, width, count_width, scale);
			b++;
			continue;
		}
		for (end = b; end < hi && !st->buckets[end + 1]; end++)
			;
		run = end - b + 1;
		if (b == lo) {
			/* leading run: "~", then the rows next to the first non-empty bucket */
			unsigned int from = b;

			if (run > (unsigned int)elide) {
				_stp_printf("%*s~\n", width + 1, "");
				from = end + 1 - elide;
			}
			_stp_stat_rows(st, l, from, end, width, count_width, scale);
		} else if (end == hi) {
			/* trailing run: the rows next to the last non-empty bucket, then nothing */
			unsigned int to = run > (unsigned int)elide ? b + elide - 1 : end;

			_stp_stat_rows(st, l, b, to, width, count_width, scale);
		} else if (run > 2 * (unsigned int)elide) {
			_stp_stat_rows(st, l, b, b + elide - 1, width, count_width, scale);
			_stp_printf("%*s~\n", width + 1, "");
			_stp_stat_rows(st, l, end + 1 - elide, end, width, count_width, scale);
		} else {
			_stp_stat_rows(st, l, b, end, width, count_width, scale);
		}
		b = end + 1;
	}
	_stp_print_char('\n');
}

static void _stp_stat_print_summary(const struct _stp_stat *st)
{
	int64_t avg = st->count ? st->sum / st->count : 0;

	_stp_printf("@count=%lld @min=%lld @max=%lld @sum=%lld @avg=%lld",
		    (long long)st->count, (long long)(st->count ? st->min : 0),
		    (long long)(st->count ? st->max : 0), (long long)st->sum, (long long)avg);
}

/* ---- Scalar statistics: one slot per CPU ---- */

/* A CPU's slot: its lock, then its statistic. */
struct _stp_stat_slot {
	struct _stp_rwlock lock;	/* taken by this CPU's writer and by readers */
	u32 pad;			/* keeps data 8-aligned */
	int64_t data[];			/* a struct _stp_stat */
};

struct _stp_pstat {
	const struct _stp_stat_layout *layout; /* histogram kind and size */
	size_t stat_size;		/* bytes of one struct _stp_stat */
	struct _stp_stat_slot **slots;	/* nr_cpu_ids pointers, NULL for impossible CPUs */
	struct _stp_stat *agg;		/* the merge of every slot, rebuilt on read */
};

static struct _stp_stat *_stp_slot_stat(struct _stp_stat_slot *s)
{
	return (struct _stp_stat *)s->data;
}

static struct _stp_pstat *_stp_pstat_new(const struct _stp_stat_layout *layout)
{
	struct _stp_pstat *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int cpu;

	if (!p)
		return NULL;
	p->layout = layout;
	p->stat_size = _stp_stat_size(layout);
	p->slots = kcalloc(nr_cpu_ids, sizeof(*p->slots), GFP_KERNEL);
	p->agg = kzalloc(p->stat_size, GFP_KERNEL);
	if (!p->slots || !p->agg)
		goto fail;
	for_each_possible_cpu(cpu) {
		p->slots[cpu] = kzalloc(sizeof(struct _stp_stat_slot) + p->stat_size, GFP_KERNEL);
		if (!p->slots[cpu])
			goto fail;
		_stp_rwlock_init(&p->slots[cpu]->lock);
	}
	return p;
fail:
	_stp_pstat_free(p);
	return NULL;
}

/* Safe on NULL and after a partial _stp_pstat_new. */
static void _stp_pstat_free(struct _stp_pstat *p)
{
	int cpu;

	if (!p)
		return;
	if (p->slots)
		for_each_possible_cpu(cpu)
			kfree(p->slots[cpu]);
	kfree(p->slots);
	kfree(p->agg);
	kfree(p);
}

static enum _stp_stat_status _stp_pstat_add(struct _stp_pstat *p, int64_t value)
{
	struct _stp_stat_slot *s = p->slots[smp_processor_id()];

	if (unlikely(!_stp_write_trylock(&s->lock)))
		return STP_STAT_BUSY;
	_stp_stat_add_value(_stp_slot_stat(s), p->layout, value);
	_stp_write_unlock(&s->lock);
	return STP_STAT_OK;
}

static const struct _stp_stat *_stp_pstat_aggregate(struct _stp_pstat *p)
{
	int cpu;

	memset(p->agg, 0, p->stat_size);
	for_each_possible_cpu(cpu) {
		struct _stp_stat_slot *s = p->slots[cpu];

		if (!_stp_write_trylock(&s->lock))
			return NULL;
		_stp_stat_merge(p->agg, _stp_slot_stat(s), p->layout);
		_stp_write_unlock(&s->lock);
	}
	return p->agg;
}

static enum _stp_stat_status _stp_pstat_clear(struct _stp_pstat *p)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct _stp_stat_slot *s = p->slots[cpu];

		if (!_stp_write_trylock(&s->lock))
			return STP_STAT_BUSY;
		memset(s->data, 0, p->stat_size);
		_stp_write_unlock(&s->lock);
	}
	return STP_STAT_OK;
}

/* ---- Statistics arrays: one map per CPU ---- */

struct _stp_pmap_cpu {
	struct _stp_rwlock lock;	/* taken by this CPU's writer and by readers */
	struct _stp_map *map;		/* this CPU's elements */
};

struct _stp_pmap {
	const struct _stp_stat_layout *layout; /* histogram kind and size */
	size_t stat_size;		/* bytes of one struct _stp_stat */
	struct _stp_pmap_cpu *cpus;	/* nr_cpu_ids entries, map NULL for impossible CPUs */
	struct _stp_map *agg;		/* every key of every CPU, rebuilt by _stp_pmap_aggregate */
	u64 generation;			/* rebuilds of agg so far */
	struct _stp_stat *element;	/* one key merged across CPUs */
};

static struct _stp_pmap *_stp_pmap_new(unsigned max_entries, unsigned nkeys,
				       const enum _stp_type *key_types,
				       const struct _stp_stat_layout *layout)
{
	struct _stp_pmap *pm = kzalloc(sizeof(*pm), GFP_KERNEL);
	int cpu;

	if (!pm)
		return NULL;
	pm->layout = layout;
	pm->stat_size = _stp_stat_size(layout);
	pm->cpus = kcalloc(nr_cpu_ids, sizeof(*pm->cpus), GFP_KERNEL);
	pm->element = kzalloc(pm->stat_size, GFP_KERNEL);
	pm->agg = _stp_map_new_stats(max_entries, nkeys, key_types, pm->stat_size);
	if (!pm->cpus || !pm->element || !pm->agg)
		goto fail;
	for_each_possible_cpu(cpu) {
		pm->cpus[cpu].map = _stp_map_new_stats(max_entries, nkeys, key_types, pm->stat_size);
		if (!pm->cpus[cpu].map)
			goto fail;
		_stp_rwlock_init(&pm->cpus[cpu].lock);
	}
	return pm;
fail:
	_stp_pmap_free(pm);
	return NULL;
}

/*
 * global s%: each CPU's part of the array wraps on its own. A CPU whose
 * part is full evicts the oldest key of that part (the one it first added
 * to, of those it holds) to make room; another CPU may still hold that
 * key, and its @count and the rest then cover what the CPUs kept. The
 * aggregate map is sized for every key of every CPU, so reading the
 * array never fails for want of room. 0, or -ENOMEM (pm is unchanged).
 */
static int _stp_pmap_set_wrap(struct _stp_pmap *pm)
{
	struct _stp_map *agg;
	unsigned int ncpus = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		ncpus++;
	agg = _stp_map_new_stats(pm->agg->max_entries * ncpus, pm->agg->nkeys, pm->agg->key_types, pm->stat_size);
	if (!agg)
		return -ENOMEM;
	_stp_map_free(pm->agg);
	pm->agg = agg;
	for_each_possible_cpu(cpu)
		_stp_map_set_wrap(pm->cpus[cpu].map);
	return 0;
}

/* Safe on NULL and after a partial _stp_pmap_new. */
static void _stp_pmap_free(struct _stp_pmap *pm)
{
	int cpu;

	if (!pm)
		return;
	if (pm->cpus)
		for_each_possible_cpu(cpu)
			_stp_map_free(pm->cpus[cpu].map);
	kfree(pm->cpus);
	kfree(pm->element);
	_stp_map_free(pm->agg);
	kfree(pm);
}

static struct _stp_stat *_stp_node_stat(struct _stp_map_node *n)
{
	return (struct _stp_stat *)_stp_node_long(n);
}

static enum _stp_stat_status _stp_pmap_add(struct _stp_pmap *pm, const union _stp_key *keys, int64_t value)
{
	struct _stp_pmap_cpu *c = &pm->cpus[smp_processor_id()];
	struct _stp_map_node *n;

	if (unlikely(!_stp_write_trylock(&c->lock)))
		return STP_STAT_BUSY;
	n = _stp_map_get(c->map, keys);
	if (n)
		_stp_stat_add_value(_stp_node_stat(n), pm->layout, value);
	_stp_write_unlock(&c->lock);
	return n ? STP_STAT_OK : STP_STAT_FULL;
}

static const struct _stp_stat *_stp_pmap_element(struct _stp_pmap *pm, const union _stp_key *keys, int *found)
{
	int cpu, any = 0;

	memset(pm->element, 0, pm->stat_size);
	for_each_possible_cpu(cpu) {
		struct _stp_pmap_cpu *c = &pm->cpus[cpu];
		struct _stp_map_node *n;

		if (!_stp_write_trylock(&c->lock))
			return NULL;
		n = _stp_map_find(c->map, keys);
		if (n) {
			any = 1;
			_stp_stat_merge(pm->element, _stp_node_stat(n), pm->layout);
		}
		_stp_write_unlock(&c->lock);
	}
	if (found)
		*found = any;
	return pm->element;
}

static int _stp_pmap_exists(struct _stp_pmap *pm, const union _stp_key *keys)
{
	int cpu, any = 0;

	for_each_possible_cpu(cpu) {
		struct _stp_pmap_cpu *c = &pm->cpus[cpu];

		if (!_stp_write_trylock(&c->lock))
			return -1;
		any = _stp_map_find(c->map, keys) != NULL;
		_stp_write_unlock(&c->lock);
		if (any)
			break;
	}
	return any;
}

/* The keys of node n, as lookup arguments. */
static void _stp_pmap_node_keys(struct _stp_map_node *n, unsigned int nkeys, union _stp_key *keys)
{
	unsigned int i;

	for (i = 0; i < nkeys; i++) {
		if (n->map->key_types[i] == STP_TYPE_STRING)
			keys[i].s = _stp_node_key_str(n, i);
		else
			keys[i].n = _stp_node_key_long(n, i);
	}
}

static struct _stp_map *_stp_pmap_aggregate(struct _stp_pmap *pm, enum _stp_stat_status *status)
{
	union _stp_key keys[STP_MAP_MAX_KEYS];
	int cpu;

	_stp_map_clear(pm->agg);
	pm->generation++;
	for_each_possible_cpu(cpu) {
		struct _stp_pmap_cpu *c = &pm->cpus[cpu];
		struct _stp_map_node *n;

		if (!_stp_write_trylock(&c->lock)) {
			*status = STP_STAT_BUSY;
			return NULL;
		}
		for (n = _stp_map_first(c->map); n; n = _stp_map_next(c->map, n)) {
			struct _stp_map_node *a;

			_stp_pmap_node_keys(n, pm->agg->nkeys, keys);
			a = _stp_map_get(pm->agg, keys);
			if (!a) {
				_stp_write_unlock(&c->lock);
				*status = STP_STAT_FULL;
				return NULL;
			}
			_stp_stat_merge(_stp_node_stat(a), _stp_node_stat(n), pm->layout);
		}
		_stp_write_unlock(&c->lock);
	}
	*status = STP_STAT_OK;
	return pm->agg;
}

static u64 _stp_pmap_generation(const struct _stp_pmap *pm)
{
	return pm->generation;
}

static enum _stp_stat_status _stp_pmap_delete(struct _stp_pmap *pm, const union _stp_key *keys)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct _stp_pmap_cpu *c = &pm->cpus[cpu];

		if (!_stp_write_trylock(&c->lock))
			return STP_STAT_BUSY;
		_stp_map_delete(c->map, keys);
		_stp_write_unlock(&c->lock);
	}
	return STP_STAT_OK;
}

static enum _stp_stat_status _stp_pmap_clear(struct _stp_pmap *pm)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct _stp_pmap_cpu *c = &pm->cpus[cpu];

		if (!_stp_write_trylock(&c->lock))
			return STP_STAT_BUSY;
		_stp_map_clear(c->map);
		_stp_write_unlock(&c->lock);
	}
	_stp_map_clear(pm->agg);
	pm->generation++;
	return STP_STAT_OK;
}

static void _stp_stat_map_sort(struct _stp_map *agg, enum _stp_stat_op op, int dir)
{
	struct _stp_map_node *n;

	for (n = _stp_map_first(agg); n; n = _stp_map_next(agg, n)) {
		struct _stp_stat *st = _stp_node_stat(n);
		int64_t v = 0;

		/* an element with no values sorts as 0 under any aggregate */
		if (_stp_stat_extract(st, op, &v))
			v = 0;
		st->sortkey = v;
	}
	_stp_map_sort(agg, 0, dir);
}
