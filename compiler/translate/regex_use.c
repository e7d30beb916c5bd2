/*
 * regex_use.c - s =~ "re" and s !~ "re" in the script: pass 2 compiles
 * each pattern (a bad one is an error at the literal), pass 3 turns each
 * use into a call of its generated matcher and records the outcome for
 * matched() and ngroups() (tapset/regex.stp, runtime/regex.c).
 *
 * The matchers run in the probe context's regex_work scratch, sized by
 * the largest one (STP_REGEX_WORK_WORDS): a matcher never calls script
 * code, so one scratch area per CPU is enough.
 */
#include <string.h>

#include "codegen.h"
#include "diag.h"
#include "regex.h"

/* The matchers of one session's generated C (session.regex). */
struct regex_state {
	struct vec matchers;   /* of struct regex_prog *, in matcher-number order */
	int work_words;        /* the largest matcher's scratch */
};

static struct regex_state *regex_state(struct session *s)
{
	if (!s->regex)
		s->regex = ast_alloc(sizeof(*s->regex));
	return s->regex;
}

const char *codegen_regex(struct codegen *g, struct node *n)
{
	struct regex_state *rs = regex_state(g->s);
	struct regex_prog *p = n->u.regex.prog;
	int id = rs->matchers.n;
	vec_push(&rs->matchers, p);
	if (regex_work_words(p) > rs->work_words)
		rs->work_words = regex_work_words(p);
	const char *subject = codegen_temp(g, "s"), *caps = codegen_temp(g, "caps"), *m = codegen_temp(g, "m");
	return ast_printf("({ const char *%s = %s; int32_t %s[%d]; int %s = stp_regex_%d(%s, c->base.regex_work, %s); "
			  "_stp_regex_record(&c->base, %s, %s, %d, %s); (int64_t)(%s%s); })",
			  subject, codegen_expr(g, n->u.regex.subject), caps, 2 * (regex_ngroups(p) + 1), m, id, subject,
			  caps, subject, m, regex_ngroups(p), caps, n->u.regex.negate ? "!" : "", m);
}

int codegen_regex_work_words(struct session *s)
{
	return regex_state(s)->work_words;
}

void codegen_regex_emit_all(struct session *s, struct emitter *e)
{
	struct regex_state *rs = regex_state(s);
	for (int i = 0; i < rs->matchers.n; i++)
		regex_emit(e->out, rs->matchers.items[i], ast_printf("stp_regex_%d", i));
}
