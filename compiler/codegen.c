/*
 * codegen.c - pass 3: C for the statements and expressions of one body.
 *
 * Conventions of the generated code (see runtime/runtime_api.h):
 *  - c is the struct context *, l the body's locals struct in it;
 *  - a failing operation sets c->base.last_error and last_stmt and jumps
 *    to the body's "out" label, which releases locks and returns;
 *  - longs wrap on overflow (arithmetic is done on uint64_t), division by
 *    zero is an error and INT64_MIN / -1 does not trap;
 *  - a string expression yields a const char * that stays valid until the
 *    statement ends: literals, variables, or a slot of the locals struct;
 *  - every block charges its statement count, and every loop iteration one
 *    more, against MAXACTION.
 */
#include <inttypes.h>
#include <string.h>

#include "codegen.h"
#include "diag.h"
#include "elaborate.h"

static const char *gen_expr(struct codegen *g, struct node *n);
static void gen_stmt(struct codegen *g, struct node *n);

const char *codegen_near(const struct node *n)
{
	/* SystemTap names tokens by their lexical kind: a call is an identifier */
	const char *kind = n->kind == NODE_CALL ? "identifier" : ast_kind_name(n->kind);
	return ast_printf("%s '%s' at %s:%d:%d", kind, n->tok ? n->tok : "?", n->loc.file, n->loc.line, n->loc.col);
}

const char *codegen_symbol(const struct symbol *sym)
{
	if (sym->kind == SYM_GLOBAL)
		return ast_printf("stp_global.s_%s", sym->name);
	return ast_printf("l->l_%s", sym->name);
}

const char *codegen_ctype(enum stp_type t)
{
	return t == TYPE_STRING ? "string_t" : "int64_t";
}

const char *codegen_stp_type(enum stp_type t)
{
	return t == TYPE_STRING ? "STP_TYPE_STRING" : "STP_TYPE_LONG";
}

/* A fresh C identifier for a statement-expression temporary. */
static const char *temp(struct codegen *g, const char *prefix)
{
	return ast_printf("_%s%d", prefix, ++g->ntemps);
}

/* A string slot in the locals struct; returns its C lvalue. */
static const char *string_slot(struct codegen *g)
{
	const char *name = ast_printf("__tmp%d", ++g->ntemps);
	vec_push(&g->slots, ast_printf("string_t %s;", name));
	return ast_printf("l->%s", name);
}

/* C code that fails the probe with msg near n (usable inside an expression). */
static const char *fail(const char *msg, const struct node *n)
{
	return ast_printf("STP_FAIL(%s, %s)", emit_c_string(msg), emit_c_string(codegen_near(n)));
}

static const char *long_literal(int64_t v)
{
	if (v == INT64_MIN)
		return "((int64_t)(-9223372036854775807LL - 1))";
	return ast_printf("((int64_t)%" PRId64 "LL)", v);
}

/* True if evaluating n has no side effects and cannot fail. */
static bool is_pure(const struct node *n)
{
	switch (n->kind) {
	case NODE_NUM:
	case NODE_STR:
	case NODE_VAR:
		return true;
	case NODE_UNARY:
		return is_pure(n->u.unary.operand);
	case NODE_BINARY:
		return n->u.binary.op != OP_DIV && n->u.binary.op != OP_MOD && n->u.binary.op != OP_CONCAT &&
		       is_pure(n->u.binary.lhs) && is_pure(n->u.binary.rhs);
	default:
		return false;
	}
}

/* The map of an array symbol. */
static const char *map_of(const struct node *var)
{
	return codegen_symbol(var->u.var.sym);
}

/*
 * Evaluate keys in order into a key array named k; returns the declarations
 * and assignments to place at the start of a statement expression.
 */
static const char *gen_keys(struct codegen *g, struct vec *keys, const char *k)
{
	char *code = ast_printf("union _stp_key %s[%d]; ", k, keys->n);
	for (int i = 0; i < keys->n; i++) {
		struct node *key = keys->items[i];
		const char *v = gen_expr(g, key);
		if (key->type == TYPE_STRING)
			code = ast_printf("%s%s[%d].s = %s; ", code, k, i, v);
		else
			code = ast_printf("%s%s[%d].n = %s; ", code, k, i, v);
	}
	return code;
}

/* Arithmetic on two long C expressions already evaluated into a and b. */
static const char *arith(enum ast_op op, const char *a, const char *b)
{
	switch (op) {
	case OP_ADD: return ast_printf("(int64_t)((uint64_t)%s + (uint64_t)%s)", a, b);
	case OP_SUB: return ast_printf("(int64_t)((uint64_t)%s - (uint64_t)%s)", a, b);
	case OP_MUL: return ast_printf("(int64_t)((uint64_t)%s * (uint64_t)%s)", a, b);
	case OP_DIV: return ast_printf("(%s == -1 ? (int64_t)(0 - (uint64_t)%s) : %s / %s)", b, a, a, b);
	case OP_MOD: return ast_printf("(%s == -1 ? 0 : %s %% %s)", b, a, b);
	case OP_SHL: return ast_printf("(int64_t)((uint64_t)%s << (%s & 63))", a, b);
	case OP_SHR: return ast_printf("(%s >> (%s & 63))", a, b);
	case OP_BITAND: return ast_printf("(%s & %s)", a, b);
	case OP_BITOR: return ast_printf("(%s | %s)", a, b);
	case OP_BITXOR: return ast_printf("(%s ^ %s)", a, b);
	default: return "0";
	}
}

/* a OP b for longs, with the division-by-zero check; n locates the error. */
static const char *gen_arith(struct codegen *g, enum ast_op op, const char *a_code, const char *b_code,
			     const struct node *n, bool sequenced)
{
	if (op != OP_DIV && op != OP_MOD && !sequenced)
		return ast_printf("(%s)", arith(op, ast_printf("(%s)", a_code), ast_printf("(%s)", b_code)));
	const char *a = temp(g, "a"), *b = temp(g, "b");
	const char *check = op == OP_DIV || op == OP_MOD
		? ast_printf("if (unlikely(%s == 0)) %s; ", b, fail("division by zero", n)) : "";
	return ast_printf("({ int64_t %s = %s; int64_t %s = %s; %s%s; })", a, a_code, b, b_code, check,
			  arith(op, a, b));
}

static const char *gen_compare(struct codegen *g, struct node *n)
{
	static const char *const ops[] = {[OP_EQ] = "==", [OP_NE] = "!=", [OP_LT] = "<",
					  [OP_LE] = "<=", [OP_GT] = ">", [OP_GE] = ">="};
	const char *op = ops[n->u.binary.op];
	const char *a = gen_expr(g, n->u.binary.lhs), *b = gen_expr(g, n->u.binary.rhs);
	if (n->u.binary.lhs->type == TYPE_STRING) {
		if (is_pure(n->u.binary.rhs))
			return ast_printf("((int64_t)(strcmp(%s, %s) %s 0))", a, b, op);
		const char *ta = temp(g, "s"), *tb = temp(g, "s");
		/* the left string must not change while the right one is computed */
		const char *slot = string_slot(g);
		return ast_printf("({ const char *%s; const char *%s; _stp_strlcpy(%s, %s); %s = %s; %s = %s; "
				  "(int64_t)(strcmp(%s, %s) %s 0); })",
				  ta, tb, slot, a, ta, slot, tb, b, ta, tb, op);
	}
	if (is_pure(n->u.binary.rhs))
		return ast_printf("((int64_t)((%s) %s (%s)))", a, op, b);
	const char *ta = temp(g, "a"), *tb = temp(g, "b");
	return ast_printf("({ int64_t %s = %s; int64_t %s = %s; (int64_t)(%s %s %s); })", ta, a, tb, b, ta, op, tb);
}

static const char *gen_concat(struct codegen *g, struct node *n)
{
	const char *slot = string_slot(g);
	const char *a = gen_expr(g, n->u.binary.lhs);
	const char *b = gen_expr(g, n->u.binary.rhs);
	return ast_printf("({ _stp_strlcpy(%s, %s); _stp_strlcat(%s, %s); (const char *)%s; })", slot, a, slot, b, slot);
}

/* Read an array element: 0 or "" when absent. */
static const char *gen_index_read(struct codegen *g, struct node *n)
{
	const char *k = temp(g, "k"), *node = temp(g, "n");
	const char *keys = gen_keys(g, &n->u.index.keys, k);
	const char *map = map_of(n->u.index.array);
	if (n->type == TYPE_STRING) {
		const char *slot = string_slot(g);
		return ast_printf("({ %sstruct _stp_map_node *%s = _stp_map_find(%s, %s); "
				  "if (%s) _stp_strlcpy(%s, _stp_node_str(%s)); else %s[0] = '\\0'; (const char *)%s; })",
				  keys, node, map, k, node, slot, node, slot, slot);
	}
	return ast_printf("({ %sstruct _stp_map_node *%s = _stp_map_find(%s, %s); %s ? *_stp_node_long(%s) : 0; })",
			  keys, node, map, k, node, node);
}

/* The node of arr[keys] for writing, failing when the array is full. */
static const char *gen_index_node(struct codegen *g, struct node *index, const char *node, const struct node *where)
{
	const char *k = temp(g, "k");
	const char *keys = gen_keys(g, &index->u.index.keys, k);
	struct global *gl = index->u.index.array->u.var.sym->global;
	const char *msg = gl && gl->max_entries
		? ast_printf("Array overflow, check size limit (%" PRId64 ")", gl->max_entries)
		: "Array overflow, check MAXMAPENTRIES";
	return ast_printf("%sstruct _stp_map_node *%s = _stp_map_get(%s, %s); if (unlikely(!%s)) %s; ", keys, node,
			  map_of(index->u.index.array), k, node, fail(msg, where));
}

static const char *gen_assign(struct codegen *g, struct node *n)
{
	struct node *lhs = n->u.assign.lhs, *rhs = n->u.assign.rhs;
	enum ast_op op = n->u.assign.op;
	const char *v = temp(g, "v");
	const char *value = gen_expr(g, rhs);
	if (lhs->type == TYPE_STRING || n->type == TYPE_STRING) {
		const char *dst;
		const char *prefix = "";
		if (lhs->kind == NODE_INDEX) {
			const char *node = temp(g, "n");
			prefix = gen_index_node(g, lhs, node, n);
			dst = ast_printf("_stp_node_str(%s)", node);
		} else if (lhs->kind == NODE_TARGET) {
			dst = lhs->u.target.lvalue;
		} else {
			dst = codegen_symbol(lhs->u.var.sym);
		}
		if (op == OP_CONCAT) {
			/* the right side may alias the target (s .= s): copy it first */
			const char *slot = string_slot(g);
			return ast_printf("({ _stp_strlcpy(%s, %s); %s_stp_strlcat(%s, %s); (const char *)%s; })", slot,
					  value, prefix, dst, slot, slot);
		}
		return ast_printf("({ const char *%s = %s; %schar *_d = %s; if (_d != %s) _stp_strlcpy(_d, %s); (const char *)_d; })",
				  v, value, prefix, dst, v, v);
	}
	const char *old;
	const char *prefix = "";
	if (lhs->kind == NODE_INDEX) {
		const char *node = temp(g, "n");
		prefix = gen_index_node(g, lhs, node, n);
		old = ast_printf("(*_stp_node_long(%s))", node);
	} else {
		old = codegen_symbol(lhs->u.var.sym);
	}
	if (op == OP_NONE)
		return ast_printf("({ int64_t %s = %s; %s%s = %s; })", v, value, prefix, old, v);
	const char *b = temp(g, "b");
	const char *check = op == OP_DIV || op == OP_MOD
		? ast_printf("if (unlikely(%s == 0)) %s; ", b, fail("division by zero", n)) : "";
	return ast_printf("({ int64_t %s = %s; %s%s%s = %s; })", b, value, check, prefix, old, arith(op, old, b));
}

static const char *gen_incdec(struct codegen *g, struct node *n)
{
	struct node *t = n->u.incdec.operand;
	const char *op = n->u.incdec.op == OP_INC ? "++" : "--";
	if (t->kind == NODE_VAR) {
		const char *var = codegen_symbol(t->u.var.sym);
		return n->u.incdec.prefix ? ast_printf("(%s%s)", op, var) : ast_printf("(%s%s)", var, op);
	}
	const char *node = temp(g, "n");
	const char *prefix = gen_index_node(g, t, node, n);
	return ast_printf("({ %s%s; })", prefix,
			  n->u.incdec.prefix ? ast_printf("%s(*_stp_node_long(%s))", op, node)
					     : ast_printf("(*_stp_node_long(%s))%s", node, op));
}

/*
 * A script function call: arguments are evaluated in order into temporaries
 * first (a later argument may call functions that reuse the callee frame),
 * then copied into the callee's frame c->locals[c->base.nesting].
 */
static const char *gen_function_call(struct codegen *g, struct node *n)
{
	struct function *fn = n->u.call.func;
	const char *frame = temp(g, "f");
	char *code = "({ ";
	const char **args = ast_alloc(sizeof(char *) * (size_t)(fn->params.n + 1));
	for (int i = 0; i < fn->params.n; i++) {
		struct param *p = fn->params.items[i];
		struct node *a = n->u.call.args.items[i];
		const char *value = gen_expr(g, a);
		if (p->sym->type == TYPE_STRING && !is_pure(a)) {
			const char *slot = string_slot(g);
			code = ast_printf("%s_stp_strlcpy(%s, %s); ", code, slot, value);
			args[i] = slot;
		} else if (p->sym->type == TYPE_STRING) {
			args[i] = value;
		} else {
			args[i] = temp(g, "a");
			code = ast_printf("%sint64_t %s = %s; ", code, args[i], value);
		}
	}
	code = ast_printf("%sstruct function_%s_locals *%s = &c->locals[c->base.nesting].function_%s; (void)%s; ",
			  code, fn->name, frame, fn->name, frame);
	for (int i = 0; i < fn->params.n; i++) {
		struct param *p = fn->params.items[i];
		if (p->sym->type == TYPE_STRING)
			code = ast_printf("%s_stp_strlcpy(%s->l_%s, %s); ", code, frame, p->name, args[i]);
		else
			code = ast_printf("%s%s->l_%s = %s; ", code, frame, p->name, args[i]);
	}
	/* an error inside the callee that did not say where is reported at the call */
	code = ast_printf("%sfunction_%s(c); if (unlikely(c->base.last_error)) { if (!c->base.last_stmt) "
			  "c->base.last_stmt = %s; goto out; } ", code, fn->name, emit_c_string(codegen_near(n)));
	if (fn->type == TYPE_STRING) {
		const char *slot = string_slot(g);
		return ast_printf("%s_stp_strlcpy(%s, %s->__retvalue); (const char *)%s; })", code, slot, frame, slot);
	}
	if (fn->type == TYPE_LONG)
		return ast_printf("%s%s->__retvalue; })", code, frame);
	return ast_printf("%s(int64_t)0; })", code);
}

/* printf / sprintf: the format, converted at compile time, and its arguments in order. */
static const char *gen_format(struct codegen *g, struct node *n, const char *func, const char *dest)
{
	struct node *fmt = n->u.call.args.items[0];
	struct vec specs = {0};
	format_parse(fmt->u.str, fmt->loc, &specs, false);
	char *kfmt = "";
	char *decls = "";
	char *args = "";
	int argi = 1;
	for (int i = 0; i < specs.n; i++) {
		struct format_spec *sp = specs.items[i];
		for (const char *p = sp->literal; *p; p++)
			kfmt = ast_printf("%s%s", kfmt, *p == '%' ? "%%" : ast_strndup(p, 1));
		if (!sp->conv)
			break;
		kfmt = ast_printf("%s%s", kfmt, sp->kernel);
		if (sp->conv == '%')
			continue;
		struct node *a = n->u.call.args.items[argi++];
		const char *value = gen_expr(g, a);
		const char *t = temp(g, "p");
		if (sp->conv == 's') {
			decls = ast_printf("%sconst char *%s = %s; ", decls, t, value);
		} else {
			decls = ast_printf("%sint64_t %s = %s; ", decls, t, value);
			if (sp->conv == 'c')
				t = ast_printf("(int)%s", t);
		}
		args = ast_printf("%s, %s", args, t);
	}
	if (dest)
		return ast_printf("({ %s%s(%s, MAXSTRINGLEN, %s%s); (const char *)%s; })", decls, func, dest,
				  emit_c_string(kfmt), args, dest);
	return ast_printf("({ %s%s(%s%s); (int64_t)0; })", decls, func, emit_c_string(kfmt), args);
}

/* print/println: each argument in turn, numbers in decimal. */
static const char *gen_print(struct codegen *g, struct node *n, bool newline)
{
	char *code = "({ ";
	for (int i = 0; i < n->u.call.args.n; i++) {
		struct node *a = n->u.call.args.items[i];
		if (a->type == TYPE_STATS) {
			code = ast_printf("%s%s; ", code, codegen_stats_print_hist(g, a));
			continue;
		}
		const char *value = gen_expr(g, a);
		if (a->type == TYPE_STRING)
			code = ast_printf("%s_stp_print(%s); ", code, value);
		else
			code = ast_printf("%s_stp_printf(\"%%lld\", (long long)(%s)); ", code, value);
	}
	return ast_printf("%s%s(int64_t)0; })", code, newline ? "_stp_print_char('\\n'); " : "");
}

static const char *gen_call(struct codegen *g, struct node *n)
{
	switch ((enum builtin)n->u.call.builtin) {
	case BUILTIN_PRINTF:
		return gen_format(g, n, "_stp_printf", NULL);
	case BUILTIN_SPRINTF:
		return gen_format(g, n, "_stp_snprintf", string_slot(g));
	case BUILTIN_PRINT:
		return gen_print(g, n, false);
	case BUILTIN_PRINTLN:
		return gen_print(g, n, true);
	case BUILTIN_NONE:
		break;
	}
	return gen_function_call(g, n);
}

static const char *gen_expr(struct codegen *g, struct node *n)
{
	switch (n->kind) {
	case NODE_NUM:
		return long_literal(n->u.num);
	case NODE_STR:
		return emit_c_string(n->u.str);
	case NODE_VAR:
		if (n->type == TYPE_STRING)
			return ast_printf("(const char *)%s", codegen_symbol(n->u.var.sym));
		return codegen_symbol(n->u.var.sym);
	case NODE_INDEX:
		return gen_index_read(g, n);
	case NODE_TARGET: {
		/* the provider's C may fail (a bad address): it says why, we say where */
		const char *t = temp(g, "t");
		return ast_printf("({ %s %s = %s; if (unlikely(c->base.last_error)) { c->base.last_stmt = %s; "
				  "goto out; } %s; })", n->type == TYPE_STRING ? "const char *" : "int64_t", t,
				  n->u.target.rvalue, emit_c_string(codegen_near(n)), t);
	}
	case NODE_CALL:
		return gen_call(g, n);
	case NODE_UNARY: {
		const char *v = gen_expr(g, n->u.unary.operand);
		switch (n->u.unary.op) {
		case OP_NEG: return ast_printf("((int64_t)(0 - (uint64_t)(%s)))", v);
		case OP_BITNOT: return ast_printf("(~(%s))", v);
		case OP_NOT: return ast_printf("((int64_t)!(%s))", v);
		default: return ast_printf("(%s)", v);
		}
	}
	case NODE_BINARY: {
		enum ast_op op = n->u.binary.op;
		if (op == OP_CONCAT)
			return gen_concat(g, n);
		if (op >= OP_EQ && op <= OP_GE)
			return gen_compare(g, n);
		if (op == OP_AND || op == OP_OR)
			return ast_printf("((int64_t)((%s) %s (%s)))", gen_expr(g, n->u.binary.lhs),
					  op == OP_AND ? "&&" : "||", gen_expr(g, n->u.binary.rhs));
		const char *a = gen_expr(g, n->u.binary.lhs);
		const char *b = gen_expr(g, n->u.binary.rhs);
		return gen_arith(g, op, a, b, n, !is_pure(n->u.binary.rhs));
	}
	case NODE_TERNARY:
		return ast_printf("((%s) ? (%s) : (%s))", gen_expr(g, n->u.ternary.cond),
				  gen_expr(g, n->u.ternary.then), gen_expr(g, n->u.ternary.otherwise));
	case NODE_ASSIGN:
		return gen_assign(g, n);
	case NODE_INCDEC:
		return gen_incdec(g, n);
	case NODE_STAT_ADD:
		return codegen_stats_add(g, n);
	case NODE_STAT_OP:
		return codegen_stats_op(g, n);
	case NODE_REGEX:
		return codegen_regex(g, n);
	case NODE_IN: {
		if (n->u.in.array->u.var.sym->type == TYPE_STATS)
			return codegen_stats_in(g, n);
		const char *k = temp(g, "k");
		const char *keys = gen_keys(g, &n->u.in.keys, k);
		return ast_printf("({ %s(int64_t)(_stp_map_find(%s, %s) != NULL); })", keys, map_of(n->u.in.array), k);
	}
	default:
		diag_error(n->loc, "internal error: %s used as an expression", ast_kind_name(n->kind));
		return "0";
	}
}

/* Charge count actions; n locates the MAXACTION error. */
static void charge(struct codegen *g, int count, const struct node *n)
{
	if (count <= 0)
		return;
	if (n->kind == NODE_EXPR_STMT)
		n = n->u.expr_stmt.expr;
	emit_line(g->e, "if (unlikely((c->base.actionremaining -= %d) < 0)) %s;", count,
		  fail("MAXACTION exceeded", n));
}

static void gen_block(struct codegen *g, struct node *n)
{
	int count = 0;
	for (int i = 0; i < n->u.block.stmts.n; i++) {
		struct node *st = n->u.block.stmts.items[i];
		if (st->kind != NODE_BLOCK && st->kind != NODE_NULL_STMT)
			count++;
	}
	if (count)
		charge(g, count, n->u.block.stmts.items[0]);
	for (int i = 0; i < n->u.block.stmts.n; i++)
		gen_stmt(g, n->u.block.stmts.items[i]);
}

/* A statement as the body of if/while/for: always braced. */
static void gen_substmt(struct codegen *g, struct node *n)
{
	if (n && n->kind == NODE_BLOCK) {
		gen_block(g, n);
	} else if (n) {
		charge(g, 1, n);
		gen_stmt(g, n);
	}
}

static const char *gen_side_effect(struct codegen *g, struct node *n)
{
	if (!n)
		return "";
	if (n->kind == NODE_EXPR_STMT)
		n = n->u.expr_stmt.expr;
	return ast_printf("(void)%s", gen_expr(g, n));
}

static void gen_foreach(struct codegen *g, struct node *n)
{
	struct symbol *arr = n->u.foreach.array->u.var.sym;
	if (arr->type == TYPE_STATS) {
		codegen_stats_foreach(g, n);
		return;
	}
	const char *map = codegen_symbol(arr);
	const char *node = temp(g, "n");
	emit_open(g->e, "{ /* foreach at %s:%d:%d */", n->loc.file, n->loc.line, n->loc.col);
	emit_line(g->e, "struct _stp_map_node *%s;", node);
	const char *limit = NULL;
	if (n->u.foreach.limit) {
		limit = temp(g, "limit");
		emit_line(g->e, "int64_t %s = %s;", limit, gen_expr(g, n->u.foreach.limit));
	}
	if (n->u.foreach.sort_dir)
		emit_line(g->e, "_stp_map_sort(%s, %d, %d);", map, n->u.foreach.sort_column, n->u.foreach.sort_dir);
	emit_open(g->e, "for (%s = _stp_map_first(%s); %s%s; %s = _stp_map_next(%s, %s)) {", node, map, node,
		  limit ? ast_printf(" && %s-- > 0", limit) : "", node, map, node);
	charge(g, 1, n);
	for (int i = 0; i < n->u.foreach.keys.n; i++) {
		struct node *k = n->u.foreach.keys.items[i];
		if (k->u.var.sym->type == TYPE_STRING)
			emit_line(g->e, "_stp_strlcpy(%s, _stp_node_key_str(%s, %d));", codegen_symbol(k->u.var.sym), node, i);
		else
			emit_line(g->e, "%s = _stp_node_key_long(%s, %d);", codegen_symbol(k->u.var.sym), node, i);
	}
	if (n->u.foreach.value) {
		struct symbol *v = n->u.foreach.value->u.var.sym;
		if (v->type == TYPE_STRING)
			emit_line(g->e, "_stp_strlcpy(%s, _stp_node_str(%s));", codegen_symbol(v), node);
		else
			emit_line(g->e, "%s = *_stp_node_long(%s);", codegen_symbol(v), node);
	}
	gen_substmt(g, n->u.foreach.body);
	emit_close(g->e, "}");
	emit_close(g->e, "}");
}

static void gen_delete(struct codegen *g, struct node *n)
{
	struct node *t = n->u.del.target;
	if ((t->kind == NODE_INDEX ? t->u.index.array : t)->u.var.sym->type == TYPE_STATS) {
		codegen_stats_delete(g, n);
		return;
	}
	if (t->kind == NODE_INDEX) {
		const char *k = temp(g, "k");
		const char *keys = gen_keys(g, &t->u.index.keys, k);
		emit_line(g->e, "{ %s_stp_map_delete(%s, %s); }", keys, map_of(t->u.index.array), k);
		return;
	}
	struct symbol *sym = t->u.var.sym;
	if (sym->arity > 0)
		emit_line(g->e, "_stp_map_clear(%s);", codegen_symbol(sym));
	else if (sym->type == TYPE_STRING)
		emit_line(g->e, "%s[0] = '\\0';", codegen_symbol(sym));
	else
		emit_line(g->e, "%s = 0;", codegen_symbol(sym));
}

static void gen_stmt(struct codegen *g, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case NODE_BLOCK:
		emit_open(g->e, "{");
		gen_block(g, n);
		emit_close(g->e, "}");
		break;
	case NODE_EXPR_STMT:
		emit_line(g->e, "(void)%s; /* %s:%d */", gen_expr(g, n->u.expr_stmt.expr), n->loc.file, n->loc.line);
		break;
	case NODE_NULL_STMT:
		break;
	case NODE_IF:
		emit_open(g->e, "if (%s) { /* %s:%d */", gen_expr(g, n->u.if_stmt.cond), n->loc.file, n->loc.line);
		gen_substmt(g, n->u.if_stmt.then);
		if (n->u.if_stmt.otherwise) {
			emit_close(g->e, "} else {");
			g->e->indent++;
			gen_substmt(g, n->u.if_stmt.otherwise);
		}
		emit_close(g->e, "}");
		break;
	case NODE_WHILE:
		emit_open(g->e, "while (%s) { /* %s:%d */", gen_expr(g, n->u.while_stmt.cond), n->loc.file, n->loc.line);
		charge(g, 1, n);
		gen_substmt(g, n->u.while_stmt.body);
		emit_close(g->e, "}");
		break;
	case NODE_FOR: {
		const char *init = gen_side_effect(g, n->u.for_stmt.init);
		const char *cond = n->u.for_stmt.cond ? gen_expr(g, n->u.for_stmt.cond) : "";
		const char *step = gen_side_effect(g, n->u.for_stmt.step);
		emit_open(g->e, "for (%s; %s; %s) { /* %s:%d */", init, cond, step, n->loc.file, n->loc.line);
		charge(g, 1, n);
		gen_substmt(g, n->u.for_stmt.body);
		emit_close(g->e, "}");
		break;
	}
	case NODE_FOREACH:
		gen_foreach(g, n);
		break;
	case NODE_BREAK:
		emit_line(g->e, "break;");
		break;
	case NODE_CONTINUE:
		emit_line(g->e, "continue;");
		break;
	case NODE_NEXT:
		emit_line(g->e, "goto out; /* next */");
		break;
	case NODE_RETURN:
		if (n->u.ret.value && g->func && g->func->type == TYPE_STRING)
			emit_line(g->e, "_stp_strlcpy(l->__retvalue, %s);", gen_expr(g, n->u.ret.value));
		else if (n->u.ret.value && g->func && g->func->type == TYPE_LONG)
			emit_line(g->e, "l->__retvalue = %s;", gen_expr(g, n->u.ret.value));
		else if (n->u.ret.value)
			emit_line(g->e, "(void)%s;", gen_expr(g, n->u.ret.value));
		emit_line(g->e, "goto out;");
		break;
	case NODE_DELETE:
		gen_delete(g, n);
		break;
	case NODE_EMBEDDED:
		emit_line(g->e, "{");
		emit_raw(g->e, "%s\n", n->u.embedded.code);
		emit_line(g->e, "}");
		break;
	default:
		emit_line(g->e, "(void)%s;", gen_expr(g, n));
		break;
	}
}

void codegen_body(struct codegen *g, struct node *body)
{
	if (body->kind == NODE_BLOCK)
		gen_block(g, body);
	else
		gen_stmt(g, body);
}

/* The helpers codegen_stats.c and codegen_regex.c build on. */
const char *codegen_expr(struct codegen *g, struct node *n)
{
	return gen_expr(g, n);
}

const char *codegen_temp(struct codegen *g, const char *prefix)
{
	return temp(g, prefix);
}

const char *codegen_string_slot(struct codegen *g)
{
	return string_slot(g);
}

const char *codegen_fail(const char *msg, const struct node *n)
{
	return fail(msg, n);
}

const char *codegen_keys(struct codegen *g, struct vec *keys, const char *k)
{
	return gen_keys(g, keys, k);
}

void codegen_charge(struct codegen *g, int count, const struct node *n)
{
	charge(g, count, n);
}

void codegen_substmt(struct codegen *g, struct node *n)
{
	gen_substmt(g, n);
}
