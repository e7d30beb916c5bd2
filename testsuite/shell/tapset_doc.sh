# docs/tapset.md cannot drift from the tapset: the complete listing it points to,
# docs/tapset-reference.md, is what man/tapset-doc.py makes of the tapset's doc comments now
# (regenerated here and compared); it names every public function and probe alias stap
# knows; and every function the guide's tables name is one stap knows.
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || fail "python3 is not installed"
ref="$SRCDIR/docs/tapset-reference.md"
guide="$SRCDIR/docs/tapset.md"

# 1. The committed listing is the generated one.
python3 "$SRCDIR/man/tapset-doc.py" --tapset "$SRCDIR/tapset" --markdown reference.md ||
	fail "man/tapset-doc.py failed (a malformed doc comment?)"
cmp -s reference.md "$ref" || {
	diff -u "$ref" reference.md | head -20
	fail "docs/tapset-reference.md is stale: cmake --build build --target tapset-reference"
}

# 2. It lists every public function (NAME:TYPE( or NAME() and alias (`NAME`) stap knows.
"$STAP" --dump-functions | sed 's/[:( ].*//' | grep -v '^_' | sort -u > functions
[ "$(wc -l < functions)" -gt 300 ] || fail "--dump-functions listed only $(wc -l < functions)"
while read -r name; do
	grep -qE "^\| \`$name[:(]" reference.md || grep -qE "<br>\`$name[:(]" reference.md ||
		fail "function $name is not in docs/tapset-reference.md (no doc comment? see docs/internals.md)"
done < functions
"$STAP" --dump-probe-aliases | sed 's/ .*//' | grep -v '^_' |
	grep -v '^\(nd_\)\{0,1\}syscall[._]' | sort -u > aliases	# the kernel's calls: tapset::syscalls
[ "$(wc -l < aliases)" -gt 200 ] || fail "--dump-probe-aliases listed only $(wc -l < aliases)"
while read -r name; do
	grep -qF "\`$name\`" reference.md ||
		fail "probe alias $name is not in docs/tapset-reference.md (no doc comment? see docs/internals.md)"
done < aliases

# 3. The guide points at the listing, and names no function stap does not have (a
#    shorthand for a sibling, `_us()` after `gettimeofday_s()`, starts with '_').
grep -q '(tapset-reference.md)' "$guide" || fail "docs/tapset.md does not link to tapset-reference.md"
grep -o '^| `[^|]*|' "$guide" | grep -oE '`[a-zA-Z][a-zA-Z0-9_]*\(' | tr -d '`(' | sort -u > named
[ "$(wc -l < named)" -gt 100 ] || fail "docs/tapset.md's tables name only $(wc -l < named) functions"
comm -23 named functions > unknown
[ ! -s unknown ] || fail "docs/tapset.md names functions stap does not have: $(tr '\n' ' ' < unknown)"
exit 0
