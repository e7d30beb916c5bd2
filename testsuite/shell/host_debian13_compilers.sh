# stapc builds without a warning with Debian 13's compilers, gcc 14 and clang 19, in the trixie
# toolchain root that .ci/kernels makes (.ci/releases: D13_ROOT; scripts/stap-in-root): each
# configures the tree with -DSTAPC_WERROR=ON and builds it, and its stap parses a script (issue
# 30: "Debian 13's and unstable's compilers"). gcc 14 builds Release too, as .ci/setup does on a
# Debian 13 machine: its -O3 saw a maybe-uninitialized that -O2 did not. A missing root or
# compiler fails: CI makes both.
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (scripts/stap-in-root chroots)"
. "$SRCDIR/.ci/releases"
. "$SRCDIR/testsuite/shell/lib/host_build.sh"
host_build gcc14 gcc-14 "$D13_ROOT"
host_build gcc14-release gcc-14 "$D13_ROOT" -DCMAKE_BUILD_TYPE=Release
host_build clang-trixie clang "$D13_ROOT"
"$SRCDIR/scripts/stap-in-root" "$D13_ROOT" sh -c 'gcc-14 --version | head -1; clang --version | head -1'
