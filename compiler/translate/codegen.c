/*
 * codegen.c - pass 3: C for the statements and expressions of one body.
 *
 * Conventions of the generated code (see runtime/runtime_api.h):
 *  - c is the struct context *, l the body's locals struct in it;
 *  - a failing operation sets c->base.last_error and last_stmt and jumps
 *    to the body's "out" label, which releases locks and returns, or,
 *    inside try { }, to the try's catch label; MAXACTION and 'next' (which
 *    unwinds out of functions like an error) always go to "out";
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
#include "format.h"
#include "optimize.h"
#include "resolve.h"
#include "targetvar.h"

static const char *gen_expr(struct codegen *g, struct node *n);
static void gen_stmt(struct codegen *g, struct node *n);

/* A context-sensitive function's clone for the probe being generated (translate.c numbers them). */
const char *codegen_function_name(const struct codegen *g, const struct function *fn)
{
	if (!fn->context_sensitive || !fn->clone_of || !g->probe || g->probe->index >= g->s->probes.n ||
	    fn->clone_of[g->probe->index] < 0)
		return fn->name;
	return ast_printf("%s__ctx%d", fn->name, fn->clone_of[g->probe->index]);
}

const char *codegen_near(const struct node *n)
{
	/* SystemTap names tokens by their lexical kind: a call is an identifier, p->x starts with 'p' */
	if (n->kind == NODE_TARGET && n->u.target.base == TARGET_BASE_AUTO)
		return codegen_near(n->u.target.operand);
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

/* Where an error jumps: the innermost try's catch label, or the body's out. */
static const char *fail_label(const struct codegen *g)
{
	return g->fail_label ? g->fail_label : "out";
}

/* C code that fails the probe with msg near n (usable inside an expression). */
static const char *fail(const struct codegen *g, const char *msg, const struct node *n)
{
	return ast_printf("STP_FAIL_AT(%s, %s, %s)", fail_label(g), emit_c_string(msg),
			  emit_c_string(codegen_near(n)));
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
	case NODE_INDEX: case NODE_CALL: case NODE_TERNARY: case NODE_ASSIGN: case NODE_INCDEC:
	case NODE_IN: case NODE_WILDCARD: case NODE_BLOCK: case NODE_EXPR_STMT: case NODE_NULL_STMT:
	case NODE_IF: case NODE_WHILE: case NODE_FOR: case NODE_FOREACH: case NODE_BREAK:
	case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN: case NODE_DELETE: case NODE_TRY:
	case NODE_EMBEDDED: case NODE_STAT_ADD: case NODE_STAT_OP: case NODE_REGEX:
	case NODE_TARGET: case NODE_DEFINED: case NODE_ENTRY:
		return false;
	}
	return false; /* not reached: each kind returns above */
}

/* The map of an array symbol. */
static const char *map_of(const struct node *var)
{
	return codegen_symbol(var->u.var.sym);
}

/*
 * Evaluate keys in order into a key array named k; returns the declarations
 * and assignments to place at the start of a statement expression.
 * A '*' key is left zero (the caller passes a wildcard mask).
 */
static const char *gen_keys(struct codegen *g, struct vec *keys, const char *k)
{
	char *code = ast_printf("union _stp_key %s[%d]; ", k, keys->n);
	for (int i = 0; i < keys->n; i++) {
		struct node *key = keys->items[i];
		if (key->kind == NODE_WILDCARD) {
			code = ast_printf("%s%s[%d].n = 0; ", code, k, i);
			continue;
		}
		const char *v = gen_expr(g, key);
		if (key->type == TYPE_STRING)
			code = ast_printf("%s%s[%d].s = %s; ", code, k, i, v);
		else
			code = ast_printf("%s%s[%d].n = %s; ", code, k, i, v);
	}
	return code;
}

/* Bit i set where key i is '*'; 0 when there is no wildcard. */
static unsigned wildcard_mask(const struct vec *keys)
{
	unsigned mask = 0;
	for (int i = 0; i < keys->n; i++)
		if (((struct node *)keys->items[i])->kind == NODE_WILDCARD)
			mask |= 1u << i;
	return mask;
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
		? ast_printf("if (unlikely(%s == 0)) %s; ", b, fail(g, "division by 0", n)) : "";
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

/*
 * An array of one key that is not '*': its single-key lookup, with the
 * key's C value in *key (see _stp_map_find_str); NULL otherwise, and keys
 * go through gen_keys.
 */
static const char *single_key(struct codegen *g, struct vec *keys, const char **key)
{
	struct node *k = keys->n == 1 ? keys->items[0] : NULL;
	if (!k || k->kind == NODE_WILDCARD)
		return NULL;
	*key = gen_expr(g, k);
	return k->type == TYPE_STRING ? "str" : "long";
}

/* Read an array element: 0 or "" when absent. */
static const char *gen_index_read(struct codegen *g, struct node *n)
{
	const char *k = temp(g, "k"), *node = temp(g, "n");
	const char *map = map_of(n->u.index.array);
	const char *key, *kind = single_key(g, &n->u.index.keys, &key);
	const char *lookup = kind ? ast_printf("struct _stp_map_node *%s = _stp_map_find_%s(%s, %s); ", node, kind, map, key)
		: ast_printf("%sstruct _stp_map_node *%s = _stp_map_find(%s, %s); ", gen_keys(g, &n->u.index.keys, k),
			     node, map, k);
	if (n->type == TYPE_STRING) {
		const char *slot = string_slot(g);
		return ast_printf("({ %sif (%s) _stp_strlcpy(%s, _stp_node_str(%s)); else %s[0] = '\\0'; (const char *)%s; })",
				  lookup, node, slot, node, slot, slot);
	}
	return ast_printf("({ %s%s ? *_stp_node_long(%s) : 0; })", lookup, node, node);
}

/* The node of arr[keys] for writing, failing when the array is full. */
static const char *gen_index_node(struct codegen *g, struct node *index, const char *node, const struct node *where)
{
	const char *k = temp(g, "k");
	const char *map = map_of(index->u.index.array);
	const char *key, *kind = single_key(g, &index->u.index.keys, &key);
	const char *lookup = kind ? ast_printf("struct _stp_map_node *%s = _stp_map_get_%s(%s, %s); ", node, kind, map, key)
		: ast_printf("%sstruct _stp_map_node *%s = _stp_map_get(%s, %s); ", gen_keys(g, &index->u.index.keys, k),
			     node, map, k);
	struct global *gl = index->u.index.array->u.var.sym->global;
	const char *msg = gl && gl->max_entries
		? ast_printf("Array overflow, check size limit (%" PRId64 ")", gl->max_entries)
		: "Array overflow, check MAXMAPENTRIES";
	return ast_printf("%sif (unlikely(!%s)) %s; ", lookup, node, fail(g, msg, where));
}

static const char *gen_assign(struct codegen *g, struct node *n)
{
	struct node *lhs = n->u.assign.lhs, *rhs = n->u.assign.rhs;
	enum ast_op op = n->u.assign.op;
	if (lhs->kind == NODE_TARGET)
		return targetvar_gen_assign(g, n); /* it generates the value: a long $value takes it in pieces */
	const char *v = temp(g, "v");
	const char *value = gen_expr(g, rhs);
	if (lhs->type == TYPE_STRING || n->type == TYPE_STRING) {
		const char *dst;
		const char *prefix = "";
		if (lhs->kind == NODE_INDEX) {
			const char *node = temp(g, "n");
			prefix = gen_index_node(g, lhs, node, n);
			dst = ast_printf("_stp_node_str(%s)", node);
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
		? ast_printf("if (unlikely(%s == 0)) %s; ", b, fail(g, "division by 0", n)) : "";
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
 * then copied into the callee's frame c->locals[c->base.nesting]; a string
 * result is written by the callee straight into a slot of the caller.
 * An embedded-C function takes its arguments as C arguments and has no
 * frame (translate.c), and is checked for an error only if it can fail.
 */
static const char *gen_function_call(struct codegen *g, struct node *n)
{
	struct function *fn = n->u.call.func;
	bool embedded = fn->body->kind == NODE_EMBEDDED;
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
	const char *slot = fn->type == TYPE_STRING ? string_slot(g) : NULL;
	/* an error inside the callee that did not say where is reported at the call; one that did names the call */
	const char *check = ast_printf("if (unlikely(c->base.last_error)) { if (!c->base.last_stmt) "
				       "c->base.last_stmt = %s; else _stp_called_from(&c->base, %s); goto %s; } ",
				       emit_c_string(codegen_near(n)),
				       emit_c_string(ast_printf("'%s' at %s:%d:%d", fn->name, n->loc.file, n->loc.line,
								n->loc.col)),
				       fail_label(g));
	if (embedded) {
		char *call = ast_printf("function_%s(c%s%s", fn->name, slot ? ", " : "", slot ? slot : "");
		for (int i = 0; i < fn->params.n; i++)
			call = ast_printf("%s, %s", call, args[i]);
		call = ast_printf("%s)", call);
		if (!fn->can_fail)
			check = "";
		if (fn->type == TYPE_LONG)
			return ast_printf("%sint64_t %s = %s; %s%s; })", code, frame, call, check, frame);
		code = ast_printf("%s%s; %s", code, call, check);
		return slot ? ast_printf("%s(const char *)%s; })", code, slot) : ast_printf("%s(int64_t)0; })", code);
	}
	const char *name = codegen_function_name(g, fn);
	code = ast_printf("%sstruct function_%s_locals *%s = &c->locals[c->base.nesting].function_%s; (void)%s; ",
			  code, name, frame, name, frame);
	for (int i = 0; i < fn->params.n; i++) {
		struct param *p = fn->params.items[i];
		if (p->sym->type == TYPE_STRING)
			code = ast_printf("%s_stp_strlcpy(%s->l_%s, %s); ", code, frame, p->name, args[i]);
		else
			code = ast_printf("%s%s->l_%s = %s; ", code, frame, p->name, args[i]);
	}
	if (slot)
		code = ast_printf("%s%s->__retvalue = %s; ", code, frame, slot);
	code = ast_printf("%sfunction_%s(c); %s", code, name, check);
	if (fn->type == TYPE_STRING)
		return ast_printf("%s(const char *)%s; })", code, slot);
	if (fn->type == TYPE_LONG)
		return ast_printf("%s%s->__retvalue; })", code, frame);
	return ast_printf("%s(int64_t)0; })", code);
}

/* A format being turned into calls: arguments first, then the output pieces. */
struct format_out {
	const char *dest;  /* string_t to fill, or "NULL" for the output */
	char *decls;       /* arguments evaluated in order into temporaries */
	char *calls;       /* the pieces, written once every argument is known */
	char *kfmt;        /* pending kernel format text */
	char *kargs;       /* its arguments, each with a leading ", " */
};

/* Literal text into the pending kernel format ('%' doubled). */
static void format_literal(struct format_out *f, const char *text)
{
	for (const char *p = text; *p; p++)
		f->kfmt = ast_printf("%s%s", f->kfmt, *p == '%' ? "%%" : ast_strndup(p, 1));
}

/* Printing (not sprintf): output pieces go straight to the print buffer, without vsnprintf. */
static bool format_direct(const struct format_out *f)
{
	return !strcmp(f->dest, "NULL");
}

/* Write out the pending kernel format, if any: printed literal text as bytes. */
static void format_flush(struct format_out *f)
{
	if (!*f->kfmt)
		return;
	if (format_direct(f) && !*f->kargs) {
		/* only text, '%' doubled */
		char *raw = ast_strdup(f->kfmt), *to = raw;
		for (const char *p = f->kfmt; *p; p++) {
			*to++ = *p;
			if (*p == '%')
				p++;
		}
		*to = '\0';
		f->calls = ast_printf("%s_stp_print_bytes(%s, %zu); ", f->calls, emit_c_string(raw), strlen(raw));
	} else {
		f->calls = ast_printf("%s_stp_format_cat(%s, %s%s); ", f->calls, f->dest, emit_c_string(f->kfmt), f->kargs);
	}
	f->kfmt = "";
	f->kargs = "";
}

/*
 * A value printed as plain %d, %u or %s (no flags, width or precision),
 * straight into the print buffer: true if it was.
 */
static bool format_value_direct(struct format_out *f, char conv, const char *t)
{
	const char *call = conv == 'd' || conv == 'i' ? "_stp_print_s64"
			   : conv == 'u'	     ? "_stp_print_u64"
			   : conv == 's'	     ? "_stp_print"
						     : NULL;
	if (!format_direct(f) || !call)
		return false;
	format_flush(f);
	f->calls = ast_printf("%s%s(%s); ", f->calls, call, t);
	return true;
}

/* Evaluate a into a temporary of its type; returns the temporary. */
static const char *format_arg(struct codegen *g, struct format_out *f, struct node *a)
{
	const char *value = gen_expr(g, a);
	const char *t = temp(g, "p");
	if (a->type == TYPE_STRING)
		f->decls = ast_printf("%sconst char *%s = %s; ", f->decls, t, value);
	else
		f->decls = ast_printf("%sint64_t %s = %s; ", f->decls, t, value);
	return t;
}

static const char *format_result(struct format_out *f)
{
	format_flush(f);
	if (strcmp(f->dest, "NULL"))
		return ast_printf("({ %s%s[0] = '\\0'; %s(const char *)%s; })", f->decls, f->dest, f->calls, f->dest);
	return ast_printf("({ %s%s(int64_t)0; })", f->decls, f->calls);
}

/*
 * printf / sprintf: the format, converted at compile time. Every argument
 * is evaluated (in order) before anything is written, so an error in one
 * prints nothing. Runs of vsnprintf conversions become one call each; %b,
 * %m and %M are calls of their own.
 */
static const char *gen_format(struct codegen *g, struct node *n, const char *dest)
{
	struct node *fmt = n->u.call.args.items[0];
	struct vec specs = {0};
	format_parse(fmt->u.str, fmt->loc, &specs, false);
	struct format_out f = {.dest = dest, .decls = "", .calls = "", .kfmt = "", .kargs = ""};
	int argi = 1;
	for (int i = 0; i < specs.n; i++) {
		struct format_spec *sp = specs.items[i];
		format_literal(&f, sp->literal);
		if (!sp->conv)
			break;
		if (sp->conv == '%') {
			f.kfmt = ast_printf("%s%%%%", f.kfmt);
			continue;
		}
		const char *width = NULL, *precision = NULL;
		if (sp->width == FORMAT_STAR)
			width = format_arg(g, &f, n->u.call.args.items[argi++]);
		if (sp->precision == FORMAT_STAR)
			precision = format_arg(g, &f, n->u.call.args.items[argi++]);
		const char *t = format_arg(g, &f, n->u.call.args.items[argi++]);
		if (sp->conv == 'b') {
			format_flush(&f);
			f.calls = ast_printf("%s_stp_format_binary(%s, %s, %d); ", f.calls, dest, t,
					     sp->width == FORMAT_NONE ? 8 : sp->width);
		} else if (sp->conv == 'm' || sp->conv == 'M') {
			format_flush(&f);
			const char *len = precision ? precision
					  : ast_printf("%d", sp->precision == FORMAT_NONE ? 1 : sp->precision);
			const char *w = width ? width : ast_printf("%d", sp->width == FORMAT_NONE ? 0 : sp->width);
			/* checked with the arguments, before anything is written */
			f.decls = ast_printf("%sif (unlikely(_stp_format_memory_check(%s, %s, %s, %d))) { "
					     "_stp_error_fmt(&c->base, \"kernel read fault at 0x%%llx\", "
					     "(unsigned long long)%s); c->base.last_stmt = %s; goto %s; } ",
					     f.decls, dest, t, len, sp->conv == 'M', t, emit_c_string(codegen_near(n)),
					     fail_label(g));
			f.calls = ast_printf("%s_stp_format_memory(%s, %s, %s, %s, %d, %d); ", f.calls, dest, t, len, w,
					     strchr(sp->flags, '-') != NULL, sp->conv == 'M');
		} else if (!*sp->flags && sp->width == FORMAT_NONE && sp->precision == FORMAT_NONE &&
			   format_value_direct(&f, sp->conv, t)) {
			continue;
		} else {
			f.kfmt = ast_printf("%s%s", f.kfmt, sp->kernel);
			if (width)
				f.kargs = ast_printf("%s, (int)%s", f.kargs, width);
			if (precision)
				f.kargs = ast_printf("%s, (int)%s", f.kargs, precision);
			f.kargs = ast_printf("%s, %s%s", f.kargs, sp->conv == 'c' ? "(int)" : "", t);
		}
	}
	return format_result(&f);
}

/*
 * print, println, printd, printdln and their sprint* twins: each value in
 * turn (numbers in decimal), the delimiter between two values, a newline
 * at the end for the -ln forms.
 */
static const char *gen_print(struct codegen *g, struct node *n, const char *dest, bool delimited, bool newline)
{
	struct format_out f = {.dest = dest, .decls = "", .calls = "", .kfmt = "", .kargs = ""};
	int first = delimited ? 1 : 0;
	const char *delim = delimited ? ((struct node *)n->u.call.args.items[0])->u.str : "";
	for (int i = first; i < n->u.call.args.n; i++) {
		struct node *a = n->u.call.args.items[i];
		if (a->type == TYPE_STATS) {
			/* a histogram: drawn in its place among the other values */
			if (i > first)
				format_literal(&f, delim);
			format_flush(&f);
			f.calls = ast_printf("%s%s; ", f.calls, codegen_stats_print_hist(g, a));
			continue;
		}
		const char *t = format_arg(g, &f, a);
		if (i > first)
			format_literal(&f, delim);
		if (format_value_direct(&f, a->type == TYPE_STRING ? 's' : 'd', t))
			continue;
		f.kfmt = ast_printf("%s%s", f.kfmt, a->type == TYPE_STRING ? "%s" : "%lld");
		f.kargs = ast_printf("%s, %s%s", f.kargs, a->type == TYPE_STRING ? "" : "(long long)", t);
	}
	if (newline)
		format_literal(&f, "\n");
	return format_result(&f);
}

/* @enumname(value, ...): a switch over the enumerators of its type (enums.c); another value in decimal. */
static const char *gen_enumname(struct codegen *g, struct node *n)
{
	const char *slot = string_slot(g), *cases = "";
	struct vec *items = n->u.call.enumerators;
	for (int i = 0; items && i < items->n; i++) {
		struct dbg_var *v = items->items[i];
		bool repeated = false; /* two enumerators of one value: the first one names it */
		for (int j = 0; j < i && !repeated; j++)
			repeated = ((struct dbg_var *)items->items[j])->loc.offset == v->loc.offset;
		if (repeated)
			continue;
		/* a negative value as the bits of an unsigned literal: -9223372036854775808LL is not a C constant */
		const char *value = v->loc.offset >= 0 ? ast_printf("%" PRId64 "LL", v->loc.offset)
						       : ast_printf("(int64_t)%" PRIu64 "ULL", (uint64_t)v->loc.offset);
		cases = ast_printf("%scase %s: _n = %s; break; ", cases, value, emit_c_string(v->name));
	}
	return ast_printf("({ int64_t _e = %s; const char *_n = NULL; switch (_e) { %sdefault: break; } "
			  "if (_n) _stp_strlcpy(%s, _n); else _stp_snprintf(%s, MAXSTRINGLEN, \"%%lld\", (long long)_e); "
			  "(const char *)%s; })",
			  gen_expr(g, n->u.call.args.items[0]), cases, slot, slot, slot);
}

static const char *gen_call(struct codegen *g, struct node *n)
{
	switch ((enum builtin)n->u.call.builtin) {
	case BUILTIN_PRINTF:
		return gen_format(g, n, "NULL");
	case BUILTIN_SPRINTF:
		return gen_format(g, n, string_slot(g));
	case BUILTIN_PRINT:
		return gen_print(g, n, "NULL", false, false);
	case BUILTIN_PRINTLN:
		return gen_print(g, n, "NULL", false, true);
	case BUILTIN_SPRINT:
		return gen_print(g, n, string_slot(g), false, false);
	case BUILTIN_SPRINTLN:
		return gen_print(g, n, string_slot(g), false, true);
	case BUILTIN_PRINTD:
		return gen_print(g, n, "NULL", true, false);
	case BUILTIN_PRINTDLN:
		return gen_print(g, n, "NULL", true, true);
	case BUILTIN_SPRINTD:
		return gen_print(g, n, string_slot(g), true, false);
	case BUILTIN_SPRINTDLN:
		return gen_print(g, n, string_slot(g), true, true);
	case BUILTIN_CONST:
		return ast_printf("((int64_t)(%s))", ((struct node *)n->u.call.args.items[0])->u.str);
	case BUILTIN_ENUMNAME:
		return gen_enumname(g, n);
	case BUILTIN_NONE:
		break;
	}
	return gen_function_call(g, n);
}

/*
 * A string literal used as a value is cut to MAXSTRINGLEN - 1 bytes like every other string
 * (print("...") of a long literal prints the cut text). The limit is known here unless
 * -D MAXSTRINGLEN is not a plain number; then the literal is copied, and so cut, at run time.
 */
static const char *gen_string_literal(struct codegen *g, const char *text)
{
	long limit = optimize_string_limit(g->s);
	size_t len = strlen(text);
	if (limit >= 0)
		return emit_c_string(len > (size_t)limit ? ast_strndup(text, (size_t)limit) : text);
	if (len == 0)
		return emit_c_string(text);
	const char *slot = string_slot(g);
	return ast_printf("({ _stp_strlcpy(%s, %s); (const char *)%s; })", slot, emit_c_string(text), slot);
}

/*
 * An embedded-C expression (guru mode, tapsets): its C as an int64_t, or
 * copied into a string slot when it says "/\* string *\/". Inside it,
 * CONTEXT is the probe's context and, in a function, STAP_ARG_x each
 * parameter, as in an embedded-C function. The directives sit on lines of
 * their own inside the statement expression.
 */
static const char *gen_embedded_expr(struct codegen *g, struct node *n)
{
	char *defs = "\n#define CONTEXT (&c->base)\n", *undefs = "\n#undef CONTEXT\n";
	for (int i = 0; g->func && i < g->func->params.n; i++) {
		const struct param *p = g->func->params.items[i];
		defs = ast_printf("%s#define STAP_ARG_%s (%s)\n", defs, p->name, codegen_symbol(p->sym));
		undefs = ast_printf("%s#undef STAP_ARG_%s\n", undefs, p->name);
	}
	const char *t = codegen_temp(g, "e");
	if (n->type == TYPE_STRING) {
		const char *slot = string_slot(g);
		return ast_printf("({%s_stp_strlcpy(%s, (%s));%s(const char *)%s; })", defs, slot, n->u.embedded.code,
				  undefs, slot);
	}
	return ast_printf("({%sint64_t %s = (int64_t)(%s);%s%s; })", defs, t, n->u.embedded.code, undefs, t);
}

static const char *gen_expr(struct codegen *g, struct node *n)
{
	switch (n->kind) {
	case NODE_NUM:
		return long_literal(n->u.num);
	case NODE_EMBEDDED:
		return gen_embedded_expr(g, n);
	case NODE_STR:
		return gen_string_literal(g, n->u.str);
	case NODE_VAR:
		if (n->type == TYPE_STRING)
			return ast_printf("(const char *)%s", codegen_symbol(n->u.var.sym));
		return codegen_symbol(n->u.var.sym);
	case NODE_INDEX:
		return gen_index_read(g, n);
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
	case NODE_TARGET:
	case NODE_DEFINED:
	case NODE_ENTRY:
		return targetvar_gen_expr(g, n);
	case NODE_IN: {
		if (n->u.in.array->u.var.sym->type == TYPE_STATS)
			return codegen_stats_in(g, n);
		const char *k = temp(g, "k");
		const char *keys = gen_keys(g, &n->u.in.keys, k);
		unsigned wild = wildcard_mask(&n->u.in.keys);
		if (wild)
			return ast_printf("({ %s(int64_t)(_stp_map_find_matching(%s, %s, 0x%xu) != NULL); })", keys,
					  map_of(n->u.in.array), k, wild);
		return ast_printf("({ %s(int64_t)(_stp_map_find(%s, %s) != NULL); })", keys, map_of(n->u.in.array), k);
	}
	case NODE_WILDCARD: case NODE_BLOCK: case NODE_EXPR_STMT: case NODE_NULL_STMT: case NODE_IF:
	case NODE_WHILE: case NODE_FOR: case NODE_FOREACH: case NODE_BREAK: case NODE_CONTINUE:
	case NODE_NEXT: case NODE_RETURN: case NODE_DELETE: case NODE_TRY:
		diag_error(n->loc, "internal error: %s used as an expression", ast_kind_name(n->kind));
		return "0";
	}
	return "0"; /* not reached: each kind returns above */
}

/* Charge count actions; n locates the MAXACTION error. */
static void charge(struct codegen *g, int count, const struct node *n)
{
	if (count <= 0)
		return;
	if (n->kind == NODE_EXPR_STMT)
		n = n->u.expr_stmt.expr;
	/* not catchable: straight to out, whatever try encloses it */
	emit_line(g->e, "if (unlikely((c->base.actionremaining -= %d) < 0)) STP_FAIL_AT(out, \"MAXACTION exceeded\", %s);",
		  count, emit_c_string(codegen_near(n)));
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
	if (n->u.foreach.array->kind == NODE_STAT_OP) {
		codegen_stats_foreach_hist(g, n);
		return;
	}
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
	const char *slice = codegen_foreach_slice(g, n, node); /* declarations first */
	if (n->u.foreach.sort_dir)
		emit_line(g->e, "_stp_map_sort(%s, %d, %d);", map, n->u.foreach.sort_column, n->u.foreach.sort_dir);
	emit_open(g->e, "for (%s = _stp_map_first(%s); %s%s; %s = _stp_map_next(%s, %s)) {", node, map, node,
		  limit && !slice ? ast_printf(" && %s-- > 0", limit) : "", node, map, node);
	charge(g, 1, n);
	if (slice)
		codegen_foreach_filter(g, slice, limit);
	codegen_bind_foreach_keys(g, n, node);
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
		unsigned wild = wildcard_mask(&t->u.index.keys);
		if (wild)
			emit_line(g->e, "{ %s_stp_map_delete_matching(%s, %s, 0x%xu); }", keys,
				  map_of(t->u.index.array), k, wild);
		else
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

/*
 * try { body } catch (msg) { handler }: errors in body jump to the catch
 * label instead of out. MAXACTION and 'next' are not caught: they go on to
 * out. The handler runs with the enclosing label, so its errors (and
 * nested tries) reach the enclosing try or the probe.
 */
static void gen_try(struct codegen *g, struct node *n)
{
	const char *outer = g->fail_label;
	const char *catch_label = temp(g, "catch");
	const char *end_label = temp(g, "try_end");
	emit_open(g->e, "{ /* try at %s:%d:%d */", n->loc.file, n->loc.line, n->loc.col);
	emit_open(g->e, "{");
	g->fail_label = catch_label;
	gen_block(g, n->u.try_stmt.body);
	g->fail_label = outer;
	emit_close(g->e, "}");
	emit_line(g->e, "goto %s;", end_label);
	emit_line(g->e, "%s: __attribute__((unused));", catch_label);
	emit_line(g->e, "if (c->base.last_error == _stp_next_unwind || c->base.actionremaining < 0)");
	emit_line(g->e, "\tgoto out;");
	if (n->u.try_stmt.var)
		emit_line(g->e, "_stp_strlcpy(%s, c->base.last_error);", codegen_symbol(n->u.try_stmt.var->u.var.sym));
	emit_line(g->e, "c->base.last_error = NULL;");
	emit_line(g->e, "c->base.last_stmt = NULL;");
	emit_line(g->e, "c->base.ncalled = c->base.called_more = 0;");
	emit_open(g->e, "{");
	gen_block(g, n->u.try_stmt.handler);
	emit_close(g->e, "}");
	emit_line(g->e, "%s: ;", end_label);
	emit_close(g->e, "}");
}

/* -D STP_EXECTRACE: the module reports each statement as it runs (decided here, so other modules carry nothing). */
static bool exectrace(const struct codegen *g)
{
	for (int i = 0; i < g->s->defines.n; i++)
		if (!strcmp(((struct define *)g->s->defines.items[i])->name, "STP_EXECTRACE"))
			return true;
	return false;
}

static void gen_stmt(struct codegen *g, struct node *n)
{
	if (!n)
		return;
	if (n->kind != NODE_BLOCK && n->kind != NODE_NULL_STMT && exectrace(g))
		emit_line(g->e, "_stp_exectrace(%s);",
			  emit_c_string(ast_printf("%s:%d%s", n->loc.file, n->loc.line,
						   g->func ? ast_printf(" in function '%s'", g->func->name) : "")));
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
		if (g->func) /* unwind through the callers, who see an error; the probe's out clears it */
			emit_line(g->e, "c->base.last_error = _stp_next_unwind; goto out; /* next */");
		else
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
	case NODE_TRY:
		gen_try(g, n);
		break;
	case NODE_EMBEDDED:
		emit_line(g->e, "{");
		emit_raw(g->e, "%s\n", n->u.embedded.code);
		emit_line(g->e, "}");
		break;
	case NODE_NUM: case NODE_STR: case NODE_VAR: case NODE_INDEX: case NODE_CALL:
	case NODE_UNARY: case NODE_BINARY: case NODE_TERNARY: case NODE_ASSIGN: case NODE_INCDEC:
	case NODE_IN: case NODE_WILDCARD: case NODE_STAT_ADD: case NODE_STAT_OP: case NODE_REGEX:
	case NODE_TARGET: case NODE_DEFINED: case NODE_ENTRY:
		emit_line(g->e, "(void)%s;", gen_expr(g, n));
		break;
	}
}

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

const char *codegen_fail(struct codegen *g, const char *msg, const struct node *n)
{
	return fail(g, msg, n);
}

const char *codegen_fail_label(struct codegen *g)
{
	return fail_label(g);
}

void codegen_body(struct codegen *g, struct node *body)
{
	if (body->kind == NODE_BLOCK)
		gen_block(g, body);
	else
		gen_stmt(g, body);
}

/*
 * foreach over arr[*, k]: emits the slice's keys, evaluated once before the
 * loop; returns the C condition the keys of map node `node` must meet, or
 * NULL without a slice.
 */
const char *codegen_foreach_slice(struct codegen *g, const struct node *n, const char *node)
{
	if (!n->u.foreach.slice.n)
		return NULL;
	char *cond = "1";
	for (int i = 0; i < n->u.foreach.slice.n; i++) {
		struct node *k = n->u.foreach.slice.items[i];
		if (k->kind == NODE_WILDCARD)
			continue;
		if (k->type == TYPE_STRING) {
			const char *slot = string_slot(g), *t = temp(g, "slice");
			emit_line(g->e, "const char *%s = ({ _stp_strlcpy(%s, %s); (const char *)%s; });", t, slot,
				  gen_expr(g, k), slot);
			cond = ast_printf("%s && !strcmp(_stp_node_key_str(%s, %d), %s)", cond, node, i, t);
		} else {
			const char *t = temp(g, "slice");
			emit_line(g->e, "int64_t %s = %s;", t, gen_expr(g, k));
			cond = ast_printf("%s && _stp_node_key_long(%s, %d) == %s", cond, node, i, t);
		}
	}
	return cond;
}

/* In a sliced foreach's body: skip the elements outside the slice, then count the limit. */
void codegen_foreach_filter(struct codegen *g, const char *slice, const char *limit)
{
	emit_line(g->e, "if (!(%s))", slice);
	emit_line(g->e, "\tcontinue;");
	if (limit) {
		emit_line(g->e, "if (%s-- <= 0)", limit);
		emit_line(g->e, "\tbreak;");
	}
}

/* foreach: copy the keys of map node `node` into the loop's key variables. */
void codegen_bind_foreach_keys(struct codegen *g, const struct node *n, const char *node)
{
	for (int i = 0; i < n->u.foreach.keys.n; i++) {
		struct node *k = n->u.foreach.keys.items[i];
		if (k->u.var.sym->type == TYPE_STRING)
			emit_line(g->e, "_stp_strlcpy(%s, _stp_node_key_str(%s, %d));", codegen_symbol(k->u.var.sym), node, i);
		else
			emit_line(g->e, "%s = _stp_node_key_long(%s, %d);", codegen_symbol(k->u.var.sym), node, i);
	}
}

/* End-of-script display: print `name[k1,"k2"` for the map node in C variable n. */
void codegen_emit_display_keys(struct emitter *e, const char *name, const struct symbol *sym)
{
	emit_line(e, "_stp_print(\"%s[\");", name);
	for (int k = 0; k < sym->arity; k++) {
		if (k)
			emit_line(e, "_stp_print_char(',');");
		if (sym->keys[k] == TYPE_STRING)
			emit_line(e, "_stp_printf(\"\\\"%%s\\\"\", _stp_node_key_str(n, %d));", k);
		else
			emit_line(e, "_stp_printf(\"%%lld\", (long long)_stp_node_key_long(n, %d));", k);
	}
}

/* Also for codegen_stats.c and the regex matchers: */
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
