# stap --sign-module[=DIR] (man stap, SECUREBOOT): a key pair is made when DIR
# has none (with the mokutil hint), the module gets the kernel's appended
# signature (sign-file of the target's headers) naming that key, a second
# build reuses the key, the cached module stays unsigned, and a missing
# openssl or sign-file is a clear error.
fail() { echo "FAIL: $*"; exit 1; }
command -v openssl >/dev/null || fail "openssl not installed (apt-get install openssl)"
S='probe begin { println("signed") exit() }'
magic='~Module signature appended~'

"$STAP" -p4 -r "$RELEASE" --sign-module="$PWD/keys" -m signed_t -e "$S" > out 2> err || { cat err; fail "-p4 --sign-module"; }
grep -q 'made a new signing key in .*/keys' err || { cat err; fail "no note about the new key"; }
grep -q 'mokutil --import .*/keys/signing_key.x509' err || fail "no mokutil hint"
[ -s keys/signing_key.priv ] && [ -s keys/signing_key.x509 ] || fail "no key pair in keys/"
[ "$(stat -c %a keys/signing_key.priv)" = 600 ] || fail "the private key is readable by others"
[ "$(tail -c 28 signed_t.ko | head -c 27)" = "$magic" ] || fail "signed_t.ko has no appended signature"
[ "$(modinfo -F signer signed_t.ko)" = "stapc module signing key" ] || fail "signer: $(modinfo -F signer signed_t.ko)"
mv signed_t.ko first.ko

"$STAP" -p4 -r "$RELEASE" --sign-module="$PWD/keys" -m signed_t -e "$S" > out 2> err || { cat err; fail "second -p4"; }
grep -q 'made a new signing key' err && fail "the second build made another key"
[ "$(modinfo -F sig_key first.ko)" = "$(modinfo -F sig_key signed_t.ko)" ] || fail "the second build used another key"
for ko in "$STAPC_CACHE_DIR"/*.ko; do
	[ -e "$ko" ] || fail "nothing in the module cache"
	[ "$(tail -c 28 "$ko" | head -c 27)" = "$magic" ] && fail "the cached module $ko is signed"
done
"$STAP" -p4 -r "$RELEASE" -m plain_t -e "$S" > out 2> err || fail "-p4 without --sign-module"
[ "$(tail -c 28 plain_t.ko | head -c 27)" = "$magic" ] && fail "a module built without --sign-module is signed"

echo "not a directory" > nokeys
status=0
"$STAP" -p4 -r "$RELEASE" --sign-module="$PWD/nokeys/k" -m nokey_t -e "$S" > out 2> err || status=$?
[ "$status" = 1 ] || fail "a key directory that cannot be made: status $status"
grep -q -- '--sign-module: cannot create' err || { cat err; fail "no message for an unwritable key directory"; }
[ ! -e nokey_t.ko ] || fail "a module was written although signing failed"
echo "ok: signed with $(modinfo -F sig_hashalgo first.ko), key kept, cache unsigned"
