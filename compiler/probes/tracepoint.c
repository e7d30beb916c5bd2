/*
 * probes/tracepoint.c - kernel.trace("name") and kernel.trace("system:name"),
 * with wildcards, arguments as $name and $$parms.
 *
 * Which tracepoints the target kernel has, and their argument types: every
 * tracepoint declares "typedef void (*btf_trace_NAME)(void *, ARGS...)" for
 * BPF, so the typedefs of the target's debuginfo (BTF or DWARF) list them.
 * Argument names: the parameters of the function __bpf_trace_CLASS, where
 * CLASS is the event class (the event's own name for TRACE_EVENT, the first
 * argument of DEFINE_EVENT). Classes and system names come from the target's
 * trace headers (BUILD/include/trace/events/NAME.h: #define TRACE_SYSTEM and the
 * TRACE_EVENT / DEFINE_EVENT invocations); a tracepoint those headers do not
 * describe has no system and arguments named $arg1, $arg2... Where the BTF has no
 * __bpf_trace_CLASS (5.10's pahole left those static functions out), the names come
 * from the event's TP_PROTO(...) in the same headers, when it has as many parameters
 * as the typedef.
 *
 * Tracepoints of a loadable module: kernel.trace("SYSTEM:name") with a
 * literal SYSTEM that names a module of the target (sunrpc, nfs, nfsd) also
 * searches that module's typedefs (its BTF over vmlinux's, or its DWARF).
 * Such an event's system is its header's TRACE_SYSTEM where the build tree's
 * trace headers describe it, else the module's name; its class (for the
 * argument names) comes from the .ko's relocations when no header names it
 * (kernel_module_tracepoint_class).
 *
 * At run time the module finds each tracepoint by name
 * (for_each_kernel_tracepoint, or the module's own tracepoints as it loads)
 * and registers a callback taking the arguments as unsigned longs;
 * targetvar.c narrows them to their declared types.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "syscalls.h"
#include "arch.h"
#include "debuginfo/kernel.h"
#include "diag.h"
#include "probes.h"
#include "families.h"
#include "targetvar.h"
#include "tracepoint.h"

/* What the trace headers say about one event. */
struct tp_info {
	const char *name;
	const char *system;
	const char *class_name;
	struct vec proto;     /* of const char *: the names of TP_PROTO's parameters, in order */
	bool has_proto;       /* proto was read (an empty one is TP_PROTO(void)) */
};

/* What the family keeps per session (session.tracepoints). */
struct tracepoint_state {
	struct vec header_events; /* of struct tp_info *: the events the trace headers define */
	bool headers_read;        /* header_events is complete */
};

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\\')
		p++;
	return p;
}

static const char *identifier(const char **pp)
{
	const char *p = skip_space(*pp), *start = p;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	*pp = p;
	return p > start ? ast_strndup(start, (size_t)(p - start)) : NULL;
}

/* The last identifier in [p, end): a parameter's name ("struct task_struct *prev" -> prev). */
static char *last_identifier(const char *p, const char *end)
{
	const char *fp = strstr(p, "(*");
	if (fp && fp < end) /* a function pointer: void (*fn)(int) */
		p = fp + 2, end = strchr(p, ')') ? strchr(p, ')') : end;
	while (end > p && !((end[-1] >= 'a' && end[-1] <= 'z') || (end[-1] >= 'A' && end[-1] <= 'Z') ||
			    (end[-1] >= '0' && end[-1] <= '9') || end[-1] == '_')) {
		if (end[-1] == ']') /* an array: char name[16] */
			while (end > p && end[-1] != '[')
				end--;
		if (end > p)
			end--;
	}
	const char *start = end;
	while (start > p && ((start[-1] >= 'a' && start[-1] <= 'z') || (start[-1] >= 'A' && start[-1] <= 'Z') ||
			     (start[-1] >= '0' && start[-1] <= '9') || start[-1] == '_'))
		start--;
	return end > start ? ast_strndup(start, (size_t)(end - start)) : NULL;
}

/* The parameter names of the TP_PROTO(...) that follows an event's name at q, into ti. */
static void read_proto(struct tp_info *ti, const char *q)
{
	q = skip_space(q);
	if (*q != ',')
		return;
	q = skip_space(q + 1);
	if (strncmp(q, "TP_PROTO(", 9))
		return;
	q += 9;
	ti->has_proto = true;
	int depth = 0;
	const char *start = q;
	for (; *q && (depth > 0 || *q != ')'); q++) {
		if (*q == '(')
			depth++;
		else if (*q == ')')
			depth--;
		else if (*q == ',' && depth == 0) {
			vec_push(&ti->proto, last_identifier(start, q));
			start = q + 1;
		}
	}
	char *last = last_identifier(start, q);
	if (last && strcmp(last, "void"))
		vec_push(&ti->proto, last);
}

/* Scan one trace header for its TRACE_SYSTEM and event definitions. */
static void scan_header(struct tracepoint_state *st, const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return;
	char *text = NULL;
	size_t cap = 0, len = 0, n;
	char buf[65536];
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0) {
		if (len + n + 1 > cap) {
			cap = (len + n + 1) * 2;
			text = realloc(text, cap);
		}
		memcpy(text + len, buf, n);
		len += n;
	}
	fclose(f);
	if (!text)
		return;
	text[len] = '\0';
	const char *system = NULL;
	const char *def = strstr(text, "#define TRACE_SYSTEM ");
	if (def) {
		const char *p = def + strlen("#define TRACE_SYSTEM ");
		system = identifier(&p);
	}
	static const struct {
		const char *macro;
		bool has_class; /* first argument is the class, second the event */
	} macros[] = {
		{"TRACE_EVENT(", false}, {"TRACE_EVENT_FN(", false}, {"TRACE_EVENT_CONDITION(", false},
		{"TRACE_EVENT_FN_COND(", false}, {"DEFINE_EVENT(", true}, {"DEFINE_EVENT_FN(", true},
		{"DEFINE_EVENT_CONDITION(", true}, {"DEFINE_EVENT_PRINT(", true},
		{"TRACE_EVENT_SYSCALL(", false}, /* raw_syscalls' sys_enter/sys_exit where TRACE_EVENT_FN is not used (7.2) */
	};
	for (size_t m = 0; m < sizeof(macros) / sizeof(macros[0]); m++) {
		size_t ml = strlen(macros[m].macro);
		for (const char *p = strstr(text, macros[m].macro); p; p = strstr(p + ml, macros[m].macro)) {
			/* a whole word at the start of a line (not a #define of the macro itself) */
			if (p > text && (p[-1] != '\n' && p[-1] != ' ' && p[-1] != '\t'))
				continue;
			const char *q = p + ml;
			const char *first = identifier(&q);
			const char *second = NULL;
			if (macros[m].has_class) {
				q = skip_space(q);
				if (*q == ',') {
					q++;
					second = identifier(&q);
				}
			}
			if (!first || (macros[m].has_class && !second))
				continue;
			struct tp_info *ti = ast_alloc(sizeof(*ti));
			ti->name = macros[m].has_class ? second : first;
			ti->class_name = first;
			ti->system = system;
			read_proto(ti, q);
			vec_push(&st->header_events, ti);
		}
	}
	free(text);
}

static void read_headers(struct session *s)
{
	if (!s->tracepoints)
		s->tracepoints = ast_alloc(sizeof(*s->tracepoints));
	struct tracepoint_state *st = s->tracepoints;
	if (st->headers_read)
		return;
	st->headers_read = true;
	/* Debian splits the headers: BUILD (per flavour) and /lib/modules/R/source (common) */
	/* ... and another architecture's under its root (arch.h), its common tree named by BUILD/Makefile */
	const char *roots[] = {s->kernel_build, ast_printf("%s/source", s->kernel_build),
			       ast_printf("%s/lib/modules/%s/source", s->kernel_root ? s->kernel_root : "", s->release),
			       arch_is_cross(s) ? syscalls_source_tree(s->kernel_build) : NULL};
	const char *dirs[] = {"include/trace/events",
			      ast_printf("arch/%s/include/asm/trace", s->arch ? s->arch->kbuild : "x86")};
	for (size_t r = 0; r < sizeof(roots) / sizeof(roots[0]) && roots[r]; r++) {
		for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
			const char *dir = ast_printf("%s/%s", roots[r], dirs[i]);
			DIR *d = opendir(dir);
			struct dirent *e;
			while (d && (e = readdir(d)) != NULL) {
				size_t n = strlen(e->d_name);
				if (n > 2 && !strcmp(e->d_name + n - 2, ".h"))
					scan_header(st, ast_printf("%s/%s", dir, e->d_name));
			}
			if (d)
				closedir(d);
		}
	}
}

static struct tp_info *header_info(struct session *s, const char *name)
{
	if (!s->tracepoints)
		return NULL;
	for (int i = 0; i < s->tracepoints->header_events.n; i++) {
		struct tp_info *ti = s->tracepoints->header_events.items[i];
		if (!strcmp(ti->name, name))
			return ti;
	}
	return NULL;
}

/*
 * The arguments of the tracepoint whose typedef is td, named from __bpf_trace_CLASS, else
 * from its header's TP_PROTO (ti, NULL if no header describes it); positional: $arg1... only.
 */
static struct target_scope *tp_scope(struct debuginfo *di, struct dbg_type *td, const char *name, const char *class_name,
				     const struct tp_info *ti, bool positional, int *nargs)
{
	struct target_scope *sc = ast_alloc(sizeof(*sc));
	sc->di = di;
	sc->what = ast_printf("tracepoint %s", name);
	struct dbg_type *ptr = dbg_type_strip(td);
	struct dbg_type *fn = ptr && ptr->kind == DBG_PTR ? dbg_type_strip(ptr->target) : NULL;
	const struct vec *params = fn && fn->kind == DBG_FUNC ? dbg_type_members(fn) : NULL;
	struct vec named = {0};
	struct vec funcs = {0};
	if (!positional)
		dbg_functions(di, ast_printf("__bpf_trace_%s", class_name ? class_name : name), NULL, false, &funcs);
	if (funcs.n)
		dbg_variables(di, funcs.items[0], ((struct dbg_func *)funcs.items[0])->addr, &named);
	*nargs = 0;
	for (int i = 1; params && i < params->n; i++) { /* parameter 0 is the callback's data pointer */
		struct dbg_member *p = params->items[i];
		struct dbg_var *v = ast_alloc(sizeof(*v));
		struct dbg_var *nv = i < named.n ? named.items[i] : NULL;
		const char *proto = !funcs.n && !positional && ti && ti->has_proto && ti->proto.n == params->n - 1 ? ti->proto.items[i - 1] : NULL;
		v->name = nv && nv->is_param ? nv->name : proto ? proto : ast_printf("arg%d", i);
		v->type = p->type;
		v->is_param = true;
		if (dbg_type_is_scalar(p->type))
			v->loc = (struct dbg_loc){.kind = DBG_LOC_ARG, .reg = i - 1};
		else
			v->loc = (struct dbg_loc){.kind = DBG_LOC_NONE, .reg = -1, .why = "a struct passed by value"};
		vec_push(&sc->vars, v);
		(*nargs)++;
	}
	return sc;
}

static int compare_scope_names(const void *a, const void *b)
{
	const struct resolved_probe *x = *(const struct resolved_probe *const *)a;
	const struct resolved_probe *y = *(const struct resolved_probe *const *)b;
	return strcmp(x->pp, y->pp);
}

static bool has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* A resolved_probe's data. */
struct tp_point {
	const char *name;      /* the kernel's name for the tracepoint */
	const char *module;    /* the module that defines it (its kernel name), NULL for vmlinux */
	int nargs;             /* arguments its probe function takes */
};

/* A probe on the tracepoint of typedef td named pp, its arguments as tp_scope says. */
static struct resolved_probe *make_probe(const struct resolved_probe *tmpl, struct debuginfo *di, struct dbg_type *td,
					 const char *pp, const char *class_name, const struct tp_info *ti,
					 const char *module, bool positional)
{
	struct resolved_probe *r = ast_alloc(sizeof(*r));
	*r = *tmpl;
	struct tp_point *tp = ast_alloc(sizeof(*tp));
	r->provider = &probe_tracepoint;
	r->data = tp;
	tp->name = td->name + strlen("btf_trace_");
	tp->module = module;
	r->pp = pp;
	r->scope = tp_scope(di, td, tp->name, class_name, ti, positional, &tp->nargs);
	return r;
}

struct resolved_probe *tracepoint_probe(const struct resolved_probe *tmpl, struct debuginfo *di, struct dbg_type *td,
				       const char *pp, const char *class_name, const char *module, bool positional)
{
	return make_probe(tmpl, di, td, pp, class_name, NULL, module, positional);
}

/* The probe on tracepoint name (its btf_trace_ typedef td), of module (NULL: the kernel). */
static struct resolved_probe *tp_probe(const struct resolved_probe *tmpl, struct debuginfo *di, struct dbg_type *td,
				       const char *name, const char *system, const char *class_name,
				       const struct tp_info *ti, const char *module)
{
	const char *pp = system ? ast_printf("kernel.trace(\"%s:%s\")", system, name)
				: ast_printf("kernel.trace(\"%s\")", name);
	return make_probe(tmpl, di, td, pp, class_name, ti, module, false);
}

/*
 * The tracepoints of module (a literal system name that is also a module of
 * the target) whose names match pattern: pushed onto out as probes that
 * attach when the module loads. Nothing if the module has no debuginfo.
 */
static void module_tracepoints(struct session *s, const char *module, const char *pattern,
			       const struct resolved_probe *tmpl, struct vec *out)
{
	const char *err = NULL;
	struct debuginfo *di = kernel_debuginfo(s, module, &err);
	if (!di)
		return;
	struct vec tds = {0};
	di->ops->typedefs(di, ast_printf("btf_trace_%s", pattern), &tds);
	for (int i = 0; i < tds.n; i++) {
		struct dbg_type *td = tds.items[i];
		const char *name = td->name + strlen("btf_trace_");
		struct tp_info *ti = header_info(s, name);
		const char *system = ti && ti->system ? ti->system : kernel_module_name(module);
		const char *class_name = ti ? ti->class_name : kernel_module_tracepoint_class(s, module, name);
		vec_push(out, tp_probe(tmpl, di, td, name, system, class_name, ti, kernel_module_name(module)));
	}
}

static bool tracepoint_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl,
			      struct vec *out)
{
	struct probe_component *c = probes_component(pp, 1);
	if (probes_component(pp, 0)->arg) {
		diag_error(probes_component(pp, 0)->loc, "'kernel' takes no argument");
		return false;
	}
	if (!c->arg || c->arg->kind != NODE_STR || !*c->arg->u.str) {
		diag_error(c->loc, "kernel.trace needs a tracepoint name in quotes: kernel.trace(\"[system:]name\")");
		return false;
	}
	if (probes_ncomponents(pp) > 2) {
		struct probe_component *extra = probes_component(pp, 2);
		diag_error(extra->loc, "unexpected '.%s' after kernel.trace(...)", extra->name);
		return false;
	}
	const char *pattern = c->arg->u.str, *sys_glob = NULL;
	const char *colon = strchr(pattern, ':');
	if (colon) {
		sys_glob = ast_strndup(pattern, (size_t)(colon - pattern));
		pattern = colon + 1;
	}
	const char *err = NULL;
	struct debuginfo *di = kernel_debuginfo(s, "kernel", &err);
	if (!di) {
		if (pp->optional)
			return true; /* '?': no debuginfo is no match */
		diag_error(c->loc, "%s", err);
		return false;
	}
	read_headers(s);
	struct vec tds = {0};
	di->ops->typedefs(di, ast_printf("btf_trace_%s", pattern), &tds);
	for (int i = 0; i < tds.n; i++) {
		struct dbg_type *td = tds.items[i];
		const char *name = td->name + strlen("btf_trace_");
		struct tp_info *ti = header_info(s, name);
		if (sys_glob && (!ti || !ti->system || !dbg_glob_match(sys_glob, ti->system)))
			continue;
		vec_push(out, tp_probe(tmpl, di, td, name, ti ? ti->system : NULL, ti ? ti->class_name : NULL, ti, NULL));
	}
	bool module = sys_glob && !has_glob(sys_glob) && !kernel_module_missing(s, sys_glob);
	if (!out->n && module)
		module_tracepoints(s, sys_glob, pattern, tmpl, out);
	if (!out->n) {
		if (pp->optional)
			return true; /* '?': the core skips the point */
		diag_error(c->arg->loc, "no tracepoint matches \"%s\" in kernel %s%s [see man error::pass2]", c->arg->u.str, s->release,
			   module ? ast_printf(" or its module %s", sys_glob) : "");
		return false;
	}
	vec_sort(out, compare_scope_names);
	return true;
}

static void tracepoint_table(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	/* one callback per argument count: the arguments as unsigned longs, in order */
	bool done[64] = {0};
	for (int i = 0; i < mine->n; i++) {
		const struct tp_point *tp = ((struct resolved_probe *)mine->items[i])->data;
		int n = tp->nargs < 63 ? tp->nargs : 63;
		if (done[n])
			continue;
		done[n] = true;
		char *params = "", *args = "";
		for (int k = 0; k < n; k++) {
			params = ast_printf("%s, unsigned long a%d", params, k);
			args = ast_printf("%s%sa%d", args, k ? ", " : "", k);
		}
		emit_line(e, "static void _stp_tracepoint_cb_%d(void *data%s)", n, params);
		emit_open(e, "{");
		emit_line(e, "unsigned long args[] = { %s%s };", args, n ? "" : "0");
		emit_line(e, "_stp_tracepoint_hit(data, args);");
		emit_close(e, "}");
	}
}

static void tracepoint_row(struct emitter *e, const struct resolved_probe *r)
{
	const struct tp_point *tp = r->data;
	emit_line(e, "{ .probe = &_stp_probes[%d], .name = %s, .module = %s, .callback = (void *)_stp_tracepoint_cb_%d },",
		  r->index, emit_c_string(tp->name), tp->module ? emit_c_string(tp->module) : "NULL",
		  tp->nargs < 63 ? tp->nargs : 63);
}

const struct probe_provider probe_tracepoint = {
	.name = "kernel.trace",
	.patterns = (const char *const[]){"kernel.trace(string)", NULL},
	.expand = tracepoint_expand,
	.feature = "STP_HAVE_TRACEPOINTS",
	.emit_table = tracepoint_table,
	.table = "_stp_tracepoint_probe",
	.row = tracepoint_row,
	.runtime = (const struct runtime_file[]){{"tracepoints", 3, 7}, {0}},
};
