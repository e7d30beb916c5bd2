#!/usr/bin/env python3
"""tapset-doc.py - the tapset reference from the doc comments of tapset/**/*.stp.

Writes one man page per public function (function::NAME.3stap), per probe alias
(probe::NAME.3stap) and per tapset file (tapset::GROUP.3stap), stapfuncs.3stap's
function list, and the Markdown reference docs/tapset-reference.md. The comment
format is in docs/internals.md ("Tapset doc comments"); in short:

    // NAME:TYPE(ARG:TYPE, ...) - summary        (a function; NAME(ARGS) without a result)
    // probe NAME / NAME - summary                 (one alias or several defined one after another)
    // continuation lines: the description
    // Variables: name (meaning), ...   Context: ...   Returns: ...   Guru: yes

Usage: tapset-doc.py --tapset DIR [--man OUTDIR] [--markdown FILE] [--examples DIR]
       tapset-doc.py --tapset DIR --list      (documented names, one a line: for the tests)
Names starting with '_' are internal and get no page. Exit 1 on a malformed header.
"""
import argparse
import fnmatch
import os
import re
import sys

DATE = "2026-11"
DATADIR = ""  # --datadir: where the tapset is installed, for the FILES sections


def installed(rel):
    """A tapset path as installed (rel starts with "tapset/")."""
    return os.path.join(DATADIR, rel) if DATADIR else rel
SECTION_KEYS = ("Variables", "Context", "Returns", "Guru")

FUNC_DEF = re.compile(r'^\s*(private\s+)?function\s+([A-Za-z_]\w*)\s*(?::\s*(\w+))?\s*\(')
PROBE_DEF = re.compile(r'^\s*(private\s+)?probe\s+([\w.]+(?:\s*,\s*[\w.]+)*)\s*(\+?=)\s*(.*)$')
HEADER_PROBE = re.compile(r'^probe\s+(.*?)\s+-\s+(.*)$')


class Doc:
    """One doc-comment block: the names it documents, its summary and sections."""

    def __init__(self, path, line, kind, names, head_sigs, text_lines):
        self.path, self.line, self.kind = path, line, kind
        self.names = names            # names the header lists, in order
        self.head_sigs = head_sigs    # name -> (type, args) from the header, where it gives them
        self.paragraphs = []          # list of (verbatim?, text)
        self.sections = {}            # Variables/Context/Returns/Guru -> text
        self._split(text_lines)

    def _split(self, lines):
        current, verbatim, key = [], False, None

        def flush():
            nonlocal current
            if current:
                text = "\n".join(current) if verbatim else " ".join(current)
                if key:
                    self.sections[key] = (self.sections.get(key, "") + " " + text).strip()
                else:
                    self.paragraphs.append((verbatim, text))
            current = []

        # A section may also start after a sentence: "... files). Variables: dev, ino".
        split = []
        for raw in lines:
            if raw.startswith((" ", "\t")):
                split.append(raw)
            else:
                split.extend(re.split(r'(?<=[.)])\s+(?=(?:%s):)' % "|".join(SECTION_KEYS), raw))
        lines = [l for l in split if l is not None and l not in SECTION_KEYS]
        for raw in lines:
            stripped = raw.strip()
            m = re.match(r'^(%s):\s*(.*)$' % "|".join(SECTION_KEYS), stripped)
            if m:
                flush()
                key, verbatim = m.group(1), False
                current = [m.group(2)] if m.group(2) else []
                continue
            if not stripped:
                flush()
                key = None
                continue
            is_verbatim = raw.startswith("  ") or raw.startswith("\t")
            if key is None and is_verbatim != verbatim:
                flush()
                verbatim = is_verbatim
            current.append(raw.rstrip() if verbatim else stripped)
        flush()

    def lists(self, name):
        """Does the header name this function or alias (a '*' in a header name matches)?"""
        return any(fnmatch.fnmatchcase(name, n) for n in self.names)

    @property
    def summary(self):
        """The first sentence of the first paragraph: the whatis line."""
        if not self.paragraphs:
            return ""
        text = self.paragraphs[0][1]
        # The first '.' or ';' that ends a sentence outside parentheses, past 20 characters.
        depth = 0
        for i, ch in enumerate(text):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if ch in ".;" and depth <= 0 and i > 20 and (i + 1 == len(text) or text[i + 1] == " "):
                return text[:i]
        return text.rstrip(".;")


class Item:
    """A public function (all its overloads) or probe alias."""

    def __init__(self, kind, name, group, path):
        self.kind, self.name, self.group, self.path = kind, name, group, path
        self.synopses = []   # functions: "name:type(args)"; aliases: "probe name = points"
        self.docs = []       # Doc blocks, one per distinct block
        self.variables = []  # aliases: variables the body assigns, in order
        self.alias_of = None  # aliases without a block: the alias they rename
        self.guru = False     # functions: embedded C marked /* guru */ (needs stap -g)


def die(msg):
    print("tapset-doc: " + msg, file=sys.stderr)
    sys.exit(1)


def split_top(text, seps):
    """Split text at any of seps outside parentheses and quotes."""
    parts, depth, cur, quote = [], 0, "", False
    for ch in text:
        if ch == '"':
            quote = not quote
        if not quote:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch in seps and depth == 0:
                parts.append(cur.strip())
                cur = ""
                continue
        cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_header(path, line, first, rest):
    """A block's first line: a function or probe header, or None if it is neither."""
    m = HEADER_PROBE.match(first)
    if m:
        names, prev = [], None
        for part in split_top(m.group(1), ",/"):
            name = re.sub(r'\s*\(.*\)$', "", part).strip()
            if name.startswith(".") and prev:
                name = prev.rsplit(".", 1)[0] + name
            if not re.fullmatch(r'[\w.*]+', name):
                return None
            names.append(name)
            prev = name
        # The summary may start on the header line and go on in the next lines.
        return Doc(path, line, "probe", names, {}, [m.group(2)] + rest)
    # A function header: "a, b, c:type(args) - summary" or "a(args), b(args) - summary".
    depth, cut = 0, -1
    for i, ch in enumerate(first):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif depth == 0 and first.startswith(" - ", i):
            cut = i
            break
    if cut < 0:
        return None
    left, summary = first[:cut].strip(), first[cut + 3:].strip()
    items = split_top(left, ",/")
    names, sigs = [], {}
    for it in items:
        m = re.fullmatch(r'([A-Za-z_]\w*)\s*(?::\s*(\w+))?\s*(?:\((.*)\))?', it)
        if not m:
            return None
        names.append(m.group(1))
        if m.group(3) is not None:
            sigs[m.group(1)] = (m.group(2), m.group(3))
    if not any(n in sigs for n in names) and ":" not in left:
        return None  # "name - text" without a signature is prose, not a header
    # a, b, c:long(addr:long): the last item's signature is everyone's.
    last = next((sigs[n] for n in reversed(names) if n in sigs), None)
    for n in names:
        sigs.setdefault(n, last)
    return Doc(path, line, "function", names, sigs, [summary] + rest)


def alias_body(lines, start, col_text):
    """The text of an alias body from its '{' on (brace matched), or ''."""
    text = col_text + "\n" + "\n".join(lines[start + 1:start + 400])
    i = text.find("{")
    if i < 0:
        return ""
    depth, j, quote = 0, i, False
    while j < len(text):
        ch = text[j]
        if quote:
            if ch == "\\":
                j += 1
            elif ch == '"':
                quote = False
        elif ch == '"':
            quote = True
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1:j]
        j += 1
    return ""


def body_variables(body):
    """Names an alias body assigns at its top level: its variables."""
    out = []
    for line in body.split("\n"):
        line = re.sub(r'//.*|#.*', "", line)
        m = re.match(r'^\s*([A-Za-z]\w*)\s*=[^=]', line)
        if m and m.group(1) not in out:
            out.append(m.group(1))
        for macro in re.findall(r'@(__\w+)', line):
            out.append("@" + macro)
    return out


def read_file(path, rel, items, groups, macros):
    lines = open(path, encoding="utf-8").read().split("\n")
    group = os.path.basename(path)[:-4]
    # The file's own comment: its first lines, "// FILE.stp - what it holds".
    head = []
    for line in lines:
        if not line.startswith("//"):
            break
        head.append(line[2:].strip())
    summary = " ".join(head).strip()
    summary = re.sub(r'^[\w.-]+\.stp\s+-\s+', "", summary.split("  ")[0])
    groups[group] = {"path": rel, "summary": summary, "head": head, "items": []}
    # @define macros: what variables they assign (netfilter's common blocks).
    for i, line in enumerate(lines):
        m = re.match(r'^@define\s+(\w+)\s*%\(', line)
        if m:
            body = []
            for l2 in lines[i + 1:]:
                if l2.strip().startswith("%)"):
                    break
                body.append(l2)
            macros[m.group(1)] = body_variables("{" + "\n".join(body) + "}".replace("%", ""))
    docs = []
    for i, line in enumerate(lines):
        fm, pm = FUNC_DEF.match(line), PROBE_DEF.match(line)
        if not fm and not pm:
            continue
        block, j = [], i - 1
        while j >= 0 and lines[j].lstrip().startswith("//"):
            block.insert(0, re.sub(r'^\s*// ?', "", lines[j]))
            j -= 1
        doc = None
        if block:
            # A header's name list may go on in the next lines after a ',' or '/'.
            first, rest = block[0].strip(), block[1:]
            while rest and re.search(r'(,|/|\s-)$', first) and not re.search(r'\s-\s', first):
                first, rest = first + " " + rest[0].strip(), rest[1:]
            doc = parse_header(rel, j + 2, first, rest)
            if doc:
                docs.append(doc)
        if fm:
            private, name, rtype = fm.groups()
            # The parameters may go on over several lines.
            args, k = line[fm.end():], i + 1
            while ")" not in args and k < len(lines):
                args, k = args + " " + lines[k].strip(), k + 1
            args = args.split(")")[0]
            names = [name]
            kind = "function"
        else:
            private, names_text, op, rest = pm.groups()
            names = [n.strip() for n in names_text.split(",")]
            kind = "probe"
        if private:
            continue
        for name in names:
            if name.startswith("_"):
                continue
            key = (kind, name)
            item = items.get(key)
            if not item:
                item = items[key] = Item(kind, name, group, rel)
                groups[group]["items"].append(item)
            own = doc if doc and doc.kind == kind and doc.lists(name) else None
            if not own:
                own = next((d for d in reversed(docs) if d.kind == kind and d.lists(name)), None)
            if own and own not in item.docs:
                item.docs.append(own)
            if kind == "function":
                sig_type, sig_args = rtype, args.strip()
                hs = own.head_sigs.get(name) if own else None
                if not sig_type and hs and hs[0]:
                    sig_type = hs[0]
                if hs and hs[1] is not None and ":" in hs[1] and ":" not in sig_args:
                    sig_args = hs[1]
                syn = "%s%s(%s)" % (name, ":" + sig_type if sig_type else "", re.sub(r'\s+', " ", sig_args))
                if syn not in item.synopses:
                    item.synopses.append(syn)
                if "/* guru */" in line:
                    item.guru = True
            else:
                # The points may go on over several lines after a ','.
                text, k = rest, i + 1
                while "{" not in text and k < len(lines) and (not text.strip() or text.strip().endswith(",")):
                    text, k = text + " " + lines[k].strip(), k + 1
                points = re.sub(r'\s+', " ", text.split("{")[0]).strip().rstrip(",")
                item.synopses.append("probe %s %s %s" % (name, op, points))
                item.points = points
                for v in body_variables(alias_body(lines, i, line[line.find("=") + 1:])):
                    if v not in item.variables:
                        item.variables.append(v)
    return docs


def expand_macros(item, macros):
    out = []
    for v in item.variables:
        if v.startswith("@"):
            for w in macros.get(v[1:], []):
                if w.startswith("@"):
                    out.extend(x for x in macros.get(w[1:], []) if not x.startswith("@"))
                else:
                    out.append(w)
        else:
            out.append(v)
    seen = []
    for v in out:
        if v not in seen and not v.startswith("_"):
            seen.append(v)
    item.variables = seen


def collect(tapset):
    items, groups, macros = {}, {}, {}
    for root, dirs, files in os.walk(tapset):
        # the reference is x86-64's; arm64's registers.stp (the same functions for its
        # registers) is described in docs/stap.md, "Other architectures"
        dirs[:] = sorted(d for d in dirs if d != "arm64")
        for f in sorted(files):
            if f.endswith(".stp"):
                path = os.path.join(root, f)
                read_file(path, os.path.relpath(path, os.path.dirname(tapset.rstrip("/"))),
                          items, groups, macros)
    for item in items.values():
        if item.kind == "probe":
            expand_macros(item, macros)
            if not item.docs:
                # probe NEW = OLD { }: another name for a documented alias.
                target = items.get(("probe", getattr(item, "points", "")))
                if target and target.docs:
                    item.alias_of = target.name
    return items, groups


# ---- roff ----

def roff(text):
    text = text.replace("\\", "\\e")
    text = text.replace("-", "\\-")
    out = []
    for line in text.split("\n"):
        if line.startswith(".") or line.startswith("'"):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def page_header(name, section, title):
    return ('.\\" Generated by man/tapset-doc.py from %s: do not edit.\n'
            '.TH "%s" "%s" "%s" "stapc" "%s"\n' % (title, name.upper(), section, DATE,
                                                   "stapc tapset reference"))


def item_summary(item):
    if item.docs:
        return item.docs[0].summary
    if item.alias_of:
        return "another name for probe %s" % item.alias_of
    return ""


def man_item(item, items):
    prefix = "function" if item.kind == "function" else "probe"
    name = "%s::%s" % (prefix, item.name)
    out = [page_header(name, "3stap", item.path)]
    out.append(".SH NAME\n%s \\- %s\n" % (name, roff(item_summary(item))))
    out.append(".SH SYNOPSIS\n.nf\n")
    for syn in item.synopses:
        out.append(".B %s\n" % roff(syn).replace('"', '\\(dq'))
    out.append(".fi\n")
    out.append(".SH DESCRIPTION\n")
    sections = {}
    for doc in item.docs:
        if len(item.docs) > 1 and doc.head_sigs.get(item.name):
            rtype, args = doc.head_sigs[item.name]
            sig = "%s%s(%s)" % (item.name, ":" + rtype if rtype else "", args or "")
            out.append(".PP\n.B %s\n" % roff(sig).replace('"', '\\(dq'))
        for verbatim, text in doc.paragraphs:
            if verbatim:
                out.append(".PP\n.nf\n%s\n.fi\n" % roff(text))
            else:
                out.append(".PP\n%s\n" % roff(text))
        for k, v in doc.sections.items():
            sections.setdefault(k, v)
    if item.alias_of:
        target = items[("probe", item.alias_of)]
        out.append(".PP\nAnother name for\n.BR probe::%s (3stap):\n%s.\n"
                   % (item.alias_of, roff(item_summary(target))))
    if item.kind == "probe":
        out.append(".SH VALUES\n")
        if "Variables" in sections:
            out.append(".PP\n%s\n" % roff(sections.pop("Variables")))
        if item.variables:
            out.append(".PP\nThe alias sets: \\fI%s\\fR.\n" % roff(", ".join(item.variables)))
        elif "Variables" not in sections:
            out.append(".PP\nNone of its own.\n")
    for key, title in (("Variables", "VALUES"), ("Returns", "RETURN VALUE"), ("Context", "CONTEXT")):
        if key in sections:
            out.append(".SH %s\n%s\n" % (title, roff(sections[key])))
    if item.guru or sections.get("Guru", "").lower().startswith("yes"):
        out.append(".SH NOTES\nNeeds guru mode:\n.BR \"stap \\-g\" .\n")
    out.append(".SH FILES\n.I %s\n" % roff(installed(item.path)))
    out.append(".SH SEE ALSO\n.BR tapset::%s (3stap),\n.BR %s (3stap),\n.BR stap (1)\n"
               % (item.group, "stapfuncs" if item.kind == "function" else "stapprobes"))
    return "".join(out)


def man_group(group, info):
    name = "tapset::%s" % group
    out = [page_header(name, "3stap", info["path"])]
    out.append(".SH NAME\n%s \\- %s\n" % (name, roff(info["summary"] or "tapset file " + group)))
    out.append(".SH DESCRIPTION\n.PP\n%s\n" % roff(" ".join(info["head"]).strip() or info["path"]))
    funcs = [i for i in info["items"] if i.kind == "function"]
    probes = [i for i in info["items"] if i.kind == "probe"]
    for title, lst, prefix in (("FUNCTIONS", funcs, "function"), ("PROBE ALIASES", probes, "probe")):
        if not lst:
            continue
        out.append(".SH %s\n" % title)
        for it in sorted(lst, key=lambda x: x.name):
            out.append(".TP\n.BR %s::%s (3stap)\n%s\n" % (prefix, it.name, roff(item_summary(it) or "-")))
    out.append(".SH FILES\n.I %s\n" % roff(installed(info["path"])))
    out.append(".SH SEE ALSO\n.BR stapfuncs (3stap),\n.BR stapprobes (3stap),\n.BR stap (1)\n")
    return "".join(out)


def man_stapfuncs(items, template):
    body = []
    for it in sorted((i for i in items.values() if i.kind == "function"), key=lambda x: x.name):
        body.append(".TP\n.BR function::%s (3stap)\n%s\n" % (it.name, roff(item_summary(it) or "-")))
    return template.replace("@FUNCTIONS@\n", "".join(body))


def man_stapprobes(groups, template):
    body = []
    for group in sorted(groups):
        probes = [i for i in groups[group]["items"] if i.kind == "probe"]
        if probes:
            body.append(".TP\n.BR tapset::%s (3stap)\n%s\n"
                        % (group, roff(", ".join(sorted(i.name for i in probes)))))
    return template.replace("@ALIAS_GROUPS@\n", "".join(body))


def man_stapex(examples, template):
    body = []
    for f in sorted(os.listdir(examples)) if examples else []:
        if not f.endswith(".stp"):
            continue
        text = open(os.path.join(examples, f), encoding="utf-8").read().rstrip("\n")
        lines = text.split("\n")
        about = []
        while lines and lines[0].startswith("#"):
            about.append(lines.pop(0).lstrip("#!").strip())
        about = [a for a in about if not a.startswith("stap") and not a.startswith("/")]
        body.append(".SS %s\n.PP\n%s\n.PP\n.RS\n.nf\n%s\n.fi\n.RE\n"
                    % (roff(f), roff(" ".join(about) or f), roff("\n".join(lines).strip("\n"))))
    return template.replace("@EXAMPLES@\n", "".join(body))


# ---- Markdown ----

def md_cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(items, groups):
    out = ["<!-- Generated by man/tapset-doc.py from tapset/**/*.stp: do not edit; "
           "`cmake --build build --target tapset-reference` rewrites it. -->\n",
           "# Tapset reference\n\n",
           "Every public function and probe alias of `tapset/`, from the doc comments above their\n"
           "definitions (the format: [internals.md](internals.md#tapset-doc-comments)); the same\n"
           "text is in the man pages (`man 3stap function::NAME`, `probe::NAME`, `tapset::GROUP`).\n"
           "[tapset.md](tapset.md) explains the library by subject.\n"]
    for group in sorted(groups):
        info = groups[group]
        if not info["items"]:
            continue
        out.append("\n## %s\n\n`%s` — %s\n" % (group, info["path"], info["summary"]))
        funcs = sorted((i for i in info["items"] if i.kind == "function"), key=lambda x: x.name)
        probes = sorted((i for i in info["items"] if i.kind == "probe"), key=lambda x: x.name)
        if funcs:
            out.append("\n| function | |\n|---|---|\n")
            for it in funcs:
                syn = "<br>".join("`%s`" % md_cell(s) for s in it.synopses)
                out.append("| %s | %s |\n" % (syn, md_cell(item_summary(it))))
        if probes:
            out.append("\n| probe alias | | variables |\n|---|---|---|\n")
            for it in probes:
                out.append("| `%s` | %s | %s |\n" % (it.name, md_cell(item_summary(it)),
                                                     md_cell(", ".join(it.variables))))
    return "".join(out)


def write(path, text):
    old = None
    if os.path.exists(path):
        old = open(path, encoding="utf-8").read()
    if old != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


def main():
    ap = argparse.ArgumentParser(description="the tapset reference from tapset doc comments")
    ap.add_argument("--tapset", required=True)
    ap.add_argument("--man")
    ap.add_argument("--templates")
    ap.add_argument("--examples")
    ap.add_argument("--markdown")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--datadir", default="")
    opt = ap.parse_args()
    global DATADIR
    DATADIR = opt.datadir
    items, groups = collect(opt.tapset)
    if opt.list:
        for it in sorted(items.values(), key=lambda x: (x.kind, x.name)):
            print("%s %s%s" % (it.kind, it.name, "" if it.docs or it.alias_of else " UNDOCUMENTED"))
        return 0
    if opt.man:
        os.makedirs(opt.man, exist_ok=True)
        # Pages of functions and aliases that are gone must not stay installed.
        for f in os.listdir(opt.man):
            if re.match(r'^(function|probe|tapset)::.*\.3stap$', f):
                os.unlink(os.path.join(opt.man, f))
        for it in items.values():
            if it.docs or it.alias_of:
                prefix = "function" if it.kind == "function" else "probe"
                write(os.path.join(opt.man, "%s::%s.3stap" % (prefix, it.name)), man_item(it, items))
        for group, info in groups.items():
            if info["items"]:
                write(os.path.join(opt.man, "tapset::%s.3stap" % group), man_group(group, info))
        if opt.templates:
            t = open(os.path.join(opt.templates, "stapfuncs.3stap.in"), encoding="utf-8").read()
            write(os.path.join(opt.man, "stapfuncs.3stap"), man_stapfuncs(items, t))
            t = open(os.path.join(opt.templates, "stapprobes.3stap.in"), encoding="utf-8").read()
            write(os.path.join(opt.man, "stapprobes.3stap"), man_stapprobes(groups, t))
            t = open(os.path.join(opt.templates, "stapex.3stap.in"), encoding="utf-8").read()
            write(os.path.join(opt.man, "stapex.3stap"), man_stapex(opt.examples, t))
    if opt.markdown:
        write(opt.markdown, markdown(items, groups))
    return 0


if __name__ == "__main__":
    sys.exit(main())
