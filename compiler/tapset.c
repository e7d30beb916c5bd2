/*
 * tapset.c - the tapset library: every *.stp file on the search path (-I dirs,
 * then the installed tapset/, each searched recursively: tapset/linux/...,
 * skipping other architectures' folders) is parsed once; a file joins the program only
 * when the script uses a function or global it defines.
 */
#include <dirent.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "elaborate.h"
#include "parse.h"

/* What the tapset path offers: parsed files and whether each is in use. */
static struct vec tapset_files;   /* of struct ast_file * */
static struct vec tapset_used;    /* parallel: (void *)1 once the file joined */

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = ast_alloc((size_t)len + 1);
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		return NULL;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/*
 * Architecture folders of the tapset tree (tapset/linux/x86_64/...): only the
 * target's own is searched. stapc builds for x86-64 alone today.
 */
static const char *const other_arches[] = {
	"i386", "arm", "arm64", "powerpc", "s390", "ia64", "mips", "riscv", "loongarch64",
};

static bool other_arch(const char *name)
{
	for (size_t i = 0; i < sizeof(other_arches) / sizeof(other_arches[0]); i++)
		if (!strcmp(name, other_arches[i]))
			return true;
	return false;
}

void tapset_list_files(const char *dir, const char *suffix, struct vec *out)
{
	DIR *d = opendir(dir);
	struct vec names = {0};
	struct vec subdirs = {0};
	struct dirent *e;
	size_t slen = strlen(suffix);
	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		const char *path = ast_printf("%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (!other_arch(e->d_name))
				vec_push(&subdirs, ast_strdup(e->d_name));
		} else if (len > slen && !strcmp(e->d_name + len - slen, suffix)) {
			vec_push(&names, ast_strdup(e->d_name));
		}
	}
	closedir(d);
	if (names.n)
		vec_sort(&names, compare_names);
	if (subdirs.n)
		vec_sort(&subdirs, compare_names);
	for (int i = 0; i < names.n; i++)
		vec_push(out, (void *)ast_intern(ast_printf("%s/%s", dir, (char *)names.items[i])));
	for (int i = 0; i < subdirs.n; i++)
		tapset_list_files(ast_printf("%s/%s", dir, (char *)subdirs.items[i]), suffix, out);
}

static bool load_dir(const char *dir)
{
	struct vec paths = {0};
	tapset_list_files(dir, ".stp", &paths);
	for (int i = 0; i < paths.n; i++) {
		const char *path = paths.items[i];
		char *text = slurp(path);
		if (!text) {
			fprintf(stderr, "stap: cannot read tapset file %s\n", path);
			return false;
		}
		diag_mark_library(path);
		struct ast_file *f = parse_file(path, text, true);
		for (int j = 0; j < f->functions.n; j++)
			((struct function *)f->functions.items[j])->file = f;
		vec_push(&tapset_files, f);
		vec_push(&tapset_used, NULL);
	}
	return true;
}

bool tapset_load(struct session *s)
{
	for (int i = 0; i < s->include_dirs.n; i++)
		if (!load_dir(s->include_dirs.items[i]))
			return false;
	if (!load_dir(s->tapset_dir))
		return false;
	return diag_error_count() == 0;
}

/* A file joins the program: its globals and top-level embedded C become part of it. */
static void use_file(struct session *s, int i)
{
	if (tapset_used.items[i])
		return;
	tapset_used.items[i] = (void *)1;
	struct ast_file *f = tapset_files.items[i];
	vec_push(&s->tapset_files, f);
	for (int j = 0; j < f->globals.n; j++)
		resolve_add_global(s, f->globals.items[j]);
	for (int j = 0; j < f->embedded.n; j++)
		vec_push(&s->embedded, (void *)((struct node *)f->embedded.items[j])->u.embedded.code);
}

/* Private declarations are visible only inside their own file. */
static bool visible(bool is_private, const struct ast_file *owner, const struct ast_file *from)
{
	return !is_private || owner == from;
}

struct function *tapset_find_function(struct session *s, const char *name, int nargs,
				      const struct ast_file *from, struct vec *candidates)
{
	/* The caller's own file first, so its private functions win. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < tapset_files.n; i++) {
			struct ast_file *f = tapset_files.items[i];
			if ((pass == 0) != (f == from))
				continue;
			for (int j = 0; j < f->functions.n; j++) {
				struct function *fn = f->functions.items[j];
				if (strcmp(fn->name, name) || !visible(fn->is_private, f, from))
					continue;
				if (candidates) {
					vec_push(candidates, fn);
				} else if (fn->params.n == nargs) {
					use_file(s, i);
					return fn;
				}
			}
		}
	}
	return NULL;
}

struct global *tapset_find_global(struct session *s, const char *name, const struct ast_file *from)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < tapset_files.n; i++) {
			struct ast_file *f = tapset_files.items[i];
			if ((pass == 0) != (f == from))
				continue;
			for (int j = 0; j < f->globals.n; j++) {
				struct global *g = f->globals.items[j];
				if (!strcmp(g->name, name) && visible(g->is_private, f, from)) {
					use_file(s, i);
					return g;
				}
			}
		}
	}
	return NULL;
}

void tapset_aliases(struct vec *out)
{
	for (int i = 0; i < tapset_files.n; i++) {
		struct ast_file *f = tapset_files.items[i];
		for (int j = 0; j < f->probes.n; j++) {
			struct probe *p = f->probes.items[j];
			if (p->kind != PROBE_PLAIN)
				vec_push(out, p);
		}
	}
}

void tapset_use_alias(struct session *s, struct probe *alias)
{
	for (int i = 0; i < tapset_files.n; i++)
		if (tapset_files.items[i] == alias->file)
			use_file(s, i);
}
