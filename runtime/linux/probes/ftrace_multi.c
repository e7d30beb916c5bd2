/* ftrace_multi.c - entry probes on many kernel functions behind one ftrace_ops: one filter of all their sites, one callback finding the probe by address. */

/*
 * A kernel.function wildcard matching thousands of functions gets one
 * ftrace_ops (one trampoline, one filter set by one ftrace_set_filter_ips
 * call, one RCU-tasks wait to unregister) and one callback that looks the
 * hit's ip up in a hash table the compiler built (_stp_fentry_hash over
 * _stp_fentries, both const data): no code per function. The table holds
 * link-time addresses; the KASLR offset is the distance between where two
 * exported functions are and where the same image's symbol table put them
 * (both must agree, or the module was built for another image).
 *
 * Without ftrace (-D STP_NO_FTRACE, or a kernel without it), or when the
 * script has a conditional kprobe (see kprobes.c), every row is a kprobe
 * by symbol name instead, sharing one pre-handler.
 *
 * A row may carry a .return probe too (ret_probe): through ftrace, the
 * shared callback hijacks the function's return (linux/probes/ftrace_return.c);
 * on the kprobe fallback, it is a kretprobe.
 *
 * A row that cannot be attached is skipped with a warning when a wildcard
 * matched it, and fails the start otherwise.
 *
 * Compiled against a kernel known from BTF only (STP_FENTRY_BY_NAME), the
 * table has names and no sites: at start one pass over the kernel's
 * symbols (kallsyms_on_each_symbol, found through a disabled kprobe, as
 * modules may not call it by name) gives each row its function's address,
 * the site is that address (after an endbr64) when it holds ftrace's
 * 5-byte nop or call, and the hash index is built then. A row without a
 * site (not in kallsyms, notrace, __init text freed) or one ftrace refuses
 * is skipped when a wildcard matched it, as pass 2 skips such a function
 * with DWARF (one warning counts them), and is a kprobe (and a kretprobe)
 * by address when it was named alone. The kprobes blacklist is not
 * consulted: the kernel's function graph tracer too hooks the return of
 * every function in ftrace's records.
 */
#ifdef STP_FTRACE_MULTI

/* The probe a row is named by in messages: its entry probe, else its .return. */
static const struct _stp_probe *_stp_fentry_named(const struct _stp_fentry *e)
{
	return e->probe ? e->probe : e->ret_probe;
}

/* The hash slot of a link-time site: the compiler computes the same (probes/kprobe.c). */
static __always_inline u32 _stp_fentry_slot(unsigned long site)
{
	return (u32)(((u64)site * 0x9E3779B97F4A7C15ULL) >> (64 - STP_FENTRY_HASH_BITS));
}

/* Warnings about rows skipped at start: one each, then a count. */
#define STP_FENTRY_WARN_MAX 10

static unsigned long _stp_fentry_skipped;	/* rows a wildcard matched that could not attach */
#ifdef STP_FENTRY_BY_NAME
/*
 * Per row, its function's address from kallsyms (0: not there), found at
 * start: a fallback kprobe takes it rather than the name, which the kernel
 * of 6.1 would look up again by a linear scan of every symbol.
 */
static unsigned long _stp_fentry_addrs[ARRAY_SIZE(_stp_fentries)];
static bool _stp_fentry_resolved;	/* _stp_fentry_addrs holds what kallsyms has */
#endif

/* Report a row that could not attach; 0 if it is skipped (a wildcard's match), else rc. */
static int _stp_fentry_failed(const struct _stp_fentry *e, int rc)
{
	if (!e->wildcard) {
		_stp_session_error("probe %s at %s: cannot register: %s (%d)", _stp_fentry_named(e)->pp,
				   _stp_fentry_named(e)->location, _stp_kprobe_strerror(rc), rc);
		return rc;
	}
	if (++_stp_fentry_skipped <= STP_FENTRY_WARN_MAX)
		_stp_warn("probe %s: cannot attach it (%s, %d): skipped", _stp_fentry_named(e)->pp,
			  _stp_kprobe_strerror(rc), rc);
	return 0;
}

static void _stp_fentry_warn_total(void)
{
#ifdef STP_FENTRY_BY_NAME
	unsigned long nosite = 0;
	size_t i;

	for (i = 0; _stp_fentry_resolved && i < ARRAY_SIZE(_stp_fentries); i++)
		nosite += !_stp_fentries[i].site && _stp_fentries[i].wildcard;
	if (nosite)
		_stp_warn("%lu functions matched by wildcards have no ftrace site (built notrace, __init code "
			  "freed after boot, or not in kallsyms by that name) and were skipped", nosite);
#endif
	if (_stp_fentry_skipped > STP_FENTRY_WARN_MAX)
		_stp_warn("%lu functions matched by wildcards could not be attached and were skipped",
			  _stp_fentry_skipped);
}

/* ---- the kprobe fallback ---- */

/* One kprobe per row (and a kretprobe for its .return), allocated at start. */
struct _stp_fentry_kprobe {
	struct kprobe kp;
	const struct _stp_fentry *e;     /* its row */
	int registered;
#ifdef STP_FENTRY_RETURN
	struct kretprobe rp;             /* for e->ret_probe */
	int rp_registered;
#endif
};
static struct _stp_fentry_kprobe *_stp_fentry_kps;
static u64 _stp_fentry_kps_missed;	/* misses of the kprobes already unregistered */

/* The one pre-handler of every fallback kprobe. */
static int notrace _stp_fentry_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct _stp_fentry_kprobe *k = container_of(kp, struct _stp_fentry_kprobe, kp);

	_stp_run_probe(k->e->probe, regs);
	return 0;
}

#ifdef STP_FENTRY_RETURN
/* The one return handler of every fallback kretprobe. */
static int notrace _stp_fentry_kretprobe_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = _stp_get_kretprobe(ri);

	if (rp)
		_stp_run_probe(container_of(rp, struct _stp_fentry_kprobe, rp)->e->ret_probe, regs);
	return 0;
}

static void _stp_fentry_kretprobes_unregister(void)
{
	size_t n = ARRAY_SIZE(_stp_fentries), i, nr = 0;
	struct kretprobe **rps = kvmalloc_array(n, sizeof(*rps), GFP_KERNEL);

	for (i = 0; i < n; i++) {
		struct _stp_fentry_kprobe *k = &_stp_fentry_kps[i];

		_stp_fentry_kps_missed += k->rp.nmissed + k->rp.kp.nmissed;
		if (!k->rp_registered)
			continue;
		k->rp_registered = 0;
		if (rps)
			rps[nr++] = &k->rp;
		else
			unregister_kretprobe(&k->rp);
	}
	if (nr)
		unregister_kretprobes(rps, nr);
	kvfree(rps);
}
#endif

static void _stp_fentry_kprobes_unregister(void)
{
	size_t n = ARRAY_SIZE(_stp_fentries), i, nk = 0;
	struct kprobe **kps;

	if (!_stp_fentry_kps)
		return;
#ifdef STP_FENTRY_RETURN
	_stp_fentry_kretprobes_unregister();
#endif
	kps = kvmalloc_array(n, sizeof(*kps), GFP_KERNEL);
	for (i = 0; i < n; i++) {
		_stp_fentry_kps_missed += _stp_fentry_kps[i].kp.nmissed;
		if (!_stp_fentry_kps[i].registered)
			continue;
		_stp_fentry_kps[i].registered = 0;
		if (kps)
			kps[nk++] = &_stp_fentry_kps[i].kp;
		else
			unregister_kprobe(&_stp_fentry_kps[i].kp);
	}
	if (nk)
		unregister_kprobes(kps, nk);
	kvfree(kps);
	kvfree(_stp_fentry_kps);
	_stp_fentry_kps = NULL;
}

/* Where row i's kprobe (kp) goes: by name, or by the address found at start; -ENOENT if none was. */
static int _stp_fentry_kprobe_at(size_t i, struct kprobe *kp)
{
#ifdef STP_FENTRY_BY_NAME
	if (_stp_fentry_resolved) {
		if (!_stp_fentry_addrs[i])
			return -ENOENT;
		kp->addr = (kprobe_opcode_t *)_stp_fentry_addrs[i];
		return 0;
	}
#endif
	kp->symbol_name = _stp_fentries[i].symbol;
	return 0;
}

/*
 * Whether row i gets a kprobe: every row, or (unsited) a row without an
 * ftrace site that was named alone. A wildcard's match without one is
 * skipped, as pass 2 skips it with DWARF: its kprobe would cost an armed
 * breakpoint each (seconds for a few hundred), where the rest attach in
 * one filter update.
 */
static bool _stp_fentry_wants_kprobe(size_t i, bool unsited)
{
#ifdef STP_FENTRY_BY_NAME
	if (unsited && _stp_fentry_resolved)
		return !_stp_fentries[i].site && !_stp_fentries[i].wildcard;
#endif
	return !unsited || !_stp_fentries[i].site;
}

/* Every row a kprobe, or (unsited) only the rows named alone without an ftrace site. */
static int _stp_fentry_kprobes_register(bool unsited)
{
	size_t n = ARRAY_SIZE(_stp_fentries), i;
	int rc;

	for (i = 0; i < n && !_stp_fentry_wants_kprobe(i, unsited); i++)
		;
	if (i == n)
		return 0;	/* no row needs one */
	_stp_fentry_kps = kvcalloc(n, sizeof(*_stp_fentry_kps), GFP_KERNEL);
	if (!_stp_fentry_kps)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct _stp_fentry_kprobe *k = &_stp_fentry_kps[i];

		k->e = &_stp_fentries[i];
		if (!_stp_fentry_wants_kprobe(i, unsited))
			continue;
		rc = 0;
#ifdef STP_FENTRY_RETURN
		if (k->e->ret_probe) {
			k->rp.handler = _stp_fentry_kretprobe_ret;
			rc = _stp_fentry_kprobe_at(i, &k->rp.kp);
			if (!rc)
				rc = register_kretprobe(&k->rp);
			k->rp_registered = !rc;
		}
		if (!rc && !k->e->probe)
			continue;
#endif
		k->kp.pre_handler = _stp_fentry_kprobe_pre;
		if (!rc)
			rc = _stp_fentry_kprobe_at(i, &k->kp);
		if (!rc)
			rc = register_kprobe(&k->kp);
		if (!rc) {
			k->registered = 1;
			continue;
		}
		rc = _stp_fentry_failed(k->e, rc);
		if (rc) {
			_stp_fentry_kprobes_unregister();
			return rc;
		}
	}
	return 0;
}

static u64 _stp_fentry_kprobes_missed(void)
{
	u64 missed = _stp_fentry_kps_missed;
	size_t i;

	for (i = 0; _stp_fentry_kps && i < ARRAY_SIZE(_stp_fentries); i++) {
		missed += _stp_fentry_kps[i].kp.nmissed;
#ifdef STP_FENTRY_RETURN
		missed += _stp_fentry_kps[i].rp.nmissed + _stp_fentry_kps[i].rp.kp.nmissed;
#endif
	}
	return missed;
}

#if defined(STP_FTRACE) && defined(STP_FENTRY_RETURN) && !defined(CONFIG_X86_64)
/* the return trampoline is x86-64 code: kretprobes instead (STP_FENTRY_FTRACE undefined) */
#elif defined(STP_FTRACE)
#define STP_FENTRY_FTRACE 1	/* the rows may go through ftrace */
#endif

#ifdef STP_FENTRY_FTRACE
/* ---- one ftrace_ops for every row ---- */

static struct ftrace_ops _stp_fentry_ops;
static bool _stp_fentry_hooked;		/* _stp_fentry_ops is registered */
static unsigned long _stp_fentry_delta;	/* KASLR: run-time minus link-time address */
static atomic_long_t _stp_fentry_missed;	/* hits dropped by ftrace's recursion guard, returns not hijacked */

#include "ftrace_return.c"

#ifdef STP_FENTRY_BY_NAME
#include <linux/jhash.h>

/* The rows by name while the symbols are read: open addressing, index + 1 per slot. */
struct _stp_fentry_names {
	u32 *slots;
	u32 mask;
	unsigned long *addrs;	/* per row: its function's address, 0 until found (_stp_fentry_addrs) */
};

static u32 _stp_fentry_name_slot(const struct _stp_fentry_names *t, const char *name)
{
	return jhash(name, strlen(name), 0) & t->mask;
}

/* For each vmlinux symbol: the first address of a row's name (kprobes take the same one). */
static int _stp_fentry_name_hit(void *data, const char *name, unsigned long addr)
{
	struct _stp_fentry_names *t = data;
	u32 slot, idx;

	for (slot = _stp_fentry_name_slot(t, name); (idx = t->slots[slot]) != 0; slot = (slot + 1) & t->mask) {
		if (strcmp(_stp_fentries[idx - 1].symbol, name))
			continue;
		if (!t->addrs[idx - 1])
			t->addrs[idx - 1] = addr;
		break;
	}
	return 0;
}

/* The ftrace site of the function at addr: its start (after an endbr64 or its seal) if ftrace patched it; else 0. */
static unsigned long _stp_fentry_site_of(unsigned long addr)
{
	static const u8 nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };
	u8 insn[5];
	u32 endbr;

	if (copy_from_kernel_nofault(&endbr, (void *)addr, sizeof(endbr)))
		return 0;
	/*
	 * endbr64, or what IBT's boot-time sealing left of it in a function
	 * never called indirectly (6.12: osp nopl (%rax); later kernels: nopl
	 * -42(%rax)): the site follows it
	 */
	if (endbr == 0xfa1e0ff3 || endbr == 0x001f0f66 || endbr == 0xd6401f0f)
		addr += 4;
	if (copy_from_kernel_nofault(insn, (void *)addr, sizeof(insn)))
		return 0;
	return !memcmp(insn, nop5, sizeof(nop5)) || insn[0] == 0xe8 ? addr : 0;
}

/* kallsyms_on_each_symbol, which modules cannot link against: its address from a kprobe never armed. */
static void *_stp_fentry_each_symbol(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_on_each_symbol", .flags = KPROBE_FLAG_DISABLED };
	void *addr;

	if (register_kprobe(&kp))
		return NULL;
	addr = kp.addr;
	unregister_kprobe(&kp);
	return addr;
}

/*
 * Give each row its address and site and build the hash index; a row left
 * without a site (0) is skipped or a kprobe (_stp_fentry_wants_kprobe).
 */
static int _stp_fentry_resolve(void)
{
	size_t n = ARRAY_SIZE(_stp_fentries), i;
	u32 mask = (1U << STP_FENTRY_HASH_BITS) - 1, slot;
	struct _stp_fentry_names t;
	void *each = _stp_fentry_each_symbol();
	u32 bits = 4;

	while ((1UL << bits) < 2 * n)
		bits++;
	t.mask = (1U << bits) - 1;
	t.slots = kvcalloc(1UL << bits, sizeof(*t.slots), GFP_KERNEL);
	t.addrs = _stp_fentry_addrs;
	if (!t.slots)
		return -ENOMEM;
	memset(_stp_fentry_addrs, 0, sizeof(_stp_fentry_addrs));
	for (i = 0; i < n; i++) {
		for (slot = _stp_fentry_name_slot(&t, _stp_fentries[i].symbol); t.slots[slot]; slot = (slot + 1) & t.mask)
			;
		t.slots[slot] = i + 1;
	}
	_stp_fentry_resolved = each != NULL;
	if (each)
		_stp_kallsyms_each(each, _stp_fentry_name_hit, &t);
	else
		_stp_warn("cannot read the kernel's symbols (kallsyms_on_each_symbol): %zu functions get a kprobe each", n);
	memset(_stp_fentry_hash, 0, sizeof(_stp_fentry_hash));
	for (i = 0; i < n; i++) {
		_stp_fentries[i].site = t.addrs[i] ? _stp_fentry_site_of(t.addrs[i]) : 0;
		if (!_stp_fentries[i].site)
			continue;
		for (slot = _stp_fentry_slot(_stp_fentries[i].site); _stp_fentry_hash[slot]; slot = (slot + 1) & mask)
			;
		_stp_fentry_hash[slot] = i + 1;
	}
	kvfree(t.slots);
	return 0;
}
#endif

/* The row of the site at run-time address ip, or NULL. */
static __always_inline const struct _stp_fentry *_stp_fentry_find(unsigned long ip)
{
	unsigned long site = ip - _stp_fentry_delta;
	u32 mask = (1U << STP_FENTRY_HASH_BITS) - 1;
	u32 slot = _stp_fentry_slot(site), idx;

	while ((idx = _stp_fentry_hash[slot]) != 0) {
		if (likely(_stp_fentries[idx - 1].site == site))
			return &_stp_fentries[idx - 1];
		slot = (slot + 1) & mask;
	}
	return NULL;
}

/*
 * The hook, for every function of the filter: ip is the ftrace call
 * site. The recursion guard drops a hit that recurses in the same context
 * (counted as missed) and keeps preemption off until the unlock, as for
 * the per-probe hooks of kprobes.c. Registers are saved only when some
 * row's body may read them (STP_FENTRY_REGS) or some row has a .return
 * (STP_FENTRY_RETURN), whose hijack needs the stack pointer. The entry
 * body runs before the return is hijacked.
 */
static void notrace _stp_fentry_call(unsigned long ip, unsigned long parent_ip, struct ftrace_ops *op,
				     struct ftrace_regs *fregs)
{
	const struct _stp_fentry *e;
	struct pt_regs *regs = NULL;
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (unlikely(bit < 0)) {
		atomic_long_inc(&_stp_fentry_missed);
		return;
	}
	e = _stp_fentry_find(ip);
	if (likely(e) && e->probe) {
#ifdef STP_FENTRY_REGS
		if (!e->probe->regless)
			regs = ftrace_get_regs(fregs);
		if (unlikely(!e->probe->regless && !regs))
			atomic_long_inc(&_stp_fentry_missed);
		else
#endif
			_stp_run_probe(e->probe, regs);
	}
#ifdef STP_FENTRY_RETURN
	if (likely(e) && e->ret_probe && !_stp_fret_hijack(e, ftrace_get_regs(fregs), parent_ip))
		atomic_long_inc(&_stp_fentry_missed);
#endif
	ftrace_test_recursion_unlock(bit);
}

/* The KASLR offset, checked against a second symbol; -ENOEXEC if the image is not the one compiled for. */
static int _stp_fentry_relocate(void)
{
#ifdef STP_FENTRY_BY_NAME
	_stp_fentry_delta = 0;	/* the sites are run-time addresses */
	return 0;
#else
	unsigned long a = (unsigned long)&ftrace_set_filter_ips - (unsigned long)STP_FENTRY_REF_FILTER;
	unsigned long b = (unsigned long)&register_ftrace_function - (unsigned long)STP_FENTRY_REF_REGISTER;

	if (a != b) {
		_stp_session_error("the running kernel is not the image this module was compiled against "
				   "(its debuginfo places kernel functions elsewhere)");
		return -ENOEXEC;
	}
	_stp_fentry_delta = a;
	return 0;
#endif
}

/*
 * A site ftrace refuses: by name, the row is treated as one without a site
 * (its stale hash slot matches no ip); else skipped or fatal.
 */
static int _stp_fentry_refused(size_t i, int rc)
{
#ifdef STP_FENTRY_BY_NAME
	_stp_fentries[i].site = 0;
	return 0;
#else
	return _stp_fentry_failed(&_stp_fentries[i], rc);
#endif
}

/*
 * Filter every site in one call; if the kernel refuses the set (one site
 * is not traceable after all), one site at a time, handing the refused
 * ones to _stp_fentry_refused. Then one registration. Rows without a site
 * (by name) are left to the kprobes.
 */
static int _stp_fentry_ftrace_register(void)
{
	size_t n = ARRAY_SIZE(_stp_fentries), i, nips = 0, nset = 0;
	unsigned long *ips;
	int rc;

	rc = _stp_fentry_relocate();
	if (rc)
		return rc;
	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!ips)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (_stp_fentries[i].site)
			ips[nips++] = _stp_fentries[i].site + _stp_fentry_delta;
	memset(&_stp_fentry_ops, 0, sizeof(_stp_fentry_ops));
	_stp_fentry_ops.func = _stp_fentry_call;
#if defined(STP_FENTRY_REGS) || defined(STP_FENTRY_RETURN)
	_stp_fentry_ops.flags = FTRACE_OPS_FL_SAVE_REGS;
#endif
	atomic_long_set(&_stp_fentry_missed, 0);
	rc = nips ? ftrace_set_filter_ips(&_stp_fentry_ops, ips, nips, 0, 1) : 0;
	if (!rc) {
		nset = nips;
	} else {
		for (i = 0; i < n; i++) {
			unsigned long ip = _stp_fentries[i].site + _stp_fentry_delta;

			if (!_stp_fentries[i].site)
				continue;
			rc = ftrace_set_filter_ips(&_stp_fentry_ops, &ip, 1, 0, 0);
			if (!rc) {
				nset++;
				continue;
			}
			rc = _stp_fentry_refused(i, rc);
			if (rc)
				goto fail;
		}
	}
	rc = 0;
	if (nset) {
#ifdef STP_FENTRY_RETURN
		rc = _stp_fret_start();	/* reports a failure */
		if (rc)
			goto fail;
#endif
		rc = register_ftrace_function(&_stp_fentry_ops);
		if (rc) {
			_stp_session_error("cannot register the ftrace hook of %zu kernel functions (%d)", nset, rc);
#ifdef STP_FENTRY_RETURN
			_stp_fret_stop();
#endif
			goto fail;
		}
		_stp_fentry_hooked = true;
	}
	kvfree(ips);
	return 0;
fail:
	ftrace_free_filter(&_stp_fentry_ops);
	kvfree(ips);
	return rc;
}
#endif

static void _stp_fentry_unregister(void);

/* Through ftrace unless a conditional kprobe forbids it (_stp_kprobes_any_conditional, kprobes.c). */
static int _stp_fentry_register(void)
{
	int rc;

	_stp_fentry_skipped = 0;
#ifdef STP_FENTRY_FTRACE
	if (!_stp_kprobes_any_conditional()) {
#ifdef STP_FENTRY_BY_NAME
		rc = _stp_fentry_resolve();
		if (rc)
			return rc;
#endif
		rc = _stp_fentry_ftrace_register();
#ifdef STP_FENTRY_BY_NAME
		/* the rows named alone without a site, or whose site ftrace refused */
		if (!rc && (rc = _stp_fentry_kprobes_register(true)))
			_stp_fentry_unregister();
#endif
	} else
#endif
		rc = _stp_fentry_kprobes_register(false);
	if (!rc)
		_stp_fentry_warn_total();
	return rc;
}

/* Returns with no callback running: unregister_ftrace_function waits for them. */
static void _stp_fentry_unregister(void)
{
#ifdef STP_FENTRY_FTRACE
	if (_stp_fentry_hooked) {
		unregister_ftrace_function(&_stp_fentry_ops);
		ftrace_free_filter(&_stp_fentry_ops);
#ifdef STP_FENTRY_RETURN
		_stp_fret_stop();	/* after the ops: no new hijack */
#endif
		_stp_fentry_hooked = false;
	}
#endif
	_stp_fentry_kprobes_unregister();
}

static u64 _stp_fentry_missed_total(void)
{
	u64 missed = _stp_fentry_kprobes_missed();

#ifdef STP_FENTRY_FTRACE
	missed += atomic_long_read(&_stp_fentry_missed);
#endif
	return missed;
}

#else

static int _stp_fentry_register(void)
{
	return 0;
}

static void _stp_fentry_unregister(void)
{
}

static u64 _stp_fentry_missed_total(void)
{
	return 0;
}

#endif
