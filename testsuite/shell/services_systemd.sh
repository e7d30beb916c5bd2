# stap@.service and staprun@.service under systemd, in a guest whose pid 1 is the host's
# systemd (stapvm --systemd): `cmake --install` of this build (DESTDIR, copied to the guest's
# /usr/local, where systemd finds the units), a script in /etc/systemtap/script.d with a
# NAME.options file; start (compiled in the guest), its output in the journal, stop (end
# probe, module unloaded), start again from the cached module (no compiling), a module built
# on the host run by staprun@, and a missing script failing with a clear message.
. "$SRCDIR/testsuite/shell/lib/kernels.sh"
ninep_release
[ -x /lib/systemd/systemd ] || fail "the host's systemd is needed (apt-get install systemd)"
BIN=$(dirname "$STAP")
# the guest's /tmp and /work are its own: the installed tree goes where 9p shows it
root=$(mktemp -d /var/tmp/stapc-services.XXXXXX)
trap 'rm -rf "$root"' EXIT
# the units name the helper at the configured prefix: install there (copied over the guest's own)
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$BUILD/CMakeCache.txt")
[ -n "$prefix" ] || fail "no CMAKE_INSTALL_PREFIX in $BUILD/CMakeCache.txt"
DESTDIR=$root cmake --install "$BUILD" >install.log 2>&1 || fail "cmake --install: $(tail -5 install.log)"
for f in bin/stap libexec/stapc/stap-service sbin/stap-onboot lib/systemd/system/stap@.service \
	lib/systemd/system/staprun@.service share/initramfs-tools/hooks/stapc \
	share/initramfs-tools/scripts/init-top/stapc share/man/man8/stap@.service.8 share/man/man8/stap-onboot.8; do
	[ -e "$root$prefix/$f" ] || fail "cmake --install did not install $prefix/$f"
done
grep -qx "ExecStart=$prefix/libexec/stapc/stap-service run-module %i" "$root$prefix/lib/systemd/system/stap@.service" ||
	fail "stap@.service does not run $prefix/libexec/stapc/stap-service"
# a module built here, for staprun@ (it never compiles)
"$STAP" -p4 -r "$ninep" -m bye -e 'probe begin { println("bye from staprun@") } probe end { println("bye: end probe") }' \
	>/dev/null || fail "stap -p4 bye"
cp "$SRCDIR/testsuite/shell/services.d/hello.stp" "$SRCDIR/testsuite/shell/services.d/hello.options" .
cat > guest.sh <<GUEST
root=$root prefix=$prefix
GUEST
cat >> guest.sh <<'GUEST'
set -u
mkdir -p "$prefix" && cp -a "$root$prefix/." "$prefix/" || exit 10
# systemd reads units from /usr/local/lib and /usr/lib, not from another prefix
case $prefix in /usr | /usr/local) ;; *) cp "$prefix"/lib/systemd/system/*.service /etc/systemd/system/ || exit 10 ;; esac
systemctl daemon-reload || exit 10
mkdir -p /etc/systemtap/script.d && cp hello.stp hello.options /etc/systemtap/script.d/ || exit 11
R=$(uname -r)
ko=/lib/modules/$R/systemtap/hello.ko
# wait_for UNIT TEXT N: TEXT appears N times in UNIT's journal (60 s at most)
wait_for() {
	i=0
	while [ "$(journalctl -q -u "$1" -o cat | grep -cx "$2")" -lt "$3" ]; do
		i=$((i + 1)); [ $i -le 600 ] || { echo "timeout: '$2' x$3 in $1"; return 1; }
		sleep 0.1
	done
}
loaded() { [ -d /sys/module/$1 ] && echo "$1 loaded" || echo "$1 not loaded"; }
t0=$(date +%s.%N)
systemctl start stap@hello && echo "start 1: ok" || echo "start 1: failed"
wait_for stap@hello 'howdy big world from stap@' 1
t1=$(date +%s.%N)
loaded hello
systemctl stop stap@hello; echo "stop 1: $?"
loaded hello
wait_for stap@hello 'hello: end probe' 1
before=$(stat -c '%Y %i' "$ko")
t2=$(date +%s.%N)
systemctl start stap@hello && echo "start 2: ok" || echo "start 2: failed"
wait_for stap@hello 'howdy big world from stap@' 2
t3=$(date +%s.%N)
[ "$(stat -c '%Y %i' "$ko")" = "$before" ] && echo "module unchanged" || echo "module rebuilt"
systemctl stop stap@hello; echo "stop 2: $?"
loaded hello
echo "== stap@hello journal"
journalctl -q -u stap@hello -o cat
echo "== staprun@bye"
cp /work/bye.ko /lib/modules/$R/systemtap/bye.ko
systemctl start staprun@bye && echo "start bye: ok" || echo "start bye: failed"
wait_for staprun@bye 'bye from staprun@' 1
loaded bye
systemctl stop staprun@bye; echo "stop bye: $?"
wait_for staprun@bye 'bye: end probe' 1
loaded bye
echo "== stap@nosuch"
systemctl start stap@nosuch 2>/dev/null && echo "start nosuch: ok" || echo "start nosuch: failed"
journalctl -q -u stap@nosuch -o cat | grep 'stap-service'
awk -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" 'BEGIN { printf("time: first start %.1f s, cached start %.1f s\n", b - a, d - c) }'
GUEST
start=$(date +%s)
"$BIN/stapvm" -r "$ninep" -m 2048 --userland=host --systemd -d . --timeout 540 -- sh guest.sh >out.txt 2>&1 ||
	fail "the guest failed: $(cat out.txt)"
cat out.txt
echo "guest: $(($(date +%s) - start)) s"
expect() { grep -qx -- "$1" out.txt || fail "expected the line '$1'"; }
expect 'start 1: ok'
expect 'hello loaded'
expect 'stop 1: 0'
expect 'hello not loaded'
expect 'start 2: ok'
expect 'module unchanged'
expect 'stop 2: 0'
expect 'start bye: ok'
expect 'bye loaded'
expect 'stop bye: 0'
expect 'bye not loaded'
expect 'start nosuch: failed'
expect 'stap-service: no script /etc/systemtap/script.d/nosuch.stp'
grep -q '^timeout' out.txt && fail "a line never reached the journal"
# the journal of stap@hello: compiled once, then the cached module; both runs' output and end probes
sed -n '/^== stap@hello journal$/,/^== staprun@bye$/p' out.txt >journal.txt
[ "$(grep -c '^stap-service: hello: compiling ' journal.txt)" = 1 ] || fail "hello was not compiled exactly once"
[ "$(grep -c '^stap-service: hello: using the cached module ' journal.txt)" = 1 ] || fail "the restart did not use the cached module"
[ "$(grep -cx 'howdy big world from stap@' journal.txt)" = 2 ] || fail "two runs' output expected in the journal"
[ "$(grep -cx 'hello: end probe' journal.txt)" = 2 ] || fail "two end probes expected in the journal"
echo "ok: stap@ compiled, ran, stopped and restarted from the cache; staprun@ ran a prebuilt module"
