# stapc builds with clang (Debian's, as .ci/setup installs it) without a warning: the tree is
# configured with CC=clang -DSTAPC_WERROR=ON and built, and its stap parses a script (issue 30,
# "The host side too"). A missing clang fails: it is part of the machine's setup.
fail() { echo "FAIL: $*"; exit 1; }
. "$SRCDIR/testsuite/shell/lib/host_build.sh"
host_build clang clang
clang --version | head -1
