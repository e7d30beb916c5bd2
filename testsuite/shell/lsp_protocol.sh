# stap --language-server at the protocol level (docs/stap.md, "Editors"): scripted JSON-RPC over
# a pipe (lib/lsp_client.py), each answer checked: the lifecycle, errors for broken messages,
# diagnostics of passes 1 and 2 at their exact line and UTF-16 column, incremental changes,
# completion (probe points, aliases, kernel, module and program functions, $variables, tapset functions), hover
# with the doc comment, go to definition into the tapset, and a clean end on every path.
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || fail "python3 is not installed"
def_line=$(grep -n '^function execname:' "$SRCDIR/tapset/linux/context.stp" | cut -d: -f1)
[ -n "$def_line" ] || fail "tapset/linux/context.stp defines no execname"
PYTHONPATH="$SRCDIR/testsuite/shell/lib" python3 - "$STAP" "$RELEASE" "$def_line" <<'PY'
import json, os, subprocess, sys
from lsp_client import *
stap, release, def_line = sys.argv[1], sys.argv[2], int(sys.argv[3])
uri = "file://" + os.getcwd() + "/t%C3%A9st.stp"  # percent-encoded: the file is tést.stp

s = Server([stap, "--language-server", "-r", release])
# before initialize: refused; broken messages: answered with errors, the server goes on
r = s.request("textDocument/hover", at(uri, 0, 0))
expect(r.get("error", {}).get("code") == -32002, "a request before initialize is refused", r)
s.send_raw(frame(b"{not json"))
r = s.read_message()
expect(r.get("error", {}).get("code") == -32700 and r["id"] is None, "malformed JSON: a parse error", r)
s.send_raw(frame(b"[" * 5000 + b"]" * 5000))
r = s.read_message()
expect(r.get("error", {}).get("code") == -32700, "JSON nested 5000 deep: a parse error", r)
s.send_raw(b"X-Nothing: 1\r\n\r\n")  # no Content-Length: skipped
s.send_raw(b"Content-Length: 33554433\r\n\r\n" + b" " * 33554433)  # past the 32 MiB limit: skipped
r = s.read_message()
expect(r.get("error", {}).get("code") == -32600, "a message over the limit is refused", r)
r = s.initialize()
caps = r["result"]["capabilities"]
expect(caps.get("hoverProvider") and caps.get("definitionProvider") and "completionProvider" in caps
       and caps["textDocumentSync"]["change"] == 2, "initialize's capabilities", r)
r = s.request("workspace/symbol", {"query": ""})
expect(r.get("error", {}).get("code") == -32601, "an unknown method is refused", r)

# diagnostics: pass 1 and pass 2, at the line and UTF-16 column ("é" is one unit, "😀" two)
text = ('probe begin {\n'
        '  s = "é😀"; x = undefined_fn(1)\n'
        '}\n')
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "stap", "version": 1, "text": text}})
d = s.diagnostics(uri, 1)
expect(len(d) == 1 and "undefined_fn" in d[0]["message"] and d[0]["severity"] == 1, "one pass-2 error", d)
expect(d[0]["range"] == {"start": pos(1, 17), "end": pos(1, 29)}, "the unresolved function's range", d)
# an incremental change: a syntax error on line 3 (pass 1)
s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
    {"range": {"start": pos(1, 17), "end": pos(1, 32)}, "text": "execname()"},
    {"range": {"start": pos(2, 1), "end": pos(2, 1)}, "text": "\nprobe end { y = }"}]})
d = s.diagnostics(uri, 2)
expect(len(d) == 1 and d[0]["range"]["start"] == pos(3, 16) and d[0]["severity"] == 1, "a pass-1 error at 4:17", d)
s.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 3}, "contentChanges": [
    {"text": 'probe begin {\n  println("é😀", execname())\n}\n'}]})  # the whole text
d = s.diagnostics(uri, 3)
expect(d == [], "no diagnostics once fixed", d)

# completion, hover and definition on a document of their own
uri2 = "file://" + os.getcwd() + "/c.stp"
text2 = ('function mine:long (a:long) { return a + 1 }\n'       # 0
         'probe vfs.re\n'                                         # 1
         'probe kernel.function("vfs_rea\n'                       # 2
         'probe kernel.function("vfs_read") { println($fi) }\n'   # 3
         'probe vfs.read { println(exec, mine(1), execname()) }\n')  # 4
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri2, "languageId": "stap", "version": 1, "text": text2}})
r = s.request("textDocument/completion", at(uri2, 1, 12))["result"]
expect({"vfs.read", "vfs.read.return"} <= set(labels(r)), "probe vfs.re completes aliases", r)
vr = [i for i in r["items"] if i["label"] == "vfs.read"][0]
expect(vr["textEdit"]["range"] == {"start": pos(1, 6), "end": pos(1, 12)} and "VFS" in vr["documentation"]["value"],
       "an alias item replaces the point and carries its doc comment", vr)
r = s.request("textDocument/completion", at(uri2, 1, 6))["result"]
expect({"kernel.function(\"\")", "timer.ms()", "begin"} <= set(labels(r)), "probe families at an empty point", labels(r)[:50])
r = s.request("textDocument/completion", at(uri2, 2, 30))["result"]
expect("vfs_read" in labels(r) and all(l.startswith("vfs_rea") for l in labels(r)),
       "kernel.function(\"vfs_rea completes the kernel's functions", r)
# module("M").function("pre: a module of $RELEASE, a function stap -l finds in it, its first 4 letters
mods = [m for m in ("nfsd", "xfs", "btrfs", "loop", "ext4")
        if subprocess.run([stap, "-l", 'module("%s").function("*")' % m, "-r", release], capture_output=True).stdout]
expect(mods, "no module of %s has functions stap -l lists" % release)
fn = subprocess.run([stap, "-l", 'module("%s").function("*")' % mods[0], "-r", release],
                    capture_output=True, text=True).stdout.split('function("')[1].split('")')[0].split("@")[0]
line = 'probe module("%s").function("%s' % (mods[0], fn[:4])
s.notify("textDocument/didChange", {"textDocument": {"uri": uri2, "version": 2}, "contentChanges": [
    {"range": {"start": pos(5, 0), "end": pos(5, 0)}, "text": line}]})
r = s.request("textDocument/completion", at(uri2, 5, len(line)))["result"]
expect(fn in labels(r) and all(l.startswith(fn[:4]) for l in labels(r)),
       "module(\"%s\").function(\"%s completes %s" % (mods[0], fn[:4], fn), labels(r)[:20])
# process("PATH").function("pre: a program of our own, its functions from its symbol table (or DWARF)
with open("prog.c", "w") as f:
    f.write("int stapc_alpha(int a) { return a + 1; }\nint stapc_alphabet(int a) { return a * 2; }\n"
            "int stapc_beta(int a) { return a - 1; }\nint main(void) { return stapc_alpha(1) + stapc_alphabet(2) + stapc_beta(3); }\n")
expect(subprocess.run(["gcc", "-g", "-O0", "-o", "prog", "prog.c"]).returncode == 0, "gcc builds prog.c")
# and a copy without its symbol table: its functions come from its DWARF
expect(subprocess.run(["objcopy", "--remove-section", ".symtab", "--remove-section", ".strtab", "prog", "nosym"]).returncode
       == 0, "objcopy drops prog's symbol table")
mline, prev = line, None  # line 6 goes after the module line (5), which ends the document
for n, (line, want) in enumerate((('probe process("%s/prog").function("stapc_alph' % os.getcwd(), ["stapc_alpha", "stapc_alphabet"]),
                                   ('probe process("%s/nosym").function("stapc_b' % os.getcwd(), ["stapc_beta"]),
                                   ('probe process("%s/none").function("ma' % os.getcwd(), []))):
    edit = ({"range": {"start": pos(6, 0), "end": pos(6, len(prev))}, "text": line} if prev else
            {"range": {"start": pos(5, len(mline)), "end": pos(5, len(mline))}, "text": "\n" + line})
    s.notify("textDocument/didChange", {"textDocument": {"uri": uri2, "version": 3 + n}, "contentChanges": [edit]})
    prev = line
    r = s.request("textDocument/completion", at(uri2, 6, len(line)))["result"]
    expect(labels(r) == want, "%s completes %s" % (line, want), labels(r)[:20])
    expect(all(i["textEdit"]["range"]["start"] == pos(6, line.rindex('"') + 1) for i in r["items"]),
           "a program's function replaces the text after the quote", r["items"][:2])
r = s.request("textDocument/completion", at(uri2, 3, 46))["result"]
expect(labels(r) == ["file"], "$fi completes vfs_read's $file", r)
r = s.request("textDocument/completion", at(uri2, 4, 29))["result"]
ex = [i for i in r["items"] if i["label"] == "execname"]
expect(ex and ex[0]["detail"] == "function execname:string ()" and "executable" in ex[0]["documentation"]["value"],
       "exec completes execname with its signature and doc comment", r)
r = s.request("textDocument/completion", at(uri2, 4, 25))["result"]
expect({"filename", "bytes_to_read", "mine", "execname", "foreach"} <= set(labels(r)),
       "in vfs.read's body: its variables, the document's and the tapset's functions, keywords", labels(r)[:50])
r = s.request("textDocument/hover", at(uri2, 4, 42))["result"]
expect(r and "execname:string ()" in r["contents"]["value"] and "executable" in r["contents"]["value"]
       and r["range"] == {"start": pos(4, 40), "end": pos(4, 48)}, "hover on execname", r)
r = s.request("textDocument/hover", at(uri2, 4, 8))["result"]
expect(r and "probe vfs.read = kernel.function(\"vfs_read\")" in r["contents"]["value"] and "VFS" in r["contents"]["value"],
       "hover on the alias vfs.read", r)
r = s.request("textDocument/hover", at(uri2, 3, 15))["result"]
expect(r and "kernel.function(string).return\n" in r["contents"]["value"] and "timer" not in r["contents"]["value"]
       and r["range"] == {"start": pos(3, 6), "end": pos(3, 21)}, "hover on a family: its forms", r)
r = s.request("textDocument/hover", at(uri2, 3, 46))["result"]
expect(r is None, "hover on $fi (no such variable): null", r)
r = s.request("textDocument/definition", at(uri2, 4, 42))["result"]
expect(len(r) == 1 and r[0]["uri"].endswith("/tapset/linux/context.stp")
       and r[0]["range"]["start"] == pos(def_line - 1, 9), "execname is defined in context.stp:%d" % def_line, r)
r = s.request("textDocument/definition", at(uri2, 4, 33))["result"]
expect(r == [{"uri": uri2, "range": {"start": pos(0, 9), "end": pos(0, 13)}}], "mine is defined in the document", r)
r = s.request("textDocument/definition", at(uri2, 4, 10))["result"]
expect(len(r) == 1 and r[0]["uri"].endswith("/tapset/linux/vfs.stp"), "vfs.read is defined in vfs.stp", r)
r = s.request("textDocument/completion", at(uri2, 99, 99))
expect("result" in r, "a position past the end is answered", r)
s.notify("textDocument/didClose", {"textDocument": {"uri": uri2}})
d = s.diagnostics(uri2, 5)  # the version it had
s.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
rc = s.finish()
expect(rc == 0, "shutdown then exit: status 0", rc)

# a tapset of one's own (-I): an error inside its alias is shown at the document's use of it
os.makedirs("tap", exist_ok=True)
with open("tap/mine.stp", "w") as f:
    f.write("// probe my.alias - an alias whose body calls nothing known.\n"
            "probe my.alias = begin { x = undefined_in_tapset() }\n")
s = Server([stap, "--language-server", "-r", release, "-I", "tap"])
s.initialize()
uri3 = "file://" + os.getcwd() + "/u.stp"
s.notify("textDocument/didOpen", {"textDocument": {"uri": uri3, "languageId": "stap", "version": 1,
                                                   "text": "probe my.alias { println(1) }\n"}})
d = s.diagnostics(uri3, 1)
expect(len(d) == 1 and d[0]["range"] == {"start": pos(0, 6), "end": pos(0, 14)} and
       d[0]["message"].startswith("tap/mine.stp:2:30: unresolved function 'undefined_in_tapset'"),
       "an alias body's error at the use of the alias, naming where it is", d)
r = s.request("textDocument/hover", at(uri3, 0, 9))["result"]
expect(r and "an alias whose body calls nothing known" in r["contents"]["value"], "hover on an -I tapset's alias", r)
r = s.request("textDocument/definition", at(uri3, 0, 9))["result"]
expect(r == [{"uri": "file://" + os.getcwd() + "/tap/mine.stp", "range": {"start": pos(1, 6), "end": pos(1, 14)}}],
       "definition in the -I tapset", r)
expect(s.finish() == 0, "shutdown then exit: status 0")

# exit without shutdown: status 1; end of input: status 0; garbage then end of input: status 0
for data, want in ((frame({"jsonrpc": "2.0", "method": "exit"}), 1), (b"", 0),
                   (bytes(range(256)) * 64 + b"Content-Length: 5\r\n\r\n{\"a\":", 0),
                   (b"Content-Length: 99999\r\n\r\n{}", 0)):
    p = subprocess.run([stap, "--language-server"], input=data, capture_output=True, timeout=DEADLINE_S)
    expect(p.returncode == want, "exit status %d for input %r..." % (want, data[:40]), [p.returncode, p.stderr.decode()])
p = subprocess.run([stap, "--language-server", "x.stp"], capture_output=True, timeout=DEADLINE_S)
expect(p.returncode == 2 and b"--language-server takes no script" in p.stderr, "a script with --language-server: usage error",
       [p.returncode, p.stderr.decode()])
print("ok")
PY
