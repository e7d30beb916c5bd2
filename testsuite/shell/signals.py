#!/usr/bin/env python3
"""signals.py - stop signals sent to the stap process alone (not its group).

Run by signals_local.sh and signals_remote.sh with $STAP and $RELEASE set, in
a scratch directory.

  local   stap runs a fake staprun (a copy of stap in ./bin beside a Python
          staprun that records the signals it gets): SIGINT, SIGTERM and
          SIGHUP sent to stap alone reach staprun exactly once, the status
          staprun returns is stap's; a terminal's Ctrl-C (through a pty, to the
          whole group) reaches staprun once, not twice; a SIGKILLed stap
          leaves staprun a SIGTERM.
  remote  stap --remote=qemu with a script printing numbered lines: each of
          SIGINT, SIGTERM, SIGHUP sent to stap alone ends the session with
          the end probe, every line, status 0, nothing lost, and no qemu
          left; a SIGKILLed stap leaves no qemu, no stapvm and no scratch
          directory behind.
  build   a stop signal to stap (or its group) while pass 4's make runs
          ends stap with status 1 and a message; no module, no temporary
          directory and no make or compiler process are left. A SIGKILL to
          stap while cc1 runs leaves no process and no temporary directory
          (the build watcher's work); a stop signal in pass 2 and a closed
          stdout (SIGPIPE) after each of passes 1-4 end stap with status 1,
          a message, and nothing left.

Processes start with SIGINT at its default: a background job of a
non-interactive shell inherits it ignored, and the test would measure nothing.
"""

import fcntl
import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import termios
import threading
import time

STAP = os.environ["STAP"]
RELEASE = os.environ["RELEASE"]
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
failures = []


def fail(msg):
    print("FAIL: " + msg, flush=True)
    failures.append(msg)


def restore_signals():
    for sig in STOP_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, set())


class Reader:
    """Collects a stream's lines in a thread; wait_for() blocks until a line matches."""

    def __init__(self, stream):
        self.lines = []
        self.cond = threading.Condition()
        self.done = False
        self.thread = threading.Thread(target=self._run, args=(stream,), daemon=True)
        self.thread.start()

    def _run(self, stream):
        for raw in iter(stream.readline, b""):
            with self.cond:
                self.lines.append(raw.decode("utf-8", "replace").rstrip("\r\n"))
                self.cond.notify_all()
        with self.cond:
            self.done = True
            self.cond.notify_all()

    def wait_for(self, pattern, timeout):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                if any(re.fullmatch(pattern, line) for line in self.lines):
                    return True
                left = deadline - time.monotonic()
                if self.done or left <= 0:
                    return False
                self.cond.wait(left)

    def text(self):
        with self.cond:
            return "\n".join(self.lines)


def children():
    """pid -> (ppid, comm) of every process."""
    procs = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        procs[int(name)] = (int(fields[1]), comm, fields[0])
    return procs


def descendants(root):
    """{pid: comm} of root's live descendants."""
    procs = children()
    found, todo = {}, [root]
    while todo:
        parent = todo.pop()
        for pid, (ppid, comm, _) in procs.items():
            if ppid == parent and pid not in found:
                found[pid] = comm
                todo.append(pid)
    return found


def alive(pid):
    """Running (not gone, not a zombie waiting to be reaped)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def wait_gone(pids, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return not any(alive(p) for p in pids)


# ---------------------------------------------------------------------------
# local: stap -> (fake) staprun

FAKE_STAPRUN = r'''#!/usr/bin/env python3
# A stand-in for staprun: records the stop signals it gets, exits 7.
import os, signal, sys, time
got = []
def on_signal(sig, frame):
    got.append(signal.Signals(sig).name)
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(sig, on_signal)
# stap hands the stop signals over blocked: the real staprun unblocks them too.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM, signal.SIGHUP})
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write("ready\n")
deadline = time.monotonic() + 60
while not got and time.monotonic() < deadline:
    time.sleep(0.02)
time.sleep(0.5)  # a duplicate would arrive now
with open(os.environ["FAKE_LOG"], "a") as log:
    log.write("got %s\n" % " ".join(got))
sys.exit(7)
'''


def local_setup():
    os.makedirs("bin", exist_ok=True)
    shutil.copy(STAP, "bin/stap")
    with open("bin/staprun", "w") as f:
        f.write(FAKE_STAPRUN)
    os.chmod("bin/staprun", 0o755)
    with open("s.stp", "w") as f:
        f.write("probe begin { printf(\"hi\\n\") }\n")
    # Fill the module cache once, so each run below starts staprun at once.
    p = subprocess.run(["bin/stap", "-p4", "-r", RELEASE, "-m", "sigtest", "s.stp"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        fail("stap -p4 failed:\n" + p.stdout.decode())
        return False
    return True


def log_lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except OSError:
        return []


def wait_log(path, line, timeout):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if line in log_lines(path):
            return True
        time.sleep(0.05)
    return False


def local_start(log, **kw):
    if os.path.exists(log):
        os.unlink(log)
    env = dict(os.environ, FAKE_LOG=os.path.abspath(log))
    return subprocess.Popen(["bin/stap", "-r", RELEASE, "-m", "sigtest", "s.stp"], env=env,
                            preexec_fn=kw.pop("preexec_fn", restore_signals), **kw)


def drain(fd):
    """Read a pty's output until it closes (so writers never block)."""
    try:
        while os.read(fd, 4096):
            pass
    except OSError:
        pass


def local_tests():
    if not local_setup():
        return
    for sig in STOP_SIGNALS:
        name = sig.name
        log = "fake-%s.log" % name
        p = local_start(log, stdin=subprocess.DEVNULL)
        if not wait_log(log, "ready", 120):
            p.kill()
            fail("%s: the fake staprun never started" % name)
            continue
        os.kill(p.pid, sig)
        status = p.wait(60)
        got = [l for l in log_lines(log) if l.startswith("got")]
        if got != ["got " + name]:
            fail("%s to stap: staprun recorded %r, expected exactly one %s" % (name, got, name))
        if status != 7:
            fail("%s to stap: stap exited %d, not staprun's 7" % (name, status))
        print("local %s: staprun got %s, stap exited %d" % (name, got, status), flush=True)

    # Ctrl-C on a terminal: the line discipline signals the foreground group
    # (stap and staprun); stap must not pass a second SIGINT on.
    master, slave = pty.openpty()

    def controlling_tty():
        restore_signals()
        os.setsid()
        fcntl.ioctl(slave, termios.TIOCSCTTY, 0)

    log = "fake-tty.log"
    p = local_start(log, stdin=slave, stdout=slave, stderr=slave, preexec_fn=controlling_tty)
    os.close(slave)
    threading.Thread(target=drain, args=(master,), daemon=True).start()
    if wait_log(log, "ready", 120):
        os.write(master, b"\x03")
        status = p.wait(60)
        got = [l for l in log_lines(log) if l.startswith("got")]
        if got != ["got SIGINT"]:
            fail("terminal Ctrl-C: staprun recorded %r, expected one SIGINT" % got)
        if status != 7:
            fail("terminal Ctrl-C: stap exited %d, not staprun's 7" % status)
        print("local Ctrl-C: staprun got %s, stap exited %d" % (got, status), flush=True)
    else:
        p.kill()
        fail("tty: the fake staprun never started")

    # SIGKILL to stap: staprun is told (SIGTERM) and can stop the session itself.
    log = "fake-kill.log"
    p = local_start(log, stdin=subprocess.DEVNULL)
    if wait_log(log, "ready", 120):
        os.kill(p.pid, signal.SIGKILL)
        p.wait(10)
        if not wait_log(log, "got SIGTERM", 10):
            fail("SIGKILL to stap: staprun recorded %r, expected SIGTERM" % log_lines(log))
        print("local SIGKILL: staprun log %r" % log_lines(log), flush=True)
    else:
        p.kill()
        fail("SIGKILL: the fake staprun never started")


# ---------------------------------------------------------------------------
# remote: stap --remote=qemu -> stapvm -> qemu -> staprun/stapio in the guest

REMOTE_SCRIPT = '''global n
probe timer.ms(10) {
  for (i = 0; i < 20; i++)
    printf("line %d\\n", ++n)
}
probe end { printf("end %d\\n", n) }
'''


def remote_start():
    return subprocess.Popen([STAP, "--remote=qemu:" + RELEASE, "-m", "sigremote", "r.stp"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=restore_signals)


def qemus_of(pid):
    return {p: c for p, c in descendants(pid).items() if c.startswith("qemu")}


def check_lines(what, lines):
    numbers = [int(l.split()[1]) for l in lines if l.startswith("line ")]
    ends = [l for l in lines if l.startswith("end ")]
    other = [l for l in lines if not l.startswith(("line ", "end "))]
    if numbers != list(range(1, len(numbers) + 1)):
        missing = sorted(set(range(1, max(numbers or [0]) + 1)) - set(numbers))
        fail("%s: lines not 1..N (%d lines, %d missing, first missing %s)"
             % (what, len(numbers), len(missing), missing[:1]))
    if ends != ["end %d" % len(numbers)]:
        fail("%s: expected 'end %d' once, got %r" % (what, len(numbers), ends))
    if other:
        fail("%s: unexpected output %r" % (what, other[:5]))
    return len(numbers)


def remote_tests():
    with open("r.stp", "w") as f:
        f.write(REMOTE_SCRIPT)
    for sig in STOP_SIGNALS:
        name = sig.name
        p = remote_start()
        out, err = Reader(p.stdout), Reader(p.stderr)
        if not out.wait_for("line 200", 300):
            p.kill()
            p.wait()
            fail("%s: the script never printed 200 lines; stderr:\n%s" % (name, err.text()))
            continue
        qemus = qemus_of(p.pid)
        if not qemus:
            fail("%s: no qemu under stap" % name)
        t0 = time.monotonic()
        os.kill(p.pid, sig)
        try:
            status = p.wait(120)
        except subprocess.TimeoutExpired:
            p.kill()
            status = p.wait()
            fail("%s: stap still ran 120 s after the signal" % name)
        took = time.monotonic() - t0
        out.thread.join(10)
        err.thread.join(10)
        count = check_lines(name, out.lines)
        if status != 0:
            fail("%s: stap exited %d; stderr:\n%s" % (name, status, err.text()))
        if err.text():
            fail("%s: stderr not empty:\n%s" % (name, err.text()))
        if not wait_gone(qemus, 5):
            fail("%s: qemu %s outlived stap" % (name, sorted(qemus)))
        print("remote %s: status %d, %d lines and the end probe, stopped %.1f s after the "
              "signal, qemu gone" % (name, status, count, took), flush=True)

    # SIGKILL: stap cannot stop anything itself; its children must notice.
    p = remote_start()
    out, err = Reader(p.stdout), Reader(p.stderr)
    if not out.wait_for("line 200", 300):
        p.kill()
        p.wait()
        fail("SIGKILL: the script never printed 200 lines; stderr:\n%s" % err.text())
        return
    below = descendants(p.pid)
    qemus = [pid for pid, comm in below.items() if comm.startswith("qemu")]
    scratch = set()
    for pid in qemus:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            args = f.read().split(b"\0")
        scratch |= {os.path.dirname(a.decode()) for a in args if a.endswith(b"initrd.cpio")}
    if not qemus or not scratch:
        fail("SIGKILL: no qemu (or no initrd in its command line) under stap: %r" % below)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    if not wait_gone(list(below), 10):
        left = {pid: comm for pid, comm in below.items() if alive(pid)}
        fail("SIGKILL: still running 10 s after stap was killed: %r" % left)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
    for d in scratch:
        if os.path.exists(d):
            fail("SIGKILL: stapvm left %s behind" % d)
    print("remote SIGKILL: %s gone, scratch %s removed"
          % (" ".join(sorted(set(below.values()))), " ".join(sorted(scratch))), flush=True)


# ---------------------------------------------------------------------------
# build: a stop signal while pass 4's kernel build runs

def build_tests():
    """SIGINT, SIGTERM, SIGHUP to stap alone, and SIGINT to its whole group (a
    terminal's Ctrl-C), while make runs: stap stops the build, exits 1 saying
    so, writes no module, leaves no temporary directory and no make or gcc."""
    cases = [(sig, False) for sig in STOP_SIGNALS] + [(signal.SIGINT, True)]
    for n, (sig, group) in enumerate(cases):
        what = "%s to %s" % (sig.name, "stap's group" if group else "stap")
        tmp = os.path.abspath("tmp-build-%d" % n)
        os.makedirs(tmp)
        env = dict(os.environ, TMPDIR=tmp)
        # a body of its own each time: nothing to find in a cache
        script = 'probe kernel.function("vfs_read") { println(%d) }' % n
        p = subprocess.Popen([STAP, "--disable-cache", "-p4", "-r", RELEASE, "-m", "sigbuild", "-e", script],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=restore_signals, start_new_session=group)
        deadline = time.monotonic() + 120
        below = {}
        while time.monotonic() < deadline and "make" not in below.values():
            time.sleep(0.05)
            below = descendants(p.pid)
        if "make" not in below.values():
            p.kill()
            fail("%s: no make started under stap" % what)
            continue
        time.sleep(0.3)  # let make start its compilers
        below = descendants(p.pid)
        if group:
            os.killpg(p.pid, sig)
        else:
            os.kill(p.pid, sig)
        try:
            out, err = p.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            p.kill()
            fail("%s: stap still running 60 s later" % what)
            continue
        err = err.decode()
        expected = "stap: pass 4 interrupted by %s; nothing was written" % sig.name
        if p.returncode != 1 or expected not in err.splitlines():
            fail("%s: status %d, stderr %r; expected 1 and %r" % (what, p.returncode, err, expected))
        if os.path.exists("sigbuild.ko"):
            fail("%s: a module was written" % what)
        if os.listdir(tmp):
            fail("%s: left %s in TMPDIR" % (what, os.listdir(tmp)))
        if not wait_gone(list(below), 10):
            fail("%s: left running: %s" % (what, sorted(c for q, c in below.items() if alive(q))))
        print("build %s: status %d, %d processes of the build stopped, nothing left"
              % (what, p.returncode, len(below)), flush=True)


def build_kill_tests():
    """SIGKILL to stap while cc1 compiles its module: stap cannot stop anything
    itself; the build watcher (PR_SET_PDEATHSIG) stops make and every
    compiler, and removes the temporary directory."""
    tmp = os.path.abspath("tmp-build-kill")
    os.makedirs(tmp)
    env = dict(os.environ, TMPDIR=tmp)
    script = 'probe kernel.function("vfs_read") { println("killed") }'
    p = subprocess.Popen([STAP, "--disable-cache", "-p4", "-r", RELEASE, "-m", "sigkill", "-e", script],
                         env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=restore_signals)
    deadline = time.monotonic() + 120
    below = {}
    while time.monotonic() < deadline and "cc1" not in below.values():
        time.sleep(0.02)
        below = descendants(p.pid)
    if "cc1" not in below.values():
        p.kill()
        fail("SIGKILL in pass 4: no cc1 started under stap (saw %r)" % sorted(below.values()))
        return
    os.kill(p.pid, signal.SIGKILL)
    p.wait(10)
    if not wait_gone(list(below), 10):
        fail("SIGKILL in pass 4: left running: %s" % sorted(c for q, c in below.items() if alive(q)))
    deadline = time.monotonic() + 10
    while os.listdir(tmp) and time.monotonic() < deadline:
        time.sleep(0.05)
    if os.listdir(tmp):
        fail("SIGKILL in pass 4: left %s in TMPDIR" % os.listdir(tmp))
    if os.path.exists("sigkill.ko"):
        fail("SIGKILL in pass 4: a module was written")
    print("build SIGKILL: %d processes of the build (%s) stopped, nothing left"
          % (len(below), " ".join(sorted(set(below.values())))), flush=True)


def early_pass_tests():
    """A stop signal in pass 2 (sent when -v reports pass 1 done; a
    kernel.function wildcard takes a while to elaborate): status 1, the
    message names pass 2, nothing left. A
    closed stdout in passes 1-4 (SIGPIPE when -p N prints): status 1, a
    message, no temporary directory, no module, no child left."""
    script = 'probe kernel.function("vfs_*") { println("early") }'
    for sig in (signal.SIGTERM, signal.SIGINT):
        tmp = os.path.abspath("tmp-early-%s" % sig.name)
        os.makedirs(tmp)
        # -v: "Pass 1: parsed" on stderr says pass 2 has begun; the signal goes then
        p = subprocess.Popen([STAP, "-v", "--disable-cache", "-p4", "-r", RELEASE, "-m", "sigearly", "-e", script],
                             env=dict(os.environ, TMPDIR=tmp), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, preexec_fn=restore_signals)
        first = p.stderr.readline().decode()
        os.kill(p.pid, sig)
        out, err = p.communicate(timeout=60)
        err = first + err.decode()
        if p.returncode != 1 or not re.search(r"pass 2 interrupted by %s" % sig.name, err):
            fail("%s in pass 2: status %d, stderr %r" % (sig.name, p.returncode, err))
        if os.listdir(tmp):
            fail("%s in pass 1-2: left %s in TMPDIR" % (sig.name, os.listdir(tmp)))
        print("early %s: status %d, %s" % (sig.name, p.returncode, err.strip().splitlines()[-1]), flush=True)
    for last in (1, 2, 3, 4):
        tmp = os.path.abspath("tmp-pipe-%d" % last)
        os.makedirs(tmp)
        r, w = os.pipe()
        os.close(r)  # stdout is a pipe nobody reads: the first write is SIGPIPE/EPIPE
        p = subprocess.Popen([STAP, "-p%d" % last, "-r", RELEASE, "-m", "sigpipe", "-e", script],
                             env=dict(os.environ, TMPDIR=tmp), stdout=w, stderr=subprocess.PIPE,
                             preexec_fn=restore_signals)
        os.close(w)
        _, err = p.communicate(timeout=120)
        err = err.decode()
        if p.returncode != 1 or "stap: cannot write pass %d's output" % last not in err:
            fail("closed stdout, -p%d: status %d, stderr %r" % (last, p.returncode, err))
        if os.listdir(tmp):
            fail("closed stdout, -p%d: left %s in TMPDIR" % (last, os.listdir(tmp)))
        print("closed stdout -p%d: status %d, nothing left" % (last, p.returncode), flush=True)
    if os.path.exists("sigearly.ko"):
        fail("a stopped build wrote sigearly.ko")


def main():
    mode = sys.argv[1]
    restore_signals()
    if mode == "local":
        local_tests()
    elif mode == "remote":
        remote_tests()
    elif mode == "build":
        build_tests()
        build_kill_tests()
        early_pass_tests()
    else:
        sys.exit("usage: signals.py local|remote|build")
    if failures:
        # again at the end: run-tests shows the tail of a long output
        print("%d failure(s):\n  %s" % (len(failures), "\n  ".join(f[:300] for f in failures)))
        sys.exit(1)


if __name__ == "__main__":
    main()
