# stap --language-server with a real client: Debian's Neovim (.ci/setup installs `neovim`),
# headless, its built-in LSP client driven by lsp_nvim.lua on a .stp file: the diagnostics it
# stores, completion as it turns it into complete-items, hover, the jump of go-to-definition into
# the tapset, and an edit sent as an incremental change that clears the diagnostics.
fail() { echo "FAIL: $*"; exit 1; }
command -v nvim >/dev/null || fail "nvim is not installed (Debian's neovim package; .ci/setup installs it)"
def_line=$(grep -n '^function execname:' "$SRCDIR/tapset/linux/context.stp" | cut -d: -f1)
[ -n "$def_line" ] || fail "tapset/linux/context.stp defines no execname"
cat > t.stp <<'STP'
probe begin { undefined_fn(1) }
probe vfs.re
probe vfs.read { println(exec, execname()) }
probe kernel.function("vfs_read") { println($fi) }
STP
export XDG_CONFIG_HOME="$PWD/xdg/config" XDG_DATA_HOME="$PWD/xdg/data" XDG_STATE_HOME="$PWD/xdg/state" \
	XDG_CACHE_HOME="$PWD/xdg/cache" LSP_OUT="$PWD/result" LSP_FILE="$PWD/t.stp" STAP RELEASE
timeout 600 nvim --headless -n -i NONE -u NONE --noplugin -c "luafile $SRCDIR/testsuite/shell/lsp_nvim.lua" \
	</dev/null >nvim.log 2>&1
status=$?
cat result
[ $status -eq 0 ] || { cat nvim.log; fail "nvim exited with $status"; }
has() { grep -qxF -- "$1" result || fail "nvim's results lack: $1"; }
has "started stap"
# the syntax error (line 2, "probe vfs.re" has no body) is pass 1's: the only diagnostic
grep -q '^diagnostic 2 0 1 syntax error' result || fail "no pass-1 error at line 3, column 1"
has "complete-point vfs.read"
has "complete-point vfs.read.return"
has "complete-name execname"
has "complete-target file"
has "hover function execname:string ()"
grep -q '^hover execname:string() - the name of the current task' result || fail "hover lacks the doc comment"
has "definition context.stp $def_line 9 $(sed -n "${def_line}p" "$SRCDIR/tapset/linux/context.stp")"
grep -q "^diagnostic2 0 14 1 unresolved function 'undefined_fn'" result || fail "no pass-2 error at line 1, column 15"
has "cleared   println(execname())"
has "stopped"
