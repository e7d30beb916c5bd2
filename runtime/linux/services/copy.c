/* copy.c - fault-safe reads and writes of kernel and user memory, and the text of target variables. */

#include <linux/uaccess.h>

/* A value of 1, 2, 4 or 8 bytes as it stands in memory. */
union _stp_word {
	u8 b;
	u16 h;
	u32 w;
	u64 q;
};

/*
 * Read size (1, 2, 4 or 8) bytes at addr into *out, sign- or zero-extended.
 * user: addr is in the current process's address space. Never faults and
 * never sleeps (copy_from_*_nofault). On a bad address returns -EFAULT and,
 * if c is not NULL, sets its error to "kernel/user read fault at 0x...".
 */
static int _stp_deref(struct _stp_context *c, unsigned long addr, int size, int is_signed, int user,
		      unsigned long *out)
{
	union _stp_word v;
	long rc;

	if (user)
		rc = copy_from_user_nofault(&v, (const void __user *)addr, size);
	else
		rc = copy_from_kernel_nofault(&v, (const void *)addr, size);
	if (rc) {
		if (c)
			_stp_error_fmt(c, "%s read fault at 0x%016lx", user ? "user" : "kernel", addr);
		return -EFAULT;
	}
	switch (size) {
	case 1:
		*out = is_signed ? (unsigned long)(long)(s8)v.b : v.b;
		break;
	case 2:
		*out = is_signed ? (unsigned long)(long)(s16)v.h : v.h;
		break;
	case 4:
		*out = is_signed ? (unsigned long)(long)(s32)v.w : v.w;
		break;
	default:
		*out = v.q;
		break;
	}
	return 0;
}

/* Whether a kernel write may even be tried at addr (linux/arch_*.h says how). */
static bool _stp_kernel_addr_ok(unsigned long addr, int size)
{
	return _stp_arch_kernel_addr_ok(addr, size);
}

/* Write the low size bytes of value at addr (guru mode); -EFAULT with c's error set on a bad address. */
static int _stp_poke(struct _stp_context *c, unsigned long addr, int size, int user, int64_t value)
{
	union _stp_word v;
	long rc;

	switch (size) {
	case 1: v.b = (u8)value; break;
	case 2: v.h = (u16)value; break;
	case 4: v.w = (u32)value; break;
	default: v.q = (u64)value; break;
	}
	if (user) {
		rc = copy_to_user_nofault((void __user *)addr, &v, size);
	} else if (!_stp_kernel_addr_ok(addr, size)) {
		rc = -EFAULT;
	} else {
		/* copy_to_kernel_nofault is not exported: its building block is a macro */
		rc = -EFAULT;
		pagefault_disable();
		switch (size) {
		case 1: __put_kernel_nofault((void *)addr, &v.b, u8, fault); break;
		case 2: __put_kernel_nofault((void *)addr, &v.h, u16, fault); break;
		case 4: __put_kernel_nofault((void *)addr, &v.w, u32, fault); break;
		default: __put_kernel_nofault((void *)addr, &v.q, u64, fault); break;
		}
		rc = 0;
fault:
		pagefault_enable();
	}
	if (rc) {
		_stp_error_fmt(c, "%s write fault at 0x%016lx", user ? "user" : "kernel", addr);
		return -EFAULT;
	}
	return 0;
}

/* Bits [bit, bit + bits) of v (little-endian numbering), sign-extended if is_signed. */
static unsigned long _stp_bitfield(unsigned long v, int bit, int bits, int is_signed)
{
	v >>= bit;
	if (bits < 64) {
		v &= (1UL << bits) - 1;
		if (is_signed && (v & (1UL << (bits - 1))))
			v |= ~((1UL << bits) - 1);
	}
	return v;
}

/* The low size bytes of a register value, sign- or zero-extended. */
static unsigned long _stp_truncate(unsigned long v, int size, int is_signed)
{
	switch (size) {
	case 1: return is_signed ? (unsigned long)(long)(s8)v : (u8)v;
	case 2: return is_signed ? (unsigned long)(long)(s16)v : (u16)v;
	case 4: return is_signed ? (unsigned long)(long)(s32)v : (u32)v;
	default: return v;
	}
}

/*
 * The IEEE 754 double bits of the single in v's low 32 bits (a float
 * target variable, for the fp_* functions), with integers only: the
 * exponent rebiased from 127 to 1023, the fraction moved up 29 bits, a
 * subnormal single normalized (every one is a normal double).
 */
static unsigned long _stp_float_widen(unsigned long v)
{
	u64 sign = (u64)((v >> 31) & 1) << 63;
	u32 exp = (v >> 23) & 0xff, frac = v & 0x7fffff;
	int shift = 0;

	if (exp == 0xff)	/* infinity, NaN (its payload kept) */
		return sign | (0x7ffULL << 52) | ((u64)frac << 29);
	if (exp == 0) {
		if (!frac)
			return sign;
		while (!(frac & 0x800000)) {
			frac <<= 1;
			shift++;
		}
		return sign | ((u64)(1023 - 126 - shift) << 52) | ((u64)(frac & 0x7fffff) << 29);
	}
	return sign | ((u64)(exp - 127 + 1023) << 52) | ((u64)frac << 29);
}

/* Append printf-style text to a string_t. */
static __printf(2, 3) void _stp_tv_append(char *dst, const char *fmt, ...)
{
	size_t len = strnlen(dst, MAXSTRINGLEN);
	va_list ap;

	if (len >= MAXSTRINGLEN - 1)
		return;
	va_start(ap, fmt);
	vscnprintf(dst + len, MAXSTRINGLEN - len, fmt, ap);
	va_end(ap);
}

/*
 * Copy a NUL-terminated string of at most max bytes at addr into dst
 * (MAXSTRINGLEN bytes, always terminated); the length, or -EFAULT.
 */
static long _stp_copy_string(char *dst, unsigned long addr, long max, int user)
{
	long n = max + 1 < MAXSTRINGLEN ? max + 1 : MAXSTRINGLEN;
	long rc;

	if (n <= 0) {
		dst[0] = '\0';
		return 0;
	}
	/* strncpy_from_*_nofault are not exported: copy up to each page's end, then look for the NUL */
	{
		long done = 0;

		while (done < n - 1) {
			unsigned long at = addr + done;
			long chunk = PAGE_SIZE - (at & ~PAGE_MASK);
			char *nul;

			if (chunk > n - 1 - done)
				chunk = n - 1 - done;
			if (user)
				rc = copy_from_user_nofault(dst + done, (const void __user *)at, chunk);
			else
				rc = copy_from_kernel_nofault(dst + done, (const void *)at, chunk);
			if (rc) {
				dst[0] = '\0';
				return -EFAULT;
			}
			nul = memchr(dst + done, '\0', chunk);
			if (nul)
				return nul - dst;
			done += chunk;
		}
		dst[done] = '\0';
		return done;
	}
}

/* Append the string at addr (at most max bytes) in double quotes, or "?" if unreadable; NULL prints 0x0. */
static void _stp_tv_append_string(char *dst, unsigned long addr, long max, int user)
{
	char buf[MAXSTRINGLEN];

	if (!addr) {
		_stp_tv_append(dst, "0x0");
		return;
	}
	if (_stp_copy_string(buf, addr, max, user) < 0) {
		_stp_tv_append(dst, "?");
		return;
	}
	_stp_tv_append(dst, "\"%s\"", buf);
}

/*
 * For the tapset's kernel_string() and friends: copy the string at addr into
 * dst; a bad address is an error of the running probe ("kernel string copy
 * fault at 0x..."). max < 0 means MAXSTRINGLEN - 1.
 */
static int _stp_string_or_error(struct _stp_context *c, char *dst, unsigned long addr, long max, int user)
{
	if (_stp_copy_string(dst, addr, max < 0 ? MAXSTRINGLEN - 1 : max, user) < 0) {
		_stp_error_fmt(c, "%s string copy fault at 0x%016lx", user ? "user" : "kernel", addr);
		return -EFAULT;
	}
	return 0;
}

/*
 * @var of a kernel module. The kernel exports no lookup of a module or of
 * its symbols, so the list of loaded modules is walked from this module's
 * own entry (the list is RCU-protected; probe handlers run with
 * preemption off, and rcu_read_lock_sched covers the other callers): the
 * list's head, which is no module, is told apart by its address, outside
 * the modules area. The module's kallsyms table (what /proc/kallsyms
 * shows of it, static data included with CONFIG_KALLSYMS_ALL) gives the
 * symbol. Looked up at each use, so a module unloaded or reloaded
 * elsewhere is always seen as it is: the cost is one pass over the
 * loaded modules and one over that module's symbols.
 */
static int __maybe_unused _stp_module_symbol(struct _stp_context *c, const char *module, const char *sym,
					     unsigned long *out)
{
	struct module *mod;
	int found = 0;

	*out = 0;
	rcu_read_lock_sched();
	list_for_each_entry_rcu(mod, &THIS_MODULE->list, list) {
		unsigned long at = (unsigned long)mod;
#ifdef CONFIG_KALLSYMS
		struct mod_kallsyms *ks;
		unsigned int i;
#endif

		if (at < MODULES_VADDR || at >= MODULES_END)
			continue;	/* the list head */
		if (mod->state == MODULE_STATE_UNFORMED || strcmp(mod->name, module))
			continue;
		found = 1;
#ifdef CONFIG_KALLSYMS
		ks = rcu_dereference_sched(mod->kallsyms);
		for (i = 0; ks && i < ks->num_symtab; i++) {
			const Elf_Sym *s = &ks->symtab[i];

			if (s->st_shndx != SHN_UNDEF && !strcmp(ks->strtab + s->st_name, sym)) {
				*out = s->st_value;
				break;
			}
		}
#endif
		break;
	}
	rcu_read_unlock_sched();
	if (*out)
		return 0;
	if (c)
		_stp_error_fmt(c, found ? "@var: module %s has no symbol %s" : "@var: module %s is not loaded",
			       module, sym);
	return -ENOENT;
}
