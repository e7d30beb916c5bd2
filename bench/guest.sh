#!/bin/sh
# guest.sh - the benchmark's guest side, run by stapvm --icount in /work.
#
#   sh guest.sh N CASE...
#
# For the bare syscall, the floor modules (kprobe and ftrace) and each
# CASE (CASE.ko beside this script), runs getppid_loop N and prints one line
#   RESULT NAME calls C ns T extra X hits H lines L ftrace F attach A detach D
# T the guest instructions the loop took, X what stapio spent after the
# loop draining its output (printf case), H the probe hits the module
# reported (-1: not reported), L the output lines of the loop's pid that
# arrived (-1: not a printing case), F 1 if the probe was hooked through
# ftrace directly, 0 through a kprobe, A the guest ns from starting
# staprun to the probe on getppid being live (polled every 10 ms), D from
# the SIGINT to staprun's exit (0 for the floors). A case whose module fails prints
#   FAILED NAME reason
# Everything else goes to stderr.

N=$1
shift

TRACING=/sys/kernel/debug/tracing

# Whether getppid is hooked by stapc's own ftrace ops (_stp_ftrace_K, or the shared _stp_fentry_call).
hooked_ftrace() {
	grep "sys_getppid" $TRACING/enabled_functions 2>/dev/null | grep -q "_stp_ftrace_\|_stp_fentry_call"
}

# Wait (at most ~30 s of guest time) until the probe on getppid is live:
# an enabled kprobe, or stapc's ftrace hook.
wait_probe() {
	i=0
	while ! grep "sys_getppid+0x0" /sys/kernel/debug/kprobes/list 2>/dev/null | grep -qv DISABLED &&
	      ! hooked_ftrace; do
		i=$((i + 1))
		[ $i -gt 3000 ] && return 1
		usleep 10000
	done
	return 0
}

# Lines "PID getppid_loop" in FILE.
count_lines() {
	grep -c "^$1 getppid_loop\$" "$2" 2>/dev/null || true
}

# field NAME LINE: the value after NAME in "k v k v ..." LINE.
field() {
	echo "$2" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'
}

set -- bare floor floor_ftrace "$@"
for name in "$@"; do
	case $name in
	bare)
		r=$(./getppid_loop "$N") || { echo "FAILED bare getppid_loop"; continue; }
		echo "RESULT bare calls $(field calls "$r") ns $(field ns "$r") extra 0 hits -1 lines -1 ftrace 0 attach 0 detach 0"
		;;
	floor | floor_ftrace)
		dmesg -c >/dev/null
		insmod $name.ko || { echo "FAILED $name insmod"; continue; }
		r=$(./getppid_loop "$N")
		rmmod $name
		hits=$(dmesg | sed -n "s/.*$name: \([0-9]*\) hits.*/\1/p")
		ft=0
		[ $name = floor_ftrace ] && ft=1
		echo "RESULT $name calls $(field calls "$r") ns $(field ns "$r") extra 0 hits ${hits:--1} lines -1 ftrace $ft attach 0 detach 0"
		;;
	*)
		out=/tmp/$name.out
		rm -f "$out"
		t0=$(./getppid_loop --now)
		staprun -o "$out" "$name.ko" 2>/tmp/$name.err &
		run=$!
		if [ "${name#syscalls}" != "$name" ]; then
			# a tracepoint (syscall.*): nothing to poll for; registering
			# takes far less than this
			sleep 2
		elif ! wait_probe; then
			kill -INT $run 2>/dev/null; wait $run
			echo "FAILED $name the probe never registered: $(head -c 300 /tmp/$name.err | tr '\n' ' ')"
			continue
		fi
		attach=$(($(./getppid_loop --now) - t0))
		sleep 0.2	# registration precedes the switch to RUNNING by a few instructions
		ft=0
		hooked_ftrace && ft=1
		stapio=$(pidof stapio)
		r=$(./getppid_loop "$N" "$stapio")
		pid=$(field pid "$r")
		extra=0
		lines=-1
		case $name in
		printf*)
			# Let stapio drain: its CPU time after the loop is part of the cost.
			i=0
			while [ "$(count_lines "$pid" "$out")" -lt "$N" ] && [ $i -lt 600 ]; do
				sleep 0.1
				i=$((i + 1))
			done
			after=$(./getppid_loop --cpu "$stapio")
			extra=$((after - $(field cpu_at_end "$r")))
			lines=$(count_lines "$pid" "$out")
			;;
		esac
		t0=$(./getppid_loop --now)
		kill -INT $run
		wait $run
		status=$?
		detach=$(($(./getppid_loop --now) - t0))
		# A global written and never read is printed at the end: n=COUNT.
		hits=$(sed -n 's/^n=\([0-9]*\)$/\1/p' "$out")
		if [ $status -ne 0 ]; then
			echo "FAILED $name staprun exit status $status: $(head -c 300 /tmp/$name.err | tr '\n' ' ')"
			continue
		fi
		echo "RESULT $name calls $(field calls "$r") ns $(field ns "$r") extra $extra hits ${hits:--1} lines $lines ftrace $ft attach $attach detach $detach"
		;;
	esac
done
