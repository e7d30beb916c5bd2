/* registers.c - pass 2: register("NAME") and its kin naming another architecture's register is an error. */
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "registers.h"

/*
 * The register tapset of each architecture (tapset/linux/ARCH/registers.stp)
 * takes the names of its own CPU's registers; an unknown name is a run-time
 * error there (a script may compute it, or catch the error). A literal name
 * that is another architecture's register is a script written for that
 * architecture: it cannot work on the target, so it is refused here with
 * the reason, before anything is built.
 */

static const char *const reg_functions[] = {"register", "uregister", "u_register"};

/* Whether n calls the tapset's register(), uregister() or u_register(). */
static bool is_register_call(const struct node *n)
{
	if (n->kind != NODE_CALL || !n->u.call.func || !n->u.call.func->from_tapset || n->u.call.args.n != 1)
		return false;
	for (size_t i = 0; i < sizeof(reg_functions) / sizeof(reg_functions[0]); i++)
		if (!strcmp(n->u.call.name, reg_functions[i]))
			return true;
	return false;
}

static bool check_pre(struct ast_walker *w, struct node *n)
{
	const struct session *s = w->data;
	const struct node *arg;
	const struct arch *owner;

	if (!is_register_call(n))
		return true;
	arg = n->u.call.args.items[0];
	if (arg->kind == NODE_STR && (owner = arch_register_owner(s->arch, arg->u.str)))
		diag_error(arg->loc, "%s(\"%s\"): '%s' is an %s register, and this script is built for %s "
			   "(its registers: %s)", n->u.call.name, arg->u.str, arg->u.str, owner->name,
			   s->arch->name, s->arch->registers);
	return true;
}

bool registers_check(struct session *s)
{
	struct ast_walker w = {.pre = check_pre, .data = s};
	int before = diag_error_count();

	for (int i = 0; i < s->probes.n; i++)
		ast_walk(&w, ((struct probe *)s->probes.items[i])->body);
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];

		if (!fn->from_tapset)
			ast_walk(&w, fn->body);
	}
	return diag_error_count() == before;
}
