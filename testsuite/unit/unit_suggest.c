/*
 * unit_suggest.c - suggest.c's candidates on a hand-made debuginfo: the
 * members one and two embedded structs down, the prefixed and similar
 * function names, the parameters for a missing variable; and the cost of
 * one similar-name search over 60,000 names of one length (the worst case)
 * and over an installed kernel's BTF (printed, not asserted).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "suggest.h"
#include "unit.h"

/* The fake binary's function names: what function_names hands over. */
struct fake {
	struct vec names;
};

static void fake_names(struct debuginfo *di, struct vec *out)
{
	struct fake *f = di->priv;
	for (int i = 0; i < f->names.n; i++)
		vec_push(out, f->names.items[i]);
}

static void fake_load_members(struct debuginfo *di, struct dbg_type *t)
{
	(void)di;
	(void)t;
}

static const struct dbg_ops fake_ops = {.function_names = fake_names, .load_members = fake_load_members};

static struct debuginfo *fake_binary(const char *const *names, int n)
{
	struct debuginfo *di = ast_alloc(sizeof(*di));
	struct fake *f = ast_alloc(sizeof(*f));
	for (int i = 0; i < n; i++)
		vec_push(&f->names, (void *)names[i]);
	di->ops = &fake_ops;
	di->priv = f;
	return di;
}

static struct dbg_type *record(struct debuginfo *di, const char *name)
{
	struct dbg_type *t = dbg_type_new(di, DBG_STRUCT, name, 0);
	t->members_loaded = true;
	return t;
}

static void add_member(struct dbg_type *t, const char *name, struct dbg_type *type, uint64_t offset)
{
	struct dbg_member *m = ast_alloc(sizeof(*m));
	m->name = name;
	m->type = type;
	m->offset = offset;
	vec_push(&t->members, m);
}

static struct dbg_type *pointer_to(struct debuginfo *di, struct dbg_type *t)
{
	struct dbg_type *p = dbg_type_new(di, DBG_PTR, NULL, 0);
	p->target = t;
	p->size = 8;
	return p;
}

static const char *joined(const struct vec *v)
{
	const char *text = "";
	for (int i = 0; i < v->n; i++)
		text = ast_printf("%s%s%s", text, i ? " " : "", (const char *)v->items[i]);
	return text;
}

static void test_members(void)
{
	struct debuginfo *di = fake_binary(NULL, 0);
	struct dbg_type *u32 = dbg_type_new(di, DBG_INT, "u32", 0), *iter = record(di, "bvec_iter");
	struct dbg_type *bio = record(di, "bio"), *inner = record(di, "inner"), *outer = record(di, "outer");
	u32->size = 4;
	add_member(iter, "bi_sector", u32, 0);
	add_member(iter, "bi_size", u32, 8);
	add_member(bio, "bi_next", pointer_to(di, bio), 0);
	add_member(bio, "bi_iter", iter, 32);
	add_member(bio, "bi_other", pointer_to(di, iter), 56); /* a pointer: never followed */
	struct vec out = {0};
	suggest_members(bio, "bi_size", &out);
	CHECK_STR(joined(&out), "bi_iter->bi_size");
	/* two levels down, and the shallowest level only */
	add_member(inner, "deep", u32, 0);
	add_member(outer, "in", inner, 0);
	add_member(outer, "in2", inner, 16);
	struct dbg_type *top = record(di, "top");
	add_member(top, "o", outer, 0);
	out = (struct vec){0};
	suggest_members(top, "deep", &out);
	CHECK_STR(joined(&out), "o->in->deep o->in2->deep");
	add_member(top, "shallow", inner, 64);
	out = (struct vec){0};
	suggest_members(top, "deep", &out);
	CHECK_STR(joined(&out), "shallow->deep");
	out = (struct vec){0};
	suggest_members(bio, "nosuch", &out);
	CHECK(out.n == 0);
}

static void test_functions(void)
{
	static const char *const names[] = {
		"__x64_sys_io_submit", "__ia32_sys_io_submit", "io_submit_one", "do_iter_read", "vfs_read",
		"page_cache_sync_readahead", "page_cache_sync_readahead.constprop.0", "page_cache_ra_order",
		"__traceiter_do_sync_read", "ksys_read", "__x64_sys_read", "do_sync_write_x",
	};
	struct debuginfo *di = fake_binary(names, (int)(sizeof(names) / sizeof(names[0])));
	struct vec out = {0};
	suggest_prefixed(di, "sys_io_submit", &out);
	CHECK_STR(joined(&out), "__x64_sys_io_submit __ia32_sys_io_submit");
	out = (struct vec){0};
	suggest_prefixed(di, "read", &out);
	CHECK_STR(joined(&out), "__x64_sys_read ksys_read");
	out = (struct vec){0};
	suggest_similar(di, "do_sync_read", NULL, &out);
	/* close spelling first, then same first and last word; generated names never */
	CHECK_STR(joined(&out), "do_iter_read");
	out = (struct vec){0};
	suggest_similar(di, "page_cache_readahead", NULL, &out);
	CHECK_STR(joined(&out), "page_cache_sync_readahead");
	out = (struct vec){0};
	struct vec skip = {0};
	vec_push(&skip, "do_iter_read");
	suggest_similar(di, "do_sync_read", &skip, &out);
	CHECK(out.n == 0);
	/* among one file's names, repeated (one per inlined copy): each once, the closest first */
	struct vec file_names = {0};
	vec_push(&file_names, "do_iter_read");
	vec_push(&file_names, "new_sync_read");
	vec_push(&file_names, "new_sync_read");
	vec_push(&file_names, "rw_verify_area");
	out = (struct vec){0};
	suggest_similar_among(&file_names, "do_sync_read", NULL, &out);
	CHECK_STR(joined(&out), "new_sync_read do_iter_read");
	/* the index is built once: a name added later is not seen */
	vec_push(&((struct fake *)di->priv)->names, "do_sync_reed");
	out = (struct vec){0};
	suggest_similar(di, "do_sync_read", NULL, &out);
	CHECK_STR(joined(&out), "do_iter_read");
}

static void test_variables(void)
{
	struct debuginfo *di = fake_binary(NULL, 0);
	struct dbg_type *cache = record(di, "kmem_cache"), *gfp = dbg_type_new(di, DBG_INT, "gfp_t", 0);
	add_member(cache, "name", pointer_to(di, gfp), 0);
	struct dbg_var s = {.name = "s", .type = pointer_to(di, cache), .is_param = true};
	struct dbg_var flags = {.name = "gfpflags", .type = gfp, .is_param = true};
	struct vec vars = {0}, members = {0}, out = {0};
	vec_push(&vars, &s);
	vec_push(&vars, &flags);
	suggest_variables(&vars, "cachep", &members, &out);
	CHECK(out.n == 1 && out.items[0] == &s);
	out = (struct vec){0};
	suggest_variables(&vars, "kmem_cache", &members, &out);
	CHECK(out.n == 1 && out.items[0] == &s);
	/* not named like it: found by the members read through it */
	out = (struct vec){0};
	suggest_variables(&vars, "c", &members, &out);
	CHECK(out.n == 0);
	vec_push(&members, "name");
	suggest_variables(&vars, "c", &members, &out);
	CHECK(out.n == 1 && out.items[0] == &s);
	out = (struct vec){0};
	vec_push(&members, "nosuch");
	suggest_variables(&vars, "c", &members, &out);
	CHECK(out.n == 0);
	/* two parameters of the type: both, so --adapt takes neither */
	struct dbg_var s2 = {.name = "s2", .type = pointer_to(di, cache), .is_param = true};
	vec_push(&vars, &s2);
	out = (struct vec){0};
	suggest_variables(&vars, "cache", &members, &out);
	CHECK(out.n == 2);
}

/* 60,000 names of kernel-like shape; one search must stay a single pass (printed, not asserted). */
static void measure_scale(void)
{
	int n = 60000;
	const char **names = malloc(sizeof(*names) * (size_t)n);
	for (int i = 0; i < n; i++)
		names[i] = ast_printf("subsys%d_do_thing%d_read", i % 97, i);
	struct debuginfo *di = fake_binary(names, n);
	struct timespec a, b, c;
	clock_gettime(CLOCK_MONOTONIC, &a);
	suggest_function_names(di);
	clock_gettime(CLOCK_MONOTONIC, &b);
	struct vec out = {0};
	for (int i = 0; i < 10; i++) {
		out = (struct vec){0};
		suggest_similar(di, "subsys5_do_thing_read", NULL, &out);
	}
	clock_gettime(CLOCK_MONOTONIC, &c);
	CHECK(out.n == SUGGEST_MAX_SIMILAR);
	printf("unit_suggest: index of %d names %.1f ms, one search %.1f ms\n", n,
	       (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6,
	       ((double)(c.tv_sec - b.tv_sec) * 1e3 + (double)(c.tv_nsec - b.tv_nsec) / 1e6) / 10);
	free(names);
	/* the installed kernel's own names (BTF of /boot/vmlinuz-R), when there is one */
	struct utsname u;
	const char *err = NULL;
	struct debuginfo *btf = uname(&u) == 0 ? dbg_open_btf(ast_printf("/boot/vmlinuz-%s", u.release), NULL, &err) : NULL;
	DIR *boot = btf ? NULL : opendir("/boot");
	struct dirent *e;
	while (boot && !btf && (e = readdir(boot)) != NULL)
		if (!strncmp(e->d_name, "vmlinuz-", 8))
			btf = dbg_open_btf(ast_printf("/boot/%s", e->d_name), NULL, &err);
	if (boot)
		closedir(boot);
	if (!btf)
		return;
	clock_gettime(CLOCK_MONOTONIC, &a);
	const struct vec *all = suggest_function_names(btf);
	clock_gettime(CLOCK_MONOTONIC, &b);
	out = (struct vec){0};
	suggest_similar(btf, "do_sync_read", NULL, &out);
	clock_gettime(CLOCK_MONOTONIC, &c);
	CHECK(out.n > 0);
	printf("unit_suggest: a kernel's BTF: index of %d names %.1f ms, do_sync_read %.1f ms (%s)\n", all->n,
	       (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6,
	       (double)(c.tv_sec - b.tv_sec) * 1e3 + (double)(c.tv_nsec - b.tv_nsec) / 1e6,
	       out.n ? (const char *)out.items[0] : "none");
}

int main(void)
{
	test_members();
	test_functions();
	test_variables();
	measure_scale();
	return unit_report("unit_suggest");
}
