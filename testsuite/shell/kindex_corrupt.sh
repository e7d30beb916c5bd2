# A per-kernel index that is truncated, corrupt in a section or in its
# header, or not an index at all is detected and rebuilt, never trusted
# (issue 29): each damaged copy makes the next -p2 -v say "indexing kernel R
# (btf: the index was WHY)" (without -v or a terminal, building is silent), give the same output as without the index, and
# leave a good index behind (the run after it builds nothing).
fail() { echo "FAIL: $*"; exit 1; }
export STAPC_KINDEX_DIR="$PWD/kindex"
index="$STAPC_KINDEX_DIR/$RELEASE.btf.kix"
script='probe kernel.function("vfs_read") { printf("%d %d\n", pid(), $count) }'
p2() { "$STAP" -p2 -r "$RELEASE" --debuginfo=btf -e "$script"; }
p2v() { "$STAP" -v -p2 -r "$RELEASE" --debuginfo=btf -e "$script"; }
STAPC_KINDEX=off p2 > expected.out 2> expected.err || { cat expected.err; fail "-p2 without the index failed"; }
p2v > first.out 2> first.err || { cat first.err; fail "first -p2 failed"; }
grep -q "^stap: indexing kernel $RELEASE (btf) \.\.\.$" first.err || { cat first.err; fail "the first run built no index"; }
[ -s "$index" ] || fail "no index at $index"
cp "$index" good.kix
size=$(stat -c %s good.kix)
# damage NAME WHY: after the damage, a run rebuilds saying WHY, then a run uses the index quietly
damage() {
  p2v > "$1.out" 2> "$1.err" || { cat "$1.err"; fail "$1: -p2 failed"; }
  grep -q "^stap: indexing kernel $RELEASE (btf: the index was $2) \.\.\.$" "$1.err" ||
    { cat "$1.err"; fail "$1: the damage was not detected as '$2'"; }
  cmp -s "$1.out" expected.out || fail "$1: output differs from the run without the index"
  cmp -s good.kix "$index" || fail "$1: the rebuilt index differs from the first one"
  p2v > "$1.again.out" 2> "$1.again.err" || { cat "$1.again.err"; fail "$1: -p2 after the rebuild failed"; }
  grep -q "indexing kernel" "$1.again.err" && { cat "$1.again.err"; fail "$1: the rebuilt index was not used"; }
  cmp -s "$1.again.out" expected.out || fail "$1: output with the rebuilt index differs"
  echo "ok: $1 detected ($2) and rebuilt"
}
head -c $((size / 2)) good.kix > "$index"
damage truncated truncated
cp good.kix "$index"
printf '\377' | dd of="$index" bs=1 seek=$((size - 4096)) conv=notrunc 2>/dev/null
damage section "corrupt section"
cp good.kix "$index"
printf 'Z' | dd of="$index" bs=1 seek=40 conv=notrunc 2>/dev/null
damage header "corrupt header"
head -c "$size" /dev/zero > "$index"
damage zeros "not an index"
: > "$index"
damage empty empty
