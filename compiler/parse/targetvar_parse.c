/*
 * targetvar_parse.c - target expressions as the parser builds them: $var,
 * $$parms, the @-operators (@cast, @var, @task, @defined, @entry,
 * @choose_defined, and the shorthands written as other expressions), '->',
 * '[...]', '&' and pretty suffixes, including autocast nodes (expr->field).
 * targetvar.c resolves them in pass 2.
 */
#include <string.h>

#include "diag.h"
#include "targetvar_parse.h"

static struct node *new_target(struct srcloc loc, const char *tok, enum target_base base)
{
	struct node *n = ast_new(NODE_TARGET, loc, tok);
	n->u.target.base = base;
	return n;
}

struct node *targetvar_new(struct srcloc loc, const char *text)
{
	size_t len = strlen(text);
	int pretty = 0;
	while (len > 2 && text[len - 1] == '$' && pretty < 2) {
		len--;
		pretty++;
	}
	const char *name = ast_strndup(text, len);
	struct node *n;
	static const struct {
		const char *name;
		enum target_base base;
	} specials[] = {
		{"$$parms", TARGET_BASE_PARMS}, {"$$locals", TARGET_BASE_LOCALS},
		{"$$vars", TARGET_BASE_VARS}, {"$$return", TARGET_BASE_RETURN},
	};
	if (name[1] == '$') {
		for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++) {
			if (!strcmp(name, specials[i].name)) {
				n = new_target(loc, text, specials[i].base);
				n->u.target.pretty = pretty;
				return n;
			}
		}
		/* an SDT marker's own: a variable named "$name" its probe point defines */
		bool marker = !strcmp(name, "$$name") || !strcmp(name, "$$provider");
		if (!marker) {
			diag_error(loc, "unknown target variable '%s' (expected $$parms, $$locals, $$vars or $$return; "
				   "$$name and $$provider at an SDT marker)", name);
			return new_target(loc, text, TARGET_BASE_PARMS);
		}
	}
	n = new_target(loc, text, TARGET_BASE_VAR);
	n->u.target.name = name + 1;
	n->u.target.pretty = pretty;
	if (name[1] >= '0' && name[1] <= '9')
		diag_error(loc, "'%s' is a script argument, not a target variable; script arguments are not "
			   "supported here", name);
	else if (strchr(name + 2, '$'))
		diag_error(loc, "malformed target variable '%s'", text);
	return n;
}

static const char *string_arg(struct vec *args, int i, struct srcloc loc, const char *op, const char *what)
{
	if (i >= args->n)
		return NULL;
	struct node *a = args->items[i];
	if (a->kind != NODE_STR) {
		diag_error(a->loc, "%s: the %s must be a string literal", op, what);
		return NULL;
	}
	(void)loc;
	return a->u.str;
}

static struct node *new_call(struct srcloc loc, const char *name, struct node *arg1, struct node *arg2)
{
	struct node *n = ast_new(NODE_CALL, loc, name);
	n->u.call.name = name;
	vec_push(&n->u.call.args, arg1);
	if (arg2)
		vec_push(&n->u.call.args, arg2);
	return n;
}

static struct node *new_str(struct srcloc loc, const char *text)
{
	struct node *n = ast_new(NODE_STR, loc, text);
	n->u.str = text;
	return n;
}

/*
 * The @-operators that are shorthand for other expressions:
 *   @cast_sizeof("type"), @cast_module_sizeof("module", "type")
 *                                   &@cast(0, "type", "module")[1]
 *   @type_member_defined("type", member)   @defined(@cast(0, "type")->member$)
 *   @kderef(size, addr), @uderef(size, addr)   kernel_char/short/int/long(addr),
 *                                   __user_integer(addr, size, 1, 1): an error on a fault
 *   @kregister(n), @uregister(n)    register("name"), uregister("name") of DWARF register n
 *   @const("C")                     the builtin @const (guru mode)
 *   @perf("NAME")                   __perf_read("NAME") (tapset/linux/perf.stp): a .counter's value
 * NULL if name is none of them.
 */
static struct node *sugar_operator(struct srcloc loc, const char *name, struct vec *args)
{
	struct node *zero = ast_new(NODE_NUM, loc, "0");
	if (!strcmp(name, "@cast_sizeof") || !strcmp(name, "@cast_module_sizeof")) {
		bool module = !strcmp(name, "@cast_module_sizeof");
		struct node *n = new_target(loc, name, TARGET_BASE_CAST);
		n->u.target.operand = zero;
		n->u.target.name = "?";
		if (args->n != 1 + module) {
			diag_error(loc, module ? "@cast_module_sizeof takes a module and a type name: @cast_module_sizeof(\"module\", \"type\")"
					       : "@cast_sizeof takes a type name: @cast_sizeof(\"type\")");
			return n;
		}
		const char *type = string_arg(args, module, loc, name, "type name");
		n->u.target.name = type ? type : "?";
		n->u.target.module = module ? string_arg(args, 0, loc, name, "module name") : NULL;
		struct node *one = ast_new(NODE_NUM, loc, "1");
		one->u.num = 1;
		targetvar_add_index(n, loc, one);
		n->u.target.address_of = true;
		return n;
	}
	if (!strcmp(name, "@type_member_defined")) {
		struct node *n = ast_new(NODE_DEFINED, loc, name);
		struct node *t = new_target(loc, name, TARGET_BASE_CAST);
		t->u.target.operand = zero;
		t->u.target.name = "?";
		n->u.at_op.operand = t;
		struct node *member = args->n == 2 ? args->items[1] : NULL;
		if (!member || (member->kind != NODE_VAR && member->kind != NODE_STR)) {
			diag_error(loc, "@type_member_defined takes a type name and a member: @type_member_defined(\"type\", member)");
			return n;
		}
		const char *type = string_arg(args, 0, loc, name, "type name");
		t->u.target.name = type ? type : "?";
		/* a member path: "a->b" or "a.b" as a string, or a plain name */
		char *path = ast_strdup(member->kind == NODE_VAR ? member->u.var.name : member->u.str);
		for (char *field = strtok(path, ".->"); field; field = strtok(NULL, ".->"))
			targetvar_add_field(t, member->loc, field);
		t->u.target.pretty = 1; /* any member, even a struct or a bit-field, only has to exist */
		return n;
	}
	if (!strcmp(name, "@kderef") || !strcmp(name, "@uderef")) {
		static const char *const kernel_reads[] = {[1] = "kernel_char", [2] = "kernel_short", [4] = "kernel_int",
							   [8] = "kernel_long"};
		struct node *size = args->n == 2 ? args->items[0] : NULL;
		if (!size || size->kind != NODE_NUM || (size->u.num != 1 && size->u.num != 2 && size->u.num != 4 &&
							size->u.num != 8)) {
			diag_error(size ? size->loc : loc, "%s takes a size of 1, 2, 4 or 8 bytes and an address: %s(size, addr)",
				   name, name);
			return zero;
		}
		struct node *addr = args->items[1];
		if (name[1] == 'k')
			return new_call(loc, kernel_reads[size->u.num], addr, NULL);
		struct node *call = new_call(loc, "__user_integer", addr, size);
		struct node *yes = ast_new(NODE_NUM, loc, "1");
		yes->u.num = 1;
		vec_push(&call->u.call.args, yes);
		vec_push(&call->u.call.args, yes);
		return call;
	}
	if (!strcmp(name, "@kregister") || !strcmp(name, "@uregister")) {
		/* x86-64 DWARF register numbers */
		static const char *const regs[] = {"rax", "rdx", "rcx", "rbx", "rsi", "rdi", "rbp", "rsp", "r8", "r9",
						   "r10", "r11", "r12", "r13", "r14", "r15", "rip"};
		struct node *num = args->n == 1 ? args->items[0] : NULL;
		if (!num || num->kind != NODE_NUM || num->u.num < 0 || num->u.num > 16) {
			diag_error(num ? num->loc : loc, "%s takes a DWARF register number from 0 to 16: %s(n)", name, name);
			return zero;
		}
		return new_call(loc, name[1] == 'k' ? "register" : "uregister", new_str(loc, regs[num->u.num]), NULL);
	}
	if (!strcmp(name, "@const")) {
		if (args->n != 1 || ((struct node *)args->items[0])->kind != NODE_STR) {
			diag_error(loc, "@const takes one string literal, a C expression: @const(\"NAME\")");
			return zero;
		}
		return new_call(loc, "@const", args->items[0], NULL);
	}
	if (!strcmp(name, "@enum") || !strcmp(name, "@enumname")) {
		/* @enum("NAME"[, "module"]), @enumname(value[, "type"[, "module"]]): settled in pass 2 (enums.c) */
		bool names = name[5] == 'n';
		int first_literal = names ? 1 : 0;
		bool ok = args->n >= 1 && args->n <= (names ? 3 : 2);
		for (int i = first_literal; ok && i < args->n; i++)
			ok = ((struct node *)args->items[i])->kind == NODE_STR;
		if (!ok) {
			diag_error(loc, names ? "@enumname takes a value, then optionally a type and a module as string literals: "
						"@enumname(value[, \"type\"[, \"module\"]])"
					      : "@enum takes an enumerator's name and optionally a module as string literals: "
						"@enum(\"NAME\"[, \"module\"])");
			return names ? new_str(loc, "") : zero;
		}
		struct node *call = ast_new(NODE_CALL, loc, name);
		call->u.call.name = name;
		call->u.call.args = *args;
		return call;
	}
	if (!strcmp(name, "@perf")) {
		if (args->n != 1 || ((struct node *)args->items[0])->kind != NODE_STR) {
			diag_error(loc, "@perf takes the name of a perf .counter(\"NAME\") probe: @perf(\"NAME\")");
			return zero;
		}
		return new_call(loc, "__perf_read", args->items[0], NULL);
	}
	return NULL;
}

struct node *targetvar_at_operator(struct srcloc loc, const char *name, struct vec *args)
{
	if (!strcmp(name, "@task")) {
		/* @task(p) is @cast(p, "task_struct"): a task pointer seen as the kernel's struct */
		struct node *n = new_target(loc, name, TARGET_BASE_CAST);
		n->u.target.name = "task_struct";
		if (args->n != 1) {
			diag_error(loc, "@task takes one argument, a task_struct address: @task(p)");
			n->u.target.operand = ast_new(NODE_NUM, loc, "0");
			return n;
		}
		n->u.target.operand = args->items[0];
		return n;
	}
	if (!strcmp(name, "@cast")) {
		struct node *n = new_target(loc, name, TARGET_BASE_CAST);
		if (args->n < 2 || args->n > 3) {
			diag_error(loc, "@cast takes a pointer, a type name and optionally a module: @cast(p, \"type\" [, \"module\"])");
			n->u.target.name = "?";
			return n;
		}
		n->u.target.operand = args->items[0];
		n->u.target.name = string_arg(args, 1, loc, "@cast", "type name");
		n->u.target.module = string_arg(args, 2, loc, "@cast", "module name");
		if (!n->u.target.name)
			n->u.target.name = "?";
		return n;
	}
	if (!strcmp(name, "@var")) {
		struct node *n = new_target(loc, name, TARGET_BASE_AT_VAR);
		if (args->n < 1 || args->n > 2) {
			diag_error(loc, "@var takes a variable name and optionally a module: @var(\"name[@file]\" [, \"module\"])");
			n->u.target.name = "?";
			return n;
		}
		n->u.target.name = string_arg(args, 0, loc, "@var", "variable name");
		n->u.target.module = string_arg(args, 1, loc, "@var", "module name");
		if (!n->u.target.name)
			n->u.target.name = "?";
		return n;
	}
	if (!strcmp(name, "@choose_defined")) {
		/* @choose_defined(a, b) is @defined(a) ? a : b */
		if (args->n != 2) {
			diag_error(loc, "@choose_defined takes two arguments: @choose_defined(expr, fallback)");
			return ast_new(NODE_NUM, loc, "0");
		}
		struct node *test = ast_new(NODE_DEFINED, loc, "@defined");
		test->u.at_op.operand = ast_clone(args->items[0]);
		struct node *n = ast_new(NODE_TERNARY, loc, name);
		n->u.ternary.cond = test;
		n->u.ternary.then = args->items[0];
		n->u.ternary.otherwise = args->items[1];
		return n;
	}
	if (!strcmp(name, "@probewrite")) {
		/* 1 or 0, settled when an alias body is wrapped around a handler (probes.c) */
		if (args->n != 1 || ((struct node *)args->items[0])->kind != NODE_VAR) {
			diag_error(loc, "@probewrite takes one variable: @probewrite(var)");
			return ast_new(NODE_NUM, loc, "0");
		}
		struct node *call = ast_new(NODE_CALL, loc, name);
		call->u.call.name = name;
		call->u.call.args = *args;
		return call;
	}
	struct node *n = sugar_operator(loc, name, args);
	if (n)
		return n;
	if (!strcmp(name, "@defined") || !strcmp(name, "@entry")) {
		struct node *n = ast_new(name[1] == 'd' ? NODE_DEFINED : NODE_ENTRY, loc, name);
		if (args->n != 1) {
			diag_error(loc, "%s takes one argument", name);
			n->u.at_op.operand = ast_new(NODE_NUM, loc, "0");
			return n;
		}
		n->u.at_op.operand = args->items[0];
		return n;
	}
	diag_error(loc, "unknown operator '%s'", name);
	return ast_new(NODE_NUM, loc, name);
}

struct node *targetvar_add_field(struct node *t, struct srcloc loc, const char *field)
{
	if (t->kind != NODE_TARGET || t->u.target.address_of) {
		/* autocast: an expression whose pointed-to type pass 2 finds (a typed local, call, @entry) */
		struct node *n = new_target(t->loc, t->tok, TARGET_BASE_AUTO);
		n->u.target.operand = t;
		t = n;
	}
	if (t->u.target.pretty)
		diag_error(loc, "'->%s' after a pretty-printing '$' suffix", field);
	struct target_step *st = ast_alloc(sizeof(*st));
	st->field = field;
	st->loc = loc;
	vec_push(&t->u.target.path, st);
	return t;
}

struct node *targetvar_add_index(struct node *t, struct srcloc loc, struct node *index)
{
	if (t->kind != NODE_TARGET) {
		diag_error(loc, "'[...]' applies only to target variables, @cast and @var here");
		return t;
	}
	struct target_step *st = ast_alloc(sizeof(*st));
	st->index = index;
	st->loc = loc;
	vec_push(&t->u.target.path, st);
	return t;
}

struct node *targetvar_set_pretty(struct node *t, struct srcloc loc, const char *suffix)
{
	if (t->kind != NODE_TARGET || t->u.target.pretty) {
		diag_error(loc, "'%s' pretty-printing suffix applies once, to a target variable", suffix);
		return t;
	}
	t->u.target.pretty = (int)strlen(suffix);
	return t;
}

struct node *targetvar_address_of(struct srcloc loc, struct node *t)
{
	if (t->kind != NODE_TARGET || t->u.target.pretty || t->u.target.base >= TARGET_BASE_PARMS) {
		diag_error(loc, "'&' applies only to a target variable, @cast or @var expression");
		return t;
	}
	t->u.target.address_of = true;
	return t;
}

enum stp_type targetvar_value_type(const struct node *n)
{
	if (n->u.target.pretty || n->u.target.base >= TARGET_BASE_PARMS)
		return TYPE_STRING;
	if (n->u.target.provided_type != TYPE_UNKNOWN)
		return n->u.target.provided_type;
	return TYPE_LONG;
}
