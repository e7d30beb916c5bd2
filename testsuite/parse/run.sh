#!/bin/sh
# run.sh STAP - pass-1 golden tests.
#   ok/NAME.stp: `stap -p1 NAME.stp` must succeed and print exactly ok/NAME.p1,
#                and that output must itself parse to the same text (round trip).
#   ko/NAME.stp: `stap -p1 NAME.stp` must fail and print exactly ko/NAME.err on stderr.
# Prints a diff for each failure; exits non-zero if any test fails.
# UPDATE=1 rewrites the expected files from the current output instead.

if [ $# -ne 1 ]; then
	echo "usage: $0 STAP_BINARY" >&2
	exit 2
fi
case $1 in
/*) stap=$1 ;;
*) stap=$(pwd)/$1 ;;
esac
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

pass=0
fail=0
report() { # report NAME DIFF-OUTPUT
	echo "FAIL: $1"
	printf '%s\n' "$2"
	fail=$((fail + 1))
}

cd "$here/ok" || exit 2
for src in *.stp; do
	name=${src%.stp}
	"$stap" -p1 "$src" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ -n "$UPDATE" ] && [ $status -eq 0 ]; then
		cp "$tmp/out" "$name.p1"
	fi
	if [ $status -ne 0 ]; then
		report "ok/$src (exit $status)" "$(cat "$tmp/err")"
		continue
	fi
	if ! d=$(diff -u "$name.p1" "$tmp/out"); then
		report "ok/$src" "$d"
		continue
	fi
	cp "$tmp/out" "$tmp/again.stp"
	"$stap" -p1 "$tmp/again.stp" >"$tmp/out2" 2>"$tmp/err2"
	if ! d=$(diff -u "$tmp/out" "$tmp/out2"); then
		report "ok/$src (round trip)" "$d$(cat "$tmp/err2")"
		continue
	fi
	pass=$((pass + 1))
done

cd "$here/ko" || exit 2
for src in *.stp; do
	name=${src%.stp}
	"$stap" -p1 "$src" >"$tmp/out" 2>"$tmp/err"
	status=$?
	if [ -n "$UPDATE" ]; then
		cp "$tmp/err" "$name.err"
	fi
	if [ $status -eq 0 ]; then
		report "ko/$src (exit 0, expected failure)" "$(cat "$tmp/out")"
		continue
	fi
	if ! d=$(diff -u "$name.err" "$tmp/err"); then
		report "ko/$src" "$d"
		continue
	fi
	pass=$((pass + 1))
done

echo "parse tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
