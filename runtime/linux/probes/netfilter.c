/* netfilter.c - netfilter.hook(...).pf(...) probes: nf_hook_ops in the initial network namespace that run the probe for each packet. */

/*
 * The hook runs in softirq context (a received packet) or in the sending
 * task's context with bottom halves off; the runner copes with both. Each
 * hit carries a struct _stp_nf_hit on the hook's stack: the body reads
 * $hooknum, $skb, $in and $out from it and a guru-mode body may set
 * $verdict. Only NF_DROP, NF_ACCEPT and NF_QUEUE are honoured: NF_STOLEN
 * would leak the packet (no script can free it) and NF_REPEAT could loop
 * forever, so anything else is taken as NF_ACCEPT.
 *
 * nf_unregister_net_hook() waits (synchronize_net) for hooks running on
 * other CPUs, so no body runs once every hook is unregistered.
 */

#ifdef STP_FAMILY_DECLS
#ifdef STP_HAVE_NETFILTER
/* the hook API, and the constants a netfilter probe point may name */
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/netfilter_arp.h>
#include <uapi/linux/netfilter_bridge.h>

/* netfilter.hook("H").pf("P").priority("N"): a hook in the initial network namespace. */
struct _stp_netfilter_probe {
	const struct _stp_probe *probe;
	u8 pf;                           /* NFPROTO_IPV4, NFPROTO_IPV6, ... */
	unsigned int hooknum;            /* NF_INET_LOCAL_IN, ... */
	int priority;                    /* lower runs first */
	struct nf_hook_ops ops;          /* runtime-owned */
};

/* What a netfilter probe's $hooknum, $skb, $in, $out and $verdict read (c->base.hit_data). */
struct _stp_nf_hit {
	unsigned int hooknum;            /* the hook the packet is at */
	struct sk_buff *skb;             /* the packet */
	struct net_device *in;           /* the device it came in on, NULL if none yet */
	struct net_device *out;          /* the device it goes out on, NULL if none yet */
	s64 verdict;                     /* what the hook returns: NF_ACCEPT unless a guru script sets it */
};
#endif
#else /* the code */
#ifdef STP_HAVE_NETFILTER

#include <net/net_namespace.h>

static size_t _stp_netfilter_registered;	/* _stp_netfilter_probes[0..n) are hooked */

static unsigned int _stp_netfilter_hook(void *priv, struct sk_buff *skb, const struct nf_hook_state *state)
{
	const struct _stp_netfilter_probe *np = priv;
	struct _stp_nf_hit hit = {
		.hooknum = state->hook,
		.skb = skb,
		.in = state->in,
		.out = state->out,
		.verdict = NF_ACCEPT,
	};

	_stp_run_probe_data(np->probe, NULL, NULL, &hit);
	switch (hit.verdict) {
	case NF_DROP:
	case NF_QUEUE:
		return (unsigned int)hit.verdict;
	default:
		return NF_ACCEPT;
	}
}

static void _stp_netfilter_unregister(void)
{
	while (_stp_netfilter_registered > 0)
		nf_unregister_net_hook(&init_net, &_stp_netfilter_probes[--_stp_netfilter_registered].ops);
}

/* All or nothing: on a failure, report it naming the probe, and unhook the rest. */
static int _stp_netfilter_register(void)
{
	for (; _stp_netfilter_registered < ARRAY_SIZE(_stp_netfilter_probes); _stp_netfilter_registered++) {
		struct _stp_netfilter_probe *np = &_stp_netfilter_probes[_stp_netfilter_registered];
		int rc;

		np->ops.hook = _stp_netfilter_hook;
		np->ops.priv = np;
		np->ops.pf = np->pf;
		np->ops.hooknum = np->hooknum;
		np->ops.priority = np->priority;
		rc = nf_register_net_hook(&init_net, &np->ops);
		if (rc) {
			_stp_session_error("probe %s at %s: cannot register the netfilter hook (%d)",
					   np->probe->pp, np->probe->location, rc);
			_stp_netfilter_unregister();
			return rc;
		}
	}
	return 0;
}

STP_FAMILY(netfilter, _stp_netfilter_register, _stp_netfilter_unregister);

#endif
#endif /* STP_FAMILY_DECLS */
