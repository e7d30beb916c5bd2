# staprun installed setuid root for the group stapusr (mode 4754, as the
# Debian postinst makes it), in a guest with the host's userland: a member of
# stapusr runs a module root put under /lib/modules/R/systemtap/, and its -c
# command runs as that user; the same user is refused another path and -R;
# a member of stapdev (and stapusr, as SystemTap documents) may load any path; a user in neither group cannot run it.
# The caller's environment does not reach the setuid staprun: SYSTEMTAP_RUNTIME, SYSTEMTAP_VERBOSE and
# LD_LIBRARY_PATH set by alice are gone in the environment her -c command gets.
. "$SRCDIR/testsuite/shell/lib/kernels.sh"
ninep_release
command -v setpriv >/dev/null || fail "setpriv (util-linux) is missing"

"$STAP" -p4 -r "$ninep" -m priv_t -e 'probe begin { printf("hello uid %d\n", uid()) } probe timer.s(30) { exit() }' >/dev/null ||
	fail "stap -p4"
cp "$BUILD/bin/staprun" "$BUILD/bin/stapio" .
cat > guest.sh <<'GUEST'
set -u
as() { user=$1; shift; setpriv --reuid="$user" --regid=users --init-groups "$@"; }
run() { label=$1; shift; out=$(as "$@" 2>&1); rc=$?; echo "$label: $out rc=$rc"; }
for g in stapusr stapdev; do getent group $g >/dev/null || groupadd -r $g || exit 10; done
useradd -M -N -g users -G stapusr alice && useradd -M -N -g users -G stapusr,stapdev dave &&
	useradd -M -N -g users bob || exit 11
mkdir -p /opt/stapc && cp staprun stapio /opt/stapc/ &&
	chown root:stapusr /opt/stapc/staprun && chmod 4754 /opt/stapc/staprun || exit 12
dir=/lib/modules/$(uname -r)/systemtap
mkdir -p "$dir" && cp priv_t.ko "$dir/" || exit 13
cp priv_t.ko /tmp/priv_t.ko && chmod 644 /tmp/priv_t.ko
run alice alice /opt/stapc/staprun -c 'id -un' "$dir/priv_t.ko"
run "alice other path" alice /opt/stapc/staprun /tmp/priv_t.ko
run "alice -R" alice /opt/stapc/staprun -R "$dir/priv_t.ko"
run "alice env" alice env SYSTEMTAP_RUNTIME=/tmp/evil SYSTEMTAP_VERBOSE=3 LD_LIBRARY_PATH=/tmp/evil STAPC_MARK=1 \
	/opt/stapc/staprun -c env "$dir/priv_t.ko"
run dave dave /opt/stapc/staprun -c true /tmp/priv_t.ko
run bob bob /opt/stapc/staprun "$dir/priv_t.ko"
GUEST
"$BUILD/bin/stapvm" -r "$ninep" --userland=host -d . -- sh guest.sh >out.txt 2>&1 ||
	fail "the guest failed: $(cat out.txt)"
cat out.txt
alice=$(sed -n '/^alice: /,/rc=/p' out.txt)
echo "$alice" | grep -q 'hello uid' || fail "alice's module did not run: $alice"
echo "$alice" | grep -q '^alice\( rc=0\)*$' || fail "alice's -c command did not run as alice: $alice"
echo "$alice" | grep -q 'rc=0$' || fail "alice's run failed: $alice"
grep -A2 '^alice other path: ' out.txt | grep -q 'only when a trusted compile server signed it' ||
	fail "alice loaded a module from another path"
grep -A2 '^alice -R: ' out.txt | grep -q -- "option '-R' is not permitted to members of stapusr" || fail "alice loaded a module renamed"
aenv=$(sed -n '/^alice env: /,/rc=/p' out.txt)
echo "$aenv" | grep -q '^PATH=' || fail "alice's -c env did not run: $aenv"
echo "$aenv" | grep -q 'rc=0$' || fail "alice's run with a set environment failed: $aenv"
echo "$aenv" | grep -E '^(SYSTEMTAP_RUNTIME|SYSTEMTAP_VERBOSE|LD_LIBRARY_PATH|STAPC_MARK)=' &&
	fail "the caller's environment reached the setuid staprun's command"
grep -A3 '^dave: ' out.txt | grep -q 'hello uid' || fail "dave (stapdev) could not load a module from /tmp"
grep -A2 '^bob: ' out.txt | grep -q 'Permission denied\|not a member of the group stapusr' ||
	fail "bob ran staprun"
grep -A2 '^bob: ' out.txt | grep -q 'hello' && fail "bob ran a module"
exit 0
