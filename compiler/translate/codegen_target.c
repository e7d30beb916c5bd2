/*
 * codegen_target.c - pass 3 of target variables: fault-safe C from the
 * plans pass 2 made (elaborate/targetvar.c): loads, pretty printing,
 * assignments in guru mode, and the entry handler that saves what a
 * return probe reads.
 */
#include <inttypes.h>
#include <string.h>

#include "arch.h"
#include "codegen.h"
#include "diag.h"
#include "probes.h"
#include "targetvar.h"

/* ---- code generation ---- */

static const char *reg_c(const struct codegen *g, int reg)
{
	static const char *const names[] = {"ax", "dx", "cx", "bx", "si", "di", "bp", "sp",
					    "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "ip"};
	if (arch_is_arm64(g->s)) {	/* arm64's DWARF numbers: x0..x30, sp, pc */
		if (reg < 0 || reg > 32)
			return NULL;
		return reg < 31 ? ast_printf("c->base.regs->regs[%d]", reg) : reg == 31 ? "c->base.regs->sp" : "c->base.regs->pc";
	}
	if (reg < 0 || reg > 16)
		return NULL;
	return ast_printf("c->base.regs->%s", names[reg]);
}

/* Offset of a saved value in the entry data (strings after the longs). */
static const char *saved_addr(struct target_scope *scope, int offset)
{
	if (offset >= 0)
		return ast_printf("((char *)c->base.entry_data + %d)", offset);
	return ast_printf("((char *)c->base.entry_data + %d + %d * MAXSTRINGLEN)", scope->entry_size, -offset - 1);
}

/* Statements computing plan pl into unsigned long v; near locates runtime errors. */
static const char *gen_ops(struct codegen *g, struct tv_plan *pl, const char *v, struct node *near, bool quiet,
			   const char *fault_label)
{
	char *code = "";
	const char *where = emit_c_string(codegen_near(near));
	for (int i = 0; i < pl->ops.n; i++) {
		struct tv_op *op = pl->ops.items[i];
		switch (op->kind) {
		case TV_START_REG:
			code = ast_printf("%s%s = (unsigned long)%s + (unsigned long)%" PRId64 "LL; ", code, v, reg_c(g, op->reg), op->k);
			break;
		case TV_START_CONST:
			code = ast_printf("%s%s = (unsigned long)%" PRId64 "LL; ", code, v, op->k);
			break;
		case TV_START_ARG:
			code = ast_printf("%s%s = c->base.probe_args[%d]; ", code, v, op->reg);
			break;
		case TV_START_ABS:
			if (pl->user)
				/* a program's link-time address + its load bias at this hit */
				code = ast_printf("%s%s = 0x%" PRIx64 "UL + _stp_uprobe_bias(&c->base, c->base.regs); ", code, v, (uint64_t)op->k);
			else
				/* link-time address + the KASLR offset, measured on init_task */
				code = ast_printf("%s%s = 0x%" PRIx64 "UL + ((unsigned long)&init_task - 0x%" PRIx64 "UL); ", code,
						  v, (uint64_t)op->k, (uint64_t)op->size_base);
			break;
		case TV_START_MODSYM:
			if (quiet)
				code = ast_printf("%sif (unlikely(_stp_module_symbol(NULL, %s, %s, &%s))) goto %s; ", code,
						  emit_c_string(op->module), emit_c_string(op->symbol), v, fault_label);
			else
				code = ast_printf("%sif (unlikely(_stp_module_symbol(&c->base, %s, %s, &%s))) { "
						  "c->base.last_stmt = %s; goto %s; } ", code, emit_c_string(op->module),
						  emit_c_string(op->symbol), v, where, codegen_fail_label(g));
			break;
		case TV_START_EXPR:
			code = ast_printf("%s%s = (unsigned long)(%s); ", code, v, codegen_expr(g, op->expr));
			break;
		case TV_ADD:
			code = ast_printf("%s%s += (unsigned long)%" PRId64 "LL; ", code, v, op->k);
			break;
		case TV_INDEX:
			code = ast_printf("%s%s += (unsigned long)(%s) * %" PRId64 "UL; ", code, v, codegen_expr(g, op->expr), op->k);
			break;
		case TV_LOAD:
			if (quiet)
				code = ast_printf("%sif (unlikely(_stp_deref(NULL, %s, %d, %d, %d, &%s))) goto %s; ", code, v,
						  op->size, op->is_signed, pl->user, v, fault_label);
			else
				code = ast_printf("%sif (unlikely(_stp_deref(&c->base, %s, %d, %d, %d, &%s))) { "
						  "c->base.last_stmt = %s; goto %s; } ", code, v, op->size, op->is_signed,
						  pl->user, v, where, codegen_fail_label(g));
			break;
		case TV_BITS:
			code = ast_printf("%s%s = _stp_bitfield(%s, %d, %d, %d); ", code, v, v, op->bit, op->bits, op->is_signed);
			break;
		case TV_TRUNC:
			code = ast_printf("%s%s = _stp_truncate(%s, %d, %d); ", code, v, v, op->size, op->is_signed);
			break;
		case TV_WIDEN_FLOAT:
			code = ast_printf("%s%s = _stp_float_widen(%s); ", code, v, v);
			break;
		}
	}
	return code;
}

/*
 * Appends to the string_t dst the pretty text of the object of type t whose
 * address (in_memory) or value is in C variable v. level: 0 scalars only
 * ("{...}" for aggregates), 1 one level of members, 2+ nested.
 */
static const char *gen_pretty_value(struct codegen *g, const char *dst, const char *v, struct dbg_type *type,
				    bool in_memory, int bit, int bits, int level, bool user, int depth, bool strings)
{
	struct dbg_type *t = dbg_type_strip(type);
	const char *fault = codegen_temp(g, "fault");
	const char *x = codegen_temp(g, "x");
	char *code;
	if (!t || t->kind == DBG_VOID || t->kind == DBG_FUNC || t->kind == DBG_FLOAT)
		return ast_printf("_stp_strlcat(%s, \"?\"); ", dst);
	if (t->kind == DBG_STRUCT || t->kind == DBG_UNION) {
		if (!in_memory || level <= 0 || depth >= 3)
			return ast_printf("_stp_strlcat(%s, \"{...}\"); ", dst);
		code = ast_printf("_stp_strlcat(%s, \"{\"); ", dst);
		const struct vec *members = dbg_type_members(t);
		int shown = 0;
		for (int i = 0; i < members->n; i++) {
			struct dbg_member *m = members->items[i];
			if (shown == 16) {
				code = ast_printf("%s_stp_strlcat(%s, \", ...\"); ", code, dst);
				break;
			}
			const char *mv = codegen_temp(g, "m");
			code = ast_printf("%s{ unsigned long %s = %s + %" PRIu64 "UL; (void)%s; _stp_strlcat(%s, \"%s%s%s\"); %s} ", code,
					  mv, v, m->offset, mv, dst, shown ? ", " : "", m->name ? "." : "",
					  m->name ? ast_printf("%s=", m->name) : "",
					  gen_pretty_value(g, dst, mv, m->type, true, m->bit_offset, m->bit_size, level - 1, user,
							   depth + 1, strings));
			shown++;
		}
		return ast_printf("%s_stp_strlcat(%s, \"}\"); ", code, dst);
	}
	if (t->kind == DBG_ARRAY) {
		struct dbg_type *elem = dbg_type_strip(t->target);
		if (elem && elem->is_char && in_memory)
			return ast_printf("_stp_tv_append_string(%s, %s, %" PRIu64 ", %d); ", dst, v,
					  t->nelems ? t->nelems : 64, user);
		return ast_printf("_stp_strlcat(%s, \"[...]\"); ", dst);
	}
	/* a scalar */
	code = ast_printf("{ unsigned long %s = %s; ", x, v);
	if (in_memory) {
		code = ast_printf("%sif (_stp_deref(NULL, %s, %d, %d, %d, &%s)) goto %s; ", code, x, (int)t->size, t->is_signed, user, x, fault);
		if (bits)
			code = ast_printf("%s%s = _stp_bitfield(%s, %d, %d, %d); ", code, x, x, bit, bits, t->is_signed);
	}
	struct dbg_type *target = t->kind == DBG_PTR ? dbg_type_strip(t->target) : NULL;
	if (target && target->is_char && strings)
		code = ast_printf("%s_stp_tv_append_string(%s, %s, MAXSTRINGLEN, %d); ", code, dst, x, user);
	else if (t->kind == DBG_PTR || !strings)
		code = ast_printf("%s_stp_tv_append(%s, \"0x%%lx\", %s); ", code, dst, x);
	else if (t->is_signed)
		code = ast_printf("%s_stp_tv_append(%s, \"%%ld\", (long)%s); ", code, dst, x);
	else
		code = ast_printf("%s_stp_tv_append(%s, \"%%lu\", %s); ", code, dst, x);
	return ast_printf("%sif (0) { %s: _stp_strlcat(%s, \"?\"); } } ", code, fault, dst);
}

/* Appends a provided variable's text to dst; "?" (and no error) if reading it fails. */
static const char *gen_pretty_provided(struct codegen *g, const char *dst, struct target_provided *pv, int level)
{
	const char *x = codegen_temp(g, "x");
	if (pv->type == TYPE_STRING)
		return ast_printf("{ const char *%s = %s; if (unlikely(c->base.last_error)) { c->base.last_error = NULL; "
				  "_stp_strlcat(%s, \"?\"); } else _stp_strlcat(%s, %s); } ", x, pv->rvalue, dst, dst, x);
	return ast_printf("{ int64_t %s = %s; if (unlikely(c->base.last_error)) { c->base.last_error = NULL; "
			  "_stp_strlcat(%s, \"?\"); } else _stp_tv_append(%s, \"%s\", %s); } ", x, pv->rvalue, dst, dst,
			  level > 0 ? "%lld" : "0x%llx", level > 0 ? ast_printf("(long long)%s", x)
								   : ast_printf("(unsigned long long)%s", x));
}

/* Pretty text of a target node with plan pl into dst (a char[MAXSTRINGLEN]). */
static const char *gen_pretty(struct codegen *g, struct node *n, struct tv_plan *pl, const char *dst)
{
	int level = n->u.target.pretty;
	char *code = ast_printf("%s[0] = '\\0'; ", dst);
	if (n->u.target.base >= TARGET_BASE_PARMS) {
		for (int i = 0; i < pl->vars.n; i++) {
			struct tv_named *nm = pl->vars.items[i];
			code = ast_printf("%s_stp_strlcat(%s, \"%s%s=\"); ", code, dst, i ? " " : "", nm->name);
			if (nm->provided) {
				code = ast_printf("%s%s", code, gen_pretty_provided(g, dst, nm->provided, level));
				continue;
			}
			if (nm->plan->error) {
				code = ast_printf("%s_stp_strlcat(%s, \"?\"); ", code, dst);
				continue;
			}
			const char *v = codegen_temp(g, "v"), *fault = codegen_temp(g, "fault");
			code = ast_printf("%s{ unsigned long %s = 0; %s%s if (0) { %s: _stp_strlcat(%s, \"?\"); } } ", code, v,
					  gen_ops(g, nm->plan, v, n, true, fault),
					  gen_pretty_value(g, dst, v, nm->plan->type, nm->plan->in_memory, 0, 0, level, nm->plan->user, 0,
							   level > 0),
					  fault, dst);
		}
		return code;
	}
	const char *v = codegen_temp(g, "v");
	return ast_printf("%s{ unsigned long %s = 0; %s%s} ", code, v, gen_ops(g, pl, v, n, false, NULL),
			  gen_pretty_value(g, dst, v, pl->type, pl->in_memory, pl->bit, pl->bits, level, pl->user, 0, true));
}

static struct target_scope *scope_of(struct codegen *g)
{
	if (g->probe && g->probe->resolved.n)
		return ((struct resolved_probe *)g->probe->resolved.items[0])->scope;
	return NULL;
}

const char *targetvar_gen_expr(struct codegen *g, struct node *n)
{
	struct tv_plan *pl = targetvar_plan_of(n, g->probe);
	if (n->kind == NODE_ENTRY && pl && pl->entry_expr) {
		/* the entry handler's C is generated here, so its temporaries join this probe's locals */
		struct tv_saved *sv = pl->entry_expr;
		const char *fail_label = g->fail_label;
		g->fail_label = NULL;
		sv->code = codegen_expr(g, sv->expr);
		g->fail_label = fail_label;
		const char *at = saved_addr(scope_of(g), pl->saved);
		if (sv->is_string)
			return ast_printf("((const char *)(c->base.entry_data ? %s : \"\"))", at);
		return ast_printf("(c->base.entry_data ? *(int64_t *)%s : 0)", at);
	}
	if (n->kind == NODE_ENTRY)
		return codegen_expr(g, n->u.at_op.operand);
	if (n->kind == NODE_DEFINED)
		return pl && pl->defined ? "((int64_t)1)" : "((int64_t)0)";
	bool is_string = n->type == TYPE_STRING;
	if (pl && pl->error && pl->skipped)
		return is_string ? "((const char *)\"\")" : "((int64_t)0)";
	if (!pl || pl->error)
		return ast_printf("({ %s; %s; })", codegen_fail(g, "target variable not available here", n),
				  is_string ? "(const char *)\"\"" : "(int64_t)0");
	if (pl->provided && pl->provided->strbuf) {
		/* a buffer longer than a string_t: a string reads its first MAXSTRINGLEN-1 bytes */
		const char *slot = codegen_string_slot(g);
		return ast_printf("({ _stp_strlcpy(%s, %s); (const char *)%s; })", slot, pl->provided->rvalue, slot);
	}
	if (pl->provided) {
		/* the provider's C may fail (a bad address): it says why, the location says where */
		const char *t = codegen_temp(g, "t");
		return ast_printf("({ %s %s = %s; if (unlikely(c->base.last_error)) { c->base.last_stmt = %s; goto %s; } %s; })",
				  is_string ? "const char *" : "int64_t", t, pl->provided->rvalue,
				  emit_c_string(codegen_near(n)), codegen_fail_label(g), t);
	}
	if (pl->saved != -1) {
		const char *at = saved_addr(scope_of(g), pl->saved);
		if (is_string)
			return ast_printf("((const char *)(c->base.entry_data ? %s : \"\"))", at);
		return ast_printf("(c->base.entry_data ? *(int64_t *)%s : 0)", at);
	}
	if (is_string) {
		const char *slot = codegen_string_slot(g);
		return ast_printf("({ %s(const char *)%s; })", gen_pretty(g, n, pl, slot), slot);
	}
	const char *v = codegen_temp(g, "v");
	return ast_printf("({ unsigned long %s = 0; %s(int64_t)%s; })", v, gen_ops(g, pl, v, n, false, NULL), v);
}

/* The operands of a chain of '.' (a . b . c), left to right, pushed on out. */
static void concat_operands(struct node *n, struct vec *out)
{
	if (n->kind == NODE_BINARY && n->u.binary.op == OP_CONCAT) {
		concat_operands(n->u.binary.lhs, out);
		concat_operands(n->u.binary.rhs, out);
	} else {
		vec_push(out, n);
	}
}

/* Whether n is, or reads, the target variable $name. */
static bool reads_var(struct node *n, const char *name)
{
	struct vec targets = targetvar_inner_targets(n);
	for (int i = 0; i < targets.n; i++) {
		struct node *t = targets.items[i];
		if (t->kind == NODE_TARGET && t->u.target.base == TARGET_BASE_VAR && !strcmp(t->u.target.name, name))
			return true;
	}
	return false;
}

/*
 * An assignment to a string longer than a string_t (struct _stp_strbuf,
 * procfs .read.maxsize): the right side's operands of '.' are stored one
 * after the other, each a string of up to MAXSTRINGLEN-1 bytes, so the text
 * grows past MAXSTRINGLEN. "$v = $v . a . b" appends a and b; "$v = a . b"
 * stores a and appends b. When a later operand reads $v (whose value would
 * change under it) the whole right side is computed first, as one string.
 */
static const char *gen_assign_strbuf(struct codegen *g, struct node *assign, const char *lvalue)
{
	struct node *n = assign->u.assign.lhs;
	struct vec parts = {0};
	concat_operands(assign->u.assign.rhs, &parts);
	int first = 0;
	bool append = assign->u.assign.op == OP_CONCAT;
	struct node *head = parts.items[0];
	if (!append && head->kind == NODE_TARGET && head->u.target.base == TARGET_BASE_VAR &&
	    !strcmp(head->u.target.name, n->u.target.name)) {
		append = true; /* $v = $v . rest: append the rest */
		first = 1;
	}
	bool whole = false;
	for (int i = append ? first : 1; i < parts.n; i++)
		whole |= reads_var(parts.items[i], n->u.target.name);
	const char *b = codegen_temp(g, "b");
	char *code = ast_printf("({ struct _stp_strbuf *%s = %s; ", b, lvalue);
	if (whole) {
		const char *w = codegen_temp(g, "w");
		return ast_printf("({ const char *%s = %s; struct _stp_strbuf *%s = %s; _stp_strbuf_%s(%s, %s); "
				  "(const char *)%s->text; })", w, codegen_expr(g, assign->u.assign.rhs), b, lvalue,
				  append ? "append" : "set", b, w, b);
	}
	for (int i = first; i < parts.n; i++)
		code = ast_printf("%s_stp_strbuf_%s(%s, %s); ", code, append || i > first ? "append" : "set", b,
				  codegen_expr(g, parts.items[i]));
	return ast_printf("%s(const char *)%s->text; })", code, b);
}

const char *targetvar_gen_assign(struct codegen *g, struct node *assign)
{
	struct node *n = assign->u.assign.lhs;
	struct tv_plan *pl = targetvar_plan_of(n, g->probe);
	if (pl && pl->provided && pl->provided->lvalue && pl->provided->strbuf)
		return gen_assign_strbuf(g, assign, pl->provided->lvalue);
	const char *value = codegen_expr(g, assign->u.assign.rhs);
	if (pl && pl->provided && pl->provided->lvalue && pl->provided->type == TYPE_LONG) {
		/* an integer the probe point owns (netfilter's $verdict) */
		const char *w = codegen_temp(g, "w");
		return ast_printf("({ int64_t %s = %s; %s = %s; %s; })", w, value, pl->provided->lvalue, w, w);
	}
	if (pl && pl->provided && pl->provided->lvalue) {
		/* a string buffer the probe point owns; the value may alias it ($value = $value) */
		const char *d = codegen_temp(g, "d");
		if (assign->u.assign.op == OP_CONCAT) {
			const char *slot = codegen_string_slot(g);
			return ast_printf("({ char *%s = %s; _stp_strlcpy(%s, %s); _stp_strlcat(%s, %s); (const char *)%s; })", d,
					  pl->provided->lvalue, slot, value, d, slot, d);
		}
		const char *w = codegen_temp(g, "w");
		return ast_printf("({ const char *%s = %s; char *%s = %s; if (%s != %s) _stp_strlcpy(%s, %s); (const char *)%s; })",
				  w, value, d, pl->provided->lvalue, d, w, d, w, d);
	}
	if (!pl || pl->error || pl->saved != -1 || pl->provided)
		return ast_printf("({ %s; (int64_t)0; })", codegen_fail(g, "target variable cannot be written here", n));
	const char *val = codegen_temp(g, "w");
	if (pl->settable_reg)
		return ast_printf("({ int64_t %s = %s; %s = (unsigned long)%s; %s; })", val, value, reg_c(g, pl->reg), val, val);
	/* in memory: plan the address (the ops before the final load) */
	struct tv_plan addr = *pl;
	addr.ops.n = 0;
	int size = 0;
	for (int i = 0; i < pl->ops.n; i++) {
		struct tv_op *op = pl->ops.items[i];
		if (op->kind == TV_LOAD && i >= pl->ops.n - 1) {
			size = op->size;
			break;
		}
		if (op->kind == TV_BITS || op->kind == TV_TRUNC)
			break;
		vec_push(&addr.ops, op);
	}
	if (!size)
		return ast_printf("({ %s; (int64_t)0; })", codegen_fail(g, "this target variable cannot be written", n));
	const char *v = codegen_temp(g, "v");
	return ast_printf("({ int64_t %s = %s; unsigned long %s = 0; %sif (unlikely(_stp_poke(&c->base, %s, %d, %d, %s))) { "
			  "c->base.last_stmt = %s; goto %s; } %s; })", val, value, v, gen_ops(g, &addr, v, n, false, NULL), v,
			  size, pl->user, val, emit_c_string(codegen_near(n)), codegen_fail_label(g), val);
}

bool targetvar_emit_entry(struct emitter *e, struct session *s, struct target_scope *scope, struct probe *probe,
			  const char *name)
{
	if (!scope || !scope->saved.n)
		return false;
	char *body = "";
	struct codegen g = {.e = e, .s = s, .probe = probe};
	for (int i = 0; i < scope->saved.n; i++) {
		struct tv_saved *sv = scope->saved.items[i];
		const char *at = saved_addr(scope, sv->offset);
		if (sv->expr) {
			if (!sv->code)
				continue; /* the optimizer dropped the @entry: nothing to save */
			if (sv->is_string)
				body = ast_printf("%s_stp_strlcpy((char *)%s, %s);\n", body, at, sv->code);
			else
				body = ast_printf("%s*(int64_t *)%s = %s;\n", body, at, sv->code);
		} else if (sv->is_string) {
			body = ast_printf("%s%s\n", body, gen_pretty(&g, sv->node, sv->plan, ast_printf("((char *)%s)", at)));
		} else {
			const char *v = codegen_temp(&g, "v");
			body = ast_printf("%s{ unsigned long %s = 0; %s*(int64_t *)%s = (int64_t)%s; }\n", body, v,
					  gen_ops(&g, sv->plan, v, sv->node, false, NULL), at, v);
		}
	}
	emit_line(e, "/* values a .return probe reads, saved at the function's entry */");
	emit_line(e, "static void %s(struct context *c)", name);
	emit_open(e, "{");
	/* @entry(expr) code may use the probe's string slots */
	emit_line(e, "struct probe_%d_locals *l __attribute__((unused)) = &c->probe_locals.probe_%d;", probe->body_index,
		  probe->body_index);
	emit_raw(e, "%s", body);
	emit_close(e, "out: __attribute__((unused));");
	e->indent++;
	emit_line(e, ";");
	emit_close(e, "}");
	return true;
}

const char *targetvar_entry_size(struct target_scope *scope)
{
	int strings = 0;
	for (int i = 0; i < scope->saved.n; i++)
		strings += ((struct tv_saved *)scope->saved.items[i])->is_string;
	return ast_printf("%d + %d * MAXSTRINGLEN", scope->entry_size, strings);
}
