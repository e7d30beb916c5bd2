# --debug (SystemTap 5.6) is its own option, not an abbreviation of
# --debuginfo: the module is built with full debug information (-g: the
# runtime's structures are in its DWARF, which the default -g1 leaves out),
# the build directory is kept and named on stderr, and pahole's layout of
# the module's structures is written beside it when pahole is installed. A
# plain build of the same script first fills the cache, which --debug does
# not take its module from.
fail() { echo "FAIL: $*"; exit 1; }
script='probe begin { printf("%d\n", 1); exit() }'
struct_names() { readelf --debug-dump=info "$1" | grep -A1 DW_TAG_structure_type | grep -c ': _stp_context$' || true; }

"$STAP" -p4 -r "$RELEASE" -m plain_t -e "$script" >/dev/null 2>plain.err || { cat plain.err; fail "plain -p4"; }
[ "$(struct_names plain_t.ko)" = 0 ] || fail "a plain build has the runtime's struct types (expected line tables only)"

"$STAP" --debug -p4 -r "$RELEASE" -m plain_t -e "$script" >/dev/null 2>debug.err || { cat debug.err; fail "--debug -p4"; }
cat debug.err
[ "$(struct_names plain_t.ko)" -ge 1 ] || fail "--debug: no DW_TAG_structure_type _stp_context in the module's DWARF"
dir=$(sed -n 's/^stap: --debug: .* built with -g; the build directory is kept: //p' debug.err)
[ -n "$dir" ] && [ -d "$dir" ] || fail "--debug did not name a kept build directory"
trap 'rm -rf "$dir"' EXIT
grep -qx "Keeping temporary directory \"$dir\"" debug.err || fail "no 'Keeping temporary directory' line"
for f in plain_t.c plain_t.o plain_t.mod.c build.log Kbuild; do
	[ -s "$dir/$f" ] || fail "--debug: $dir/$f is missing (the build was taken from the cache?)"
done
grep -qx 'ccflags-y += -g' "$dir/Kbuild" || fail "--debug: the Kbuild file does not ask for -g"
if command -v pahole >/dev/null; then
	grep -qx "stap: --debug: pahole's layout of the module's structures: $dir/plain_t.pahole" debug.err ||
		fail "pahole is installed but --debug did not report its layout"
	grep -q '^struct _stp_context {' "$dir/plain_t.pahole" || fail "pahole's layout has no struct _stp_context"
else
	grep -q "pahole is not installed" debug.err || fail "without pahole, --debug does not say so"
fi

# --debug at pass 2 is not --debuginfo (which would take "-p2" as its mode); --debu is ambiguous
"$STAP" --debug -p2 -e 'probe begin {}' >/dev/null 2>p2.err || { cat p2.err; fail "--debug -p2"; }
"$STAP" --debu -p2 -e 'probe begin {}' >/dev/null 2>ambiguous.err && fail "--debu was accepted"
grep -q "ambiguous" ambiguous.err || { cat ambiguous.err; fail "--debu: no 'ambiguous' message"; }
echo "ok"
