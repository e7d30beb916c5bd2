/*
 * probes/input.c - input.char and input.line: the script's standard input.
 *
 * stapio forwards what it reads from its stdin to the module (the INPUT
 * command, runtime/linux/probes/input.c), which runs input.char once per byte
 * with $value that byte as a one-character string, and input.line once
 * per line with $value the line and its newline (at most MAXSTRINGLEN-1
 * bytes: a longer line comes in pieces; the last line may lack the
 * newline). stapio reads stdin only for a module that has such probes.
 * The points are spelled input.__char and input.__line under the aliases
 * input.char and input.line (tapset/input.stp), which set the variables
 * char and line as SystemTap's do.
 */
#include <string.h>

#include "diag.h"
#include "probes.h"
#include "targetvar.h"

static bool input_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	(void)s;
	struct probe_component *root = probes_component(pp, 0);
	struct probe_component *kind = probes_component(pp, 1);
	/* input.__char and input.__line are what tapset/input.stp's aliases input.char and input.line build on */
	const char *name = kind && !strncmp(kind->name, "__", 2) ? kind->name + 2 : kind ? kind->name : NULL;
	if (root->arg || !kind || kind->arg || (strcmp(name, "char") && strcmp(name, "line"))) {
		diag_error(kind && !root->arg ? kind->loc : root->loc, "expected input.char or input.line");
		return false;
	}
	if (probes_ncomponents(pp) > 2) {
		struct probe_component *extra = probes_component(pp, 2);
		diag_error(extra->loc, "unexpected '.%s' after input.%s", extra->name, name);
		return false;
	}
	out->data = !strcmp(name, "line") ? (void *)"line" : NULL;
	out->pp = ast_printf("input.%s", name);
	out->scope = ast_alloc(sizeof(*out->scope));
	out->scope->what = out->pp;
	targetvar_provide(out->scope, "value", TYPE_STRING, "(const char *)_stp_input_value(&c->base)", NULL, false);
	((struct target_provided *)out->scope->provided.items[0])->readonly_why =
		"$value is the input read and cannot be assigned";
	return true;
}

static void input_row(struct emitter *e, const struct resolved_probe *r)
{
	emit_line(e, "{ .probe = &_stp_probes[%d], .line = %d },", r->index, r->data != NULL);
}

const struct probe_provider probe_input = {
	.name = "input",
	.patterns = (const char *const[]){"input.{char,line}", NULL},
	.resolve = input_resolve,
	.feature = "STP_HAVE_INPUT",
	.table = "_stp_input_probe",
	.row = input_row,
	.runtime = (const struct runtime_file[]){{"input", 0, 0}, {0}},
};
