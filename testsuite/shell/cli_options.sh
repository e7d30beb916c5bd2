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
expect 2 "with --remote=qemu, -b needs -o FILE" -- -b --remote=qemu -e "$S"
expect 2 "--dump-* options take no script" -- --dump-functions -e "$S"
expect 2 "-x PID cannot be used with several --remote targets" -- -x 1 --remote=a --remote=b -e "$S"
expect 2 "invalid --remote 'unix:/x': unix: sockets are not supported" -- --remote=unix:/x -e "$S"
expect 2 "invalid --remote 'h:99999': the port after ':' must be a number" -- --remote=h:99999 -e "$S"
expect 2 "invalid --remote 'libvirt://d': unsupported scheme" -- --remote=libvirt://d -e "$S"
expect 2 "invalid --remote-jobs '0'" -- --remote-jobs=0 --remote=a -e "$S"
expect 2 "-F, -b and -S cannot be used with ssh" -- -F --remote=a -e "$S"
echo "ok: option errors"

"$STAP" --dump-probe-types > types
for t in 'input.char' 'input.line' 'procfs(string).umask(number).read' 'timer.ms(number)' 'begin'; do
	grep -qxF "$t" types || fail "--dump-probe-types lacks $t"
done
sort -c types || fail "--dump-probe-types is not sorted"
"$STAP" --dump-functions > functions
grep -qxF 'MKDEV:long (major:long, minor:long)' functions || fail "--dump-functions lacks MKDEV"
[ "$(sort -u functions | wc -l)" = "$(wc -l < functions)" ] || fail "--dump-functions repeats a line"
"$STAP" --dump-probe-aliases > aliases
grep -qxF 'oneshot += begin' aliases || fail "--dump-probe-aliases lacks oneshot"
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
