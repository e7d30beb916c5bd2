# process("BUILD-ID"): where stap finds the program with a build-id (the -c
# program, a directory of PATH, a /usr/lib/debug/.build-id link under
# --sysroot), what -L lists, which names are paths rather than build-ids,
# and the errors when no file has it (a -dbgsym's .debug alone, a
# debuginfod server that does not answer).
fail() { echo "FAIL: $*"; exit 1; }
cat > prog.c <<'PROGRAM'
/* Probed by its build-id in process_buildid.sh. */
int work(int x)
{
	return x * 2;
}

int main(void)
{
	return work(21) != 42;
}
PROGRAM
id=0123456789abcdef0123456789abcdef01234567
gcc -g -O0 -o prog prog.c -Wl,--build-id=0x$id
short=0011223344556677
gcc -g -O0 -o short prog.c -Wl,--build-id=0x$short

# the -c program; upper case is the same build-id; -L lists the points with their variables
"$STAP" -L "process(\"$(echo $id | tr a-f A-F)\").function(\"work\")" -c ./prog >list.out 2>list.err ||
	fail "-L: $(cat list.err)"
[ "$(cat list.out)" = "process(\"$id\").function(\"work@prog.c:2\") \$x:int" ] || fail "-L: $(cat list.out)"
"$STAP" -l "process(\"$id\").end" -c ./prog >l.out || fail "-l .end"
[ "$(cat l.out)" = "process(\"$id\").end" ] || fail "-l .end: $(cat l.out)"

# a directory of PATH (no -c): -v names the file; pass 3 attaches to that file
mkdir bin && cp short bin/renamed
PATH="$PWD/bin:$PATH" "$STAP" -v -p3 -e "probe process(\"$short\").function(\"work\") { println(\$x) }" \
	>p3.out 2>p3.err || fail "PATH: $(cat p3.err)"
grep -qxF "<input>:1:15: process(\"$short\"): the file with that build-id is $PWD/bin/renamed" p3.err ||
	fail "-v: $(cat p3.err)"
grep -qF ".path = \"$PWD/bin/renamed\"" p3.out || fail "pass 3 does not probe bin/renamed"

# under --sysroot: a /usr/lib/debug/.build-id link to the program (relative, inside the sysroot)
mkdir -p root/opt/x root/usr/lib/debug/.build-id/01
cp prog root/opt/x/prog
ln -s ../../../../../opt/x/prog root/usr/lib/debug/.build-id/01/${id#01}
"$STAP" -p2 --sysroot="$PWD/root" -v -e "probe process(\"$id\").begin { }" >sys.out 2>sys.err ||
	fail "--sysroot: $(cat sys.err)"
grep -qxF "<input>:1:15: process(\"$id\"): the file with that build-id is /opt/x/prog" sys.err ||
	fail "--sysroot -v: $(cat sys.err)"

# a name that is a file is a path, even when it is all hex digits
cp prog bin/$short
PATH="$PWD/bin:$PATH" "$STAP" -p2 -e "probe process(\"$short\").function(\"work\") { }" >path.out 2>&1 ||
	fail "hex file name: $(cat path.out)"
grep -qxF "process(\"$PWD/bin/$short\").function(\"work@prog.c:2\") /* <input>:1:1 */" path.out ||
	fail "hex file name: $(cat path.out)"

# only the debuginfo is installed: the error says so
missing=ffeeddccbbaa99887766554433221100ffeeddcc
mkdir -p root/usr/lib/debug/.build-id/ff && : >root/usr/lib/debug/.build-id/ff/${missing#ff}.debug
! "$STAP" -p2 --sysroot="$PWD/root" -e "probe process(\"$missing\").begin { }" >dbg.out 2>&1 ||
	fail "a .debug alone found a program"
grep -qF "Its debuginfo $PWD/root/usr/lib/debug/.build-id/ff/${missing#ff}.debug is installed, but not the program itself" dbg.out ||
	fail ".debug alone: $(cat dbg.out)"

# a debuginfod server that does not answer: the error quotes DEBUGINFOD_URLS and why
! DEBUGINFOD_URLS=http://127.0.0.1:1 DEBUGINFOD_CACHE_PATH="$PWD/cache" DEBUGINFOD_TIMEOUT=5 \
	"$STAP" -p2 -e "probe process(\"$missing\").begin { }" >dfd.out 2>&1 || fail "debuginfod found a program"
grep -qF "debuginfod: the servers of DEBUGINFOD_URLS (http://127.0.0.1:1) have no executable with that build-id:" dfd.out ||
	fail "debuginfod: $(cat dfd.out)"
exit 0
