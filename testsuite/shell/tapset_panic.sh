# panic(msg) (man function::panic, guru mode): the kernel panics with the
# script's message. Run in a guest of its own, since it does not come back: the
# console shows "Kernel panic - not syncing: MSG" from the probe's body and the
# command after staprun never runs. (Its refusal without -g: shell/tapset_rejects.)
fail() { echo "FAIL: $*"; exit 1; }
BIN=$(dirname "$STAP")
"$STAP" -g -p4 -r "$RELEASE" -m panic_t -e 'probe begin { panic("stapc panic test " . sprint(6 * 7)) }' \
	> out 2> err || { cat err; fail "-p4"; }
mkdir g && cp panic_t.ko g/
printf 'echo before\nstaprun /work/panic_t.ko\necho "after: $?"\n' > g/test.sh
status=0
"$BIN/stapvm" -r "$RELEASE" --userland=busybox -d g --timeout 180 -- sh /work/test.sh > guest.out 2> guest.err ||
	status=$?
[ "$status" != 0 ] || { cat guest.out guest.err; fail "the guest ended normally: no panic"; }
grep -q '^before$' guest.out || { cat guest.out guest.err; fail "the guest did not run the test"; }
grep -q 'Kernel panic - not syncing: stapc panic test 42' guest.out guest.err ||
	{ cat guest.out guest.err; fail "no kernel panic with the script's message"; }
grep -q 'probe_0' guest.out guest.err || fail "the panic's call trace does not go through the probe body"
! grep -q '^after' guest.out || fail "the shell went on after staprun: the kernel did not panic"
echo "ok: panic() panicked the guest kernel with the script's message (stapvm status $status)"
