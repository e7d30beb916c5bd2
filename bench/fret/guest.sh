#!/bin/sh
# guest.sh - bench/fret's guest side, run by stapvm --icount in /work.
#
#   sh guest.sh N GLOBS
#
# Prints one line per measurement (the guest clock counts instructions):
#   RESULT NAME calls C ns T hits H attach A detach D functions F
# for the bare getppid loop, a single kretprobe (floor_kret), fret on
# getppid alone, and fret on getppid plus every function matching GLOBS
# (A and D: insmod and rmmod, F: the functions hooked), then
#   SLEEPER ok|FAILED ...
# for an unload while a reader sleeps in a hooked pipe_read.

N=$1
GLOBS=$2
TRACING=/sys/kernel/debug/tracing

field() {
	echo "$2" | awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) { print $(i + 1); exit } }'
}

# run NAME MODULE [PARAM]: insmod timed, the loop, rmmod timed, hits from the log
run() {
	name=$1 mod=$2
	shift 2
	dmesg -c >/dev/null
	t0=$(./getppid_loop --now)
	insmod $mod.ko "$@" || { echo "FAILED $name insmod"; return; }
	t1=$(./getppid_loop --now)
	fns=$(grep -c . $TRACING/enabled_functions)
	r=$(./getppid_loop "$N")
	t2=$(./getppid_loop --now)
	rmmod $mod || { echo "FAILED $name rmmod"; return; }
	t3=$(./getppid_loop --now)
	log=$(dmesg | grep "$mod: ")
	echo "$log" >&2
	case $mod in
	fret) hits=$(echo "$log" | sed -n 's/.* \([0-9]*\) getppid .*/\1/p') ;;
	*) hits=$(echo "$log" | sed -n 's/.*: \([0-9]*\) hits.*/\1/p') ;;
	esac
	echo "RESULT $name calls $(field calls "$r") ns $(field ns "$r") hits ${hits:--1}" \
	     "attach $((t1 - t0)) detach $((t3 - t2)) functions $fns"
}

r=$(./getppid_loop "$N") || { echo "FAILED bare"; exit 1; }
echo "RESULT bare calls $(field calls "$r") ns $(field ns "$r") hits -1 attach 0 detach 0 functions 0"
run kret floor_kret
run fret1 fret globs=
run fretmany fret "globs=$GLOBS"

# An unload while one reader sleeps in pipe_read (under vfs_read, ksys_read)
# and another in a fifo's open: both must go on once data comes.
dmesg -c >/dev/null
insmod fret.ko "globs=$GLOBS" || { echo "SLEEPER FAILED insmod"; exit 0; }
mkfifo /tmp/fifo
(cat /tmp/fifo > /tmp/fifo.got) &
mkfifo /tmp/pipe
exec 3<>/tmp/pipe
(head -c 6 <&3 > /tmp/pipe.got) &
sleep 1
grep -q fret_trampoline /proc/$!/stack && in_pipe=yes || in_pipe=no
rmmod fret || { echo "SLEEPER FAILED rmmod"; exit 0; }
dmesg | grep "fret: " >&2
echo hello > /tmp/fifo
echo world >&3
wait
if [ "$(cat /tmp/fifo.got)" = hello ] && [ "$(cat /tmp/pipe.got)" = world ]; then
	echo "SLEEPER ok hijacked-before-unload $in_pipe"
else
	echo "SLEEPER FAILED fifo '$(cat /tmp/fifo.got)' pipe '$(cat /tmp/pipe.got)'"
fi
