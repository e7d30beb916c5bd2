# Every switch over a node's kind in the compiler lists every kind and has
# no default, so -Wswitch (an error with STAPC_WERROR) names each switch a
# new kind must be added to, instead of the default quietly taking it.
python3 - "$SRCDIR/compiler" <<'PY'
import glob, os, re, sys
bad = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "**", "*.c"), recursive=True)):
    src = open(path).read()
    for m in re.finditer(r"switch \(([^)]*)\) \{", src):
        i, depth, default, kinds = m.end(), 1, None, False
        while depth:
            ch = src[i]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif depth == 1 and src.startswith("default:", i):
                default = src.count("\n", 0, i) + 1
            elif depth == 1 and src.startswith("case NODE_", i):
                kinds = True
            i += 1
        if kinds and default:
            bad.append("%s:%d: a switch over node kinds has a default" % (os.path.relpath(path, sys.argv[1]), default))
        if kinds and not m.group(1).endswith("->kind"):
            bad.append("%s:%d: switch (%s) is not over a node's kind: -Wswitch cannot check it"
                       % (os.path.relpath(path, sys.argv[1]), src.count("\n", 0, m.start()) + 1, m.group(1)))
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
