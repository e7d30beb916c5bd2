# stapc-agent's side of --remote=unix: (agent/agent_wire.h), on this host with
# a stand-in staprun (the guest tests in remote_fleet and remote_server load
# real modules): a whole session gives staprun the options, the module written
# whole under a fresh directory, the parameters, and returns its output and
# status; a stop request reaches staprun as SIGTERM; then 300 hostile
# connections (random frames and bytes, a name with '/', oversized frames,
# requests out of order) neither crash the agent nor leave a directory, and
# it still serves a good session after them.
fail() { echo "FAIL: $*"; exit 1; }
BIN=$(dirname "$STAP")
cat > fake_staprun <<'EOF2'
#!/bin/sh
trap 'echo "stopped by TERM"; exit 3' TERM
for a in "$@"; do
	case $a in
	*.ko) echo "module $(basename "$(dirname "$a")" | cut -c1-12) $(basename "$a") $(wc -c < "$a") bytes, sig $(cat "$a.sgn" 2>/dev/null)" ;;
	*) echo "arg $a" ;;
	esac
done
echo "to stderr" >&2
case " $* " in *" wait=1 "*) ;; *) exit 7 ;; esac
echo waiting
while :; do sleep 0.1; done
EOF2
chmod +x fake_staprun
TMPDIR_BEFORE=$(ls -d /tmp/stapc-agent.* 2>/dev/null | wc -l)
"$BIN/stapc-agent" --listen "$PWD/a.sock" --staprun "$PWD/fake_staprun" 2> agent.log & agent=$!
trap 'kill $agent 2>/dev/null || true' EXIT
i=0
until [ -S a.sock ]; do i=$((i + 1)); [ $i -lt 100 ] || fail "the agent did not listen: $(cat agent.log)"; sleep 0.1; done
python3 - "$PWD/a.sock" <<'PY' || fail "the protocol check failed"
import os, random, socket, struct, sys, time
path = sys.argv[1]

def frame(t, data=b""):
    return bytes([ord(t)]) + struct.pack(">I", len(data)) + data

def session(frames, stop_after=None):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.settimeout(20)
    buf = b""
    got = {"H": b"", "O": b"", "E": b"", "X": None}
    s.sendall(b"".join(frames))
    stopped = False
    while got["X"] is None:
        chunk = s.recv(65536)
        if not chunk:
            break
        buf += chunk
        while len(buf) >= 5:
            t, n = chr(buf[0]), struct.unpack(">I", buf[1:5])[0]
            if len(buf) < 5 + n:
                break
            data, buf = buf[5:5 + n], buf[5 + n:]
            if t == "X":
                got["X"] = int(data)
            elif t in got:
                got[t] += data
        if stop_after and stop_after in got["O"] and not stopped:
            s.sendall(frame("S"))
            stopped = True
    s.close()
    return got

module = os.urandom(200000)
good = [frame("o", b"-v"), frame("o", b"-c"), frame("o", b"echo a b"), frame("n", b"stap_x.ko")]
good += [frame("d", module[i:i + 65536]) for i in range(0, len(module), 65536)]
good += [frame("s", b"signature text"), frame("p", b"_stp_remote_id=3"), frame("r")]
g = session(good)
assert g["H"].startswith(b"stapc-agent-1 " + os.uname().release.encode()), g["H"]
out = g["O"].decode()
assert "arg -v\narg -c\narg echo a b\nmodule stapc-agent. stap_x.ko 200000 bytes, sig signature text\narg _stp_remote_id=3\n" in out, out
assert g["E"] == b"to stderr\n", g["E"]
assert g["X"] == 7, g["X"]
print("ok: a whole session, status", g["X"])

g = session(good[:-1] + [frame("p", b"wait=1"), frame("r")], stop_after=b"waiting")
assert b"stopped by TERM" in g["O"] and g["X"] == 3, g
print("ok: STOP reached staprun as SIGTERM, status", g["X"])

rnd = random.Random(20261126)
types = "HOEXKonodsprSz\x00\xff"
for i in range(300):
    s = socket.socket(socket.AF_UNIX)
    s.connect(path)
    s.settimeout(5)
    parts = []
    for _ in range(rnd.randint(0, 8)):
        k = rnd.random()
        if k < 0.1:
            parts.append(os.urandom(rnd.randint(1, 64)))
        elif k < 0.2:
            parts.append(bytes([ord(rnd.choice(types))]) + struct.pack(">I", rnd.choice([65537, 1 << 31, 0xffffffff])))
        elif k < 0.3:
            parts.append(frame("n", rnd.choice([b"../../etc/x.ko", b"a/b.ko", b".ko", b"x" * 70 + b".ko", b"ok.txt", b"ok\x00.ko"])))
        else:
            parts.append(frame(rnd.choice(types), os.urandom(rnd.randint(0, 300))))
    try:
        s.sendall(b"".join(parts))
        if rnd.random() < 0.5:
            s.recv(4096)
    except OSError:
        pass
    s.close()
time.sleep(1)
g = session(good)
assert g["X"] == 7 and "stap_x.ko 200000 bytes" in g["O"].decode(), g
print("ok: 300 hostile connections, then a good session")
PY
kill -0 $agent || fail "the agent died: $(cat agent.log)"
sleep 1
[ "$(ls -d /tmp/stapc-agent.* 2>/dev/null | wc -l)" -le "$TMPDIR_BEFORE" ] || fail "module directories left: $(ls -d /tmp/stapc-agent.*)"
grep -q "ready on $PWD/a.sock" agent.log || fail "no ready line"
echo "ok: stapc-agent's protocol"
