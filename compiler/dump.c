/* dump.c - stap --dump-probe-types, --dump-functions, --dump-probe-aliases: list what the library offers. */
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "tapset.h"
#include "dump.h"
#include "probes.h"
#include "parse.h"
#include "syscalls.h"
#include "kfeatures.h"

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Print lines sorted, each once. */
static void print_sorted(struct vec *lines)
{
	if (lines->n > 1)
		qsort(lines->items, (size_t)lines->n, sizeof(lines->items[0]), compare_lines);
	for (int i = 0; i < lines->n; i++)
		if (i == 0 || strcmp(lines->items[i], lines->items[i - 1]))
			printf("%s\n", (char *)lines->items[i]);
}

/* "name:type (param:type, ...)": types as declared, "unknown" where a tapset leaves them to inference. */
static const char *function_line(const struct function *fn)
{
	char *line = ast_printf("%s:%s (", fn->name, ast_type_name(fn->type));
	for (int i = 0; i < fn->params.n; i++) {
		const struct param *p = fn->params.items[i];
		line = ast_printf("%s%s%s:%s", line, i ? ", " : "", p->name, ast_type_name(p->type));
	}
	return ast_printf("%s)", line);
}

/*
 * Under --privilege=stapusr, the functions in C that the level may call
 * (marked unprivileged or myproc-unprivileged); a function in the script
 * language is listed too, and checked where a script calls it.
 */
static bool privilege_shows(const struct session *s, const struct function *fn)
{
	return s->privilege != PRIV_STAPUSR || fn->body->kind != NODE_EMBEDDED || fn->unprivileged ||
	       fn->myproc_unprivileged;
}

/* With --privilege given, the function's mark after its line: SystemTap's pragma comment. */
static const char *privilege_marked(const struct session *s, const struct function *fn, const char *line)
{
	if (!s->privilege_given)
		return line;
	if (fn->myproc_unprivileged)
		return ast_printf("%s /* myproc-unprivileged */", line);
	if (fn->unprivileged)
		return ast_printf("%s /* unprivileged */", line);
	if (fn->guru_only)
		return ast_printf("%s /* guru */", line);
	return line;
}

/* Each probe alias of probes as "NAME = POINTS" (NAME += POINTS for an epilogue alias) into lines. */
static void alias_lines(const struct vec *probes, struct vec *lines)
{
	for (int j = 0; j < probes->n; j++) {
		const struct probe *p = probes->items[j];
		if (p->kind == PROBE_PLAIN)
			continue;
		char *points = "";
		for (int k = 0; k < p->points.n; k++)
			points = ast_printf("%s%s%s", points, k ? ", " : "", ast_probe_point_text(p->points.items[k]));
		for (int k = 0; k < p->names.n; k++)
			vec_push(lines, ast_printf("%s %s %s", ast_probe_point_text(p->names.items[k]),
						   p->kind == PROBE_ALIAS_EPILOGUE ? "+=" : "=", points));
	}
}

/*
 * The system call aliases, which no tapset file holds: syscalls.c writes
 * them for the target kernel's calls when a script names them, as here
 * (each call by name: a wildcard would get one dispatching alias).
 */
static void syscall_alias_lines(struct session *s, struct vec *lines)
{
	struct vec names = {0}, none = {0};
	syscalls_names(s, &names);
	char *text = "probe syscall_any, syscall_any.return";
	for (int i = 0; i < names.n; i++) {
		const char *n = names.items[i];
		text = ast_printf("%s, syscall.%s, syscall.%s.return, nd_syscall.%s, nd_syscall.%s.return", text, n, n, n, n);
	}
	struct ast_file *f = parse_file(s, "<syscall aliases>", ast_printf("%s {}", text), true);
	if (!f || !f->probes.n)
		return;
	s->script = f;	/* what they are written for: a script that reads none of their variables */
	const struct probe *p = f->probes.items[0];
	for (int i = 0; i < p->points.n; i++) {
		struct vec aliases = {0};
		syscalls_aliases(s, p->points.items[i], true, &none, &aliases);
		alias_lines(&aliases, lines);
	}
}

int dump_run(struct session *s)
{
	struct vec lines = {0}, files = {0};
	if (s->dump == STAP_DUMP_PROBE_TYPES) {
		probes_patterns(&lines);	/* each family's own list (probes/families.def) */
		print_sorted(&lines);
		return STAP_EXIT_OK;
	}
	if (s->dump == STAP_DUMP_KFEATURES)
		return kfeatures_dump(s);
	if (!tapset_load(s))
		return STAP_EXIT_FAILURE;
	tapset_parse_everything(s, &files);
	for (int i = 0; i < files.n; i++) {
		const struct ast_file *f = files.items[i];
		if (s->dump == STAP_DUMP_FUNCTIONS) {
			for (int j = 0; j < f->functions.n; j++) {
				const struct function *fn = f->functions.items[j];
				if (!fn->is_private && privilege_shows(s, fn))
					vec_push(&lines, (void *)privilege_marked(s, fn, function_line(fn)));
			}
			continue;
		}
		alias_lines(&f->probes, &lines);
	}
	if (s->dump == STAP_DUMP_PROBE_ALIASES)
		syscall_alias_lines(s, &lines);
	print_sorted(&lines);
	return diag_error_count() ? STAP_EXIT_FAILURE : STAP_EXIT_OK;
}
