# stap-onboot: a script's module put into an initramfs-tools image (this build's hook and
# init-top script, in a mkinitramfs configuration directory of the test's own) and booted in
# QEMU; the module starts in the initramfs (staprun -L), the root file system's init (a
# script of this test) attaches with staprun -A and sees what the module printed since early
# boot: the exec of that init, after the switch to the root, and the number of execs (its begin
# probe printed on the console as the initramfs loaded it). A script that does not compile
# leaves no image; in a rebuild without stap-onboot (a kernel update) the hook compiles a
# missing module and leaves out, with a warning, a script that does not compile.
. "$SRCDIR/testsuite/shell/lib/kernels.sh"
ninep_release
for tool in mkinitramfs lsinitramfs qemu-system-x86_64; do
	command -v $tool >/dev/null || fail "$tool is missing (apt-get install initramfs-tools qemu-system-x86)"
done
BIN=$(dirname "$STAP")
export STAPC_BINDIR=$BIN STAPC_SCRIPT_DIR=$PWD/script.d STAPC_MODULE_DIR=$PWD/modules \
	STAPC_SERVICE_HELPER=$BUILD/services/stap-service
mkdir script.d
cp "$SRCDIR/testsuite/shell/services.d/onboot_trace.stp" script.d/
echo '-s 2' >script.d/onboot_trace.options
echo 'probe begin { syntax error here }' >script.d/broken.stp

# initramfs-tools' configuration, with this build's hook and script and a boot script that
# mounts the host's / (9p); only the modules that needs, so the image builds in seconds
cp -a /etc/initramfs-tools confdir
sed -i -e 's/^MODULES=.*/MODULES=list/' -e 's/^COMPRESS=.*/COMPRESS=gzip/' confdir/initramfs.conf
printf 'virtio_pci\n9pnet_virtio\n9p\noverlay\n' >confdir/modules
mkdir -p confdir/hooks confdir/scripts/init-top
cp "$BUILD/services/initramfs-hook" confdir/hooks/stapc
cp "$BUILD/services/initramfs-script" confdir/scripts/init-top/stapc
cp "$SRCDIR/testsuite/shell/services.d/stapctest" confdir/scripts/stapctest

onboot=$BUILD/services/stap-onboot
if "$onboot" -r "$ninep" -o "$PWD/broken.img" -d "$PWD/confdir" onboot_trace broken >broken.out 2>&1; then
	fail "stap-onboot with a script that does not compile succeeded: $(cat broken.out)"
fi
grep -q 'broken: not added to the initramfs' broken.out || fail "no message for the broken script: $(cat broken.out)"
[ ! -e broken.img ] || fail "stap-onboot wrote an image despite the broken script"

# a rebuild by initramfs-tools alone (a kernel update): the hook compiles a module that is
# missing and leaves out, with a warning, a script that does not compile
rm -f modules/onboot_trace.ko
printf 'onboot_trace\nbroken\n' >onboot.conf
STAPC_ONBOOT_CONF=$PWD/onboot.conf mkinitramfs -d "$PWD/confdir" -o "$PWD/rebuild.img" "$ninep" >rebuild.out 2>&1 ||
	fail "mkinitramfs with a script that does not compile failed: $(tail -20 rebuild.out)"
grep -q "^W: stapc: broken left out of the initramfs of $ninep" rebuild.out || fail "no warning for broken: $(cat rebuild.out)"
grep -q 'stap-service: onboot_trace: compiling' rebuild.out || fail "the hook did not compile onboot_trace: $(cat rebuild.out)"
lsinitramfs rebuild.img | grep -q '/systemtap/onboot_trace\.ko$' || fail "the rebuilt image lacks onboot_trace.ko"
lsinitramfs rebuild.img | grep -q '/systemtap/broken\.ko$' && fail "the rebuilt image has broken.ko"

start=$(date +%s)
"$onboot" -r "$ninep" -o "$PWD/initrd.img" -d "$PWD/confdir" onboot_trace >onboot.out 2>&1 ||
	fail "stap-onboot: $(tail -20 onboot.out)"
echo "stap-onboot: $(($(date +%s) - start)) s"
lsinitramfs initrd.img >contents.txt
for f in usr/bin/staprun usr/bin/stapio "usr/lib/modules/$ninep/systemtap/onboot_trace.ko" conf/stapc-onboot \
	scripts/init-top/stapc; do
	grep -qx "$f" contents.txt || fail "the image has no $f"
done

# the root file system's init: attach, let the session run a moment, stop it, power off
cat >onboot-init <<INIT
#!/bin/sh
exec >/dev/ttyS1 2>&1
echo "init: module \$([ -d /sys/module/onboot_trace ] && echo loaded || echo missing)"
$BIN/staprun -A onboot_trace &
sleep 3
kill -INT \$!
wait \$!
echo "init: staprun -A status \$?"
echo "init: module \$([ -d /sys/module/onboot_trace ] && echo loaded || echo missing)"
echo o >/proc/sysrq-trigger
while :; do :; done
INIT
chmod +x onboot-init
start=$(date +%s)
timeout 300 qemu-system-x86_64 -accel tcg,thread=single -cpu max -smp 2 -m 1024 -display none -monitor none \
	-no-reboot -kernel "/boot/vmlinuz-$ninep" -initrd initrd.img \
	-append "console=ttyS0 panic=-1 boot=stapctest init=$PWD/onboot-init" \
	-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap \
	-serial file:console.log -serial file:out.log >qemu.log 2>&1 || fail "qemu: $(cat qemu.log) $(tail -30 console.log)"
echo "guest: $(($(date +%s) - start)) s"
tr -d '\r' <out.log >out.txt && mv out.txt out.log
cat out.log
grep -q 'stapc: onboot_trace started' console.log || fail "the initramfs did not start the module: $(tail -40 console.log)"
grep -q '^onboot_trace: begin' console.log || fail "no begin probe output on the console: $(tail -40 console.log)"
expect() { grep -qx -- "$1" out.log || fail "expected the line '$1': $(cat out.log) $(tail -30 console.log)"; }
expect 'init: module loaded'
expect "onboot_trace: exec \"$PWD/onboot-init\""
expect 'init: staprun -A status 0'
expect 'init: module missing'
if grep -aE 'BUG|WARNING|Oops|general protection fault|Call Trace|Kernel panic' console.log; then
	fail "the guest kernel log shows a problem"
fi
n=$(sed -n 's/^onboot_trace: \([0-9]*\) execs$/\1/p' out.log)
[ -n "$n" ] && [ "$n" -gt 1 ] || fail "the end probe counted no execs of the boot: '$n'"
echo "ok: the initramfs started onboot_trace, which saw the boot's execs ($n) and the root's init"
