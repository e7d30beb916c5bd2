/*
 * privilege.c - --privilege=stapusr|stapsys|stapdev: what a module compiled
 * for an unprivileged user may do (man stap, UNPRIVILEGED USERS).
 *
 * stapdev (the default, root's level) may do anything. Below it:
 *   - no guru mode (-g) and so no embedded C in the script, at any level;
 *   - the SYSTEMTAP_RUNTIME, SYSTEMTAP_TAPSET and SYSTEMTAP_DEBUGINFO_PATH
 *     variables must not be set.
 * stapusr, further:
 *   - probe points: begin, end, error, never, timer.{jiffies,s,sec,ms,msec,
 *     us,usec,ns,nsec}(N) (with .randomize), timer.hz(N), and process.*;
 *     the runtime fires process probes only in the loading user's own
 *     processes (runtime/linux/privilege.c);
 *   - tapset functions written in C only if marked unprivileged or
 *     myproc-unprivileged (a pragma comment in their %{ %}); a script-language
 *     tapset function only if what it calls is allowed; a myproc function
 *     called outside the user's own process ends the script with an error;
 *   - no kernel memory: @cast and @var of the kernel or a kernel module,
 *     and operators on kernel pointers (autocast), are refused.
 * The check runs in pass 2 after resolution (the functions a probe reaches
 * are known) and reports each refusal at the script's own code.
 */
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "privilege.h"
#include "probes.h"

/* Is the calling user in group name (primary or supplementary)? */
static bool in_group(const char *name)
{
	struct group *g = getgrnam(name);
	if (!g)
		return false;
	if (getgid() == g->gr_gid || getegid() == g->gr_gid)
		return true;
	int n = getgroups(0, NULL);	/* as many as the user has: a fixed array would miss the rest */
	gid_t *groups = n > 0 ? ast_alloc((size_t)n * sizeof(*groups)) : NULL;
	n = groups ? getgroups(n, groups) : 0;
	for (int i = 0; i < n; i++)
		if (groups[i] == g->gr_gid)
			return true;
	return false;
}

bool privilege_configure(struct session *s)
{
	/* man stap: without --privilege, a user who is neither root nor in stapdev running pass 5 gets
	   the level their groups allow */
	if (!s->privilege_given && s->last_pass == 5 && getuid() != 0 && !in_group("stapdev"))
		s->privilege = in_group("stapsys") ? PRIV_STAPSYS : PRIV_STAPUSR;
	/* man stap, --use-server: and if that user is in stapusr, the script compiles on the default
	   compile server, which signs the module for the setuid staprun (README.unprivileged) */
	if (!s->use_server && s->last_pass == 5 && getuid() != 0 && !in_group("stapdev") && in_group("stapusr")) {
		s->use_server = "";
		s->use_server_auto = true;
	}
	if (s->privilege == PRIV_STAPDEV)
		return true;
	const char *level = privilege_name(s->privilege);
	if (s->guru) {
		fprintf(stderr, "stap: guru mode (-g) is not permitted at privilege level %s "
			"(see man stap, UNPRIVILEGED USERS)\n", level);
		return false;
	}
	static const char *const forbidden_env[] = {"SYSTEMTAP_RUNTIME", "SYSTEMTAP_TAPSET", "SYSTEMTAP_DEBUGINFO_PATH"};
	for (size_t i = 0; i < sizeof(forbidden_env) / sizeof(forbidden_env[0]); i++) {
		if (getenv(forbidden_env[i])) {
			fprintf(stderr, "stap: %s must not be set at privilege level %s (see man stap, UNPRIVILEGED USERS)\n",
				forbidden_env[i], level);
			return false;
		}
	}
	return true;
}

/* ---- stapusr: probe points ---- */

static bool all_digits(const char *p, const char **end)
{
	const char *start = p;
	while (*p >= '0' && *p <= '9')
		p++;
	*end = p;
	return p > start;
}

/* "(N)" at p, then what follows in *rest. */
static bool number_arg(const char *p, const char **rest)
{
	if (*p++ != '(')
		return false;
	if (*p == '-')
		p++;
	if (!all_digits(p, &p) || *p != ')')
		return false;
	*rest = p + 1;
	return true;
}

/* One of the points stapusr may use, by its canonical text (pp). */
static bool stapusr_point(const char *pp)
{
	static const char *const simple[] = {"begin", "end", "error", "never"};
	for (size_t i = 0; i < sizeof(simple) / sizeof(simple[0]); i++) {
		size_t n = strlen(simple[i]);
		const char *rest;
		if (!strncmp(pp, simple[i], n) && (pp[n] == '\0' || (number_arg(pp + n, &rest) && !*rest)))
			return true;
	}
	if (!strncmp(pp, "process", 7) && (pp[7] == '.' || pp[7] == '('))
		return true;
	static const char *const timers[] = {"jiffies", "s", "sec", "ms", "msec", "us", "usec", "ns", "nsec", "hz"};
	if (strncmp(pp, "timer.", 6))
		return false;
	for (size_t i = 0; i < sizeof(timers) / sizeof(timers[0]); i++) {
		size_t n = strlen(timers[i]);
		const char *rest;
		if (strncmp(pp + 6, timers[i], n) || !number_arg(pp + 6 + n, &rest))
			continue;
		if (!*rest)
			return true;
		if (strcmp(timers[i], "hz") && !strncmp(rest, ".randomize", 10) && number_arg(rest + 10, &rest) && !*rest)
			return true;
	}
	return false;
}

/* ---- stapusr: functions and kernel memory ---- */

/* What the walk over one body needs. */
struct check {
	struct session *s;
	struct vec *verdicts;     /* per function index: NULL unchecked, "" allowed, else the refusal */
	const char *refusal;      /* the first refusal met in this body (walking a tapset function) */
	bool report;              /* script code: report each refusal where it is */
};

static const char *function_refusal(struct session *s, struct vec *verdicts, struct function *fn);

/* Kernel memory through a target expression, or NULL. */
static const char *kernel_memory(const struct node *n)
{
	const char *m = n->u.target.module;
	switch (n->u.target.base) {
	case TARGET_BASE_CAST:
	case TARGET_BASE_AT_VAR:
		if (!m || !strchr(m, '/'))
			return ast_printf("%s reads kernel memory", n->u.target.base == TARGET_BASE_CAST ? "@cast" : "@var");
		return NULL;
	case TARGET_BASE_AUTO:
		return "an operator on a kernel pointer reads kernel memory";
	case TARGET_BASE_VAR:
	case TARGET_BASE_PARMS:
	case TARGET_BASE_LOCALS:
	case TARGET_BASE_VARS:
	case TARGET_BASE_RETURN:
		return NULL; /* the probed program's own: only process probes reach here under stapusr */
	}
	return NULL;
}

static bool check_node(struct ast_walker *w, struct node *n)
{
	struct check *ck = w->data;
	const char *why = NULL;
	if (n->kind == NODE_TARGET)
		why = kernel_memory(n);
	else if (n->kind == NODE_CALL && n->u.call.func)
		why = function_refusal(ck->s, ck->verdicts, n->u.call.func);
	if (!why)
		return true;
	if (ck->report)
		diag_error(n->loc, "%s: not permitted at privilege level %s (see man stap, UNPRIVILEGED USERS)", why,
			   privilege_name(ck->s->privilege));
	else if (!ck->refusal)
		ck->refusal = why;
	return true;
}

/*
 * Why fn may not be called at stapusr, or NULL: unmarked embedded C, or a
 * script-language tapset function reaching something refused.
 */
static const char *function_refusal(struct session *s, struct vec *verdicts, struct function *fn)
{
	if (!fn->from_tapset)
		return NULL; /* the script's own: its body is checked where it is */
	if (fn->index < 0 || fn->index >= verdicts->n)
		return NULL;
	const char *v = verdicts->items[fn->index];
	if (v)
		return *v ? v : NULL;
	verdicts->items[fn->index] = ""; /* recursion: assume allowed while walking */
	const char *why = NULL;
	if (fn->body->kind == NODE_EMBEDDED) {
		if (!fn->unprivileged && !fn->myproc_unprivileged)
			why = ast_printf("function '%s' is not marked unprivileged", fn->name);
	} else {
		struct check ck = {.s = s, .verdicts = verdicts};
		struct ast_walker w = {.pre = check_node, .data = &ck};
		ast_walk(&w, fn->body);
		if (ck.refusal)
			why = ast_printf("function '%s' (%s)", fn->name, ck.refusal);
	}
	verdicts->items[fn->index] = (void *)(why ? why : "");
	return why;
}

/* ---- The pass ---- */

static void check_stapusr(struct session *s)
{
	struct vec verdicts = {0};
	for (int i = 0; i < s->functions.n; i++)
		vec_push(&verdicts, NULL);
	for (int i = 0; i < s->resolved.n; i++) {
		struct resolved_probe *r = s->resolved.items[i];
		if (stapusr_point(r->pp))
			continue;
		const char *user = r->user_point ? probes_point_text(r->user_point) : r->pp;
		struct srcloc at = r->user_point ? r->user_point->loc : r->probe->loc;
		if (strcmp(user, r->pp))
			diag_error(at, "probe point '%s' (%s) is not permitted at privilege level stapusr: it may use begin, "
				   "end, error, never, timer and process probes (see man stap, UNPRIVILEGED USERS)", user, r->pp);
		else
			diag_error(at, "probe point '%s' is not permitted at privilege level stapusr: it may use begin, "
				   "end, error, never, timer and process probes (see man stap, UNPRIVILEGED USERS)", user);
	}
	struct check ck = {.s = s, .verdicts = &verdicts, .report = true};
	struct ast_walker w = {.pre = check_node, .data = &ck};
	for (int i = 0; i < s->probes.n; i++) {
		struct probe *p = s->probes.items[i];
		ast_walk(&w, p->body);
		ast_walk(&w, p->cond);
	}
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (!fn->from_tapset)
			ast_walk(&w, fn->body);
	}
}

bool privilege_check(struct session *s)
{
	if (s->privilege != PRIV_STAPUSR)
		return true; /* stapsys: every probe and function; no -g (privilege_configure) means no embedded C */
	int errors = diag_error_count();
	check_stapusr(s);
	/* a myproc function checks the process it runs in, and may end the script */
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		if (fn->myproc_unprivileged)
			fn->can_fail = true;
	}
	return diag_error_count() == errors;
}
