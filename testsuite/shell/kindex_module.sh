# A kernel module's debuginfo is indexed once per module too (issue 29):
# -p2 of a module("nf_tables") probe builds its indexes (symbols, exports,
# BTF, and DWARF where $RELEASE's -dbg package has the module), says so with
# -v, builds nothing on the next run, and prints exactly what it prints with
# the index off, for a probe that resolves and for a function that does not
# exist; a damaged module index is detected and rebuilt.
fail() { echo "FAIL: $*"; exit 1; }
export STAPC_KINDEX_DIR="$PWD/kindex"
m=nf_tables
grep -q "/$m\.ko" "/lib/modules/$RELEASE/modules.dep" ||
  fail "$RELEASE has no module $m in /lib/modules/$RELEASE/modules.dep: this test needs one"
good="probe module(\"$m\").function(\"nft_do_chain\") { printf(\"%p\\n\", \$pkt) }"
missing="probe module(\"$m\").function(\"no_such_function_kindex\") { }"
# same NAME MODE SCRIPT: -p2 with the index (built, then warm) says what it says without one
same() {
  rc=0; STAPC_KINDEX=off "$STAP" -p2 -r "$RELEASE" --debuginfo=$2 -e "$3" > "$1.off" 2>&1 || rc=$?
  echo "exit $rc" >> "$1.off"
  rc=0; "$STAP" -p2 -r "$RELEASE" --debuginfo=$2 -e "$3" > "$1.on" 2>&1 || rc=$?
  echo "exit $rc" >> "$1.on"
  cmp -s "$1.off" "$1.on" || { diff "$1.off" "$1.on"; fail "$1: -p2 differs with the index"; }
  "$STAP" -v -p2 -r "$RELEASE" --debuginfo=$2 -e "$3" > /dev/null 2> "$1.warm" || true
  grep -q "indexing kernel" "$1.warm" && { cat "$1.warm"; fail "$1: a warm run built an index"; }
  echo "ok: $1"
}
"$STAP" -v -p2 -r "$RELEASE" --debuginfo=btf -e "$good" > first.out 2> first.err ||
  { cat first.err; fail "-p2 of a probe on $m failed"; }
for kind in symbols exports btf; do
  grep -q "^stap: indexing kernel $RELEASE ($kind-module-$m) \.\.\.$" first.err ||
    { cat first.err; fail "the first run built no $kind index of $m"; }
  [ -s "$STAPC_KINDEX_DIR/$RELEASE.$kind-module-$m.kix" ] || fail "no $kind index of $m in $STAPC_KINDEX_DIR"
done
grep -q "^module(\"$m\").function(\"nft_do_chain" first.out || { cat first.out; fail "the probe was not resolved"; }
same btf btf "$good"
same btf_missing btf "$missing"
grep -q "no_such_function_kindex" btf_missing.on || fail "no error for a missing function"
if ls /usr/lib/debug/lib/modules/"$RELEASE"/kernel/net/netfilter/$m.ko > /dev/null 2>&1; then
  "$STAP" -v -p2 -r "$RELEASE" --debuginfo=dwarf -e "$good" > /dev/null 2> dwarf_first.err ||
    { cat dwarf_first.err; fail "-p2 --debuginfo=dwarf of a probe on $m failed"; }
  grep -q "^stap: indexing kernel $RELEASE (dwarf-module-$m) \.\.\.$" dwarf_first.err ||
    { cat dwarf_first.err; fail "the first DWARF run built no DWARF index of $m"; }
  same dwarf dwarf "$good"
  same dwarf_missing dwarf "$missing"
else
  echo "note: $RELEASE has no DWARF of $m: its DWARF index is not checked"
fi
index="$STAPC_KINDEX_DIR/$RELEASE.btf-module-$m.kix"
head -c $(($(stat -c %s "$index") / 2)) "$index" > half.kix && cp half.kix "$index"
"$STAP" -v -p2 -r "$RELEASE" --debuginfo=btf -e "$good" > damaged.out 2> damaged.err
grep -q "^stap: indexing kernel $RELEASE (btf-module-$m: the index was truncated) \.\.\.$" damaged.err ||
  { cat damaged.err; fail "a truncated module index was not detected"; }
STAPC_KINDEX=off "$STAP" -p2 -r "$RELEASE" --debuginfo=btf -e "$good" > damaged.off 2>/dev/null
cmp -s damaged.out damaged.off || fail "output after rebuilding a damaged module index differs"
same rebuilt btf "$good"
