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

# release_series: $series is $RELEASE (the kernel run-tests builds for) without its Debian
# flavour: 6.1.0-56-cloud-amd64 -> 6.1.0-56. Tests that need several flavours take that one
# kernel build's, so which other kernels are installed never changes what they test.
release_series() {
	[ -n "$RELEASE" ] || fail "no \$RELEASE: run the shell tests through testsuite/run-tests"
	series=${RELEASE%-amd64}
	series=${series%-cloud}
	series=${series%-rt}
}

# flavour_releases: $releases is $RELEASE's kernel build in each Debian flavour, cloud,
# PREEMPT_RT and generic, each with its headers (a missing one fails, saying what to install).
flavour_releases() {
	release_series
	releases=
	for flavour in cloud-amd64 rt-amd64 amd64; do
		r=$series-$flavour
		[ -f "/boot/vmlinuz-$r" ] && [ -d "/lib/modules/$r/build" ] ||
			fail "kernel $r and its headers are needed beside $RELEASE (apt-get install linux-image-$r linux-headers-$r)"
		releases="$releases $r"
	done
}

# has_9p R: kernel R has the 9p file system, as a module (compressed or not) or built in.
has_9p() {
	ls "/lib/modules/$1/kernel/fs/9p/" 2>/dev/null | grep -q '^9p\.ko' ||
		grep -q '/9p\.ko$' "/lib/modules/$1/modules.builtin" 2>/dev/null
}

# ninep_release: $ninep is a kernel with 9p and headers, for a guest that mounts the host's
# userland: $RELEASE itself when it has 9p, else the generic flavour of its kernel build.
ninep_release() {
	release_series
	ninep=
	for r in "$RELEASE" "$series-amd64"; do
		case $r in *-rt-*) continue ;; esac
		if [ -z "$ninep" ] && has_9p "$r" && [ -d "/lib/modules/$r/build" ] && [ -f "/boot/vmlinuz-$r" ]; then
			ninep=$r
		fi
	done
	[ -n "$ninep" ] || fail "no kernel with 9p and headers beside $RELEASE: apt-get install linux-image-$series-amd64 linux-headers-$series-amd64"
}
