# The per-kernel index changes nothing pass 2 says (issue 29): every sem
# script's -p2 (its .opts and .args, @RELEASE@ = $RELEASE) gives the same
# exit status, stdout and stderr with the index off (STAPC_KINDEX=off) and
# with a warm index; the scripts that read $RELEASE's debuginfo are compared
# again with --debuginfo=btf. The index must have been built (the first,
# -v, run says "indexing kernel") and used (-v runs after it never do).
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || fail "python3 not installed"
export STAPC_KINDEX_DIR="$PWD/kindex"
probe='probe kernel.function("vfs_read") { printf("%d\n", pid()) }'
for mode in auto btf; do
  "$STAP" -v -p2 -r "$RELEASE" --debuginfo=$mode -e "$probe" > /dev/null 2> warm.err ||
    { cat warm.err; fail "-p2 --debuginfo=$mode on $RELEASE failed"; }
  grep -q "indexing kernel $RELEASE" warm.err || fail "--debuginfo=$mode: the first run built no index"
done
ls "$STAPC_KINDEX_DIR"/"$RELEASE".btf.kix > /dev/null || fail "no BTF index in $STAPC_KINDEX_DIR"
python3 - "$SRCDIR/testsuite/sem" "$STAP" "$RELEASE" <<'PY'
import concurrent.futures, os, shlex, subprocess, sys
sem, stap, release = sys.argv[1:4]
def run(d, name, opts, args, index):
    env = dict(os.environ)
    if not index:
        env["STAPC_KINDEX"] = "off"
    p = subprocess.run([stap, "-p2"] + opts + [name + ".stp"] + args, cwd=d, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return p.returncode, p.stdout, p.stderr
def compare(job):
    d, name, opts, args = job
    off, on = run(d, name, opts, args, False), run(d, name, opts, args, True)
    if any(o.startswith("-r") for o in opts):
        verbose = run(d, name, ["-v"] + opts, args, True)
        if b"indexing kernel" in verbose[2]:
            return "%s %s: a warm run built an index:\n%s" % (name, " ".join(opts),
                                                              verbose[2].decode(errors="replace"))
    if off != on:
        return "%s %s: differs with the index\n--- off: %s\n%s\n%s--- on: %s\n%s\n%s" % (
            name, " ".join(opts), off[0], off[1].decode(errors="replace"), off[2].decode(errors="replace"),
            on[0], on[1].decode(errors="replace"), on[2].decode(errors="replace"))
    return None
jobs = []
for verdict in ("ok", "ko"):
    d = os.path.join(sem, verdict)
    for f in sorted(os.listdir(d)):
        if not f.endswith(".stp"):
            continue
        name = f[:-4]
        def read(ext):
            p = os.path.join(d, name + ext)
            return shlex.split(open(p).read().strip()) if os.path.exists(p) else []
        raw = read(".opts")
        opts = [o.replace("@RELEASE@", release) for o in raw]
        jobs.append((d, name, opts, read(".args")))
        if any("@RELEASE@" in o for o in raw) and not any(o.startswith("--debuginfo") for o in raw):
            jobs.append((d, name, opts + ["--debuginfo=btf"], read(".args")))
with concurrent.futures.ThreadPoolExecutor(2) as pool:
    problems = [p for p in pool.map(compare, jobs) if p]
for p in problems:
    print(p)
print("%d -p2 runs compared, %d differ" % (len(jobs), len(problems)))
sys.exit(1 if problems else 0)
PY
