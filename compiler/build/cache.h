/* cache.h - pass 4's module cache: a built .ko kept under a hash of everything that made it. */
#ifndef STAPC_CACHE_H
#define STAPC_CACHE_H

#include "session.h"

#define CACHE_KEY_LEN 64 /* hex digits of a key */

/*
 * The cache key of the module pass 4 is about to build: a SHA-256 over the
 * generated C (s->c_file), the Kbuild text (module name, -D options, include
 * path), every file of the runtime directory, the stapc version, the kernel
 * build tree's identity (release, path, and size/mtime/inode of its config,
 * Makefile and Module.symvers), the compiler kbuild will run (its version
 * text and the binary's identity) and the environment variables kbuild
 * reads. False (and no key) when something it needs cannot be read.
 */
bool cache_key(struct session *s, const char *kbuild_text, char key[CACHE_KEY_LEN + 1]);

/*
 * Copy the module cached under key to dest. True on a hit; the entry's
 * mtime is set to now, which is what the size limit's LRU order uses.
 */
bool cache_fetch(struct session *s, const char *key, const char *dest);

/*
 * Keep a copy of the built module ko under key (atomically: a reader never
 * sees half a file), then delete the least recently used entries while the
 * cache is over its size limit. Failures only cost the next build time:
 * they are reported with -v and otherwise ignored.
 */
void cache_store(struct session *s, const char *key, const char *ko);

/*
 * The compiler kbuild runs for the target kernel, by the name make looks up on PATH: the
 * first word of its CONFIG_CC_VERSION_TEXT ("gcc-12"), after the cross prefix for another
 * architecture ("aarch64-linux-gnu-gcc-12"); "gcc" when the tree does not say.
 */
const char *kbuild_compiler(const struct session *s);

/* name's path on $PATH, as make and execvp find it; NULL if it is on none. */
const char *find_in_path(const char *name);

/* --clean-cache: delete the least recently used entries while over the limit; the exit status. */
int cache_clean(struct session *s);

/*
 * The cache directory: $STAPC_CACHE_DIR, $SYSTEMTAP_DIR/cache, $XDG_CACHE_HOME/stapc
 * or ~/.cache/stapc; NULL if none.
 */
const char *cache_dir(void);

/* mkdir -p with mode 0700; false (errno set) if a component cannot be made. */
bool cache_make_dirs(const char *path);

#endif
