# The compiler keeps a script's state in its session (issue 18): the only
# writable file-scope objects left in compiler/ are the process-wide facts
# listed here, each with the reason it is not in struct session. A new one
# fails this test until it moves into the session (or, if it truly belongs
# to the process, joins the list with its reason and a comment at its
# definition). Read off the objects' symbol tables: .data and .bss objects,
# file-scope and function-scope statics alike.
fail() { echo "FAIL: $*"; exit 1; }
command -v objdump >/dev/null || fail "objdump not installed (binutils)"

allowed='
ast arena                  the allocator every session shares (never freed)
ast intern_table           interned strings mean the same in every session
ast_print scratch          a reused output buffer, empty between calls
diag current               the session diagnostics go to (diag_use)
session process            what atexit and the stop-signal handler see: once per process
run run_child_pid          read by the signal handler that forwards to staprun or stapvm
build watcher_signal       set by a signal handler (in the build watcher, a child process)
remote_ssh remote_sig      what the fleet'"'"'s signal handler sets, and its self-pipe
dwarf no_debuginfo_path    a constant libdwfl takes as char **: never written
'

objs=$(find "$BUILD/compiler/CMakeFiles" -name '*.o' \( -path '*stapc_compiler.dir*' -o -path '*stapc_debuginfo.dir*' -o -path '*stap.dir/main.c.o' \))
[ -n "$objs" ] || fail "no compiler objects under $BUILD/compiler/CMakeFiles"
found=$(for o in $objs; do
	objdump -t "$o" | awk -v f="$(basename "$o" .c.o)" \
		'$3 == "O" && ($4 == ".data" || $4 == ".bss" || $4 ~ /^\.(data|bss)\./) && $4 !~ /rel\.ro/ {
			name = $NF; sub(/\.[0-9]+$/, "", name); print f, name }'
done | sort -u)
echo "$found"
count=0
while read -r file name; do
	[ -n "$name" ] || continue
	count=$((count + 1))
	echo "$allowed" | grep -q "^$file $name " || fail "$file.c: '$name' is compiler state outside the session (move it into struct session, see compiler/session.h)"
done <<EOF
$found
EOF
[ "$count" -le 9 ] || fail "$count writable file-scope objects (at most 8 and the libdwfl constant)"
echo "ok: $count process-wide objects, each listed with its reason"
