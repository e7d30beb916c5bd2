# BTF on every installed Debian kernel flavour: cloud (lz4 bzImage), generic
# and PREEMPT_RT (xz with the x86 BCJ filter). For each, --debuginfo=btf reads
# the kernel's types from /boot/vmlinuz-R and a script with target variables
# (a parameter, a user string through a pointer, a struct member) builds and
# runs in a guest booting that kernel; without the -dbg package,
# --debuginfo=auto falls back to the same BTF. A missing flavour fails the
# test: .ci/setup installs all three.
. "$SRCDIR/testsuite/shell/lib/kernels.sh"
flavour_releases

cat > btf.stp <<'STP'
probe kernel.function("do_sys_openat2") {
  if (pid() == target() && user_string($filename) == "/proc/version") {
    printf("dfd=%d file=%s mode=%d\n", $dfd, user_string($filename), $how->mode)
    exit()
  }
}
STP
# check_kernel R: build and run btf.stp for R; its findings go to R.log, a
# failure also to R.failed. The kernels are checked in parallel.
check_kernel() {
  r=$1
  (
    "$STAP" -vv --debuginfo=btf --remote=qemu:"$r" -c "cat /proc/version" btf.stp > "$r.out" 2> "$r.err" ||
      { cat "$r.err"; echo "$r: stap --debuginfo=btf --remote=qemu exited $?"; exit 1; }
    grep -qx "debuginfo: BTF of kernel from /boot/vmlinuz-$r" "$r.err" ||
      { cat "$r.err"; echo "$r: the BTF did not come from /boot/vmlinuz-$r"; exit 1; }
    # stdout: the script's line, and cat's own (the kernel banner)
    [ "$(grep -c . "$r.out")" = 2 ] && grep -qx "dfd=-100 file=/proc/version mode=0" "$r.out" &&
      grep -q "^Linux version $r " "$r.out" ||
      { cat "$r.out" "$r.err"; echo "$r: unexpected output"; exit 1; }
    echo "$r: $(grep dfd "$r.out")"
    if [ ! -e "/usr/lib/debug/boot/vmlinux-$r" ]; then
      "$STAP" -vv -p3 --debuginfo=auto -r "$r" btf.stp > /dev/null 2> "$r.auto.err" ||
        { cat "$r.auto.err"; echo "$r: --debuginfo=auto without DWARF failed"; exit 1; }
      grep -qx "debuginfo: BTF of kernel from /boot/vmlinuz-$r" "$r.auto.err" ||
        { cat "$r.auto.err"; echo "$r: --debuginfo=auto did not fall back to BTF"; exit 1; }
      echo "$r: --debuginfo=auto without the -dbg package uses BTF"
    fi
  ) > "$r.log" 2>&1 || touch "$r.failed"
}
for r in $releases; do
  check_kernel "$r" &
done
wait
failed=
for r in $releases; do
  cat "$r.log"
  [ ! -e "$r.failed" ] || failed="$failed $r"
done
[ -z "$failed" ] || fail "BTF runs failed on:$failed"

# The running kernel's own BTF, when -r names it: /sys/kernel/btf/vmlinux
# (this host has no headers for it, so pass 3, which needs only types).
if [ -r /sys/kernel/btf/vmlinux ]; then
  "$STAP" -vv -p3 --debuginfo=btf -r "$(uname -r)" btf.stp > running.c 2> running.err ||
    { cat running.err; fail "pass 3 against the running kernel's BTF failed"; }
  grep -qx "debuginfo: BTF of kernel from /sys/kernel/btf/vmlinux" running.err ||
    { cat running.err; fail "the running kernel's BTF did not come from /sys/kernel/btf/vmlinux"; }
  echo "$(uname -r): BTF from /sys/kernel/btf/vmlinux"
fi
