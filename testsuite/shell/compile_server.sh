# stapc-server and stap --use-server, --trust-servers, --list-servers
# (docs/security.md): a trusted server compiles at the level asked, refuses
# what the level forbids, and signs the module; an untrusted server is
# refused. Then, in a guest, a member of stapusr loads with a setuid staprun
# the signed stapusr module from anywhere, and is refused a module whose code
# changed after signing, one compiled at stapdev, one whose level was edited
# from stapdev to stapusr after signing, one signed by an untrusted server and
# one without a signature; and, while the user swaps the file under the path
# (rename and symlink) between the signed module and an unsigned one of the
# same name, staprun loads the signed one or refuses, never the other.
fail() { echo "FAIL: $*"; exit 1; }
BIN=$(dirname "$STAP")
[ -x "$BIN/stapc-server" ] || fail "stapc-server not built"
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
P1=$(port)
"$BIN/stapc-server" -d "$PWD/sd1" -l "127.0.0.1:$P1" -l "unix:$PWD/sock1" > server1.log 2>&1 & s1=$!
"$BIN/stapc-server" -d "$PWD/sd2" -l "unix:$PWD/sock2" > server2.log 2>&1 & s2=$!
trap 'kill $s1 $s2 2>/dev/null' EXIT
i=0
while ! grep -q ready server1.log || ! grep -q ready server2.log; do
	i=$((i + 1)); [ $i -lt 300 ] || { cat server1.log server2.log; fail "the servers did not start"; }; sleep 0.1
done
export HOME="$PWD/home"
mkdir -p "$HOME"
S='probe begin { printf("hello from pid %d\n", pid() > 0) exit() }'

status=0
"$STAP" --use-server="127.0.0.1:$P1" -r "$RELEASE" -p2 -e "$S" > out 2> err || status=$?
[ $status = 1 ] && grep -q "is not trusted: trust it first with stap --trust-servers=127.0.0.1:$P1" err ||
	{ cat err; fail "an untrusted server was used"; }
"$STAP" --trust-servers="127.0.0.1:$P1" > out || fail "--trust-servers"
"$STAP" --list-servers | grep -q "stapc-server .*(trusted by you)" || fail "--list-servers does not show it"

"$STAP" --use-server="127.0.0.1:$P1" -r "$RELEASE" --privilege=stapusr -p4 -m signed_usr -e "$S" > out 2> err ||
	{ cat err; fail "-p4 through the server"; }
grep -q "/signed_usr.ko$" out || fail "no module path printed"
head -1 signed_usr.ko.sgn | grep -qx "stapc module signature 1" || fail "no signature file"
[ "$(modinfo -F stapc_privilege signed_usr.ko)" = stapusr ] || fail "the module's level is not stapusr"
status=0
"$STAP" --use-server="127.0.0.1:$P1" -r "$RELEASE" --privilege=stapusr -p4 -e \
	'probe kernel.function("vfs_read") { exit() }' > out 2> err || status=$?
[ $status = 1 ] && grep -q "is not permitted at privilege level stapusr" err || { cat err; fail "the server compiled a kernel probe for stapusr"; }
status=0
"$STAP" --use-server="unix:$PWD/sock1" -r "$RELEASE" --privilege=stapusr -D MAXACTION=1 -p4 -e "$S" > out 2> err || status=$?
[ $status = 1 ] && grep -q -- "-D is permitted to the server's clients only at privilege level stapdev" err ||
	{ cat err; fail "the server took -D at stapusr"; }
"$STAP" --use-server="unix:$PWD/sock1" -r "$RELEASE" --privilege=stapdev -p4 -m signed_dev -e "$S" > out 2> err ||
	{ cat err; fail "-p4 at stapdev through the Unix socket"; }
"$STAP" --use-server="unix:$PWD/sock2" -r "$RELEASE" --privilege=stapusr -p4 -m signed_other -e "$S" > out 2> err ||
	{ cat err; fail "-p4 through the second server"; }
echo "ok: compiled and signed by the server, refusals"

mkdir g
cp signed_usr.ko signed_usr.ko.sgn signed_dev.ko signed_dev.ko.sgn signed_other.ko signed_other.ko.sgn g/
cp signed_usr.ko g/unsigned.ko
cp signed_usr.ko g/changed.ko && cp signed_usr.ko.sgn g/changed.ko.sgn
printf 'X' | dd of=g/changed.ko bs=1 seek=4096 conv=notrunc 2>/dev/null
python3 - signed_dev.ko g/leveled.ko <<'PY' || fail "no level string in signed_dev.ko"
import sys
data = open(sys.argv[1], "rb").read()
assert data.count(b"stapc_privilege=stapdev") == 1
open(sys.argv[2], "wb").write(data.replace(b"stapc_privilege=stapdev", b"stapc_privilege=stapusr"))
PY
cp signed_dev.ko.sgn g/leveled.ko.sgn
mkdir evil && (cd evil && "$STAP" -p4 -r "$RELEASE" -m signed_usr -e 'probe begin { println("EVIL") exit() }' > /dev/null) ||
	fail "-p4 of the unsigned module"
cp evil/signed_usr.ko g/evil.ko
fp=$(sed -n 's/^signer //p' signed_usr.ko.sgn)
cp sd1/server.crt "g/$fp.crt"
# Hostile input for the setuid staprun as a stapusr member: modules with bytes
# changed, truncated or garbage signature files, random options and names.
mkdir g/fuzz
python3 - "$PWD/signed_usr.ko" "$PWD/signed_usr.ko.sgn" g/fuzz <<'PY'
import os, random, sys
ko, sgn, out = sys.argv[1], sys.argv[2], sys.argv[3]
data, sig = open(ko, "rb").read(), open(sgn).read()
rnd = random.Random(20261125)
cases = []
for i in range(40):
    d = bytearray(data)
    for _ in range(rnd.randint(1, 8)):
        d[rnd.randrange(len(d))] = rnd.randrange(256)
    if i % 5 == 0:
        d = d[:rnd.randrange(len(d))]
    s = sig
    if i % 3 == 1:
        s = sig[:rnd.randrange(len(sig))]
    elif i % 3 == 2:
        s = "".join(rnd.choice("0123456789abcdef \n") for _ in range(rnd.randint(0, 300)))
    open("%s/m%d.ko" % (out, i), "wb").write(d)
    open("%s/m%d.ko.sgn" % (out, i), "w").write(s)
opts = ["-v", "-s", "0", "-s", "99999", "-L", "-c", "x", "-o", "/etc/x", "-d", "-A", "--", "-", "x=1",
        "_stp_uid=0", "../../etc/passwd", "/dev/zero", "/proc/self/mem", "%s%s%n", "a" * 300, ""]
with open("%s/args" % out, "w") as f:
    for i in range(60):
        f.write(" ".join("'%s'" % rnd.choice(opts) for _ in range(rnd.randint(0, 5))) + "\n")
PY
cat > g/test.sh <<'GUEST'
chmod 755 / /etc 2>/dev/null
mkdir -p -m 755 /etc/stapc/trusted-signers && cp /work/*.crt /etc/stapc/trusted-signers/ && chmod 644 /etc/stapc/trusted-signers/*
printf 'u2:x:1002:1002::/tmp:/bin/sh\n' >> /etc/passwd
printf 'u2:x:1002:\nstapusr:x:2001:u2\n' >> /etc/group
sr=$(command -v staprun)
mkdir -p /tmp/bin && cp $sr $(dirname $sr)/stapio /tmp/bin/ && chmod 4755 /tmp/bin/staprun
chmod 755 /work; chmod 644 /work/*
for m in signed_usr changed leveled signed_dev signed_other unsigned; do
	su u2 -s /bin/sh -c "/tmp/bin/staprun /work/$m.ko" > out.txt 2> err.txt
	echo "$m: status $?"; cat out.txt err.txt
done
# u2 swaps the file between the signed module and an unsigned one of the same name
mkdir /tmp/race && cp /work/signed_usr.ko /tmp/race/good && cp /work/evil.ko /tmp/race/evil &&
	cp /work/signed_usr.ko.sgn /tmp/race/signed_usr.ko.sgn && chown -R u2 /tmp/race
su u2 -s /bin/sh -c 'cd /tmp/race; while :; do cp good a; mv -f a signed_usr.ko; cp evil b; mv -f b signed_usr.ko;
	ln -sf good c; mv -f c signed_usr.ko; done' > /dev/null 2>&1 &
swapper=$!
loaded=0 refused=0 evil=0
for i in $(seq 40); do
	if su u2 -s /bin/sh -c "/tmp/bin/staprun /tmp/race/signed_usr.ko" > race.txt 2>&1; then loaded=$((loaded + 1)); else refused=$((refused + 1)); fi
	grep -q EVIL race.txt && evil=$((evil + 1))
done
kill $swapper
echo "race: $loaded loaded, $refused refused, $evil evil"
crashes=0
for m in /work/fuzz/m*.ko; do
	su u2 -s /bin/sh -c "/tmp/bin/staprun $m" > /dev/null 2>&1; st=$?
	[ $st -lt 128 ] || { echo "staprun crashed (status $st) on $m"; crashes=$((crashes + 1)); }
done
while read -r args; do
	su u2 -s /bin/sh -c "/tmp/bin/staprun $args" > /dev/null 2>&1; st=$?
	[ $st -lt 128 ] || { echo "staprun crashed (status $st) on: $args"; crashes=$((crashes + 1)); }
	[ $st = 0 ] && echo "staprun accepted: $args"
done < /work/fuzz/args
echo "fuzz: $crashes crashes, $(grep -c . /proc/modules) modules loaded"
GUEST
"$BIN/stapvm" -r "$RELEASE" --userland=busybox -d g --timeout 240 -- sh /work/test.sh > guest.out 2> guest.err ||
	{ cat guest.out guest.err; fail "the guest failed"; }
expect() { grep -qF "$1" guest.out || { cat guest.out; fail "guest: no '$1'"; }; }
expect "signed_usr: status 0"
expect "hello from pid 1"
expect "changed: status 1"
expect "module '/work/changed.ko' refused: the signature does not match the module (changed since it was signed?)"
expect "leveled: status 1"
sed -n '/^leveled: /,/^signed_dev: /p' guest.out | grep -qF "the signature does not match the module" ||
	{ cat guest.out; fail "the module whose level was edited was not refused for its signature"; }
grep -q "^race: [1-9][0-9]* loaded, [0-9]* refused, 0 evil$" guest.out ||
	{ cat guest.out; fail "the swap race: $(grep '^race:' guest.out)"; }
expect "signed_dev: status 1"
expect "was compiled at privilege level stapdev: members of stapusr may load modules compiled with --privilege=stapusr"
expect "signed_other: status 1"
expect "its signer is not a trusted signer"
expect "unsigned: status 1"
expect "has no signature file /work/unsigned.ko.sgn"
expect "fuzz: 0 crashes, 0 modules loaded"
grep -q "staprun accepted" guest.out && { cat guest.out; fail "staprun accepted a hostile command line"; }
echo "ok: staprun loads the signed stapusr module only; 100 hostile inputs refused without a crash"
