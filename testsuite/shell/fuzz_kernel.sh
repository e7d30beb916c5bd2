# AFL++ over stap-fuzz-kernel (testsuite/fuzz/stap_fuzz.c built with
# STAP_FUZZ_KERNEL): passes 1-2 under ASan and UBSan elaborating against
# $RELEASE's real types (BTF, and DWARF for inputs that start with "#dwarf"),
# from testsuite/fuzz/kernel-corpus (target-variable paths, @cast, autocast
# locals, the suggestions for a missing member). A fixed number of
# executions, so the run is the same length on every machine's speed budget:
# no input it finds may crash stap or run past 10 s. The fuzz build lives in
# $BUILD/fuzz (shared with fuzz_smoke.sh).
fail() { echo "FAIL: $*"; exit 1; }
command -v afl-fuzz >/dev/null || fail "afl-fuzz not installed (apt-get install afl++; see .ci/setup)"
command -v afl-clang-fast >/dev/null || fail "afl-clang-fast not installed (apt-get install afl++)"
[ -f "/boot/vmlinuz-$RELEASE" ] || fail "no /boot/vmlinuz-$RELEASE to read BTF from"
. "$SRCDIR/testsuite/shell/lib/fuzz_build.sh"
fuzz_build_targets

# every seed first, as the fuzzer runs it: none may crash
export STAP_FUZZ_RELEASE="$RELEASE"
for seed in "$SRCDIR"/testsuite/fuzz/kernel-corpus/*; do
	status=0
	timeout 60 "$fuzz_build/bin/stap-fuzz-kernel" "$seed" > seed.log 2>&1 || status=$?
	[ $status -le 1 ] || { tail -30 seed.log; fail "seed $(basename "$seed"): exit status $status"; }
done

mkdir in
cp "$SRCDIR"/testsuite/fuzz/kernel-corpus/* in/
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
# the seeds ran above: no calibration round (each input loads BTF: 0.3 s, DWARF: 2 s under ASan)
export AFL_BENCH_UNTIL_CRASH=1 AFL_NO_STARTUP_CALIBRATION=1
executions=${STAP_FUZZ_KERNEL_EXECS:-400}
status=0
afl-fuzz -E "$executions" -i in -o out -m none -t 10000 -- "$fuzz_build/bin/stap-fuzz-kernel" @@ > afl.log 2>&1 || status=$?
[ -f out/default/fuzzer_stats ] || { tail -30 afl.log; fail "afl-fuzz did not start (status $status)"; }
grep -E '^(execs_done|corpus_count|saved_crashes|saved_hangs)' out/default/fuzzer_stats
done_execs=$(sed -n 's/^execs_done *: *//p' out/default/fuzzer_stats)
[ "$done_execs" -ge "$executions" ] || fail "only $done_execs of $executions executions ran"
fuzz_findings stap-fuzz-kernel testsuite/fuzz/kernel-corpus/
echo "ok: $done_execs executions against $RELEASE's types, no crash, no hang"
