# stap --remote=qemu's guest userlands (STAPC_QEMU_USERLAND): a -g -O2 dynamic
# program built here runs with -c ./prog from stap's directory, and -o's file
# comes back to this directory: copied with its libraries (copy, for a kernel
# without 9p), from the host's / over 9p (host, on a kernel with the modules);
# busybox copies nothing, so the program is not there.
. "$SRCDIR/testsuite/shell/lib/kernels.sh"
cat > prog.c <<'PROGRAM'
/* Probed by remote_userland.sh: an -O2 function called N times. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long scale(long x)
{
	return 3 * x + 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1, sum = 0;

	for (long i = 1; i <= n; i++)
		sum += scale(i);
	printf("sum %ld\n", sum);
	return 0;
}
PROGRAM
gcc -g -O2 -o prog prog.c || fail "cannot build prog.c"
readelf -l prog | grep -q INTERP || fail "prog is not dynamically linked"
script='probe process("'"$PWD"'/prog").function("scale") { printf("scale(%d)\n", $x) }
probe process("'"$PWD"'/prog").library("libc.so.6").function("exit") { printf("exit(%d)\n", int_arg(1)) }'
expected_trace='scale(1)
scale(2)
scale(3)
exit(0)'

# One run: userland mode, kernel; checks stdout, -o's file, exit status.
check() {
	mode=$1 release=$2
	rm -f trace.txt
	STAPC_QEMU_USERLAND=$mode "$STAP" --remote=qemu:"$release" -o trace.txt -c './prog 3' -e "$script" \
		>out.txt 2>err.txt || fail "$mode on $release: exit $?: $(cat err.txt)"
	[ "$(cat out.txt)" = "sum 21" ] || fail "$mode on $release: program output: $(cat out.txt) $(cat err.txt)"
	[ -f trace.txt ] || fail "$mode on $release: -o trace.txt did not come back"
	[ "$(cat trace.txt)" = "$expected_trace" ] || fail "$mode on $release: trace.txt: $(cat trace.txt)"
}

check copy "$RELEASE"

# A kernel with the 9p modules and headers (Debian's generic kernel) for the host userland.
ninep_release
check host "$ninep"

# busybox: nothing of the host's; the program is not there, and the run says so.
if STAPC_QEMU_USERLAND=busybox "$STAP" --remote=qemu:"$RELEASE" -c './prog 3' -e "$script" >out.txt 2>err.txt; then
	fail "busybox: ./prog ran in a busybox-only guest: $(cat out.txt)"
fi
grep -q "prog" err.txt || fail "busybox: no message names the missing program: stderr: $(cat err.txt); stdout: $(cat out.txt)"
echo ok
