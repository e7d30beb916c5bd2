# stap -a arm64 on this x86-64 host: option errors, the arm64 kernel found
# under its root (.ci/kernels, stap-prep -a arm64), pass 3's C where arm64 differs (the
# syscall wrapper, a BTF parameter in x2), the register tapset's names, an arm64 .ko, and one run in an arm64 guest
# (--remote=qemu:RELEASE).
fail() { echo "FAIL: $*"; exit 1; }
ROOT=${STAPC_ARCH_ROOT:-/var/lib/stapc/arm64/root}
R=$(ls "$ROOT/lib/modules" 2>/dev/null | sort -V | tail -n 1)
[ -n "$R" ] && [ -e "$ROOT/usr/src/linux-headers-$R/Makefile" ] ||
	fail "no arm64 kernel and headers under $ROOT (run .ci/kernels or stap-prep -a arm64 --install)"

st=0
"$STAP" -a sparc -p1 -e 'probe begin {}' >out 2>err || st=$?
[ $st = 2 ] && grep -qF "unknown architecture 'sparc' for -a (known: x86_64, arm64)" err ||
	{ cat err; fail "-a sparc: status $st"; }

# pass 3: arm64's syscall wrapper and argument registers; the x86 ones nowhere
S='probe syscall.openat { println(argstr) } probe kernel.function("vfs_read") { println($count) }'
"$STAP" -a arm64 -r "$R" -p3 -e "$S" >arm.c 2>err || { cat err; fail "-a arm64 -p3"; }
grep -q '\.symbol = "__arm64_sys_openat"' arm.c || fail "no __arm64_sys_openat probe in the C"
grep -q 'c->base.regs->regs\[2\]' arm.c || fail "vfs_read's \$count is not read from x2"
! grep -q '__x64_sys\|regs->dx\|regs->di' arm.c || fail "x86 names in the arm64 C"
# the same script for an arm64 tree given as -r DIR, without -a
"$STAP" -r "$ROOT/usr/src/linux-headers-$R" -p3 -e "$S" >dir.c 2>err || { cat err; fail "-r DIR -p3"; }
grep -q '__arm64_sys_openat' dir.c || fail "-r of an arm64 tree did not build for arm64"

# the register tapset: arm64's names resolve, x86's are not arm64's functions' business
"$STAP" -a arm64 -r "$R" -p2 -e 'probe kprobe.function("vfs_read") { println(register("x0") + u_register("w1") + int_arg(8)) }' \
	>/dev/null 2>err || { cat err; fail "register functions on arm64"; }
# another architecture's register fails at pass 2 with the reason, at the name
st=0
"$STAP" -a arm64 -r "$R" -p2 -e 'probe kprobe.function("vfs_read") { println(register("rax")) }' >out 2>err || st=$?
[ $st = 1 ] && grep -qF "<input>:1:54: error: register(\"rax\"): 'rax' is an x86_64 register, and this script is built for arm64 (its registers: x0-x30" err &&
	grep -q 'Pass 2: failed' err || { cat err; fail "register(\"rax\") with -a arm64: status $st"; }
st=0
"$STAP" -p2 -e 'function f() { return uregister("x3") } probe kprobe.function("vfs_read") { println(f()) }' >out 2>err || st=$?
[ $st = 1 ] && grep -qF "<input>:1:33: error: uregister(\"x3\"): 'x3' is an arm64 register, and this script is built for x86_64" err ||
	{ cat err; fail "uregister(\"x3\") on x86_64: status $st"; }

# Debian's arm64 kernel has no variables in kallsyms (CONFIG_KALLSYMS_ALL off): kernel.data by
# name is refused at pass 2, not at the session's start; a watchpoint may cover 8 bytes there too
st=0
"$STAP" -a arm64 -r "$R" -p2 -e 'probe kernel.data("jiffies").write { }' >out 2>err || st=$?
if grep -qx 'CONFIG_KALLSYMS_ALL=y' "$ROOT/usr/src/linux-headers-$R/include/config/auto.conf"; then
	[ $st = 0 ] || { cat err; fail "kernel.data(\"jiffies\") on $R: status $st"; }
else
	[ $st = 1 ] && grep -qF "kernel $R was built without CONFIG_KALLSYMS_ALL: its kallsyms has no variables, so 'jiffies'" err ||
		{ cat err; fail "kernel.data(\"jiffies\") without KALLSYMS_ALL: status $st"; }
fi
st=0
"$STAP" -a arm64 -r "$R" -p2 -e 'probe kernel.data(0xffff800008000000).length(16).write { }' >out 2>err || st=$?
[ $st = 1 ] && grep -qF 'covers at most 8 bytes on arm64, not 16' err || { cat err; fail ".length(16) on arm64: status $st"; }

# the preprocessor's arch is the target's; --remote=qemu:RELEASE of the arm64 kernel means -a arm64
P='probe begin { println(%( arch == "arm64" %? "target arm64" %: "target other" %)) }'
"$STAP" -a arm64 -r "$R" -p2 -e "$P" 2>err | grep -q '"target arm64"' || { cat err; fail "arch is not arm64 with -a arm64"; }
"$STAP" --remote=qemu:"$R" -p2 -e "$P" 2>err | grep -q '"target arm64"' || { cat err; fail "--remote=qemu:$R is not an arm64 target"; }
"$STAP" --remote=qemu:"$R" -p3 -e 'probe syscall.close { }' 2>err | grep -q '__arm64_sys_close' ||
	{ cat err; fail "--remote=qemu:$R did not build for arm64"; }
# ... and runs there: the arm64 guest's uname -m, its own wrapper and the generic unistd.h number
# (__NR_uname 160; x86_64's is 63) from $regs (one boot, about 15 s)
"$STAP" --remote=qemu:"$R" -c 'uname -m' \
	-e 'probe kernel.function("__arm64_sys_newuname") { if (pid() == target()) printf("%s: syscallno %d\n", execname(), $regs->syscallno) }' \
	>run.out 2>run.err || { cat run.err; fail "--remote=qemu:$R run failed"; }
grep -qx aarch64 run.out && grep -qx 'uname: syscallno 160' run.out || { cat run.out run.err; fail "--remote=qemu:$R did not run in an arm64 guest"; }

# pass 4: an AArch64 module
"$STAP" -a arm64 -r "$R" -p4 -m arm_mod -e 'probe begin { exit() }' >out 2>err || { cat err; fail "-a arm64 -p4"; }
readelf -h arm_mod.ko | grep -q 'Machine: *AArch64' || fail "arm_mod.ko is not an arm64 module"
echo "arm64: options, pass-3 C, register names and an AArch64 module"
