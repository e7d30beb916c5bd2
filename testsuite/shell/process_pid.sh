# process(PID).function/.statement/.return/.statement(ADDRESS)[.absolute]: stap reads the program of a live process from
# /proc/PID/exe (it runs where the process does), resolves the points in it like
# process("path"), shows them as process(PID)..., and restricts the uprobes to that process
# (.pid in the generated table). With --remote or --sysroot, or a PID with no process, a
# pass-2 error says to name the program or use -x. At run time: a module built here for the
# host process's id runs in a guest (-p4 here, then --remote=qemu with the module) where the
# program starts a copy of itself under that id and another one: only the first fires.
fail() { echo "FAIL: $*"; exit 1; }
cat > pidprog.c <<'PROGRAM'
/*
 * Probed by process_pid.sh through its process id. With no argument it
 * waits (the host's live process). "spawn PID" (in the guest): starts a copy
 * of itself that gets process id PID (through ns_last_pid, retried until
 * nothing else took it) and another copy; each calls work() once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) int work(int n)
{
	return n + 1;
}

/* A child that execs "pidprog work" once *go is written to, or exits if it is closed. */
static pid_t start(int *go)
{
	int fds[2];
	pid_t p;
	char c;

	if (pipe(fds))
		exit(4);
	p = fork();
	if (p == 0) {
		close(fds[1]);
		if (read(fds[0], &c, 1) == 1)
			execl("/proc/self/exe", "pidprog", "work", (char *)NULL);
		_exit(1);
	}
	close(fds[0]);
	*go = fds[1];
	return p;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "work"))
		return work(0) == 1 ? 0 : 1;
	if (argc > 2 && !strcmp(argv[1], "spawn")) {
		long want = atol(argv[2]);
		pid_t first = -1, other;
		int go = -1, go2, i;

		for (i = 0; i < 100 && first != want; i++) {
			FILE *f = fopen("/proc/sys/kernel/ns_last_pid", "w");

			if (!f)
				return 2;
			fprintf(f, "%ld", want - 1);
			fclose(f);
			first = start(&go);
			if (first != want) {
				close(go);
				waitpid(first, NULL, 0);
			}
		}
		if (first != want)
			return 3;
		other = start(&go2);
		if (write(go, "g", 1) != 1 || write(go2, "g", 1) != 1)
			return 5;
		waitpid(first, NULL, 0);
		waitpid(other, NULL, 0);
		printf("started %ld and another\n", want);
		return 0;
	}
	for (;;)
		pause();
	return work(0);
}
PROGRAM
gcc -g -O0 -o pidprog pidprog.c
./pidprog & pid=$!
trap 'kill $pid 2>/dev/null' EXIT
here=$(pwd -P)

wl=$(grep -n "^__attribute__((noinline)) int work" pidprog.c | cut -d: -f1)
printf 'probe process(%d).function("work") { println($n) }\nprobe process(%d).function("work").return { println($return) }\nprobe process(%d).statement("work@pidprog.c:%d") { }\n' \
  $pid $pid $pid $((wl + 2)) > pid.stp
"$STAP" -p2 -r "$RELEASE" pid.stp > pid.p2 2>&1 || { cat pid.p2; fail "process($pid).function at pass 2"; }
for point in "process($pid).function(\"work@pidprog.c:$wl\")" "process($pid).function(\"work@pidprog.c:$wl\").return" \
             "process($pid).statement(\"work@pidprog.c:$((wl + 2))\")"; do
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

# at run time: the module built here runs in a guest, where a copy of the program gets the
# host process's id and another copy does not; both call work(), the probe fires in the first
cat > run.stp <<STP
global all, mine
probe process("$here/pidprog").function("work") { all++ }
probe process($pid).function("work") { mine++; printf("work in process %d\\n", pid()) }
probe end { printf("work calls: %d, in process($pid): %d\\n", all, mine) }
STP
mkdir guest
"$STAP" -p4 -r "$RELEASE" -m pidrun run.stp > build.out 2>&1 || { cat build.out; fail "building run.stp"; }
mv pidrun.ko guest/
"$BUILD/bin/stapvm" -r "$RELEASE" --userland=copy --file "$here/pidprog" -d guest -- \
  staprun -c "$here/pidprog spawn $pid" pidrun.ko > run.out 2> run.err || { cat run.out run.err; fail "the guest run exited $?"; }
expected="started $pid and another
work calls: 2, in process($pid): 1
work in process $pid"
[ "$(sort run.out)" = "$expected" ] || { cat run.out run.err; fail "unexpected output of the guest run"; }
