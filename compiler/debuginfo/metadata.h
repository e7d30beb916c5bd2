/*
 * metadata.h - debuginfod metadata queries (elfutils 0.192): which files
 * the servers of DEBUGINFOD_URLS know by a glob of their paths, with their
 * build-ids, for debuginfod.process("GLOB") (probes/debuginfod.c).
 */
#ifndef STAPC_METADATA_H
#define STAPC_METADATA_H

#include <stdbool.h>

#include "ast.h"

/* One file a server knows. */
struct metadata_file {
	const char *type;     /* "executable", "debuginfo", ... */
	const char *buildid;  /* lowercase hex */
	const char *file;     /* its path where the server found it (inside the archive, if any) */
	const char *archive;  /* the package holding it, or NULL for a plain file */
};

/*
 * The files whose path matches glob on the servers of DEBUGINFOD_URLS,
 * through libdebuginfod's debuginfod_find_metadata (loaded with dlopen):
 * pushed onto out (of struct metadata_file *); false with *why set when
 * DEBUGINFOD_URLS is unset, the library is missing or has no metadata
 * queries, or the servers fail or answer what is not JSON.
 */
bool metadata_glob(const char *glob, struct vec *out, const char **why);

/* The same over a JSON answer (exposed for its unit test); false if it is not one. */
bool metadata_parse(const char *json, struct vec *out);
#endif
