/* lsp_worker.h - what the parts of a language-server child share (lsp_worker.c, lsp_complete.c). */
#ifndef STAPC_LSP_WORKER_H
#define STAPC_LSP_WORKER_H

#include "lsp.h"

/* A definition the library or the document offers, found by name. */
struct lsp_definition {
	const char *name;          /* the function, global or alias name */
	const char *signature;     /* "function execname:string ()", "probe vfs.read = kernel.function(...)" */
	struct srcloc loc;         /* where it is defined (the name, or the 'probe' keyword) */
	const char *kind;          /* "function", "global", "probe" */
};

/* Parse the document (pass 1) into s->script; the library's files are parsed by lsp_library. */
void lsp_parse_document(struct session *s, const struct lsp_job *job);
/* The document's and then the library's files (every tapset file parsed), of struct ast_file *. */
const struct vec *lsp_library(struct session *s);
/* The definitions named name: functions, globals (kind "function"/"global") or aliases ("probe"). */
void lsp_find(struct session *s, const char *name, const char *kind, struct vec *out);
/* Every public definition of kind, of struct lsp_definition *, each name once. */
void lsp_all(struct session *s, const char *kind, struct vec *out);
/* The doc comment of the definition at loc (the // block above it), without the slashes; NULL if none. */
const char *lsp_doc_comment(const struct lsp_job *job, const struct lsp_definition *d);
/* The text of a file the job may point into: the document itself, or a tapset file; NULL if unreadable. */
const char *lsp_file_text(const struct lsp_job *job, const char *path);
/* Write {"start":..,"end":..}: len bytes from loc (line and col 1-based) of text. */
void lsp_write_range(FILE *out, const char *text, struct srcloc loc, int len);
/* The bytes of the word (identifier, or dotted probe point name with dotted) at p. */
int lsp_word_length(const char *p, bool dotted);

/*
 * The resolved points (struct resolved_probe *) of the probe the position
 * is in: its header found in the text, elaborated alone as `probe POINTS {}`.
 */
void lsp_probe_points(struct session *s, const struct lsp_job *job, struct vec *out);

/* LSP_JOB_COMPLETE (lsp_complete.c). */
void lsp_complete(struct session *s, const struct lsp_job *job, FILE *out);

#endif
