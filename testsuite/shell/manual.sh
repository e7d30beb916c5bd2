# The manual: every page renders without a groff warning and has a NAME line
# lexgrog (mandb) reads; every public function and alias stap lists has its
# page; docs/tapset-reference.md is what the tapset's doc comments give now;
# each "see man X" in stap's sources names a page that exists; stap-prep
# reports what a release needs.
fail() { echo "FAIL: $*"; exit 1; }
for tool in groff lexgrog python3; do
	command -v $tool >/dev/null || fail "$tool is not installed (.ci/setup installs groff-base, man-db, python3)"
done
gen="$BUILD/man/man3"
[ -f "$gen/stapfuncs.3stap" ] || fail "no generated pages in $gen (the man target builds them)"

# 1. Every page: no warning from groff -ww, a NAME section lexgrog can read.
pages=0
for page in "$SRCDIR"/man/*.1 "$SRCDIR"/man/*.8 "$SRCDIR"/man/*.3stap "$SRCDIR"/man/*.7stap "$gen"/*.3stap; do
	out=$(groff -ww -z -man "$page" 2>&1) || fail "groff failed on $page: $out"
	[ -z "$out" ] || fail "groff warns on $page: $out"
	lexgrog "$page" >/dev/null 2>&1 || fail "lexgrog cannot read the NAME of $page"
	pages=$((pages + 1))
done
[ "$pages" -gt 600 ] || fail "only $pages pages"
# man -l renders one (the pager is cat; warnings go to stderr).
out=$(MANPAGER=cat MANWIDTH=80 man -l "$gen/function::ctime.3stap" 2>&1 >/dev/null)
[ -z "$out" ] || fail "man -l warns: $out"
MANPAGER=cat man -l "$gen/function::ctime.3stap" 2>/dev/null | grep -q 'ctime:string(epochsecs:long)' ||
	fail "function::ctime does not show its synopsis"

# 2. A page for each public function and probe alias stap knows.
"$STAP" --dump-functions | sed 's/:.*//' | grep -v '^_' | sort -u > functions
[ "$(wc -l < functions)" -gt 300 ] || fail "--dump-functions listed only $(wc -l < functions)"
while read -r name; do
	[ -f "$gen/function::$name.3stap" ] || fail "function $name has no page (no doc comment in the tapset's format? see docs/internals.md)"
done < functions
"$STAP" --dump-probe-aliases | sed 's/ .*//' | grep -v '^_' |
	grep -v '^\(nd_\)\{0,1\}syscall[._]' | sort -u > aliases	# the kernel's calls: tapset::syscalls
[ "$(wc -l < aliases)" -gt 200 ] || fail "--dump-probe-aliases listed only $(wc -l < aliases)"
while read -r name; do
	[ -f "$gen/probe::$name.3stap" ] || fail "probe alias $name has no page (no doc comment in the tapset's format? see docs/internals.md)"
done < aliases
grep -q 'function::ctime' "$gen/stapfuncs.3stap" || fail "stapfuncs does not list ctime"
grep -q 'tapset::vfs' "$gen/stapprobes.3stap" || fail "stapprobes does not list the vfs aliases"
grep -q 'opens.stp' "$gen/stapex.3stap" || fail "stapex does not show examples/opens.stp"

# 3. The committed Markdown reference is the generated one.
python3 "$SRCDIR/man/tapset-doc.py" --tapset "$SRCDIR/tapset" --markdown reference.md
cmp -s reference.md "$SRCDIR/docs/tapset-reference.md" || {
	diff -u "$SRCDIR/docs/tapset-reference.md" reference.md | head -20
	fail "docs/tapset-reference.md is stale: cmake --build build --target tapset-reference"
}

# 4. Each page a message points at exists.
grep -rhoE 'see man (error|warning)::[a-z0-9-]+' "$SRCDIR/compiler" "$SRCDIR/runtime" "$SRCDIR/staprun" \
	"$SRCDIR/stapio" | sed 's/see man //' | sort -u > pointed
[ "$(wc -l < pointed)" -ge 5 ] || fail "only $(wc -l < pointed) messages point at a page"
while read -r name; do
	[ -f "$SRCDIR/man/$name.7stap" ] || fail "a message points at man $name, which does not exist"
done < pointed
# and stap's own message carries the pointer.
"$STAP" -p2 -e 'probe nosuch.point { }' 2>err && fail "an unknown probe point passed"
grep -q 'see man error::pass2' err || fail "the pass-2 error does not point at error::pass2: $(cat err)"

# 5. stap-prep: the headers of $RELEASE are installed; a made-up release lacks everything.
"$SRCDIR/scripts/stap-prep" -r "$RELEASE" > prep.out || fail "stap-prep -r $RELEASE: $(cat prep.out)"
grep -q "^ok  *linux-headers-$RELEASE" prep.out || fail "stap-prep did not find the headers: $(cat prep.out)"
"$SRCDIR/scripts/stap-prep" -r 0.0-none --dwarf --qemu > prep.out && fail "stap-prep passed a release that has nothing"
grep -q '^missing  *linux-headers-0.0-none' prep.out || fail "stap-prep: $(cat prep.out)"
grep -q '^missing  *linux-image-0.0-none-dbg' prep.out || fail "stap-prep --dwarf: $(cat prep.out)"
grep -q '^missing  *linux-image-0.0-none$' prep.out || fail "stap-prep --qemu: $(cat prep.out)"
"$SRCDIR/scripts/stap-prep" --bogus 2>/dev/null && fail "stap-prep took a bad option"
[ $? -eq 2 ] || fail "stap-prep: a bad option must exit 2"
exit 0
