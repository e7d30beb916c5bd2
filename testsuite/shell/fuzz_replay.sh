# Every input of the fuzz corpus and every regression the fuzzer found
# (testsuite/fuzz: the script, then NUL-separated script arguments) runs
# through passes 1-2 as stap-fuzz runs it: it ends within 10 s, by itself
# (exit status 0 or 1), under a 2 GB memory limit.
fail() { echo "FAIL: $*"; exit 1; }
ulimit -v 2000000
FUZZ="$SRCDIR/testsuite/fuzz"
count=0
for input in "$FUZZ"/regressions/* "$FUZZ"/corpus/*; do
	status=0
	python3 - "$input" "$STAP" "$SRCDIR" > out 2> err <<'PY' || status=$?
import os, subprocess, sys
data = open(sys.argv[1], "rb").read()[: (1 << 20) - 1]
parts = data.split(b"\0")
argv = [sys.argv[2], "-p2", "-r", sys.argv[3] + "/testsuite/fake-kernel", "-e", parts[0], "--"] + parts[1:9]
try:
    sys.exit(subprocess.run(argv, timeout=10).returncode)
except subprocess.TimeoutExpired:
    sys.exit(124)
PY
	case $status in
	0 | 1) ;;
	124) fail "$input: still running after 10 s" ;;
	*) tail -5 err; fail "$input: exit status $status" ;;
	esac
	count=$((count + 1))
done
echo "ok: $count inputs"
