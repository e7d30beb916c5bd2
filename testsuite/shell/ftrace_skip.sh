# Pass 2 leaves out the matches of a wildcard that no probe can attach to
# (.init.text, the kprobes blacklist, no ftrace site), read from the
# target's DWARF vmlinux, and -v says how many; a function named without
# a wildcard that no kprobe may touch fails at pass 2, as in SystemTap.
fail() { echo "FAIL: $*"; exit 1; }

"$STAP" -v -p2 -r "$RELEASE" -e 'probe kernel.function("*@init/main.c").call { }' >init.p2 2>init.err
grep -E '^<input>:1:23: kernel.function\("\*@init/main.c"\): [0-9]+ functions match, [0-9]+ skipped \([1-9][0-9]* in .init.text, ' init.err ||
	fail "-v did not count the __init functions skipped: $(cat init.err)"
grep -q 'start_kernel' init.p2 && fail "start_kernel (__init) was kept"
grep -q 'kernel.function("[a-z_]*@init/main.c' init.p2 || fail "no function of init/main.c was kept"

"$STAP" -v -p2 -r "$RELEASE" -e 'probe kernel.function("*@arch/x86/kernel/traps.c").call { }' >traps.p2 2>traps.err
grep -E 'skipped \([0-9]+ in .init.text, [1-9][0-9]* on the kprobes blacklist' traps.err ||
	fail "-v did not count the blacklisted functions of traps.c: $(cat traps.err)"
grep -q '"exc_int3@' traps.p2 && fail "exc_int3 (NOKPROBE_SYMBOL) was kept"

# without -v, nothing is said
"$STAP" -p2 -r "$RELEASE" -e 'probe kernel.function("*@init/main.c").call { }' >/dev/null 2>quiet.err
[ -s quiet.err ] && fail "skips reported without -v: $(cat quiet.err)"

# named without a wildcard: refused at pass 2 as SystemTap does (.init.text, the kprobes blacklist)
"$STAP" -p2 -r "$RELEASE" -e 'probe kernel.function("start_kernel").call { }' >named.p2 2>named.err &&
	fail "start_kernel named was accepted"
grep -q "function 'start_kernel' cannot be probed: it is in .init.text" named.err || fail "unclear error: $(cat named.err)"
"$STAP" -p2 -r "$RELEASE" -e 'probe kernel.function("do_int3") { }' >named.p2 2>named.err &&
	fail "do_int3 named was accepted"
grep -q "function 'do_int3' cannot be probed: it is on the kernel's kprobes blacklist" named.err ||
	fail "unclear error: $(cat named.err)"
# with '?': skipped, the other point kept
"$STAP" -p2 -r "$RELEASE" -e 'probe kernel.function("start_kernel")?, kernel.function("vfs_read") { }' >named.p2 2>named.err ||
	fail "start_kernel? named: $(cat named.err)"
grep -q 'start_kernel' named.p2 && fail "start_kernel? was kept"

# a wildcard whose every match is skipped: the error says why
"$STAP" -p2 -r "$RELEASE" -e 'probe kernel.function("start_kern*").call { }' >/dev/null 2>none.err &&
	fail "a wildcard of __init functions only was accepted"
grep -q 'that a probe can attach to: 1 skipped (1 in .init.text' none.err || fail "unclear error: $(cat none.err)"
exit 0
