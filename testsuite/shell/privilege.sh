# --privilege and --unprivileged on the command line (man stap, UNPRIVILEGED
# USERS): a bad level, guru mode and the SYSTEMTAP_* variables refused below
# stapdev, --dump-functions with the marks, and the level a user who is not
# root gets by default when running a script (pass 5).
fail() { echo "FAIL: $*"; exit 1; }
S='probe begin { println(pid()) exit() }'

expect() { # STATUS WHAT ARGS...: stap exits with STATUS and says WHAT on stderr
	want=$1 what=$2
	shift 2
	status=0
	"$@" > out 2> err || status=$?
	[ "$status" = "$want" ] || { cat err; fail "$*: status $status, expected $want"; }
	grep -qF "$what" err || { cat err; fail "$*: no '$what' in stderr"; }
}
expect 2 "invalid privilege level 'root' for --privilege" "$STAP" -p2 --privilege=root -e "$S"
expect 2 "guru mode (-g) is not permitted at privilege level stapsys" "$STAP" -p2 -g --privilege=stapsys -e "$S"
expect 2 "SYSTEMTAP_TAPSET must not be set at privilege level stapusr" env SYSTEMTAP_TAPSET=/tmp "$STAP" -p2 --unprivileged -e "$S"
expect 2 "SYSTEMTAP_RUNTIME must not be set at privilege level stapusr" env SYSTEMTAP_RUNTIME=/tmp "$STAP" -p2 --unprivileged -e "$S"
expect 2 "SYSTEMTAP_DEBUGINFO_PATH must not be set at privilege level stapsys" env SYSTEMTAP_DEBUGINFO_PATH=/tmp "$STAP" -p2 --privilege=stapsys -e "$S"
env SYSTEMTAP_RUNTIME="$SRCDIR/runtime" "$STAP" -p2 --privilege=stapdev -e "$S" > /dev/null || fail "stapdev refused SYSTEMTAP_RUNTIME"
"$STAP" -p2 --privilege=stapdev -g -e "$S" > /dev/null || fail "stapdev refused -g"
"$STAP" -p2 --privilege -e "$S" > /dev/null || fail "bare --privilege (stapusr) refused a begin probe"
echo "ok: option refusals"

"$STAP" --dump-functions --privilege=stapusr > functions
grep -qxF 'pid:long () /* unprivileged */' functions || fail "--dump-functions --privilege=stapusr lacks pid's mark"
grep -qxF 'user_string:string (addr:long) /* myproc-unprivileged */' functions || fail "no myproc mark on user_string"
grep -q '^kernel_long:' functions && fail "--privilege=stapusr lists kernel_long (C, not marked)"
"$STAP" --dump-functions > all
grep -q 'unprivileged' all && fail "--dump-functions without --privilege shows marks"
grep -q '^kernel_long:long (addr:long)$' all || fail "--dump-functions lacks kernel_long"
echo "ok: --dump-functions marks"

# A user who is neither root nor in stapdev gets stapusr for a run (pass 5):
# the kernel probe is refused at pass 2, before anything is built. stap runs
# from a copy the user can read (the build tree may sit under a private home).
nobody=$(id -u nobody) || fail "no user nobody"
copy=$(mktemp -d /tmp/stapc-privilege.XXXXXX)
trap 'rm -rf "$copy"' EXIT
mkdir -p "$copy/bin" "$copy/share/stapc" "$copy/tmp"
cp "$STAP" "$copy/bin/stap"
cp -r "$SRCDIR/tapset" "$SRCDIR/runtime" "$copy/share/stapc/"
chmod -R a+rX "$copy"
chmod 1777 "$copy/tmp"
status=0
setpriv --reuid="$nobody" --regid="$nobody" --clear-groups env HOME="$copy/tmp" TMPDIR="$copy/tmp" \
	STAPC_CACHE_DIR="$copy/tmp/cache" "$copy/bin/stap" -r "$RELEASE" \
	-e 'probe kprobe.function("vfs_read") { exit() }' > out 2> err || status=$?
[ "$status" = 1 ] || { cat err; fail "stap as nobody: status $status, expected 1"; }
grep -qF "is not permitted at privilege level stapusr" err || { cat err; fail "stap as nobody was not made stapusr"; }
setpriv --reuid="$nobody" --regid="$nobody" --clear-groups env HOME="$copy/tmp" TMPDIR="$copy/tmp" \
	"$copy/bin/stap" -p2 -r "$RELEASE" -e 'probe kprobe.function("vfs_read") { exit() }' > out 2> err ||
	{ cat err; fail "stap -p2 as nobody (no automatic level below pass 5) failed"; }
echo "ok: automatic stapusr for a user outside stapdev"
