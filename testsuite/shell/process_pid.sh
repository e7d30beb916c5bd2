# process(PID).function/.statement/.return/.statement(ADDRESS)[.absolute]: stap reads the program of a live process from
# /proc/PID/exe (it runs where the process does), resolves the points in it like
# process("path"), shows them as process(PID)..., and restricts the uprobes to that process
# (.pid in the generated table). With --remote or --sysroot, or a PID with no process, a
# pass-2 error says to name the program or use -x.
fail() { echo "FAIL: $*"; exit 1; }
cat > pidprog.c <<'PROGRAM'
/* Probed by process_pid.sh through its process id. */
#include <unistd.h>

__attribute__((noinline)) int work(int n)
{
	return n + 1;
}

int main(void)
{
	for (;;)
		pause();
	return work(0);
}
PROGRAM
gcc -g -O0 -o pidprog pidprog.c
./pidprog & pid=$!
trap 'kill $pid 2>/dev/null' EXIT
here=$(pwd -P)

printf 'probe process(%d).function("work") { println($n) }\nprobe process(%d).function("work").return { println($return) }\nprobe process(%d).statement("work@pidprog.c:6") { }\n' \
  $pid $pid $pid > pid.stp
"$STAP" -p2 -r "$RELEASE" pid.stp > pid.p2 2>&1 || { cat pid.p2; fail "process($pid).function at pass 2"; }
for point in "process($pid).function(\"work@pidprog.c:4\")" "process($pid).function(\"work@pidprog.c:4\").return" \
             "process($pid).statement(\"work@pidprog.c:6\")"; do
  grep -qF "$point /*" pid.p2 || { cat pid.p2; fail "no $point at pass 2"; }
done
work=$(nm pidprog | awk '$3 == "work" { print $1 }' | sed 's/^0*//')
printf 'probe process(%d).statement(0x%s) { }\nprobe process(%d).statement(0x%s).absolute { }\n' $pid $work $pid $work > addr.stp
"$STAP" -g -p2 -r "$RELEASE" addr.stp > addr.p2 2>&1 || { cat addr.p2; fail "process($pid).statement(0x$work) at pass 2"; }
for point in "process($pid).statement(0x$work) /*" "process($pid).statement(0x$work).absolute /*"; do
  grep -qF "$point" addr.p2 || { cat addr.p2; fail "no $point at pass 2"; }
done
"$STAP" -p3 -r "$RELEASE" pid.stp > pid.c 2>&1 || { cat pid.c; fail "process($pid).function at pass 3"; }
n=$(grep -c "\.path = \"$here/pidprog\",.*\.pid = $pid }" pid.c)
[ "$n" = 3 ] || { grep -n "\.pid = " pid.c; fail "expected 3 uprobes on $here/pidprog restricted to $pid, found $n"; }

# where stap cannot see the process
expect_error() {
  "$STAP" -p2 -r "$RELEASE" "$@" > err.out 2>&1 && fail "accepted: $*"
  grep -qF "$want" err.out || { cat err.out; fail "$*: no error saying '$want'"; }
  grep -q "use process.function with -x PID" err.out || { cat err.out; fail "$*: the error does not suggest -x"; }
}
want="but the probes run on a --remote target" expect_error --remote=ssh://nohost.invalid pid.stp
want="but the target's files are under --sysroot" expect_error --sysroot=/ pid.stp
sh -c 'exit 0' & gone=$!; wait $gone
printf 'probe process(%d).function("work") { }\n' $gone > gone.stp
want="no process $gone whose program stap can read on this machine" expect_error gone.stp
