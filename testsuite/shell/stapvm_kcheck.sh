# stapvm checks the guest's kernel log when its command ends: a WARNING (here written to
# /dev/kmsg by the command itself) makes it exit 3 and print the line, a clean run exits 0.
# (The check once ran under a PATH that did not hold it, so no run ever reported anything.)
# In the arm64 guest (the arm64 tier's), arm64's own splat words count: "Call trace:" and
# "Unable to handle kernel" (x86 writes "Call Trace:").
fail() { echo "FAIL: $*"; exit 1; }
stapvm="$(dirname "$STAP")/stapvm"
status=0
"$stapvm" -r "$RELEASE" --userland=busybox -- sh -c 'echo "WARNING: stapc kcheck self-test" >/dev/kmsg; echo ran' \
	>out 2>err || status=$?
[ "$status" = 3 ] || { cat out err; fail "a WARNING in the guest's log: exit $status, expected 3"; }
grep -qx ran out || fail "the command did not run"
grep -q "guest kernel log reports a problem" err || { cat err; fail "no report on stderr"; }
grep -q "WARNING: stapc kcheck self-test" err || { cat err; fail "the offending line is not shown"; }
status=0
"$stapvm" -r "$RELEASE" --userland=busybox -- sh -c 'echo ran' >out 2>err || status=$?
[ "$status" = 0 ] || { cat out err; fail "a clean guest: exit $status, expected 0"; }
ROOT=${STAPC_ARCH_ROOT:-/var/lib/stapc/arm64/root}
R=$(ls "$ROOT/lib/modules" 2>/dev/null | sort -V | tail -n 1)
[ -n "$R" ] || fail "no arm64 kernel under $ROOT (run .ci/kernels or stap-prep -a arm64 --install)"
status=0
"$stapvm" --arch arm64 -r "$R" --userland=busybox -- sh -c \
	'echo "Unable to handle kernel paging request (stapc kcheck self-test)" >/dev/kmsg; echo "Call trace:" >/dev/kmsg; echo ran' \
	>out 2>err || status=$?
[ "$status" = 3 ] || { cat out err; fail "an arm64 splat in the arm64 guest's log: exit $status, expected 3"; }
grep -q "Unable to handle kernel paging request (stapc kcheck self-test)" err && grep -q "Call trace:" err ||
	{ cat err; fail "the arm64 guest's offending lines are not shown"; }
echo "ok: stapvm reports the guest's kernel log, x86-64's and arm64's"
