# host_build.sh - sourced: host_build NAME CC [ROOT [CMAKE-ARG]...] configures and builds this
# tree into ./NAME with compiler CC and -DSTAPC_WERROR=ON (every compiler warning an error), inside
# the toolchain root ROOT when not empty (scripts/stap-in-root), with the further cmake arguments
# (-DCMAKE_BUILD_TYPE=Release), and checks the stap it made parses a script. The
# linker's notes on the static staprun's libcrypto (getaddrinfo, dlopen) are glibc's, not ours.
host_build() {
	name=$1 cc=$2 root=${3:-}
	shift $(($# < 3 ? $# : 3))
	if [ -n "$root" ]; then
		[ -x "$root/usr/bin/make" ] || fail "no toolchain root at $root (.ci/kernels makes it: scripts/stap-toolchain-root)"
		[ -x "$root/usr/bin/$cc" ] || fail "$cc is not in $root (scripts/stap-toolchain-root installs it)"
		run="$SRCDIR/scripts/stap-in-root $root"
	else
		command -v "$cc" >/dev/null || fail "$cc is not installed (.ci/setup installs it)"
		run=
	fi
	mkdir -p "$name"
	$run sh -c 'cd "$1" && cc=$2 src=$3 && shift 3 && CC=$cc cmake -S "$src" -B . -DSTAPC_WERROR=ON "$@" >configure.log 2>&1' \
		sh "$PWD/$name" "$cc" "$SRCDIR" "$@" || { tail -30 "$name/configure.log"; fail "$cc: cmake could not configure the tree"; }
	$run sh -c 'cd "$1" && cmake --build . -j"$(nproc)" >build.log 2>&1' sh "$PWD/$name" || {
		grep -B2 -A6 -E 'error|warning:' "$name/build.log" | head -80
		fail "$cc: the tree does not build with -DSTAPC_WERROR=ON"
	}
	grep -q "The C compiler identification is $(echo "$cc" | sed 's/-[0-9]*$//' | sed 's/^gcc$/GNU/; s/^clang$/Clang/')" "$name/configure.log" ||
		fail "$cc: cmake did not use it: $(grep 'C compiler identification' "$name/configure.log")"
	$run "$PWD/$name/bin/stap" -p1 -e 'probe begin { println("host build") }' >"$name/p1.out" 2>&1 ||
		{ cat "$name/p1.out"; fail "$cc: the stap it built cannot parse a script"; }
	grep -q 'probe begin' "$name/p1.out" || fail "$cc: no probe in the built stap's pass 1: $(cat "$name/p1.out")"
}
