# stap --remote over real OpenSSH to a fleet of two QEMU guests (docs/remote.md):
# the generic and the RT kernel (two releases: two builds), each running the
# host's own sshd on a 127.0.0.1 port forwarded by QEMU (stapvm --hostfwd),
# reached with a key pair made here. The guests boot once for every case:
#   1. --remote-prefix, -c on each host, a host that refuses connections, a
#      host whose kernel has no headers here (a uid-0 user whose `uname -r`
#      says 6.1.0-99-nohdr), direct:// (this host: its release has no headers
#      here either, or its lines come back as target 4's);
#   2. no prefix, -o FILE: both hosts' lines, collected here;
#   3. SIGTERM to stap: the end probe runs on every host, status 0, no module
#      left loaded, no module directory left in the guests' /tmp; -T likewise;
#   5. stap killed by SIGKILL: no ssh of its own left here, and each host
#      stops the session (its connection closed): nothing loaded, no directory;
#   6. unix:PATH (the generic guest's virtio-serial port, stapvm --agent, with
#      a stapc-agent on it) mixed with ssh:// (the RT guest) and direct:// in
#      one command: lines from both with their prefix, -c on each, a socket
#      no one listens on named;
#   7. a second stap on the busy port gets no answer and gives up after 15 s,
#      the running session undisturbed; then SIGTERM with the unix: target:
#      end probes on both, nothing left loaded, no module directory left;
#   8. stap killed by SIGKILL: the agent sees the stream end and stops staprun;
#   4. one guest killed mid-run: named, the other finishes, status 1;
#   9. the generic guest killed under a unix: session: named (last: the
#      guests stay dead).
. "$SRCDIR/testsuite/shell/lib/kernels.sh"
GENERIC=6.1.0-56-amd64
RT=6.1.0-56-rt-amd64
need_kernels $GENERIC $RT
[ -x /usr/sbin/sshd ] || fail "the host's OpenSSH server is needed (apt-get install openssh-server)"

. "$SRCDIR/testsuite/shell/lib/ssh.sh"
ssh_client_config "KexAlgorithms curve25519-sha256"
mkdir bin && BIN=$(cd "$(dirname "$STAP")" && pwd)
cp "$BIN/staprun" "$BIN/stapio" "$BIN/stapc-agent" bin/
# In the guest (its / is the host's under a tmpfs overlay: nothing here changes):
# no login rc file (the host's .bashrc may be slow under TCG), and a user nohdr
# (uid 0) whose uname -r names a release without headers.
cat > sshd.sh <<EOF
ssh-keygen -A >/dev/null 2>&1
: > /root/.bashrc
mkdir -p /run/sshd /home/nohdr/.ssh /home/nohdr/bin
useradd -o -u 0 -g 0 -M -d /home/nohdr -s /bin/sh -p "*" nohdr	# "*": no password, not locked
printf '#!/bin/sh\nif [ "\$1" = -r ]; then echo 6.1.0-99-nohdr; else exec /usr/bin/uname "\$@"; fi\n' >/home/nohdr/bin/uname
chmod 755 /home/nohdr/bin/uname
echo PATH=/home/nohdr/bin:/usr/bin:/bin >/home/nohdr/.ssh/environment
# the generic guest's virtio-serial port (stapvm --agent) gets a stapc-agent
[ -e /sys/class/virtio-ports ] && (cd / && $PWD/bin/stapc-agent --port org.stapc.agent >/dev/null 2>&1 &)
exec /usr/sbin/sshd -D -e -o UsePAM=no -o StrictModes=no -o PermitRootLogin=yes \
	-o PermitUserEnvironment=yes -o AuthorizedKeysFile=$PWD/key.pub
EOF
ports=$(python3 -c '
import socket
socks = [socket.socket() for _ in range(3)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))')
set -- $ports
P0=$1 P1=$2 CLOSED=$3	# nothing listens on CLOSED
files="--file $PWD/key.pub --file $PWD/sshd.sh --file $PWD/bin/staprun --file $PWD/bin/stapio --file $PWD/bin/stapc-agent"
"$BIN/stapvm" -r $GENERIC --userland=host --hostfwd $P0 --agent "$PWD/agent.sock" --timeout 900 $files -- sh "$PWD/sshd.sh" \
	>guest0.out 2>guest0.err &
G0=$!
"$BIN/stapvm" -r $RT --userland=host --hostfwd $P1 --timeout 900 $files -- sh "$PWD/sshd.sh" \
	>guest1.out 2>guest1.err &
G1=$!
trap 'kill $G0 $G1 2>/dev/null || true' EXIT
export STAPC_SSH="ssh -F $PWD/ssh_config" STAPC_REMOTE_STAPRUN="$PWD/bin/staprun"
H0=root@127.0.0.1:$P0 H1=ssh://root@127.0.0.1:$P1 U0=unix:$PWD/agent.sock

cat > hello.stp <<'EOF'
probe begin { printf("hello from %d %s\n", remote_id(), remote_uri()) }
probe end { printf("end %d\n", remote_id()) }
EOF
cat > ticks.stp <<'EOF'
global n
probe timer.ms(300) { printf("tick %d %d\n", remote_id(), ++n); if (n == 3) exit() }
EOF
cat > alive.stp <<'EOF'
probe timer.ms(500) { printf("alive %d\n", remote_id()) }
probe end { printf("end %d\n", remote_id()) }
EOF
# The builds while the guests boot: the fleet's own builds are then cache hits.
for s in hello ticks alive; do
	for r in $GENERIC $RT; do "$STAP" -p4 -r $r $s.stp >/dev/null || fail "stap -p4 -r $r $s.stp"; done
done

start=$(date +%s)
for p in $P0 $P1; do
	until ssh -F ssh_config -o ConnectTimeout=10 -p $p root@127.0.0.1 true 2>/dev/null; do
		[ $(($(date +%s) - start)) -lt 240 ] || fail "the guest on port $p has no sshd after 240 s: $(tail -5 guest*.err)"
		sleep 2
	done
done
echo "guests answer over ssh after $(($(date +%s) - start)) s"

# Wait until file $1 has a line matching $2 (at most $3 seconds).
wait_line() {
	n=0
	until grep -q "$2" "$1"; do
		n=$((n + 1))
		[ $n -le $(($3 * 5)) ] || return 1
		sleep 0.2
	done
}

# 1. prefix, -c, unreachable, no headers, direct://
t=$(date +%s)
set +e
"$STAP" --remote=$H0 --remote=$H1 --remote=root@127.0.0.1:$CLOSED --remote=nohdr@127.0.0.1:$P0 \
	--remote=direct:// --remote-prefix -c '/usr/bin/uname -r' hello.stp >one.out 2>one.err
rc=$?
set -e
echo "case 1: status $rc in $(($(date +%s) - t)) s"
cat one.out one.err
[ $rc = 1 ] || fail "case 1: status $rc, expected 1 (three targets could not run)"
grep -qx "0: hello from 0 $H0" one.out || fail "case 1: no hello from target 0"
grep -qx "1: hello from 1 $H1" one.out || fail "case 1: no hello from target 1"
grep -qx "0: $GENERIC" one.out || fail "case 1: -c did not run on target 0"
grep -qx "1: $RT" one.out || fail "case 1: -c did not run on target 1"
grep -qx "0: end 0" one.out && grep -qx "1: end 1" one.out || fail "case 1: an end probe is missing"
grep -v '^[01]: ' one.out && fail "case 1: a line without its target's prefix (or torn)"
grep -q "^stap: target 2 (root@127.0.0.1:$CLOSED): cannot connect: .*refused" one.err ||
	fail "case 1: the unreachable host is not named"
grep -qx "stap: target 3 (nohdr@127.0.0.1:$P0): no kernel headers here for its release 6.1.0-99-nohdr (x86_64); install linux-headers-6.1.0-99-nohdr on this host (or pass -r a build tree)" one.err ||
	fail "case 1: the host without headers is not named with its release and package"
here=$(uname -r)
if [ ! -f /lib/modules/$here/build/Makefile ]; then
	grep -q "^stap: target 4 (direct://): no kernel headers here for its release $here " one.err ||
		fail "case 1: direct:// did not learn this host's release $here"
else
	grep -q "^4: " one.out one.err || fail "case 1: nothing from direct://"
fi

# 2. no prefix, -o FILE
t=$(date +%s)
"$STAP" --remote=$H0 --remote=$H1 -o ticks.txt ticks.stp >two.out 2>two.err || fail "case 2: status $?: $(cat two.err)"
echo "case 2: $(($(date +%s) - t)) s"
[ ! -s two.out ] || fail "case 2: -o FILE, yet stdout has: $(cat two.out)"
for i in 0 1; do
	for k in 1 2 3; do grep -qx "tick $i $k" ticks.txt || fail "case 2: no 'tick $i $k' in ticks.txt: $(cat ticks.txt)"; done
done
[ $(grep -c '^tick ' ticks.txt) = 6 ] || fail "case 2: ticks.txt has not 6 ticks: $(cat ticks.txt)"

# 3. SIGTERM: end probes on every host, nothing left loaded
t=$(date +%s)
"$STAP" --remote=$H0 --remote=$H1 --remote-prefix alive.stp >three.out 2>three.err &
S=$!
wait_line three.out '^0: alive 0$' 120 && wait_line three.out '^1: alive 1$' 120 || fail "case 3: not running on both: $(cat three.err)"
kill -TERM $S
set +e
wait $S
rc=$?
set -e
echo "case 3: status $rc in $(($(date +%s) - t)) s"
[ $rc = 0 ] || fail "case 3: status $rc after SIGTERM: $(cat three.err)"
grep -qx "0: end 0" three.out && grep -qx "1: end 1" three.out || fail "case 3: an end probe is missing: $(tail -4 three.out)"
for p in $P0 $P1; do
	left=$(ssh -F ssh_config -p $p root@127.0.0.1 'grep "^stap_" /proc/modules; ls -d /tmp/stapc.* 2>/dev/null' || true)
	[ -z "$left" ] || fail "case 3: left on port $p: $left"
done

# 3b. -T: the same clean end on every host, by the clock
t=$(date +%s)
"$STAP" --remote=$H0 --remote=$H1 --remote-prefix -T 3 alive.stp >three.out 2>three.err || fail "case 3b: status $?: $(cat three.err)"
echo "case 3b: $(($(date +%s) - t)) s"
grep -qx "0: end 0" three.out && grep -qx "1: end 1" three.out || fail "case 3b: an end probe is missing after -T"

# 5. stap killed outright (SIGKILL): its ssh processes die with it, each host sees
#    its connection close and stops: no module left loaded, no module directory
mkdir killtmp
TMPDIR=$PWD/killtmp "$STAP" --remote=$H0 --remote=$H1 --remote-prefix alive.stp >five.out 2>five.err &
S=$!
wait_line five.out '^0: alive 0$' 120 && wait_line five.out '^1: alive 1$' 120 || fail "case 5: not running on both: $(cat five.err)"
t=$(date +%s)
kill -KILL $S
wait $S || true
for p in $P0 $P1; do
	n=0
	until left=$(ssh -F ssh_config -p $p root@127.0.0.1 'grep "^stap_" /proc/modules; ls -d /tmp/stapc.* 2>/dev/null' || true); [ -z "$left" ]; do
		n=$((n + 1))
		[ $n -le 20 ] || fail "case 5: still there on port $p 20 tries after stap was killed: $left"
		sleep 1
	done
done
echo "case 5: both hosts clean $(($(date +%s) - t)) s after SIGKILL"
ps -eo args | grep -F "ControlPath=$PWD/killtmp" | grep -v grep && fail "case 5: an ssh of the killed stap is still running"

# What is left in the generic guest: a stap module loaded, a module directory of ssh's or the agent's.
leftovers() {
	ssh -F ssh_config -p $P0 root@127.0.0.1 'grep "^stap_" /proc/modules; ls -d /tmp/stapc.* /tmp/stapc-agent.* 2>/dev/null' || true
}

# 6. unix: (the generic guest's agent), ssh:// (the RT guest) and direct:// in one command
t=$(date +%s)
set +e
"$STAP" --remote=$U0 --remote=$H1 --remote=direct:// --remote=unix:$PWD/nothing --remote-prefix \
	-c '/usr/bin/uname -r' hello.stp >six.out 2>six.err
rc=$?
set -e
echo "case 6: status $rc in $(($(date +%s) - t)) s"
cat six.out six.err
grep -qx "0: hello from 0 $U0" six.out || fail "case 6: no hello from the unix: target"
grep -qx "0: $GENERIC" six.out || fail "case 6: -c did not run behind the unix: socket"
grep -qx "1: hello from 1 $H1" six.out && grep -qx "1: $RT" six.out || fail "case 6: nothing from the ssh target"
grep -qx "0: end 0" six.out && grep -qx "1: end 1" six.out || fail "case 6: an end probe is missing"
grep -v '^[012]: ' six.out && fail "case 6: a line without its target's prefix (or torn)"
grep -qx "stap: target 3 (unix:$PWD/nothing): cannot connect: No such file or directory" six.err ||
	fail "case 6: the socket no one listens on is not named"
if [ ! -f /lib/modules/$here/build/Makefile ]; then
	[ $rc = 1 ] || fail "case 6: status $rc, expected 1 (direct:// has no headers here)"
	grep -q "^stap: target 2 (direct://): no kernel headers here" six.err || fail "case 6: direct:// not named"
fi
left=$(leftovers)
[ -z "$left" ] || fail "case 6: left in the generic guest: $left"

# 7. SIGTERM: the end probe runs behind the unix: socket too, nothing left loaded
t=$(date +%s)
"$STAP" --remote=$U0 --remote=$H1 --remote-prefix alive.stp >seven.out 2>seven.err &
S=$!
wait_line seven.out '^0: alive 0$' 120 && wait_line seven.out '^1: alive 1$' 120 || fail "case 7: not running on both: $(cat seven.err)"
status=0
"$STAP" --remote=$U0 -c true hello.stp >busy.out 2>busy.err || status=$?
[ $status = 1 ] && grep -qx "stap: target 0 ($U0): cannot connect: no stapc-agent answered in 15 s (is one running there, or is another stap using it?)" busy.err ||
	fail "case 7: a second stap on the busy port: status $status: $(cat busy.err)"
before=$(grep -c '^0: alive 0$' seven.out)
sleep 1.5
[ $(grep -c '^0: alive 0$' seven.out) -gt $before ] || fail "case 7: the running unix: session stopped"
kill -TERM $S
set +e
wait $S
rc=$?
set -e
echo "case 7: status $rc in $(($(date +%s) - t)) s"
[ $rc = 0 ] || fail "case 7: status $rc after SIGTERM: $(cat seven.err)"
grep -qx "0: end 0" seven.out && grep -qx "1: end 1" seven.out || fail "case 7: an end probe is missing: $(tail -4 seven.out)"
left=$(leftovers)
[ -z "$left" ] || fail "case 7: left in the generic guest: $left"

# 8. stap killed outright: the agent sees the stream end and stops staprun; the
#    agent then serves the next stap
"$STAP" --remote=$U0 --remote-prefix alive.stp >eight.out 2>eight.err &
S=$!
wait_line eight.out '^0: alive 0$' 120 || fail "case 8: not running: $(cat eight.err)"
t=$(date +%s)
kill -KILL $S
wait $S || true
n=0
until left=$(leftovers); [ -z "$left" ]; do
	n=$((n + 1))
	[ $n -le 20 ] || fail "case 8: still there 20 tries after stap was killed: $left"
	sleep 1
done
echo "case 8: the guest clean $(($(date +%s) - t)) s after SIGKILL"
"$STAP" --remote=$U0 -c true hello.stp >eight.out 2>eight.err || fail "case 8: the agent serves no next stap: $(cat eight.err)"
grep -qx "hello from 0 $U0" eight.out || fail "case 8: no hello from the next session"

# 4. the RT guest dies mid-run: named, the other finishes, status 1
t=$(date +%s)
"$STAP" --remote=$H0 --remote=$H1 --remote-prefix -T 120 alive.stp >four.out 2>four.err &
S=$!
wait_line four.out '^0: alive 0$' 120 && wait_line four.out '^1: alive 1$' 120 || fail "case 4: not running on both: $(cat four.err)"
kill -KILL $G1
wait_line four.err "^stap: target 1 (root@127.0.0.1:$P1): connection lost" 30 || fail "case 4: the lost host is not named: $(cat four.err)"
before=$(grep -c '^0: alive 0$' four.out)
wait_line four.out "^0: alive 0\$" 1
sleep 1.5
after=$(grep -c '^0: alive 0$' four.out)
[ $after -gt $before ] || fail "case 4: target 0 stopped with target 1"
kill -TERM $S
set +e
wait $S
rc=$?
set -e
echo "case 4: status $rc in $(($(date +%s) - t)) s"
[ $rc = 1 ] || fail "case 4: status $rc, expected 1"
grep -qx "0: end 0" four.out || fail "case 4: target 0's end probe is missing"
left=$(ssh -F ssh_config -p $P0 root@127.0.0.1 'grep "^stap_" /proc/modules' || true)
[ -z "$left" ] || fail "case 4: left loaded on target 0: $left"

# 9. the generic guest dies under a unix: session: named, status 1
"$STAP" --remote=$U0 --remote-prefix alive.stp >nine.out 2>nine.err &
S=$!
wait_line nine.out '^0: alive 0$' 120 || fail "case 9: not running: $(cat nine.err)"
t=$(date +%s)
kill -KILL $G0
wait_line nine.err "^stap: target 0 ($U0): connection lost" 30 || fail "case 9: the lost endpoint is not named: $(cat nine.err)"
set +e
wait $S
rc=$?
set -e
echo "case 9: named $(($(date +%s) - t)) s after the guest died, status $rc"
[ $rc = 1 ] || fail "case 9: status $rc, expected 1"
echo "fleet: all cases passed in $(($(date +%s) - start)) s after boot"
