/* stack.c - kernel backtraces through the kernel's own unwinder (ORC on x86-64; frame records on arm64, linux/compat/arch_arm64.h) and symbols from kallsyms, for tapset/linux/backtrace.stp. */

/*
 * Where a backtrace starts:
 *  - registers of a kernel-mode hit (kprobes, ftrace-hooked entries,
 *    kretprobes, timer.profile and perf samples): the unwinder starts
 *    right there, so no frame of the tracer (int3 or ftrace trampolines,
 *    the runner, this module) is ever seen. A kprobe handler sets the ip
 *    to the probed address while the body runs (linux/probes/kprobes.c); in a
 *    kretprobe's handler the kernel has already put the real return
 *    address there, and its unwinder turns every rethook trampoline
 *    deeper in the stack back into the address it stands for;
 *  - registers of a user-mode hit: the kernel stack is empty;
 *  - no registers (tracepoints, timer.ms, begin/end): the unwinder starts
 *    here, and everything up to the last frame of this module is dropped,
 *    then a tracepoint iterator (__traceiter_NAME, present when a
 *    tracepoint has several callbacks) if one comes next.
 * The unwinder takes at most MAXBACKTRACE + STP_STACK_SKIP_MAX steps and
 * stops at the first address that is not kernel text; it never sleeps and
 * takes no lock, so it serves any context, NMI included.
 *
 * Symbols come from kallsyms at run time (sprint_symbol), which covers the
 * kernel, loaded modules, BPF programs and ftrace trampolines without any
 * debuginfo; names are formatted as SystemTap does:
 * "do_sys_openat2+0x0/0x190 [kernel]", "ext4_file_open+0x0/0x2b0 [ext4]".
 */

#ifndef STP_STACK_C
#define STP_STACK_C

#include <linux/kallsyms.h>
#include <linux/pid_namespace.h>
#include <linux/sched/task_stack.h>

#ifndef STP_STACK_SKIP_MAX
#define STP_STACK_SKIP_MAX 32	/* frames of this module and the kernel's below the probe */
#endif

/* Whether a symbol (sprint_symbol's text) names a tracepoint iterator. */
static bool _stp_is_traceiter(const char *sym)
{
	return strncmp(sym, "__traceiter_", 12) == 0;
}

/*
 * Fill c->stack_pcs with the kernel return addresses at the probe,
 * innermost first (the probed address itself first when there are
 * registers); returns how many, at most MAXBACKTRACE. regs is
 * c->regs, passed so that the translator sees the caller reads them.
 */
static int _stp_kstack(struct _stp_context *c, struct pt_regs *regs)
{
	struct unwind_state state;
	int steps = 0, n = 0;
	bool skipping = !regs, seen_module = false, check_iter = false;

	if (regs && user_mode(regs))
		return 0;
	/* Started from registers, the unwinder reports their caller first. */
	if (regs)
		c->stack_pcs[n++] = instruction_pointer(regs);
	for (unwind_start(&state, current, regs, NULL);
	     !unwind_done(&state) && n < MAXBACKTRACE && steps < MAXBACKTRACE + STP_STACK_SKIP_MAX;
	     unwind_next_frame(&state), steps++) {
		unsigned long addr = unwind_get_return_address(&state);

		if (!addr)
			break;
		if (skipping) {
			bool here = within_module(addr, THIS_MODULE);

			seen_module |= here;
			if (here || !seen_module)
				continue;
			skipping = false;
			check_iter = c->probe_args != NULL;
		}
		if (check_iter) {
			check_iter = false;
			sprint_symbol_no_offset(c->sym_buf, addr);
			if (_stp_is_traceiter(c->sym_buf))
				continue;
		}
		c->stack_pcs[n++] = addr;
	}
	return n;
}

/*
 * task_backtrace(): fill c->stack_pcs with the kernel return addresses of
 * another task's stack, innermost first, from where it last switched out
 * (the scheduler's own frames included); the current task's is
 * _stp_kstack's. task is a number from the script, so it is first
 * checked to be a live task: its pid (read fault-safely) must lead back
 * to it in the pid hash, under rcu_read_lock, which also keeps the task
 * and its stack from being freed through release_task's RCU callback.
 * The other way a stack goes is the dead task's last switch, and a task
 * becomes TASK_DEAD under its pi_lock: that is held (trylock: the probe
 * may have hit inside a holder) while the stack is walked, bounded by
 * MAXBACKTRACE steps. A task running on another CPU has no saved frame
 * to start from (the kernel's unwinder refuses it): no frames, as when
 * the lock is busy. Returns the number of frames, -EINVAL for a pointer
 * that is not a live task.
 */
static int _stp_task_kstack(struct _stp_context *c, unsigned long task)
{
	struct task_struct *t = (struct task_struct *)task;
	struct unwind_state state;
	unsigned long flags;
	pid_t pid;
	int n = 0;

	if (t == current)
		return _stp_kstack(c, c->regs);
	/* a user address would oops under SMAP; the read checks the rest */
	if (!_stp_arch_kernel_addr_ok(task, sizeof(*t)) || copy_from_kernel_nofault(&pid, &t->pid, sizeof(pid)) || pid <= 0)
		return -EINVAL;
	rcu_read_lock();
	if (pid_task(find_pid_ns(pid, &init_pid_ns), PIDTYPE_PID) != t) {
		rcu_read_unlock();
		return -EINVAL;
	}
	if (raw_spin_trylock_irqsave(&t->pi_lock, flags)) {
		if (!READ_ONCE(t->on_cpu) && _stp_task_state(t) != TASK_DEAD && task_stack_page(t)) {
			for (unwind_start(&state, t, NULL, NULL); !unwind_done(&state) && n < MAXBACKTRACE;
			     unwind_next_frame(&state)) {
				unsigned long addr = unwind_get_return_address(&state);

				if (!addr)
					break;
				c->stack_pcs[n++] = addr;
			}
		}
		raw_spin_unlock_irqrestore(&t->pi_lock, flags);
	}
	rcu_read_unlock();
	return n;
}

/*
 * The symbol of a kernel address into c->sym_buf, SystemTap's way:
 * "name+0xoff/0xsize [module]" ("[kernel]" for the kernel itself), or
 * "0xaddr" when kallsyms does not know it. Returns false for the latter.
 */
static bool _stp_ksym(struct _stp_context *c, unsigned long addr)
{
	int len = sprint_symbol(c->sym_buf, addr);

	if (len <= 0 || strncmp(c->sym_buf, "0x", 2) == 0) {
		snprintf(c->sym_buf, sizeof(c->sym_buf), "0x%lx", addr);
		return false;
	}
	if (c->sym_buf[len - 1] != ']')
		strscpy(c->sym_buf + len, " [kernel]", sizeof(c->sym_buf) - len);
	return true;
}

/* symname(): the name alone, or "0xaddr". */
static void _stp_ksymname(struct _stp_context *c, char *dst, unsigned long addr)
{
	if (_stp_ksym(c, addr))
		c->sym_buf[strcspn(c->sym_buf, "+ ")] = '\0';
	_stp_strlcpy(dst, c->sym_buf);
}

/* The module of a kernel address: "ext4", "kernel", or "" when unknown. */
static void _stp_kmodname(struct _stp_context *c, char *dst, unsigned long addr)
{
	char *open, *close;

	if (!_stp_ksym(c, addr)) {
		dst[0] = '\0';
		return;
	}
	open = strrchr(c->sym_buf, '[');
	close = strrchr(c->sym_buf, ']');
	if (!open || !close || close < open) {
		dst[0] = '\0';
		return;
	}
	*close = '\0';
	_stp_strlcpy(dst, open + 1);
}

/* How a backtrace line is written (_stp_ksym_line, _stp_usym_line). */
#define STP_SYM_VERBOSE  1	/* " 0xaddr : symdata": print_backtrace's lines; else "symdata" */
#define STP_SYM_FILELINE 2	/* " at file:line" after it when the line is known */
#define STP_SYM_CALLER   4	/* a return address: its line is the call's (the byte before) */

#ifndef STP_HAVE_KLINES
/* No kernel line table (compiler/translate/klines.c emits one for symfileline & co). */
static const struct _stp_kline_func _stp_kline_funcs[] = { {"", "", 0, 0, 0} };
static const struct _stp_kline _stp_klines[] = { {0, 0, 0} };
static const char *const _stp_kline_files[] = { "" };
#define STP_NR_KLINE_FUNCS 0
#define STP_NR_KSTARTS 0
#endif

#if STP_NR_KSTARTS
/*
 * The line where the kernel function starting at start begins, from the
 * _stp_kstart_* tables: the base is where sprint_symbol is now minus its
 * offset from it; the last block starting at or before start, then at
 * most one block's functions. False if no function starts exactly there.
 */
static bool _stp_kstart_of(unsigned long start, const char **file, unsigned int *line)
{
	unsigned long base = (unsigned long)&sprint_symbol - STP_KSTART_ANCHOR, want, at;
	int lo = 0, hi = STP_NR_KSTART_BLOCKS - 1, block = -1, i, end;

	if (start < base || start - base > U32_MAX)
		return false;
	want = start - base;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (_stp_kstart_blocks[mid].offset <= want) {
			block = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	if (block < 0)
		return false;
	end = block + 1 < STP_NR_KSTART_BLOCKS ? _stp_kstart_blocks[block + 1].first : STP_NR_KSTARTS;
	at = _stp_kstart_blocks[block].offset;
	for (i = _stp_kstart_blocks[block].first; i < end && at < want; ) {
		if (++i < end)
			at += _stp_kstart_deltas[i];
	}
	if (i >= end || at != want)
		return false;
	/* the file: the last run starting at or before i */
	for (lo = 0, hi = STP_NR_KSTART_RUNS - 1, block = 0; lo <= hi; ) {
		int mid = lo + (hi - lo) / 2;

		if (STP_KSTART_RUN_FIRST(_stp_kstart_runs[mid]) <= (u32)i) {
			block = mid;
			lo = mid + 1;
		} else {
			hi = mid - 1;
		}
	}
	*file = _stp_kline_files[STP_KSTART_RUN_FILE(_stp_kstart_runs[block])];
	*line = _stp_kstart_lines[i];
	return true;
}
#endif

/* Compare a kernel line table function with module mod and name (len bytes). */
static int _stp_kline_cmp(const struct _stp_kline_func *f, const char *mod, size_t mod_len, const char *name,
			  size_t len)
{
	int d = strncmp(f->module, mod, mod_len);

	if (d || f->module[mod_len])
		return d ? d : 1;
	d = strncmp(f->name, name, len);
	return d ? d : f->name[len] ? 1 : 0;
}

/*
 * The source line of kernel address addr, from its symbol text (what
 * _stp_ksym left in c->sym_buf: "name+0xoff/0xsize [module]"): the row
 * of the full line tables the module carries for the function if it has
 * them, else (a function of the kernel itself) the line where the
 * function starts. caller: addr is a return address (the line of the
 * byte before). False if not known.
 */
static bool _stp_kline_of(const char *symdata, unsigned long addr, bool caller, const char **file,
			  unsigned int *line)
{
	const char *plus = strchr(symdata, '+'), *slash, *open, *close;
	char num[20];
	unsigned long off, size;
	size_t len;
	int lo = 0, hi = STP_NR_KLINE_FUNCS - 1;
	const struct _stp_kline_func *best;
	unsigned long start;

	if (!plus || !(slash = strchr(plus, '/')) || !(open = strchr(slash, '[')) || !(close = strchr(open, ']')))
		return false;
	len = slash - plus - 1;
	if (len >= sizeof(num))
		return false;
	memcpy(num, plus + 1, len);
	num[len] = '\0';
	if (kstrtoul(num, 16, &off))
		return false;
	len = open - slash - 2;
	if (len >= sizeof(num))
		return false;
	memcpy(num, slash + 1, len);
	num[len] = '\0';
	if (kstrtoul(num, 16, &size))
		return false;
	if (off > addr)
		return false;
	start = addr - off;
	if (caller && off)
		off--;
	/* The first function of that module and name... */
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;

		if (_stp_kline_cmp(&_stp_kline_funcs[mid], open + 1, close - open - 1, symdata, plus - symdata) < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	/*
	 * ...whose size fits kallsyms' (the distance to the next symbol, so
	 * the ELF size plus alignment padding), the closest of several.
	 */
	for (best = NULL; lo < STP_NR_KLINE_FUNCS &&
	     !_stp_kline_cmp(&_stp_kline_funcs[lo], open + 1, close - open - 1, symdata, plus - symdata); lo++) {
		const struct _stp_kline_func *f = &_stp_kline_funcs[lo];

		if (f->size <= size && off < f->size && (!best || f->size > best->size))
			best = f;
	}
	if (best) {
		int a = best->first, b = best->first + best->nrows - 1, found = -1;

		while (a <= b) {
			int m = a + (b - a) / 2;

			if (_stp_klines[m].offset <= off) {
				found = m;
				a = m + 1;
			} else {
				b = m - 1;
			}
		}
		if (found >= 0) {
			*file = _stp_kline_files[_stp_klines[found].file];
			*line = _stp_klines[found].line;
			return true;
		}
	}
#if STP_NR_KSTARTS
	if (close - open - 1 == 6 && !strncmp(open + 1, "kernel", 6))
		return _stp_kstart_of(start, file, line);
#endif
	return false;
}

/* Append " at file:line" to c->sym_buf (the symbol of a known address) if its line is known. */
static void _stp_ksym_add_line(struct _stp_context *c, unsigned long addr, bool caller)
{
	const char *file;
	unsigned int line;
	size_t len = strlen(c->sym_buf);

	if (_stp_kline_of(c->sym_buf, addr, caller, &file, &line))
		snprintf(c->sym_buf + len, sizeof(c->sym_buf) - len, " at %s:%u", file, line);
}

/*
 * Write c->sym_buf as one line of a printed backtrace, to the output (dst
 * NULL) or appended to a string_t: " 0xaddr : symdata\n" (verbose;
 * " 0xaddr\n" for an address the symbol tables do not know) or
 * "symdata\n". A string gets whole lines only: false when the line did
 * not fit.
 */
static bool _stp_sym_line_out(struct _stp_context *c, char *dst, unsigned long addr, bool known, bool verbose)
{
	size_t used, need;

	if (!dst) {
		if (verbose && !known)
			_stp_printf(" 0x%016lx\n", addr);
		else if (verbose)
			_stp_printf(" 0x%016lx : %s\n", addr, c->sym_buf);
		else
			_stp_printf("%s\n", c->sym_buf);
		return true;
	}
	used = strlen(dst);
	need = strlen(c->sym_buf) + 1 + (verbose ? 23 : 0);
	if (used + need > MAXSTRINGLEN - 1)
		return false;
	if (verbose && !known)
		_stp_format_cat(dst, " 0x%016lx\n", addr);
	else if (verbose)
		_stp_format_cat(dst, " 0x%016lx : %s\n", addr, c->sym_buf);
	else
		_stp_format_cat(dst, "%s\n", c->sym_buf);
	return true;
}

/* One kernel backtrace line (_stp_sym_line_out), " at file:line" before the newline under STP_SYM_FILELINE. */
static bool _stp_ksym_line(struct _stp_context *c, char *dst, unsigned long addr, unsigned int flags)
{
	bool known = _stp_ksym(c, addr);

	if (known && (flags & STP_SYM_FILELINE))
		_stp_ksym_add_line(c, addr, flags & STP_SYM_CALLER);
	return _stp_sym_line_out(c, dst, addr, known, flags & STP_SYM_VERBOSE);
}

/*
 * Hex addresses "0x1 0x2 ..." of pcs[from..n) into a string_t, whole
 * addresses only (what does not fit is left out).
 */
static void _stp_stack_hex(char *dst, const unsigned long *pcs, int from, int n)
{
	char word[24];
	size_t used = 0;
	int i;

	dst[0] = '\0';
	for (i = from; i < n; i++) {
		int len = snprintf(word, sizeof(word), used ? " 0x%lx" : "0x%lx", pcs[i]);

		if (used + len > MAXSTRINGLEN - 1)
			break;
		memcpy(dst + used, word, len + 1);
		used += len;
	}
}

/*
 * The next address of a string of hex addresses (backtrace(), callers()),
 * from *pos on; false at the end or at the first word that is not one
 * (the rest is ignored, as a truncated stack ends).
 */
static bool _stp_stack_next(const char *s, size_t *pos, unsigned long *addr)
{
	char word[24];
	size_t len;

	s += *pos;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++, (*pos)++;
	len = strcspn(s, " \t\n");
	if (len == 0 || len >= sizeof(word))
		return false;
	memcpy(word, s, len);
	word[len] = '\0';
	if (kstrtoul(word, 16, addr))
		return false;
	*pos += len;
	return true;
}

#endif /* STP_STACK_C */
