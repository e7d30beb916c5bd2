/*
 * ast.c - the arena, string helpers, node construction and the one walker.
 *
 * Memory policy: the compiler is short-lived, so everything is allocated
 * through ast_alloc() and never freed. Running out of memory is fatal.
 * ast_walk() is the only function that knows which children each node kind
 * has; every pass that needs to visit a tree goes through it.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "ast.h"

static void *alloc_or_die(size_t size)
{
	void *p = calloc(1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "stap: out of memory (%zu bytes)\n", size);
		abort();
	}
	return p;
}

/*
 * A bump allocator over zeroed chunks: the compiler makes millions of
 * small allocations and frees none, so each costs a pointer increment.
 * Large requests get a block of their own.
 */
#define ARENA_CHUNK (1u << 20)
#define ARENA_ALIGN 16

/* The process's allocator (one choke point): never freed, shared by every session. */
static struct {
	char *next;  /* first free byte of the current chunk */
	size_t left; /* bytes left in it */
} arena;

void *ast_alloc(size_t size)
{
	size = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (size == 0)
		size = ARENA_ALIGN;
	if (size > ARENA_CHUNK / 8)
		return alloc_or_die(size);
	if (size > arena.left) {
		/* populated at once: one call instead of a page fault per 4 KiB as the chunk fills */
		void *chunk = mmap(NULL, ARENA_CHUNK, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
		arena.next = chunk != MAP_FAILED ? chunk : alloc_or_die(ARENA_CHUNK);
		arena.left = ARENA_CHUNK;
	}
	void *p = arena.next;
	arena.next += size;
	arena.left -= size;
	return p;
}

char *ast_strndup(const char *s, size_t n)
{
	char *p = ast_alloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *ast_strdup(const char *s)
{
	return ast_strndup(s, strlen(s));
}

char *ast_join(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = strlen(sep), lb = strlen(b);
	char *out = ast_alloc(la + ls + lb + 1);

	memcpy(out, a, la);
	memcpy(out + la, sep, ls);
	memcpy(out + la + ls, b, lb + 1);
	return out;
}

char *ast_printf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = ast_alloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(p, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return p;
}

void vec_push(struct vec *v, void *item)
{
	if (v->n == v->cap) {
		int cap = v->cap ? v->cap * 2 : 8;
		void **items = ast_alloc(sizeof(*items) * (size_t)cap);
		if (v->n)
			memcpy(items, v->items, sizeof(*items) * (size_t)v->n);
		v->items = items; /* the old array stays in the arena */
		v->cap = cap;
	}
	v->items[v->n++] = item;
}

/* Interned strings: a small open-hashing table (few distinct file names). */
#define INTERN_BUCKETS 256

struct intern_entry {
	const char *str;           /* the one copy */
	struct intern_entry *next; /* next entry in the same bucket */
};

/* Process-wide: an interned string means the same in every session (paths compared by pointer). */
static struct intern_entry *intern_table[INTERN_BUCKETS];

void vec_sort(struct vec *v, int (*compare)(const void *a, const void *b))
{
	if (v->n > 1)
		qsort(v->items, (size_t)v->n, sizeof(v->items[0]), compare);
}

const char *ast_intern(const char *s)
{
	unsigned h = 5381;
	for (const char *p = s; *p; p++)
		h = h * 33 + (unsigned char)*p;
	struct intern_entry **bucket = &intern_table[h % INTERN_BUCKETS];
	for (struct intern_entry *e = *bucket; e; e = e->next)
		if (strcmp(e->str, s) == 0)
			return e->str;
	struct intern_entry *e = ast_alloc(sizeof(*e));
	e->str = ast_strdup(s);
	e->next = *bucket;
	*bucket = e;
	return e->str;
}

/* ---- strmap: chained hashing, doubled when the load passes 1 ---- */

struct strmap_entry {
	const char *key;           /* not copied */
	void *value;               /* the caller's */
	unsigned hash;             /* of key, kept for rehashing */
	struct strmap_entry *next; /* next in the same bucket */
};

static unsigned strmap_hash(const char *s)
{
	unsigned h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void *strmap_get(const struct strmap *m, const char *key)
{
	if (!m->nbuckets)
		return NULL;
	unsigned h = strmap_hash(key);
	for (struct strmap_entry *e = m->buckets[h & (unsigned)(m->nbuckets - 1)]; e; e = e->next)
		if (e->hash == h && !strcmp(e->key, key))
			return e->value;
	return NULL;
}

static void strmap_grow(struct strmap *m)
{
	int n = m->nbuckets ? m->nbuckets * 2 : 64;
	struct strmap_entry **b = ast_alloc(sizeof(*b) * (size_t)n);
	for (int i = 0; i < m->nbuckets; i++) {
		struct strmap_entry *e = m->buckets[i];
		while (e) {
			struct strmap_entry *next = e->next;
			e->next = b[e->hash & (unsigned)(n - 1)];
			b[e->hash & (unsigned)(n - 1)] = e;
			e = next;
		}
	}
	m->buckets = b;
	m->nbuckets = n;
}

void **strmap_slot(struct strmap *m, const char *key)
{
	unsigned h = strmap_hash(key);
	if (m->nbuckets) {
		for (struct strmap_entry *e = m->buckets[h & (unsigned)(m->nbuckets - 1)]; e; e = e->next)
			if (e->hash == h && !strcmp(e->key, key))
				return &e->value;
	}
	if (m->n >= m->nbuckets)
		strmap_grow(m);
	struct strmap_entry *e = ast_alloc(sizeof(*e));
	e->key = key;
	e->hash = h;
	e->next = m->buckets[h & (unsigned)(m->nbuckets - 1)];
	m->buckets[h & (unsigned)(m->nbuckets - 1)] = e;
	m->n++;
	return &e->value;
}

struct vec *strmap_vec(struct strmap *m, const char *key)
{
	void **slot = strmap_slot(m, key);
	if (!*slot)
		*slot = ast_alloc(sizeof(struct vec));
	return *slot;
}

struct node *ast_new(enum node_kind kind, struct srcloc loc, const char *tok)
{
	struct node *n = ast_alloc(sizeof(*n));
	n->kind = kind;
	n->loc = loc;
	n->tok = tok;
	n->type = TYPE_UNKNOWN;
	return n;
}

const char *ast_kind_name(enum node_kind kind)
{
	static const char *const names[] = {
#define AST_NAME(name, desc) [NODE_##name] = desc,
		AST_NODE_KINDS(AST_NAME)
#undef AST_NAME
	};
	if ((unsigned)kind >= NODE_KIND_COUNT)
		return "node";
	return names[kind];
}

const char *ast_type_name(enum stp_type type)
{
	switch (type) {
	case TYPE_UNKNOWN: return "unknown";
	case TYPE_LONG: return "long";
	case TYPE_STRING: return "string";
	case TYPE_STATS: return "stats";
	case TYPE_VOID: return "void";
	}
	return "unknown";
}

const char *ast_op_spelling(enum ast_op op)
{
	switch (op) {
	case OP_NONE: return "";
	case OP_ADD: return "+";
	case OP_SUB: return "-";
	case OP_MUL: return "*";
	case OP_DIV: return "/";
	case OP_MOD: return "%";
	case OP_SHL: return "<<";
	case OP_SHR: return ">>";
	case OP_BITAND: return "&";
	case OP_BITOR: return "|";
	case OP_BITXOR: return "^";
	case OP_BITNOT: return "~";
	case OP_NEG: return "-";
	case OP_PLUS: return "+";
	case OP_NOT: return "!";
	case OP_AND: return "&&";
	case OP_OR: return "||";
	case OP_EQ: return "==";
	case OP_NE: return "!=";
	case OP_LT: return "<";
	case OP_LE: return "<=";
	case OP_GT: return ">";
	case OP_GE: return ">=";
	case OP_CONCAT: return ".";
	case OP_INC: return "++";
	case OP_DEC: return "--";
	}
	return "?";
}

static const char *const stat_op_names[] = {
	[STAT_COUNT] = "@count", [STAT_SUM] = "@sum", [STAT_MIN] = "@min", [STAT_MAX] = "@max",
	[STAT_AVG] = "@avg", [STAT_VARIANCE] = "@variance", [STAT_HIST_LINEAR] = "@hist_linear",
	[STAT_HIST_LOG] = "@hist_log",
};

const char *ast_stat_op_name(enum stat_op op)
{
	return (unsigned)op < sizeof(stat_op_names) / sizeof(stat_op_names[0]) ? stat_op_names[op] : "@?";
}

int ast_stat_op_parse(const char *name)
{
	for (size_t i = 0; i < sizeof(stat_op_names) / sizeof(stat_op_names[0]); i++)
		if (strcmp(stat_op_names[i], name) == 0)
			return (int)i;
	return -1;
}

static void walk_vec(struct ast_walker *w, struct vec *v)
{
	for (int i = 0; i < v->n; i++)
		ast_walk(w, v->items[i]);
}

void ast_walk(struct ast_walker *w, struct node *n)
{
	if (!n)
		return;
	if (w->pre && !w->pre(w, n))
		return;

	switch (n->kind) {
	case NODE_NUM:
	case NODE_STR:
	case NODE_VAR:
	case NODE_NULL_STMT:
	case NODE_BREAK:
	case NODE_CONTINUE:
	case NODE_NEXT:
	case NODE_EMBEDDED:
	case NODE_WILDCARD:
		break;
	case NODE_TRY:
		ast_walk(w, n->u.try_stmt.body);
		ast_walk(w, n->u.try_stmt.var);
		ast_walk(w, n->u.try_stmt.handler);
		break;
	case NODE_INDEX:
		ast_walk(w, n->u.index.array);
		walk_vec(w, &n->u.index.keys);
		break;
	case NODE_CALL:
		walk_vec(w, &n->u.call.args);
		break;
	case NODE_UNARY:
		ast_walk(w, n->u.unary.operand);
		break;
	case NODE_BINARY:
		ast_walk(w, n->u.binary.lhs);
		ast_walk(w, n->u.binary.rhs);
		break;
	case NODE_TERNARY:
		ast_walk(w, n->u.ternary.cond);
		ast_walk(w, n->u.ternary.then);
		ast_walk(w, n->u.ternary.otherwise);
		break;
	case NODE_ASSIGN:
		ast_walk(w, n->u.assign.lhs);
		ast_walk(w, n->u.assign.rhs);
		break;
	case NODE_INCDEC:
		ast_walk(w, n->u.incdec.operand);
		break;
	case NODE_IN:
		walk_vec(w, &n->u.in.keys);
		ast_walk(w, n->u.in.array);
		break;
	case NODE_BLOCK:
		walk_vec(w, &n->u.block.stmts);
		break;
	case NODE_EXPR_STMT:
		ast_walk(w, n->u.expr_stmt.expr);
		break;
	case NODE_IF:
		ast_walk(w, n->u.if_stmt.cond);
		ast_walk(w, n->u.if_stmt.then);
		ast_walk(w, n->u.if_stmt.otherwise);
		break;
	case NODE_WHILE:
		ast_walk(w, n->u.while_stmt.cond);
		ast_walk(w, n->u.while_stmt.body);
		break;
	case NODE_FOR:
		ast_walk(w, n->u.for_stmt.init);
		ast_walk(w, n->u.for_stmt.cond);
		ast_walk(w, n->u.for_stmt.step);
		ast_walk(w, n->u.for_stmt.body);
		break;
	case NODE_FOREACH:
		ast_walk(w, n->u.foreach.value);
		walk_vec(w, &n->u.foreach.keys);
		ast_walk(w, n->u.foreach.array);
		walk_vec(w, &n->u.foreach.slice);
		ast_walk(w, n->u.foreach.limit);
		ast_walk(w, n->u.foreach.body);
		break;
	case NODE_RETURN:
		ast_walk(w, n->u.ret.value);
		break;
	case NODE_DELETE:
		ast_walk(w, n->u.del.target);
		break;
	case NODE_STAT_ADD:
		ast_walk(w, n->u.stat_add.target);
		ast_walk(w, n->u.stat_add.value);
		break;
	case NODE_STAT_OP:
		ast_walk(w, n->u.stat_op.operand);
		walk_vec(w, &n->u.stat_op.args);
		ast_walk(w, n->u.stat_op.bucket);
		break;
	case NODE_REGEX:
		ast_walk(w, n->u.regex.subject);
		ast_walk(w, n->u.regex.pattern);
		break;
	case NODE_TARGET:
		ast_walk(w, n->u.target.operand);
		for (int i = 0; i < n->u.target.path.n; i++)
			ast_walk(w, ((struct target_step *)n->u.target.path.items[i])->index);
		break;
	case NODE_DEFINED:
	case NODE_ENTRY:
		ast_walk(w, n->u.at_op.operand);
		break;
	}

	if (w->post)
		w->post(w, n);
}

struct contains_state {
	bool (*match)(const struct node *);
	bool found;
};

static bool contains_pre(struct ast_walker *w, struct node *n)
{
	struct contains_state *c = w->data;
	c->found = c->found || c->match(n);
	return !c->found;
}

bool ast_contains(struct node *n, bool (*match)(const struct node *))
{
	struct contains_state c = {.match = match};
	struct ast_walker w = {.pre = contains_pre, .data = &c};
	ast_walk(&w, n);
	return c.found;
}
