# The compiler's #include graph has no cycle (issue 18): a module is a file's
# base name (foo.c with foo.h), an edge is an #include "..." of another
# module's header. A cycle means two parts of the pipeline lean on each
# other; the test prints it. Folders include one way too (issue 30): each
# folder has a layer (LAYERS below, as docs/internals.md "Includes run one
# way" lists them) and includes only its own layer and those below, so no
# two folders include each other; a folder missing from LAYERS fails. Run
# over compiler/ as checked out.
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || fail "python3 not installed"
python3 - "$SRCDIR/compiler" <<'EOF'
import os, re, sys
root = sys.argv[1]
paths = {}
for d, _, files in os.walk(root):
    for f in files:
        if f.endswith((".c", ".h", ".y", ".l")):
            paths[os.path.join(d, f)] = open(os.path.join(d, f), errors="replace").read()
def module(p):
    return os.path.relpath(os.path.splitext(p)[0], root)
by_header = {}
for p in paths:
    if p.endswith(".h"):
        by_header.setdefault(os.path.basename(p), []).append(p)
graph = {}
for p, text in paths.items():
    m = module(p)
    graph.setdefault(m, set())
    for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', text, re.M):
        here = os.path.normpath(os.path.join(os.path.dirname(p), inc))
        target = here if here in paths else None
        if not target:
            cands = by_header.get(os.path.basename(inc), [])
            target = cands[0] if len(cands) == 1 else None
        if target and module(target) != m:
            graph[m].add(module(target))
# cycles: strongly connected components of more than one module
index, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(100000)
def visit(v):
    index[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in graph.get(v, ()):
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v: break
        if len(comp) > 1: sccs.append(sorted(comp))
for v in sorted(graph):
    if v not in index: visit(v)
edges = sum(len(s) for s in graph.values())
if sccs:
    for comp in sccs:
        print("cycle through: " + ", ".join(comp))
        for a in comp:
            print("  %s -> %s" % (a, ", ".join(sorted(b for b in graph[a] if b in comp))))
    sys.exit(1)
# Folders, bottom first: a file's unit is its folder under compiler/, or
# for a file at the top its base name. The base is parse/ (the AST and the
# containers everyone uses) with the session, diagnostics, architectures
# and the C writer; the driver sits on top of every pass.
LAYERS = [
    ("base", ["parse", "session", "diag", "arch", "emit"]),
    ("debuginfo", ["debuginfo"]),
    ("elaborate", ["elaborate"]),
    ("translate", ["translate"]),
    ("probes", ["probes"]),
    ("build", ["build"]),
    ("run", ["run"]),
    ("lsp", ["lsp"]),            # the language server (branch hlsp): over the passes, under main.c
    ("driver", ["main", "options", "passes", "dump", "build_as"]),  # build_as: --build-as (branch hmisc)
]
layer_of = {u: i for i, (_, units) in enumerate(LAYERS) for u in units}
def unit(m):
    return m.split(os.sep)[0]
bad = []
for m in sorted(graph):
    if unit(m) not in layer_of:
        bad.append("%s: folder or top-level module '%s' has no layer in include_graph.sh (and docs/internals.md)" % (m, unit(m)))
        continue
    for t in sorted(graph[m]):
        if unit(t) in layer_of and layer_of[unit(t)] > layer_of[unit(m)]:
            bad.append("%s (%s) includes %s (%s), a later layer" % (m, LAYERS[layer_of[unit(m)]][0], t, LAYERS[layer_of[unit(t)]][0]))
if bad:
    print("folders include against the order %s:" % " <- ".join(n for n, _ in LAYERS))
    for b in bad:
        print("  " + b)
    sys.exit(1)
print("ok: %d modules, %d include edges, no cycle; %d layers, every include downward or within one"
      % (len(graph), edges, len(LAYERS)))
EOF
