# One script per run, as SystemTap: a second -e is refused before any pass runs.
fail() { echo "FAIL: $*"; exit 1; }

"$STAP" -p1 -e 'probe begin { }' -e 'probe end { }' >out 2>err && fail "two -e scripts were accepted"
[ "$(cat err)" = "stap: only one script may be given with -e" ] || fail "unclear error: $(cat err)"
[ -s out ] && fail "a pass ran: $(cat out)"
exit 0
