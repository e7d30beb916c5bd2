# --build-as=USER: passes 1-4 run as USER (the module, the temporary directory and the cache are
# USER's), pass 5 as root: a stand-in staprun beside a copy of stap records who ran it and the
# module it was given; the temporary directory is gone after. Refused without root, for an
# unknown user, with --remote.
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (it switches users); run-tests runs it as root in CI"
user=nobody
uid=$(id -u $user)
script='probe begin { exit() }'
# stap as installed (bin/, share/stapc/), which the user can run and read wherever the tree is
# (a clone under /root, mode 700, is closed to nobody): its tapset and runtime copied beside it
base=$(mktemp -d /tmp/build_as.XXXXXX)
trap 'rm -rf "$base"' EXIT
chmod 755 "$base"
mkdir -p "$base/bin" "$base/share/stapc"
cp "$STAP" "$base/bin/stap"
cp -r "$SRCDIR/tapset" "$SRCDIR/runtime" "$base/share/stapc/"
STAP=$base/bin/stap

"$STAP" -p2 --build-as=no_such_user_x -e "$script" 2>unknown.err && fail "an unknown user was accepted"
grep -qx "stap: --build-as: no user 'no_such_user_x' on this machine" unknown.err || { cat unknown.err; fail "unknown user: message"; }
setpriv --reuid=$uid --regid=$uid --clear-groups "$STAP" -p2 --build-as=$user -e "$script" 2>notroot.err &&
	fail "accepted without root"
grep -q "needs root" notroot.err || { cat notroot.err; fail "not root: message"; }
"$STAP" -p2 --build-as=$user --remote=qemu -e "$script" 2>remote.err && fail "accepted with --remote"
grep -q "not with --remote" remote.err || { cat remote.err; fail "--remote: message"; }

# A tapset the user cannot read (a tree under /root, mode 700) is named, not taken for empty.
closed=$(mktemp -d /tmp/build_as_closed.XXXXXX)
mkdir "$closed/tapset"
SYSTEMTAP_TAPSET=$closed/tapset "$STAP" -p2 --build-as=$user -e "$script" 2>closed.err && fail "an unreadable tapset was accepted"
grep -qx "stap: cannot read the tapset directory $closed/tapset: Permission denied" closed.err ||
	{ cat closed.err; fail "unreadable tapset: message"; }
rm -rf "$closed"

# Pass 4: the module and the cache entry are the user's. (The scratch directory is root's alone.)
cd "$base"
mkdir -m 777 work cache tmp
chown $user cache
cd work
STAPC_CACHE_DIR=$PWD/../cache TMPDIR=$PWD/../tmp "$STAP" -v -p4 -r "$RELEASE" --build-as=$user -m build_as_t \
	-e "$script" >p4.out 2>p4.err || { cat p4.err; fail "-p4 as $user failed"; }
[ "$(stat -c %U build_as_t.ko)" = $user ] || fail "the module is $(stat -c %U build_as_t.ko)'s"
for f in ../cache/*.ko; do [ "$(stat -c %U "$f")" = $user ] || fail "cache entry $f is $(stat -c %U "$f")'s"; done
grep -q "cached the module" p4.err || { cat p4.err; fail "no cache entry"; }
[ -z "$(ls ../tmp)" ] || fail "temporary directory left: $(ls ../tmp)"

# Pass 5: staprun runs as root, on a module the user built in the user's temporary directory.
cat > ../bin/staprun <<EOS
#!/bin/sh
for a; do case "\$a" in *.ko) ko=\$a;; esac; done
echo "staprun uid \$(id -u), module owner \$(stat -c %U "\$ko")"
EOS
chmod 755 ../bin/staprun
TMPDIR=$PWD/../tmp ../bin/stap -r "$RELEASE" --build-as=$user --disable-cache -e "$script" >p5.out 2>p5.err ||
	{ cat p5.err; fail "pass 5 failed"; }
grep -qx "staprun uid 0, module owner $user" p5.out || { cat p5.out p5.err; fail "pass 5: $(cat p5.out)"; }
[ -z "$(ls ../tmp)" ] || fail "temporary directory left after pass 5: $(ls ../tmp)"
echo ok
