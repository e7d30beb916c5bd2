# process("prog").library("lib").mark(...), .provider(...).mark(...), .statement(...),
# .statement(...).nearest, .statement(ADDRESS)[.absolute] and .function("*").exported: resolved in a shared library with DWARF
# and a hand-written SDT marker (pass 2; .exported leaves the library's static function out),
# then run in a guest (--remote=qemu, the program copied with its library): the marker fires
# with its operand, its semaphore is set while the probe is on, the statement probe reads a
# local, the exported function's probe its parameter, the address probes fire at libmk_double.
fail() { echo "FAIL: $*"; exit 1; }
cat > libmk.c <<'LIBRARY'
/* A shared library with DWARF and one SDT marker written by hand (a nop and its .note.stapsdt). */
unsigned short libmk_semaphore __attribute__((section(".probes")));

static int libmk_double(int n)
{
	return n * 2;
}

int libmk_work(int n)
{
	int twice = libmk_double(n);

	__asm__ __volatile__("990: nop\n"
			     ".pushsection .note.stapsdt,\"\",\"note\"\n"
			     ".balign 4\n"
			     ".4byte 992f-991f, 994f-993f, 3\n"
			     "991: .asciz \"stapsdt\"\n"
			     "992: .balign 4\n"
			     "993: .8byte 990b, 0, libmk_semaphore\n"
			     ".asciz \"libmk\"\n"
			     ".asciz \"work\"\n"
			     ".asciz \"-4@%0\"\n"
			     "994: .balign 4\n"
			     ".popsection\n" :: "nor"(twice));
	return twice + 1; /* the statement probe */
}
LIBRARY
cat > prog.c <<'PROGRAM'
/* Calls libmk.so, and says whether a probe on its marker set the semaphore. */
#include <stdio.h>

extern unsigned short libmk_semaphore;
int libmk_work(int n);

int main(void)
{
	int r = libmk_work(3);

	printf("libmk_work(3) = %d, semaphore %s\n", r, libmk_semaphore ? "set" : "clear");
	return 0;
}
PROGRAM
dir=$(pwd -P)
gcc -g -O0 -shared -fPIC -o libmk.so libmk.c || fail "cannot build libmk.so"
gcc -g -O0 -o prog prog.c -L. -lmk -Wl,-rpath,"$dir" || fail "cannot build prog"
[ "$(./prog)" = "libmk_work(3) = 7, semaphore clear" ] || fail "prog on the host: $(./prog)"
line=$(grep -n "the statement probe" libmk.c | cut -d: -f1)
double=$(nm libmk.so | awk '$3 == "libmk_double" { print $1 }' | sed 's/^0*//')
[ -n "$double" ] || fail "no libmk_double in libmk.so's symbol table"
lib="process(\"$dir/prog\").library(\"libmk.so\")"
cat > points.stp <<STP
probe $lib.mark("work") { printf("%s:%s %d\n", \$\$provider, \$\$name, \$arg1) }
probe $lib.provider("libmk").mark("work") { }
probe $lib.statement("libmk_work@libmk.c:$line") { printf("line $line: twice=%d\n", \$twice) }
probe $lib.statement("libmk_work@libmk.c:$((line - 1))").nearest { }
probe $lib.function("*").exported { printf("exported %s(%d)\n", ppfunc(), \$n) }
probe $lib.statement(0x$double) { println(pp()) }
probe $lib.statement(0x$double).absolute { println(pp()) }
STP
"$STAP" -g -p2 -r "$RELEASE" points.stp > points.p2 2>&1 || { cat points.p2; fail "pass 2"; }
full="process(\"$dir/prog\").library(\"$dir/libmk.so\")"
for point in "$full.provider(\"libmk\").mark(\"work\") /* points.stp:1:" "$full.provider(\"libmk\").mark(\"work\") /* points.stp:2:" \
             "$full.statement(\"libmk_work@libmk.c:$line\") /* points.stp:3:" "$full.statement(\"libmk_work@libmk.c:$line\") /* points.stp:4:"; do
  grep -qF "$point" points.p2 || { cat points.p2; fail "no $point"; }
done
for point in "$full.statement(0x$double) /* points.stp:6:" "$full.statement(0x$double).absolute /* points.stp:7:"; do
  grep -qF "$point" points.p2 || { cat points.p2; fail "no $point"; }
done
"$STAP" -p2 -r "$RELEASE" points.stp > noguru.out 2>&1 && fail ".statement(ADDRESS).absolute without -g was accepted"
grep -q "needs guru mode" noguru.out || { cat noguru.out; fail ".absolute without -g: no guru-mode error"; }
exported=$(grep -F ".exported /* points.stp:5:" points.p2)
[ "$exported" = "$full.function(\"libmk_work@libmk.c:9\").exported /* points.stp:5:1 */" ] ||
  { cat points.p2; fail "expected .exported to match libmk_work alone"; }
printf 'probe %s.function("libmk_d*") { }\n' "$lib" > static.stp
"$STAP" -p2 -r "$RELEASE" static.stp 2>&1 | grep -qF "function(\"libmk_double@libmk.c:4\")" ||
  fail "libmk_double is not a function of libmk.so, so .exported leaving it out proves nothing"

# in a guest: the two marker probes share the marker's uprobe and semaphore (the statement
# probe is on another instruction: the kernel refuses a uprobe with and one without a
# reference counter at one address)
STAPC_QEMU_USERLAND=copy "$STAP" -g --remote=qemu:"$RELEASE" -c ./prog points.stp > run.out 2> run.err ||
  { cat run.err; fail "the run exited $?"; }
expected="$full.statement(0x$double)
$full.statement(0x$double).absolute
exported libmk_work(3)
libmk:work 6
libmk_work(3) = 7, semaphore set
line $line: twice=6"
[ "$(sort run.out)" = "$(printf '%s\n' "$expected" | sort)" ] || { cat run.out run.err; fail "unexpected output"; }
