/* elaborate.c - pass 2: tapsets, name resolution, types, probe points; -p2 printing. */
#include <inttypes.h>
#include <string.h>

#include "ctxfunc.h"
#include "diag.h"
#include "enums.h"
#include "optimize.h"
#include "regex_check.h"
#include "registers.h"
#include "resolve.h"
#include "stats.h"
#include "tapset.h"
#include "types.h"
#include "privilege.h"
#include "probes.h"
#include "targetvar.h"

/*
 * Each step reports what it finds and the next independent one still runs,
 * so one run shows several errors: the bodies of the probes derived are
 * resolved even when other probe points failed (probes.c derives the
 * probes first: alias expansion decides what the bodies are). Types are inferred only over resolved code (an
 * unresolved name would only cascade into "cannot infer" errors), and the
 * optimizer runs only on a program without errors.
 */
bool elaborate(struct session *s)
{
	if (!tapset_load(s))
		return false;
	bool ok = probes_derive(s);
	bool resolved = resolve_program(s);
	ok = resolved && ok;
	/* --semantic-keep-going: once names resolve, every step runs after another's errors too */
	bool keep = s->semantic_keep_going;
	ok = (ok || keep) && ctxfunc_mark(s) && ok;
	ok = (ok || keep) && privilege_check(s) && ok;
	if (ok && !s->unoptimized && s->probes.n)
		optimize_prune_functions(s);
	/* after the points (probes_derive), before types: procfs $value is a string */
	ok = (ok || keep) && targetvar_bind_provided(s) && ok;
	ok = (ok || keep) && types_infer(s) && ok;
	ok = (ok || keep) && stats_check(s) && ok;
	ok = (ok || keep) && regex_elaborate(s) && ok;
	ok = (ok || keep) && registers_check(s) && ok;
	if (ok && s->probes.n == 0) {
		diag_error((struct srcloc){.file = NULL}, "no probes found in %s", s->script_path);
		return false;
	}
	if (!keep && (!ok || diag_error_count()))
		return false;
	if (ok && !diag_error_count())
		optimize_program(s); /* (after errors, under keep, the targets are planned unoptimized) */
	/* after the optimizer, which sees each probe once: this may split probes per point */
	if (!targetvar_resolve(s) && !keep)
		return false;
	enums_resolve_names(s); /* after the targets: @enumname($var) takes $var's type */
	return diag_error_count() == 0;
}

/* Tapset files are named without their directory, so -p2 output does not depend on the install. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static const char *symbol_type_text(const struct symbol *sym)
{
	if (sym->arity <= 0)
		return ast_type_name(sym->type);
	char buf[256];
	int len = snprintf(buf, sizeof(buf), "%s[", ast_type_name(sym->type));
	for (int i = 0; i < sym->arity && i < 9; i++)
		len += snprintf(buf + len, sizeof(buf) - (size_t)len, "%s%s", i ? ", " : "", ast_type_name(sym->keys[i]));
	snprintf(buf + len, sizeof(buf) - (size_t)len, "]");
	return ast_strdup(buf);
}

static void print_locals(FILE *out, struct vec *locals)
{
	if (!locals->n)
		return;
	fprintf(out, "  # locals:");
	for (int i = 0; i < locals->n; i++) {
		struct symbol *sym = locals->items[i];
		fprintf(out, "%s %s:%s", i ? "," : "", sym->name, symbol_type_text(sym));
	}
	fprintf(out, "\n");
}

void elaborate_print(struct session *s, FILE *out)
{
	if (s->list_probes) {
		probes_list(s, out);
		return;
	}
	fprintf(out, "# globals\n");
	for (int i = 0; i < s->globals.n; i++) {
		struct global *g = s->globals.items[i];
		fprintf(out, "%s:%s", g->name, symbol_type_text(g->sym));
		if (g->init) {
			fprintf(out, " = ");
			ast_print_expr(out, g->init);
		}
		if (g->max_entries)
			fprintf(out, " /* max %" PRId64 " entries */", g->max_entries);
		if (g->wrap)
			fprintf(out, " /* wraps when full */");
		fprintf(out, "%s\n", g->from_tapset ? ast_printf(" /* from tapset %s */", base_name(g->loc.file)) : "");
	}
	fprintf(out, "# functions\n");
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		fprintf(out, "%s:%s (", fn->name, ast_type_name(fn->type));
		for (int j = 0; j < fn->params.n; j++) {
			struct param *p = fn->params.items[j];
			fprintf(out, "%s%s:%s", j ? ", " : "", p->name, ast_type_name(p->sym->type));
		}
		fprintf(out, ")%s\n", fn->from_tapset ? ast_printf(" /* from tapset %s */", base_name(fn->loc.file)) : "");
		print_locals(out, &fn->locals);
		if (fn->body->kind == NODE_EMBEDDED)
			fprintf(out, "%%{ /* embedded C */ %%}\n");
		else
			ast_print_node(out, fn->body, 0);
	}
	fprintf(out, "# probes\n");
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		bool first = true;
		for (int j = 0; j < p->resolved.n; j++) {
			struct resolved_probe *r = p->resolved.items[j];
			/* '?': the runtime may skip the point if it cannot be attached */
			fprintf(out, "%s%s%s", first ? "" : ", ", r->pp, r->point->optional ? "?" : "");
			first = false;
		}
		if (p->cond) {
			fprintf(out, " if (");
			ast_print_expr(out, p->cond);
			fprintf(out, ")");
		}
		/* a tapset's own probe (argv.stp's begin(-1)) by its file's name */
		const char *file = p->file && p->file != s->script && p->loc.file ? base_name(p->loc.file) : p->loc.file;
		fprintf(out, " /* %s:%d:%d */\n", file, p->loc.line, p->loc.col);
		print_locals(out, &p->locals);
		ast_print_node(out, p->body, 0);
	}
}
