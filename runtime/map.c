/* map.c - script arrays: preallocated hash maps kept in insertion order, with a stable sort; no allocation after creation. */

/*
 * Design
 *
 * A map is created in process context with room for max_entries nodes,
 * all allocated at once and threaded on a free list; after that, probe
 * context only moves nodes between the free list and the live structures,
 * so a full map fails an insert instead of allocating.
 *
 * A live node is on two structures at once:
 *  - a hash chain (singly linked through hash_next) for lookup; the
 *    bucket array has a power-of-two size of at least max_entries, so
 *    chains stay short;
 *  - the iteration list (doubly linked through next/prev), in insertion
 *    order until _stp_map_sort reorders it. New entries go to its tail.
 *
 * A third list, the age list (older/newer), keeps insertion order whatever
 * the sorts did. A wrapping map (global a%[N]) that is full takes its
 * oldest node from there for a new key instead of failing.
 *
 * Each node also records when it was inserted (a per-map counter). Sorts
 * break ties by it, so a sorted foreach lists equal values in insertion
 * order whatever order earlier sorts left, and dir 0 restores the
 * insertion order itself.
 *
 * A node holds its value first, then its keys, at offsets fixed when the
 * map is created: 8 bytes for a long, MAXSTRINGLEN (rounded up to 8) for
 * a string. String keys and values are copied in and truncated to
 * MAXSTRINGLEN-1 bytes; lookups hash and compare only that prefix, so a
 * key that was truncated on insert is found again with the same input.
 *
 * The map does no locking: the generated code holds the global's lock
 * (a write lock for anything that inserts, deletes, clears or sorts).
 * Nodes must not be inserted or deleted while iterating the same map.
 */

#define STP_MAP_MAX_KEYS 9	/* most keys an array may have */

struct _stp_map_node {
	struct _stp_map_node *next;	 /* following node in iteration order */
	struct _stp_map_node *prev;	 /* preceding node in iteration order */
	struct _stp_map_node *hash_next; /* next node in the bucket, or on the free list */
	struct _stp_map_node *older;	 /* previous node in insertion order (age list) */
	struct _stp_map_node *newer;	 /* next node in insertion order (age list) */
	const struct _stp_map *map;	 /* owner: gives the layout of data[] */
	u64 inserted;			 /* value of the map's insert counter at insertion */
	u32 hash;			 /* hash of the keys, compared before the keys */
	u64 data[];			 /* value, then keys, at the map's offsets */
};

struct _stp_map {
	unsigned int max_entries;	/* nodes preallocated */
	unsigned int nkeys;		/* keys per entry, 1..STP_MAP_MAX_KEYS */
	enum _stp_type key_types[STP_MAP_MAX_KEYS]; /* type of each key */
	enum _stp_type value_type;	/* type of the value */
	unsigned int key_offset[STP_MAP_MAX_KEYS]; /* byte offset of each key in data[] */
	size_t node_size;		/* bytes per node, a multiple of 8 */
	unsigned int count;		/* live entries */
	int wrap;			/* when full, a new key replaces the oldest entry */
	u64 inserts;			/* insertions so far, numbers the nodes */
	u32 bucket_mask;		/* number of buckets - 1; a power of two - 1 */
	struct _stp_map_node **buckets;	/* hash chains */
	struct _stp_map_node *head;	/* first live node in iteration order */
	struct _stp_map_node *tail;	/* last live node in iteration order */
	struct _stp_map_node *oldest;	/* first node of the age list */
	struct _stp_map_node *newest;	/* last node of the age list */
	struct _stp_map_node *free_list; /* unused nodes, linked by hash_next */
	char *nodes;			/* storage for all max_entries nodes */
};

static void _stp_map_unlink(struct _stp_map *m, struct _stp_map_node *n);

/* Bytes a slot of type t takes in data[], a multiple of 8. */
static size_t _stp_map_slot_size(enum _stp_type t)
{
	if (t == STP_TYPE_STRING)
		return (MAXSTRINGLEN + 7) & ~(size_t)7;
	return sizeof(int64_t);
}

/* A map whose value slot is value_size bytes (a multiple of 8). */
static struct _stp_map *_stp_map_create(unsigned max_entries, unsigned nkeys,
					const enum _stp_type *key_types,
					enum _stp_type value_type, size_t value_size)
{
	struct _stp_map *m;
	size_t offset;
	unsigned int i, nbuckets;

	if (max_entries == 0 || max_entries > (1u << 28) ||
	    nkeys == 0 || nkeys > STP_MAP_MAX_KEYS)
		return NULL;

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->max_entries = max_entries;
	m->nkeys = nkeys;
	m->value_type = value_type;
	offset = value_size;
	for (i = 0; i < nkeys; i++) {
		m->key_types[i] = key_types[i];
		m->key_offset[i] = offset;
		offset += _stp_map_slot_size(key_types[i]);
	}
	m->node_size = (sizeof(struct _stp_map_node) + offset + 7) & ~(size_t)7;

	for (nbuckets = 16; nbuckets < max_entries; nbuckets <<= 1)
		;
	m->bucket_mask = nbuckets - 1;
	m->buckets = kvcalloc(nbuckets, sizeof(*m->buckets), GFP_KERNEL);
	m->nodes = kvcalloc(max_entries, m->node_size, GFP_KERNEL);
	if (!m->buckets || !m->nodes) {
		_stp_map_free(m);
		return NULL;
	}

	for (i = max_entries; i-- > 0;) {
		struct _stp_map_node *n =
			(struct _stp_map_node *)(m->nodes + (size_t)i * m->node_size);

		n->map = m;
		n->hash_next = m->free_list;
		m->free_list = n;
	}
	return m;
}

static struct _stp_map *_stp_map_new(unsigned max_entries, unsigned nkeys,
				     const enum _stp_type *key_types,
				     enum _stp_type value_type)
{
	return _stp_map_create(max_entries, nkeys, key_types, value_type,
			       _stp_map_slot_size(value_type));
}

/*
 * A map of statistics (stat.c): the value is a struct _stp_stat of
 * stat_size bytes, compared as a long by its first member when sorted.
 */
static struct _stp_map *_stp_map_new_stats(unsigned max_entries, unsigned nkeys,
					   const enum _stp_type *key_types, size_t stat_size)
{
	return _stp_map_create(max_entries, nkeys, key_types, STP_TYPE_STATS,
			       (stat_size + 7) & ~(size_t)7);
}

/* Safe on NULL and on a map whose creation failed half way. */
static void _stp_map_free(struct _stp_map *m)
{
	if (!m)
		return;
	kvfree(m->nodes);
	kvfree(m->buckets);
	kfree(m);
}

/* The string a key argument stands for: NULL reads as "". */
static const char *_stp_map_key_string(const union _stp_key *k)
{
	return k->s ? k->s : "";
}

/* One step of the key hash: fold 8 bytes in (multiply, then fold the high half down). */
static __always_inline u64 _stp_map_mix(u64 h, u64 v)
{
	h = (h ^ v) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 32);
}

#define STP_MAP_HASH_SEED 0x243f6a8885a308d3ull

/* Fold a string key (up to MAXSTRINGLEN-1 bytes) into h, then its length; *len gets the length. */
static __always_inline u64 _stp_map_mix_str(u64 h, const char *s, size_t *len)
{
	size_t n = 0;
	u64 w;

	while (n < MAXSTRINGLEN - 1) {
		unsigned int take = _stp_str_chunk(s + n, MAXSTRINGLEN - 1 - n, &w);

		if (take)
			h = _stp_map_mix(h, w);
		n += take;
		if (take < 8)
			break;
	}
	*len = n;
	return _stp_map_mix(h, n);
}

/* The final avalanche, so the low bits that pick the bucket depend on all of the keys. */
static __always_inline u32 _stp_map_finish(u64 h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return (u32)h;
}

/*
 * Hash of the keys (string keys up to MAXSTRINGLEN-1 bytes, 8 at a time,
 * each followed by its length so that ("a","b") != ("ab","")), with a
 * final avalanche. The length of each string key goes to lens[], for the
 * compare and the copy that follow. The one-key lookups below compute the
 * same hash with the same steps.
 */
static u32 _stp_map_hash(const struct _stp_map *m, const union _stp_key *keys, size_t *lens)
{
	u64 h = STP_MAP_HASH_SEED;
	unsigned int i;

	for (i = 0; i < m->nkeys; i++) {
		if (m->key_types[i] == STP_TYPE_STRING)
			h = _stp_map_mix_str(h, _stp_map_key_string(&keys[i]), &lens[i]);
		else
			h = _stp_map_mix(h, (u64)keys[i].n);
	}
	return _stp_map_finish(h);
}

static __always_inline void *_stp_map_slot(const struct _stp_map_node *n, size_t offset)
{
	return (char *)n->data + offset;
}

/*
 * Whether the key slot holds s, of length len (< MAXSTRINGLEN), a word at
 * a time. A slot is 8-byte aligned and zero from its key's NUL to its end
 * (_stp_map_get clears a node before copying the keys in), so the word
 * holding s's last bytes matches only if the slot's key ends there too.
 * The whole words of s lie before its NUL, so reading them cannot fault.
 */
static __always_inline bool _stp_map_str_equal(const void *slot, const char *s, size_t len)
{
	const u64 *sw = slot;
	size_t i = 0;
	u64 w = 0;

	for (; i + 8 <= len; i += 8, sw++)
		if (*sw != _stp_read_word(s + i))
			return false;
	if (len > i)
		_stp_str_chunk(s + i, len - i, &w);
	return *sw == w;
}

/* Whether node n holds keys; lens[] are the string keys' lengths from the hash. */
static int _stp_map_keys_equal(const struct _stp_map *m,
			       const struct _stp_map_node *n,
			       const union _stp_key *keys, const size_t *lens)
{
	unsigned int i;

	for (i = 0; i < m->nkeys; i++) {
		const void *slot = _stp_map_slot(n, m->key_offset[i]);

		if (m->key_types[i] == STP_TYPE_STRING) {
			if (!_stp_map_str_equal(slot, _stp_map_key_string(&keys[i]), lens[i]))
				return 0;
		} else if (*(const int64_t *)slot != keys[i].n) {
			return 0;
		}
	}
	return 1;
}

/*
 * Find the node for keys. Returns it, or NULL; *link is set to the
 * pointer that points (or would point) at it in its bucket's chain.
 */
static struct _stp_map_node *_stp_map_lookup(struct _stp_map *m,
					     const union _stp_key *keys, u32 hash,
					     const size_t *lens, struct _stp_map_node ***link)
{
	struct _stp_map_node **pp = &m->buckets[hash & m->bucket_mask];

	for (; *pp; pp = &(*pp)->hash_next) {
		if ((*pp)->hash == hash && _stp_map_keys_equal(m, *pp, keys, lens))
			break;
	}
	*link = pp;
	return *pp;
}

static struct _stp_map_node *_stp_map_find(struct _stp_map *m, const union _stp_key *keys)
{
	struct _stp_map_node **link;
	size_t lens[STP_MAP_MAX_KEYS];
	u32 hash = _stp_map_hash(m, keys, lens);

	return _stp_map_lookup(m, keys, hash, lens, &link);
}

static struct _stp_map_node *_stp_map_get(struct _stp_map *m, const union _stp_key *keys)
{
	struct _stp_map_node **link, *n;
	size_t lens[STP_MAP_MAX_KEYS];
	u32 hash = _stp_map_hash(m, keys, lens);
	unsigned int i;

	n = _stp_map_lookup(m, keys, hash, lens, &link);
	if (n)
		return n;
	if (!m->free_list && m->wrap && m->oldest) {
		_stp_map_unlink(m, m->oldest);
		/* the unlink may have shortened the chain lookup walked */
		_stp_map_lookup(m, keys, hash, lens, &link);
	}
	n = m->free_list;
	if (!n)
		return NULL;
	m->free_list = n->hash_next;

	memset(n->data, 0, m->node_size - sizeof(*n));
	for (i = 0; i < m->nkeys; i++) {
		void *slot = _stp_map_slot(n, m->key_offset[i]);

		if (m->key_types[i] == STP_TYPE_STRING)
			memcpy(slot, _stp_map_key_string(&keys[i]), lens[i]); /* NUL: memset above */
		else
			*(int64_t *)slot = keys[i].n;
	}
	n->hash = hash;
	n->inserted = m->inserts++;
	n->hash_next = NULL;
	*link = n;		/* the end of the chain that lookup walked */

	n->next = NULL;
	n->prev = m->tail;
	if (m->tail)
		m->tail->next = n;
	else
		m->head = n;
	m->tail = n;

	n->newer = NULL;
	n->older = m->newest;
	if (m->newest)
		m->newest->newer = n;
	else
		m->oldest = n;
	m->newest = n;
	m->count++;
	return n;
}

/*
 * Arrays of one key, the common case, looked up with the key's type known
 * at compile time: the hash and the compare are inlined into the caller,
 * with no key array and no loop over key types. A miss that must insert
 * goes to the general _stp_map_get, out of line. They hash exactly as
 * _stp_map_hash does, so every other operation finds what they insert.
 */
static __always_inline struct _stp_map_node *_stp_map_find_str(struct _stp_map *m, const char *s)
{
	struct _stp_map_node *n;
	size_t len;
	u32 hash;

	if (unlikely(!s))
		s = "";
	hash = _stp_map_finish(_stp_map_mix_str(STP_MAP_HASH_SEED, s, &len));
	for (n = m->buckets[hash & m->bucket_mask]; n; n = n->hash_next)
		if (n->hash == hash && _stp_map_str_equal(_stp_map_slot(n, m->key_offset[0]), s, len))
			return n;
	return NULL;
}

static __always_inline struct _stp_map_node *_stp_map_find_long(struct _stp_map *m, int64_t key)
{
	u32 hash = _stp_map_finish(_stp_map_mix(STP_MAP_HASH_SEED, (u64)key));
	struct _stp_map_node *n;

	for (n = m->buckets[hash & m->bucket_mask]; n; n = n->hash_next)
		if (n->hash == hash && *(const int64_t *)_stp_map_slot(n, m->key_offset[0]) == key)
			return n;
	return NULL;
}

static noinline struct _stp_map_node *_stp_map_insert_str(struct _stp_map *m, const char *s)
{
	union _stp_key k = { .s = s };

	return _stp_map_get(m, &k);
}

static noinline struct _stp_map_node *_stp_map_insert_long(struct _stp_map *m, int64_t key)
{
	union _stp_key k = { .n = key };

	return _stp_map_get(m, &k);
}

static __always_inline struct _stp_map_node *_stp_map_get_str(struct _stp_map *m, const char *s)
{
	struct _stp_map_node *n = _stp_map_find_str(m, s);

	return likely(n) ? n : _stp_map_insert_str(m, s);
}

static __always_inline struct _stp_map_node *_stp_map_get_long(struct _stp_map *m, int64_t key)
{
	struct _stp_map_node *n = _stp_map_find_long(m, key);

	return likely(n) ? n : _stp_map_insert_long(m, key);
}

/* Take a live node off its hash chain, the iteration list and the age list; free it. */
static void _stp_map_unlink(struct _stp_map *m, struct _stp_map_node *n)
{
	struct _stp_map_node **pp = &m->buckets[n->hash & m->bucket_mask];

	while (*pp != n)
		pp = &(*pp)->hash_next;
	*pp = n->hash_next;

	if (n->prev)
		n->prev->next = n->next;
	else
		m->head = n->next;
	if (n->next)
		n->next->prev = n->prev;
	else
		m->tail = n->prev;

	if (n->older)
		n->older->newer = n->newer;
	else
		m->oldest = n->newer;
	if (n->newer)
		n->newer->older = n->older;
	else
		m->newest = n->older;

	n->hash_next = m->free_list;
	m->free_list = n;
	m->count--;
}

static void _stp_map_delete(struct _stp_map *m, const union _stp_key *keys)
{
	struct _stp_map_node **link, *n;
	size_t lens[STP_MAP_MAX_KEYS];
	u32 hash = _stp_map_hash(m, keys, lens);

	n = _stp_map_lookup(m, keys, hash, lens, &link);
	if (n)
		_stp_map_unlink(m, n);
}

/* Does node n match keys, where key i is a wildcard if bit i of wild is set? */
static int _stp_map_keys_match(const struct _stp_map *m, const struct _stp_map_node *n,
			       const union _stp_key *keys, unsigned int wild)
{
	unsigned int i;

	for (i = 0; i < m->nkeys; i++) {
		const void *slot = _stp_map_slot(n, m->key_offset[i]);

		if (wild & (1u << i))
			continue;
		if (m->key_types[i] == STP_TYPE_STRING) {
			const char *s = _stp_map_key_string(&keys[i]);

			if (!_stp_map_str_equal(slot, s, strnlen(s, MAXSTRINGLEN - 1)))
				return 0;
		} else if (*(const int64_t *)slot != keys[i].n) {
			return 0;
		}
	}
	return 1;
}

static struct _stp_map_node *_stp_map_find_matching(struct _stp_map *m, const union _stp_key *keys,
						    unsigned wild)
{
	struct _stp_map_node *n;

	for (n = m->head; n; n = n->next)
		if (_stp_map_keys_match(m, n, keys, wild))
			return n;
	return NULL;
}

static void _stp_map_delete_matching(struct _stp_map *m, const union _stp_key *keys, unsigned wild)
{
	struct _stp_map_node *n = m->head, *next;

	for (; n; n = next) {
		next = n->next;
		if (_stp_map_keys_match(m, n, keys, wild))
			_stp_map_unlink(m, n);
	}
}

static void _stp_map_set_wrap(struct _stp_map *m)
{
	m->wrap = 1;
}

static void _stp_map_clear(struct _stp_map *m)
{
	struct _stp_map_node *n;

	for (n = m->head; n; n = n->next) {
		n->hash_next = m->free_list;
		m->free_list = n;
	}
	memset(m->buckets, 0, ((size_t)m->bucket_mask + 1) * sizeof(*m->buckets));
	m->head = NULL;
	m->tail = NULL;
	m->oldest = NULL;
	m->newest = NULL;
	m->count = 0;
}

static unsigned _stp_map_size(const struct _stp_map *m)
{
	return m->count;
}

static int64_t *_stp_node_long(struct _stp_map_node *n)
{
	return (int64_t *)n->data;
}

static char *_stp_node_str(struct _stp_map_node *n)
{
	return (char *)n->data;
}

/* Key i of a node, counting from 0. */
static int64_t _stp_node_key_long(const struct _stp_map_node *n, unsigned i)
{
	return *(const int64_t *)_stp_map_slot(n, n->map->key_offset[i]);
}

static const char *_stp_node_key_str(const struct _stp_map_node *n, unsigned i)
{
	return _stp_map_slot(n, n->map->key_offset[i]);
}

/*
 * Order of a and b: by column (0 value, 1..nkeys key) in direction dir
 * (+1 ascending, -1 descending), ties in insertion order; dir 0 is
 * insertion order alone.
 */
static int _stp_map_compare(const struct _stp_map *m, const struct _stp_map_node *a,
			    const struct _stp_map_node *b, unsigned int column, int dir)
{
	enum _stp_type type = column ? m->key_types[column - 1] : m->value_type;
	size_t offset = column ? m->key_offset[column - 1] : 0;
	const void *x = _stp_map_slot(a, offset);
	const void *y = _stp_map_slot(b, offset);
	int c = 0;

	if (dir == 0)
		c = 0;
	else if (type == STP_TYPE_STRING)
		c = strcmp(x, y);
	else if (*(const int64_t *)x != *(const int64_t *)y)
		c = *(const int64_t *)x < *(const int64_t *)y ? -1 : 1;
	if (c)
		return dir < 0 ? -c : c;
	return a->inserted < b->inserted ? -1 : a->inserted > b->inserted;
}

/*
 * Bottom-up merge sort of the iteration list: runs of width 1, 2, 4, ...
 * are merged pairwise until one run remains. It needs no memory and
 * O(n log n) compares (the order is total, see _stp_map_compare). The
 * list is sorted through next pointers only; prev and tail are rebuilt
 * at the end.
 */
static void _stp_map_sort(struct _stp_map *m, unsigned column, int dir)
{
	struct _stp_map_node *list = m->head, *prev;
	size_t width;

	if (column > m->nkeys || m->count < 2)
		return;

	for (width = 1;; width *= 2) {
		struct _stp_map_node *left = list, *tail = NULL;
		unsigned int merges = 0;

		list = NULL;
		while (left) {
			struct _stp_map_node *right = left;
			size_t nleft = 0, nright = width;

			merges++;
			while (nleft < width && right) {
				nleft++;
				right = right->next;
			}
			while (nleft > 0 || (nright > 0 && right)) {
				struct _stp_map_node *take;

				if (nleft == 0 ||
				    (nright > 0 && right &&
				     _stp_map_compare(m, left, right, column, dir) > 0)) {
					take = right;
					right = right->next;
					nright--;
				} else {
					take = left;
					left = left->next;
					nleft--;
				}
				if (tail)
					tail->next = take;
				else
					list = take;
				tail = take;
			}
			left = right;
		}
		tail->next = NULL;
		if (merges <= 1)
			break;
	}

	m->head = list;
	for (prev = NULL; list; prev = list, list = list->next)
		list->prev = prev;
	m->tail = prev;
}

static struct _stp_map_node *_stp_map_first(struct _stp_map *m)
{
	return m->head;
}

static struct _stp_map_node *_stp_map_next(struct _stp_map *m, struct _stp_map_node *n)
{
	(void)m;
	return n->next;
}
