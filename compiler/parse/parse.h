/* parse.h - pass 1: turn one script or tapset file into a struct ast_file. */
#ifndef STAPC_PARSE_H
#define STAPC_PARSE_H

#include <stdbool.h>

#include "ast.h"

/*
 * Parse `text` (NUL-terminated contents of the file named `path`) for session s
 * (its options, script arguments and *.stpm macros).
 * The path is interned and the text registered with diag_add_source, so the
 * caller may pass any string. Syntax errors are reported through diag and the
 * parser resynchronises at the next top-level declaration; the returned file
 * holds whatever parsed cleanly. Callers check diag_error_count().
 * is_tapset marks every global, function and probe as from_tapset.
 */
struct session;
struct ast_file *parse_file(struct session *s, const char *path, const char *text, bool is_tapset);

/*
 * Read a *.stpm macro file: it may hold only @define (and %( %) around
 * them); its macros become visible in every file parsed afterwards.
 */
void parse_macro_file(struct session *s, const char *path, const char *text);

#endif
