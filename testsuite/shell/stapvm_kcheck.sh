# stapvm checks the guest's kernel log when its command ends: a WARNING (here written to
# /dev/kmsg by the command itself) makes it exit 3 and print the line, a clean run exits 0.
# (The check once ran under a PATH that did not hold it, so no run ever reported anything.)
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
echo "ok: stapvm reports the guest's kernel log"
