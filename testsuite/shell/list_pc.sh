# -v -L lists apart, by their pc, the instances one probe point covers (man stap): kvm's
# mmu_check_root is inlined twice into kvm_mmu_load (the kernel's DWARF); plain -L lists each
# distinct line once, without pcs.
fail() { echo "FAIL: $*"; exit 1; }
[ -e "/usr/lib/debug/boot/vmlinux-$RELEASE" ] || fail "no DWARF for $RELEASE (linux-image-$RELEASE-dbg)"
pat='module("kvm").function("mmu_check_root")'
"$STAP" -r "$RELEASE" --debuginfo=dwarf -v -L "$pat" > v.out 2> v.err || { cat v.err; fail "-v -L failed"; }
grep -q '^Pass 2: ' v.err || { cat v.err; fail "-v -L did not say its passes"; }
[ "$(grep -c '^module("kvm").function("mmu_check_root@arch/x86/kvm/mmu/mmu.c:[0-9]*") /\* pc=<kvm:kvm_mmu_load+0x[0-9a-f]*> \*/ \$root_gfn:gfn_t \$vcpu:struct kvm_vcpu\*' v.out)" = 2 ] ||
  { cat v.out; fail "-v -L: not two instances with their pc"; }
[ "$(sed 's/.*pc=<//; s/>.*//' v.out | sort -u | wc -l)" = 2 ] || { cat v.out; fail "-v -L: the two pcs are the same"; }
"$STAP" -r "$RELEASE" --debuginfo=dwarf -L "$pat" > plain.out 2> plain.err || { cat plain.err; fail "-L failed"; }
! grep -q 'pc=' plain.out || { cat plain.out; fail "-L without -v shows pcs"; }
echo "-v -L: $(wc -l < v.out) instances with their pc; -L: $(wc -l < plain.out) lines"
