# Address probes: kernel.function(ADDRESS) and its .return at vfs_read's link-time address, read
# from the -dbg vmlinux's symbol table (nm), resolve at pass 2 to vfs_read with its parameters
# and fire in a guest (KASLR moves them along: they attach as symbol plus offset), for the
# target's read of 7 bytes; kernel.statement(ADDRESS) inside it resolves too.
# kernel.statement(ADDRESS).absolute and kprobe.statement(ADDRESS).absolute need guru mode.
fail() { echo "FAIL: $*"; exit 1; }
vmlinux=/usr/lib/debug/boot/vmlinux-$RELEASE
[ -f "$vmlinux" ] || fail "no $vmlinux (apt-get install linux-image-$RELEASE-dbg)"
a=$(nm "$vmlinux" | awk '$3 == "vfs_read" { print $1; exit }')
[ -n "$a" ] || fail "no vfs_read in $vmlinux"
cat > addr.stp <<STP
global calls, returns
probe kernel.function(0x$a) {
  if (pid() == target() && \$count == 7 && !calls++)
    printf("%s count=%d\n", pp(), \$count)
}
probe kernel.function(0x$a).return {
  if (pid() == target() && \$return == 7 && !returns++)
    printf("%s returned %d\n", pp(), \$return)
}
STP
"$STAP" --remote=qemu:"$RELEASE" -c "dd if=/proc/version of=/dev/null bs=7 count=1" addr.stp > addr.out 2> addr.err ||
  { cat addr.err; fail "stap --remote=qemu:$RELEASE exited $?"; }
grep -qx "kernel.function(0x$a) count=7" addr.out || { cat addr.out addr.err; fail "the entry probe did not fire"; }
grep -qx "kernel.function(0x$a).return returned 7" addr.out || { cat addr.out; fail "the return probe did not fire"; }

# a statement inside the function: vfs_read's parameters are in scope there
s=ffffffff$(printf '%08x' $((0x${a#ffffffff} + 4)))	# sh arithmetic is signed: the low half
printf 'probe kernel.statement(0x%s) { printf("%%s\\n", $$parms) }\n' "$s" > stmt.stp
"$STAP" -p2 -r "$RELEASE" stmt.stp > stmt.p2 2>&1 || { cat stmt.p2; fail "kernel.statement(0x$s)"; }
grep -qF "kernel.statement(0x$s)" stmt.p2 || { cat stmt.p2; fail "kernel.statement(0x$s): no such point at pass 2"; }

# .absolute: guru mode only
for family in kernel kprobe; do
  printf 'probe %s.statement(0x%s).absolute { }\n' "$family" "$a" > abs.stp
  "$STAP" -p2 -r "$RELEASE" abs.stp > abs.out 2>&1 && fail "$family.statement(ADDRESS).absolute without -g was accepted"
  grep -q "needs guru mode" abs.out || { cat abs.out; fail "$family.statement(ADDRESS).absolute: no guru-mode error"; }
  "$STAP" -g -p3 -r "$RELEASE" abs.stp > abs.c 2> abs.err || { cat abs.err; fail "$family.statement(ADDRESS).absolute -g"; }
  grep -q "\.symbol = NULL, \.offset = 0x$a" abs.c || fail "$family.statement(ADDRESS).absolute: not an absolute kprobe"
done
"$STAP" -g -p4 -r "$RELEASE" abs.stp > /dev/null 2> abs.err || { cat abs.err; fail "an .absolute kprobe's module did not build"; }
echo "ok: kernel.function(0x$a) and .return fired in the guest; statements and .absolute resolve"
