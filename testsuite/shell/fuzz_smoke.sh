# A short AFL++ run of the fuzz target (passes 1-2 under ASan and UBSan,
# testsuite/fuzz/stap_fuzz.c) from the regression inputs and a few corpus
# seeds: no input it finds in 30 s may crash stap or run past 5 s. The
# fuzz build lives in $BUILD/fuzz and is reused by later runs.
fail() { echo "FAIL: $*"; exit 1; }
command -v afl-fuzz >/dev/null || fail "afl-fuzz not installed (apt-get install afl++; see .ci/setup)"
command -v afl-clang-fast >/dev/null || fail "afl-clang-fast not installed (apt-get install afl++)"
. "$SRCDIR/testsuite/shell/lib/fuzz_build.sh"
fuzz_build_targets

mkdir in
cp "$SRCDIR"/testsuite/fuzz/regressions/* in/
for seed in parse_ok_macros parse_ok_pp_conditions parse_ok_script_args parse_ok_strings \
	sem_ok_foreach_forms sem_ok_stats sem_ok_language_misc; do
	cp "$SRCDIR/testsuite/fuzz/corpus/$seed" in/ || fail "seed $seed is gone from the corpus"
done
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
export AFL_BENCH_UNTIL_CRASH=1
status=0
afl-fuzz -V 30 -i in -o out -m none -t 5000 -- "$fuzz_build/bin/stap-fuzz" @@ > afl.log 2>&1 || status=$?
[ -f out/default/fuzzer_stats ] || { tail -30 afl.log; fail "afl-fuzz did not start (status $status)"; }
grep -E '^(execs_done|corpus_count|saved_crashes|saved_hangs)' out/default/fuzzer_stats
fuzz_findings stap-fuzz testsuite/fuzz/regressions/
echo "ok: no crash, no hang"
