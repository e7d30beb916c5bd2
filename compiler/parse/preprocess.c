/*
 * preprocess.c - pass 1, between the scanner and the parser: a token filter.
 *
 * The parser calls yylex() here; it pulls raw tokens from the scanner
 * (lex_raw in lexer.l) and hands on what is left after four rewrites:
 *
 *   %( COND %? TOKENS %: TOKENS %)   keep one branch. COND compares kernel_v,
 *       kernel_vr, systemtap_v (versions), arch, runtime,
 *       systemtap_privilege (strings), guru_mode, CONFIG_* (from the build
 *       tree's .config) or literals; == and != match globs, joined with &&
 *       and ||, parenthesised, nested. The branch not taken is still
 *       scanned, so it must be made of valid tokens.
 *   @define NAME %( BODY %)  and  @define NAME(a, b) %( ... @a ... %)
 *       define a macro; @NAME and @NAME(x, y) expand it. Macros are local
 *       to the file that defines them, except those of *.stpm files on the
 *       tapset path, which every file sees.
 *   $1..$N  the script's command-line arguments as tokens; @1..@N as
 *       string literals; $# their count as a number, @# as a string.
 *
 * Expansion works by pushing token lists (a macro body with its arguments
 * substituted, or an argument's tokens) on a stack of sources that are read
 * before the scanner, so expansions nest and may themselves hold
 * conditionals and macro calls. A token copied out of a macro body keeps the
 * position where it was written and gets a diag_expansion (diag.h) naming
 * the macro and the call site; diagnostics print that chain as notes.
 *
 * Adjacent string literals are joined into one ("a" "b" is "ab").
 *
 * Expansion is bounded, whatever the input: macros and $N arguments nest at
 * most PP_MAX_DEPTH deep (an argument that expands to itself, a recursive
 * macro) and one file's expansions produce at most PP_MAX_TOKENS tokens
 * (macros that each use the previous one several times); the error names the
 * chain of expansions.
 *
 * Errors are reported and scanning goes on with a harmless replacement
 * (an empty expansion, a 0 or "" for a missing argument).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "arch.h"
#include "diag.h"
#include "parse.h"
#include "preprocess.h"

/* Macro calls and $N arguments may nest this deep; deeper is almost surely recursion. */
#define PP_MAX_DEPTH 64
/*
 * The expansions in one file together may produce this many tokens: nested
 * macros that each use the previous one several times grow exponentially.
 * A token costs about 100 bytes, so this bounds the memory expansion takes.
 */
#define PP_MAX_TOKENS 200000

/* A macro made by @define. */
struct pp_macro {
	const char *name;  /* without the '@' */
	struct vec params; /* of const char *: parameter names, without '@' */
	struct vec body;   /* of struct pp_token *: between %( and %) */
	struct srcloc loc; /* of the name in the definition */
};

/* A list of tokens read before the scanner: a macro expansion or an argument. */
struct pp_source {
	struct vec toks;          /* of struct pp_token * */
	int pos;                  /* next token to hand out */
	const char *what;         /* an expansion: "macro '@m'", "$1"; NULL for tokens put back */
	struct pp_source *next;   /* the source below this one */
};

/* A conditional whose taken branch is being read. */
struct pp_cond {
	struct srcloc loc; /* of its %( */
	bool in_else;      /* reading the %: branch (a second %: is an error) */
};

/* The preprocessor of one file. */
struct pp_state {
	yyscan_t scanner;          /* the file's scanner */
	struct parse_state *ps;    /* its parse state (file, tapset or macro file) */
	struct pp_source *sources; /* pushed token lists, top first */
	int depth;                 /* macro expansions on the source stack */
	bool at_eof;               /* the scanner returned end of input */
	struct srcloc eof_loc;     /* where the input ended */
	struct vec conds;          /* of struct pp_cond *: open conditionals, innermost last */
	bool junk_reported;        /* macro file: already said it holds something else */
	long expanded_tokens;      /* tokens the file's expansions produced so far */
	bool budget_reported;      /* PP_MAX_TOKENS was reported: later expansions are dropped quietly */
};

/* What the preprocessor keeps for a whole session, across files (session.preprocess). */
struct preprocess_state {
	struct vec global_macros; /* of struct pp_macro *: from *.stpm files */
	bool *arg_used;           /* per script argument: referenced as $N or @N; NULL before preprocess_begin */
	/* The kernel configuration, read on the first CONFIG_ condition. */
	struct {
		bool loaded;        /* tried to read it */
		struct vec names;   /* of const char *: "CONFIG_SMP" */
		struct vec values;  /* of const char *: "y", "m", "1000", unquoted strings */
	} config;
};

static void define_bindir(struct session *s, struct vec *macros);

static struct preprocess_state *pp_session_state(struct session *s)
{
	if (!s->preprocess) {
		s->preprocess = ast_alloc(sizeof(*s->preprocess));
		define_bindir(s, &s->preprocess->global_macros);
	}
	return s->preprocess;
}

struct parse_state *yyget_extra(yyscan_t scanner);

struct pp_state *preprocess_new(yyscan_t scanner, struct parse_state *ps)
{
	struct pp_state *pp = ast_alloc(sizeof(*pp));
	pp->scanner = scanner;
	pp->ps = ps;
	return pp;
}

/* ---------------------------------------------------------------- */
/* Token sources                                                      */
/* ---------------------------------------------------------------- */

/* The next token from the pushed lists, else from the scanner; no rewriting. */
static int pull(struct pp_state *pp, struct pp_token *t)
{
	while (pp->sources) {
		struct pp_source *src = pp->sources;
		if (src->pos < src->toks.n) {
			*t = *(struct pp_token *)src->toks.items[src->pos++];
			return t->kind;
		}
		pp->sources = src->next;
		if (src->what)
			pp->depth--;
	}
	memset(t, 0, sizeof(*t));
	if (pp->at_eof) {
		t->loc = pp->eof_loc;
		return 0;
	}
	YYSTYPE val;
	memset(&val, 0, sizeof(val));
	t->kind = lex_raw(&val, &t->loc, pp->scanner);
	t->val = val.tok;
	t->after_comment = lex_take_comment_before(pp->scanner);
	if (!t->kind) {
		pp->at_eof = true;
		pp->eof_loc = t->loc;
	}
	return t->kind;
}

/* Read toks next; what names an expansion (counted in depth), NULL for put-back tokens. */
static void push_source(struct pp_state *pp, struct vec toks, const char *what)
{
	struct pp_source *src = ast_alloc(sizeof(*src));
	src->toks = toks;
	src->what = what;
	src->next = pp->sources;
	pp->sources = src;
	if (what)
		pp->depth++;
}

/* Put one token back: it is read again next. */
static void push_back(struct pp_state *pp, const struct pp_token *t);

static struct pp_token *copy_token(const struct pp_token *t)
{
	struct pp_token *c = ast_alloc(sizeof(*c));
	*c = *t;
	return c;
}

/* Identifiers and keywords: anything spelled like a word. */
static bool is_word(const struct pp_token *t)
{
	const char *s = t->val.text;
	return s && t->kind != STRING && t->kind != AT_NAME && t->kind != TARGET_VAR &&
	       (isalpha((unsigned char)s[0]) || s[0] == '_');
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static void make_number(struct pp_token *t, int64_t value)
{
	t->kind = NUMBER;
	t->val.num = value;
	t->val.text = ast_printf("%lld", (long long)value);
	t->val.str = NULL;
}

static void make_string(struct pp_token *t, const char *value)
{
	t->kind = STRING;
	t->val.str = value;
	t->val.text = ast_printf("\"%s\"", value);
	t->val.num = 0;
}

/*
 * @stapc_bindir, a global macro every session has: the directory of the
 * running stap (with staprun and stapio beside it) as a string literal, the
 * build's bin/ in a build tree, the install's bindir once installed.
 * tapset/stap_staticmarkers.stp names the programs it probes with it:
 * process(@stapc_bindir "/stap").
 */
static void define_bindir(struct session *s, struct vec *macros)
{
	struct pp_macro *m = ast_alloc(sizeof(*m));
	struct pp_token *t = ast_alloc(sizeof(*t));
	m->name = "stapc_bindir";
	m->loc = (struct srcloc){ .file = ast_intern("<stapc_bindir>"), .line = 1, .col = 1 };
	make_string(t, s->bin_dir ? s->bin_dir : "");
	t->loc = m->loc;
	vec_push(&m->body, t);
	vec_push(macros, m);
}

/* ---------------------------------------------------------------- */
/* Expansion limits                                                   */
/* ---------------------------------------------------------------- */

static void push_back(struct pp_state *pp, const struct pp_token *t)
{
	push_source(pp, (struct vec){ 0 }, NULL);
	vec_push(&pp->sources->toks, copy_token(t));
}

/* A failed expansion becomes the number 0, so the parser does not stumble too. */
static void push_placeholder(struct pp_state *pp, const struct pp_token *call)
{
	struct pp_token *zero = copy_token(call);
	make_number(zero, 0);
	struct vec toks = { 0 };
	vec_push(&toks, zero);
	push_source(pp, toks, NULL);
}

/*
 * The expansions under way, outermost first, then what: "$1 -> $2 -> $1".
 * With stop_at_repeat the chain ends at the first name seen before (the loop).
 */
static const char *expansion_chain(const struct pp_state *pp, const char *what, bool stop_at_repeat)
{
	struct vec names = { 0 }; /* innermost first */
	vec_push(&names, (void *)what);
	for (const struct pp_source *src = pp->sources; src; src = src->next)
		if (src->what)
			vec_push(&names, (void *)src->what);
	const char *chain = "";
	struct vec seen = { 0 };
	for (int i = names.n - 1; i >= 0; i--) {
		const char *name = names.items[i];
		chain = ast_printf("%s%s%s", chain, *chain ? " -> " : "", name);
		bool repeat = false;
		for (int j = 0; j < seen.n; j++)
			if (!strcmp(seen.items[j], name))
				repeat = true;
		if (repeat && stop_at_repeat)
			break;
		vec_push(&seen, (void *)name);
	}
	return chain;
}

/*
 * May call (expanding to what, "macro '@m'" or "$1") add ntoks tokens?
 * False, reported, when expansions nest past PP_MAX_DEPTH or all of them
 * together pass PP_MAX_TOKENS; the caller then pushes a placeholder.
 */
static bool may_expand(struct pp_state *pp, const struct pp_token *call, const char *what, int ntoks)
{
	if (pp->budget_reported)
		return false;
	if (pp->depth >= PP_MAX_DEPTH) {
		/* Only the outermost use is worth a note, not every level of the loop. */
		struct srcloc here = call->loc;
		const struct diag_expansion *outermost = NULL;
		for (const struct diag_expansion *e = here.expansion; e; e = e->site.expansion)
			outermost = e;
		here.expansion = NULL;
		const char *chain = expansion_chain(pp, what, true);
		if (call->kind == TARGET_VAR)
			diag_error(here, "script arguments expand to themselves: %s (nested more than %d deep)",
				   chain, PP_MAX_DEPTH);
		else if (!strchr(chain, '>') || !strcmp(chain, ast_printf("%s -> %s", what, what)))
			diag_error(here, "macro expansion nested more than %d deep: is '%s' recursive?",
				   PP_MAX_DEPTH, call->val.text);
		else
			diag_error(here, "macro expansion nested more than %d deep: is '%s' recursive? (%s)",
				   PP_MAX_DEPTH, call->val.text, chain);
		if (outermost)
			diag_note(outermost->site, "in expansion of %s", diag_expansion_what(outermost));
		return false;
	}
	if (pp->expanded_tokens + ntoks > PP_MAX_TOKENS) {
		/* Reported at the outermost use, where the growth started. */
		struct srcloc here = call->loc;
		for (const struct diag_expansion *e = call->loc.expansion; e; e = e->site.expansion)
			here = e->site;
		here.expansion = NULL;
		diag_error(here, "the expansions in this file produce more than %d tokens: %s (do nested macros use each "
				 "other several times?)", PP_MAX_TOKENS, expansion_chain(pp, what, false));
		pp->budget_reported = true;
		/* Drop what is left of the expansions under way: parsing it would only add errors. */
		while (pp->sources && pp->sources->what) {
			pp->sources = pp->sources->next;
			pp->depth--;
		}
		return false;
	}
	pp->expanded_tokens += ntoks;
	return true;
}

/* ---------------------------------------------------------------- */
/* Script arguments                                                   */
/* ---------------------------------------------------------------- */

static int arg_count(const struct session *session)
{
	return session->script_args.n;
}

/* The text of argument n (1-based), or NULL (reported) if not given. */
static const char *script_arg(struct session *session, const struct pp_token *t, long n)
{
	int count = arg_count(session);
	if (n < 1 || n > count) {
		diag_error(t->loc, "missing script argument %s: %d argument%s given after the script",
			   t->val.text, count, count == 1 ? "" : "s");
		return NULL;
	}
	bool *arg_used = pp_session_state(session)->arg_used;
	if (arg_used)
		arg_used[n - 1] = true;
	return session->script_args.items[n - 1];
}

/* $N: the argument's text, scanned as tokens placed where $N is. */
static void expand_dollar_arg(struct pp_state *pp, const struct pp_token *t, const char *text)
{
	const char *what = ast_strdup(t->val.text);
	if (!may_expand(pp, t, what, 0)) {
		push_placeholder(pp, t);
		return;
	}
	struct vec toks = lex_text(ast_printf("<argument %s>", t->val.text), text,
				   lex_in_probe_point(pp->scanner));
	for (int i = 0; i < toks.n; i++) {
		struct pp_token *a = toks.items[i];
		a->loc = t->loc;
	}
	if (!may_expand(pp, t, what, toks.n)) {
		push_placeholder(pp, t);
		return;
	}
	push_source(pp, toks, what);
}

/* ---------------------------------------------------------------- */
/* Macros                                                             */
/* ---------------------------------------------------------------- */

static struct pp_macro *find_in(struct vec *macros, const char *name)
{
	for (int i = macros->n - 1; i >= 0; i--) {
		struct pp_macro *m = macros->items[i];
		if (!strcmp(m->name, name))
			return m;
	}
	return NULL;
}

/* The file's own macros first, then the global ones from *.stpm files. */
static struct pp_macro *find_macro(struct pp_state *pp, const char *name)
{
	struct pp_macro *m = pp->ps->macro_file ? NULL : find_in(&pp->ps->file->macros, name);
	return m ? m : find_in(&pp_session_state(pp->ps->session)->global_macros, name);
}

/* Skip a %( ... %) group whose %( was just read (error recovery). */
static void skip_group(struct pp_state *pp)
{
	struct pp_token t;
	int depth = 0;
	int kind;
	while ((kind = pull(pp, &t)) != 0) {
		if (kind == PP_IF)
			depth++;
		else if (kind == PP_END && depth-- == 0)
			return;
	}
}

/*
 * @define NAME %( BODY %)   or   @define NAME(a, b) %( BODY %)
 * The body is kept as raw tokens; it is expanded at each use.
 */
static void define_macro(struct pp_state *pp, const struct pp_token *at)
{
	struct pp_token name, t;
	int kind = pull(pp, &name);
	if (!is_word(&name)) {
		diag_error(kind ? name.loc : at->loc, "expected a macro name after '@define'");
		if (kind == PP_IF)
			skip_group(pp);
		return;
	}
	struct pp_macro *m = ast_alloc(sizeof(*m));
	m->name = name.val.text;
	m->loc = name.loc;
	/* "@define" always starts a definition, so such a macro could never be used (the rest is still read) */
	if (!strcmp(m->name, "define"))
		diag_error(name.loc, "'define' cannot name a macro: '@define' always starts a definition");

	kind = pull(pp, &t);
	if (kind == '(') {
		for (;;) {
			kind = pull(pp, &t);
			if (!is_word(&t)) {
				diag_error(t.loc, "expected a parameter name in the definition of macro '@%s'",
					   m->name);
				break;
			}
			for (int i = 0; i < m->params.n; i++)
				if (!strcmp(m->params.items[i], t.val.text))
					diag_error(t.loc, "macro '@%s' has two parameters named '%s'", m->name,
						   t.val.text);
			vec_push(&m->params, (void *)t.val.text);
			kind = pull(pp, &t);
			if (kind == ',')
				continue;
			if (kind != ')')
				diag_error(t.loc, "expected ',' or ')' after a parameter of macro '@%s'", m->name);
			break;
		}
		if (kind != ')') {
			while (kind && kind != ')' && kind != PP_IF)
				kind = pull(pp, &t);
			if (kind == PP_IF)
				skip_group(pp);
			return;
		}
		kind = pull(pp, &t);
	}
	if (kind != PP_IF) {
		diag_error(kind ? t.loc : name.loc, "expected '%%(' to start the body of macro '@%s'", m->name);
		return;
	}
	struct srcloc open = t.loc;
	int depth = 0;
	for (;;) {
		kind = pull(pp, &t);
		if (!kind) {
			diag_error(open, "unterminated body of macro '@%s' (missing '%%)')", m->name);
			pp->ps->eof_reported = true;
			return;
		}
		if (kind == PP_IF)
			depth++;
		else if (kind == PP_END && depth-- == 0)
			break;
		vec_push(&m->body, copy_token(&t));
	}

	struct vec *table = pp->ps->macro_file ? &pp_session_state(pp->ps->session)->global_macros : &pp->ps->file->macros;
	struct pp_macro *old = find_in(table, m->name);
	if (old) {
		diag_error(m->loc, "macro '@%s' is already defined", m->name);
		diag_note(old->loc, "first defined here");
		return;
	}
	vec_push(table, m);
}

/* Read @NAME's arguments "(a, b)": comma-separated token lists at nesting depth 0. */
static bool read_macro_args(struct pp_state *pp, const struct pp_macro *m, const struct pp_token *call,
			    struct vec *args)
{
	struct pp_token t;
	int kind = pull(pp, &t);
	if (kind != '(') {
		diag_error(call->loc, "macro '@%s' takes %d argument%s: write @%s(...)", m->name, m->params.n,
			   m->params.n == 1 ? "" : "s", m->name);
		if (kind) {
			push_back(pp, &t);
		}
		return false;
	}
	struct vec *cur = ast_alloc(sizeof(*cur));
	vec_push(args, cur);
	int depth = 0;
	for (;;) {
		kind = pull(pp, &t);
		if (!kind) {
			diag_error(call->loc, "unterminated argument list of macro '@%s' (missing ')')", m->name);
			pp->ps->eof_reported = true;
			return false;
		}
		if (kind == '(' || kind == '[' || kind == '{' || kind == PP_IF) {
			depth++;
		} else if (kind == ')' || kind == ']' || kind == '}' || kind == PP_END) {
			if (depth == 0 && kind == ')')
				break;
			depth--;
		} else if (kind == ',' && depth == 0) {
			cur = ast_alloc(sizeof(*cur));
			vec_push(args, cur);
			continue;
		}
		vec_push(cur, copy_token(&t));
	}
	/* "@m()" passes no argument rather than one empty one. */
	if (args->n == 1 && ((struct vec *)args->items[0])->n == 0)
		args->n = 0;
	if (args->n != m->params.n) {
		diag_error(call->loc, "macro '@%s' takes %d argument%s, %d given", m->name, m->params.n,
			   m->params.n == 1 ? "" : "s", args->n);
		diag_note(m->loc, "'@%s' is defined here", m->name);
		return false;
	}
	return true;
}

/* The @-operators the parser knows (statistics operators are STAT_OP tokens). */
static bool is_at_operator(const char *name)
{
	static const char *const ops[] = { "cast", "var", "defined", "entry", "choose_defined", "task", "cast_sizeof",
					    "cast_module_sizeof", "type_member_defined", "kderef", "uderef", "kregister",
					    "uregister", "const", "perf", "probewrite", "enum", "enumname" };
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(name, ops[i]))
			return true;
	return false;
}

/* After an unknown @name: drop a parenthesised argument list, if one follows. */
static void skip_call_args(struct pp_state *pp)
{
	struct pp_token t;
	int kind = pull(pp, &t);
	if (kind != '(') {
		if (kind) {
			push_back(pp, &t);
		}
		return;
	}
	for (int depth = 1; depth > 0;) {
		kind = pull(pp, &t);
		if (!kind)
			return;
		if (kind == '(')
			depth++;
		else if (kind == ')')
			depth--;
	}
}

/*
 * A macro without parameters may be called with an empty argument list,
 * as SystemTap's documentation writes some (@json_output_data_start()):
 * a "()" right after the call is part of it. The look ahead pops no
 * source (that would end an enclosing expansion early, and its depth
 * count with it) and reads the scanner only when every pushed token is
 * used and no probe point is being read (whose scanning has state).
 */
static void skip_empty_args(struct pp_state *pp)
{
	struct pp_token *next[2] = { NULL, NULL };
	struct pp_source *where[2] = { NULL, NULL };
	int n = 0;
	for (struct pp_source *src = pp->sources; src && n < 2; src = src->next)
		for (int i = src->pos; i < src->toks.n && n < 2; i++) {
			where[n] = src;
			next[n++] = src->toks.items[i];
		}
	if (n == 2) {
		if (next[0]->kind == '(' && next[1]->kind == ')') {
			where[0]->pos++;
			where[1]->pos++;
		}
		return;
	}
	if (n == 1 || pp->at_eof || lex_in_probe_point(pp->scanner))
		return;
	/* from the scanner: put back what is not "()" (above the used sources, so in order) */
	struct pp_token t[2];
	int got = 0;
	while (got < 2) {
		YYSTYPE val;
		memset(&val, 0, sizeof(val));
		memset(&t[got], 0, sizeof(t[got]));
		t[got].kind = lex_raw(&val, &t[got].loc, pp->scanner);
		t[got].val = val.tok;
		if (!t[got].kind) {
			pp->at_eof = true;
			pp->eof_loc = t[got].loc;
			break;
		}
		got++;
		if (got == 1 && t[0].kind != '(')
			break;
	}
	if (got == 2 && t[0].kind == '(' && t[1].kind == ')')
		return;
	for (int i = got - 1; i >= 0; i--)
		push_back(pp, &t[i]);
}

/* Replace the call by the body, with @param replaced by the argument's tokens. */
static void expand_macro(struct pp_state *pp, const struct pp_macro *m, const struct pp_token *call)
{
	const char *what = ast_printf("macro '%s'", call->val.text);
	if (!may_expand(pp, call, what, 0)) {
		push_placeholder(pp, call);
		return;
	}
	struct vec args = { 0 };
	if (m->params.n && !read_macro_args(pp, m, call, &args)) {
		push_placeholder(pp, call);
		return;
	}
	if (!m->params.n)
		skip_empty_args(pp);

	const struct diag_expansion *e = diag_expansion_new(what, call->loc);
	bool probe_point = lex_in_probe_point(pp->scanner);
	struct vec out = { 0 };
	for (int i = 0; i < m->body.n; i++) {
		const struct pp_token *b = m->body.items[i];
		int param = -1;
		if (b->kind == AT_NAME || b->kind == STAT_OP)
			for (int j = 0; j < m->params.n && param < 0; j++)
				if (!strcmp(b->val.text + 1, m->params.items[j]))
					param = j;
		if (param >= 0) {
			struct vec *arg = args.items[param];
			for (int j = 0; j < arg->n; j++)
				vec_push(&out, arg->items[j]);
			continue;
		}
		struct pp_token *c = copy_token(b);
		c->loc.expansion = e;
		/* Between 'probe' and '{' words are probe point components. */
		if (probe_point && is_word(c))
			c->kind = PP_NAME;
		vec_push(&out, c);
	}
	if (!may_expand(pp, call, what, out.n)) {
		push_placeholder(pp, call);
		return;
	}
	push_source(pp, out, what);
}

/*
 * The next token with macros, @define and script arguments rewritten.
 * Conditional tokens (%( %? %: %)) come back as they are.
 */
static int expand_next(struct pp_state *pp, struct pp_token *t)
{
	for (;;) {
		int kind = pull(pp, t);
		if (kind == STAT_OP) {
			/* A user macro may take the name of a statistics operator. */
			const struct pp_macro *m = find_macro(pp, t->val.text + 1);
			if (!m)
				return kind;
			expand_macro(pp, m, t);
			continue;
		}
		if (kind == AT_NAME) {
			const char *name = t->val.text + 1;
			if (!strcmp(name, "define")) {
				define_macro(pp, t);
				continue;
			}
			if (!strcmp(name, "#")) { /* the count as a string literal, "3" */
				make_string(t, ast_printf("%d", arg_count(pp->ps->session)));
				return STRING;
			}
			if (all_digits(name)) {
				const char *text = script_arg(pp->ps->session, t, strtol(name, NULL, 10));
				make_string(t, text ? text : "");
				return STRING;
			}
			const struct pp_macro *m = find_macro(pp, name);
			if (m) {
				expand_macro(pp, m, t);
				continue;
			}
			if (!is_at_operator(name)) {
				diag_error(t->loc, "unknown macro or operator '@%s' (no macro of that name is defined)", name);
				skip_call_args(pp);
				push_placeholder(pp, t);
				continue;
			}
			return kind;
		}
		if (kind == TARGET_VAR) {
			const char *name = t->val.text + 1;
			if (!strcmp(name, "#")) {
				make_number(t, arg_count(pp->ps->session));
				return NUMBER;
			}
			if (all_digits(name)) {
				const char *text = script_arg(pp->ps->session, t, strtol(name, NULL, 10));
				if (!text) {
					make_number(t, 0);
					return NUMBER;
				}
				expand_dollar_arg(pp, t, text);
				continue;
			}
		}
		return kind;
	}
}

/* ---------------------------------------------------------------- */
/* Conditions                                                         */
/* ---------------------------------------------------------------- */

/* A condition being parsed: one token of lookahead. */
struct cond_parser {
	struct pp_state *pp;
	struct pp_token tok; /* current token */
	bool failed;         /* an error was reported: stop evaluating */
};

static void cond_advance(struct cond_parser *cp)
{
	expand_next(cp->pp, &cp->tok);
}

static void cond_error(struct cond_parser *cp, const char *msg)
{
	if (!cp->failed)
		diag_error(cp->tok.loc, "%s", msg);
	cp->failed = true;
}

static const char *kernel_release(const struct session *session)
{
	if (session->release)
		return session->release;
	struct utsname u;
	uname(&u);
	return ast_strdup(u.release);
}

/* "6.1.0-56-cloud-amd64" -> "6.1.0" */
static const char *kernel_version(const struct session *session)
{
	const char *r = kernel_release(session);
	size_t n = strspn(r, "0123456789.");
	while (n > 0 && r[n - 1] == '.')
		n--;
	return ast_strndup(r, n);
}

/* The machine as SystemTap names it: x86_64, i386, arm64, ... */
static const char *machine_arch(void)
{
	struct utsname u;
	uname(&u);
	if (u.machine[0] == 'i' && !strcmp(u.machine + 2, "86"))
		return "i386";
	if (!strcmp(u.machine, "aarch64"))
		return "arm64";
	return ast_strdup(u.machine);
}

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0, got;
	char *buf = ast_alloc(cap);
	while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += got;
		if (len + 1 == cap) {
			char *bigger = ast_alloc(cap * 2);
			memcpy(bigger, buf, len);
			buf = bigger;
			cap *= 2;
		}
	}
	fclose(f);
	buf[len] = '\0';
	return buf;
}

static void config_add(struct preprocess_state *st, const char *name, size_t name_len, const char *value, size_t value_len)
{
	if (value_len >= 2 && value[0] == '"' && value[value_len - 1] == '"') {
		value++;
		value_len -= 2;
	}
	vec_push(&st->config.names, ast_strndup(name, name_len));
	vec_push(&st->config.values, ast_strndup(value, value_len));
}

/*
 * The build tree's .config (CONFIG_X=y, CONFIG_S="text"), else its
 * include/generated/autoconf.h (#define CONFIG_X 1, CONFIG_X_MODULE for m).
 */
static void config_load(struct session *session, struct srcloc where)
{
	struct preprocess_state *st = pp_session_state(session);
	st->config.loaded = true;
	const char *tree = session->kernel_build;
	char *text = tree ? read_text(ast_printf("%s/.config", tree)) : NULL;
	if (text) {
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			char *eq = strchr(line, '=');
			if (strncmp(line, "CONFIG_", 7) == 0 && eq)
				config_add(st, line, (size_t)(eq - line), eq + 1, strlen(eq + 1));
		}
		return;
	}
	text = tree ? read_text(ast_printf("%s/include/generated/autoconf.h", tree)) : NULL;
	if (text) {
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
			if (strncmp(line, "#define CONFIG_", 15) != 0)
				continue;
			char *name = line + 8;
			size_t name_len = strcspn(name, " \t");
			const char *value = name + name_len + strspn(name + name_len, " \t");
			if (name_len > 7 && !strncmp(name + name_len - 7, "_MODULE", 7))
				config_add(st, name, name_len - 7, "m", 1);
			else if (!strcmp(value, "1"))
				config_add(st, name, name_len, "y", 1);
			else
				config_add(st, name, name_len, value, strlen(value));
		}
		return;
	}
	diag_warning(where, "no kernel configuration in %s (.config or include/generated/autoconf.h): "
		     "every CONFIG_ option counts as unset", tree ? tree : "(no build tree)");
}

static const char *config_value(struct session *session, const char *name, struct srcloc where)
{
	struct preprocess_state *st = pp_session_state(session);
	if (!st->config.loaded)
		config_load(session, where);
	for (int i = 0; i < st->config.names.n; i++)
		if (!strcmp(st->config.names.items[i], name))
			return st->config.values.items[i];
	return NULL;
}

/* A comparison result c (<0, 0, >0) under operator kind op. */
static bool compare_holds(int op, int c)
{
	switch (op) {
	case EQ: return c == 0;
	case NE: return c != 0;
	case '<': return c < 0;
	case LE: return c <= 0;
	case '>': return c > 0;
	default: return c >= 0; /* GE */
	}
}

static int compare_numbers(int64_t a, int64_t b)
{
	return (a > b) - (a < b);
}

/* == and != match a glob pattern; the other operators order. */
static bool compare_strings(int op, const char *value, const char *pattern, bool version)
{
	if (op == EQ || op == NE)
		return (fnmatch(pattern, value, 0) == 0) == (op == EQ);
	return compare_holds(op, version ? strverscmp(value, pattern) : strcmp(value, pattern));
}

/* A literal operand: a number (maybe negated) or a string: *str, NULL for a number. */
static bool cond_literal(struct cond_parser *cp, int64_t *num, const char **str)
{
	bool negative = false;
	if (cp->tok.kind == '-') {
		negative = true;
		cond_advance(cp);
	}
	if (cp->tok.kind == NUMBER) {
		*num = negative ? (int64_t)(0 - (uint64_t)cp->tok.val.num) : cp->tok.val.num;
		*str = NULL;
		cond_advance(cp);
		return true;
	}
	if (cp->tok.kind == STRING && !negative) {
		*num = 0;	/* both filled: gcc 14's -O3 cannot tell which one a caller reads */
		*str = cp->tok.val.str;
		cond_advance(cp);
		return true;
	}
	cond_error(cp, "expected a number or a string in the preprocessor condition");
	return false;
}

static bool cond_or(struct cond_parser *cp);

/* One comparison: NAME op LITERAL or LITERAL op LITERAL; or ( cond ). */
static bool cond_atom(struct cond_parser *cp)
{
	struct session *session = cp->pp->ps->session;
	if (cp->tok.kind == '(') {
		cond_advance(cp);
		bool value = cond_or(cp);
		if (cp->tok.kind != ')')
			cond_error(cp, "expected ')' in the preprocessor condition");
		else
			cond_advance(cp);
		return value;
	}
	struct pp_token lhs = cp->tok;
	const char *name = NULL;
	int64_t lnum = 0;
	const char *lstr = NULL;
	if (is_word(&lhs)) {
		name = lhs.val.text;
		cond_advance(cp);
	} else if (!cond_literal(cp, &lnum, &lstr)) {
		return false;
	}
	int op = cp->tok.kind;
	if (op != EQ && op != NE && op != '<' && op != LE && op != '>' && op != GE) {
		cond_error(cp, "expected a comparison (==, !=, <, <=, >, >=) in the preprocessor condition");
		return false;
	}
	const char *op_text = cp->tok.val.text;
	cond_advance(cp);
	struct srcloc rloc = cp->tok.loc;
	int64_t rnum;
	const char *rstr;
	if (!cond_literal(cp, &rnum, &rstr) || cp->failed)
		return false;

	if (!name) {
		if ((lstr == NULL) != (rstr == NULL)) {
			diag_error(rloc, "cannot compare a %s with a %s in a preprocessor condition",
				   lstr ? "string" : "number", rstr ? "string" : "number");
			cp->failed = true;
			return false;
		}
		return lstr ? compare_strings(op, lstr, rstr, false) : compare_holds(op, compare_numbers(lnum, rnum));
	}

	bool version = !strcmp(name, "kernel_v") || !strcmp(name, "kernel_vr") || !strcmp(name, "systemtap_v");
	bool text = !strcmp(name, "arch") || !strcmp(name, "runtime") || !strcmp(name, "systemtap_privilege");
	if (version || text) {
		if (!rstr) {
			diag_error(rloc, "'%s' is compared with a string, as in %s %s \"%s\"", name, name, op_text,
				   version ? "6.1" : "x86_64");
			cp->failed = true;
			return false;
		}
		if (text && op != EQ && op != NE) {
			diag_error(lhs.loc, "'%s' can only be compared with == or !=", name);
			cp->failed = true;
			return false;
		}
		const char *value;
		if (!strcmp(name, "kernel_v"))
			value = kernel_version(session);
		else if (!strcmp(name, "kernel_vr"))
			value = kernel_release(session);
		else if (!strcmp(name, "systemtap_v"))
			value = session->compatible ? session->compatible : STAPC_LANGUAGE_VERSION;
		else if (!strcmp(name, "arch"))	/* the target's (-a, an arm64 -r DIR or qemu:RELEASE) */
			value = session->arch ? session->arch->name : machine_arch();
		else if (!strcmp(name, "runtime"))
			value = "kernel";
		else
			value = privilege_name(session->privilege); /* systemtap_privilege: --privilege */
		bool holds = compare_strings(op, value, rstr, version);
		/* --check-version: SystemTap's deprecation check, every test of the version it emulates */
		if (session->check_version && !strcmp(name, "systemtap_v"))
			diag_warning(lhs.loc, "version-specific code: 'systemtap_v %s \"%s\"' is %s for version %s "
				     "(--compatible=VERSION selects another) [--check-version]",
				     op_text, rstr, holds ? "true" : "false", value);
		return holds;
	}
	if (!strcmp(name, "guru_mode")) {
		if (rstr || (rnum != 0 && rnum != 1)) {
			diag_error(rloc, "'guru_mode' is compared with 0 or 1");
			cp->failed = true;
			return false;
		}
		return compare_holds(op, compare_numbers(session->guru, rnum));
	}
	if (!strncmp(name, "CONFIG_", 7) && name[7]) {
		const char *value = config_value(session, name, lhs.loc);
		if (rstr) {
			if (op != EQ && op != NE) {
				diag_error(lhs.loc, "'%s' compared with a string takes == or !=", name);
				cp->failed = true;
				return false;
			}
			return compare_strings(op, value ? value : "", rstr, false);
		}
		/* A numeric comparison with an unset or non-numeric option is false. */
		char *end;
		if (!value || !*value)
			return false;
		int64_t v = strtoll(value, &end, 0);
		return !*end && compare_holds(op, compare_numbers(v, rnum));
	}
	diag_error(lhs.loc, "unknown name '%s' in a preprocessor condition (expected kernel_v, kernel_vr, "
		   "systemtap_v, arch, runtime, systemtap_privilege, guru_mode or CONFIG_...)", name);
	cp->failed = true;
	return false;
}

/* cond-and = atom ("&&" atom)*   (all atoms are checked, none short-circuits) */
static bool cond_and(struct cond_parser *cp)
{
	bool value = cond_atom(cp);
	while (!cp->failed && cp->tok.kind == AND) {
		cond_advance(cp);
		bool rhs = cond_atom(cp);
		value = value && rhs;
	}
	return value;
}

/* cond = cond-and ("||" cond-and)* */
static bool cond_or(struct cond_parser *cp)
{
	bool value = cond_and(cp);
	while (!cp->failed && cp->tok.kind == OR) {
		cond_advance(cp);
		bool rhs = cond_and(cp);
		value = value || rhs;
	}
	return value;
}

/*
 * Skip tokens unexpanded up to the %: (if stop_at_else) or %) that belongs to
 * the conditional opened at `open`. Returns that token's kind, or 0 at the
 * end of input (reported). Skipping a %: branch, another %: is an error.
 */
static int skip_branch(struct pp_state *pp, bool stop_at_else, struct srcloc open)
{
	bool in_else = !stop_at_else;
	struct pp_token t;
	int depth = 0;
	for (;;) {
		int kind = pull(pp, &t);
		if (!kind) {
			diag_error(open, "unterminated conditional: '%%(' without its '%%)'");
			pp->ps->eof_reported = true;
			return 0;
		}
		if (kind == PP_IF) {
			depth++;
		} else if (kind == PP_END) {
			if (depth == 0)
				return PP_END;
			depth--;
		} else if (kind == PP_THEN && depth == 0) {
			diag_error(t.loc, "a second '%%?' in the same conditional");
		} else if (kind == PP_ELSE && depth == 0) {
			if (stop_at_else)
				return PP_ELSE;
			if (in_else)
				diag_error(t.loc, "a second '%%:' in the same conditional");
		}
	}
}

static void push_cond(struct pp_state *pp, struct srcloc loc, bool in_else)
{
	struct pp_cond *c = ast_alloc(sizeof(*c));
	c->loc = loc;
	c->in_else = in_else;
	vec_push(&pp->conds, c);
}

/* %( was read: evaluate the condition and enter the branch it picks. */
static void conditional(struct pp_state *pp, const struct pp_token *open)
{
	struct cond_parser cp = { .pp = pp };
	cond_advance(&cp);
	bool value = cond_or(&cp);
	if (!cp.failed && cp.tok.kind != PP_THEN)
		cond_error(&cp, "expected '%?' after the preprocessor condition");
	if (cp.failed) {
		/* Drop the whole conditional. */
		int kind = cp.tok.kind;
		while (kind && kind != PP_THEN && kind != PP_END)
			kind = pull(pp, &cp.tok);
		if (kind == PP_THEN && skip_branch(pp, true, open->loc) == PP_ELSE)
			skip_branch(pp, false, open->loc); /* the %: branch too, with its own checks */
		return;
	}
	if (value) {
		push_cond(pp, open->loc, false);
		return;
	}
	if (skip_branch(pp, true, open->loc) == PP_ELSE)
		push_cond(pp, open->loc, true);
}

/* --compatible older than 2.0: literals with a comment between them are not glued (NEWS, 2.0). */
static bool glue_needs_no_comment(const struct session *s)
{
	int major = 0;
	return s && s->compatible && sscanf(s->compatible, "%d", &major) == 1 && major < 2;
}

/* Adjacent string literals are one: "a" "b" is "ab" (also after macro and argument expansion). */
static void join_strings(struct pp_state *pp, struct pp_token *t)
{
	struct pp_token next;
	while (expand_next(pp, &next) == STRING) {
		if (next.after_comment && glue_needs_no_comment(pp->ps->session))
			diag_error(next.loc, "string literals with a comment between them are glued only from "
				   "SystemTap 2.0 (--compatible=%s here)", pp->ps->session->compatible);
		t->val.str = ast_printf("%s%s", t->val.str, next.val.str);
		t->val.text = ast_printf("%s %s", t->val.text, next.val.text);
	}
	if (next.kind)
		push_back(pp, &next);
}

/* The parser's token source. */
int yylex(YYSTYPE *val, struct srcloc *loc, yyscan_t scanner)
{
	struct parse_state *ps = yyget_extra(scanner);
	struct pp_state *pp = ps->pp;
	struct pp_token t;
	for (;;) {
		int kind = expand_next(pp, &t);
		struct pp_cond *top = pp->conds.n ? pp->conds.items[pp->conds.n - 1] : NULL;
		switch (kind) {
		case PP_IF:
			conditional(pp, &t);
			continue;
		case PP_THEN:
			if (top)
				diag_error(t.loc, "a second '%%?' in the same conditional");
			else
				diag_error(t.loc, "'%%?' without a '%%(' condition before it");
			continue;
		case PP_ELSE:
			if (!top) {
				diag_error(t.loc, "'%%:' without a matching '%%( ... %%?'");
				continue;
			}
			if (top->in_else) {
				diag_error(t.loc, "a second '%%:' in the same conditional");
				continue;
			}
			pp->conds.n--;
			skip_branch(pp, false, top->loc);
			continue;
		case PP_END:
			if (!top)
				diag_error(t.loc, "'%%)' without a matching '%%('");
			else
				pp->conds.n--;
			continue;
		case 0:
			for (int i = 0; i < pp->conds.n; i++) {
				diag_error(((struct pp_cond *)pp->conds.items[i])->loc,
					   "unterminated conditional: '%%(' without its '%%)'");
				ps->eof_reported = true;
			}
			pp->conds.n = 0;
			break;
		case EMBEDDED_CODE:
			/* the script's own C (not a tapset's, nor a tapset macro's expansion) needs -g, at pass 1 */
			if (!ps->is_tapset && !ps->macro_file && ps->session && !ps->session->guru && t.loc.file &&
			    !strcmp(t.loc.file, ps->path))
				diag_error(t.loc, "embedded C in a script needs guru mode (-g)");
			/* fall through */
		case STRING:
			if (kind == STRING)
				join_strings(pp, &t);
			/* fall through */
		default:
			if (ps->macro_file) {
				if (!pp->junk_reported)
					diag_error(t.loc, "a macro file (.stpm) may only contain @define");
				pp->junk_reported = true;
				continue;
			}
			break;
		}
		*loc = t.loc;
		val->tok = t.val;
		ps->last_text = t.val.text;
		return kind;
	}
}

/* ---------------------------------------------------------------- */
/* Session hooks                                                      */
/* ---------------------------------------------------------------- */


/* Every *.stpm file in dir, in name order. */
static void load_macro_dir(struct session *s, const char *dir)
{
	struct vec paths = { 0 };
	arch_list_files(dir, ".stpm", arch_is_arm64(s) ? "arm64" : "x86_64", &paths);
	for (int i = 0; i < paths.n; i++) {
		const char *path = paths.items[i];
		char *text = read_text(path);
		if (!text) {
			diag_error((struct srcloc){ .file = NULL }, "cannot read macro file %s", path);
			continue;
		}
		parse_macro_file(s, path, text);
	}
}

bool preprocess_begin(struct session *s)
{
	struct preprocess_state *st = pp_session_state(s);
	st->arg_used = ast_alloc(sizeof(*st->arg_used) * (size_t)(s->script_args.n + 1));
	for (int i = 0; i < s->include_dirs.n; i++)
		load_macro_dir(s, s->include_dirs.items[i]);
	if (s->tapset_dir)
		load_macro_dir(s, s->tapset_dir);
	return diag_error_count() == 0;
}

/* Does text name argv, argc or argv_N (the argv tapset, which reads every argument) as a word? */
static bool names_argv(const char *text)
{
	for (const char *p = strstr(text, "arg"); p; p = strstr(p + 1, "arg")) {
		bool starts = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
		if (starts && (p[3] == 'c' || p[3] == 'v') && !(isalnum((unsigned char)p[4]) || (p[4] == '_' && !isdigit((unsigned char)p[5]))))
			return true;
	}
	return false;
}

void preprocess_end(struct session *s)
{
	if (s->list_probes)
		return; /* -l/-L: the script is the pattern; what follows it is not its arguments */
	if (s->script_text && names_argv(s->script_text))
		return; /* argv[N] reads them at run time */
	for (int i = 0; i < s->script_args.n; i++)
		if (!pp_session_state(s)->arg_used[i])
			diag_warning((struct srcloc){ .file = NULL },
				     "script argument %d ('%s') is never used: the script has no $%d or @%d", i + 1,
				     (const char *)s->script_args.items[i], i + 1, i + 1);
}
