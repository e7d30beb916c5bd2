# stap's command line without a guest or a build: option errors (status 2, a clear message),
# the --dump-* lists, and what -G, -t, -b, -P and --suppress-* put into the module's C.
fail() { echo "FAIL: $*"; exit 1; }

# expect STATUS MESSAGE -- stap arguments...: that exit status and MESSAGE in stderr
expect() {
	want=$1 msg=$2
	shift 3
	status=0
	"$STAP" "$@" >out 2>err || status=$?
	[ "$status" = "$want" ] || { cat err; fail "stap $*: exit status $status, expected $want"; }
	grep -qF -- "$msg" err || { cat err; fail "stap $*: no '$msg' on stderr"; }
}

S='probe begin { exit() }'
expect 2 "unrecognized option '--bogus'" -- --bogus -e "$S"
expect 2 "invalid -G 'x' (expected NAME=VALUE" -- -G x -e "$S"
expect 2 "invalid -B '1x=2' (expected NAME=VALUE" -- -B 1x=2 -e "$S"
expect 2 "invalid -S '0' (expected SIZE[,N]" -- -S 0 -o f -e "$S"
expect 2 "invalid -S '5,x'" -- -S 5,x -o f -e "$S"
expect 2 "-S needs an output file (-o FILE)" -- -S 5 -e "$S"
expect 2 "--suppress-time-limits needs guru mode (-g)" -- --suppress-time-limits -e "$S"
expect 2 "invalid --prologue-searching 'sometimes'" -- --prologue-searching=sometimes -e "$S"
expect 2 "-F cannot be used with -c" -- -F -c true -e "$S"
expect 2 "invalid process id '0' for --target-namespaces" -- --target-namespaces=0 -e "$S"
expect 2 "with --remote=qemu, -b needs -o FILE" -- -b --remote=qemu -e "$S"
expect 2 "--dump-* options take no script" -- --dump-functions -e "$S"
expect 2 "-x PID cannot be used with several --remote targets" -- -x 1 --remote=a --remote=b -e "$S"
expect 2 "invalid --remote 'unix:': no socket path after 'unix:'" -- --remote=unix: -e "$S"
# --example: a name found among the examples (stapc's own, in the source tree here), or an error
"$STAP" --example opens -p1 >out 2>err || { cat err; fail "stap --example opens: status $?"; }
grep -q '^global opens' out || { cat out; fail "stap --example opens did not parse examples/opens.stp"; }
"$STAP" --example opens.stp -p1 >out 2>err || { cat err; fail "stap --example opens.stp: status $?"; }
expect 1 "no example script named 'no-such-example'" -- --example no-such-example -p1
expect 1 "no example script named '../opens.stp'" -- --example ../opens.stp -p1
long=$(printf '%0120d' 0)
expect 2 "invalid --remote 'unix:/$long': the socket path is too long" -- --remote=unix:/$long -e "$S"
expect 2 "invalid --remote 'h:99999': the port after ':' must be a number" -- --remote=h:99999 -e "$S"
expect 2 "invalid --remote 'libvirt://d': unsupported scheme" -- --remote=libvirt://d -e "$S"
expect 2 "invalid --remote-jobs '0'" -- --remote-jobs=0 --remote=a -e "$S"
expect 2 "-F, -b and -S cannot be used with ssh" -- -F --remote=a -e "$S"
echo "ok: option errors"

"$STAP" --dump-probe-types > types
for t in 'input.char' 'input.line' 'procfs(string).umask(number).read' 'timer.ms(number)' 'begin' \
	'netfilter.hook(string).pf(string)' 'kernel.function(string).callee(string)' 'kernel.function(string).callees(number).return' \
	'process(string).function(string).callees(number).return' 'kernel.function(string).label(string)' 'process(string).plt' 'timer.msec(number)' \
	'timer.nsec(number).randomize(number)' 'kernel.trace(string)' 'module(string).statement(string)'; do
	grep -qxF "$t" types || fail "--dump-probe-types lacks $t"
done
sort -c types || fail "--dump-probe-types is not sorted"
# the providers write their forms with {a,b} groups; every group comes out expanded, each form once
for t in 'process(number).library(string).provider(string).mark(string)' 'process.statement(number).absolute' \
	'kprobe.module(string).function(string).return.maxactive(number)' 'perf.sw.EVENT.process(string).counter(string)'; do
	grep -qxF "$t" types || fail "--dump-probe-types lacks $t"
done
! grep -q '[{},]' types || fail "--dump-probe-types shows an unexpanded group: $(grep -m1 '[{},]' types)"
[ "$(sort -u types | wc -l)" = "$(wc -l < types)" ] || fail "--dump-probe-types repeats a form"
"$STAP" --dump-functions > functions
grep -qxF 'MKDEV:long (major:long, minor:long)' functions || fail "--dump-functions lacks MKDEV"
[ "$(sort -u functions | wc -l)" = "$(wc -l < functions)" ] || fail "--dump-functions repeats a line"
"$STAP" --dump-probe-aliases > aliases
grep -qxF 'oneshot += begin' aliases || fail "--dump-probe-aliases lacks oneshot"
# the system call aliases come from the target kernel's calls, none of them a tapset file's
"$STAP" -r "$RELEASE" --dump-probe-aliases > aliases
for a in 'syscall.read = kernel.function("__x64_sys_read")' 'nd_syscall.read.return = kprobe.function("__x64_sys_read").return' \
	 'syscall_any.return = kernel.trace("raw_syscalls:sys_exit")' 'oneshot += begin'; do
	grep -qxF "$a" aliases || fail "--dump-probe-aliases -r $RELEASE lacks $a"
done
! grep -q '__dispatch' aliases || fail "--dump-probe-aliases lists a wildcard's dispatching alias"
echo "ok: --dump-* ($(wc -l < types) probe types, $(wc -l < functions) functions, $(wc -l < aliases) aliases)"

# -G is checked against the script's globals before the build
G='global n = 1, s = "x", a; probe begin { a[1] = n; println(s, a[1]) }'
expect 1 "-G m=1: 'm' is not a global of the script" -- -p3 -r "$RELEASE" -G m=1 -e "$G"
expect 1 "-G n=abc: global 'n' is a number, not 'abc'" -- -p3 -r "$RELEASE" -G n=abc -e "$G"
expect 1 "-G a=1: 'a' is not a number or string global" -- -p3 -r "$RELEASE" -G a=1 -e "$G"
"$STAP" -p3 -r "$RELEASE" -G n=0x10 -G s=hi -t -b --suppress-handler-errors -e "$G" > c
for line in 'module_param_cb(n, &_stp_global_param_ops, &_stp_gparam_n, 0);' \
	    'module_param_cb(s, &_stp_global_param_ops, &_stp_gparam_s, 0);' \
	    '#define STP_TIMING 1' '#define STP_BULKMODE 1' '#define STP_SUPPRESS_HANDLER_ERRORS 1'; do
	grep -qF "$line" c || fail "-p3 lacks: $line"
done
grep -q 'module_param_cb(a,' c && fail "an array became a module parameter"
echo "ok: -G, -t, -b, --suppress-handler-errors in the C"

# options that only reach pass 4 or 5 are accepted with a script that stops earlier
"$STAP" -p2 -P --prologue-searching=never -F -S 2,3 -o f -B V=1 -e "$S" > /dev/null || fail "options not accepted"
"$STAP" -p2 -b -S 1,2 -o f --check-version -e "$S" > /dev/null 2> err || fail "-b -S, --check-version not accepted"
[ -s err ] && { cat err; fail "--check-version warned about a script without systemtap_v"; }
"$STAP" -p2 -g --suppress-time-limits -e "$S" > /dev/null || fail "--suppress-time-limits -g not accepted"
echo "ok: pass-4/5 options accepted"

# --prologue-searching: an unoptimized function is probed after its prologue unless 'never'
printf 'int add(int a, int b) { int c = a + b; return c; }\nint main(void) { return add(1, 2) - 3; }\n' > p.c
gcc -g -O0 -o p p.c
P="probe process(\"$PWD/p\").function(\"add\") { println(\$a) }"
for mode in auto never always; do
	"$STAP" -p3 --prologue-searching=$mode -e "$P" | grep -o '\.offset = 0x[0-9a-f]*' > offset.$mode
	[ -s offset.$mode ] || fail "--prologue-searching=$mode: no uprobe offset in the C"
done
"$STAP" -p3 -P -e "$P" | grep -o '\.offset = 0x[0-9a-f]*' > offset.P
cmp -s offset.auto offset.always || fail "always and auto differ on unoptimized code"
cmp -s offset.always offset.P || fail "-P is not --prologue-searching=always"
cmp -s offset.auto offset.never && fail "never still skips the prologue"
echo "ok: --prologue-searching ($(cat offset.never) at the entry, $(cat offset.auto) after the prologue)"

# GNU order: options before and after the script file; only "--" ends them
printf 'probe begin { printf("%%s %%s %%d\\n", @1, @2, $#) }\n' > args.stp
"$STAP" -p1 args.stp a -- -p3 -x > after 2> err || { cat err; fail "options after the script"; }
grep -qF 'printf("%s %s %d\n", "a", "-p3", 3);' after || { cat after; fail "'--' did not end the options"; }
"$STAP" args.stp -p1 a b > p1 || fail "-p1 after the script"
grep -qF '"a", "b", 2' p1 || { cat p1; fail "-p1 after the script was not an option"; }
expect 2 "invalid option -- 'q'" -- args.stp a -q
expect 2 "-c and -x cannot be used together" -- -p2 args.stp a b -c true -x 1
"$STAP" -p2 args.stp a b -x 1 -T 2 -G x=1 > /dev/null 2> err || { cat err; fail "-x, -T, -G after the script"; }
echo "ok: options after the script"

# -E (repeatable, also with -l), -T: parsed as scripts of their own, named in diagnostics
"$STAP" -p1 -e 'probe begin {}' -E 'probe end {}' -E 'global g' -T 3 > p1 || fail "-E, -T"
for line in 'probe end {' 'global g' 'probe timer.s(3) {' '  exit();'; do
	grep -qxF "$line" p1 || { cat p1; fail "-E/-T: no '$line' in pass 1's output"; }
done
expect 1 "<input -E>:1:19: error: syntax error" -- -p1 -e 'probe begin {}' -E 'probe begin { x = }'
expect 2 "invalid time in seconds '0' for -T" -- -T 0 -e "$S"
"$STAP" -l 'begin' -E 'probe end {}' -T 5 > listed || fail "-E with -l"
[ "$(cat listed)" = begin ] || { cat listed; fail "-l with -E and -T lists other than the pattern's probe"; }
echo "ok: -E, -T"

# --vp: verbosity of one pass alone
"$STAP" -p2 --vp 01 -e "$S" > /dev/null 2> err || fail "--vp 01"
grep -q '^Pass 2: elaborated' err && ! grep -q '^Pass 1' err || { cat err; fail "--vp 01 is not pass 2 alone"; }
expect 2 "invalid --vp '0x'" -- --vp 0x -e "$S"
echo "ok: --vp"

# --tmpdir: pass 3's directory is made there
mkdir tmp
"$STAP" -p3 -k --tmpdir "$PWD/tmp" -r "$RELEASE" -e "$S" > /dev/null 2> err || { cat err; fail "--tmpdir"; }
grep -qF "Keeping temporary directory \"$PWD/tmp/stap" err || { cat err; fail "--tmpdir not used"; }
expect 2 "--tmpdir nowhere is not a directory" -- --tmpdir nowhere -e "$S"
echo "ok: --tmpdir"

# --clean-cache trims the cache to its limit (here 0 MiB) and exits
mkdir cache
k=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
echo x > cache/$k.ko
STAPC_CACHE_DIR=$PWD/cache STAPC_CACHE_SIZE_MB=0 "$STAP" --clean-cache || fail "--clean-cache"
[ -e cache/$k.ko ] && fail "--clean-cache left an entry over the limit"
expect 2 "--clean-cache takes no script" -- --clean-cache -e "$S"
echo "ok: --clean-cache"

# --color and SYSTEMTAP_COLORS: SGR sequences around the level, the source line and the caret
esc=$(printf '\033')
"$STAP" -p1 --color -e 'probe begin { x = }' 2> err && fail "a syntax error passed"
grep -qF "${esc}[01;31merror${esc}[m: syntax error" err || { cat -v err; fail "--color: error not red"; }
grep -qF "${esc}[01m^${esc}[m" err || { cat -v err; fail "--color: caret not bold"; }
SYSTEMTAP_COLORS='error=04:caret=07' "$STAP" -p1 --color=always -e 'probe begin { x = }' 2> err || true
grep -qF "${esc}[04merror" err && grep -qF "${esc}[07m^" err || { cat -v err; fail "SYSTEMTAP_COLORS not used"; }
for env in '' 'bogus=1'; do
	SYSTEMTAP_COLORS=$env "$STAP" -p1 --color=always -e 'probe begin { x = }' 2> err || true
	grep -q "$esc" err && { cat -v err; fail "SYSTEMTAP_COLORS='$env' did not turn colors off"; }
done
"$STAP" -p1 --color=never -e 'probe begin { x = }' 2> err || true
grep -q "$esc" err && fail "--color=never colored"
"$STAP" -p1 -e 'probe begin { x = }' 2> err || true
grep -q "$esc" err && fail "auto colored a file"
expect 2 "invalid --color 'blue'" -- --color=blue -e "$S"
echo "ok: --color, SYSTEMTAP_COLORS"

# -V: SystemTap's form on stderr, nothing on stdout
"$STAP" -V > out 2> err || fail "-V"
[ -s out ] && fail "-V wrote to stdout"
head -1 err | grep -q '^Systemtap translator/driver (version [0-9.]*/stapc ' || { cat err; fail "-V's first line"; }
grep -q '^enabled features: ' err || { cat err; fail "-V lists no features"; }
echo "ok: -V"

# $SYSTEMTAP_DIR/rc: options read before the command line's
mkdir sysdir
printf -- "-p1\n-E 'probe end { println(\"from rc\") }'\n" > sysdir/rc
SYSTEMTAP_DIR=$PWD/sysdir "$STAP" -e "$S" > p1 || fail "rc options"
grep -qF 'println("from rc");' p1 || { cat p1; fail "the rc file's -E is missing"; }
SYSTEMTAP_DIR=$PWD/sysdir "$STAP" -p2 -e "$S" > p2 || fail "-p2 after rc's -p1"
grep -q '^# probes' p2 || { cat p2; fail "the command line's -p2 did not win over rc's -p1"; }
echo "-e 'unterminated" > sysdir/rc
SYSTEMTAP_DIR=$PWD/sysdir "$STAP" -p1 -e "$S" > /dev/null 2> err || fail "a bad rc file stopped stap"
grep -qF "ignoring $PWD/sysdir/rc" err || { cat err; fail "a bad rc file not reported"; }
echo "ok: \$SYSTEMTAP_DIR/rc"

# SYSTEMTAP_RELEASE is -r's default; SYSTEMTAP_TAPSET and SYSTEMTAP_RUNTIME the data directories
K='probe begin { %( kernel_v == "5.10.0" %? println("fake") %: println("real") %) }'
SYSTEMTAP_RELEASE=$SRCDIR/testsuite/fake-kernel "$STAP" -p1 -e "$K" | grep -q fake || fail "SYSTEMTAP_RELEASE not used"
SYSTEMTAP_RELEASE=$SRCDIR/testsuite/fake-kernel "$STAP" -p1 -r "$RELEASE" -e "$K" | grep -q real || fail "-r did not win"
mkdir empty
SYSTEMTAP_TAPSET=$PWD/empty "$STAP" -p2 -e 'probe begin { println(pid()) }' > /dev/null 2> err && fail "SYSTEMTAP_TAPSET ignored"
grep -q "pid" err || { cat err; fail "SYSTEMTAP_TAPSET: no error about pid()"; }
expect 2 "-R nowhere is not a directory" -- -R nowhere -e "$S"
SYSTEMTAP_RUNTIME=$PWD/empty "$STAP" -p4 --disable-cache -r "$RELEASE" -e "$S" > /dev/null 2> err && fail "SYSTEMTAP_RUNTIME ignored"
grep -q "runtime" err || { cat err; fail "SYSTEMTAP_RUNTIME: no error about the runtime"; }
echo "ok: SYSTEMTAP_RELEASE, SYSTEMTAP_TAPSET, SYSTEMTAP_RUNTIME"
