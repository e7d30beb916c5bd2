/*
 * buildid.h - finding an ELF file by its GNU build-id (NT_GNU_BUILD_ID
 * note): reading a file's build-id, looking in the usual places of a
 * file system, and asking a debuginfod server (libdebuginfod, loaded
 * with dlopen when DEBUGINFOD_URLS is set).
 */
#ifndef STAPC_BUILDID_H
#define STAPC_BUILDID_H

#include <stdbool.h>

#include "ast.h"

/* At most this many files are read by one scan of the standard directories. */
#define BUILDID_SCAN_MAX 20000

/* Whether text spells a build-id: an even number of hex digits, 16 to 128 of them. */
bool buildid_is_hex(const char *text);

/* The build-id of the ELF file at path in lowercase hex; NULL if it is no ELF file or has none. */
const char *buildid_of_file(const char *path);

/*
 * A file under sysroot ("" for /) whose build-id is hex (lowercase): each
 * host path of candidates first (strings, already under sysroot), then
 * sysroot's /usr/lib/debug/.build-id/XX/REST link (an executable, not its
 * .debug file), then a scan of each directory of dirs (a ':' list of
 * target paths) and of its subdirectories, reading at most
 * BUILDID_SCAN_MAX files. The host path found, or NULL.
 */
const char *buildid_find_local(const char *hex, const char *sysroot, const struct vec *candidates,
			       const char *dirs);

/*
 * The executable with build-id hex from the debuginfod servers that
 * DEBUGINFOD_URLS names (downloaded into libdebuginfod's cache): its path,
 * or NULL with *why set (no DEBUGINFOD_URLS, no libdebuginfod, the
 * servers' answer).
 */
const char *buildid_debuginfod(const char *hex, const char **why);

#endif
