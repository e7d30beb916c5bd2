/*
 * probes/kprobe.c - kprobe.function("sym"), kprobe.module("m").function("sym")
 * and .return: by symbol name, no debuginfo. Also the table for every
 * kprobe-attached family (kernel.function and kernel.statement resolve to
 * this provider with an offset, a scope, and values saved at entry).
 */
#include <string.h>

#include "debuginfo/kernel.h"
#include "diag.h"
#include "probes.h"
#include "targetvar.h"

static bool valid_symbol(const char *sym)
{
	if (!*sym)
		return false;
	for (const char *p = sym; *p; p++)
		if (!(*p == '_' || *p == '.' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return false;
	return true;
}

static bool kprobe_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	int next = 1;
	const char *module = NULL;
	struct probe_component *fn = probes_component(pp, 1);
	if (fn && !strcmp(fn->name, "module")) {
		if (!fn->arg || fn->arg->kind != NODE_STR || !valid_symbol(kernel_module_name(fn->arg->u.str))) {
			diag_error(fn->loc, "kprobe.module needs a module name in quotes: kprobe.module(\"name\")");
			return false;
		}
		module = fn->arg->u.str;
		/* a typo would otherwise wait silently for a module that never comes ('?': let it) */
		const char *missing = pp->optional ? NULL : kernel_module_missing(s, module);
		if (missing) {
			diag_error(fn->arg->loc, "%s", missing);
			return false;
		}
		fn = probes_component(pp, ++next);
	}
	if (!fn || strcmp(fn->name, "function")) {
		diag_error(fn ? fn->loc : pp->loc, "expected kprobe%s.function(\"name\")", module ? ".module(\"m\")" : "");
		return false;
	}
	if (!fn->arg || fn->arg->kind != NODE_STR) {
		diag_error(fn->loc, "kprobe.function needs a function name in quotes");
		return false;
	}
	if (!valid_symbol(fn->arg->u.str)) {
		diag_error(fn->arg->loc, "'%s' is not a kernel symbol name (wildcards need debuginfo: "
			   "use kernel.function)", fn->arg->u.str);
		return false;
	}
	struct probe_component *ret = probes_component(pp, next + 1);
	if (ret && (strcmp(ret->name, "return") || ret->arg || probes_ncomponents(pp) > next + 2)) {
		diag_error(ret->loc, "unexpected '.%s' after kprobe.function(...): only .return is valid", ret->name);
		return false;
	}
	if (module && !pp->optional) {
		const char *missing = kernel_module_function_missing(s, module, fn->arg->u.str);
		if (missing) {
			diag_error(fn->arg->loc, "%s", missing);
			return false;
		}
	}
	out->symbol = module ? ast_printf("%s:%s", kernel_module_name(module), fn->arg->u.str) : fn->arg->u.str;
	out->is_return = ret != NULL;
	return true;
}

static void kprobe_defines(struct emitter *e)
{
	emit_line(e, "#define STP_HAVE_KPROBES 1");
	emit_line(e, "#define STP_HAVE_KPROBE_BODIES 1 /* the table comes with STP_KPROBE_BODIES */");
}

static void kprobe_table(struct emitter *e, struct session *s, struct vec *mine)
{
	/* .return probes that read values at the function's entry: their entry handlers */
	for (int i = 0; i < mine->n; i++) {
		struct resolved_probe *r = mine->items[i];
		const char *name = ast_printf("probe_%d_entry", r->probe->index);
		if (!r->is_return || !targetvar_emit_entry(e, s, r->scope, r->probe, name))
			continue;
		emit_line(e, "static struct _stp_probe _stp_entry_probe_%d = { .body = %s, .pp = %s, .location = \"%s:%d:%d\" };",
			  r->index, name, emit_c_string(r->pp), r->point->loc.file, r->point->loc.line, r->point->loc.col);
		emit_blank(e);
	}
	emit_open(e, "static struct _stp_kprobe_probe _stp_kprobe_probes[] = {");
	for (int i = 0; i < mine->n; i++) {
		struct resolved_probe *r = mine->items[i];
		bool saves = r->is_return && r->scope && r->scope->saved.n;
		emit_line(e, "{ .probe = &_stp_probes[%d], .symbol = %s, .offset = %lld, .is_return = %d, .maxactive = %lld, "
			  ".optional = %d%s },",
			  r->index, emit_c_string(r->symbol), (long long)r->offset, r->is_return, (long long)r->maxactive,
			  r->point->optional, saves ? ast_printf(", .entry = &_stp_entry_probe_%d, .data_size = %s", r->index,
							    targetvar_entry_size(r->scope)) : "");
	}
	emit_close(e, "};");
	/* One handler per kprobe, each calling its body directly (runtime/linux/kprobes.c). */
	char *list = ast_strdup("#define STP_KPROBE_BODIES(X)");
	for (int i = 0; i < mine->n; i++)
		list = ast_printf("%s X(%d, %d)", list, i, ((struct resolved_probe *)mine->items[i])->index);
	emit_line(e, "%s", list);
}

const struct probe_provider probe_kprobe = {
	.name = "kprobe",
	.resolve = kprobe_resolve,
	.emit_defines = kprobe_defines,
	.emit_table = kprobe_table,
	.families = (const struct runtime_family[]){{"kprobes", 2, 6}, {0}},
};
