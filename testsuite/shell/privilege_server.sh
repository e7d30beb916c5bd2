# stap run by a member of stapusr who is not in stapdev compiles on the
# default compile server by itself (man stap, --use-server; README.unprivileged):
# only for a run (no -p N < 5), not for stapdev, not for a user in no group;
# what the level forbids (a kernel probe, guru mode) stays refused.
# In a mount namespace of its own, so the test owns /etc/group and
# /run/stapc-server.sock. pass 5 is a stand-in staprun that reports the module
# it was given: its level and whether the server's signature came with it.
fail() { echo "FAIL: $*"; exit 1; }
command -v unshare >/dev/null && command -v setpriv >/dev/null || fail "unshare or setpriv (util-linux) is missing"
modinfo=$(PATH=$PATH:/sbin:/usr/sbin command -v modinfo) || fail "modinfo (kmod) is missing"
nobody=$(id -u nobody) || fail "no user nobody"
BIN=$(dirname "$STAP")

copy=$(mktemp -d /tmp/stapc-privilege-server.XXXXXX)
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/bin" "$copy/share/stapc" "$copy/tmp"
cp "$STAP" "$copy/bin/stap"
cp -r "$SRCDIR/tapset" "$SRCDIR/runtime" "$copy/share/stapc/"
cat > "$copy/bin/staprun" <<EOF
#!/bin/sh
for a; do ko=\$a; done
echo "staprun for uid \$(id -u): level \$($modinfo -F stapc_privilege "\$ko")\$(test -f "\$ko.sgn" && echo ', signed')"
EOF
chmod -R a+rX "$copy"
chmod 755 "$copy/bin/staprun"
chmod 1777 "$copy/tmp"
# groups this test controls: stapusr 61001 (and stapdev 61002) exist whatever the host has
grep -v '^stap\(usr\|sys\|dev\):' /etc/group > group
printf 'stapusr:x:61001:\nstapsys:x:61003:\nstapdev:x:61002:\n' >> group
chmod 644 group

cat > ns.sh <<'NS'
mount --bind "$PWD/group" /etc/group && mount -t tmpfs none /run || exit 10
as() { # GROUPS ARGS...: stap from the copy as nobody with these supplementary groups
	g=$1; shift
	setpriv --reuid="$nobody" --regid="$nobody" $g env HOME="$copy/tmp" TMPDIR="$copy/tmp" \
		STAPC_CACHE_DIR="$copy/tmp/cache" "$copy/bin/stap" -r "$RELEASE" "$@"
}
S='probe begin { println("hi") exit() }'
echo "== stapusr, no server"
as --groups=61001 -e "$S"; echo "status $?"
echo "== stapusr, -p3, no server"
as --groups=61001 -p3 -e "$S" > /dev/null; echo "status $?"
"$BIN/stapc-server" -d "$PWD/sd" -l unix:/run/stapc-server.sock > server.log 2>&1 & srv=$!
i=0
while ! grep -q ready server.log 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 300 ] || { cat server.log; echo "the server did not start"; exit 11; }; sleep 0.1
done
echo "== stapusr, server"
as --groups=61001 -e "$S"; echo "status $?"
echo "== stapusr and stapsys, server"
as --groups=61001,61003 -e "$S"; echo "status $?"
echo "== stapusr, server, kernel probe"
as --groups=61001 -e 'probe kprobe.function("vfs_read") { exit() }'; echo "status $?"
echo "== stapusr, server, guru mode"
as --groups=61001 -g -e 'probe begin { %{ /* C */ %} exit() }'; echo "status $?"
echo "== stapusr and stapdev, server"
as --groups=61001,61002 -e "$S"; echo "status $?"
echo "== no group, server"
as --clear-groups -e "$S"; echo "status $?"
kill $srv
NS
export nobody copy BIN
unshare -m sh ns.sh > out 2> err || { cat out err; fail "the namespace script failed"; }
cat out err
section() { sed -n "/^== $1\$/,/^status/p" out err; }
section "stapusr, no server" > s
grep -q "^status 1$" s || fail "no server: not status 1"
grep -qF "stap: a member of stapusr who is not in stapdev compiles scripts on a compile server (see man stap, --use-server), and none answers at unix:/run/stapc-server.sock: ask an administrator to start stapc-server (cp " err ||
	fail "no server: the message does not say which server and how to start it"
grep -qF "/stapc-server.service /etc/systemd/system && systemctl enable --now stapc-server), or name one with --use-server=HOST:PORT" err ||
	fail "no server: no systemd hint"
[ "$(section 'stapusr, -p3, no server' | tail -1)" = "status 0" ] || fail "-p3 went to a server"
section "stapusr, server" | grep -qx "staprun for uid $nobody: level stapusr, signed" || fail "stapusr: no signed stapusr module"
section "stapusr, server" | grep -qx "status 0" || fail "stapusr: status"
section "stapusr and stapsys, server" | grep -qx "staprun for uid $nobody: level stapsys, signed" ||
	fail "stapsys: no signed stapsys module"
grep -qF "is not permitted at privilege level stapusr" err || fail "the kernel probe was not refused"
section "stapusr, server, kernel probe" | grep -qx "status 1" || fail "kernel probe: status"
section "stapusr, server, guru mode" | grep -qx "status 2" &&
	grep -qF "stap: guru mode (-g) is not permitted at privilege level stapusr" err || fail "guru mode was not refused"
section "stapusr and stapdev, server" | grep -qx "staprun for uid $nobody: level stapdev" ||
	fail "stapdev: not compiled here at stapdev"
section "no group, server" | grep -qx "staprun for uid $nobody: level stapusr" || fail "no group: not compiled here at stapusr"
echo "ok: a stapusr member compiles on the default server by itself, others do not"
