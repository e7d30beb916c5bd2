# A kernel with BTF and no System.map (generic and PREEMPT_RT, without their
# -dbg package): kernel.function and kprobe.function of a function the
# kernel lacks fail at pass 2, saying that neither the BTF nor a System.map
# has it, and are skipped with '?'; a system call's __x64_sys_ entry, which
# BTF leaves out, is vouched for by its body and probed by its symbol,
# entry and return, in a guest booting the generic kernel. A compiler's
# clone (NAME.isra.0), which no debuginfo names, is left to the load.
. "$SRCDIR/testsuite/shell/lib/kernels.sh"

# the PREEMPT_RT and generic flavours of $RELEASE's kernel build, whatever else is installed
release_series
releases=
for r in "$series-rt-amd64" "$series-amd64"; do
  need_kernels "$r"
  [ ! -e "/usr/lib/debug/boot/System.map-$r" ] || fail "$r has a System.map (its -dbg package); this test needs a kernel without"
  releases="$releases $r" && generic=$r
done

for r in $releases; do
  # p2 R WANT SCRIPT: stap -p2 on R exits WANT (0 or 1); its stderr in err
  p2() {
    st=0
    "$STAP" -p2 -r "$1" --debuginfo=btf -e "$3" > out 2> err || st=$?
    [ $st = "$2" ] || { cat out err; fail "$1: exit status $st for: $3"; }
  }
  p2 "$r" 1 'probe kernel.function("do_sync_read") { }'
  grep -q "error: no function matches \"do_sync_read\" in the kernel (BTF of /boot/vmlinuz-$r)" err &&
    grep -q "note: nor can its symbol table say: $r has no System.map (install linux-image-$r-dbg for it)" err ||
    { cat err; fail "$r: kernel.function of a missing function"; }
  p2 "$r" 1 'probe kprobe.function("do_sync_read").return { }'
  grep -q "error: kernel $r has no function 'do_sync_read' in its BTF (/boot/vmlinuz-$r), and no System.map" err ||
    { cat err; fail "$r: kprobe.function of a missing function"; }
  p2 "$r" 0 'probe kernel.function("do_sync_read")?, kprobe.function("do_sync_read")?, begin { }'
  [ "$(grep -c '^[a-z].* /\* <input>' out)" = 1 ] && grep -q '^begin ' out ||
    { cat out; fail "$r: the optional missing functions were not skipped"; }
  # a compiler's clone is in no BTF: without a map nothing says it is missing (the load decides)
  p2 "$r" 0 'probe kprobe.function("finish_task_switch.isra.0") { }'
  p2 "$r" 1 'probe kernel.function("__x64_sys_getppid").return { println($return) }'
  grep -q "error: no target variable '\$return' in function __x64_sys_getppid: the BTF of /boot/vmlinuz-$r does not describe it (it is probed by its symbol)" err ||
    { cat err; fail "$r: the unavailable variable was not explained"; }
  echo "$r: missing functions fail at pass 2 (skipped with ?); __x64_sys_getppid's variables explained"
done

cat > getppid.stp <<'STP'
probe kernel.function("__x64_sys_getppid") { if (pid() == target()) entries++ }
probe kernel.function("__x64_sys_getppid").return { if (pid() == target()) returns++ }
probe kprobe.function("__x64_sys_getppid").return { if (pid() == target()) kreturns++ }
global entries, returns, kreturns
probe end { printf("entries>0:%d returns=entries:%d kprobe returns=entries:%d\n", entries > 0, returns == entries, kreturns == entries) }
STP
"$STAP" --debuginfo=btf --remote=qemu:"$generic" -c 'sh -c "echo \$PPID"' getppid.stp > run.out 2> run.err ||
  { cat run.out run.err; fail "$generic: the run failed"; }
grep -qx 'entries>0:1 returns=entries:1 kprobe returns=entries:1' run.out ||
  { cat run.out run.err; fail "$generic: __x64_sys_getppid's probes did not fire as expected"; }
echo "$generic: __x64_sys_getppid entry and return fire"
