# A TMPDIR that does not exist or is no directory stops stap at pass 1 with a clear message,
# before anything is written; --tmpdir is checked the same way.
fail() { echo "FAIL: $*"; exit 1; }
echo 'probe begin { println(1) }' >t.stp
for dir in "$PWD/no_such_dir" "$PWD/t.stp"; do
	TMPDIR=$dir "$STAP" -p1 t.stp >out 2>err && fail "TMPDIR=$dir was accepted"
	grep -q "^error: TMPDIR '$dir' cannot hold the temporary directory: " err || { cat err; fail "no message for $dir"; }
	grep -q '^Pass 1: failed.$' err || fail "not refused at pass 1"
	[ ! -s out ] || fail "pass 1 printed a script"
done
[ ! -e no_such_dir ] || fail "the missing TMPDIR was created"
"$STAP" -p1 --tmpdir "$PWD/no_such_dir" t.stp >/dev/null 2>err && fail "--tmpdir to a missing directory was accepted"
TMPDIR=$PWD "$STAP" -p1 t.stp >/dev/null || fail "a good TMPDIR was refused"
echo ok
