# Kernels whose toolchain the host lacks (docs/stap.md): stap finds a kernel image at
# /lib/modules/R/vmlinuz when /boot has none (Debian's layout from 7.2 on), and
# scripts/stap-in-root runs a command in a root with the source tree and the current
# directory bound at their own paths (and, with --host-root, the host's / read-only),
# leaving no mount behind. Needs root (mount namespaces).
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (unshare, chroot)"

# A release only under /lib/modules: a private mount namespace shows a /lib/modules holding
# FAKE/vmlinuz (the run kernel's image) and FAKE/build (its headers), and /boot has no vmlinuz-FAKE.
mkdir -p mods/fake-7.2/
cp "/boot/vmlinuz-$RELEASE" mods/fake-7.2/vmlinuz
ln -s "$(readlink -f "/lib/modules/$RELEASE/build")" mods/fake-7.2/build
unshare --mount --propagation private sh -c '
	mount --bind "$PWD/mods" /lib/modules &&
	"$STAP" -p2 -r fake-7.2 --debuginfo=btf -e "probe kernel.function(\"vfs_read\") { println(\$count) }"' \
	>p2.out 2>p2.err || fail "stap did not find /lib/modules/fake-7.2/vmlinuz: $(cat p2.err)"
grep -q 'kernel.function("vfs_read")' p2.out || fail "no vfs_read probe in pass 2's output"
rm mods/fake-7.2/vmlinuz
unshare --mount --propagation private sh -c '
	mount --bind "$PWD/mods" /lib/modules &&
	"$STAP" -p2 -r fake-7.2 --debuginfo=btf -e "probe kernel.function(\"vfs_read\") { println(\$count) }"' \
	>none.out 2>none.err && fail "stap found a kernel image that is not there"
grep -q "/boot/vmlinuz-fake-7.2 and /lib/modules/fake-7.2/vmlinuz" none.err ||
	fail "the error does not name both places: $(cat none.err)"

# stap-in-root: a root of busybox alone (its sh, and a "make" that marks it a toolchain root).
mkdir -p root/bin root/usr/bin root/proc root/dev root/tmp
cp /bin/busybox root/bin/busybox
ln -s busybox root/bin/sh
ln -s ../../bin/busybox root/usr/bin/make
in_root="$SRCDIR/scripts/stap-in-root"
"$in_root" "$PWD/root" /bin/busybox pwd >pwd.out || fail "stap-in-root failed"
[ "$(cat pwd.out)" = "$PWD" ] || fail "the command ran in $(cat pwd.out), not $PWD"
"$in_root" "$PWD/root" /bin/busybox ls "$SRCDIR/runtime/runtime.h" >/dev/null ||
	fail "the source tree is not visible in the root"
"$in_root" "$PWD/root" /bin/busybox cat /proc/self/comm >comm.out || fail "no /proc in the root"
# --host-root DIR: the host's / read-only at DIR (a host-userland test's --sysroot).
"$in_root" --host-root /run/host "$PWD/root" /bin/busybox cat /run/host/etc/os-release >os.out ||
	fail "the host's / is not at --host-root's path"
cmp -s os.out /etc/os-release || fail "--host-root shows another file system than the host's /"
"$in_root" --host-root /run/host "$PWD/root" /bin/busybox touch /run/host/tmp/stapc-w 2>/dev/null &&
	{ rm -f /tmp/stapc-w; fail "the host's / is writable through --host-root"; }
"$in_root" --host-root run/host "$PWD/root" true 2>rel.err && fail "a relative --host-root was taken"
grep -q "absolute path" rel.err || fail "no message for a relative --host-root"
grep -q "$PWD/root" /proc/mounts && fail "a mount of the root stayed behind"
"$in_root" "$PWD/mods" true 2>notroot.err && fail "a directory without make was taken for a root"
grep -q "not a toolchain root" notroot.err || fail "no message for a non-root"
status=0
"$in_root" 2>/dev/null || status=$?
[ $status = 2 ] || fail "a missing ROOT is not a usage error (exit $status)"
exit 0
