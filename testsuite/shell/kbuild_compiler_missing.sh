# A kernel built with a compiler the host lacks (bullseye's 5.10 wants gcc-10; bookworm's arm64
# kernel, cross-built on Debian 13, the cross gcc-12) fails pass 4 before make, naming the
# compiler (CONFIG_CC_VERSION_TEXT's first word, after the cross prefix) and its Debian package,
# and leaves no module behind; -B CC=... overrides it, as it does kbuild's choice.
fail() { echo "FAIL: $*"; exit 1; }
mkdir -p tree/include/config
echo 'all:' > tree/Makefile
echo 'CONFIG_CC_VERSION_TEXT="gcc-99 (Debian 99.1-1) 99.1"' > tree/include/config/auto.conf
"$STAP" -p4 -m m -r "$PWD/tree" -e 'probe begin { exit() }' > out 2> err && fail "pass 4 succeeded without gcc-99"
grep -qxF "stap: kernel $PWD/tree is built with gcc-99, which is not installed here (apt-get install gcc-99)" err ||
  { cat err; fail "no message naming gcc-99"; }
[ ! -e m.ko ] || fail "a module was left behind"
"$STAP" -a arm64 -p4 -m m -r "$PWD/tree" -e 'probe begin { exit() }' > out 2> err && fail "arm64: pass 4 succeeded"
grep -qF "is built with aarch64-linux-gnu-gcc-99, which is not installed here (apt-get install gcc-99-aarch64-linux-gnu)" err ||
  { cat err; fail "arm64: no message naming the cross compiler's package"; }
# -B CC=...: the user's compiler; then make itself runs (this tree's Makefile builds nothing)
"$STAP" -p4 -m m -r "$PWD/tree" -B CC=gcc -e 'probe begin { exit() }' > out 2> err || :
if grep -q "is built with" err; then cat err; fail "-B CC=gcc still checked the kernel's compiler"; fi
