# Every tapset function (stap --dump-functions) builds into an arm64 module (-p4 -a arm64) with
# no warning from the kernel's compiler: the functions' embedded C meets arm64's headers (which
# differ: instruction_pointer() takes a pointer to non-const, sched_clock_cpu() is not exported
# where the kernel's sched_clock is stable) and its exports (modpost). No guest; about 30 s.
fail() { echo "FAIL: $*"; exit 1; }
ROOT=${STAPC_ARCH_ROOT:-/var/lib/stapc/arm64/root}
R=$(ls "$ROOT/lib/modules" 2>/dev/null | sort -V | tail -n 1)
[ -n "$R" ] && [ -e "$ROOT/usr/src/linux-headers-$R/Makefile" ] ||
	fail "no arm64 kernel and headers under $ROOT (run .ci/kernels or stap-prep -a arm64 --install)"
"$STAP" --dump-functions >funcs.txt 2>err || { cat err; fail "--dump-functions"; }
# one script function per tapset function, called with globals of its argument types and its
# result kept (a pure call whose result is dropped is elided); all called from one probe, never
# at run time. syscall_name() needs the table syscall_any brings (it is not arm64's matter).
python3 - <<'PY' || fail "cannot write all.stp"
import re
out, calls = ["global g, gl, gs"], []
for n, line in enumerate(open("funcs.txt")):
    m = re.match(r"(\w+)(?::(\w+))? \((.*)\)$", line.strip())
    if not m or m.group(1) == "syscall_name":
        continue
    name, ret, params = m.groups()
    args = ["gs" if p.strip().endswith(":string") else "gl" for p in params.split(",") if p.strip()]
    call = "%s(%s)" % (name, ", ".join(args))
    call = {"long": "gl += ", "string": "gs .= "}.get(ret, "") + call
    out.append("function t%d() { if (g) %s }" % (n, call))
    calls.append("t%d()" % n)
out.append('probe kprobe.function("vfs_read") { if (g) { %s } }' % "; ".join(calls))
open("all.stp", "w").write("\n".join(out) + "\n")
print(len(calls))
PY
n=$(grep -c '^function t' all.stp)
[ "$n" -gt 500 ] || fail "only $n tapset functions listed"
st=0
"$STAP" -g -w -a arm64 -r "$R" -p4 -k -m arm_all all.stp >out 2>err || st=$?
dir=$(sed -n 's/^Keeping temporary directory "\(.*\)"$/\1/p' err | head -n 1)
if [ $st != 0 ]; then
	tail -5 err
	grep -E -B2 -A3 'error|ERROR' "$dir/build.log" 2>/dev/null | head -30
	rm -rf "$dir"
	fail "the $n tapset functions do not build for arm64"
fi
[ -f "$dir/build.log" ] || { cat err; fail "no build.log kept"; }
if grep -q 'warning:' "$dir/build.log"; then
	grep -A3 'warning:' "$dir/build.log" | head -30
	rm -rf "$dir"
	fail "the arm64 build of the tapset functions warns"
fi
rm -rf "$dir"
readelf -h arm_all.ko | grep -q 'Machine: *AArch64' || fail "arm_all.ko is not an arm64 module"
echo "arm64: the $n tapset functions build without a warning"
