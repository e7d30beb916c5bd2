#!/bin/bash
# testsuite/ci.sh: configure and build stapc into ./build, then run every
# test (unit, parse, sem, and the QEMU guest run tests).  Needs the packages
# .ci/run installs; extra arguments go to run-tests (e.g. --filter run/).
set -euo pipefail
cd "$(dirname "$0")/.."

cmake -S . -B build
cmake --build build -j"$(nproc)"
exec testsuite/run-tests --build build "$@"
