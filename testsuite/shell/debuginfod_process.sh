# debuginfod.process("GLOB") and debuginfod.archive("GLOB").process("GLOB") against a real
# debuginfod server (elfutils 0.192, unpacked by .ci/kernels: bookworm's 0.188 has no metadata
# queries) on 127.0.0.1 serving a directory with a program and a .deb holding another: which
# build-ids each point reaches, the errors (no DEBUGINFOD_URLS, a client library without metadata
# queries, nothing matching), and a uprobe reached that way firing in a guest.
fail() { echo "FAIL: $*"; exit 1; }
D=/var/lib/stapc/debuginfod/root
L=$D/usr/lib/x86_64-linux-gnu
[ -x $D/usr/bin/debuginfod ] || fail "no debuginfod in $D: run .ci/kernels"
command -v bsdtar >/dev/null || fail "no bsdtar (libarchive-tools, .ci/setup): the server cannot read .deb files"
cat > prog.c <<'PROGRAM'
/* Probed through debuginfod.process in debuginfod_process.sh. */
int work(int x)
{
	return x * 2;
}

int main(void)
{
	return work(21) != 42;
}
PROGRAM
id=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a0001
tool=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a0002
mkdir -p srv pkg/usr/bin pkg/DEBIAN cache
gcc -g -O0 -static -o prog prog.c -Wl,--build-id=0x$id
cp prog srv/prog
gcc -g -O0 -o pkg/usr/bin/tool prog.c -Wl,--build-id=0x$tool
printf 'Package: tool\nVersion: 1.0\nArchitecture: amd64\nMaintainer: stapc <stapc@localhost>\nDescription: a test\n' \
	> pkg/DEBIAN/control
dpkg-deb -b pkg srv/tool_1.0_amd64.deb >/dev/null
script="probe debuginfod.process(\"$PWD/srv/*\").function(\"work\") { printf(\"work(%d)\\n\", \$x) }"

# without DEBUGINFOD_URLS
env -u DEBUGINFOD_URLS "$STAP" -p2 -e "$script" 2>nourl.err && fail "accepted without DEBUGINFOD_URLS"
grep -q "DEBUGINFOD_URLS is not set" nourl.err || { cat nourl.err; fail "no DEBUGINFOD_URLS: message"; }

# this machine's libdebuginfod, when it is older than 0.192
if ! nm -D /usr/lib/x86_64-linux-gnu/libdebuginfod.so.1 | grep -q debuginfod_find_metadata; then
	DEBUGINFOD_URLS=http://127.0.0.1:9 "$STAP" -p2 -e "$script" 2>old.err && fail "accepted with libdebuginfod 0.188"
	grep -q "has no metadata queries" old.err || { cat old.err; fail "old libdebuginfod: message"; }
fi

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
LD_LIBRARY_PATH=$L $D/usr/bin/debuginfod -p $port -d "$PWD/db.sqlite" -F -U srv -t 0 -g 0 >server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null' EXIT
export DEBUGINFOD_URLS=http://127.0.0.1:$port DEBUGINFOD_CACHE_PATH=$PWD/cache LD_LIBRARY_PATH=$L
# the server scans srv once at start: wait (30 s at most) until it knows both files
i=0
until python3 - "$port" "$PWD" <<'PY' 2>/dev/null
import sys, urllib.request
def n(glob):
    url = "http://127.0.0.1:%s/metadata?key=glob&value=%s" % (sys.argv[1], glob)
    return urllib.request.urlopen(url, timeout=2).read().decode().count('"executable"')
sys.exit(0 if n(sys.argv[2] + "/srv/*") and n("/usr/bin/*") else 1)
PY
do
	i=$((i + 1))
	[ $i -lt 60 ] || { cat server.log; fail "the server did not index srv in 30 s"; }
	sleep 0.5
done

"$STAP" -p2 -e "$script" >all.out 2>all.err || { cat all.err; fail "debuginfod.process failed"; }
grep -qF "process(\"$id\").function(\"work@prog.c:2\")" all.out || { cat all.out; fail "prog's build-id not probed"; }
grep -qF "$tool" all.out && fail "a file of the .deb matched $PWD/srv/*"
"$STAP" -p2 -e 'probe debuginfod.archive("*.deb").process("/usr/bin/*").function("work") { }' >deb.out 2>deb.err ||
	{ cat deb.err; fail "debuginfod.archive failed"; }
grep -qF "process(\"$tool\").function(\"work@prog.c:2\")" deb.out || { cat deb.out; fail "the .deb's tool not probed"; }
grep -qF "$id" deb.out && fail ".archive(\"*.deb\") reached a plain file"
"$STAP" -p2 -e 'probe debuginfod.archive("*.rpm").process("/usr/bin/*").function("work") { }' 2>rpm.err &&
	fail "an archive glob matching nothing was accepted"
grep -q "no executable on the debuginfod servers of DEBUGINFOD_URLS (http://127.0.0.1:$port) has a path matching '/usr/bin/\*' in a package matching '\*.rpm'" rpm.err ||
	{ cat rpm.err; fail "nothing matching: message"; }
"$STAP" -p2 -e 'probe debuginfod.archive("*.rpm").process("/usr/bin/*").function("work")? { } probe begin { exit() }' \
	>/dev/null 2>opt.err || { cat opt.err; fail "an optional point matching nothing failed"; }

# in a guest: the -c program has the build-id the server gave, so the uprobe fires in it
"$STAP" --remote=qemu:"$RELEASE" -c ./prog -e "$script" >run.out 2>run.err || { cat run.err; fail "the guest run failed"; }
[ "$(cat run.out)" = "work(21)" ] || { cat run.out run.err; fail "guest output: $(cat run.out)"; }
echo ok
