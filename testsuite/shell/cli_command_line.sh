# stap's command line as SystemTap's documentation writes it, run to pass 5 in a QEMU guest
# (--remote=qemu, busybox userland): options after the script file; -T ends the session and the
# end probes run; -c CMD is target() and is stopped with the session; -G sets a global at load;
# -o's file, named with strftime specifiers, comes back here. Then -x PID (SystemTap refuses -c with -x, and so does stap).
fail() { echo "FAIL: $*"; exit 1; }
cat > doc.stp <<'SCRIPT'
global x = 0, ticks
probe begin { printf("begin x=%d\n", x) }
probe timer.ms(100) { ticks++ }
probe end {
	printf("end x=%d target %s ticks %s\n", x, target() == 1 ? "1" : pid2execname(target()),
	       ticks >= 5 && ticks <= 40 ? "5-40" : sprint(ticks))
}
SCRIPT
start=$(date +%s)
STAPC_QEMU_USERLAND=busybox "$STAP" doc.stp -T 2 -c 'sleep 60' -G x=1 --remote=qemu:"$RELEASE" -o 'trace-%Y.txt' \
	> out.txt 2> err.txt || fail "-T 2 -c: exit $?: $(cat err.txt)"
took=$(( $(date +%s) - start ))
trace=trace-$(date +%Y).txt
[ -f "$trace" ] || fail "-o 'trace-%Y.txt' did not come back as $trace: $(ls) $(cat out.txt) $(cat err.txt)"
[ "$(cat "$trace")" = "begin x=1
end x=1 target sleep ticks 5-40" ] || fail "-T 2 -c: $trace: $(cat "$trace") $(cat err.txt)"
[ "$took" -lt 55 ] || fail "-T 2 did not end the session before 'sleep 60' ended ($took s)"
echo "ok: stap doc.stp -T 2 -c 'sleep 60' -G x=1 -o 'trace-%Y.txt' ($took s with the guest's boot)"

STAPC_QEMU_USERLAND=busybox "$STAP" doc.stp -x 1 --remote=qemu:"$RELEASE" -G x=2 -T 1 \
	> out.txt 2> err.txt || fail "-x 1 -T 1: exit $?: $(cat err.txt)"
[ "$(cat out.txt)" = "begin x=2
end x=2 target 1 ticks 5-40" ] || fail "-x 1 -T 1: $(cat out.txt) $(cat err.txt)"
echo "ok: stap doc.stp -x 1 -G x=2 -T 1"
