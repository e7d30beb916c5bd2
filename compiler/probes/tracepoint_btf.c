/*
 * probes/tracepoint_btf.c - kernel.tracepoint("name") and
 * module("m").tracepoint("name") (SystemTap 5.5): tracepoints found through
 * the btf_trace_NAME typedefs alone, no trace headers, arguments positional.
 *
 * Every tracepoint declares "typedef void (*btf_trace_NAME)(void *, ARGS...)"
 * for BPF, in the BTF (or DWARF) of vmlinux or of the module defining it, so
 * the typedefs of the target's debuginfo list them with their argument
 * types. The leading void * is the callback's data pointer (the cookie);
 * the others are $arg1, $arg2... with their declared types, so
 * $arg1->comm reads a task's name at sched_process_exec. The points are
 * attached by the kernel.trace family (tracepoint.c), whose runtime finds
 * each by name at start, or as its module loads.
 */
#include <string.h>

#include "debuginfo/kernel.h"
#include "diag.h"
#include "probes.h"
#include "tracepoint.h"

/* The quoted name of component i, or NULL after an error naming what it should be. */
static const char *quoted_arg(struct probe_point *pp, int i, const char *usage)
{
	struct probe_component *c = probes_component(pp, i);
	if (!c->arg || c->arg->kind != NODE_STR || !*c->arg->u.str) {
		diag_error(c->loc, "%s needs a name in quotes: %s", c->name, usage);
		return NULL;
	}
	return c->arg->u.str;
}

/*
 * The tracepoints of module (NULL: vmlinux) matching the glob of component
 * name_at, as probes onto out; an error (or nothing, for an optional point)
 * when none matches.
 */
static bool expand_in(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl, struct vec *out,
		      const char *module, int name_at, const char *usage)
{
	struct probe_component *c = probes_component(pp, name_at);
	if (probes_ncomponents(pp) > name_at + 1) {
		struct probe_component *extra = probes_component(pp, name_at + 1);
		diag_error(extra->loc, "unexpected '.%s' after %s", extra->name, usage);
		return false;
	}
	const char *pattern = quoted_arg(pp, name_at, usage), *err = NULL;
	if (!pattern)
		return false;
	const char *missing = module ? kernel_module_missing(s, module) : NULL;
	struct debuginfo *di = missing ? NULL : kernel_debuginfo(s, module ? module : "kernel", &err);
	if (!di) {
		if (pp->optional)
			return true; /* '?': no module or debuginfo is no match */
		diag_error(probes_component(pp, module ? 0 : name_at)->loc, "%s", missing ? missing : err);
		return false;
	}
	struct vec tds = {0};
	di->ops->typedefs(di, ast_printf("btf_trace_%s", pattern), &tds);
	for (int i = 0; i < tds.n; i++) {
		struct dbg_type *td = tds.items[i];
		const char *name = td->name + strlen("btf_trace_");
		const char *text = module ? ast_printf("module(\"%s\").tracepoint(\"%s\")", module, name)
					  : ast_printf("kernel.tracepoint(\"%s\")", name);
		vec_push(out, tracepoint_probe(tmpl, di, td, text, NULL, module ? kernel_module_name(module) : NULL, true));
	}
	if (!out->n && !pp->optional) {
		diag_error(c->arg->loc, "no tracepoint matches \"%s\" in %s of kernel %s [see man error::pass2]", pattern,
			   module ? ast_printf("module %s", module) : "vmlinux", s->release);
		return false;
	}
	return true;
}

static bool kernel_tracepoint_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl,
				     struct vec *out)
{
	if (probes_component(pp, 0)->arg) {
		diag_error(probes_component(pp, 0)->loc, "'kernel' takes no argument");
		return false;
	}
	return expand_in(s, pp, tmpl, out, NULL, 1, "kernel.tracepoint(\"name\")");
}

static bool module_tracepoint_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl,
				     struct vec *out)
{
	const char *module = quoted_arg(pp, 0, "module(\"name\").tracepoint(\"name\")");
	if (!module)
		return false;
	if (strpbrk(module, "*?[")) {
		diag_error(probes_component(pp, 0)->loc,
			   "module(\"%s\").tracepoint: name one module, without wildcards", module);
		return false;
	}
	return expand_in(s, pp, tmpl, out, module, 1, "module(\"name\").tracepoint(\"name\")");
}

const struct probe_provider probe_kernel_tracepoint = {
	.name = "kernel.tracepoint",
	.patterns = (const char *const[]){"kernel.tracepoint(string)", NULL},
	.expand = kernel_tracepoint_expand,
};

const struct probe_provider probe_module_tracepoint = {
	.name = "module.tracepoint",
	.patterns = (const char *const[]){"module(string).tracepoint(string)", NULL},
	.expand = module_tracepoint_expand,
};
