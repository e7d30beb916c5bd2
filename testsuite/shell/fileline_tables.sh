# The source-line tables of symfileline & co at pass 3 (compiler/translate/klines.c,
# compiler/translate/usyms.c), without booting a guest: with the kernel's DWARF the
# module carries the rows of the probed function and of its source file,
# bounded, and where every function of the kernel's .text starts (vfs_read's
# entry checked against addr2line); with --debuginfo=btf none (the functions answer in hex); a
# program built without .eh_frame for its code unwinds by its .debug_frame;
# a script that asks for no lines gets no line table.
fail() { echo "FAIL: $*"; exit 1; }

cat > k.stp <<'STP'
probe kernel.function("vfs_read") { printf("%s\n", symfileline(addr())) }
STP
"$STAP" -p3 -r "$RELEASE" k.stp > k.c || fail "-p3 with DWARF"
if [ -d "/usr/lib/debug/lib/modules/$RELEASE" ] || [ -f "/usr/lib/debug/boot/vmlinux-$RELEASE" ]; then
  grep -q '^#define STP_HAVE_KLINES 1' k.c || fail "no kernel line table with DWARF"
  grep -q '{"kernel", "vfs_read", ' k.c || fail "vfs_read is not in the table"
  grep -q '"fs/read_write.c",' k.c || fail "fs/read_write.c is not among the files"
  rows=$(awk '/_stp_klines\[\] = \{/,/^\};/' k.c | grep -c '^	{0x')
  [ "$rows" -gt 100 ] && [ "$rows" -le 32768 ] || fail "$rows kernel line rows"
  starts=$(sed -n 's/^#define STP_NR_KSTARTS //p' k.c)
  [ "$starts" -gt 20000 ] || fail "$starts kernel function starts"
  vmlinux=/usr/lib/debug/boot/vmlinux-$RELEASE
  if [ -f "$vmlinux" ]; then
    # decode the start tables (runtime_api.h) for vfs_read's link address
    vr=$(nm "$vmlinux" | awk '$3 == "vfs_read" { print $1 }')
    start=$(python3 - "$vr" "$vmlinux" k.c <<'PY'
import re, subprocess, sys
c = open(sys.argv[3]).read()
def table(name):
    return [int(x, 0) for x in re.findall(r'(0x[0-9a-f]+|\d+)', re.search(name + r'\[\] = \{(.*?)\n\};', c, re.S).group(1))]
files = re.findall(r'"(.*)",', re.search(r'_stp_kline_files\[\] = \{(.*?)\n\};', c, re.S).group(1))
deltas, lines, runs = table('_stp_kstart_deltas'), table('_stp_kstart_lines'), table('_stp_kstart_runs')
blocks = table('_stp_kstart_blocks')
anchor = int(re.search(r'#define STP_KSTART_ANCHOR (0x[0-9a-f]+)', c).group(1), 16)
syms = subprocess.run(['nm', sys.argv[2]], capture_output=True, text=True).stdout
ss = int(re.search(r'^([0-9a-f]+) T sprint_symbol$', syms, re.M).group(1), 16)
want = int(sys.argv[1], 16) - (ss - anchor)
starts = {blocks[k + 1]: blocks[k] for k in range(0, len(blocks), 2)}
at = None
for i in range(len(deltas)):
    at = starts[i] if i in starts else at + deltas[i]
    if at == want:
        f = max(r for r in runs if r >> 14 <= i) & 0x3fff
        print('%s:%d' % (files[f], lines[i]))
PY
)
    want=$(addr2line -e "$vmlinux" "0x$vr" | sed 's#.*/\(fs/[^:]*\):\([0-9]*\).*#\1:\2#')
    [ "$start" = "$want" ] || fail "vfs_read starts at '$start', not $want"
  fi
fi
cat > k0.stp <<'STP'
probe kernel.function("vfs_read") { print_backtrace() }
STP
"$STAP" -p3 -r "$RELEASE" k0.stp > k0.c || fail "-p3 without lines"
grep -q 'STP_HAVE_KLINES' k0.c && fail "a kernel line table nobody asked for"
"$STAP" -p3 -r "$RELEASE" --debuginfo=btf k.stp > kb.c || fail "-p3 with BTF"
grep -q 'STP_HAVE_KLINES' kb.c && fail "a kernel line table from BTF"

cat > prog.c <<'C'
__attribute__((noinline)) int leaf(int x) { return x * 3; }
int main(void) { return leaf(1) == 3 ? 0 : 1; }
C
gcc -g -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables -o prog prog.c || fail "gcc"
leaf=$(nm prog | awk '$3 == "leaf" { sub(/^0+/, "", $1); print $1 }')
cat > u.stp <<STP
probe process("$PWD/prog").function("leaf") { printf("%s\n", usymfileline(uaddr())) }
STP
"$STAP" -p3 -r "$RELEASE" u.stp > u.c || fail "-p3 of the user script"
grep -q '_stp_ulines_0\[\] = {' u.c || fail "no user line table"
grep -q "\"[^\"]*prog.c\"," u.c || fail "prog.c is not among the files"
grep -q "{0x${leaf}ULL, 8, STP_UCFA_SP, 0, 0, -8}," u.c || fail "leaf (at 0x$leaf) has no .debug_frame row"
cat > n.stp <<STP
probe process("$PWD/prog").function("leaf") { printf("%s\n", usymname(uaddr())) }
STP
"$STAP" -p3 -r "$RELEASE" n.stp > n.c || fail "-p3 without lines"
grep -q '_stp_ulines_' n.c && fail "a user line table nobody asked for"
exit 0
