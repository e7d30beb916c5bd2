/* ustack.c - user-space backtraces (frame pointers) and symbols from the ELF tables built at pass 3, for tapset/linux/ucontext-*.stp. */

/*
 * Where a user backtrace starts: the registers of a user-mode hit
 * (uprobes, samples of user space), else the user registers the task
 * entered the kernel with (kernel probes in a system call or an
 * interrupt of a user task); kernel threads have none.
 *
 * Unwinding uses the unwind table built at pass 3 from the file's CFI
 * (.eh_frame or .debug_frame) where the code has one: the CFA is rsp or
 * rbp plus an offset, the return address is at CFA - 8, rbp is restored
 * from where the frame saved it (arm64: sp or x29, the return address
 * where the frame saved x30 or, in the first frame, still in x30). Elsewhere it follows the frame-pointer
 * chain: [bp] is the caller's bp and [bp + 8] the return address; at a
 * function's first instruction (nothing pushed yet) the return address is
 * at [sp]. The chain ends at MAXBACKTRACE frames, at the outermost frame
 * (_start: no return address), when the stack pointer does not grow, at
 * a misaligned frame pointer, at a zero or kernel return address, or at
 * the first unreadable word: every read is copy_from_user_nofault, so a
 * missing page ends the trace, never the script.
 *
 * Symbols: the address's mapping (find_vma under mmap_read_trylock; no
 * symbol while the lock is contended, in NMI context, or on PREEMPT_RT
 * kernels, whose rtmutex unlock may enable interrupts) gives the file
 * and the offset in it; the file is matched against _stp_umodules[] by
 * its name and size, the offset turned into a link-time address through
 * the module's PT_LOAD segments, and the symbol found by binary search.
 * So PIE programs and libraries resolve at any load address.
 */

#ifndef STP_USTACK_C
#define STP_USTACK_C

#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/dcache.h>
#include "linux/services/stack.c"

#ifndef STP_HAVE_USYMS
#define STP_NR_UMODULES 0
static const struct _stp_umodule _stp_umodules[] = { {"", "", -1LL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL} };
#endif

/* Where a user address is: a module of _stp_umodules[] and a link-time address in it. */
struct _stp_uwhere {
	const struct _stp_umodule *mod;  /* NULL: no module known */
	u64 vaddr;                       /* link-time address */
	u64 file_offset;                 /* offset in the file */
};

/* The module mapped at addr in the current task; false if none is known or the lock is busy. */
static bool _stp_uaddr_where(unsigned long addr, struct _stp_uwhere *w)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	const char *name = NULL;
	long long size = -1;
	int i, j;

	w->mod = NULL;
	/*
	 * On PREEMPT_RT the mmap lock is an rtmutex whose unlock may turn
	 * interrupts back on (a waiting writer): no lookups there.
	 */
	if (IS_ENABLED(CONFIG_PREEMPT_RT) || !mm || in_nmi() || (current->flags & PF_KTHREAD) ||
	    !mmap_read_trylock(mm))
		return false;
	vma = find_vma(mm, addr);
	if (vma && vma->vm_start <= addr && vma->vm_file) {
		name = (const char *)vma->vm_file->f_path.dentry->d_name.name;
		size = i_size_read(file_inode(vma->vm_file));
		w->file_offset = addr - vma->vm_start + ((u64)vma->vm_pgoff << PAGE_SHIFT);
		for (i = 0; i < STP_NR_UMODULES && !w->mod; i++)
			if (_stp_umodules[i].size == size && strcmp(_stp_umodules[i].name, name) == 0)
				w->mod = &_stp_umodules[i];
	}
	mmap_read_unlock(mm);
	if (!w->mod)
		return false;
	for (j = 0; j < w->mod->nsegs; j++) {
		const struct _stp_useg *seg = &w->mod->segs[j];

		if (w->file_offset >= seg->offset && w->file_offset < seg->offset + seg->filesz) {
			w->vaddr = w->file_offset - seg->offset + seg->vaddr;
			return true;
		}
	}
	w->vaddr = 0;
	return true;	/* the module, but outside its loaded segments (no symbol) */
}

/* The symbol holding a link-time address of mod, or NULL. */
static const struct _stp_usym *_stp_usym_at(const struct _stp_umodule *mod, u64 vaddr)
{
	int lo = 0, hi = mod->nsyms - 1, found = -1, k;

	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (mod->syms[mid].vaddr <= vaddr) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (found < 0 || !vaddr)
		return NULL;
	/* A sized symbol that holds it wins over an unsized label after its start. */
	for (k = found; k >= 0 && k > found - 8; k--)
		if (mod->syms[k].size && vaddr < mod->syms[k].vaddr + mod->syms[k].size)
			return &mod->syms[k];
	return mod->syms[found].size ? NULL : &mod->syms[found];
}

/*
 * The symbol of a user address into c->sym_buf: "name+0xoff/0xsize
 * [path]", "0xaddr [path+0xoffset]" in a known module without a symbol
 * there, or "0xaddr". Returns the symbol, or NULL.
 */
static const struct _stp_usym *_stp_usym(struct _stp_context *c, unsigned long addr)
{
	struct _stp_uwhere w;
	const struct _stp_usym *sym = NULL;

	if (_stp_uaddr_where(addr, &w))
		sym = _stp_usym_at(w.mod, w.vaddr);
	if (sym)
		snprintf(c->sym_buf, sizeof(c->sym_buf), "%s+0x%llx/0x%llx [%s]", sym->name,
			 (unsigned long long)(w.vaddr - sym->vaddr), (unsigned long long)sym->size, w.mod->path);
	else if (w.mod)
		snprintf(c->sym_buf, sizeof(c->sym_buf), "0x%lx [%s+0x%llx]", addr, w.mod->path,
			 (unsigned long long)w.file_offset);
	else
		snprintf(c->sym_buf, sizeof(c->sym_buf), "0x%lx", addr);
	return sym;
}

/* usymname(): the name alone, or "0xaddr"; true if known. */
static bool _stp_usymname(struct _stp_context *c, char *dst, unsigned long addr)
{
	const struct _stp_usym *sym = _stp_usym(c, addr);

	if (sym)
		_stp_strlcpy(dst, sym->name);
	else
		_stp_snprintf(dst, MAXSTRINGLEN, "0x%lx", addr);
	return sym != NULL;
}

/* umodname(): the path of the module mapped at addr; false if none is known. */
static bool _stp_umodname(char *dst, unsigned long addr)
{
	struct _stp_uwhere w;

	if (!_stp_uaddr_where(addr, &w))
		return false;
	_stp_strlcpy(dst, w.mod->path);
	return true;
}

/*
 * The source line of a user address, from the line table of its file
 * (when the script asked for lines: ucontext-lines.stp); caller: addr is
 * a return address (the line of the byte before). False if not known.
 */
static bool _stp_uline_of(unsigned long addr, bool caller, const char **file, unsigned int *line)
{
	struct _stp_uwhere w;
	int lo, hi, found = -1;
	u64 vaddr;

	if (!_stp_uaddr_where(addr, &w) || !w.mod->nlines || !w.vaddr)
		return false;
	vaddr = caller ? w.vaddr - 1 : w.vaddr;
	lo = 0;
	hi = w.mod->nlines - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (w.mod->lines[mid].vaddr <= vaddr) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (found < 0 || !w.mod->lines[found].line)
		return false;
	*file = w.mod->files[w.mod->lines[found].file];
	*line = w.mod->lines[found].line;
	return true;
}

/*
 * As _stp_ksym_line, for a user address: " 0xaddr : usymdata\n" or
 * "usymdata\n", " at file:line" before the newline with STP_SYM_FILELINE.
 */
static bool _stp_usym_line(struct _stp_context *c, char *dst, unsigned long addr, unsigned int flags)
{
	const char *file;
	unsigned int line;

	_stp_usym(c, addr);
	if ((flags & STP_SYM_FILELINE) && _stp_uline_of(addr, flags & STP_SYM_CALLER, &file, &line)) {
		size_t len = strlen(c->sym_buf);

		snprintf(c->sym_buf + len, sizeof(c->sym_buf) - len, " at %s:%u", file, line);
	}
	return _stp_sym_line_out(c, dst, addr, true, flags & STP_SYM_VERBOSE);
}

/* A word of user memory; false if it cannot be read without faulting. */
static bool _stp_uread(unsigned long addr, unsigned long *out)
{
	return copy_from_user_nofault(out, (const void __user *)addr, sizeof(*out)) == 0;
}

/* Whether a user address is the first instruction of a known function. */
static bool _stp_uat_entry(unsigned long addr)
{
	struct _stp_uwhere w;
	const struct _stp_usym *sym;

	return _stp_uaddr_where(addr, &w) && (sym = _stp_usym_at(w.mod, w.vaddr)) && sym->vaddr == w.vaddr;
}

/* Whether addr may be a return address in user code. */
static bool _stp_uaddr_plausible(unsigned long addr)
{
	return addr >= PAGE_SIZE && addr < TASK_SIZE_MAX;
}

/* The unwind row for a user address, or NULL if its file has none (or none is known). */
static const struct _stp_ucfi *_stp_ucfi_at(unsigned long addr)
{
	struct _stp_uwhere w;
	int lo, hi, found = -1;

	if (!_stp_uaddr_where(addr, &w) || !w.mod->ncfi || !w.vaddr)
		return NULL;
	lo = 0;
	hi = w.mod->ncfi - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (w.mod->cfi[mid].vaddr <= w.vaddr) {
			found = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	return found < 0 ? NULL : &w.mod->cfi[found];
}

/* A user frame while unwinding: where it executes, its stack and frame pointers. */
struct _stp_uframe {
	unsigned long ip, sp, bp;
	unsigned long lr;	/* arm64: the link register of the first frame (its return address at entry) */
};

/*
 * One step from a frame to its caller's. With CFI for the frame's code:
 * CFA from rsp or rbp (arm64: sp or x29), the return address at CFA - 8
 * (arm64: where the CFI says, or the link register in the first frame's
 * leaf code), rbp (x29) restored if saved. Without: at a function's first instruction (first frame only) the
 * return address is at [sp]; elsewhere the frame pointers [bp], [bp + 8].
 * The first frame is looked up at its ip (it is about to run), callers at
 * ip - 1 (inside the call). False at the end of the stack or on a fault.
 */
static bool _stp_ustep(struct _stp_uframe *f, bool first)
{
	const struct _stp_ucfi *row = _stp_ucfi_at(first ? f->ip : f->ip - 1);
	unsigned long cfa, ret, bp = f->bp;

	if (row && row->cfa_reg != STP_UCFA_NONE) {
		if (row->outermost)
			return false;
		cfa = (row->cfa_reg == STP_UCFA_SP ? f->sp : f->bp) + (long)row->cfa_offset;
		/* ra_offset 0: arm64 code before (or without) saving the link register */
		if (row->ra_offset ? !_stp_uread(cfa + (long)row->ra_offset, &ret) : !first)
			return false;
		if (!row->ra_offset)
			ret = f->lr;
		if (row->bp_offset && !_stp_uread(cfa + (long)row->bp_offset, &bp))
			return false;
	} else if (first && _stp_uat_entry(f->ip)) {
		/* x86-64: the return address at [sp]; arm64: in the link register (linux/arch_*.h) */
		if (!_stp_arch_uentry_ret(f->sp, f->lr, &ret))
			return false;
		ret = _STP_USTRIP(ret);
		cfa = f->sp + _STP_UENTRY_CFA_OFFSET;
		if (!_stp_uaddr_plausible(ret))
			return false;
		f->ip = ret;
		f->sp = cfa;
		return true;
	} else {
		if ((f->bp & (sizeof(long) - 1)) || f->bp < f->sp || !_stp_uread(f->bp, &bp) ||
		    !_stp_uread(f->bp + sizeof(long), &ret))
			return false;
		cfa = f->bp + 2 * sizeof(long);
	}
	ret = _STP_USTRIP(ret);
	if (!_stp_uaddr_plausible(ret) || cfa <= f->sp)
		return false;
	f->ip = ret;
	f->sp = cfa;
	f->bp = bp;
	return true;
}

/*
 * Fill c->stack_pcs with the user return addresses of the current task
 * from frame f (its ip first), innermost first; returns how many, at
 * most MAXBACKTRACE.
 */
static int _stp_ustack_from(struct _stp_context *c, struct _stp_uframe *f)
{
	int n = 0;

	if (!current->mm || (current->flags & PF_KTHREAD))
		return 0;
	c->stack_pcs[n++] = f->ip;
	while (n < MAXBACKTRACE && _stp_ustep(f, n == 1))
		c->stack_pcs[n++] = f->ip;
	return n;
}

/*
 * The user backtrace at the probe (see _stp_ustack_from): from the
 * registers of a user-mode hit, else those the task entered the kernel
 * with. regs is c->regs (see _stp_kstack).
 */
static int _stp_ustack(struct _stp_context *c, struct pt_regs *regs)
{
	struct _stp_uframe f;

	if (!regs || !user_mode(regs)) {
		if (!current->mm || (current->flags & PF_KTHREAD))
			return 0;
		regs = task_pt_regs(current);
	}
	f.ip = instruction_pointer(regs);
	f.sp = user_stack_pointer(regs);
	f.bp = _STP_UREG_FP(regs);
	f.lr = _STP_USTRIP(_STP_UREG_LR(regs));
	return _stp_ustack_from(c, &f);
}

/*
 * The text of a quoted component of the probe point, e.g. NAME of
 * function("NAME@file.c:12") (up to '@' or the closing quote);
 * false if the point has no such component.
 */
static bool _stp_pp_component(const struct _stp_probe *probe, const char *what, char *dst)
{
	const char *pp = probe ? probe->pp : NULL;
	const char *at = pp ? strstr(pp, what) : NULL;
	size_t len;

	if (!at)
		return false;
	at += strlen(what);
	len = strcspn(at, "@\"");
	if (len > MAXSTRINGLEN - 1)
		len = MAXSTRINGLEN - 1;
	memcpy(dst, at, len);
	dst[len] = '\0';
	return true;
}

/* Whether the running probe is a .return probe (its registers are those at the return). */
static bool _stp_pp_is_return(const struct _stp_probe *probe)
{
	const char *pp = probe ? probe->pp : NULL;
	size_t len = pp ? strlen(pp) : 0;

	return len > 7 && strcmp(pp + len - 7, ".return") == 0;
}

/*
 * probefunc(): the symbol of the probed address; a .return probe's from
 * its probe point (a .callee's: the innermost callee). regs and probe are c->regs and c->probe (see _stp_kstack).
 */
static void _stp_probefunc(struct _stp_context *c, struct pt_regs *regs, const struct _stp_probe *probe,
			   char *dst)
{
	dst[0] = '\0';
	if (regs && !user_mode(regs) && !_stp_pp_is_return(probe)) {
		_stp_ksymname(c, dst, instruction_pointer(regs));
		return;
	}
	if (regs && user_mode(regs) && !_stp_pp_is_return(probe) &&
	    _stp_usymname(c, dst, instruction_pointer(regs)))
		return;
	/* a .callee("...") return probe returns from its innermost callee, not its caller */
	if (probe && probe->pp) {
		const char *at = probe->pp, *last = NULL;

		while ((at = strstr(at, ".callee(\"")))
			last = at++;
		if (last) {
			size_t len;

			last += strlen(".callee(\"");
			len = min_t(size_t, strcspn(last, "@\""), MAXSTRINGLEN - 1);
			memcpy(dst, last, len);
			dst[len] = '\0';
			return;
		}
	}
	_stp_pp_component(probe, "function(\"", dst);
}

/* probemod() (as probefunc): the module of the probed kernel address, "kernel" for the kernel itself. */
static void _stp_probemod(struct _stp_context *c, struct pt_regs *regs, const struct _stp_probe *probe,
			  char *dst)
{
	dst[0] = '\0';
	if (regs && !user_mode(regs) && !_stp_pp_is_return(probe)) {
		_stp_kmodname(c, dst, instruction_pointer(regs));
		return;
	}
	if (_stp_pp_component(probe, "module(\"", dst))
		return;
	if (probe && (strncmp(probe->pp, "kernel.", 7) == 0 ||
		      strncmp(probe->pp, "kprobe.function", 15) == 0))
		_stp_strlcpy(dst, "kernel");
}

#endif /* STP_USTACK_C */
