# Sourced by shell tests (. "$SRCDIR/testsuite/shell/lib/kernels.sh"): the
# installed Debian kernels a test needs, each missing one a failure that says
# what to install (a test that cannot run fails loudly).
fail() { echo "FAIL: $*"; exit 1; }

# need_kernels R...: each release's image and kernel headers are installed.
need_kernels() {
	for r in "$@"; do
		[ -f /boot/vmlinuz-$r ] && [ -f /lib/modules/$r/build/Makefile ] ||
			fail "kernel $r and its headers are needed (apt-get install linux-image-$r linux-headers-$r)"
	done
}

# flavour_releases: $releases is one installed release of each Debian
# flavour, cloud, PREEMPT_RT and generic, each with its headers.
flavour_releases() {
	releases=
	for flavour in cloud-amd64 rt-amd64 amd64; do
		found=
		for k in /boot/vmlinuz-*-$flavour; do
			r=${k#/boot/vmlinuz-}
			case $flavour:$r in amd64:*-cloud-amd64|amd64:*-rt-amd64) continue ;; esac
			[ -f "$k" ] && [ -d "/lib/modules/$r/build" ] && found=$r
		done
		[ -n "$found" ] || fail "no $flavour kernel with headers installed (apt-get install linux-image-$flavour linux-headers-$flavour)"
		releases="$releases $found"
	done
}

# ninep_release: $ninep is a kernel with the 9p modules and headers (Debian's
# generic one), for a guest that mounts the host's userland.
ninep_release() {
	ninep=
	for d in /lib/modules/*/kernel/fs/9p; do
		r=${d#/lib/modules/}; r=${r%%/*}
		case $r in *-rt-*) continue ;; esac
		[ -d "/lib/modules/$r/build" ] && [ -f "/boot/vmlinuz-$r" ] && ninep=$r
	done
	[ -n "$ninep" ] || fail "no kernel with 9p modules and headers: apt-get install linux-image-amd64 linux-headers-amd64"
}
