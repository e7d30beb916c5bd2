# --remote=ssh:// to a host whose `uname -m` says aarch64 builds an arm64 module by itself
# (stap -p4 -a arm64 -r ITS_RELEASE, the kernel found under the arm64 root as shell/arch_arm64)
# and sends that. The host is a stand-in: $STAPC_SSH runs the remote command here with a
# `uname` that answers as the arm64 host would, and $STAPC_REMOTE_STAPRUN only reads the
# module's ELF header. shell/remote_fleet runs the same path over real OpenSSH to x86-64 guests.
fail() { echo "FAIL: $*"; exit 1; }
ROOT=${STAPC_ARCH_ROOT:-/var/lib/stapc/arm64/root}
R=$(ls "$ROOT/lib/modules" 2>/dev/null | sort -V | tail -n 1)
[ -n "$R" ] && [ -e "$ROOT/usr/src/linux-headers-$R/Makefile" ] ||
	fail "no arm64 kernel and headers under $ROOT (run .ci/kernels or stap-prep -a arm64 --install)"
mkdir host
cat > host/uname <<EOF2
#!/bin/sh
case "\$1" in -r) echo $R ;; -m) echo aarch64 ;; *) exec /bin/uname "\$@" ;; esac
EOF2
cat > host/ssh <<EOF2
#!/bin/sh
# ssh's options and the host name, then the command: run it here, on the "arm64 host"
for a; do cmd=\$a; done
PATH=$PWD/host:\$PATH exec sh -c "\$cmd"
EOF2
cat > host/staprun <<'EOF2'
#!/bin/sh
for a; do case "$a" in *.ko) ko=$a ;; esac; done
echo "staprun on the host: $(readelf -h "$ko" | sed -n 's/^ *Machine: *//p') module $(basename "$ko")"
EOF2
chmod 755 host/uname host/ssh host/staprun
st=0
STAPC_SSH=$PWD/host/ssh STAPC_REMOTE_STAPRUN=$PWD/host/staprun "$STAP" -v -m arm_remote \
	--remote=ssh://arm64.example -e 'probe begin { printf("%d\n", register("x0")) }' >out 2>err || st=$?
[ $st = 0 ] || { cat err out; fail "stap --remote=ssh:// to the arm64 host: status $st"; }
grep -qx 'staprun on the host: AArch64 module arm_remote.ko' out || { cat err out; fail "no AArch64 module reached the host"; }
grep -q "building the module for kernel $R" err || { cat err; fail "no build for $R"; }
echo "--remote=ssh:// to an aarch64 host: an AArch64 module built for $R"
