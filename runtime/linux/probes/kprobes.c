/* kprobes.c - kprobes and kretprobes by symbol name plus offset (kprobe.*, kernel.function, kernel.statement); roll back on failure. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

#ifdef STP_HAVE_KPROBES

static size_t _stp_kprobes_registered;	/* _stp_kprobe_probes[0..n) are registered */

/* Kprobes in modules ("module:symbol") come and go with their module: linux/modules.c. */
static int _stp_modules_start(void);
static void _stp_modules_stop(void);
static void _stp_modules_lock(void);
static void _stp_modules_unlock(void);
static size_t _stp_kprobe_module_len(const struct _stp_kprobe_probe *kpp);
static u64 _stp_modules_missed_before(void);

/*
 * Whether row kpp is a kretprobe: a constant 0 when the script has no
 * .return probe (the compiler defines STP_KPROBES_RETURN when it has one),
 * so no kretprobe code is built.
 */
#ifdef STP_KPROBES_RETURN
#define _stp_kpp_is_return(kpp) ((kpp)->is_return)
#else
#define _stp_kpp_is_return(kpp) 0
#endif

/* Whether a failure of row kpp is skipped with a warning (a wildcard's match; STP_KPROBES_WILDCARD). */
#ifdef STP_KPROBES_WILDCARD
#define _stp_kpp_is_wildcard(kpp) ((kpp)->wildcard)
#else
#define _stp_kpp_is_wildcard(kpp) 0
#endif

/*
 * The handlers. With STP_KPROBE_BODIES from the generated code, each
 * kprobe gets a pair of its own, naming its entry of the const
 * _stp_probes[]: the compiler then calls (or inlines) the body directly,
 * with no indirect call and no lookup. The generic pair, which finds the
 * probe through the kprobe, serves tables that come without the list.
 */
/*
 * While an entry body runs, the ip is the probed address, as SystemTap's
 * handlers show it (the kernel leaves it one byte past, after the int3):
 * backtraces and symbols start at the probe point. Restored before the
 * kernel single-steps or emulates the probed instruction.
 */
/*
 * A .callee probe sits on the callee's entry and runs only for the call
 * from its caller's call site: the return address (on the stack, where
 * regs->sp points on entry under an int3 or an ftrace-based kprobe alike,
 * unless a return probe moved it) must be the function's entry plus callee_return (the kernel image
 * moves as one piece, so link-time differences hold at run time). The entry is where the kprobe
 * sits, or 4 bytes before when the kernel put it past the function's ENDBR (IBT: vfs_read+0x4).
 * A .callees(N) probe deeper than 1 checks its callers' call sites too.
 * -DSTAP_CALLEE_MATCHALL runs it for every call, as SystemTap's does.
 */
#if defined(STP_KPROBES_CALLEE) && !defined(STAP_CALLEE_MATCHALL)
static unsigned long _stp_kprobe_return_address(struct pt_regs *regs)
{
	unsigned long sp = kernel_stack_pointer(regs), ret;

	if (copy_from_kernel_nofault(&ret, (void *)sp, sizeof(ret)))
		return 0;
#ifdef CONFIG_RETHOOK
	{
		/*
		 * A return probe on the same function (a .return of this
		 * script or anyone's) whose handler ran first has put its
		 * trampoline there, keeping the real address in the task's
		 * newest rethook node for this frame (bounded walk).
		 */
		struct llist_node *n = current->rethooks.first;
		int i;

		for (i = 0; n && i < 16; i++, n = n->next) {
			struct rethook_node *rn = container_of(n, struct rethook_node, llist);

			if (rn->frame == sp)
				return rn->ret_addr;
		}
	}
#endif
	return ret;
}

#ifdef STP_KPROBES_CALLERS

/*
 * .callees(N), N > 1: past the immediate return address (checked first),
 * the next N - 1 return addresses on the stack must be the call sites of
 * the chain found in DWARF. They come from the kernel's unwinder, as
 * backtrace()'s (stack.c): started from the probe's registers it reports
 * their caller first, that immediate return, then one caller per frame,
 * a kretprobe's trampoline resolved to the real address. At a function's
 * first instruction only ORC (CONFIG_UNWINDER_ORC, x86-64's default)
 * knows the frame: the frame-pointer unwinder would take the caller's
 * frame for the callee's and skip one, so no hit would match.
 */
static bool _stp_kprobe_callers_ok(const struct _stp_kprobe_probe *kpp, struct pt_regs *regs)
{
	struct unwind_state state;
	int i = -1;

	for (unwind_start(&state, current, regs, NULL); !unwind_done(&state) && i < kpp->ncallers;
	     unwind_next_frame(&state), i++) {
		unsigned long ret = unwind_get_return_address(&state);

		if (!ret || (i >= 0 && ret != kpp->callee_entry + kpp->callers[i]))
			return false;
	}
	return i == kpp->ncallers;
}
#endif

/*
 * After registration: the entry of the function a .callee kprobe is on. By
 * name at offset 0, an IBT kernel puts the kprobe past the function's
 * ENDBR (or what boot-time sealing left of it: 6.12's osp nopl (%rax),
 * later kernels' nopl -42(%rax)); those 4 bytes are then just before it.
 */
static unsigned long _stp_kprobe_callee_entry(const struct kprobe *kp, const struct _stp_kprobe_probe *kpp)
{
	unsigned long addr = (unsigned long)kp->addr;
#ifdef CONFIG_X86_KERNEL_IBT
	u32 endbr;

	if (kpp->symbol && kpp->offset == 0 && !copy_from_kernel_nofault(&endbr, (void *)(addr - 4), sizeof(endbr)) &&
	    (endbr == 0xfa1e0ff3 || endbr == 0x001f0f66 || endbr == 0xd6401f0f))
		return addr - 4;
#endif
	return addr;
}

static __always_inline bool _stp_kprobe_caller_ok(struct kprobe *kp, struct pt_regs *regs)
{
	const struct _stp_kprobe_probe *kpp = container_of(kp, struct _stp_kprobe_probe, u.kp);

	if (!kpp->callee_return)
		return true;
	if (_stp_kprobe_return_address(regs) != kpp->callee_entry + kpp->callee_return)
		return false;
#ifdef STP_KPROBES_CALLERS
	if (kpp->ncallers && !_stp_kprobe_callers_ok(kpp, regs))
		return false;
#endif
	return true;
}
#else
/* No .callee probe (or -DSTAP_CALLEE_MATCHALL): every hit is for the probe, no test on the hot path. */
static __always_inline bool _stp_kprobe_caller_ok(struct kprobe *kp, struct pt_regs *regs)
{
	return true;
}
#endif

static __always_inline void _stp_kprobe_run_at(const struct _stp_probe *p, struct kprobe *kp,
					       struct pt_regs *regs)
{
	unsigned long ip = instruction_pointer(regs);

	if (!_stp_kprobe_caller_ok(kp, regs))
		return;

	if (!p->regless)
		instruction_pointer_set(regs, (unsigned long)kp->addr);
	_stp_run_probe(p, regs);
	if (!p->regless)
		instruction_pointer_set(regs, ip);
}

static int _stp_kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct _stp_kprobe_probe *kpp = container_of(kp, struct _stp_kprobe_probe, u.kp);

	_stp_kprobe_run_at(kpp->probe, kp, regs);
	return 0;
}

#ifdef STP_KPROBES_RETURN
static int _stp_kretprobe_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = _stp_get_kretprobe(ri);
	struct _stp_kprobe_probe *kpp;

	if (!rp)
		return 0;
	kpp = container_of(rp, struct _stp_kprobe_probe, u.rp);
	_stp_run_probe_with(kpp->probe, regs, kpp->entry ? (void *)ri->data : NULL, NULL);
	return 0;
}

/*
 * At the function's entry: save what the .return body reads. When the
 * entry probe does not run (the session is not RUNNING yet, as for a call
 * that began while the probes were being armed, or the hit was skipped),
 * nothing is saved, so the return must not run either: non-zero tells
 * the kernel to drop this instance.
 */
static int _stp_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = _stp_get_kretprobe(ri);
	struct _stp_kprobe_probe *kpp;

	if (!rp)
		return 1;
	kpp = container_of(rp, struct _stp_kprobe_probe, u.rp);
	memset(ri->data, 0, kpp->data_size);
	return _stp_run_probe_with(kpp->entry, regs, ri->data, NULL) ? 0 : 1;
}

/*
 * The entry of a .callee(...).return probe: a call from elsewhere gets no
 * instance (non-zero drops it), so its return runs nothing; then what the
 * body reads at entry is saved, as for any .return probe.
 */
static int _stp_kretprobe_callee_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = _stp_get_kretprobe(ri);

	if (!rp || !_stp_kprobe_caller_ok(&rp->kp, regs))
		return 1;
	return container_of(rp, struct _stp_kprobe_probe, u.rp)->entry ? _stp_kretprobe_entry(ri, regs) : 0;
}
#endif

#ifdef STP_KPROBE_BODIES

#define STP_KPROBE_PRE_HANDLER(K, I)						\
	static int notrace _stp_kprobe_pre_##K(struct kprobe *kp, struct pt_regs *regs) \
	{									\
		_stp_kprobe_run_at(&_stp_probes[I], kp, regs);			\
		return 0;							\
	}
STP_KPROBE_BODIES(STP_KPROBE_PRE_HANDLER)

#define STP_KPROBE_PRE_ENTRY(K, I) [K] = _stp_kprobe_pre_##K,
static const kprobe_pre_handler_t _stp_kprobe_pre_handlers[] = {
	STP_KPROBE_BODIES(STP_KPROBE_PRE_ENTRY)
};
static_assert(ARRAY_SIZE(_stp_kprobe_pre_handlers) == ARRAY_SIZE(_stp_kprobe_probes),
	      "STP_KPROBE_BODIES must list every kprobe");
#define STP_KPROBE_PRE(i) _stp_kprobe_pre_handlers[i]

#ifdef STP_KPROBES_RETURN
#define STP_KRETPROBE_RET_HANDLER(K, I)						\
	static int notrace _stp_kretprobe_ret_##K(struct kretprobe_instance *ri, \
					  struct pt_regs *regs)			\
	{									\
		if (_stp_get_kretprobe(ri))					\
			_stp_run_probe(&_stp_probes[I], regs);			\
		return 0;							\
	}
STP_KPROBE_BODIES(STP_KRETPROBE_RET_HANDLER)

#define STP_KPROBE_RET_ENTRY(K, I) [K] = _stp_kretprobe_ret_##K,
static const kretprobe_handler_t _stp_kretprobe_ret_handlers[] = {
	STP_KPROBE_BODIES(STP_KPROBE_RET_ENTRY)
};
#define STP_KRETPROBE_RET(i) _stp_kretprobe_ret_handlers[i]
#endif

#ifdef STP_FTRACE
#define STP_FTRACE_EACH 1	/* entry probes may get an ftrace_ops each (_stp_ftrace_try) */
/*
 * The ftrace twin of each pre-handler, for an entry probe on an ftrace
 * site (see _stp_ftrace_try): called from the ops' own trampoline, it
 * skips the kprobe dispatch (the kprobe hash lookup, current_kprobe, the
 * ip adjustment). ftrace_test_recursion_trylock drops a hit that recurses
 * in the same context (counted as missed, like a kprobe's nmissed) and
 * disables preemption until the unlock; the runner then works as under a
 * kprobe. The registers are a full pt_regs (FTRACE_OPS_FL_SAVE_REGS) only
 * when the body may read them (p->regless is 0); otherwise none are saved
 * and none are passed.
 */
/*
 * ftrace saves the ip past the call to its trampoline: while the body
 * runs it is the function's address, as under a kprobe (_stp_kprobe_run_at),
 * then restored (a changed ip would be where the function resumes).
 */
static __always_inline void _stp_ftrace_run_at(const struct _stp_probe *p, unsigned long ip,
					       struct pt_regs *regs)
{
	unsigned long saved = regs ? instruction_pointer(regs) : 0;

	if (regs)
		instruction_pointer_set(regs, ip);
	_stp_run_probe(p, regs);
	if (regs)
		instruction_pointer_set(regs, saved);
}

#define STP_FTRACE_HANDLER(K, I)							\
	static void notrace _stp_ftrace_##K(unsigned long ip, unsigned long parent_ip,	\
					    struct ftrace_ops *op, struct ftrace_regs *fregs) \
	{										\
		const struct _stp_probe *p = &_stp_probes[I];				\
		struct pt_regs *regs = p->regless ? NULL : ftrace_get_regs(fregs);	\
		int bit = ftrace_test_recursion_trylock(ip, parent_ip);		\
											\
		if (unlikely(bit < 0 || (!p->regless && !regs))) {			\
			atomic_long_inc(&_stp_kprobe_probes[K].ftrace_missed);		\
			if (bit >= 0)							\
				ftrace_test_recursion_unlock(bit);			\
			return;								\
		}									\
		_stp_ftrace_run_at(p, ip, regs);					\
		ftrace_test_recursion_unlock(bit);					\
	}
STP_KPROBE_BODIES(STP_FTRACE_HANDLER)

#define STP_FTRACE_ENTRY(K, I) [K] = _stp_ftrace_##K,
static ftrace_func_t const _stp_ftrace_handlers[] = {
	STP_KPROBE_BODIES(STP_FTRACE_ENTRY)
};
#endif

#else

#define STP_KPROBE_PRE(i) _stp_kprobe_pre
#define STP_KRETPROBE_RET(i) _stp_kretprobe_ret

#endif

/* What a registration errno means, in words. */
static const char *_stp_kprobe_strerror(int rc)
{
	switch (rc) {
	case -ENOENT:
		return "no such symbol in the kernel";
	case -EINVAL:
		return "the kernel does not allow probing it (blacklisted, notrace or not a function entry)";
	case -EILSEQ:
		return "not on an instruction boundary";
	case -EEXIST:
		return "already probed by this module";
	case -ENOMEM:
		return "out of memory";
	case -EBUSY:
		return "busy, try again";
	case -EOPNOTSUPP:
		return "not supported by this kernel";
	default:
		return "registration failed";
	}
}

/*
 * Whether the script has a conditional kprobe. Such a script hooks nothing
 * through ftrace: re-enabling a kprobe on an ftrace site while one of our
 * own ftrace_ops is registered was seen to leave the kprobe missing every
 * hit (6.1 guest, about one run in four); with kprobes only it never did.
 */
static bool _stp_kprobes_any_conditional(void)
{
	size_t i;

	if (!IS_ENABLED(STP_HAVE_CONDS))
		return false;

	for (i = 0; i < ARRAY_SIZE(_stp_kprobe_probes); i++)
		if (_stp_kprobe_probes[i].probe->cond)
			return true;
	return false;
}

/* Wildcards over many functions: one ftrace_ops for all their entries. */
#include "ftrace_multi.c"

#ifdef STP_FTRACE
static unsigned int _stp_ftrace_hooked;	/* entry probes hooked through ftrace so far */

/*
 * Hook the entry probe i through ftrace if its address is an ftrace site:
 * its kprobe, registered disabled, has resolved the address (and passed
 * the kprobes checks: blacklist, instruction boundary) and says whether
 * it is one (KPROBE_FLAG_FTRACE). At most STP_FTRACE_MAX probes are
 * hooked: each ops has its own trampoline, and unregistering one waits
 * for an RCU-tasks grace period. Returns whether it hooked; the disabled
 * kprobe is left for _stp_ftrace_drop_resolvers.
 */
#ifdef STP_FTRACE_EACH	/* a large table comes without per-probe handlers: no per-probe hooks */
static bool _stp_ftrace_try(size_t i)
{
	struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];

	if (!(kpp->u.kp.flags & KPROBE_FLAG_FTRACE) || _stp_ftrace_hooked >= STP_FTRACE_MAX)
		return false;
	/* allocated here, not in the table: a large table of kretprobes has no use for one per row */
	kpp->fops = kzalloc(sizeof(*kpp->fops), GFP_KERNEL);
	if (!kpp->fops)
		return false;
	kpp->fops->func = _stp_ftrace_handlers[i];
	kpp->fops->flags = kpp->probe->regless ? 0 : FTRACE_OPS_FL_SAVE_REGS;
	atomic_long_set(&kpp->ftrace_missed, 0);
	if (ftrace_set_filter_ip(kpp->fops, (unsigned long)kpp->u.kp.addr, 0, 0))
		goto fail;
	if (register_ftrace_function(kpp->fops))
		goto fail;
	kpp->ftrace = 1;
	_stp_ftrace_hooked++;
	return true;
fail:
	ftrace_free_filter(kpp->fops);
	kfree(kpp->fops);
	kpp->fops = NULL;
	return false;
}
#endif

/* Unregister, in one batch (one RCU grace period), the disabled kprobes that resolved ftrace hooks. */
static void _stp_ftrace_drop_resolvers(void)
{
	size_t n = ARRAY_SIZE(_stp_kprobe_probes), i, nk = 0;
	struct kprobe **kps = kmalloc_array(n, sizeof(*kps), GFP_KERNEL);

	for (i = 0; i < n; i++) {
		struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];

		if (!kpp->resolver)
			continue;
		kpp->resolver = 0;
		if (kps)
			kps[nk++] = &kpp->u.kp;
		else
			unregister_kprobe(&kpp->u.kp);
	}
	if (nk)
		unregister_kprobes(kps, nk);
	kfree(kps);
}
#else
static void _stp_ftrace_drop_resolvers(void)
{
}
#endif

/* Where kp goes: symbol plus offset, or without a symbol (.absolute) the address in offset. */
static void _stp_kprobe_at(struct kprobe *kp, const struct _stp_kprobe_probe *kpp)
{
	if (kpp->symbol) {
		kp->symbol_name = kpp->symbol;
		kp->offset = kpp->offset;
	} else {
		kp->addr = (kprobe_opcode_t *)kpp->offset;
	}
}

/* Faults charged to our kprobes' nmissed by kernels with a fault_handler (compat.h). */
static atomic64_t _stp_kprobes_fault_charged = ATOMIC64_INIT(0);

/* Whether k is one of this module's kprobes (a row's kp or its kretprobe's). */
static bool _stp_kprobe_is_ours(const struct kprobe *k)
{
	const void *p = k;

	return p >= (const void *)_stp_kprobe_probes &&
	       p < (const void *)(_stp_kprobe_probes + ARRAY_SIZE(_stp_kprobe_probes));
}

/*
 * A fault inside kp's handler (a fault-safe read of a bad address): the
 * kernel has just counted one missed hit on kp and, when kp shares its
 * address with other kprobes (an aggregate: ->list rings them with the
 * kernel's own aggregate probe), on each of them. Count those that are
 * ours; the kernel's fixup then ends the read.
 */
static int __maybe_unused _stp_kprobe_fault(struct kprobe *kp, struct pt_regs *regs, int trapnr)
{
	struct kprobe *k;
	long n = 1;

	list_for_each_entry_rcu(k, &kp->list, list)
		if (_stp_kprobe_is_ours(k))
			n++;
	atomic64_add(n, &_stp_kprobes_fault_charged);
	return 0;
}

/* rc of kp's registration, after noting where a .callee kprobe's function starts. */
static int _stp_kprobe_registered_at(struct _stp_kprobe_probe *kpp, const struct kprobe *kp, int rc)
{
#if defined(STP_KPROBES_CALLEE) && !defined(STAP_CALLEE_MATCHALL)
	if (!rc && kpp->callee_return)
		kpp->callee_entry = _stp_kprobe_callee_entry(kp, kpp);
#endif
	return rc;
}

/* A conditional kprobe whose condition is false registers disabled. */
static int _stp_kprobe_register_one(size_t i)
{
	struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];
	const atomic_t *cond = kpp->probe->cond;

	memset(&kpp->u, 0, sizeof(kpp->u));
	kpp->disarmed = cond && !atomic_read(cond);
#ifdef STP_KPROBES_RETURN
	if (kpp->is_return) {
		_stp_kprobe_at(&kpp->u.rp.kp, kpp);
		kpp->u.rp.kp.flags = kpp->disarmed ? KPROBE_FLAG_DISABLED : 0;
		kpp->u.rp.maxactive = kpp->maxactive;
		if (kpp->entry) {
			/* the generic pair: the body reads what the entry handler saved */
			kpp->u.rp.handler = _stp_kretprobe_ret;
			kpp->u.rp.entry_handler = _stp_kretprobe_entry;
			kpp->u.rp.data_size = kpp->data_size;
		} else {
			kpp->u.rp.handler = STP_KRETPROBE_RET(i);
		}
		if (kpp->callee_return)
			kpp->u.rp.entry_handler = _stp_kretprobe_callee_entry;
		_stp_kprobe_fault_hook(&kpp->u.rp.kp, _stp_kprobe_fault);
		return _stp_kprobe_registered_at(kpp, &kpp->u.rp.kp, register_kretprobe(&kpp->u.rp));
	}
#endif
	_stp_kprobe_at(&kpp->u.kp, kpp);
	kpp->u.kp.flags = kpp->disarmed ? KPROBE_FLAG_DISABLED : 0;
	kpp->u.kp.pre_handler = STP_KPROBE_PRE(i);
	_stp_kprobe_fault_hook(&kpp->u.kp, _stp_kprobe_fault);
#ifdef STP_FTRACE_EACH
	/*
	 * An entry probe: registered disabled, then hooked through ftrace or
	 * enabled. Not a conditional one: it is armed and disarmed as a kprobe.
	 */
	if (kpp->symbol && kpp->offset == 0 && !cond && !kpp->callee_return && !_stp_kprobes_any_conditional()) {
		int rc;

		kpp->u.kp.flags = KPROBE_FLAG_DISABLED;
		rc = register_kprobe(&kpp->u.kp);
		if (rc)
			return rc;
		if (_stp_ftrace_try(i)) {
			kpp->resolver = 1;
			return 0;
		}
		rc = enable_kprobe(&kpp->u.kp);
		if (rc)
			unregister_kprobe(&kpp->u.kp);
		return rc;
	}
#endif
	return _stp_kprobe_registered_at(kpp, &kpp->u.kp, register_kprobe(&kpp->u.kp));
}

#ifdef STP_HAVE_CONDS
/*
 * Conditional kprobes follow their flags: enabled while the condition
 * holds, disabled (no trap at all) while it does not. Process context,
 * with the session mutex held, so nothing unregisters them meanwhile.
 */
static void _stp_kprobes_arm(void)
{
	size_t i;

	_stp_modules_lock();	/* module kprobes register and go meanwhile */
	for (i = 0; i < _stp_kprobes_registered; i++) {
		struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];
		struct kprobe *kp = _stp_kpp_is_return(kpp) ? &kpp->u.rp.kp : &kpp->u.kp;
		int want;

		if (!kpp->registered || !kpp->probe->cond)
			continue;
		want = atomic_read(kpp->probe->cond);
		if (want && kpp->disarmed && !enable_kprobe(kp))
			kpp->disarmed = 0;
		else if (!want && !kpp->disarmed && !disable_kprobe(kp))
			kpp->disarmed = 1;
	}
	_stp_modules_unlock();
}
#endif

static void _stp_kprobe_unregister_one(struct _stp_kprobe_probe *kpp)
{
	if (!kpp->registered)
		return;
#ifdef STP_FTRACE
	if (kpp->ftrace) {
		unregister_ftrace_function(kpp->fops);
		ftrace_free_filter(kpp->fops);
		kfree(kpp->fops);
		kpp->fops = NULL;
		kpp->ftrace = 0;
		kpp->registered = 0;
		return;
	}
#endif
	if (_stp_kpp_is_return(kpp))
		unregister_kretprobe(&kpp->u.rp);
	else
		unregister_kprobe(&kpp->u.kp);
	kpp->registered = 0;
}

/* Hits the kprobes core itself had to drop (nested kprobes, no free kretprobe instance). */
static u64 _stp_kprobes_missed(void)
{
	u64 missed = _stp_modules_missed_before() + _stp_fentry_missed_total();
	u64 charged = atomic64_read(&_stp_kprobes_fault_charged);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_kprobe_probes); i++) {
		struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];

#ifdef STP_FTRACE
		if (kpp->ftrace) {
			missed += atomic_long_read(&kpp->ftrace_missed);
			continue;
		}
#endif
		if (_stp_kpp_is_return(kpp))
			missed += kpp->u.rp.nmissed + kpp->u.rp.kp.nmissed;
		else
			missed += kpp->u.kp.nmissed;
	}
	return missed > charged ? missed - charged : 0;	/* faults the kernel counted were not misses */
}

/*
 * Returns with no handler running. Unregisters in two batches (kprobes,
 * kretprobes), so the RCU grace periods are paid twice rather than once
 * per probe; one at a time if the batch arrays cannot be allocated.
 */
static void _stp_kprobes_unregister(void)
{
	size_t n, i, nk = 0, nr = 0;
	struct kprobe **kps;
	struct kretprobe **rps;

	_stp_modules_stop();
	_stp_fentry_unregister();
	n = _stp_kprobes_registered;
	kps = kmalloc_array(n, sizeof(*kps), GFP_KERNEL);
	rps = IS_ENABLED(STP_KPROBES_RETURN) ? kmalloc_array(n, sizeof(*rps), GFP_KERNEL) : NULL;

	if (n && kps && (rps || !IS_ENABLED(STP_KPROBES_RETURN))) {
		for (i = 0; i < n; i++) {
			struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[i];

			if (!kpp->registered)
				continue;
#ifdef STP_FTRACE
			if (kpp->ftrace) {
				_stp_kprobe_unregister_one(kpp);
				continue;
			}
#endif
			if (_stp_kpp_is_return(kpp))
				rps[nr++] = &kpp->u.rp;
			else
				kps[nk++] = &kpp->u.kp;
			kpp->registered = 0;
		}
		if (nk)
			unregister_kprobes(kps, nk);
		if (nr)
			unregister_kretprobes(rps, nr);
		_stp_kprobes_registered = 0;
	}
	while (_stp_kprobes_registered > 0)
		_stp_kprobe_unregister_one(&_stp_kprobe_probes[--_stp_kprobes_registered]);
	kfree(kps);
	kfree(rps);
}

/* All or nothing: on a failure, report it naming the probe, and unregister the others. */
static int _stp_kprobes_register(void)
{
	int rc;

	for (; _stp_kprobes_registered < ARRAY_SIZE(_stp_kprobe_probes);
	     _stp_kprobes_registered++) {
		struct _stp_kprobe_probe *kpp = &_stp_kprobe_probes[_stp_kprobes_registered];

		if (_stp_kprobe_module_len(kpp))
			continue;	/* _stp_modules_start, below */
		rc = _stp_kprobe_register_one(_stp_kprobes_registered);
		if (rc && kpp->optional)
			continue;	/* '?': a point that cannot be attached is skipped */
		if (rc && _stp_kpp_is_wildcard(kpp)) {
			/* a wildcard's match that cannot be attached: skipped, with a warning */
			_stp_warn("probe %s: cannot attach it (%s, %d): skipped", kpp->probe->pp,
				  _stp_kprobe_strerror(rc), rc);
			memset(&kpp->u, 0, sizeof(kpp->u));
			continue;
		}
		if (rc) {
			_stp_session_error("probe %s at %s: cannot register: %s (%d)",
					   kpp->probe->pp, kpp->probe->location,
					   _stp_kprobe_strerror(rc), rc);
			_stp_kprobes_unregister();
			_stp_ftrace_drop_resolvers();
			return rc;
		}
		kpp->registered = 1;
	}
	_stp_ftrace_drop_resolvers();	/* before the module notifier, which drops its own */
	rc = _stp_fentry_register();	/* reports a failure */
	if (rc) {
		_stp_kprobes_unregister();
		return rc;
	}
	rc = _stp_modules_start();	/* reports a failure */
	if (rc)
		_stp_kprobes_unregister();
	return rc;
}

#else

static int _stp_kprobes_register(void)
{
	return 0;
}

static void _stp_kprobes_arm(void)
{
}

static void _stp_kprobes_unregister(void)
{
}

static u64 _stp_kprobes_missed(void)
{
	return 0;
}

#endif

#ifdef STP_HAVE_KPROBES
/* The family's entry in _stp_families[] (runtime_api.h). */
static const struct _stp_family _stp_family_kprobes = {
	.name = "kprobes",
	.register_all = _stp_kprobes_register,
	.unregister_all = _stp_kprobes_unregister,
	.missed = _stp_kprobes_missed,
#ifdef STP_HAVE_CONDS
	.arm = _stp_kprobes_arm,
#endif
};
#endif

#endif /* STP_FAMILY_DECLS */
