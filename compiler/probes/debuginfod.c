/*
 * probes/debuginfod.c - debuginfod.process("GLOB").REST and
 * debuginfod.archive("GLOB").process("GLOB").REST (SystemTap 5.0): the
 * programs whose paths match the glob on the debuginfod servers of
 * DEBUGINFOD_URLS, whatever is installed here, each probed by its build-id
 * as process("BUILD-ID").REST.
 *
 * The servers are asked once per point with a metadata query
 * (debuginfo/metadata.c: libdebuginfod 0.192 or later); their executables
 * matching the glob (and, with .archive, held in a package whose path
 * matches that glob) give one point process("BUILD-ID").REST each, which
 * the family claiming it resolves (process.c fetches the program from the
 * servers when no file here has that build-id). So .function, .statement,
 * .mark and .plt reach every process running a file with that build-id;
 * .begin/.end and .syscall only processes running the file found.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo/metadata.h"
#include "diag.h"
#include "probes.h"

/* The quoted glob of component i, or NULL after an error. */
static const char *glob_arg(struct probe_point *pp, int i, const char *what)
{
	struct probe_component *c = probes_component(pp, i);
	if (!c || strcmp(c->name, what) || !c->arg || c->arg->kind != NODE_STR || !*c->arg->u.str) {
		struct probe_component *at = c ? c : probes_component(pp, i - 1);
		diag_error(at->loc, "expected .%s(\"GLOB\") here: debuginfod[.archive(\"GLOB\")].process(\"GLOB\")...",
			   what);
		return NULL;
	}
	return c->arg->u.str;
}

/* pp from component from on, with that component's argument replaced by text. */
static struct probe_point *rest_with(struct probe_point *pp, int from, const char *text)
{
	struct probe_point *copy = ast_alloc(sizeof(*copy));
	*copy = *pp;
	copy->components = (struct vec){0};
	for (int i = from; i < pp->components.n; i++)
		vec_push(&copy->components, pp->components.items[i]);
	struct probe_component *first = ast_alloc(sizeof(*first));
	*first = *probes_component(pp, from);
	first->arg = ast_new(NODE_STR, first->arg->loc, first->arg->tok);
	first->arg->u.str = text;
	copy->components.items[0] = first;
	return copy;
}

/* Whether build-id hex is in seen. */
static bool seen_before(struct vec *seen, const char *hex)
{
	for (int i = 0; i < seen->n; i++)
		if (!strcmp(seen->items[i], hex))
			return true;
	return false;
}

static bool debuginfod_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl,
			      struct vec *out)
{
	struct probe_component *root = probes_component(pp, 0);
	if (root->arg) {
		diag_error(root->loc, "'debuginfod' takes no argument");
		return false;
	}
	int at = 1;
	const char *archive = NULL;
	if (probes_component(pp, 1) && !strcmp(probes_component(pp, 1)->name, "archive")) {
		if (!(archive = glob_arg(pp, 1, "archive")))
			return false;
		at = 2;
	}
	const char *glob = glob_arg(pp, at, "process"), *why = NULL;
	if (!glob)
		return false;
	if (probes_ncomponents(pp) == at + 1) {
		diag_error(probes_component(pp, at)->loc, "debuginfod.process(\"%s\") needs what to probe in it: "
			   ".function(\"main\"), .begin, ...", glob);
		return false;
	}
	struct vec files = {0}, seen = {0};
	struct srcloc where = probes_component(pp, at)->arg->loc;
	if (!metadata_glob(glob, &files, &why)) {
		diag_error(where, "debuginfod.process(\"%s\"): %s", glob, why);
		return false;
	}
	for (int i = 0; i < files.n; i++) {
		const struct metadata_file *f = files.items[i];
		if (strcmp(f->type, "executable") || seen_before(&seen, f->buildid) ||
		    (archive && (!f->archive || fnmatch(archive, f->archive, 0))))
			continue;
		vec_push(&seen, (void *)f->buildid);
		if (!probes_resolve_as(s, rest_with(pp, at, f->buildid), tmpl, out))
			return false;
	}
	if (!seen.n && !pp->optional) {
		diag_error(where, "no executable on the debuginfod servers of DEBUGINFOD_URLS (%s) has a path matching "
			   "'%s'%s", getenv("DEBUGINFOD_URLS"), glob,
			   archive ? ast_printf(" in a package matching '%s'", archive) : "");
		return false;
	}
	return true;
}

const struct probe_provider probe_debuginfod = {
	.name = "debuginfod",
	.patterns = (const char *const[]){
		"debuginfod{,.archive(string)}.process(string).{begin,end,function(string),statement(string),mark(string),plt}",
		NULL,
	},
	.expand = debuginfod_expand,
};
