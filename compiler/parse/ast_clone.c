/*
 * ast_clone.c - deep copies of expression and statement trees.
 *
 * Alias expansion (probes.c) wraps one user body in several alias bodies, and
 * every derived probe must resolve its own locals, so each gets its own copy.
 * Like ast_walk() this lists every node kind's children; the switch has no
 * default case, so -Wswitch (an error here) flags a node kind added without
 * its copy rule.
 */
#include "ast.h"

static struct vec clone_vec(const struct vec *v)
{
	struct vec out = {0};
	for (int i = 0; i < v->n; i++)
		vec_push(&out, ast_clone(v->items[i]));
	return out;
}

struct node *ast_clone(const struct node *n)
{
	if (!n)
		return NULL;
	struct node *c = ast_alloc(sizeof(*c));
	*c = *n;
	c->type = TYPE_UNKNOWN;

	switch (n->kind) {
	case NODE_NUM:
	case NODE_STR:
	case NODE_WILDCARD:
	case NODE_NULL_STMT:
	case NODE_BREAK:
	case NODE_CONTINUE:
	case NODE_NEXT:
	case NODE_EMBEDDED:
		break;
	case NODE_VAR:
		c->u.var.sym = NULL;
		break;
	case NODE_INDEX:
		c->u.index.array = ast_clone(n->u.index.array);
		c->u.index.keys = clone_vec(&n->u.index.keys);
		break;
	case NODE_CALL:
		c->u.call.args = clone_vec(&n->u.call.args);
		c->u.call.func = NULL;
		c->u.call.builtin = 0;
		break;
	case NODE_UNARY:
		c->u.unary.operand = ast_clone(n->u.unary.operand);
		break;
	case NODE_BINARY:
		c->u.binary.lhs = ast_clone(n->u.binary.lhs);
		c->u.binary.rhs = ast_clone(n->u.binary.rhs);
		break;
	case NODE_TERNARY:
		c->u.ternary.cond = ast_clone(n->u.ternary.cond);
		c->u.ternary.then = ast_clone(n->u.ternary.then);
		c->u.ternary.otherwise = ast_clone(n->u.ternary.otherwise);
		break;
	case NODE_ASSIGN:
		c->u.assign.lhs = ast_clone(n->u.assign.lhs);
		c->u.assign.rhs = ast_clone(n->u.assign.rhs);
		break;
	case NODE_INCDEC:
		c->u.incdec.operand = ast_clone(n->u.incdec.operand);
		break;
	case NODE_IN:
		c->u.in.keys = clone_vec(&n->u.in.keys);
		c->u.in.array = ast_clone(n->u.in.array);
		break;
	case NODE_BLOCK:
		c->u.block.stmts = clone_vec(&n->u.block.stmts);
		break;
	case NODE_EXPR_STMT:
		c->u.expr_stmt.expr = ast_clone(n->u.expr_stmt.expr);
		break;
	case NODE_IF:
		c->u.if_stmt.cond = ast_clone(n->u.if_stmt.cond);
		c->u.if_stmt.then = ast_clone(n->u.if_stmt.then);
		c->u.if_stmt.otherwise = ast_clone(n->u.if_stmt.otherwise);
		break;
	case NODE_WHILE:
		c->u.while_stmt.cond = ast_clone(n->u.while_stmt.cond);
		c->u.while_stmt.body = ast_clone(n->u.while_stmt.body);
		break;
	case NODE_FOR:
		c->u.for_stmt.init = ast_clone(n->u.for_stmt.init);
		c->u.for_stmt.cond = ast_clone(n->u.for_stmt.cond);
		c->u.for_stmt.step = ast_clone(n->u.for_stmt.step);
		c->u.for_stmt.body = ast_clone(n->u.for_stmt.body);
		break;
	case NODE_FOREACH:
		c->u.foreach.value = ast_clone(n->u.foreach.value);
		c->u.foreach.keys = clone_vec(&n->u.foreach.keys);
		c->u.foreach.array = ast_clone(n->u.foreach.array);
		c->u.foreach.slice = clone_vec(&n->u.foreach.slice);
		c->u.foreach.limit = ast_clone(n->u.foreach.limit);
		c->u.foreach.body = ast_clone(n->u.foreach.body);
		break;
	case NODE_RETURN:
		c->u.ret.value = ast_clone(n->u.ret.value);
		break;
	case NODE_DELETE:
		c->u.del.target = ast_clone(n->u.del.target);
		break;
	case NODE_STAT_ADD:
		c->u.stat_add.target = ast_clone(n->u.stat_add.target);
		c->u.stat_add.value = ast_clone(n->u.stat_add.value);
		break;
	case NODE_STAT_OP:
		c->u.stat_op.operand = ast_clone(n->u.stat_op.operand);
		c->u.stat_op.args = clone_vec(&n->u.stat_op.args);
		c->u.stat_op.bucket = ast_clone(n->u.stat_op.bucket);
		break;
	case NODE_REGEX:
		c->u.regex.subject = ast_clone(n->u.regex.subject);
		c->u.regex.pattern = ast_clone(n->u.regex.pattern);
		c->u.regex.prog = NULL;
		break;
	case NODE_TARGET:
		c->u.target.operand = ast_clone(n->u.target.operand);
		c->u.target.path = (struct vec){0};
		for (int i = 0; i < n->u.target.path.n; i++) {
			const struct target_step *step = n->u.target.path.items[i];
			struct target_step *copy = ast_alloc(sizeof(*copy));
			*copy = *step;
			copy->index = ast_clone(step->index);
			vec_push(&c->u.target.path, copy);
		}
		c->u.target.resolved = NULL;
		break;
	case NODE_DEFINED:
	case NODE_ENTRY:
		c->u.at_op.operand = ast_clone(n->u.at_op.operand);
		c->u.at_op.resolved = NULL;
		break;
	case NODE_TRY:
		c->u.try_stmt.body = ast_clone(n->u.try_stmt.body);
		c->u.try_stmt.var = ast_clone(n->u.try_stmt.var);
		c->u.try_stmt.handler = ast_clone(n->u.try_stmt.handler);
		break;
	}
	return c;
}
