# stap-service (the helper of stap@.service and staprun@.service) on the host, with its
# directories pointed at this scratch directory: how NAME.options splits between stap and
# staprun, the options and names it refuses, and the module cache (compiled once, reused,
# compiled again when the options change or with -f). docs/services.md.
fail() { echo "FAIL: $*"; exit 1; }
[ -n "$RELEASE" ] || fail "no \$RELEASE: run the shell tests through testsuite/run-tests"
export STAPC_BINDIR=$(dirname "$STAP") STAPC_SCRIPT_DIR=$PWD/script.d STAPC_MODULE_DIR=$PWD/modules
H=$BUILD/services/stap-service
[ -x "$H" ] || fail "$H is missing (the build configures services/)"
mkdir script.d
cat >script.d/hello.stp <<'EOF'
probe begin { printf("%s\n", @1) exit() }
EOF

# staprun-args: staprun's options, "--", the module parameters
cat >script.d/hello.options <<'EOF'
# a comment
-D MAXACTION=100 -o "/var/log/hello out.txt" -s 4
-w -G limit=5 -G "name=it's"
-- "one arg" two
EOF
out=$("$H" staprun-args hello) || fail "staprun-args failed"
[ "$out" = "-o '/var/log/hello out.txt' -s '4' -w -- 'limit=5' 'name=it'\\''s'" ] || fail "staprun-args: $out"

# refused: names that are no C identifier, options the service sets, shell syntax
check() { # WANT-MESSAGE COMMAND...: fails with status 1 and that message
	want=$1
	shift
	if "$@" >err.txt 2>&1; then fail "$* succeeded"; fi
	grep -qF -- "$want" err.txt || fail "$*: expected '$want', got: $(cat err.txt)"
}
check "'9lives' is not a script name" "$H" compile -r "$RELEASE" 9lives
check "'a-b' is not a script name" "$H" run-module a-b
check "no script $PWD/script.d/nosuch.stp" "$H" compile -r "$RELEASE" nosuch
check "no module $PWD/modules/hello.ko" "$H" run-module hello
for bad in '-c ls' '-p4' '-m other' '--remote=qemu' '-x 1'; do
	echo "$bad" >script.d/hello.options
	check "$PWD/script.d/hello.options: ${bad%% *} is the service's to choose" "$H" compile -r "$RELEASE" hello
done
for bad in '-D X=$(id)' '-D X=`id`' '-w; id' '-w | id'; do
	echo "$bad" >script.d/hello.options
	check "$PWD/script.d/hello.options: only words and quotes" "$H" compile -r "$RELEASE" hello
done

# the cache: compiled once, reused, compiled again for other options or with -f
echo '-- first' >script.d/hello.options
"$H" compile -r "$RELEASE" hello 2>log1 || fail "compile: $(cat log1)"
grep -q "^stap-service: hello: compiling $PWD/script.d/hello.stp for $RELEASE$" log1 || fail "no compiling: $(cat log1)"
[ -f modules/hello.ko ] && [ -f modules/hello.stamp ] || fail "no module or stamp in modules/"
"$H" compile -r "$RELEASE" hello 2>log2 || fail "compile again: $(cat log2)"
grep -qx "stap-service: hello: using the cached module $PWD/modules/hello.ko" log2 || fail "not cached: $(cat log2)"
echo '-- second' >script.d/hello.options
"$H" compile -r "$RELEASE" hello 2>log3 || fail "compile for new options: $(cat log3)"
grep -q 'hello: compiling' log3 || fail "new options did not recompile: $(cat log3)"
"$H" compile -f -r "$RELEASE" hello 2>log4 || fail "compile -f: $(cat log4)"
grep -q 'hello: compiling' log4 || fail "-f did not recompile: $(cat log4)"
# a script that does not compile keeps the last good module
cp modules/hello.ko good.ko
echo 'probe begin { nosuchfunction() }' >script.d/hello.stp
check "hello: stap could not compile $PWD/script.d/hello.stp" "$H" compile -r "$RELEASE" hello
cmp -s good.ko modules/hello.ko || fail "a failed compile changed the cached module"
ls -A modules | grep -q '^\.' && fail "a failed compile left a temporary file: $(ls -A modules)"
echo "ok: options split and refused as documented; the cache reused and refreshed"
