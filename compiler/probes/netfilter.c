/*
 * probes/netfilter.c - netfilter.hook("HOOK").pf("PF")[.priority("PRI")]
 * (components in either order): a netfilter hook function registered in
 * the initial network namespace whose every packet runs the probe.
 *
 * The names are the kernel's own constants (NFPROTO_IPV4, NF_INET_LOCAL_IN,
 * NF_IP_PRI_FIRST...), emitted as written into the module so the target
 * kernel's headers give their values; a number is accepted for each. In
 * guru mode any C identifier is accepted, as SystemTap documents. The
 * body sees $hooknum, $skb, $in, $out (addresses) and $verdict, which
 * only a guru-mode script may assign (NF_DROP 0, NF_ACCEPT 1, NF_QUEUE 3;
 * the runtime turns any other value into NF_ACCEPT).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "probes.h"
#include "targetvar.h"

/* What a netfilter point resolved to: C text for each nf_hook_ops field. */
struct netfilter_point {
	const char *pf;        /* protocol family: NFPROTO_IPV4 or a number */
	const char *hook;      /* hook number: NF_INET_LOCAL_IN or a number */
	const char *priority;  /* priority: NF_IP_PRI_FIRST, a number, "0" by default */
};

/* The names a script may use without guru mode, per component. */
static const char *const pf_names[] = {
	"NFPROTO_IPV4", "NFPROTO_IPV6", "NFPROTO_ARP", "NFPROTO_BRIDGE", NULL,
};
static const char *const hook_names[] = {
	"NF_INET_PRE_ROUTING", "NF_INET_LOCAL_IN", "NF_INET_FORWARD", "NF_INET_LOCAL_OUT",
	"NF_INET_POST_ROUTING", "NF_IP_PRE_ROUTING", "NF_IP_LOCAL_IN", "NF_IP_FORWARD",
	"NF_IP_LOCAL_OUT", "NF_IP_POST_ROUTING", "NF_IP6_PRE_ROUTING", "NF_IP6_LOCAL_IN",
	"NF_IP6_FORWARD", "NF_IP6_LOCAL_OUT", "NF_IP6_POST_ROUTING", "NF_ARP_IN", "NF_ARP_OUT",
	"NF_ARP_FORWARD", "NF_BR_PRE_ROUTING", "NF_BR_LOCAL_IN", "NF_BR_FORWARD",
	"NF_BR_LOCAL_OUT", "NF_BR_POST_ROUTING", NULL,
};
static const char *const priority_names[] = {
	"NF_IP_PRI_FIRST", "NF_IP_PRI_RAW_BEFORE_DEFRAG", "NF_IP_PRI_CONNTRACK_DEFRAG",
	"NF_IP_PRI_RAW", "NF_IP_PRI_SELINUX_FIRST", "NF_IP_PRI_CONNTRACK", "NF_IP_PRI_MANGLE",
	"NF_IP_PRI_NAT_DST", "NF_IP_PRI_FILTER", "NF_IP_PRI_SECURITY", "NF_IP_PRI_NAT_SRC",
	"NF_IP_PRI_SELINUX_LAST", "NF_IP_PRI_CONNTRACK_HELPER", "NF_IP_PRI_CONNTRACK_CONFIRM",
	"NF_IP_PRI_LAST", "NF_IP6_PRI_FIRST", "NF_IP6_PRI_RAW_BEFORE_DEFRAG",
	"NF_IP6_PRI_CONNTRACK_DEFRAG", "NF_IP6_PRI_RAW", "NF_IP6_PRI_SELINUX_FIRST",
	"NF_IP6_PRI_CONNTRACK", "NF_IP6_PRI_MANGLE", "NF_IP6_PRI_NAT_DST", "NF_IP6_PRI_FILTER",
	"NF_IP6_PRI_SECURITY", "NF_IP6_PRI_NAT_SRC", "NF_IP6_PRI_SELINUX_LAST",
	"NF_IP6_PRI_CONNTRACK_HELPER", "NF_IP6_PRI_LAST", NULL,
};

/* A decimal integer, optionally negative, that fits an int. */
static bool is_int_text(const char *t)
{
	const char *p = t + (*t == '-');
	if (!*p || strlen(p) > 10)
		return false;
	for (; *p; p++)
		if (!isdigit((unsigned char)*p))
			return false;
	long long v = atoll(t);
	return v >= -2147483648LL && v <= 2147483647LL;
}

/* A C identifier. */
static bool is_identifier(const char *t)
{
	if (!*t || isdigit((unsigned char)*t))
		return false;
	for (; *t; t++)
		if (!isalnum((unsigned char)*t) && *t != '_')
			return false;
	return true;
}

/* The C text of one component's argument, or NULL after a diagnostic. */
static const char *component_value(struct session *s, struct probe_component *c, const char *const *names)
{
	if (!c->arg) {
		diag_error(c->loc, "netfilter ...%s(...) needs a name or a number in quotes", c->name);
		return NULL;
	}
	if (c->arg->kind == NODE_NUM) {
		if (c->arg->u.num < -2147483648LL || c->arg->u.num > 2147483647LL) {
			diag_error(c->arg->loc, "netfilter %s %lld is out of range", c->name, (long long)c->arg->u.num);
			return NULL;
		}
		return ast_printf("%lld", (long long)c->arg->u.num);
	}
	const char *t = c->arg->u.str;
	if (is_int_text(t))
		return t;
	if (strspn(t + (*t == '-'), "0123456789") == strlen(t + (*t == '-')) && t[*t == '-']) {
		diag_error(c->arg->loc, "netfilter %s %s is out of range", c->name, t);
		return NULL;
	}
	for (int i = 0; names[i]; i++)
		if (!strcmp(t, names[i]))
			return t;
	if (s->guru && is_identifier(t))
		return t;
	diag_error(c->arg->loc, "unknown netfilter %s \"%s\" (for example \"%s\"; other identifiers need guru mode, -g)",
		   c->name, t, names[1]);
	return NULL;
}

static bool netfilter_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	struct netfilter_point *pt = ast_alloc(sizeof(*pt));
	int n = probes_ncomponents(pp);
	for (int i = 1; i < n; i++) {
		struct probe_component *c = probes_component(pp, i);
		const char **slot;
		const char *const *names;
		if (!strcmp(c->name, "pf")) {
			slot = &pt->pf;
			names = pf_names;
		} else if (!strcmp(c->name, "hook")) {
			slot = &pt->hook;
			names = hook_names;
		} else if (!strcmp(c->name, "priority") && i == 3) {
			slot = &pt->priority;
			names = priority_names;
		} else {
			diag_error(c->loc, "unexpected '.%s' in a netfilter probe point: expected "
				   "netfilter.hook(\"HOOK\").pf(\"PF\") or netfilter.pf(\"PF\").hook(\"HOOK\"), "
				   "then optionally .priority(\"PRIORITY\")", c->name);
			return false;
		}
		if (*slot) {
			diag_error(c->loc, "netfilter probe point names .%s twice", c->name);
			return false;
		}
		if (!(*slot = component_value(s, c, names)))
			return false;
	}
	if (!pt->pf || !pt->hook) {
		diag_error(pp->loc, "a netfilter probe point needs both .hook(\"HOOK\") and .pf(\"PF\")");
		return false;
	}
	if (!pt->priority)
		pt->priority = "0";
	out->data = pt;
	out->pp = ast_printf("netfilter.hook(\"%s\").pf(\"%s\").priority(\"%s\")", pt->hook, pt->pf, pt->priority);
	out->scope = ast_alloc(sizeof(*out->scope));
	out->scope->what = out->pp;
	const char *hit = "((struct _stp_nf_hit *)c->base.hit_data)";
	targetvar_provide(out->scope, "hooknum", TYPE_LONG, ast_printf("(int64_t)%s->hooknum", hit), NULL, false);
	targetvar_provide(out->scope, "skb", TYPE_LONG, ast_printf("(int64_t)(unsigned long)%s->skb", hit), NULL, false);
	targetvar_provide(out->scope, "in", TYPE_LONG, ast_printf("(int64_t)(unsigned long)%s->in", hit), NULL, false);
	targetvar_provide(out->scope, "out", TYPE_LONG, ast_printf("(int64_t)(unsigned long)%s->out", hit), NULL, false);
	/* $verdict: what the hook returns; only a guru may change it */
	targetvar_provide(out->scope, "verdict", TYPE_LONG, ast_printf("(int64_t)%s->verdict", hit),
			  s->guru ? ast_printf("%s->verdict", hit) : NULL, false);
	if (!s->guru)
		((struct target_provided *)out->scope->provided.items[4])->readonly_why =
			"assigning $verdict (the packet's fate) needs guru mode (-g)";
	return true;
}

/* One hook per probe point, its fields as the kernel's constants. */
static void netfilter_row(struct emitter *e, const struct resolved_probe *r)
{
	const struct netfilter_point *pt = r->data;
	emit_line(e, "{ .probe = &_stp_probes[%d], .pf = %s, .hooknum = %s, .priority = %s },", r->index, pt->pf,
		  pt->hook, pt->priority);
}

const struct probe_provider probe_netfilter = {
	.name = "netfilter",
	.patterns = (const char *const[]){"netfilter.{hook(string).pf(string),pf(string).hook(string)}{,.priority(string)}", NULL},
	.resolve = netfilter_resolve,
	.feature = "STP_HAVE_NETFILTER",
	.table = "_stp_netfilter_probe",
	.row = netfilter_row,
	.runtime = (const struct runtime_file[]){{"netfilter", 8, 0}, {0}},
};
