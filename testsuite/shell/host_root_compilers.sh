# stapc builds without a warning with Debian unstable's compilers, gcc-16 and clang, in the
# toolchain root that .ci/kernels makes for 7.2 (.ci/releases: K72_ROOT; scripts/stap-in-root):
# each configures the tree with -DSTAPC_WERROR=ON and builds it, and its stap parses a script
# (issue 30, "The host side too"). A missing root or compiler fails: CI makes both.
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (scripts/stap-in-root chroots)"
. "$SRCDIR/.ci/releases"
. "$SRCDIR/testsuite/shell/lib/host_build.sh"
host_build gcc16 gcc-16 "$K72_ROOT"
host_build clang-sid clang "$K72_ROOT"
"$SRCDIR/scripts/stap-in-root" "$K72_ROOT" sh -c 'gcc-16 --version | head -1; clang --version | head -1'
