# Hostile input ends quickly with a clear error or a result, never a hang or a
# crash: each case below took minutes or gigabytes before it was bounded.
fail() { echo "FAIL: $*"; exit 1; }
ulimit -v 2000000 # 2 GB: an unbounded expansion runs into this, not the machine

# expect_fast SECONDS EXPECTED_STATUS DESCRIPTION -- stap arguments...
expect_fast() {
	limit=$1 want=$2 what=$3
	shift 4
	start=$(date +%s)
	status=0
	timeout "$limit" "$STAP" "$@" >out 2>err || status=$?
	[ "$status" = 124 ] && fail "$what: still running after $limit s"
	[ "$status" -ge 128 ] && { cat err; fail "$what: killed by signal $((status - 128))"; }
	[ "$status" = "$want" ] || { head -c 2000 err; fail "$what: exit status $status, expected $want"; }
	echo "ok: $what ($(($(date +%s) - start)) s)"
}

# Script arguments that expand to themselves.
expect_fast 10 1 'self-expanding $1' -- -p1 -e '$1' '$1'
grep -q 'script arguments expand to themselves: \$1 -> \$1' err || fail 'no chain in the error'
expect_fast 10 1 '$1 is "x $1"' -- -p1 -e 'probe begin { $1 }' 'x $1'
expect_fast 10 1 '$1 -> $2 -> $1' -- -p1 -e 'probe begin { $1 }' '$2' '$1'
grep -q '\$1 -> \$2 -> \$1' err || fail 'the cycle is not named'

# Macros that grow exponentially (16 levels of 4 copies: 4^16 tokens).
{
	echo '@define m0 %( 1 %)'
	i=1
	while [ $i -le 16 ]; do
		p=$((i - 1))
		echo "@define m$i %( @m$p + @m$p + @m$p + @m$p %)"
		i=$((i + 1))
	done
	echo 'probe begin { println(@m16) }'
} > grow.stp
expect_fast 10 1 'exponential macros' -- -p2 grow.stp
grep -q 'produce more than' err || fail 'no expansion-size error'

# Chains of assignments and comparisons, 60 deep: inference once doubled per level.
chain() { # chain SEP LEFT RIGHT: LEFT SEP LEFT SEP ... RIGHT, 60 times
	out="" i=0
	while [ $i -lt 60 ]; do out="$out$2$1"; i=$((i + 1)); done
	echo "$out$3"
}
for op in ' = ' ' += ' ' -= ' ' <<= ' ' |= '; do
	echo "probe begin { x = 0; $(chain "$op" x 1); println(x) }" > chain.stp
	expect_fast 10 0 "x$op... 60 deep" -- -p2 chain.stp
done
echo "probe begin { s = \"\"; $(chain ' .= ' s '"a"'); println(s) }" > chain.stp
expect_fast 10 0 's .= ... 60 deep' -- -p2 chain.stp
echo "global a; probe begin { $(chain ' = ' 'a[1]' 1); println(a[1]) }" > chain.stp
expect_fast 10 0 'a[1] = ... 60 deep' -- -p2 chain.stp
echo "global st; probe begin { $(chain ' <<< ' 'st' 1); println(@count(st)) }" > chain.stp
expect_fast 10 0 'st <<< ... 60 deep' -- -p2 chain.stp
echo "probe begin { x = 1; println($(chain ' == ' x 1)) }" > chain.stp
expect_fast 10 0 'x == ... 60 deep' -- -p2 chain.stp
echo "probe begin { x = 1; println($(chain ' ? 1 : ' x 1)) }" > chain.stp
expect_fast 10 0 'x ? 1 : ... 60 deep' -- -p2 chain.stp
echo "function f(a) { return a } probe begin { x = 1; println($(chain '' 'f(' x)$(chain '' ')' '')) }" > chain.stp
expect_fast 10 0 'f(f(...)) 60 deep' -- -p2 chain.stp

# Nesting deeper than the passes can walk: an error, not a stack overflow.
python3 -c "print('probe begin { x = ' + ' + '.join(['1'] * 200000) + ' }')" > deep.stp
expect_fast 20 1 '200,000 terms' -- -p2 deep.stp
grep -q 'nested more than 1000 levels' err || fail 'no nesting error'
python3 -c "print('probe begin { x = ' + '-' * 100000 + '1 }')" > deep.stp
expect_fast 20 1 '100,000 unary minus' -- -p2 deep.stp

# Thousands of warnings on one long line: the output stays small.
python3 -c "print('probe begin { ' + ' '.join('v%d = 1;' % i for i in range(5000)) + ' }')" > warn.stp
expect_fast 20 0 '5,000 warnings' -- -p2 warn.stp
[ "$(wc -c < err)" -lt 100000 ] || fail "warnings wrote $(wc -c < err) bytes"
grep -q 'more than 100 warnings' err || fail 'the cap is not said'

# Many probes: per-probe lookups are not quadratic.
python3 -c "print('probe begin { x = 1 }\n' * 30000)" > many.stp
expect_fast 30 0 '30,000 probes' -- -p2 many.stp

# A directory is not a script.
mkdir adir
expect_fast 10 1 'a directory as the script' -- -p1 adir
grep -q 'Is a directory' err || fail 'no reason given for the directory'
