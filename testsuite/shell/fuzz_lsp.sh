# AFL++ over stap-fuzz-lsp (testsuite/fuzz/stap_fuzz.c built with STAP_FUZZ_LSP): the language
# server under ASan and UBSan reading mutated LSP message streams from testsuite/fuzz/lsp-corpus
# (framing, JSON, document edits, positions, and the scripts its children run passes 1-2 on,
# against the stand-in kernel). A child dying by a signal aborts the server in that build, so
# a crash of an analysis counts. A fixed number of executions: no input may crash the server
# or one of its children, or run past 10 s. The fuzz build lives in $BUILD/fuzz.
fail() { echo "FAIL: $*"; exit 1; }
command -v afl-fuzz >/dev/null || fail "afl-fuzz not installed (apt-get install afl++; see .ci/setup)"
command -v afl-clang-fast >/dev/null || fail "afl-clang-fast not installed (apt-get install afl++)"
. "$SRCDIR/testsuite/shell/lib/fuzz_build.sh"
fuzz_build_targets

# every seed first, as the fuzzer runs it: none may crash (an ASan report aborts)
export ASAN_OPTIONS=abort_on_error=1:detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1
for seed in "$SRCDIR"/testsuite/fuzz/lsp-corpus/*; do
	status=0
	timeout 60 "$fuzz_build/bin/stap-fuzz-lsp" "$seed" > seed.out 2> seed.log || status=$?
	[ $status -eq 0 ] || { tail -30 seed.log; fail "seed $(basename "$seed"): exit status $status"; }
	grep -q '"id":2,"result"' seed.out || fail "seed $(basename "$seed"): no answer to its first request"
done
unset ASAN_OPTIONS UBSAN_OPTIONS

mkdir in
cp "$SRCDIR"/testsuite/fuzz/lsp-corpus/* in/
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
# calibrated: without it afl-fuzz records no coverage of the seeds and finds no edge at all
export AFL_BENCH_UNTIL_CRASH=1
executions=${STAP_FUZZ_LSP_EXECS:-300}
status=0
afl-fuzz -E "$executions" -i in -o out -m none -t 10000 -- "$fuzz_build/bin/stap-fuzz-lsp" @@ > afl.log 2>&1 || status=$?
[ -f out/default/fuzzer_stats ] || { tail -30 afl.log; fail "afl-fuzz did not start (status $status)"; }
grep -E '^(execs_done|corpus_count|edges_found|saved_crashes|saved_hangs)' out/default/fuzzer_stats
done_execs=$(sed -n 's/^execs_done *: *//p' out/default/fuzzer_stats)
[ "$done_execs" -ge "$executions" ] || fail "only $done_execs of $executions executions ran"
edges=$(sed -n 's/^edges_found *: *//p' out/default/fuzzer_stats)
[ "${edges:-0}" -gt 1000 ] || fail "the fuzzer saw only ${edges:-0} edges: is the target instrumented?"
fuzz_findings stap-fuzz-lsp testsuite/fuzz/lsp-corpus/
echo "ok: $done_execs executions of the language server, no crash, no hang"
