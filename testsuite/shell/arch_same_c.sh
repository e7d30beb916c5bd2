# -p3 of one script for x86_64 ($RELEASE) and arm64 (its root, as shell/arch_arm64) is the same
# C but where the architecture truly differs: which pt_regs slot holds an argument or the
# return value, and the names of the system call wrappers (__x64_sys_F, __arm64_sys_F). Both
# from BTF, and both from DWARF where both kernels' -dbg vmlinux are there.
fail() { echo "FAIL: $*"; exit 1; }
ROOT=${STAPC_ARCH_ROOT:-/var/lib/stapc/arm64/root}
R=$(ls "$ROOT/lib/modules" 2>/dev/null | sort -V | tail -n 1)
[ -n "$R" ] && [ -e "$ROOT/usr/src/linux-headers-$R/Makefile" ] ||
	fail "no arm64 kernel and headers under $ROOT (run .ci/kernels or stap-prep -a arm64 --install)"
cat > same.stp <<'STP'
global n, s, seen
probe begin { println("begin") }
probe kernel.function("vfs_read") { n += $count }
probe kernel.function("vfs_read").return { n += $return > 0 }
probe kprobe.function("vfs_write") { n++ }
probe kernel.trace("sched_process_exec") { s[execname()] <<< pid() }
probe syscall.openat { if (pid() == target()) printf("%s(%s)\n", name, argstr) }
probe syscall.openat.return { if (pid() == target()) println(retstr) }
probe nd_syscall.close { seen[name] = 1 }
probe syscall_any { n++ }
probe perf.sw.cpu_clock.sample(1000000) { n++ }
probe timer.ms(100) { printf("%d %d %s\n", n, pid(), execname()) }
probe timer.profile { n++ }
probe procfs("x").read { $value = sprint(n) }
probe end { println(n); foreach (k in s) printf("%s %d %d\n", k, @count(s[k]), @max(s[k])) }
probe error { println("error") }
STP
# same DEBUGINFO: -p3 of same.stp for both from that debuginfo, compared
same() {
	"$STAP" -p3 -m same -r "$RELEASE" --debuginfo=$1 same.stp >x86.c 2>err || { cat err; fail "-p3 --debuginfo=$1 for x86_64"; }
	"$STAP" -p3 -m same -a arm64 -r "$R" --debuginfo=$1 same.stp >arm.c 2>err || { cat err; fail "-p3 --debuginfo=$1 -a arm64"; }
	# the differences, each where it belongs
	grep -q '__x64_sys_openat' x86.c && ! grep -q '__arm64_sys' x86.c || fail "$1: x86_64's C lacks __x64_sys_openat or has arm64's"
	grep -q '__arm64_sys_openat' arm.c && ! grep -q '__x64_sys' arm.c || fail "$1: arm64's C lacks __arm64_sys_openat or has x86's"
	grep -q 'c->base.regs->dx' x86.c && grep -q 'c->base.regs->regs\[2\]' arm.c || fail "$1: \$count is not read from rdx / x2"
	! grep -Eq 'c->base.regs->(ax|bx|cx|dx|si|di|r8|r9|r10)\b' arm.c || fail "$1: x86 registers in arm64's C"
	! grep -q 'c->base.regs->regs\[' x86.c || fail "$1: arm64 registers in x86_64's C"
	# with those spelled alike, nothing else may differ
	norm x86.c >x86.n
	norm arm.c >arm.n
	diff -u x86.n arm.n >same.diff || { head -60 same.diff; fail "$1: -p3 differs beyond the architecture's registers and wrappers"; }
	echo "-p3 from $1: x86_64 and arm64 C the same but for $(diff x86.c arm.c | grep -c '^<') lines of registers and wrapper names"
}
norm() {
	sed -E 's/__(x64|arm64)_sys_/__ARCH_sys_/g; s/c->base\.regs->(ax|dx|di|si|cx|r8|r9|r10|regs\[[0-9]+\])/c->base.regs->REG/g' "$1"
}
same btf
# from DWARF too (the -dbg packages: .ci/setup installs x86_64's, .ci/kernels unpacks arm64's)
if [ -e "/usr/lib/debug/boot/vmlinux-$RELEASE" ] && [ -e "$ROOT/usr/lib/debug/boot/vmlinux-$R" ]; then
	same dwarf
else
	echo "-p3 from dwarf: not compared, no DWARF for $RELEASE or $R (linux-image-R-dbg)"
fi
