#!/bin/bash
# examples/run-example.sh: on a fresh Debian 12 (or 13) machine, as root: install what
# stapc needs, build it, and run examples/opens.stp end to end in a disposable
# QEMU guest (the guest runs a small workload so there is something to count).
set -euo pipefail
cd "$(dirname "$0")/.."

.ci/setup
build/bin/stap --remote=qemu \
	-c 'for i in 1 2 3 4 5 6; do cat /proc/version /etc/passwd > /dev/null; ls -R /sys/class > /dev/null; sleep 0.2; done' \
	examples/opens.stp
