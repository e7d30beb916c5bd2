# End to end, in a guest with the host's userland: a member of stapusr who is
# not root runs `stap -e SCRIPT` with no option; stap compiles it on the
# compile server of the host (stapc-server on /run/stapc-server.sock, trusted
# as a module signer), the setuid staprun loads the signed module and she sees
# its output (man stap, --use-server; README.unprivileged). The same user's
# kernel probe is refused by the server.
. "$SRCDIR/testsuite/shell/lib/kernels.sh"
ninep_release
command -v setpriv >/dev/null || fail "setpriv (util-linux) is missing"
command -v openssl >/dev/null || fail "openssl is missing"
BIN=$(dirname "$STAP")
# the guest's /work is this directory (the build tree is not visible there)
mkdir -p bin share/stapc && cp "$BIN/stap" "$BIN/staprun" "$BIN/stapio" "$BIN/stapc-server" bin/ &&
	cp -r "$SRCDIR/tapset" "$SRCDIR/runtime" share/stapc/ || fail "cannot copy stapc"
cat > guest.sh <<'GUEST'
set -u
for g in stapusr stapdev; do getent group $g >/dev/null || groupadd -r $g || exit 10; done
useradd -M -N -g users -G stapusr alice || exit 11
mkdir -p /opt/stapc/bin /opt/stapc/share/stapc /tmp/alice && chown alice /tmp/alice &&
	cp /work/bin/stap /work/bin/staprun /work/bin/stapio /opt/stapc/bin/ &&
	cp -r /work/share/stapc/tapset /work/share/stapc/runtime /opt/stapc/share/stapc/ &&
	chown root:stapusr /opt/stapc/bin/staprun && chmod 4754 /opt/stapc/bin/staprun || exit 12
mkdir -p /run && /work/bin/stapc-server -d /var/lib/stapc-server -l unix:/run/stapc-server.sock \
	--stap /work/bin/stap > server.log 2>&1 &
i=0
while ! grep -qs ready server.log; do
	i=$((i + 1)); [ $i -lt 600 ] || { cat server.log; exit 13; }; sleep 0.1
done
# root trusts the server as a module signer (what stap --trust-servers=signer,HOST:PORT stores)
fp=$(openssl x509 -in /var/lib/stapc-server/server.crt -outform DER | sha256sum | cut -c1-64)
mkdir -p -m 755 /etc/stapc/trusted-signers && cp /var/lib/stapc-server/server.crt /etc/stapc/trusted-signers/$fp.crt &&
	chmod 644 /etc/stapc/trusted-signers/$fp.crt || exit 14
as() { # USER ARGS...: stap from /opt/stapc run by USER, with the groups /etc/group gives her
	u=$1; shift
	setpriv --reuid=$u --regid=users --init-groups env HOME=/tmp/$u TMPDIR=/tmp/$u PATH=/usr/bin:/bin \
		/opt/stapc/bin/stap "$@"
}
as alice -e 'probe begin { println("hello from a module a member of stapusr may load") exit() }' > out.txt 2>&1
echo "alice: status $?"; cat out.txt
as alice -e 'probe kernel.function("vfs_read") { exit() }' > out.txt 2>&1
echo "alice kernel probe: status $?"; cat out.txt
echo "modules left: $(grep -c '^stap' /proc/modules)"
GUEST
"$BIN/stapvm" -r "$ninep" -m 2048 --userland=host -d . --timeout 1500 -- sh guest.sh > out.txt 2>&1 ||
	fail "the guest failed: $(cat out.txt)"
cat out.txt
alice=$(sed -n '/^alice: /,/^alice kernel probe: /p' out.txt)
echo "$alice" | grep -q '^alice: status 0$' || fail "alice's script failed: $alice"
# the setuid staprun loads a module from her TMPDIR only when the trusted server signed it
echo "$alice" | grep -qx 'hello from a module a member of stapusr may load' || fail "alice did not see her script's output: $alice"
sed -n '/^alice kernel probe: /,/^modules left: /p' out.txt > kp
grep -q '^alice kernel probe: status 1$' kp && grep -q 'is not permitted at privilege level stapusr' kp ||
	fail "alice's kernel probe was not refused: $(cat kp)"
grep -q '^modules left: 0$' out.txt || fail "a module was left loaded"
echo "ok: a stapusr member's script compiled on the server by itself and run by the setuid staprun"
