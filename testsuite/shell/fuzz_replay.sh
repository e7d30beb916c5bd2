# Every input of the fuzz corpus and every regression the fuzzer found
# (testsuite/fuzz: the script, then NUL-separated script arguments) runs
# through passes 1-2 as stap-fuzz runs it: it ends within 10 s, by itself
# (exit status 0 or 1), under a 2 GB memory limit. The kernel corpus
# (testsuite/fuzz/kernel-corpus) runs as stap-fuzz-kernel runs it: against
# $RELEASE's BTF, or its DWARF for an input that starts with "#dwarf".
ulimit -v 2000000
python3 - "$SRCDIR" "$STAP" "$RELEASE" <<'PY'
import glob, os, subprocess, sys
src, stap, release = sys.argv[1], sys.argv[2], sys.argv[3]
kernel_inputs = sorted(glob.glob(src + "/testsuite/fuzz/kernel-corpus/*"))
for path in kernel_inputs:
    parts = open(path, "rb").read()[: (1 << 20) - 1].split(b"\0")
    kind = "dwarf" if parts[0].startswith(b"#dwarf") else "btf"
    argv = [stap, "-p2", "-r", release, "--debuginfo=" + kind, "-e", parts[0], "--"] + parts[1:9]
    try:
        p = subprocess.run(argv, timeout=60, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        sys.exit("FAIL: %s: still running after 60 s" % path)
    if p.returncode not in (0, 1):
        sys.stderr.buffer.write(p.stderr[-2000:])
        sys.exit("FAIL: %s: exit status %d" % (path, p.returncode))
inputs = sorted(glob.glob(src + "/testsuite/fuzz/regressions/*")) + sorted(glob.glob(src + "/testsuite/fuzz/corpus/*"))
for path in inputs:
    parts = open(path, "rb").read()[: (1 << 20) - 1].split(b"\0")
    argv = [stap, "-p2", "-r", src + "/testsuite/fake-kernel", "-e", parts[0], "--"] + parts[1:9]
    try:
        p = subprocess.run(argv, timeout=10, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        sys.exit("FAIL: %s: still running after 10 s" % path)
    if p.returncode not in (0, 1):
        sys.stderr.buffer.write(p.stderr[-2000:])
        sys.exit("FAIL: %s: exit status %d" % (path, p.returncode))
print("ok: %d inputs, %d against %s" % (len(inputs), len(kernel_inputs), release))
PY
