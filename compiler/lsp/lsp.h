/*
 * lsp.h - stap --language-server: a Language Server Protocol server on
 * stdin/stdout (lsp.c), whose analyses of a document run the compiler's own
 * passes 1 and 2 in a forked child each (lsp_worker.c), so no script can
 * crash the server or grow its memory: the compiler's arena dies with the
 * child. docs/stap.md describes what it offers and how to set up an editor.
 */
#ifndef STAPC_LSP_H
#define STAPC_LSP_H

#include <stdio.h>

#include "session.h"

/* What a child is asked to do with a document. */
enum lsp_job_kind {
	LSP_JOB_DIAGNOSE,   /* passes 1 and 2: the diagnostics, a JSON array */
	LSP_JOB_COMPLETE,   /* a CompletionList at the position */
	LSP_JOB_HOVER,      /* a Hover (or null) for the word at the position */
	LSP_JOB_DEFINITION, /* a Location array for the word at the position */
};

/* One analysis of one document. */
struct lsp_job {
	enum lsp_job_kind kind; /* what to answer */
	const char *uri;        /* the document's URI, as the client names it */
	const char *path;       /* the file it names (file: URIs), else the URI itself */
	const char *text;       /* its text, NUL-terminated (a NUL inside ends it) */
	int line;               /* the position: 0-based line */
	int character;          /* and UTF-16 code unit in it, as LSP counts */
};

/* Serve the protocol on stdin/stdout until exit or end of input; the exit code. */
int lsp_serve(struct session *s);

/* In the child (lsp_worker.c): write job's result, JSON, to out. */
void lsp_work(struct session *s, const struct lsp_job *job, FILE *out);

/*
 * Positions (lsp_text.c). LSP counts a line's characters in UTF-16 code
 * units; the compiler counts bytes, from 1. Both clamp to the line.
 */
/* The byte offset in text of (line, UTF-16 character). */
size_t lsp_offset(const char *text, int line, int character);
/* The UTF-16 character of byte column col (0-based) of line (0-based). */
int lsp_character(const char *text, int line, int col);
/* The start of line (0-based) in text, or NULL past its end. */
const char *lsp_line_start(const char *text, int line);
/* A file URI's path (percent-decoded), or NULL for another scheme; in the arena of the caller's choice: malloc. */
char *lsp_uri_path(const char *uri);
/* The file: URI of an absolute path, malloc'd. */
char *lsp_path_uri(const char *path);

#endif
