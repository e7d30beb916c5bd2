/* listing.c - stap -l / -L: the probe points a pattern matches, with their variables. */
#include <stdio.h>
#include <string.h>

#include "kprobe.h"
#include "probes.h"
#include "families.h"
#include "targetvar.h"

static int compare_lines(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The variables a probe alias gives its body (-L), " name:type" each by name: the
 * derived probe's locals but the alias's own helpers (named __*); a system
 * call alias's number, __nr, is listed, as SystemTap lists it.
 */
static const char *alias_vars(const struct resolved_probe *r)
{
	struct vec names = {0};
	for (int i = 0; i < r->probe->locals.n; i++) {
		const struct symbol *sym = r->probe->locals.items[i];
		if (strncmp(sym->name, "__", 2) || !strcmp(sym->name, "__nr"))
			vec_push(&names, (void *)ast_printf(" %s:%s", sym->name, ast_type_name(sym->type)));
	}
	vec_sort(&names, compare_lines);
	const char *text = "";
	for (int i = 0; i < names.n; i++)
		text = ast_printf("%s%s", text, (const char *)names.items[i]);
	return text;
}

/*
 * -v -L: where a kprobe-attached point sits, " /" "* pc=<SYMBOL+0xOFFSET> *" "/",
 * so the instances one name covers (inlined copies, functions of one name
 * in several files) are listed apart, as man stap says; "" for other families.
 */
static const char *pc_comment(const struct resolved_probe *r)
{
	const struct kprobe_point *kp = r->data;
	if (r->provider != &probe_kprobe || !kp || !kp->symbol)
		return "";
	return ast_printf(" /* pc=<%s+0x%llx> */", kp->symbol, (unsigned long long)kp->offset);
}

/*
 * -l: the points a pattern matches, one a line, sorted: a point matched
 * through an alias by the alias's name (syscall.openat, vfs.read), others as
 * resolved (kernel.function("vfs_read@fs/read_write.c:450")); -L adds the
 * alias's variables and the target variables.
 */
void probes_list(struct session *s, FILE *out)
{
	struct vec lines = {0};
	for (int i = 0; i < s->resolved.n; i++) {
		struct resolved_probe *r = s->resolved.items[i];
		if (!r->probe)
			continue;
		/* the pattern's matches only: not the probes of -E scripts or -T */
		if (r->user_point && r->user_point->loc.file && r->user_point->loc.file != s->script_path)
			continue;
		const char *name = r->via_alias ? r->pn : r->pp;
		vec_push(&lines, (void *)(!s->list_vars ? name
					  : ast_printf("%s%s%s%s", name, s->verbose ? pc_comment(r) : "",
						       r->via_alias ? alias_vars(r) : "", targetvar_list(r->scope))));
	}
	vec_sort(&lines, compare_lines);
	for (int i = 0; i < lines.n; i++)
		if (i == 0 || strcmp(lines.items[i], lines.items[i - 1]))
			fprintf(out, "%s\n", (char *)lines.items[i]);
}
