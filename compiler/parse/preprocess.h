/* preprocess.h - the token layer between lexer.l and parser.y (see preprocess.c). */
#ifndef STAPC_PREPROCESS_H
#define STAPC_PREPROCESS_H

#include "ast.h"
#include "parser.h"
#include "session.h"

/* One token as the preprocessor moves it around. */
struct pp_token {
	int kind;               /* parser token kind (IDENT, NUMBER, ...), 0 at end of input */
	struct parse_token val; /* spelling and value */
	struct srcloc loc;      /* where it was written, with its expansion chain */
	bool after_comment;     /* a comment came between it and the token before (read from the file) */
};

/* lexer.l: the raw scanner and the helpers preprocess.c needs from it. */
int lex_raw(YYSTYPE *val, struct srcloc *loc, yyscan_t scanner);
/* Is the scanner between 'probe' and '{' (words are probe point components)? */
bool lex_in_probe_point(yyscan_t scanner);
/* Did a comment come before the token lex_raw returned last? (Asking clears it.) */
bool lex_take_comment_before(yyscan_t scanner);
/* Lex text (a script argument) into tokens, as if it appeared where the scanner is. */
struct vec lex_text(const char *path, const char *text, bool probe_point);

/* Called by parse_file: a preprocessor for the file the scanner reads. */
struct pp_state *preprocess_new(yyscan_t scanner, struct parse_state *ps);

/*
 * Before pass 1: remember the session (kernel release, arch, -g, script
 * arguments) and load the global macros of every *.stpm file on the tapset
 * path (-I directories, then tapset/). False if a macro file failed.
 */
bool preprocess_begin(struct session *s);

/* After the script is parsed: warn about script arguments it never used. */
void preprocess_end(struct session *s);

#endif
