/*
 * lsp_worker.c - a language-server child: one analysis of one document with
 * the compiler's own passes (lsp.h). Diagnostics are passes 1 and 2 as
 * `stap -p2 FILE` runs them, each placed in the document (an error inside a
 * tapset alias or macro at the document's use of it); hover and definition
 * look the word at the position up among the document's and the library's
 * functions, globals and probe aliases. The child is short-lived: it
 * allocates from the compiler's arena and exits.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "elaborate.h"
#include "lsp_worker.h"
#include "json.h"
#include "parse.h"
#include "preprocess.h"
#include "probes.h"
#include "tapset.h"
#include "targetvar.h"
#include "debuginfo.h"

/* Diagnostics published for one document, at most. */
#define LSP_MAX_DIAGNOSTICS 200

/* One diagnostic as published. */
struct lsp_diagnostic {
	enum diag_level level; /* error or warning */
	struct srcloc at;      /* in the document (line 0: its start) */
	const char *message;   /* the message, notes appended */
};

/* The listener's state: the document and what was reported. */
struct lsp_collect {
	const char *path;      /* the document's interned path */
	const char *text;      /* its text */
	struct vec found;      /* of struct lsp_diagnostic * */
	FILE *out;             /* where the answer goes */
	bool written;          /* the answer is written */
};

/* "file:line:col" of a location outside the document, for a message placed at its use. */
static const char *where(struct srcloc loc)
{
	return loc.file ? ast_printf("%s:%d:%d", loc.file, loc.line, loc.col) : NULL;
}

static void collect(void *arg, enum diag_level level, struct srcloc loc, const char *message)
{
	struct lsp_collect *c = arg;
	if (level == DIAG_NOTE) {	/* joins the diagnostic it belongs to */
		if (c->found.n) {
			struct lsp_diagnostic *last = c->found.items[c->found.n - 1];
			last->message = where(loc) ? ast_printf("%s\n%s: note: %s", last->message, where(loc), message)
						   : ast_printf("%s\nnote: %s", last->message, message);
		}
		return;
	}
	if (c->found.n >= LSP_MAX_DIAGNOSTICS)
		return;
	struct lsp_diagnostic *d = ast_alloc(sizeof(*d));
	d->level = level;
	d->at = diag_site_in(loc, c->path);
	d->message = ast_strdup(message);	/* (the caller frees its own) */
	if (d->at.file != loc.file && where(loc))	/* say where it really is */
		d->message = ast_printf("%s: %s", where(loc), message);
	if (!d->at.file)
		d->at = (struct srcloc){.file = c->path, .line = 1, .col = 1};
	vec_push(&c->found, d);
}

int lsp_word_length(const char *p, bool dotted)
{
	int n = 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_' || (dotted && (p[n] == '.' || p[n] == '*')))
		n++;
	return n;
}

void lsp_write_range(FILE *out, const char *text, struct srcloc loc, int len)
{
	int line = loc.line > 0 ? loc.line - 1 : 0, col = loc.col > 0 ? loc.col - 1 : 0;
	fprintf(out, "{\"start\":{\"line\":%d,\"character\":%d},\"end\":{\"line\":%d,\"character\":%d}}", line,
		lsp_character(text, line, col), line, lsp_character(text, line, col + len));
}

static bool probe_line(const char *p);

/* Diagnostics of a position: the token there is the range (one character if none); in a probe header, the point's name. */
static void write_diagnostic(FILE *out, const char *text, const struct lsp_diagnostic *d)
{
	const char *start = lsp_line_start(text, d->at.line - 1);
	int len = 1;
	if (start && (size_t)(d->at.col - 1) <= strcspn(start, "\n")) {
		bool header = probe_line(start) && !memchr(start, '{', (size_t)(d->at.col - 1));
		len = lsp_word_length(start + d->at.col - 1, header);
	}
	fputs("{\"range\":", out);
	lsp_write_range(out, text, d->at, len ? len : 1);
	fprintf(out, ",\"severity\":%d,\"source\":\"stap\",\"message\":", d->level == DIAG_ERROR ? 1 : 2);
	json_write_string(out, d->message);
	fputc('}', out);
}

void lsp_parse_document(struct session *s, const struct lsp_job *job)
{
	s->script_path = ast_intern(job->path);
	s->script_text = job->text;
	preprocess_begin(s);	/* (false if anything failed before, as a lookup's own elaboration may have) */
	s->script = parse_file(s, s->script_path, s->script_text, false);
	preprocess_end(s);
}

/* The diagnostics collected, as a JSON array: at the end, or when the compiler exits early. */
static void write_diagnostics(struct lsp_collect *c)
{
	if (c->written)
		return;
	c->written = true;
	fputc('[', c->out);
	for (int i = 0; i < c->found.n; i++) {
		if (i)
			fputc(',', c->out);
		write_diagnostic(c->out, c->text, c->found.items[i]);
	}
	fputc(']', c->out);
	fflush(c->out);
}

static void write_at_exit(int status, void *arg)
{
	(void)status;
	write_diagnostics(arg);
}

/* Passes 1 and 2 as stap -p2 runs them (an empty document is not an error while it is written). */
static void diagnose(struct session *s, const struct lsp_job *job, FILE *out)
{
	struct lsp_collect *c = ast_alloc(sizeof(*c));
	*c = (struct lsp_collect){.path = ast_intern(job->path), .text = job->text, .out = out};
	on_exit(write_at_exit, c);	/* a pass that ends the process (too many errors) still has its say */
	diag_configure(&(struct diag_options){
		.suppress_warnings = s->suppress_warnings,
		.warnings_as_errors = s->warnings_as_errors,
		.error_limit = INT_MAX,
		.listener = collect,
		.listener_arg = c,
	});
	lsp_parse_document(s, job);
	struct ast_file *f = s->script;
	if (f && !diag_error_count() && (f->globals.n || f->functions.n || f->probes.n || f->embedded.n))
		elaborate(s);
	write_diagnostics(c);
}

const struct vec *lsp_library(struct session *s)
{
	struct vec *files = ast_alloc(sizeof(*files));
	if (s->script)
		vec_push(files, s->script);
	if (!s->tapset)	/* loaded once (lsp_probe_points' elaboration may have) */
		tapset_load(s);
	tapset_parse_everything(s, files);	/* each file parsed once */
	return files;
}

/* "function name:type (a:type, b:type)" */
static const char *function_signature(const struct function *fn)
{
	char *text = ast_printf("function %s%s%s (", fn->name, fn->type ? ":" : "", fn->type ? ast_type_name(fn->type) : "");
	for (int i = 0; i < fn->params.n; i++) {
		const struct param *p = fn->params.items[i];
		text = ast_printf("%s%s%s%s%s", text, i ? ", " : "", p->name, p->type ? ":" : "",
				  p->type ? ast_type_name(p->type) : "");
	}
	return ast_printf("%s)", text);
}

static struct lsp_definition *definition(const char *name, const char *signature, struct srcloc loc, const char *kind)
{
	struct lsp_definition *d = ast_alloc(sizeof(*d));
	*d = (struct lsp_definition){.name = name, .signature = signature, .loc = loc, .kind = kind};
	return d;
}

/* The definitions of kind one file makes, named name (NULL: all), visible from the document. */
static void file_definitions(const struct ast_file *f, bool own, const char *name, const char *kind, struct vec *out)
{
	bool fn = !strcmp(kind, "function"), gl = !strcmp(kind, "global");
	for (int i = 0; fn && i < f->functions.n; i++) {
		const struct function *x = f->functions.items[i];
		if ((own || !x->is_private) && (name ? !strcmp(x->name, name) : x->name[0] != '_'))
			vec_push(out, definition(x->name, function_signature(x), x->loc, kind));
	}
	for (int i = 0; gl && i < f->globals.n; i++) {
		const struct global *x = f->globals.items[i];
		if ((own || !x->is_private) && (name ? !strcmp(x->name, name) : x->name[0] != '_'))
			vec_push(out, definition(x->name, ast_printf("global %s", x->name), x->loc, kind));
	}
	for (int i = 0; !fn && !gl && i < f->probes.n; i++) {
		const struct probe *p = f->probes.items[i];
		for (int j = 0; j < p->names.n; j++) {
			const char *n = ast_probe_point_text(p->names.items[j]);
			if (name ? strcmp(n, name) : n[0] == '_')
				continue;
			char *points = "";
			for (int k = 0; k < p->points.n; k++)
				points = ast_printf("%s%s%s", points, k ? ", " : "", ast_probe_point_text(p->points.items[k]));
			const struct probe_point *pp = p->names.items[j];
			vec_push(out, definition(n, ast_printf("probe %s %s %s", n, p->kind == PROBE_ALIAS_EPILOGUE ? "+=" : "=",
							      points), pp->loc, kind));
		}
	}
}

void lsp_find(struct session *s, const char *name, const char *kind, struct vec *out)
{
	const struct vec *files = lsp_library(s);
	for (int i = 0; i < files->n; i++)
		file_definitions(files->items[i], files->items[i] == s->script, name, kind, out);
}

void lsp_all(struct session *s, const char *kind, struct vec *out)
{
	struct strmap seen = {0};
	struct vec all = {0};
	lsp_find(s, NULL, kind, &all);
	for (int i = 0; i < all.n; i++) {
		struct lsp_definition *d = all.items[i];
		void **slot = strmap_slot(&seen, d->name);
		if (!*slot) {
			*slot = d;
			vec_push(out, d);
		}
	}
}

const char *lsp_file_text(const struct lsp_job *job, const char *path)
{
	if (!path)
		return NULL;
	if (!strcmp(path, job->path))
		return job->text;
	return tapset_read_file(path);
}

/* Is line (up to its newline) a // comment line? Its text after the slashes (and one blank) in *text. */
static bool comment_line(const char *line, const char **text, int *len)
{
	const char *p = line;
	while (*p == ' ' || *p == '\t')
		p++;
	if (p[0] != '/' || p[1] != '/')
		return false;
	p += 2;
	p += *p == ' ';
	*text = p;
	*len = (int)strcspn(p, "\n");
	return true;
}

/* Does a header line name name, as a whole dotted name? */
static bool names(const char *line, int len, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = line; p + n <= line + len; p++) {
		if (strncmp(p, name, n))
			continue;
		bool before = p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
		bool after = isalnum((unsigned char)p[n]) || p[n] == '_' || (p[n] == '.' && isalnum((unsigned char)p[n + 1]));
		if (!before && !after)
			return true;
	}
	return false;
}

/* The // block whose last line is line (1-based) of text, joined; NULL if that line is no comment. */
static const char *block_ending_at(const char *text, int line, int *first)
{
	const char *body, *joined = NULL;
	int len;
	*first = line;
	for (int l = line; l >= 1; l--) {
		const char *start = lsp_line_start(text, l - 1);
		if (!start || !comment_line(start, &body, &len))
			break;
		joined = joined ? ast_printf("%.*s\n%s", len, body, joined) : ast_strndup(body, (size_t)len);
		*first = l;
	}
	return joined;
}

const char *lsp_doc_comment(const struct lsp_job *job, const struct lsp_definition *d)
{
	const char *text = lsp_file_text(job, d->loc.file);
	if (!text || d->loc.line < 2)
		return NULL;
	int first;
	const char *doc = block_ending_at(text, d->loc.line - 1, &first);
	if (doc)
		return doc;
	/* one block may document several definitions after it: the nearest above whose header names this one */
	for (int l = d->loc.line - 1; l >= 1 && l > d->loc.line - 400; l--) {
		const char *block = block_ending_at(text, l, &first);
		if (!block)
			continue;
		if (names(block, (int)strcspn(block, "\n"), d->name))
			return block;
		l = first;
	}
	return NULL;
}

/* Does the line at p (up to its newline) start a probe: blanks, "probe", a blank? */
static bool probe_line(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return !strncmp(p, "probe", 5) && (p[5] == ' ' || p[5] == '\t');
}

/* A probe header's points: after "probe" and an alias's "NAME =" / "NAME +=", up to its '{'. */
static const char *header_points(const char *p)
{
	p = strstr(p, "probe") + 5;
	const char *end = p, *after_eq = p;
	int depth = 0;
	bool quoted = false;
	for (; *end && (quoted || *end != '{') && end - p < 8192; end++) {
		if (*end == '"' && end[-1] != '\\')
			quoted = !quoted;
		else if (!quoted && (*end == '(' || *end == ')'))
			depth += *end == '(' ? 1 : -1;
		else if (!quoted && !depth && *end == '=' && end[1] != '=' && end[-1] != '=' && end[-1] != '!' &&
			 end[-1] != '<' && end[-1] != '>')
			after_eq = end + 1;
	}
	return ast_strndup(after_eq, (size_t)(end - after_eq));
}

void lsp_probe_points(struct session *s, const struct lsp_job *job, struct vec *out)
{
	const char *header = NULL, *start = lsp_line_start(job->text, job->line);
	for (int l = 0; start && l < 2000 && !header; l++) {	/* upward, line by line */
		if (probe_line(start))
			header = start;
		else if (start == job->text)
			break;
		for (start--; start > job->text && start[-1] != '\n'; start--)
			;
	}
	if (!header || s->tapset)	/* the tapset is loaded once: this goes first */
		return;
	const char *points = header_points(header);
	diag_configure(&(struct diag_options){.suppress_warnings = true, .error_limit = INT_MAX});
	s->list_probes = s->list_vars = s->unoptimized = true;	/* as -L elaborates a pattern, alias variables kept */
	s->script_path = ast_intern("<probe point>");
	s->script_text = ast_printf("probe %s {}", points);
	if (!preprocess_begin(s))
		return;
	s->script = parse_file(s, s->script_path, s->script_text, false);
	preprocess_end(s);
	if (diag_error_count() || !s->script->probes.n)
		return;
	elaborate(s);
	for (int i = 0; i < s->resolved.n; i++)
		vec_push(out, s->resolved.items[i]);
}

/* The word at the job's position. */
struct lsp_word {
	const char *start;  /* its first byte in the text */
	int len;            /* bytes, to the end of the component the position is in */
	int full;           /* bytes, to the end of its dotted name */
	bool dotted;        /* in a probe header: a probe point name (vfs.read) */
	char sigil;         /* '$' or '@' before it, else 0 */
	struct srcloc loc;  /* where it starts (1-based) */
};

static bool word_char(char c, bool dotted)
{
	return isalnum((unsigned char)c) || c == '_' || (dotted && (c == '.' || c == '*'));
}

static bool word_at(const struct lsp_job *job, struct lsp_word *w)
{
	const char *line = lsp_line_start(job->text, job->line);
	if (!line)
		return false;
	const char *p = job->text + lsp_offset(job->text, job->line, job->character);
	const char *brace = memchr(line, '{', (size_t)(p - line));
	w->dotted = probe_line(line) && !brace;
	const char *start = p;
	while (start > line && word_char(start[-1], w->dotted))
		start--;
	const char *end = p;
	while (word_char(*end, false) || *end == '*')
		end++;
	if (end == start)
		return false;
	w->start = start;
	w->len = (int)(end - start);
	w->full = lsp_word_length(start, w->dotted);
	w->sigil = start > line && (start[-1] == '$' || start[-1] == '@') ? start[-1] : 0;
	w->loc = (struct srcloc){.file = ast_intern(job->path), .line = job->line + 1, .col = (int)(start - line) + 1};
	return true;
}

/* The definitions the word names: a probe alias in a header, else a function, else a global. */
static void word_definitions(struct session *s, struct lsp_word *w, struct vec *out)
{
	if (w->dotted) {
		lsp_find(s, ast_strndup(w->start, (size_t)w->len), "probe", out);
		if (!out->n && w->full != w->len) {
			lsp_find(s, ast_strndup(w->start, (size_t)w->full), "probe", out);
			w->len = out->n ? w->full : w->len;	/* the name found */
		}
		return;
	}
	const char *name = ast_strndup(w->start, (size_t)w->len);
	lsp_find(s, name, "function", out);
	if (!out->n)
		lsp_find(s, name, "global", out);
}

/* The type of target variable name at the probe the position is in, as -L prints it; NULL if none. */
static const char *target_type(struct session *s, const struct lsp_job *job, const char *name)
{
	struct vec points = {0};
	lsp_probe_points(s, job, &points);
	for (int i = 0; i < points.n; i++) {
		const struct target_scope *scope = ((const struct resolved_probe *)points.items[i])->scope;
		for (int j = 0; scope && j < scope->provided.n; j++) {
			const struct target_provided *pv = scope->provided.items[j];
			if (!strcmp(pv->name, name))
				return ast_type_name(pv->type);
		}
		for (int j = 0; scope && j < scope->vars.n; j++) {
			struct dbg_var *v = scope->vars.items[j];
			if (!strcmp(v->name, name))
				return dbg_type_text(v->type);
		}
		if (scope && scope->is_return && !strcmp(name, "return"))
			return scope->ret ? dbg_type_text(scope->ret) : "void";
	}
	return NULL;
}

/*
 * A probe point family's forms (--dump-probe-types) that start with the
 * header's word up to the cursor's component (timer, kernel.function), as a
 * block; NULL if none does.
 */
static const char *family_forms(const struct lsp_word *w)
{
	struct vec patterns = {0};
	const char *text = NULL;
	probes_patterns(&patterns);
	for (int i = 0, shown = 0; i < patterns.n; i++) {
		const char *p = patterns.items[i];
		if (strncmp(p, w->start, (size_t)w->len) || (p[w->len] != '.' && p[w->len] != '(' && p[w->len]))
			continue;
		if (shown++ == 40) {
			text = ast_printf("%s...\n", text);
			break;
		}
		text = ast_printf("%s%s\n", text ? text : "", p);
	}
	return text ? ast_printf("probe point family:\n```stap\n%s```", text) : NULL;
}

static void hover(struct session *s, const struct lsp_job *job, FILE *out)
{
	struct lsp_word w;
	if (!word_at(job, &w)) {
		fputs("null", out);
		return;
	}
	const char *value = NULL;
	if (w.sigil != '$')
		lsp_parse_document(s, job);	/* (a target variable's probe is parsed alone) */
	if (w.sigil == '$') {
		const char *type = target_type(s, job, ast_strndup(w.start, (size_t)w.len));
		value = type ? ast_printf("```stap\n$%.*s:%s\n```", w.len, w.start, type) : NULL;
	} else if (w.sigil != '@') {
		struct vec defs = {0};
		word_definitions(s, &w, &defs);
		for (int i = 0; i < defs.n; i++) {	/* overloads: each with its own comment */
			const struct lsp_definition *d = defs.items[i];
			const char *doc = lsp_doc_comment(job, d);
			value = ast_printf("%s%s```stap\n%s\n```%s%s", value ? value : "", value ? "\n\n" : "", d->signature,
					   doc ? "\n\n" : "", doc ? doc : "");
		}
		if (!value && w.dotted)
			value = family_forms(&w);
	}
	if (!value) {
		fputs("null", out);
		return;
	}
	fputs("{\"contents\":{\"kind\":\"markdown\",\"value\":", out);
	json_write_string(out, value);
	fputs("},\"range\":", out);
	lsp_write_range(out, job->text, w.loc, w.len);
	fputc('}', out);
}

/* A location: the document's URI for a place in it, else the file's. */
static void write_location(FILE *out, const struct lsp_job *job, struct srcloc loc, int len)
{
	const char *text = lsp_file_text(job, loc.file);
	char resolved[PATH_MAX];
	const char *path = strcmp(loc.file, job->path) && realpath(loc.file, resolved) ? resolved : loc.file;
	char *uri = strcmp(loc.file, job->path) ? lsp_path_uri(path) : NULL;
	fputs("{\"uri\":", out);
	json_write_string(out, uri ? uri : job->uri);
	free(uri);
	fputs(",\"range\":", out);
	lsp_write_range(out, text ? text : "", loc, len);
	fputc('}', out);
}

static void definition_of(struct session *s, const struct lsp_job *job, FILE *out)
{
	struct lsp_word w;
	struct vec defs = {0};
	lsp_parse_document(s, job);
	if (word_at(job, &w) && !w.sigil)
		word_definitions(s, &w, &defs);
	fputc('[', out);
	for (int i = 0, n = 0; i < defs.n; i++) {
		const struct lsp_definition *d = defs.items[i];
		if (!d->loc.file || d->loc.line < 1)
			continue;
		fputs(n++ ? "," : "", out);
		const char *text = lsp_file_text(job, d->loc.file), *line = text ? lsp_line_start(text, d->loc.line - 1) : NULL;
		write_location(out, job, d->loc, line ? lsp_word_length(line + d->loc.col - 1, true) : 0);
	}
	fputc(']', out);
}

void lsp_work(struct session *s, const struct lsp_job *job, FILE *out)
{
	/* Diagnostics print nowhere (stderr is /dev/null) unless collected; lookups want none. */
	diag_configure(&(struct diag_options){.suppress_warnings = true, .error_limit = INT_MAX});
	switch (job->kind) {
	case LSP_JOB_DIAGNOSE: diagnose(s, job, out); break;
	case LSP_JOB_COMPLETE: lsp_complete(s, job, out); break;
	case LSP_JOB_HOVER: hover(s, job, out); break;
	case LSP_JOB_DEFINITION: definition_of(s, job, out); break;
	}
}
