# stap --sign-module for a kernel configured for ML-DSA module keys
# (CONFIG_MODULE_SIG_KEY_TYPE_MLDSA_*): in the toolchain root of 7.2 (.ci/releases: K72_ROOT,
# whose OpenSSL knows ML-DSA), a copy of 7.2's build tree with ML-DSA-65 (then 44) selected
# gets an ML-DSA key pair of that size in DIR/ml-dsa-NN, and the module's appended PKCS#7
# signature verifies against its certificate (openssl cms) and fails for a changed module.
# An openssl without ML-DSA is a clear error. A missing root fails: .ci/kernels makes it.
fail() { echo "FAIL: $*"; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (scripts/stap-in-root chroots)"
. "$SRCDIR/.ci/releases"
rel=$K72-amd64
headers=$K72_ROOT/usr/src/linux-headers-$rel
[ -f "$headers/Makefile" ] || fail "no toolchain root with $rel's headers at $K72_ROOT (.ci/kernels makes it)"
[ -x "$K72_ROOT/usr/bin/openssl" ] ||
	fail "$K72_ROOT has no openssl (scripts/stap-toolchain-root installs it: run .ci/kernels)"
in_root() { "$SRCDIR/scripts/stap-in-root" "$K72_ROOT" "$@"; }
S='probe begin { println("signed") exit() }'
magic='~Module signature appended~'
export STAPC_CACHE_DIR="$PWD/cache"

# The copy: its kbuild links resolved inside the root, its Makefile's KBUILD_OUTPUT its own path.
cp -a "$headers" tree
kbuild=$(readlink "$headers/scripts")
ln -sfn "/usr/src/linux-headers-$rel/$kbuild" tree/scripts
ln -sfn "/usr/src/linux-headers-$rel/$(readlink "$headers/tools")" tree/tools
sed -i "s|^KBUILD_OUTPUT=.*|KBUILD_OUTPUT=$PWD/tree|" tree/Makefile
# select_key N: ML-DSA-N instead of the configured key type, in all three config files.
select_key() {
	for f in tree/.config tree/include/config/auto.conf; do
		sed -i -e '/^CONFIG_MODULE_SIG_KEY_TYPE_/d' -e '/^# CONFIG_MODULE_SIG_KEY_TYPE_/d' "$f"
		echo "CONFIG_MODULE_SIG_KEY_TYPE_MLDSA_$1=y" >>"$f"
	done
	sed -i '/^#define CONFIG_MODULE_SIG_KEY_TYPE_/d' tree/include/generated/autoconf.h
	echo "#define CONFIG_MODULE_SIG_KEY_TYPE_MLDSA_$1 1" >>tree/include/generated/autoconf.h
}
grep -q '^CONFIG_MODULE_SIG_KEY_TYPE_MLDSA' "$headers/include/config/auto.conf" &&
	fail "the root's own tree selects ML-DSA already: this test expects its RSA default"

# check_signed KO CERT BITS: KO ends with the marker, its trailer (struct module_signature:
# algo, hash, id_type, signer_len, key_id_len, 3 pad, __be32 sig_len) says PKCS#7 (id_type 2),
# and the signature before it verifies KO's contents against CERT, an ML-DSA-BITS certificate.
check_signed() {
	[ "$(tail -c 28 "$1" | head -c 27)" = "$magic" ] || fail "$1 has no appended signature"
	# shellcheck disable=SC2046 # the 12 bytes, one word each
	set -- "$@" $(tail -c 40 "$1" | head -c 12 | od -An -tu1)
	[ "$6" = 2 ] || fail "$1: the signature's id_type is $6, not 2 (PKCS#7)"
	sig_len=$(((${12} << 24) + (${13} << 16) + (${14} << 8) + ${15}))
	size=$(stat -c %s "$1")
	[ "$sig_len" -gt 0 ] && [ "$sig_len" -lt "$size" ] || fail "$1: signature length $sig_len"
	head -c $((size - 40)) "$1" | tail -c "$sig_len" >sig.der
	head -c $((size - 40 - sig_len)) "$1" >body
	in_root openssl x509 -inform DER -in "$2" -out cert.pem || fail "$2 is no DER certificate"
	in_root openssl x509 -in cert.pem -noout -text | grep -q "Public Key Algorithm: ML-DSA-$3" ||
		fail "$2 is not an ML-DSA-$3 certificate"
	in_root openssl cms -verify -binary -inform DER -in sig.der -content body -certfile cert.pem \
		-CAfile cert.pem -purpose any -out /dev/null 2>verify.err ||
		fail "$1's signature does not verify: $(cat verify.err)"
	printf 'X' | dd of=body bs=1 seek=100 conv=notrunc 2>/dev/null
	in_root openssl cms -verify -binary -inform DER -in sig.der -content body -certfile cert.pem \
		-CAfile cert.pem -purpose any -out /dev/null 2>/dev/null && fail "$1's signature verifies a changed module"
	return 0
}

select_key 65
in_root "$STAP" -p4 -r "$PWD/tree" --sign-module="$PWD/keys" -m mldsa_t -e "$S" >out 2>err ||
	{ cat err; fail "-p4 --sign-module for ML-DSA-65"; }
grep -q 'made a new signing key in .*/keys/ml-dsa-65' err || { cat err; fail "no note about a new key in keys/ml-dsa-65"; }
[ -e keys/signing_key.priv ] && fail "an RSA key was made beside the ML-DSA one"
[ "$(stat -c %a keys/ml-dsa-65/signing_key.priv)" = 600 ] || fail "the private key is readable by others"
check_signed mldsa_t.ko keys/ml-dsa-65/signing_key.x509 65
mv mldsa_t.ko first.ko
in_root "$STAP" -p4 -r "$PWD/tree" --sign-module="$PWD/keys" -m mldsa_t -e "$S" >out 2>err ||
	{ cat err; fail "second -p4"; }
grep -q 'made a new signing key' err && fail "the second build made another key"
check_signed mldsa_t.ko keys/ml-dsa-65/signing_key.x509 65

# The size follows the config: ML-DSA-44 gets its own key directory.
select_key 44
in_root "$STAP" -p4 -r "$PWD/tree" --sign-module="$PWD/keys" -m mldsa44_t -e "$S" >out 2>err ||
	{ cat err; fail "-p4 --sign-module for ML-DSA-44"; }
check_signed mldsa44_t.ko keys/ml-dsa-44/signing_key.x509 44

# An openssl without ML-DSA (Debian 12's 3.0): a message naming what is needed, no module.
mkdir oldssl
printf '#!/bin/sh\n[ "$1" = version ] && echo "OpenSSL 3.0.22 (stand-in)" && exit 0\nexit 1\n' >oldssl/openssl
chmod +x oldssl/openssl
status=0
PATH="$PWD/oldssl:$PATH" in_root "$STAP" -p4 -r "$PWD/tree" --sign-module="$PWD/newkeys" -m old_t -e "$S" \
	>out 2>err || status=$?
[ "$status" = 1 ] || { cat err; fail "an openssl without ML-DSA: status $status"; }
grep -q 'ML-DSA-44 keys .*need OpenSSL 3.5 or later.*OpenSSL 3.0.22 (stand-in)' err ||
	{ cat err; fail "no message saying ML-DSA needs OpenSSL 3.5"; }
[ ! -e old_t.ko ] || fail "a module was written although signing failed"
[ -e newkeys ] && fail "a key directory was made although no key could be"
echo "ok: ML-DSA-65 and -44 signatures verify ($(stat -c %s sig.der)-byte CMS), old openssl refused"
