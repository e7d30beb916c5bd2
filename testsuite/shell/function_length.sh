# No function in compiler/ is longer than 150 lines (issue 18): a function
# that long does several things, and the next change to it reads the whole.
# A function is a definition starting at column 0 whose body opens with a
# '{' line and closes with a '}' line at column 0 (the tree's style).
fail() { echo "FAIL: $*"; exit 1; }
limit=150
prog='/^[A-Za-z].*\(/ { name = $0; at = NR }
/^\{/ { start = NR }
/^\}/ && start { n = NR - start + 1; if (n > L) print F ":" at ": " n " lines: " substr(name, 1, 70); start = 0 }'
long=$(find "$SRCDIR/compiler" -name '*.c' | sort | while read -r f; do
	awk -v F="${f#$SRCDIR/}" -v L=$limit "$prog" "$f"
done)
[ -z "$long" ] || fail "functions over $limit lines:
$long"
# the same check finds a function one line too long
tmp=$(mktemp -d)
{ echo 'static void f(void)'; echo '{'; i=0; while [ $i -lt $((limit - 1)) ]; do echo '	x();'; i=$((i + 1)); done; echo '}'; } > "$tmp/t.c"
found=$(awk -v F=t.c -v L=$limit "$prog" "$tmp/t.c")
rm -rf "$tmp"
case "$found" in "t.c:1: 151 lines"*) ;; *) fail "self-check: expected t.c:1 at 151 lines, got '$found'" ;; esac
echo "ok: every function in compiler/ is at most $limit lines"
