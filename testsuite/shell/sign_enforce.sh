# A kernel that enforces module signatures (module.sig_enforce=1 on the guest
# kernel's command line, stapvm --append; man stap, SECUREBOOT): staprun's
# refusal of an unsigned module carries the documented hint, and nothing is
# loaded. A module signed with stap --sign-module is refused there too, for
# the other reason the kernel gives (its key is unknown): a Debian kernel
# trusts only the keys built into it and, booted through shim on UEFI, the
# Machine Owner Keys; a QEMU guest booted with -kernel has no MOK list, so a
# key made here cannot be enrolled in the test. The kernel log says which
# reason each load was refused for.
fail() { echo "FAIL: $*"; exit 1; }
command -v openssl >/dev/null || fail "openssl not installed (apt-get install openssl)"
BIN=$(dirname "$STAP")
S='probe begin { println("loaded") exit() }'
"$STAP" -p4 -r "$RELEASE" -m unsigned_t -e "$S" > out 2> err || { cat err; fail "-p4"; }
"$STAP" -p4 -r "$RELEASE" --sign-module="$PWD/keys" -m signed_t -e "$S" > out 2> err || { cat err; fail "-p4 --sign-module"; }
[ "$(modinfo -F signer signed_t.ko)" = "stapc module signing key" ] || fail "signed_t.ko is not signed"
mkdir g && cp unsigned_t.ko signed_t.ko g/
cat > g/test.sh <<'GUEST'
echo "sig_enforce=$(cat /sys/module/module/parameters/sig_enforce)"
for m in unsigned_t signed_t; do
	staprun /work/$m.ko > out.txt 2> err.txt
	echo "$m: status $?"
	cat out.txt err.txt
done
dmesg | grep 'is rejected'
echo "loaded: $(grep -c '^[a-z]*_t ' /proc/modules)"
GUEST
"$BIN/stapvm" -r "$RELEASE" --userland=busybox -d g --append module.sig_enforce=1 --timeout 240 \
	-- sh /work/test.sh > guest.out 2> guest.err || { cat guest.out guest.err; fail "the guest failed"; }
cat guest.out
expect() { grep -qF -- "$1" guest.out || fail "guest: no '$1'"; }
expect "sig_enforce=Y"
hint="(the kernel requires modules signed by a key it trusts: build it with stap --sign-module and enroll the key with mokutil --import; see man stap, SECUREBOOT)"
expect "unsigned_t: status 1"
sed -n '/^unsigned_t: /,/^signed_t: /p' guest.out | grep -qF -- "$hint" || fail "no hint for the unsigned module"
expect "signed_t: status 1"
sed -n '/^signed_t: /,$p' guest.out | grep -qF -- "$hint" || fail "no hint for the module signed by an unknown key"
expect "Loading of unsigned module is rejected"
expect "Loading of module with unavailable key is rejected"
expect "loaded: 0"
[ "$(grep -c 'loaded$' guest.out)" = 0 ] || fail "a module's begin probe ran"
echo "ok: both refused under module.sig_enforce=1 with the hint, each for its own reason"
