# The compat layer's detection (compiler/build/kfeatures.c): named features read from a kernel
# build tree and the source tree it points to, asserted on the stand-in trees of
# testsuite/fake-kfeatures (5.10-shaped and Debian-split 6.12-shaped); cached once per tree, a
# damaged or stale cache entry is redone; on the real kernel the run tests use ($RELEASE), each
# answer agrees with what grep finds in its headers.
fail() { echo "FAIL: $*"; exit 1; }
fake="$SRCDIR/testsuite/fake-kfeatures"
have() { grep -qx "#define STP_HAVE_$2 1" "$1" || fail "$1: STP_HAVE_$2 not detected"; }
lacks() { grep -qx "/\* #undef STP_HAVE_$2 \*/" "$1" || fail "$1: STP_HAVE_$2 wrongly detected"; }

# A 5.10-shaped tree, everything in one directory.
"$STAP" --dump-kfeatures -r "$fake/old" >old.h || fail "--dump-kfeatures failed on the old tree"
have old.h NO_LLSEEK; have old.h UPROBE_REGISTER_REFCTR
lacks old.h UPROBE_HANDLE; lacks old.h UPROBE_UNREGISTER_SYNC; lacks old.h TASK_STATE_UNDERSCORE
lacks old.h PDE_DATA_LOWER; lacks old.h TRACE_RECURSION_H; lacks old.h BDEV_FLAGS_PARTNO; lacks old.h GET_FILE_RCU_SLOT
lacks old.h FTRACE_REGS; lacks old.h GET_KRETPROBE; lacks old.h BIO_BI_BDEV; lacks old.h BLK_OPF_T
have old.h TASK_STRUCT_CPU; lacks old.h FOLIO; lacks old.h KRETPROBE_FIND_RET_ADDR; lacks old.h MODULE_BTF; have old.h RELAY_SUBBUF_START_PADDING
lacks old.h KALLSYMS_EACH_NO_MODULE; lacks old.h MODULE_MEMORY
have old.h STRLCPY; have old.h DENTRY_D_U; have old.h TRACE_PUTS_SIZE; lacks old.h HEX_H; lacks old.h RELAY_CALLBACKS_CONST
lacks old.h USES_DEFAULT_OVERFLOW_HANDLER
have old.h KPROBE_FAULT_HANDLER
grep -q "what kernel 5.10.0-fake offers" old.h || fail "the header does not name the tree's release"

# A 6.12-shaped Debian split: headers only in the -common tree the build Makefile includes;
# no_llseek only in comments, uprobe_register's declaration spaced differently.
"$STAP" --dump-kfeatures -r "$fake/new-build" >new.h || fail "--dump-kfeatures failed on the new tree"
lacks new.h NO_LLSEEK; lacks new.h UPROBE_REGISTER_REFCTR
have new.h UPROBE_HANDLE; have new.h UPROBE_UNREGISTER_SYNC; have new.h TASK_STATE_UNDERSCORE
have new.h PDE_DATA_LOWER; have new.h TRACE_RECURSION_H; have new.h BDEV_FLAGS_PARTNO; have new.h GET_FILE_RCU_SLOT
have new.h FTRACE_REGS; have new.h GET_KRETPROBE; have new.h BIO_BI_BDEV; have new.h BLK_OPF_T
lacks new.h TASK_STRUCT_CPU; have new.h FOLIO; have new.h KRETPROBE_FIND_RET_ADDR; have new.h MODULE_BTF
have new.h KALLSYMS_EACH_NO_MODULE; have new.h MODULE_MEMORY
lacks new.h RELAY_SUBBUF_START_PADDING; have new.h RELAY_CALLBACKS_CONST	# 7.2's relay.h
lacks new.h STRLCPY; lacks new.h DENTRY_D_U; lacks new.h TRACE_PUTS_SIZE; have new.h HEX_H	# 7.2's
have new.h USES_DEFAULT_OVERFLOW_HANDLER
lacks new.h KPROBE_FAULT_HANDLER

# Cached: one entry per tree, read back the second time.
[ "$(ls "$STAPC_CACHE_DIR/kfeatures" | grep -c '\.h$')" = 2 ] || fail "expected 2 cached feature headers"
"$STAP" -vv --dump-kfeatures -r "$fake/new-build" >again.h 2>again.err
grep -q "kernel features from the cache" again.err || fail "the second detection did not use the cache"
cmp new.h again.h || fail "the cached header differs from the detected one"

# A damaged entry is noticed and redone; the answer is the same.
entry=$(grep -l "6.12.0-fake" "$STAPC_CACHE_DIR"/kfeatures/*.h)
sed -i 's/#define STP_HAVE_UPROBE_HANDLE 1/#define STP_HAVE_UPROBE_HANDLE 0/' "$entry"
"$STAP" -v --dump-kfeatures -r "$fake/new-build" >fixed.h 2>fixed.err
grep -q "is damaged: detecting the kernel's features again" fixed.err || fail "a damaged cache entry was used"
cmp new.h fixed.h || fail "the redone header differs"
grep -q "STP_HAVE_UPROBE_HANDLE 1" "$entry" || fail "the damaged entry was not replaced"

# A reinstalled tree (a file a row reads changes identity) is a new entry.
cp -r "$fake/old" old-copy
"$STAP" --dump-kfeatures -r "$PWD/old-copy" >copy1.h || fail "--dump-kfeatures failed on a copy"
n=$(ls "$STAPC_CACHE_DIR/kfeatures" | grep -c '\.h$')
echo 'extern struct uprobe *uprobe_register(struct inode *i);' >>old-copy/include/linux/uprobes.h
touch -d '2001-01-01' old-copy/include/linux/uprobes.h
"$STAP" --dump-kfeatures -r "$PWD/old-copy" >copy2.h || fail "--dump-kfeatures failed on a changed copy"
have copy2.h UPROBE_HANDLE
[ "$(ls "$STAPC_CACHE_DIR/kfeatures" | grep -c '\.h$')" = $((n + 1)) ] || fail "a changed tree reused the old entry"

# No tree: a clear error.
"$STAP" --dump-kfeatures -r "$PWD/nowhere" 2>none.err && fail "a missing tree was accepted"
grep -q "no kernel build tree at" none.err || fail "no message for a missing tree"

# The real kernel the run tests use: each answer agrees with grep on its headers.
build=/lib/modules/$RELEASE/build
source=$(readlink -f /lib/modules/$RELEASE/source 2>/dev/null || echo "$build")
[ -d "$build" ] || fail "no build tree for $RELEASE"
"$STAP" --dump-kfeatures -r "$RELEASE" >real.h || fail "--dump-kfeatures failed on $RELEASE"
if cat "$build/include/linux/fs.h" "$source/include/linux/fs.h" 2>/dev/null | grep -qw no_llseek; then
	have real.h NO_LLSEEK
else
	lacks real.h NO_LLSEEK
fi
if grep -qw uprobe_unregister_sync "$build/Module.symvers"; then
	have real.h UPROBE_UNREGISTER_SYNC
else
	lacks real.h UPROBE_UNREGISTER_SYNC
fi
if [ -e "$source/include/linux/trace_recursion.h" ] || [ -e "$build/include/linux/trace_recursion.h" ]; then
	have real.h TRACE_RECURSION_H
else
	lacks real.h TRACE_RECURSION_H
fi
if cat "$build/include/linux/kprobes.h" "$source/include/linux/kprobes.h" 2>/dev/null | grep -q 'kprobe_fault_handler_t fault_handler;'; then
	have real.h KPROBE_FAULT_HANDLER
else
	lacks real.h KPROBE_FAULT_HANDLER
fi
if cat "$build/include/linux/kprobes.h" "$source/include/linux/kprobes.h" 2>/dev/null | grep -q 'unsigned long kretprobe_find_ret_addr('; then
	have real.h KRETPROBE_FIND_RET_ADDR
else
	lacks real.h KRETPROBE_FIND_RET_ADDR
fi
if grep -qx '#define CONFIG_DEBUG_INFO_BTF_MODULES 1' "$build/include/generated/autoconf.h"; then
	have real.h MODULE_BTF
else
	lacks real.h MODULE_BTF
fi
if cat "$build/include/linux/relay.h" "$source/include/linux/relay.h" 2>/dev/null | grep -q 'size_t prev_padding)'; then
	have real.h RELAY_SUBBUF_START_PADDING
else
	lacks real.h RELAY_SUBBUF_START_PADDING
fi
if cat "$build/include/linux/relay.h" "$source/include/linux/relay.h" 2>/dev/null | grep -q 'const struct rchan_callbacks \*cb,'; then
	have real.h RELAY_CALLBACKS_CONST
else
	lacks real.h RELAY_CALLBACKS_CONST
fi
