# Tapset functions called with the wrong number of arguments, and guru-mode tapset
# functions called without -g: each call is an error at its own line and column.
fail() { echo "FAIL: $*"; exit 1; }

cat >arity.stp <<'STP'
probe begin {
	println(ctime(1, 2))
	println(task_execname())
	ansi_set_color(1, 2, 3, 4)
	println(cmdline_args(1))
	println(task_utime(1, 2))
}
STP
"$STAP" -p2 arity.stp >arity.out 2>arity.err && fail "wrong arities were accepted"
grep '^arity.stp' arity.err >arity.got || true
cat >arity.want <<'TXT'
arity.stp:2:10: error: function 'ctime' takes 1 or 0 arguments, 2 given
arity.stp:3:10: error: function 'task_execname' takes 1 argument, 0 given
arity.stp:4:2: error: function 'ansi_set_color' takes 1, 2 or 3 arguments, 4 given
arity.stp:5:10: error: function 'cmdline_args' takes 3 arguments, 1 given
arity.stp:6:10: error: function 'task_utime' takes 0 or 1 arguments, 2 given
TXT
diff arity.want arity.got || fail "arity diagnostics differ"

cat >guru.stp <<'STP'
probe begin {
	set_kernel_int(0, 1)
	set_user_string(0, "x")
	set_kernel_string_n(0, 1, "x")
	udelay(1)
	mdelay(1)
	printk(1, "x")
	raise(10)
}
STP
"$STAP" -p2 guru.stp >guru.out 2>guru.err && fail "guru functions were accepted without -g"
grep '^guru.stp' guru.err >guru.got || true
for f in set_kernel_int:2 set_user_string:3 set_kernel_string_n:4 udelay:5 mdelay:6 printk:7 raise:8; do
	echo "guru.stp:${f#*:}:2: error: function '${f%:*}' is marked /* guru */: calling it from a script needs guru mode (-g)"
done >guru.want
diff guru.want guru.got || fail "guru diagnostics differ"
"$STAP" -g -p2 guru.stp >/dev/null || fail "guru functions rejected with -g"
echo ok
