/* uprobes.c - probes in user-space programs: uprobes on (inode, offset), SDT marker operands, $return. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

/*
 * Each _stp_uprobes[] entry is one uprobe (or uretprobe) on the file's
 * inode at a file offset; the kernel puts the breakpoint in every process
 * mapping that file, now or later. The body runs in the probed task, from
 * the breakpoint trap, through the usual runner (interrupts off: no
 * sleeping, user memory read with the _nofault copies only).
 *
 * An SDT marker with a semaphore is registered with it as the reference
 * counter, so the program sees the semaphore set while the probe is on.
 * .library() probes fire only in processes running the named program.
 *
 * uprobe_unregister() returns once no handler of that consumer runs
 * (handlers run under the uprobe's register_rwsem), so after unregistering
 * everything no body can start; the files are released last.
 *
 * .return probes that read variables: the kernel keeps no data per
 * uretprobe instance, so what the body reads is saved at the entry into a
 * slot of a pool of STP_URETPROBE_SLOTS, allocated when the session
 * starts. A slot is keyed by its task, its uprobe and the stack pointer
 * the function returns with (entry sp + 8: the return address is popped),
 * which tells apart recursive calls. Only the owning task touches a
 * claimed slot; a free one is claimed with cmpxchg. A frame the program
 * left without returning (longjmp) is reclaimed when its task next enters
 * that function at the same or an outer level; one still held when its
 * task exits stays until the session ends. With the pool full, the entry
 * and its return are skipped and counted, like a kretprobe past maxactive.
 * When the entry body does not run (the session is not RUNNING yet, or the
 * hit was skipped and counted), nothing was saved and the return is
 * dropped too, quietly: its body would read zeros.
 */

#ifdef STP_HAVE_PROCESS

#include <linux/vmalloc.h>

#ifndef STP_URETPROBE_SLOTS
#define STP_URETPROBE_SLOTS 256
#endif

static size_t _stp_uprobes_registered;	/* _stp_uprobes[0..n) are registered */

/* One .return instance's saved values. */
struct _stp_uret_slot {
	struct task_struct *task;	/* owner, NULL when free */
	const struct _stp_uprobe *up;	/* whose entry probe filled it */
	unsigned long sp;		/* the stack pointer at the return */
	bool saved;			/* the entry body ran: data holds its values */
	char *data;			/* _stp_uret_data_size bytes */
};
static struct _stp_uret_slot _stp_uret_slots[STP_URETPROBE_SLOTS];
static char *_stp_uret_data;		/* the slots' data, NULL if no probe saves anything */
static size_t _stp_uret_data_size;	/* bytes per slot: the largest data_size */

/* Take a slot for up in current at a call returning with sp; NULL if the pool is full. */
static struct _stp_uret_slot *_stp_uret_claim(const struct _stp_uprobe *up, unsigned long sp)
{
	struct _stp_uret_slot *free_slot = NULL;
	size_t i;

	for (i = 0; i < STP_URETPROBE_SLOTS; i++) {
		struct _stp_uret_slot *slot = &_stp_uret_slots[i];

		/* a deeper or equal frame of ours never returned: reclaim it */
		if (READ_ONCE(slot->task) == current && slot->up == up && slot->sp <= sp)
			smp_store_release(&slot->task, NULL);
	}
	for (i = 0; i < STP_URETPROBE_SLOTS && !free_slot; i++) {
		struct _stp_uret_slot *slot = &_stp_uret_slots[i];

		if (!READ_ONCE(slot->task) && !cmpxchg(&slot->task, NULL, current))
			free_slot = slot;
	}
	if (free_slot) {
		free_slot->up = up;
		free_slot->sp = sp;
		free_slot->saved = false;
		memset(free_slot->data, 0, up->data_size);
	}
	return free_slot;
}

/* current's slot for up returning with sp, or NULL (its entry was skipped). */
static struct _stp_uret_slot *_stp_uret_find(const struct _stp_uprobe *up, unsigned long sp)
{
	size_t i;

	for (i = 0; i < STP_URETPROBE_SLOTS; i++) {
		struct _stp_uret_slot *slot = &_stp_uret_slots[i];

		if (READ_ONCE(slot->task) == current && slot->up == up && slot->sp == sp)
			return slot;
	}
	return NULL;
}

static int _stp_uret_pool_alloc(void)
{
	size_t i, size = 0;

	for (i = 0; i < ARRAY_SIZE(_stp_uprobes); i++)
		if (_stp_uprobes[i].entry && _stp_uprobes[i].data_size > size)
			size = _stp_uprobes[i].data_size;
	if (!size)
		return 0;
	size = ALIGN(size, sizeof(long));
	_stp_uret_data = vzalloc(size * STP_URETPROBE_SLOTS);
	if (!_stp_uret_data)
		return -ENOMEM;
	_stp_uret_data_size = size;
	for (i = 0; i < STP_URETPROBE_SLOTS; i++)
		_stp_uret_slots[i] = (struct _stp_uret_slot){ .data = _stp_uret_data + i * size };
	return 0;
}

/* After every uprobe is unregistered: no handler runs. */
static void _stp_uret_pool_free(void)
{
	vfree(_stp_uret_data);
	_stp_uret_data = NULL;
	_stp_uret_data_size = 0;
	memset(_stp_uret_slots, 0, sizeof(_stp_uret_slots));
}

/* The value of a user register (an SDT operand's: linux/arch_*.h). */
static unsigned long _stp_ureg_value(const struct pt_regs *regs, enum _stp_ureg reg)
{
	return _stp_arch_ureg_value(regs, reg);
}

/* Truncate v to size bytes, sign-extending when size is negative. */
static int64_t _stp_sdt_sized(u64 v, int size)
{
	switch (size) {
	case 1: return (u8)v;
	case -1: return (s8)v;
	case 2: return (u16)v;
	case -2: return (s16)v;
	case 4: return (u32)v;
	case -4: return (s32)v;
	default: return (s64)v;
	}
}

static const struct _stp_uprobe *_stp_uprobe_of(struct _stp_context *c)
{
	return c->hit_data;
}

static unsigned long _stp_uprobe_bias(struct _stp_context *c, const struct pt_regs *regs)
{
	const struct _stp_uprobe *up = _stp_uprobe_of(c);

	/* the uprobe hit at ip, which the file's link-time address vaddr became */
	if (!up || !up->relocatable || !regs)
		return 0;
	return instruction_pointer(regs) - (unsigned long)up->vaddr;
}

static int64_t _stp_sdt_arg(struct _stp_context *c, const struct pt_regs *regs, int n)
{
	const struct _stp_uprobe *up = _stp_uprobe_of(c);
	const struct _stp_sdt_arg *a;
	unsigned long addr;
	u64 v = 0;
	int bytes;

	if (!up || !up->sdt || !regs || n < 1 || n > up->sdt->nargs) {
		c->last_error = "no such SDT marker argument";
		return 0;
	}
	a = &up->sdt->args[n - 1];
	switch (a->kind) {
	case STP_SDT_CONST:
		return _stp_sdt_sized((u64)a->value, a->size);
	case STP_SDT_REG:
		return _stp_sdt_sized(_stp_ureg_value(regs, a->reg) >> a->shift, a->size);
	case STP_SDT_MEM:
		addr = (unsigned long)a->value;
		if (a->reg != STP_UREG_NONE)
			addr += _stp_ureg_value(regs, a->reg);
		if (a->index != STP_UREG_NONE)
			addr += _stp_ureg_value(regs, a->index) * a->scale;
		/* a PIE or library runs at an offset from its link-time addresses */
		if (a->relocate && up->relocatable)
			addr += instruction_pointer(regs) - up->sdt->vaddr;
		bytes = a->size < 0 ? -a->size : a->size;
		if (copy_from_user_nofault(&v, (const void __user *)addr, bytes)) {
			_stp_error_fmt(c, "user memory fault reading $arg%d at 0x%lx", n, addr);
			return 0;
		}
		return _stp_sdt_sized(v, a->size);
	}
	return 0;
}

static const char *_stp_sdt_name(struct _stp_context *c)
{
	const struct _stp_uprobe *up = _stp_uprobe_of(c);

	return up && up->sdt ? up->sdt->name : "";
}

static const char *_stp_sdt_provider(struct _stp_context *c)
{
	const struct _stp_uprobe *up = _stp_uprobe_of(c);

	return up && up->sdt ? up->sdt->provider : "";
}

/* .library() probes: is current running the program? A point without a path: is it the target? With a PID: that process? */
static bool _stp_uprobe_wanted(const struct _stp_uprobe *up)
{
#ifdef STP_PRIVILEGE_STAPUSR
	if (!_stp_myproc())
		return false;	/* another user's process: not this user's to probe */
#endif
	if (up->target_only && !_stp_tf_in_target(current))
		return false;
	if (up->pid && current->tgid != up->pid)
		return false;
	return !up->filter_kpath.dentry ||
	       _stp_tf_exe_inode(current, true) == d_inode(up->filter_kpath.dentry);
}

#if defined(STP_UPROBES_CALLERS) && !defined(STAP_CALLEE_MATCHALL)
#include "linux/services/ustack.c"

/*
 * A return address read from a user stack slot: when a uretprobe (this
 * script's, e.g. on a depth-1 callee of the same .callees(N).return, or
 * anyone's) has put its trampoline there, the task's return instance for
 * that slot keeps the real one (bounded walk, newest first).
 */
static unsigned long _stp_uprobe_real_return(unsigned long slot, unsigned long ret)
{
	const struct return_instance *ri = current->utask ? current->utask->return_instances : NULL;
	int i;

	for (i = 0; ri && i < 64; i++, ri = ri->next)
		if (ri->stack == slot)
			return ri->orig_ret_vaddr;
	return ret;
}

/*
 * .callees(N), N > 1: from the caller's frame f (its ip the immediate
 * return address, already checked), each step up the user stack
 * (linux/services/ustack.c: the file's CFI when the module has its unwind table,
 * else frame pointers) must land on the next call site of the chain,
 * base plus callers[i], base being the callee's entry. The return
 * address of each step sat in the slot just below the new frame's
 * stack pointer. Every read is fault-safe; a fault or the end of the
 * stack before the chain is complete fails the check.
 */
static bool _stp_uprobe_callers_ok(const struct _stp_uprobe *up, unsigned long base, struct _stp_uframe *f)
{
	int i;

	for (i = 0; i < up->ncallers; i++) {
		if (!_stp_ustep(f, false))
			return false;
		f->ip = _stp_uprobe_real_return(f->sp - sizeof(long), f->ip);
		if (f->ip != base + up->callers[i])
			return false;
	}
	return true;
}
#endif

/*
 * A .callee probe on the callee's entry runs only for the call from its
 * call site: the return address the call pushed (at the user stack
 * pointer) is the probed address plus callee_return, both in one file
 * moved by one load bias. -DSTAP_CALLEE_MATCHALL: every call.
 */
static bool _stp_uprobe_caller_ok(const struct _stp_uprobe *up, struct pt_regs *regs)
{
#ifndef STAP_CALLEE_MATCHALL
	unsigned long ret = 0, sp = user_stack_pointer(regs);

	if (up->callee_return &&
	    (!_stp_arch_uentry_ret(sp, _STP_UREG_LR(regs), &ret) ||
	     ret != instruction_pointer(regs) + up->callee_return))
		return false;
#ifdef STP_UPROBES_CALLERS
	if (up->ncallers) {
		struct _stp_uframe f = { .ip = ret, .sp = sp + _STP_UENTRY_CFA_OFFSET, .bp = _STP_UREG_FP(regs) };

		return _stp_uprobe_callers_ok(up, instruction_pointer(regs), &f);
	}
#endif
#endif
	return true;
}

/*
 * The same at a .callee(...).return probe's return: the uretprobe has put
 * the return address back in the instruction pointer, and func is the
 * callee's entry; the stack and frame pointers are the caller's again.
 */
static bool _stp_uprobe_returns_to_caller(const struct _stp_uprobe *up, unsigned long func, struct pt_regs *regs)
{
#ifndef STAP_CALLEE_MATCHALL
	if (up->callee_return && instruction_pointer(regs) != func + up->callee_return)
		return false;
#ifdef STP_UPROBES_CALLERS
	if (up->ncallers) {
		struct _stp_uframe f = { .ip = instruction_pointer(regs), .sp = user_stack_pointer(regs),
					 .bp = _STP_UREG_FP(regs) };

		return _stp_uprobe_callers_ok(up, func, &f);
	}
#endif
#endif
	return true;
}

#ifdef STP_UPROBES_BUILDID
#ifndef STP_UPROBE_BUILDID_EXTRAS
#define STP_UPROBE_BUILDID_EXTRAS 256
#endif
/* A process("BUILD-ID") uprobe on another file with its build-id (uprobes_buildid.c). */
struct _stp_uprobe_extra {
	struct uprobe_consumer consumer;	/* registered on inode at up->offset */
	struct _stp_uprobe_reg reg;		/* what unregistering consumer needs (linux/compat/compat.h) */
	struct _stp_uprobe *up;			/* the probe's row, NULL while the slot is free */
	struct inode *inode;			/* held (ihold) while registered */
};
static struct _stp_uprobe_extra _stp_uprobe_extras[STP_UPROBE_BUILDID_EXTRAS];
#endif

/* The row a consumer belongs to: its own, or the one an extra registration copies. */
static struct _stp_uprobe *_stp_uprobe_owner(struct uprobe_consumer *uc)
{
#ifdef STP_UPROBES_BUILDID
	if ((void *)uc >= (void *)_stp_uprobe_extras &&
	    (void *)uc < (void *)(_stp_uprobe_extras + STP_UPROBE_BUILDID_EXTRAS))
		return container_of(uc, struct _stp_uprobe_extra, consumer)->up;
#endif
	return container_of(uc, struct _stp_uprobe, consumer);
}

static int _stp_uprobe_handler(struct uprobe_consumer *uc, struct pt_regs *regs _STP_UPROBE_HANDLER_DATA)
{
	struct _stp_uprobe *up = _stp_uprobe_owner(uc);

	if (_stp_uprobe_wanted(up) && _stp_uprobe_caller_ok(up, regs))
		_stp_run_probe_data(up->probe, regs, NULL, up);
	return 0;
}

static int _stp_uretprobe_handler(struct uprobe_consumer *uc, unsigned long func,
				  struct pt_regs *regs _STP_UPROBE_HANDLER_DATA)
{
	struct _stp_uprobe *up = _stp_uprobe_owner(uc);

	if (_stp_uprobe_wanted(up) && _stp_uprobe_returns_to_caller(up, func, regs))
		_stp_run_probe_data(up->probe, regs, NULL, up);
	return 0;
}

/* A .return probe with values to save: its entry, then its return, through a slot. */
static int _stp_uretprobe_entry(struct uprobe_consumer *uc, struct pt_regs *regs _STP_UPROBE_HANDLER_DATA)
{
	struct _stp_uprobe *up = _stp_uprobe_owner(uc);
	struct _stp_uret_slot *slot;

	if (!_stp_uprobe_wanted(up) || !_stp_uprobe_caller_ok(up, regs))
		return 0;	/* a .callee's return from another call site finds no slot, and is no skip */
	slot = _stp_uret_claim(up, user_stack_pointer(regs) + _STP_UENTRY_CFA_OFFSET);	/* the sp after its return */
	if (!slot) {
		_stp_count_skipped();
		return 0;
	}
	slot->saved = _stp_run_probe_data(up->entry, regs, slot->data, up);
	return 0;
}

static int _stp_uretprobe_saved(struct uprobe_consumer *uc, unsigned long func,
				struct pt_regs *regs _STP_UPROBE_HANDLER_DATA)
{
	struct _stp_uprobe *up = _stp_uprobe_owner(uc);
	struct _stp_uret_slot *slot;

	if (!_stp_uprobe_wanted(up) || !_stp_uprobe_returns_to_caller(up, func, regs))
		return 0;
	slot = _stp_uret_find(up, user_stack_pointer(regs));
	if (!slot) {
		_stp_count_skipped();	/* its entry found the pool full */
		return 0;
	}
	if (slot->saved)
		_stp_run_probe_data(up->probe, regs, slot->data, up);
	smp_store_release(&slot->task, NULL);
	return 0;
}

static void _stp_uprobe_put_paths(struct _stp_uprobe *up)
{
	if (up->kpath.dentry)
		path_put(&up->kpath);
	if (up->filter_kpath.dentry)
		path_put(&up->filter_kpath);
	memset(&up->kpath, 0, sizeof(up->kpath));
	memset(&up->filter_kpath, 0, sizeof(up->filter_kpath));
}

/* uc's handlers for up's kind of probe. */
static void _stp_uprobe_consumer_init(const struct _stp_uprobe *up, struct uprobe_consumer *uc)
{
	memset(uc, 0, sizeof(*uc));
	if (up->is_return && up->entry) {
		uc->handler = _stp_uretprobe_entry;
		uc->ret_handler = _stp_uretprobe_saved;
	} else if (up->is_return) {
		uc->ret_handler = _stp_uretprobe_handler;
	} else {
		uc->handler = _stp_uprobe_handler;
	}
}

static int _stp_uprobe_register_one(struct _stp_uprobe *up, const char **why)
{
	struct inode *inode;
	int rc;

	*why = "cannot find the file";
	rc = kern_path(up->path, LOOKUP_FOLLOW, &up->kpath);
	if (rc) {
		memset(&up->kpath, 0, sizeof(up->kpath));
		return rc;
	}
	/*
	 * The inode the file's mappings use: on an overlayfs (a container, or the
	 * QEMU guest's view of the host) the lower layer's, not the overlay's.
	 */
	inode = d_real_inode(up->kpath.dentry);
	if (!S_ISREG(inode->i_mode)) {
		*why = "not a regular file";
		return -EINVAL;
	}
	if (up->filter_path) {
		*why = "cannot find the program";
		rc = kern_path(up->filter_path, LOOKUP_FOLLOW, &up->filter_kpath);
		if (rc) {
			memset(&up->filter_kpath, 0, sizeof(up->filter_kpath));
			return rc;
		}
	}
	_stp_uprobe_consumer_init(up, &up->consumer);
	*why = "uprobe registration failed";
	return _stp_uprobe_register(&up->reg, inode, up->offset, up->semaphore, &up->consumer);
}

static void _stp_uprobes_unregister(void)
{
	while (_stp_uprobes_registered > 0) {
		struct _stp_uprobe *up = &_stp_uprobes[--_stp_uprobes_registered];

		if (up->registered)
			_stp_uprobe_unregister(&up->reg, &up->consumer);
		up->registered = 0;
		_stp_uprobe_put_paths(up);
	}
	_stp_uret_pool_free();
}

/* All or nothing: on a failure, report it naming the probe, and unregister the others. */
static int _stp_uprobes_register(void)
{
	if (!_stp_uprobes_registered && !_stp_uret_data && _stp_uret_pool_alloc()) {
		_stp_session_error("cannot allocate the %d slots of .return probe values", STP_URETPROBE_SLOTS);
		return -ENOMEM;
	}
	for (; _stp_uprobes_registered < ARRAY_SIZE(_stp_uprobes); _stp_uprobes_registered++) {
		struct _stp_uprobe *up = &_stp_uprobes[_stp_uprobes_registered];
		const char *why;
		int rc = _stp_uprobe_register_one(up, &why);

		if (rc) {
			_stp_session_error("probe %s at %s: %s in %s at %s (offset 0x%llx): %d [see man error::inode-uprobes]",
					   up->probe->pp, up->probe->location, why, up->path, up->what,
					   (unsigned long long)up->offset, rc);
			_stp_uprobe_put_paths(up);
			_stp_uprobes_unregister();
			return rc;
		}
		up->registered = 1;
	}
	return 0;
}

STP_FAMILY(uprobes, _stp_uprobes_register, _stp_uprobes_unregister);

#endif

#endif /* STP_FAMILY_DECLS */
