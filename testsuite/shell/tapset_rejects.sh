# Tapset functions called with the wrong number of arguments, and guru-mode tapset
# functions called without -g (task_ns_* too, as in SystemTap; ns_* are not): each call is an
# error at its own line and column.
fail() { echo "FAIL: $*"; exit 1; }

cat >arity.stp <<'STP'
probe begin {
	println(ctime(1, 2))
	println(task_execname())
	ansi_set_color(1, 2, 3, 4)
	println(cmdline_args(1))
	println(task_utime(1, 2))
	println(user_string_n_warn(0, 1, "w", 2))
	println(kernel_buffer_quoted(0))
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
arity.stp:7:10: error: function 'user_string_n_warn' takes 2 or 3 arguments, 4 given
arity.stp:8:10: error: function 'kernel_buffer_quoted' takes 2 or 3 arguments, 1 given
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
	set_int_arg(1, 0); set_uint_arg(1, 0); set_long_arg(1, 0); set_ulong_arg(1, 0)
	set_longlong_arg(1, 0); set_ulonglong_arg(1, 0); set_pointer_arg(1, 0)
	set_s32_arg(1, 0); set_u32_arg(1, 0); set_s64_arg(1, 0); set_u64_arg(1, 0)
	set_user_string_arg(0, "x")
	panic("no")
	println(task_ns_pid(0), task_ns_tid(0), task_ns_uid(0))
	println(task_ns_euid(0), task_ns_gid(0), task_ns_egid(0), ns_pid())
}
STP
"$STAP" -p2 guru.stp >guru.out 2>guru.err && fail "guru functions were accepted without -g"
grep '^guru.stp' guru.err >guru.got || true
for f in set_kernel_int:2:2 set_user_string:3:2 set_kernel_string_n:4:2 udelay:5:2 mdelay:6:2 printk:7:2 raise:8:2 \
	 set_int_arg:9:2 set_uint_arg:9:21 set_long_arg:9:41 set_ulong_arg:9:61 \
	 set_longlong_arg:10:2 set_ulonglong_arg:10:26 set_pointer_arg:10:51 \
	 set_s32_arg:11:2 set_u32_arg:11:21 set_s64_arg:11:40 set_u64_arg:11:59 \
	 set_user_string_arg:12:2 panic:13:2 task_ns_pid:14:10 task_ns_tid:14:26 task_ns_uid:14:42 \
	 task_ns_euid:15:10 task_ns_gid:15:27 task_ns_egid:15:43; do
	name=${f%%:*} at=${f#*:}
	echo "guru.stp:$at: error: function '$name' is marked /* guru */: calling it from a script needs guru mode (-g)"
done >guru.want
diff guru.want guru.got || fail "guru diagnostics differ"
"$STAP" -g -p2 guru.stp >/dev/null || fail "guru functions rejected with -g"
echo ok
