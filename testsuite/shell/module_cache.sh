# The module cache: a repeated -p4 of an unchanged script reuses the module
# (same bytes, no kbuild), any change to the script or options misses,
# --disable-cache neither reads nor writes it, --poison-cache only writes it, a hit marks the entry as
# recently used, and a store evicts the least recently used entries.
fail() { echo "FAIL: $*"; exit 1; }
entries() { ls "$STAPC_CACHE_DIR" | grep -c '\.ko$' || true; }
script='global n
probe kprobe.function("__x64_sys_getppid") { n++ }'

"$STAP" -v -p4 -r "$RELEASE" -m cache_t -e "$script" >/dev/null 2>first.err
grep "cached the module as $STAPC_CACHE_DIR/" first.err || fail "first -p4 did not fill the cache"
grep "using the cached module" first.err && fail "first -p4 hit an empty cache"
[ "$(entries)" = 1 ] || fail "expected 1 cache entry, found $(entries)"
mv cache_t.ko first.ko

"$STAP" -v -p4 -r "$RELEASE" -m cache_t -e "$script" >/dev/null 2>second.err
grep "using the cached module $STAPC_CACHE_DIR/" second.err || fail "second -p4 missed the cache"
cmp first.ko cache_t.ko || fail "the cached module differs from the built one"

# A different body, and a different -D, are different modules.
"$STAP" -v -p4 -r "$RELEASE" -m cache_t -e "${script%n++ \}}n-- }" >/dev/null 2>third.err
grep "cached the module as" third.err || fail "a changed script hit the cache"
"$STAP" -v -p4 -r "$RELEASE" -m cache_t -D MAXACTION=77 -e "$script" >/dev/null 2>fourth.err
grep "cached the module as" fourth.err || fail "a changed -D hit the cache"
[ "$(entries)" = 3 ] || fail "expected 3 cache entries, found $(entries)"

# --disable-cache: kbuild runs, the cache is neither read nor written.
rm cache_t.ko
"$STAP" -v -p4 -r "$RELEASE" -m cache_t --disable-cache -e "$script" >/dev/null 2>fifth.err
grep -i "cache" fifth.err && fail "--disable-cache still used the cache"
[ -f cache_t.ko ] || fail "--disable-cache built no module"
[ "$(entries)" = 3 ] || fail "--disable-cache changed the cache: $(entries) entries"

# --poison-cache: kbuild runs although the cache holds the module, and the entry is written again.
"$STAP" -v -p4 -r "$RELEASE" -m cache_t --poison-cache -e "$script" >/dev/null 2>poison.err
grep "using the cached module" poison.err && fail "--poison-cache read the cache"
grep "cached the module as $STAPC_CACHE_DIR/" poison.err || fail "--poison-cache did not fill the cache"
[ "$(entries)" = 3 ] || fail "--poison-cache made a new entry: $(entries) entries"

# A hit sets the entry's mtime: it becomes the most recently used.
first_entry=$(sed -n "s|.*cached the module as \(.*\)|\1|p" first.err)
touch -d 2001-01-01 "$first_entry"
"$STAP" -v -p4 -r "$RELEASE" -m cache_t -e "$script" >/dev/null 2>sixth.err
grep "using the cached module $first_entry" sixth.err || fail "expected a hit on $first_entry"
[ "$first_entry" -nt first.ko ] || fail "a hit did not refresh the entry's mtime"

# Size limit: with 2 MiB, storing a module evicts the oldest entries first,
# and only until the rest fits. Three 1 MiB entries of known ages, plus the
# real ones (each well under 1 MiB, refreshed to now).
[ "$(wc -c <first.ko)" -lt 1048576 ] || fail "the test assumes a module under 1 MiB"
rm "$STAPC_CACHE_DIR"/*.ko
for age in 1 2 3; do
	f="$STAPC_CACHE_DIR/$(printf "%064d" $age).ko"
	head -c 1048576 /dev/zero >"$f"
	touch -d "200$age-01-01" "$f"
done
STAPC_CACHE_SIZE_MB=2 "$STAP" -v -p4 -r "$RELEASE" -m cache_t -e "$script" >/dev/null 2>seventh.err
grep "cached the module as" seventh.err || fail "expected a store"
[ -f "$STAPC_CACHE_DIR/$(printf "%064d" 1).ko" ] && fail "the oldest entry survived"
[ -f "$STAPC_CACHE_DIR/$(printf "%064d" 2).ko" ] && fail "the second oldest entry survived"
[ -f "$STAPC_CACHE_DIR/$(printf "%064d" 3).ko" ] || fail "an entry that fits was evicted"
[ -f "$first_entry" ] || fail "the module just stored was evicted"
[ "$(entries)" = 2 ] || fail "expected 2 entries after the trim, found $(entries)"

# The runtime's sources are part of the key, remembered by their identity
# (runtime_digest): with a copy of the runtime (-R), a file touched without
# a change still hits, and a change to a file's contents misses.
cp -r "$SRCDIR/runtime" rt
"$STAP" -v -p4 -r "$RELEASE" -m cache_t -R rt -e "$script" >/dev/null 2>rt1.err
grep -q "cached the module as" rt1.err || fail "-R rt did not store a module"
ls "$STAPC_CACHE_DIR"/runtime-* >/dev/null || fail "no runtime digest remembered"
touch rt/lock.c
"$STAP" -v -p4 -r "$RELEASE" -m cache_t -R rt -e "$script" >/dev/null 2>rt2.err
grep -q "using the cached module" rt2.err || fail "a touched, unchanged runtime missed the cache"
echo "/* changed */" >> rt/lock.c
"$STAP" -v -p4 -r "$RELEASE" -m cache_t -R rt -e "$script" >/dev/null 2>rt3.err
grep -q "using the cached module" rt3.err && fail "a changed runtime file still hit the cache"
grep -q "cached the module as" rt3.err || fail "a changed runtime did not store a new module"
echo ok
