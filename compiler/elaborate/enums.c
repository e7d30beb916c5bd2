/* enums.c - pass 2: @enum("NAME") becomes the enumerator's value, @enumname(v, "type") gets its type's enumerators. */
#include <string.h>

#include "debuginfo/kernel.h"
#include "diag.h"
#include "enums.h"
#include "targetvar.h"

/*
 * Both read the kernel's (or a module's) types, DWARF or BTF as
 * --debuginfo chose (SystemTap 5.5's @enum and @enumname):
 *
 *   @enum("NAME"[, "module"])            the value of enumerator NAME, a
 *                                        constant folded here
 *   @enumname(value, "type"[, "module"]) the name of value among the
 *                                        enumerators of enum type, or value
 *                                        in decimal (codegen's switch)
 *   @enumname($var)                      the type is $var's own
 *
 * @enum is settled while names resolve; @enumname after the target
 * variables are planned, since its type may be a $variable's.
 */

/* The string literal argument i of call n, or NULL past its arguments. */
static const char *literal_arg(struct node *n, int i)
{
	return i < n->u.call.args.n ? ((struct node *)n->u.call.args.items[i])->u.str : NULL;
}

/* "in module 'm'" or "in the kernel": where a lookup looked. */
static const char *where_text(const char *module)
{
	return module && strcmp(module, "kernel") ? ast_printf("in module '%s'", module) : "in the kernel";
}

void enums_value(struct session *s, struct node *n)
{
	const char *name = literal_arg(n, 0), *module = literal_arg(n, 1), *err = NULL;
	struct debuginfo *di = kernel_debuginfo(s, module ? module : "kernel", &err);
	struct dbg_var v = {0};
	if (!di)
		diag_error(n->loc, "@enum(\"%s\"): no types %s: %s", name, where_text(module), err ? err : "no debuginfo");
	else if (!dbg_enumerator(di, NULL, name, &v))
		diag_error(n->loc, "@enum(\"%s\"): no enumerator named '%s' %s", name, name, where_text(module));
	n->kind = NODE_NUM;
	n->u.num = v.loc.offset;
	n->type = TYPE_LONG;
}

/* The enum named name ("pid_type", "enum pid_type", or a typedef of one) in di, or NULL. */
static struct dbg_type *find_enum(struct debuginfo *di, const char *name)
{
	struct dbg_type *t = dbg_type_strip(dbg_find_type(di, name));
	if ((!t || t->kind != DBG_ENUM) && strncmp(name, "enum ", 5)) {
		struct dbg_type *e = dbg_type_strip(dbg_find_type(di, ast_printf("enum %s", name)));
		if (e)
			t = e;
	}
	return t;
}

/* The enum type @enumname n names, or its $variable's; NULL after an error. */
static struct dbg_type *enumname_type(struct session *s, struct node *n, struct debuginfo **di)
{
	const char *type = literal_arg(n, 1), *module = literal_arg(n, 2), *err = NULL;
	struct node *value = n->u.call.args.items[0];
	if (!type) {
		struct vec *plans = value->kind == NODE_TARGET ? value->u.target.resolved : NULL;
		for (int i = 0; plans && i < plans->n; i++) {
			struct tv_plan *pl = plans->items[i];
			if (!pl->error && pl->type && pl->type->di) {
				*di = pl->type->di;
				return dbg_type_strip(pl->type);
			}
		}
		diag_error(value->loc, "@enumname(%s): without a type name the value must be a typed $variable: "
				       "@enumname(value, \"type\"[, \"module\"])", ast_expr_text(value));
		return NULL;
	}
	*di = kernel_debuginfo(s, module ? module : "kernel", &err);
	if (!*di) {
		diag_error(n->loc, "@enumname: no types %s: %s", where_text(module), err ? err : "no debuginfo");
		return NULL;
	}
	struct dbg_type *t = find_enum(*di, type);
	if (!t)
		diag_error(n->loc, "@enumname: no type named '%s' %s", type, where_text(module));
	return t;
}

/* @enumname n: its type's enumerators into n->u.call.enumerators, or an error. */
static void resolve_enumname(struct session *s, struct node *n)
{
	struct debuginfo *di = NULL;
	struct dbg_type *t = enumname_type(s, n, &di);
	if (!t)
		return;
	if (t->kind != DBG_ENUM) {
		diag_error(n->loc, "@enumname: %s is not an enum", dbg_type_text(t));
		return;
	}
	n->u.call.enumerators = ast_alloc(sizeof(*n->u.call.enumerators));
	dbg_enumerators(di, t, n->u.call.enumerators);
}

static bool enumname_pre(struct ast_walker *w, struct node *n)
{
	if (n->kind == NODE_CALL && !strcmp(n->u.call.name, "@enumname") && !n->u.call.enumerators)
		resolve_enumname(w->data, n);
	return true;
}

bool enums_resolve_names(struct session *s)
{
	int errors = diag_error_count();
	struct ast_walker w = {.pre = enumname_pre, .data = s};
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		ast_walk(&w, p->body);
		if (p->epilogue)
			ast_walk(&w, p->epilogue);
	}
	for (int i = 0; i < s->functions.n; i++) {
		struct function *f = s->functions.items[i];
		if (f->body)
			ast_walk(&w, f->body);
	}
	return diag_error_count() == errors;
}
