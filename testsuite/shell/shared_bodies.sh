# Each body is generated once (compiler/translate.c, share_bodies): a
# wildcard over every function of fs/ whose body reads $return compiles a
# handful of C functions, not one per function, and its C stays small
# (it was 7,648 bodies and 20 MB). Probes whose code differs keep their
# own: rw_verify_area's $count is its fourth argument, vfs_read's and
# vfs_write's their third (run/shared_bodies runs this in a guest).
fail() { echo "FAIL: $*"; exit 1; }
r=$RELEASE
if [ ! -f "/usr/lib/debug/boot/vmlinux-$r" ]; then
  # the run kernel has no DWARF (the RT kernel): any installed kernel that has it
  r=$(ls /usr/lib/debug/boot/ 2>/dev/null | sed -n 's/^vmlinux-//p' | head -1)
  [ -n "$r" ] || fail "no kernel with DWARF (linux-image-RELEASE-dbg) is installed"
fi

cat > fs.stp <<'STP'
probe kernel.function("*@fs/*").call ?, kernel.function("*@fs/*").return ?
{
	if (@defined($return))
		ret = $return
	printf("%s%s %d\n", indent(is_return() ? -1 : 1), ppfunc(), ret)
}
STP
"$STAP" -p3 -r "$r" fs.stp > fs.c 2> fs.err || { cat fs.err; fail "-p3 of the fs/ wildcard"; }
rows=$(grep -c '^	{ .body = probe_' fs.c)
bodies=$(grep -c '^static void notrace probe_[0-9]*(' fs.c)
size=$(wc -c < fs.c)
[ "$rows" -ge 3000 ] || fail "only $rows probe rows for the fs/ wildcard"
[ "$bodies" -ge 2 ] && [ "$bodies" -le 12 ] || fail "$bodies probe bodies for $rows rows"
[ "$size" -le 4000000 ] || fail "$size bytes of C for $rows rows and $bodies bodies"
# every row names a body that is defined, and every body serves a row
sed -n 's/^	{ .body = \(probe_[0-9]*\),.*/\1/p' fs.c | sort -u > used
sed -n 's/^static void notrace \(probe_[0-9]*\)(.*/\1/p' fs.c | sort -u > defined
cmp -s used defined || { diff used defined | head; fail "rows and bodies differ"; }

cat > rw.stp <<'STP'
probe kernel.function("vfs_read"), kernel.function("vfs_write"), kernel.function("rw_verify_area") {
	printf("%s %d\n", ppfunc(), $count)
}
STP
"$STAP" -p3 -r "$r" rw.stp > rw.c || fail "-p3 of rw.stp"
body() { sed -n "s/^	{ .body = \(probe_[0-9]*\), .pp = \"kernel.function(\\\\\"$1@.*/\1/p" rw.c; }
read=$(body vfs_read) write=$(body vfs_write) verify=$(body rw_verify_area)
[ -n "$read" ] && [ -n "$write" ] && [ -n "$verify" ] || fail "rows missing: '$read' '$write' '$verify'"
[ "$read" = "$write" ] || fail "vfs_read ($read) and vfs_write ($write) do not share their body"
[ "$read" != "$verify" ] || fail "rw_verify_area shares vfs_read's body ($read), but reads \$count elsewhere"
grep -q "^static void notrace $verify(" rw.c || fail "$verify is not defined"
exit 0
