/* probes/kprobe.c - kprobe.function("sym") and .return: by symbol name, no debuginfo. */
#include <string.h>

#include "diag.h"
#include "probes.h"

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
	(void)s;
	struct probe_component *fn = probes_component(pp, 1);
	if (!fn || strcmp(fn->name, "function")) {
		diag_error(fn ? fn->loc : pp->loc, "expected kprobe.function(\"name\")");
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
	struct probe_component *ret = probes_component(pp, 2);
	if (ret && (strcmp(ret->name, "return") || ret->arg || probes_ncomponents(pp) > 3)) {
		diag_error(ret->loc, "unexpected '.%s' after kprobe.function(...): only .return is valid", ret->name);
		return false;
	}
	out->symbol = fn->arg->u.str;
	out->is_return = ret != NULL;
	return true;
}

static void kprobe_defines(struct emitter *e)
{
	emit_line(e, "#define STP_HAVE_KPROBES 1");
}

static void kprobe_table(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	emit_open(e, "static struct _stp_kprobe_probe _stp_kprobe_probes[] = {");
	for (int i = 0; i < mine->n; i++) {
		struct resolved_probe *r = mine->items[i];
		emit_line(e, "{ .probe = &_stp_probes[%d], .symbol = %s, .is_return = %d },", r->index,
			  emit_c_string(r->symbol), r->is_return);
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
};
