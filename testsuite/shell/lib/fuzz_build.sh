# fuzz_build.sh - sourced: make $BUILD/fuzz (the AFL++ and sanitizer configuration) with the three
# fuzz targets, once. fuzz_smoke.sh, fuzz_kernel.sh and fuzz_lsp.sh share it and run side by side: the
# lock makes the second wait for the first's build (two cmake runs in one tree break each
# other), then find it current.
fuzz_build="$BUILD/fuzz"
fuzz_build_targets() {
	mkdir -p "$fuzz_build"
	flock "$fuzz_build/.lock" sh -c '
		CC=afl-clang-fast cmake -S "$1" -B "$2" -DSTAPC_FUZZ=ON -DSTAPC_SANITIZE=ON >build.log 2>&1 &&
		cmake --build "$2" --target stap-fuzz stap-fuzz-kernel stap-fuzz-lsp -j"$(nproc)" >>build.log 2>&1' \
		sh "$SRCDIR" "$fuzz_build" || { tail -20 build.log; fail "building the fuzz targets in $fuzz_build"; }
}

# fuzz_findings TARGET DIR: fail, showing each input, if afl-fuzz's ./out holds a crash or a hang
# of TARGET (a fuzz target in $fuzz_build/bin); DIR is where its input goes once fixed.
fuzz_findings() {
	for kind in crashes hangs; do
		for found in out/default/$kind/id:*; do
			[ -e "$found" ] || continue
			echo "--- $found:"
			od -c "$found" | head -20
			"$fuzz_build/bin/$1" "$found" 2>&1 | tail -20
			fail "the fuzzer found $kind (copy the input to $2 once fixed)"
		done
	done
}
