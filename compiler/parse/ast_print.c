/*
 * ast_print.c - canonical printing of the tree for -p1 and -p2.
 *
 * The output is valid SystemTap that parses back to the same output:
 *   - top-level %{ %} blocks first, then globals, functions and probes, each
 *     in source order, separated by blank lines;
 *   - two-space indentation, one statement per line, every simple statement
 *     ends in ';', block braces on the line of their statement;
 *   - an operator expression nested inside another one is parenthesised, so
 *     precedence is explicit: x = (a + (b * c)); the outermost expression of
 *     a statement, condition, argument or index is printed bare;
 *   - string literals are re-escaped (\n \t \" \\ ..., other control bytes
 *     as three-digit octal), numbers printed in signed decimal;
 *   - if/while/for/foreach bodies that are blocks open on the header line,
 *     other bodies go on the next line one level deeper; "else if" stays flat.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ast.h"

static void print_expr(FILE *out, const struct node *n, bool nested);

static void print_indent(FILE *out, int indent)
{
	for (int i = 0; i < indent; i++)
		fputs("  ", out);
}

static void print_string_literal(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '\n': fputs("\\n", out); break;
		case '\t': fputs("\\t", out); break;
		case '\r': fputs("\\r", out); break;
		case '\a': fputs("\\a", out); break;
		case '\b': fputs("\\b", out); break;
		case '\f': fputs("\\f", out); break;
		case '\v': fputs("\\v", out); break;
		case '\\': fputs("\\\\", out); break;
		case '"': fputs("\\\"", out); break;
		default:
			if (*p < 0x20 || *p >= 0x7f)
				fprintf(out, "\\%03o", *p);
			else
				fputc(*p, out);
			break;
		}
	}
	fputc('"', out);
}

/* A comma-separated list of expressions, each printed bare. */
static void print_expr_list(FILE *out, const struct vec *v)
{
	for (int i = 0; i < v->n; i++) {
		if (i)
			fputs(", ", out);
		print_expr(out, v->items[i], false);
	}
}

/*
 * Numbers print in signed decimal, except INT64_MIN: its magnitude does not
 * fit, so "-9223372036854775808" would parse back as a negation. Its hex
 * spelling parses back to itself.
 */
static void print_number(FILE *out, int64_t value)
{
	if (value == INT64_MIN)
		fputs("0x8000000000000000", out);
	else
		fprintf(out, "%" PRId64, value);
}

/* Does printing n right after a unary operator need parentheses? */
static bool unary_operand_needs_parens(const struct node *n)
{
	return n->kind == NODE_UNARY || n->kind == NODE_INCDEC ||
	       (n->kind == NODE_NUM && n->u.num < 0 && n->u.num != INT64_MIN);
}

/* $var->f[i]$, &@cast(p, "type", "module")->f, @var("x@file.c"), $$parms$ */
static void print_target(FILE *out, const struct node *n)
{
	static const char *const bases[] = {
		[TARGET_BASE_PARMS] = "$$parms", [TARGET_BASE_LOCALS] = "$$locals",
		[TARGET_BASE_VARS] = "$$vars", [TARGET_BASE_RETURN] = "$$return",
	};
	if (n->u.target.address_of)
		fputc('&', out);
	switch (n->u.target.base) {
	case TARGET_BASE_VAR:
		fprintf(out, "$%s", n->u.target.name);
		break;
	case TARGET_BASE_CAST:
		fputs("@cast(", out);
		print_expr(out, n->u.target.operand, false);
		fputs(", ", out);
		print_string_literal(out, n->u.target.name);
		if (n->u.target.module) {
			fputs(", ", out);
			print_string_literal(out, n->u.target.module);
		}
		fputc(')', out);
		break;
	case TARGET_BASE_AT_VAR:
		fputs("@var(", out);
		print_string_literal(out, n->u.target.name);
		if (n->u.target.module) {
			fputs(", ", out);
			print_string_literal(out, n->u.target.module);
		}
		fputc(')', out);
		break;
	case TARGET_BASE_AUTO:
		print_expr(out, n->u.target.operand, true);
		break;
	default:
		fputs(bases[n->u.target.base], out);
		break;
	}
	for (int i = 0; i < n->u.target.path.n; i++) {
		const struct target_step *st = n->u.target.path.items[i];
		if (st->field) {
			fprintf(out, "->%s", st->field);
		} else {
			fputc('[', out);
			print_expr(out, st->index, false);
			fputc(']', out);
		}
	}
	if (n->u.target.pretty)
		fputs(n->u.target.pretty == 2 ? "$$" : "$", out);
}

/* "lhs OPSUFFIX rhs", each operand parenthesised if it is an operator itself. */
static void print_infix(FILE *out, const struct node *lhs, const char *op, const char *suffix, const struct node *rhs)
{
	print_expr(out, lhs, true);
	fprintf(out, " %s%s ", op, suffix);
	print_expr(out, rhs, true);
}

/* nested: n is an operand of an operator, so operator nodes get parentheses. */
static void print_expr(FILE *out, const struct node *n, bool nested)
{
	if (!n) {
		fputs("<null>", out);
		return;
	}
	switch (n->kind) {
	case NODE_NUM:
		print_number(out, n->u.num);
		return;
	case NODE_STR:
		print_string_literal(out, n->u.str);
		return;
	case NODE_VAR:
		fputs(n->u.var.name, out);
		return;
	case NODE_EMBEDDED:
		fprintf(out, "%%{%s%%}", n->u.embedded.code);
		return;
	case NODE_INDEX:
		print_expr(out, n->u.index.array, true);
		fputc('[', out);
		print_expr_list(out, &n->u.index.keys);
		fputc(']', out);
		return;
	case NODE_CALL:
		fprintf(out, "%s(", n->u.call.name);
		print_expr_list(out, &n->u.call.args);
		fputc(')', out);
		return;
	case NODE_UNARY: {
		const struct node *operand = n->u.unary.operand;
		fputs(ast_op_spelling(n->u.unary.op), out);
		if (unary_operand_needs_parens(operand)) {
			fputc('(', out);
			print_expr(out, operand, false);
			fputc(')', out);
		} else {
			print_expr(out, operand, true);
		}
		return;
	}
	case NODE_WILDCARD:
		fputc('*', out);
		return;
	case NODE_STAT_OP:
		fprintf(out, "%s(", ast_stat_op_name(n->u.stat_op.op));
		print_expr(out, n->u.stat_op.operand, false);
		for (int i = 0; i < n->u.stat_op.args.n; i++) {
			fputs(", ", out);
			print_expr(out, n->u.stat_op.args.items[i], false);
		}
		fputc(')', out);
		if (n->u.stat_op.bucket) {
			fputc('[', out);
			print_expr(out, n->u.stat_op.bucket, false);
			fputc(']', out);
		}
		return;
	case NODE_TARGET:
		print_target(out, n);
		return;
	case NODE_DEFINED:
	case NODE_ENTRY:
		fputs(n->kind == NODE_DEFINED ? "@defined(" : "@entry(", out);
		print_expr(out, n->u.at_op.operand, false);
		fputc(')', out);
		return;
	case NODE_INCDEC:
		if (n->u.incdec.prefix)
			fputs(ast_op_spelling(n->u.incdec.op), out);
		print_expr(out, n->u.incdec.operand, true);
		if (!n->u.incdec.prefix)
			fputs(ast_op_spelling(n->u.incdec.op), out);
		return;
	case NODE_BINARY: case NODE_TERNARY: case NODE_ASSIGN: case NODE_IN: case NODE_BLOCK:
	case NODE_EXPR_STMT: case NODE_NULL_STMT: case NODE_IF: case NODE_WHILE: case NODE_FOR:
	case NODE_FOREACH: case NODE_BREAK: case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN:
	case NODE_DELETE: case NODE_TRY: case NODE_STAT_ADD: case NODE_REGEX:
		break;
	}

	/* Operators with operands on both sides. */
	if (nested)
		fputc('(', out);
	switch (n->kind) {
	case NODE_BINARY:
		print_infix(out, n->u.binary.lhs, ast_op_spelling(n->u.binary.op), "", n->u.binary.rhs);
		break;
	case NODE_TERNARY:
		print_expr(out, n->u.ternary.cond, true);
		fputs(" ? ", out);
		print_expr(out, n->u.ternary.then, true);
		fputs(" : ", out);
		print_expr(out, n->u.ternary.otherwise, true);
		break;
	case NODE_ASSIGN:
		print_infix(out, n->u.assign.lhs, ast_op_spelling(n->u.assign.op), "=", n->u.assign.rhs);
		break;
	case NODE_STAT_ADD:
		print_infix(out, n->u.stat_add.target, "<<<", "", n->u.stat_add.value);
		break;
	case NODE_REGEX:
		print_infix(out, n->u.regex.subject, n->u.regex.negate ? "!~" : "=~", "", n->u.regex.pattern);
		break;
	case NODE_IN:
		if (n->u.in.keys.n == 1) {
			print_expr(out, n->u.in.keys.items[0], true);
		} else {
			fputc('[', out);
			print_expr_list(out, &n->u.in.keys);
			fputc(']', out);
		}
		fputs(" in ", out);
		print_expr(out, n->u.in.array, true);
		break;
	case NODE_NUM: case NODE_STR: case NODE_VAR: case NODE_INDEX: case NODE_CALL:
	case NODE_UNARY: case NODE_INCDEC: case NODE_WILDCARD: case NODE_BLOCK: case NODE_EXPR_STMT:
	case NODE_NULL_STMT: case NODE_IF: case NODE_WHILE: case NODE_FOR: case NODE_FOREACH:
	case NODE_BREAK: case NODE_CONTINUE: case NODE_NEXT: case NODE_RETURN: case NODE_DELETE:
	case NODE_TRY: case NODE_EMBEDDED: case NODE_STAT_OP: case NODE_TARGET: case NODE_DEFINED:
	case NODE_ENTRY:
		fprintf(out, "<%s>", ast_kind_name(n->kind));
		break;
	}
	if (nested)
		fputc(')', out);
}

void ast_print_expr(FILE *out, const struct node *n)
{
	print_expr(out, n, false);
}

static void print_sort(FILE *out, int dir)
{
	if (dir > 0)
		fputc('+', out);
	else if (dir < 0)
		fputc('-', out);
}

static void print_statement(FILE *out, const struct node *n, int indent);

/*
 * The body of if/while/for/foreach: a block stays on the header's line,
 * any other statement goes on the next line, one level deeper.
 */
static void print_body(FILE *out, const struct node *body, int indent)
{
	if (body->kind == NODE_BLOCK) {
		fputc(' ', out);
		print_statement(out, body, indent);
	} else {
		fputc('\n', out);
		print_indent(out, indent + 1);
		print_statement(out, body, indent + 1);
	}
}

/* Print a statement without leading indentation and without a newline after it. */
static void print_foreach(FILE *out, const struct node *n, int indent)
{
	const struct vec *keys = &n->u.foreach.keys;
	int column = n->u.foreach.sort_dir ? n->u.foreach.sort_column : -1;
	fputs("foreach (", out);
	if (n->u.foreach.value) {
		print_expr(out, n->u.foreach.value, false);
		fputs(" = ", out);
	}
	if (keys->n != 1)
		fputc('[', out);
	for (int i = 0; i < keys->n; i++) {
		if (i)
			fputs(", ", out);
		print_expr(out, keys->items[i], false);
		if (column == i + 1)
			print_sort(out, n->u.foreach.sort_dir);
	}
	if (keys->n != 1)
		fputc(']', out);
	fputs(" in ", out);
	print_expr(out, n->u.foreach.array, false);
	for (int i = 0; i < n->u.foreach.slice.n; i++) {
		fputs(i ? ", " : "[", out);
		print_expr(out, n->u.foreach.slice.items[i], false);
	}
	if (n->u.foreach.slice.n)
		fputc(']', out);
	if (column == 0 && n->u.foreach.sort_stat)
		fprintf(out, " %s", ast_stat_op_name((enum stat_op)(n->u.foreach.sort_stat - 1)));
	if (column == 0)
		print_sort(out, n->u.foreach.sort_dir);
	if (n->u.foreach.limit) {
		fputs(" limit ", out);
		print_expr(out, n->u.foreach.limit, false);
	}
	fputc(')', out);
	print_body(out, n->u.foreach.body, indent);
}

static void print_if(FILE *out, const struct node *n, int indent)
{
	fputs("if (", out);
	print_expr(out, n->u.if_stmt.cond, false);
	fputc(')', out);
	print_body(out, n->u.if_stmt.then, indent);
	if (n->u.if_stmt.otherwise) {
		if (n->u.if_stmt.then->kind == NODE_BLOCK) {
			fputc(' ', out);
		} else {
			fputc('\n', out);
			print_indent(out, indent);
		}
		fputs("else", out);
		if (n->u.if_stmt.otherwise->kind == NODE_IF) {
			/* else-if chains stay flat */
			fputc(' ', out);
			print_statement(out, n->u.if_stmt.otherwise, indent);
		} else {
			print_body(out, n->u.if_stmt.otherwise, indent);
		}
	}
}

static void print_statement(FILE *out, const struct node *n, int indent)
{
	switch (n->kind) {
	case NODE_BLOCK:
		fputs("{\n", out);
		for (int i = 0; i < n->u.block.stmts.n; i++) {
			print_indent(out, indent + 1);
			print_statement(out, n->u.block.stmts.items[i], indent + 1);
			fputc('\n', out);
		}
		print_indent(out, indent);
		fputc('}', out);
		break;
	case NODE_EXPR_STMT:
		print_expr(out, n->u.expr_stmt.expr, false);
		fputc(';', out);
		break;
	case NODE_NULL_STMT:
		fputc(';', out);
		break;
	case NODE_IF:
		print_if(out, n, indent);
		break;
	case NODE_WHILE:
		fputs("while (", out);
		print_expr(out, n->u.while_stmt.cond, false);
		fputc(')', out);
		print_body(out, n->u.while_stmt.body, indent);
		break;
	case NODE_FOR:
		fputs("for (", out);
		if (n->u.for_stmt.init)
			print_expr(out, n->u.for_stmt.init, false);
		fputc(';', out);
		if (n->u.for_stmt.cond) {
			fputc(' ', out);
			print_expr(out, n->u.for_stmt.cond, false);
		}
		fputc(';', out);
		if (n->u.for_stmt.step) {
			fputc(' ', out);
			print_expr(out, n->u.for_stmt.step, false);
		}
		fputc(')', out);
		print_body(out, n->u.for_stmt.body, indent);
		break;
	case NODE_FOREACH:
		print_foreach(out, n, indent);
		break;
	case NODE_BREAK:
		fputs("break;", out);
		break;
	case NODE_CONTINUE:
		fputs("continue;", out);
		break;
	case NODE_NEXT:
		fputs("next;", out);
		break;
	case NODE_RETURN:
		fputs("return", out);
		if (n->u.ret.value) {
			fputc(' ', out);
			print_expr(out, n->u.ret.value, false);
		}
		fputc(';', out);
		break;
	case NODE_DELETE:
		fputs("delete ", out);
		print_expr(out, n->u.del.target, false);
		fputc(';', out);
		break;
	case NODE_EMBEDDED:
		fprintf(out, "%%{%s%%}", n->u.embedded.code);
		break;
	case NODE_TRY:
		fputs("try ", out);
		print_statement(out, n->u.try_stmt.body, indent);
		fputs(" catch", out);
		if (n->u.try_stmt.var) {
			fputs(" (", out);
			print_expr(out, n->u.try_stmt.var, false);
			fputc(')', out);
		}
		fputc(' ', out);
		print_statement(out, n->u.try_stmt.handler, indent);
		break;
	case NODE_NUM: case NODE_STR: case NODE_VAR: case NODE_INDEX: case NODE_CALL:
	case NODE_UNARY: case NODE_BINARY: case NODE_TERNARY: case NODE_ASSIGN: case NODE_INCDEC:
	case NODE_IN: case NODE_WILDCARD: case NODE_STAT_ADD: case NODE_STAT_OP: case NODE_REGEX:
	case NODE_TARGET: case NODE_DEFINED: case NODE_ENTRY:
		/* An expression where a statement was expected (pass-2 rewrites). */
		print_expr(out, n, false);
		fputc(';', out);
		break;
	}
}

void ast_print_node(FILE *out, const struct node *n, int indent)
{
	print_indent(out, indent);
	print_statement(out, n, indent);
	fputc('\n', out);
}

void ast_print_probe_point(FILE *out, const struct probe_point *pp)
{
	for (int i = 0; i < pp->components.n; i++) {
		const struct probe_component *c = pp->components.items[i];
		if (i)
			fputc('.', out);
		fputs(c->name, out);
		if (c->arg) {
			fputc('(', out);
			print_expr(out, c->arg, false);
			fputc(')', out);
		}
	}
	if (pp->sufficient)
		fputc('!', out);
	else if (pp->optional)
		fputc('?', out);
	if (pp->cond) {
		fputs(" if (", out);
		print_expr(out, pp->cond, false);
		fputc(')', out);
	}
}

static void print_type_suffix(FILE *out, enum stp_type type)
{
	if (type != TYPE_UNKNOWN)
		fprintf(out, ":%s", ast_type_name(type));
}

static void print_function(FILE *out, const struct function *f)
{
	fprintf(out, "%sfunction %s", f->is_private ? "private " : "", f->name);
	print_type_suffix(out, f->type);
	fputs(" (", out);
	for (int i = 0; i < f->params.n; i++) {
		const struct param *p = f->params.items[i];
		if (i)
			fputs(", ", out);
		fputs(p->name, out);
		print_type_suffix(out, p->type);
	}
	fputs(") ", out);
	print_statement(out, f->body, 0);
	fputc('\n', out);
}

static void print_points(FILE *out, const struct vec *points)
{
	for (int i = 0; i < points->n; i++) {
		if (i)
			fputs(", ", out);
		ast_print_probe_point(out, points->items[i]);
	}
}

static void print_probe(FILE *out, const struct probe *p)
{
	fputs("probe ", out);
	if (p->kind != PROBE_PLAIN) {
		print_points(out, &p->names);
		fputs(p->kind == PROBE_ALIAS_PROLOGUE ? " = " : " += ", out);
	}
	print_points(out, &p->points);
	fputc(' ', out);
	print_statement(out, p->body, 0);
	if (p->epilogue) {
		fputs(", ", out);
		print_statement(out, p->epilogue, 0);
	}
	fputc('\n', out);
}

void ast_print_file(FILE *out, const struct ast_file *f)
{
	bool first = true;
	for (int i = 0; i < f->embedded.n; i++) {
		const struct node *n = f->embedded.items[i];
		fprintf(out, "%s%%{%s%%}\n", first ? "" : "\n", n->u.embedded.code);
		first = false;
	}
	if (f->globals.n) {
		if (!first)
			fputc('\n', out);
		first = false;
	}
	for (int i = 0; i < f->globals.n; i++) {
		const struct global *g = f->globals.items[i];
		fprintf(out, "%sglobal %s%s", g->is_private ? "private " : "", g->name, g->wrap ? "%" : "");
		if (g->max_entries)
			fprintf(out, "[%lld]", (long long)g->max_entries);
		if (g->init) {
			fputs(" = ", out);
			print_expr(out, g->init, false);
		}
		fputc('\n', out);
	}
	for (int i = 0; i < f->functions.n; i++) {
		if (!first)
			fputc('\n', out);
		first = false;
		print_function(out, f->functions.items[i]);
	}
	for (int i = 0; i < f->probes.n; i++) {
		if (!first)
			fputc('\n', out);
		first = false;
		print_probe(out, f->probes.items[i]);
	}
}

/*
 * One memory stream reused for every text rendered for a message or a key:
 * open_memstream() allocates and clears a page-sized buffer each time, which
 * a large tapset pays thousands of times. The text is copied to the arena.
 * It holds nothing between calls, so it is the process's, not a session's.
 */
static struct {
	FILE *f;     /* the stream, NULL until first use */
	char *buf;   /* its buffer */
	size_t len;  /* its length */
} scratch;

static FILE *scratch_begin(void)
{
	if (!scratch.f)
		scratch.f = open_memstream(&scratch.buf, &scratch.len);
	else
		rewind(scratch.f);
	return scratch.f;
}

static const char *scratch_end(void)
{
	fflush(scratch.f);
	return ast_strndup(scratch.buf, ftell(scratch.f));
}

const char *ast_expr_text(const struct node *n)
{
	FILE *f = scratch_begin();

	if (!f)
		return "?";
	ast_print_expr(f, n);
	return scratch_end();
}

const char *ast_probe_point_text(const struct probe_point *pp)
{
	FILE *f = scratch_begin();

	if (!f)
		return "?";
	ast_print_probe_point(f, pp);
	return scratch_end();
}
