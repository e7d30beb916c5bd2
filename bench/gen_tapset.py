#!/usr/bin/env python3
"""bench/gen_tapset.py: write a large synthetic tapset into a directory, for the tapset-scale bench.

    bench/gen_tapset.py DIR [--aliases N] [--functions M]

The shape follows the tapset the library is growing into: syscall aliases
(`syscall.NAME` and `syscall.NAME.return`, each over a kprobe and setting
name/argstr/retstr), spread over files of 50 aliases like syscalls*.stp,
and M functions in files of 50 (a third embedded C, the rest script
functions calling one another and reading a file's global). Names are
made up (sys_bench_N), so nothing here depends on the kernel; kprobe
points need no debuginfo, so -p2 measures the tapset work alone.
"""
import argparse
import os


def write_aliases(out, n):
    per_file = 50
    for f in range(0, n, per_file):
        lines = ["// syscalls_bench%d.stp - generated syscall aliases for bench/run's tapset case.\n" % (f // per_file)]
        for i in range(f, min(n, f + per_file)):
            name = "bench%d" % i
            lines.append(
                "// syscall.%s: entry to the made-up system call %s.\n"
                "probe syscall.%s = kprobe.function(\"__x64_sys_%s\") ?\n"
                "{\n\tname = \"%s\"\n\tfd = bench_arg(%d)\n\targstr = sprintf(\"%%d, %%s\", fd, bench_fmt_%d(fd))\n}\n"
                "probe syscall.%s.return = kprobe.function(\"__x64_sys_%s\").return ?\n"
                "{\n\tname = \"%s\"\n\tretstr = bench_ret(%d)\n}\n\n"
                % (name, name, name, name, name, i, i % 1000, name, name, name, i))
        with open(os.path.join(out, "syscalls_bench%d.stp" % (f // per_file)), "w") as fh:
            fh.write("".join(lines))


def write_functions(out, m):
    per_file = 50
    helpers = ("// bench_helpers.stp - helpers the generated aliases call.\n"
               "function bench_arg:long (n:long) { return n * 2 }\n"
               "function bench_ret:string (n:long) { return sprintf(\"%d\", n) }\n")
    with open(os.path.join(out, "bench_helpers.stp"), "w") as fh:
        fh.write(helpers)
    for f in range(0, m, per_file):
        k = f // per_file
        lines = ["// bench_funcs%d.stp - generated functions for bench/run's tapset case.\n" % k,
                 "global bench_calls%d\n\n" % k]
        for i in range(f, min(m, f + per_file)):
            if i % 3 == 0:
                lines.append("// bench_fmt_%d: embedded C.\nfunction bench_fmt_%d:string (v:long) %%{ /* pure */\n"
                             "\tsnprintf(STAP_RETVALUE, MAXSTRINGLEN, \"0x%%llx\", (unsigned long long)STAP_ARG_v);\n%%}\n\n"
                             % (i, i))
            else:
                callee = "bench_fmt_%d" % (i - i % 3)
                lines.append("// bench_fmt_%d: script.\nfunction bench_fmt_%d:string (v:long) {\n"
                             "\tbench_calls%d++\n\tif (v < 0) return \"neg\"\n\treturn %s(v + %d)\n}\n\n"
                             % (i, i, k, callee, i))
        with open(os.path.join(out, "bench_funcs%d.stp" % k), "w") as fh:
            fh.write("".join(lines))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--aliases", type=int, default=500)
    ap.add_argument("--functions", type=int, default=1000)
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    write_aliases(args.dir, args.aliases)
    write_functions(args.dir, args.functions)


if __name__ == "__main__":
    main()
