# stap --use-server with --remote (docs/remote.md, docs/security.md): the
# compile server builds each target's module, one request per kernel release
# of the fleet, so neither the targets nor the host that runs stap need
# kernel headers. Here stap runs where /lib/modules is an empty directory (a
# mount namespace of its own) with two targets on two releases: a guest of
# the generic kernel behind a unix: socket (stapvm --agent and a stapc-agent)
# and a disposable cloud-kernel guest (qemu:RELEASE). Each gets its module
# with the server's signature file beside it, over ssh (the same guest's
# sshd) too, and to a stapc-agent --listen socket in the guest reached through
# an OpenSSH socket forward (ssh -L LOCAL:REMOTE). A server without headers for
# one release fails that target by name; the other runs.
. "$SRCDIR/testsuite/shell/lib/kernels.sh"
GENERIC=6.1.0-56-amd64
CLOUD=6.1.0-56-cloud-amd64
need_kernels $GENERIC $CLOUD
command -v unshare >/dev/null || fail "unshare (util-linux) is missing"
[ -x /usr/sbin/sshd ] || fail "the host's OpenSSH server is needed (apt-get install openssh-server)"
unshare -m true || fail "cannot make a mount namespace here"
BIN=$(cd "$(dirname "$STAP")" && pwd)
mkdir bin && cp "$BIN/staprun" "$BIN/stapio" "$BIN/stapc-agent" bin/

# server 1 has every kernel's headers; server 2 sees none for the cloud kernel
"$BIN/stapc-server" -d "$PWD/sd1" -l "unix:$PWD/server1.sock" > server1.log 2>&1 & s1=$!
unshare -m sh -c 'mount -t tmpfs none /lib/modules/$1 && shift && exec "$@"' sh $CLOUD \
	"$BIN/stapc-server" -d "$PWD/sd2" -l "unix:$PWD/server2.sock" > server2.log 2>&1 & s2=$!
# the guest: a stapc-agent on its virtio-serial port, and sshd (as shell/remote_fleet)
. "$SRCDIR/testsuite/shell/lib/ssh.sh"
ssh_client_config
cat > guest.sh <<EOS
(cd / && $PWD/bin/stapc-agent --port org.stapc.agent &)
(cd / && $PWD/bin/stapc-agent --listen /run/stapc-agent.sock &)
ssh-keygen -A >/dev/null 2>&1
: > /root/.bashrc
mkdir -p /run/sshd
exec /usr/sbin/sshd -D -e -o UsePAM=no -o StrictModes=no -o PermitRootLogin=yes -o AuthorizedKeysFile=$PWD/key.pub
EOS
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$BIN/stapvm" -r $GENERIC --userland=host --agent "$PWD/agent.sock" --hostfwd $port --timeout 600 \
	--file "$PWD/bin/stapc-agent" --file "$PWD/bin/staprun" --file "$PWD/bin/stapio" \
	--file "$PWD/key.pub" --file "$PWD/guest.sh" -- sh "$PWD/guest.sh" > guest.out 2> guest.err & g=$!
trap 'kill $s1 $s2 $g 2>/dev/null || true' EXIT
i=0
until grep -q ready server1.log && grep -q ready server2.log && grep -q 'stapc-agent: ready' guest.err; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "the servers or the guest did not start: $(cat server*.log guest.err)"
	sleep 1
done

cat > hello.stp <<'EOS'
probe begin { printf("hello from %d %s\n", remote_id(), remote_uri()) }
probe end { printf("end %d\n", remote_id()) }
EOS
# stap where no kernel has headers
nohdr() { unshare -m sh -c 'mount -t tmpfs none /lib/modules && exec "$@"' sh "$@"; }
# the -c command lists the module's directory where the agent put it
list='sh -c "ls /tmp/stapc-agent.* 2>/dev/null; true"'

status=0
nohdr "$STAP" --remote=unix:$PWD/agent.sock -p4 hello.stp > none.out 2> none.err || status=$?
[ $status = 1 ] && grep -q "no kernel headers here for its release $GENERIC" none.err ||
	fail "without a server and without headers: status $status: $(cat none.err)"

t=$(date +%s)
nohdr "$STAP" --use-server=unix:$PWD/server1.sock --remote=unix:$PWD/agent.sock --remote=qemu:$CLOUD \
	--remote-prefix -c "$list" hello.stp > one.out 2> one.err || fail "through the server: status $?: $(cat one.out one.err)"
echo "two releases built by the server and run in $(($(date +%s) - t)) s"
cat one.out
grep -qx "0: hello from 0 unix:$PWD/agent.sock" one.out && grep -qx "0: end 0" one.out || fail "nothing from the unix: target"
grep -qx "1: hello from 1 qemu:$CLOUD" one.out && grep -qx "1: end 1" one.out || fail "nothing from the qemu target"
name=$(sed -n 's/^0: \(stap_[0-9a-f_]*\.ko\)$/\1/p' one.out)
[ -n "$name" ] || fail "the agent's module directory was not listed"
grep -qx "0: $name.sgn" one.out || fail "the server's signature file did not travel with the module"

# over ssh: the module and its signature file on the session's stdin
export STAPC_SSH="ssh -F $PWD/ssh_config" STAPC_REMOTE_STAPRUN="$PWD/bin/staprun"
i=0
until ssh -F ssh_config -o ConnectTimeout=10 -p $port root@127.0.0.1 true 2>/dev/null; do
	i=$((i + 1)); [ $i -lt 120 ] || fail "the guest's sshd does not answer"; sleep 2
done
nohdr "$STAP" --use-server=unix:$PWD/server1.sock --remote=root@127.0.0.1:$port --remote-prefix \
	-c 'sh -c "ls /tmp/stapc.*"' hello.stp > ssh.out 2> ssh.err || fail "over ssh: status $?: $(cat ssh.out ssh.err)"
cat ssh.out
grep -qx "0: hello from 0 root@127.0.0.1:$port" ssh.out || fail "nothing from the ssh target"
grep -qx "0: $name.sgn" ssh.out && grep -qx "0: $name" ssh.out || fail "the signature file did not come over ssh"

# an agent's own socket in the guest, forwarded here by ssh
ssh -F ssh_config -p $port -N -o ExitOnForwardFailure=yes -L "$PWD/fwd.sock:/run/stapc-agent.sock" root@127.0.0.1 & fwd=$!
trap 'kill $s1 $s2 $g $fwd 2>/dev/null || true' EXIT
i=0
until [ -S fwd.sock ]; do i=$((i + 1)); [ $i -lt 100 ] || fail "no ssh socket forward"; sleep 0.2; done
nohdr "$STAP" --use-server=unix:$PWD/server1.sock --remote=unix:$PWD/fwd.sock -c true hello.stp > fwd.out 2> fwd.err ||
	fail "through the forwarded agent socket: status $?: $(cat fwd.out fwd.err)"
grep -qx "hello from 0 unix:$PWD/fwd.sock" fwd.out && grep -qx "end 0" fwd.out || fail "nothing from the agent's own socket: $(cat fwd.out fwd.err)"
kill $fwd

status=0
nohdr "$STAP" --use-server=unix:$PWD/server2.sock --remote=unix:$PWD/agent.sock --remote=qemu:$CLOUD \
	--remote-prefix -c true hello.stp > two.out 2> two.err || status=$?
cat two.out two.err
[ $status = 1 ] || fail "a server without the cloud kernel's headers: status $status, expected 1"
grep -q "stapc-server: this server has no build tree for that kernel release" two.err || fail "the server's reason is not shown"
grep -qx "stap: target 1 (qemu:$CLOUD): the compile server built no module for kernel $CLOUD (its messages are above)" two.err ||
	fail "the target the server could not build for is not named"
grep -qx "0: hello from 0 unix:$PWD/agent.sock" two.out && grep -qx "0: end 0" two.out || fail "the other target did not run"
echo "ok: modules built and signed by the server per release, run where no headers are"
