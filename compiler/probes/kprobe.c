/*
 * probes/kprobe.c - kprobe.function("sym"), kprobe.module("m").function("sym")
 * and .return: by symbol name, no debuginfo. Also the table for every
 * kprobe-attached family (kernel.function and kernel.statement resolve to
 * this provider with an offset, a scope, and values saved at entry).
 */
#include <stdlib.h>
#include <string.h>

#include "debuginfo/kernel.h"
#include "debuginfo/ktext.h"
#include "debuginfo/suggest.h"
#include "codegen.h"
#include "diag.h"
#include "probes.h"
#include "probes/kprobe.h"
#include "syscalls.h"
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

/* kprobe.statement(ADDRESS).absolute: guru mode, the address as the running kernel has it. */
static bool statement_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	struct probe_component *st = probes_component(pp, 1), *abs = probes_component(pp, 2);
	if (!st->arg || st->arg->kind != NODE_NUM || st->arg->u.num == 0) {
		diag_error(st->loc, "kprobe.statement needs an address: kprobe.statement(0xADDRESS).absolute");
		return false;
	}
	if (!abs || strcmp(abs->name, "absolute") || abs->arg || probes_ncomponents(pp) > 3) {
		diag_error(abs ? abs->loc : pp->loc, "kprobe.statement(ADDRESS) needs .absolute (and nothing else after it): "
			   "the address is the running kernel's, unchecked");
		return false;
	}
	if (!s->guru) {
		diag_error(abs->loc, "kprobe.statement(ADDRESS).absolute needs guru mode (-g): the address is not checked "
			   "against the kernel's code");
		return false;
	}
	struct kprobe_point *kp = ast_alloc(sizeof(*kp));
	kp->offset = st->arg->u.num;
	out->data = kp;
	return true;
}

/* After function("f"): nothing, .call, .return or .return.maxactive(N), from component i on. */
static bool function_suffix(struct probe_point *pp, int i, struct kprobe_point *kp)
{
	struct probe_component *c = probes_component(pp, i);
	if (!c)
		return true;
	if (c->arg || (strcmp(c->name, "call") && strcmp(c->name, "return"))) {
		diag_error(c->loc, "unexpected '.%s' after kprobe.function(...): expected .call, .return or "
			   ".return.maxactive(N)", c->name);
		return false;
	}
	kp->is_return = !strcmp(c->name, "return");
	struct probe_component *m = probes_component(pp, i + 1);
	if (!m)
		return true;
	if (!kp->is_return || strcmp(m->name, "maxactive") || probes_ncomponents(pp) > i + 2) {
		struct probe_component *bad = kp->is_return && !strcmp(m->name, "maxactive") ? probes_component(pp, i + 2) : m;
		diag_error(bad->loc, "unexpected '.%s' after kprobe.function(...).%s%s", bad->name,
			   bad == m ? c->name : "return.maxactive(N)",
			   bad == m && kp->is_return ? ": only .maxactive(N) may follow" : "");
		return false;
	}
	if (!m->arg || m->arg->kind != NODE_NUM || m->arg->u.num < 1 || m->arg->u.num > 4096) {
		diag_error(m->loc, ".maxactive(N) needs N from 1 to 4096: the return instances in flight");
		return false;
	}
	kp->maxactive = m->arg->u.num;
	return true;
}

/*
 * kprobe.function(NAME) of a symbol the System.map lacks (error missing):
 * the error, with the same function behind an arch or syscall prefix the
 * map lists (suggest.h) in a note; with --adapt, a warning and the
 * __x64_sys_ one, or the only one. Returns the symbol to probe, or NULL.
 */
static const char *symbol_instead(struct session *s, struct node *arg, const char *missing)
{
	struct vec forms = {0}, found = {0};
	suggest_prefix_forms(arg->u.str, &forms);
	for (int i = 0; i < forms.n; i++)
		if (kernel_symbol_known(s, forms.items[i]))
			vec_push(&found, forms.items[i]);
	const char *prefix = syscalls_wrapper_prefix(s);
	const char *pick = found.n && !strncmp(found.items[0], prefix, strlen(prefix)) ? found.items[0]
			   : found.n == 1 ? found.items[0] : NULL;
	if (pick && s->adapt) {
		diag_warning(arg->loc, "adapted kprobe.function(\"%s\") to kprobe.function(\"%s\") (--adapt)", arg->u.str,
			     pick);
		return pick;
	}
	diag_error(arg->loc, "%s", missing);
	if (found.n) {
		const char *list = "";
		for (int i = 0; i < found.n; i++)
			list = ast_printf("%s%s%s", list, i ? ", " : "", (const char *)found.items[i]);
		diag_note(arg->loc, "the kernel has it behind a prefix: %s%s", list,
			  s->adapt ? " (--adapt applies a suggestion only when it is the only one)" : "");
	}
	return NULL;
}

/*
 * One kprobe point into out; *skip set (and true returned) for an optional
 * kernel function the target's symbol table (or, without one, its
 * debuginfo) does not have, as '?' means.
 */
static bool kprobe_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out, bool *skip)
{
	int next = 1;
	const char *module = NULL;
	struct probe_component *fn = probes_component(pp, 1);
	if (probes_component(pp, 0)->arg) {
		diag_error(probes_component(pp, 0)->loc, "'kprobe' takes no argument");
		return false;
	}
	if (fn && !strcmp(fn->name, "statement"))
		return statement_resolve(s, pp, out);
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
		diag_error(fn ? fn->loc : pp->loc, "expected kprobe%s.function(\"name\")%s", module ? ".module(\"m\")" : "",
			   module ? "" : " or kprobe.statement(ADDRESS).absolute");
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
	struct kprobe_point *kp = ast_alloc(sizeof(*kp));
	if (!function_suffix(pp, next + 1, kp))
		return false;
	const char *symbol = fn->arg->u.str;
	if (!module) {
		/* checked now against the target's symbol table (or its debuginfo); with '?' it is skipped */
		const char *missing = kprobe_function_unknown(s, symbol);
		if (missing && pp->optional) {
			*skip = true;
			return true;
		}
		if (missing && !(symbol = symbol_instead(s, fn->arg, missing)))
			return false;
	}
	if (module && !pp->optional) {
		const char *missing = kernel_module_function_missing(s, module, fn->arg->u.str);
		if (missing) {
			diag_error(fn->arg->loc, "%s", missing);
			return false;
		}
	}
	kp->symbol = module ? ast_printf("%s:%s", kernel_module_name(module), symbol) : symbol;
	out->data = kp;
	return true;
}

/*
 * What the rows need beyond an entry kprobe on a kernel symbol: the runtime
 * compiles out kretprobes without a .return probe, the module notifier
 * without a "module:symbol" row, and the skip-with-a-warning path without a
 * wildcard's match (runtime/linux/probes/kprobes.c, modules.c).
 */
static void kprobe_defines(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	bool returns = false, modules = false, wildcard = false, callee = false, callers = false;
	for (int i = 0; i < mine->n; i++) {
		const struct kprobe_point *kp = ((const struct resolved_probe *)mine->items[i])->data;
		returns |= kp->is_return;
		modules |= kp->symbol && strchr(kp->symbol, ':');
		wildcard |= kp->wildcard;
		callee |= kp->callee_return != 0;
		callers |= kp->ncallers > 0;
	}
	emit_line(e, "#define STP_HAVE_KPROBE_BODIES 1 /* a small table comes with STP_KPROBE_BODIES */");
	if (returns)
		emit_line(e, "#define STP_KPROBES_RETURN 1 /* some probe is a .return: kretprobes */");
	if (modules)
		emit_line(e, "#define STP_KPROBES_MODULES 1 /* some probe is in a module: the module notifier */");
	if (wildcard)
		emit_line(e, "#define STP_KPROBES_WILDCARD 1 /* a wildcard's match that cannot attach is skipped */");
	if (callee)
		emit_line(e, "#define STP_KPROBES_CALLEE 1 /* a .callee probe checks its caller on each hit */");
	if (callers)
		emit_line(e, "#define STP_KPROBES_CALLERS 1 /* a .callees(N) probe also walks the stack for its callers' */");
}

/*
 * Entry probes on more kernel functions than get an ftrace_ops each
 * (STP_FTRACE_MAX's default) share one (runtime/linux/probes/ftrace_multi.c):
 * those whose ftrace call site pass 2 found (ktext.h), or, for a kernel
 * known from BTF only, whose site the module finds by name when it starts
 * (site_at_load: the whole table then goes by name). So do .return
 * probes there (runtime/linux/probes/ftrace_return.c), except those that save
 * values at entry (@entry, target variables other than $return), take
 * .maxactive(N) or are .callee returns: kretprobes.
 */
#define FENTRY_SHARED_MIN 9
/* A kprobe table up to this size gets a handler (and an ftrace twin) per probe; a larger one shares one. */
#define KPROBE_BODIES_MAX 64

static bool fentry_eligible(const struct resolved_probe *r)
{
	const struct kprobe_point *kp = r->data;
	if (kp->is_return && (kp->maxactive || (r->scope && r->scope->saved.n)))
		return false;
	return kp->symbol && kp->offset == 0 && ((kp->ftrace_site && kp->ktext) || kp->site_at_load) &&
	       !strchr(kp->symbol, ':') && !kp->callee_return;
}

/* Which function comes first: by site, or by name when the sites are found at load. */
static int compare_function(const struct kprobe_point *x, const struct kprobe_point *y)
{
	if (x->ftrace_site != y->ftrace_site)
		return x->ftrace_site < y->ftrace_site ? -1 : 1;
	return x->ftrace_site ? 0 : strcmp(x->symbol, y->symbol);
}

/* By function, the entry probe before the .return of the same function. */
static int compare_site(const void *a, const void *b)
{
	const struct kprobe_point *x = (*(const struct resolved_probe *const *)a)->data;
	const struct kprobe_point *y = (*(const struct resolved_probe *const *)b)->data;
	int c = compare_function(x, y);
	return c ? c : (int)x->is_return - (int)y->is_return;
}

/* Whether the i-th and j-th probes of rows are on the same function. */
static bool same_function(struct vec *rows, int i, int j)
{
	return !compare_function(((struct resolved_probe *)rows->items[i])->data,
				 ((struct resolved_probe *)rows->items[j])->data);
}

/* The site of the i-th probe of rows. */
static uint64_t row_site(struct vec *rows, int i)
{
	return ((struct kprobe_point *)((struct resolved_probe *)rows->items[i])->data)->ftrace_site;
}

/* The hash slot of a site: the runtime computes the same (_stp_fentry_slot). */
static uint32_t fentry_slot(uint64_t site, int bits)
{
	return (uint32_t)((site * 0x9E3779B97F4A7C15ull) >> (64 - bits));
}

/* The KASLR reference addresses of a table of link-time sites, or the by-name define. */
static void fentry_reference(struct emitter *e, const struct ktext *kt)
{
	uint64_t ref_filter = 0, ref_register = 0;
	emit_line(e, "#define STP_FTRACE_MULTI 1");
	if (!kt) {
		emit_line(e, "#define STP_FENTRY_BY_NAME 1 /* BTF only: the sites are found by name at start */");
		return;
	}
	ktext_symbol(kt, "ftrace_set_filter_ips", &ref_filter);
	ktext_symbol(kt, "register_ftrace_function", &ref_register);
	emit_line(e, "#define STP_FENTRY_REF_FILTER 0x%llxUL /* ftrace_set_filter_ips in the image compiled against */",
		  (unsigned long long)ref_filter);
	emit_line(e, "#define STP_FENTRY_REF_REGISTER 0x%llxUL /* register_ftrace_function */",
		  (unsigned long long)ref_register);
}

/*
 * _stp_fentries[] (one row per function: its entry probe and its .return,
 * from rows sorted by compare_site, at most one of each per function), its
 * hash index and the KASLR reference addresses. By name (sites 0), the
 * table and its index are filled in by the module when it starts.
 */
static void fentry_table(struct emitter *e, struct vec *rows)
{
	const struct kprobe_point *first = ((struct resolved_probe *)rows->items[0])->data;
	bool by_name = !first->ftrace_site, regs = false;
	fentry_reference(e, by_name ? NULL : first->ktext);
	emit_open(e, by_name ? "static struct _stp_fentry _stp_fentries[] = {" : "static const struct _stp_fentry _stp_fentries[] = {");
	int n = 0;
	bool returns = false;
	for (int i = 0; i < rows->n; i++) {
		struct resolved_probe *r = rows->items[i], *ret = NULL;
		const struct kprobe_point *kp = r->data;
		if (kp->is_return) {
			ret = r;
			r = NULL;
		} else if (i + 1 < rows->n && same_function(rows, i, i + 1)) {
			ret = rows->items[++i];
		}
		if (r)
			regs |= r->probe->uses_regs;
		returns |= ret != NULL;
		emit_line(e, "{ 0x%llxUL, %s, %s, %d%s },", (unsigned long long)kp->ftrace_site,
			  r ? ast_printf("&_stp_probes[%d]", r->index) : "NULL", emit_c_string(kp->symbol),
			  kp->wildcard || (ret && ((struct kprobe_point *)ret->data)->wildcard),
			  ret ? ast_printf(", &_stp_probes[%d]", ret->index) : "");
		n++;
	}
	emit_close(e, "};");
	if (regs)
		emit_line(e, "#define STP_FENTRY_REGS 1 /* some body reads the registers */");
	if (returns)
		emit_line(e, "#define STP_FENTRY_RETURN 1 /* some row has a .return: the shared return trampoline */");
	int bits = 4;
	while ((1 << bits) < 2 * n)
		bits++;
	emit_line(e, "#define STP_FENTRY_HASH_BITS %d", bits);
	if (by_name) {
		emit_line(e, "static u32 _stp_fentry_hash[1 << STP_FENTRY_HASH_BITS];");
		return;
	}
	uint32_t *slots = calloc((size_t)1 << bits, sizeof(*slots));
	for (int i = 0, row = 0; i < rows->n; i++) {
		if (i && row_site(rows, i) == row_site(rows, i - 1))
			continue;	/* the .return of the row before */
		uint32_t j = fentry_slot(row_site(rows, i), bits);
		while (slots[j])
			j = (j + 1) & ((1u << bits) - 1);
		slots[j] = (uint32_t)++row;
	}
	emit_open(e, "static const u32 _stp_fentry_hash[1 << STP_FENTRY_HASH_BITS] = {");
	for (int i = 0; i < (1 << bits); i += 16) {
		char line[16 * 12] = "";
		size_t len = 0;
		for (int j = i; j < i + 16 && j < (1 << bits); j++)
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%u,", slots[j]);
		emit_line(e, "%s", line);
	}
	emit_close(e, "};");
	free(slots);
}

/* .callees(N): the callers' call sites, ", .callers = (const long[]){...}, .ncallers = N", or "". */
static const char *callers_text(const struct kprobe_point *kp)
{
	if (!kp->ncallers)
		return "";
	const char *list = "";
	for (int i = 0; i < kp->ncallers; i++)
		list = ast_printf("%s%s%lldL", list, i ? ", " : "", (long long)kp->callers[i]);
	return ast_printf(", .callers = (const long[]){%s}, .ncallers = %d", list, kp->ncallers);
}

static void kprobe_table(struct emitter *e, struct session *s, struct vec *mine)
{
	/* entry probes that share one ftrace hook; the others are kprobes */
	struct vec shared = {0}, rows = {0};
	for (int i = 0; i < mine->n; i++)
		if (fentry_eligible(mine->items[i]))
			vec_push(&shared, mine->items[i]);
	bool share = shared.n >= FENTRY_SHARED_MIN;
	if (share) {
		/*
		 * a function a second entry (or .return) probe also names keeps its
		 * own hook for that one (a kprobe or kretprobe row)
		 */
		qsort(shared.items, (size_t)shared.n, sizeof(void *), compare_site);
		int n = 0;
		for (int i = 0; i < shared.n; i++) {
			struct kprobe_point *kp = ((struct resolved_probe *)shared.items[i])->data;
			struct kprobe_point *prev = n ? ((struct resolved_probe *)shared.items[n - 1])->data : NULL;
			if (prev && !compare_function(kp, prev) && kp->is_return == prev->is_return) {
				kp->ftrace_site = 0; /* not eligible any more */
				kp->site_at_load = false;
			} else {
				shared.items[n++] = shared.items[i];
			}
		}
		shared.n = n;
	}
	for (int i = 0; i < mine->n; i++)
		if (!share || !fentry_eligible(mine->items[i]))
			vec_push(&rows, mine->items[i]);
	if (share)
		fentry_table(e, &shared);
	/* .return probes that read values at the function's entry: their entry handlers */
	for (int i = 0; i < rows.n; i++) {
		struct resolved_probe *r = rows.items[i];
		const char *name = ast_printf("probe_%d_entry", r->probe->index);
		if (!((struct kprobe_point *)r->data)->is_return || !targetvar_emit_entry(e, s, r->scope, r->probe, name))
			continue;
		emit_line(e, "static struct _stp_probe _stp_entry_probe_%d = { .body = %s, .pp = %s, .location = \"%s:%d:%d\"%s };",
			  r->index, name, emit_c_string(r->pp), r->point->loc.file, r->point->loc.line, r->point->loc.col,
			  r->syscall_wrapper ? ", .syscall_args = 1" : "");
		emit_blank(e);
	}
	emit_open(e, "static struct _stp_kprobe_probe _stp_kprobe_probes[] = {");
	for (int i = 0; i < rows.n; i++) {
		struct resolved_probe *r = rows.items[i];
		const struct kprobe_point *kp = r->data;
		bool saves = kp->is_return && r->scope && r->scope->saved.n;
		emit_line(e, "{ .probe = &_stp_probes[%d], .symbol = %s, .offset = %s, .is_return = %d, .maxactive = %lld, "
			  ".optional = %d%s%s%s },",
			  r->index, kp->symbol ? emit_c_string(kp->symbol) : "NULL",
			  kp->symbol ? ast_printf("%lld", (long long)kp->offset)
				     : ast_printf("0x%llxUL", (unsigned long long)kp->offset), kp->is_return, (long long)kp->maxactive,
			  r->point->optional, kp->wildcard ? ", .wildcard = 1" : "",
			  kp->callee_return ? ast_printf(", .callee_return = %lldL%s", (long long)kp->callee_return,
							  callers_text(kp)) : "",
			  saves ? ast_printf(", .entry = &_stp_entry_probe_%d, .data_size = %s", r->index,
					     targetvar_entry_size(r->scope)) : "");
	}
	emit_close(e, "};");
	/* One handler per kprobe, each calling its body directly (runtime/linux/probes/kprobes.c); a large table shares one. */
	if (rows.n > KPROBE_BODIES_MAX)
		return;
	char *list = ast_strdup("#define STP_KPROBE_BODIES(X)");
	for (int i = 0; i < rows.n; i++)
		list = ast_printf("%s X(%d, %d)", list, i, ((struct resolved_probe *)rows.items[i])->index);
	emit_line(e, "%s", list);
}

static const char *kprobe_function(const struct resolved_probe *r)
{
	return ((const struct kprobe_point *)r->data)->symbol;
}

/* A point resolves to one probe, or to none when it is optional and its function is missing. */
static bool kprobe_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl, struct vec *out)
{
	struct resolved_probe *r = ast_alloc(sizeof(*r));
	bool skip = false;
	*r = *tmpl;
	if (!kprobe_resolve(s, pp, r, &skip))
		return false;
	if (!skip)
		vec_push(out, r);
	return true;
}

static bool kprobe_is_return(const struct resolved_probe *r)
{
	return ((const struct kprobe_point *)r->data)->is_return;
}

const struct probe_provider probe_kprobe = {
	.name = "kprobe",
	.patterns = (const char *const[]){
		"kprobe{,.module(string)}.function(string){,.call,.return,.return.maxactive(number)}",
		"kprobe.statement(number).absolute",
		NULL,
	},
	.kernel_function = kprobe_function,
	.expand = kprobe_expand,
	.is_return = kprobe_is_return,
	.feature = "STP_HAVE_KPROBES",
	.emit_defines = kprobe_defines,
	.emit_table = kprobe_table,
	.runtime = (const struct runtime_file[]){{"kprobes", 2, 6}, {"modules", 0, 0}, {0}},
};

const char *kprobe_function_unknown(struct session *s, const char *name)
{
	const struct syscalls_param *params;
	const char *missing = kernel_function_unknown(s, name);
	if (missing && !kernel_has_symbol_table(s) && syscalls_params(s, name, &params) >= 0)
		return NULL;
	return missing;
}
