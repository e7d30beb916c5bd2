# lsp_client.py - a scripted Language Server Protocol client for the stap --language-server tests:
# starts the server, sends framed JSON-RPC, waits for answers and notifications, and checks them.
import json, os, select, subprocess, sys, time

# A hang guard only: a working server answers in well under a second; no assertion depends on it.
DEADLINE_S = 120


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def frame(obj):
    body = json.dumps(obj).encode() if not isinstance(obj, bytes) else obj
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Server:
    def __init__(self, argv, log="server.err"):
        self.log = log  # the server's stderr: a file, so it never blocks on a full pipe
        with open(log, "wb") as err:
            self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
        self.buf = b""
        self.next_id = 1
        self.notes = []  # notifications received, in order

    def send_raw(self, data):
        self.p.stdin.write(data)
        self.p.stdin.flush()

    def send(self, obj):
        self.send_raw(frame(obj))

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def read_message(self):
        end = time.monotonic() + DEADLINE_S
        while True:
            head, sep, rest = self.buf.partition(b"\r\n\r\n")
            if sep:
                n = int([l for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")][0].split(b":")[1])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    return json.loads(rest[:n])
            left = end - time.monotonic()
            if left <= 0 or not select.select([self.p.stdout], [], [], left)[0]:
                fail("no message from the server within %d s" % DEADLINE_S)
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                fail("the server closed its output (exit status %s); stderr: %s" % (self.p.wait(), self.stderr()))
            self.buf += chunk

    def request(self, method, params):
        """Send a request, return its response (notifications met meanwhile are kept)."""
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        return self.response(rid)

    def response(self, rid):
        while True:
            m = self.read_message()
            if "method" in m:
                self.notes.append(m)
            elif m.get("id") == rid:
                return m

    def diagnostics(self, uri, version):
        """The diagnostics published for uri at version (waits for them)."""
        while True:
            for m in self.notes:
                if m["method"] == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri \
                        and m["params"].get("version") == version:
                    self.notes.remove(m)
                    return m["params"]["diagnostics"]
            self.notes.append(self.read_message())

    def initialize(self):
        r = self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
        self.notify("initialized", {})
        return r

    def stderr(self):
        with open(self.log, errors="replace") as f:
            return f.read()

    def finish(self):
        """shutdown, exit; the exit status. No analysis may have failed (a child crashed or overran)."""
        r = self.request("shutdown", None)
        if r.get("result", "missing") is not None:
            fail("shutdown answered %s" % r)
        self.notify("exit", None)
        self.p.stdin.close()
        status = self.p.wait(timeout=DEADLINE_S)
        if "the analysis" in self.stderr():
            fail("an analysis failed: " + self.stderr())
        return status


def expect(cond, msg, got=None):
    if not cond:
        fail(msg + ("" if got is None else ": got " + json.dumps(got)[:2000]))


def pos(line, character):
    return {"line": line, "character": character}


def at(uri, line, character):
    return {"textDocument": {"uri": uri}, "position": pos(line, character)}


def labels(result):
    items = result["items"] if isinstance(result, dict) else result
    return [i["label"] for i in items]
