#include <unistd.h>
#include <errno.h>
/*
 * tapset.c - the tapset library: every *.stp file on the search path (-I dirs,
 * then the installed tapset/, each searched recursively: tapset/linux/...,
 * skipping other architectures' folders). A file joins the program only
 * when the script uses a function, global or probe alias it defines.
 *
 * The library is large and a script uses little of it, so a file is parsed
 * only when a lookup may need it: at load, a cheap scan of each file's text
 * (tapset_scan) lists the names it may define (a superset: every branch of
 * a %( %) conditional counts); a lookup parses the files that may define the
 * name it looks for, then searches what they define through hash tables.
 * Definitions keep their path order (struct ast_file.rank) however late
 * their file is parsed, so the result is the one a full parse would give.
 * A file the scan cannot read with confidence (a macro used at top level
 * may expand to definitions) is parsed at load.
 */
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "tapset.h"
#include "parse.h"


/* One file on the tapset path. */
struct tapset_file {
	const char *path;          /* interned */
	const char *text;          /* its contents */
	int rank;                  /* 1, 2, ... in path order (0 is the script) */
	struct ast_file *ast;      /* parsed, or NULL until a lookup needs it */
	bool used;                 /* joined the program */
};

/* A function or global of a parsed file, for the name tables. */
struct tapset_def {
	void *item;                /* struct function * or struct global * */
	struct tapset_file *tf;    /* its file */
};

/* The library as one session sees it (session.tapset). */
struct tapset_state {
	struct vec files;            /* of struct tapset_file *, in path order */
	struct strmap may_define;    /* function or global name -> struct vec of tapset_file */
	struct strmap may_alias;     /* first component of an alias name -> struct vec of tapset_file */
	struct vec alias_files;      /* of tapset_file: every file that may define an alias */
	struct strmap functions;     /* name -> struct vec of tapset_def, parsed, in rank order */
	struct strmap globals;       /* name -> struct vec of tapset_def, parsed, in rank order */
	struct strmap by_ast;        /* path -> tapset_file */
	bool parse_failed;           /* a parsed file had errors */
	struct vec parsed;           /* of struct ast_file *: in the order they were parsed (probes.c indexes their aliases) */
};

/* The session's library state, made on first use. */
static struct tapset_state *lib(struct session *s)
{
	if (!s->tapset)
		s->tapset = ast_alloc(sizeof(*s->tapset));
	return s->tapset;
}

char *tapset_read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *buf = ast_alloc((size_t)len + 1);
	if (fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		return NULL;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* ---- The scan: the names a file may define, without parsing it ---- */

struct scan {
	const char *p;             /* next character */
	struct tapset_file *tf;    /* the file scanned */
	struct tapset_state *lib;  /* the tables its names go to */
	bool eager;                /* a top-level macro use: parse the file at load */
};

static bool ident_start(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool ident_char(char c)
{
	return ident_start(c) || (c >= '0' && c <= '9');
}

/* Skip white space and comments (#, //, slash-star). */
static void scan_space(struct scan *sc)
{
	for (;;) {
		const char *p = sc->p;
		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
			p++;
		if (*p == '#' || (p[0] == '/' && p[1] == '/')) {
			while (*p && *p != '\n')
				p++;
		} else if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 2 : p + strlen(p);
		}
		if (p == sc->p)
			return;
		sc->p = p;
	}
}

/* The next identifier, or NULL (leaving sc->p at what is there instead). */
static const char *scan_ident(struct scan *sc)
{
	scan_space(sc);
	if (!ident_start(*sc->p))
		return NULL;
	const char *start = sc->p;
	while (ident_char(*sc->p))
		sc->p++;
	return ast_strndup(start, (size_t)(sc->p - start));
}

static void note_name(struct strmap *m, const char *name, struct tapset_file *tf)
{
	struct vec *v = strmap_vec(m, name);
	if (!v->n || v->items[v->n - 1] != tf)
		vec_push(v, tf);
}

/* Past a string literal at sc->p (its opening quote). */
static void skip_string(struct scan *sc)
{
	for (sc->p++; *sc->p && *sc->p != '"'; sc->p++)
		if (*sc->p == '\\' && sc->p[1])
			sc->p++;
	if (*sc->p)
		sc->p++;
}

/*
 * An alias's right-hand side (its points, which may use macros such as
 * @stapc_bindir): skipped up to the '{' of its body, so that a macro there
 * does not make the file eager. Parentheses (arguments, an if condition)
 * and strings are skipped whole.
 */
static void skip_to_body(struct scan *sc)
{
	int depth = 0;
	while (*sc->p && !(depth <= 0 && *sc->p == '{')) {
		if (*sc->p == '"') {
			skip_string(sc);
			continue;
		}
		depth += *sc->p == '(' ? 1 : *sc->p == ')' ? -1 : 0;
		sc->p++;
	}
}

/*
 * After '@define NAME(PARAMS)': its body, a %( %) block (nested blocks
 * counted, strings skipped). A macro defined in a tapset file is its own:
 * defining one defines no function, global or alias.
 */
static void skip_define(struct scan *sc)
{
	scan_ident(sc);
	scan_space(sc);
	if (*sc->p == '(') {
		while (*sc->p && *sc->p != ')')
			sc->p++;
		if (*sc->p)
			sc->p++;
		scan_space(sc);
	}
	if (sc->p[0] != '%' || sc->p[1] != '(') {
		sc->eager = true; /* not the form we know: let the parser read it */
		return;
	}
	int depth = 0;
	while (*sc->p) {
		if (*sc->p == '"') {
			skip_string(sc);
		} else if (sc->p[0] == '%' && sc->p[1] == '(') {
			depth++;
			sc->p += 2;
		} else if (sc->p[0] == '%' && sc->p[1] == ')') {
			sc->p += 2;
			if (--depth == 0)
				return;
		} else {
			sc->p++;
		}
	}
}

/* After 'probe': the first component of each point before '=', '+=' or '{'. */
static void scan_probe(struct scan *sc)
{
	bool may_be_alias = false;
	for (;;) {
		const char *first = scan_ident(sc);
		if (first) {
			note_name(&sc->lib->may_alias, first, sc->tf);
			may_be_alias = true;
		}
		/* skip the rest of the point: components, arguments, marks */
		int depth = 0;
		while (*sc->p) {
			char c = *sc->p;
			if (c == '"') {
				for (sc->p++; *sc->p && *sc->p != '"'; sc->p++)
					if (*sc->p == '\\' && sc->p[1])
						sc->p++;
				if (*sc->p)
					sc->p++;
				continue;
			}
			if (c == '(')
				depth++;
			else if (c == ')')
				depth--;
			else if (depth <= 0 && (c == ',' || c == '=' || c == '{' || c == '+'))
				break;
			sc->p++;
		}
		if (*sc->p != ',')
			break;
		sc->p++;
	}
	if (*sc->p == '=' || (sc->p[0] == '+' && sc->p[1] == '='))
		skip_to_body(sc);
	struct vec *alias_files = &sc->lib->alias_files;
	if (may_be_alias && (!alias_files->n || alias_files->items[alias_files->n - 1] != sc->tf))
		vec_push(alias_files, sc->tf);
}

/* After 'global': each name of the comma-separated list. */
static void scan_global(struct scan *sc)
{
	for (;;) {
		const char *name = scan_ident(sc);
		if (!name)
			return;
		if (!strcmp(name, "private"))
			continue;
		note_name(&sc->lib->may_define, name, sc->tf);
		scan_space(sc);
		if (*sc->p == '%')
			sc->p++;
		if (*sc->p == '[') {
			while (*sc->p && *sc->p != ']')
				sc->p++;
			if (*sc->p)
				sc->p++;
			scan_space(sc);
			if (*sc->p == '%')
				sc->p++;
		}
		scan_space(sc);
		if (*sc->p == '=') {
			/* a literal initial value: a number (maybe negative) or a string */
			sc->p++;
			scan_space(sc);
			if (*sc->p == '-')
				sc->p++;
			scan_space(sc);
			if (*sc->p == '"') {
				for (sc->p++; *sc->p && *sc->p != '"'; sc->p++)
					if (*sc->p == '\\' && sc->p[1])
						sc->p++;
				if (*sc->p)
					sc->p++;
			} else {
				while (ident_char(*sc->p))
					sc->p++;
			}
			scan_space(sc);
		}
		if (*sc->p != ',')
			return;
		sc->p++;
	}
}

/*
 * Note every name the file may define: 'function NAME', 'global A, B',
 * 'probe FIRST...' at brace depth 0, outside strings, comments and %{ %}.
 */
static void tapset_scan(struct scan *sc)
{
	int depth = 0;
	while (*sc->p) {
		scan_space(sc);
		char c = *sc->p;
		if (!c)
			break;
		if (c == '%' && sc->p[1] == '{') {
			const char *end = strstr(sc->p + 2, "%}");
			sc->p = end ? end + 2 : sc->p + strlen(sc->p);
		} else if (c == '"') {
			for (sc->p++; *sc->p && *sc->p != '"' && *sc->p != '\n'; sc->p++)
				if (*sc->p == '\\' && sc->p[1])
					sc->p++;
			if (*sc->p)
				sc->p++;
		} else if (c == '{') {
			depth++;
			sc->p++;
		} else if (c == '}') {
			depth--;
			sc->p++;
		} else if (c == '@' && depth <= 0 && !strncmp(sc->p + 1, "define", 6) && !ident_char(sc->p[7])) {
			sc->p += 7;
			skip_define(sc);
		} else if (c == '@' && depth <= 0) {
			sc->eager = true;	/* a macro at top level may expand to anything */
			sc->p++;
		} else if (ident_start(c) && depth > 0) {
			while (ident_char(*sc->p))	/* a word in a body: no definition */
				sc->p++;
		} else if (ident_start(c)) {
			const char *word = scan_ident(sc);
			if (!strcmp(word, "function")) {
				const char *name = scan_ident(sc);
				if (name)
					note_name(&sc->lib->may_define, name, sc->tf);
			} else if (!strcmp(word, "global")) {
				scan_global(sc);
			} else if (!strcmp(word, "probe")) {
				scan_probe(sc);
			}
		} else {
			sc->p++;
		}
	}
}

/* ---- Loading and parsing ---- */

/* Add def to v keeping rank order: files may be parsed in any order. */
static void insert_by_rank(struct vec *v, struct tapset_def *def)
{
	vec_push(v, def);
	for (int k = v->n - 1; k > 0 && ((struct tapset_def *)v->items[k - 1])->tf->rank > def->tf->rank; k--) {
		v->items[k] = v->items[k - 1];
		v->items[k - 1] = def;
	}
}

/* A parsed file's functions and globals join the name tables, in rank order. */
static void index_definitions(struct tapset_state *lib, struct tapset_file *tf, struct ast_file *f)
{
	tf->ast = f;
	f->rank = tf->rank;
	*strmap_slot(&lib->by_ast, tf->path) = tf;
	for (int j = 0; j < f->functions.n; j++) {
		struct function *fn = f->functions.items[j];
		fn->file = f;
		struct tapset_def *def = ast_alloc(sizeof(*def));
		def->item = fn;
		def->tf = tf;
		insert_by_rank(strmap_vec(&lib->functions, fn->name), def);
	}
	for (int j = 0; j < f->globals.n; j++) {
		struct global *g = f->globals.items[j];
		struct tapset_def *def = ast_alloc(sizeof(*def));
		def->item = g;
		def->tf = tf;
		insert_by_rank(strmap_vec(&lib->globals, g->name), def);
	}
}

/* Parse a file once: its definitions join the name tables and the alias index. */
static void parse_tapset(struct session *s, struct tapset_file *tf)
{
	if (tf->ast)
		return;
	int errors = diag_error_count();
	struct ast_file *f = parse_file(s, tf->path, tf->text, true);
	if (diag_error_count() != errors)
		lib(s)->parse_failed = true;
	index_definitions(lib(s), tf, f);
	vec_push(&lib(s)->parsed, f);
}

/* Parse every file in v (a struct vec of tapset_file, or NULL). */
static void parse_all(struct session *s, struct vec *v)
{
	for (int i = 0; v && i < v->n; i++)
		parse_tapset(s, v->items[i]);
}

static bool load_dir(struct tapset_state *lib, const char *dir, const char *arch, struct vec *eager)
{
	struct vec paths = {0};
	/* one there but closed to this user (--build-as=nobody on a tree under /root): say so,
	 * rather than leave every tapset function unresolved */
	if (access(dir, R_OK | X_OK) != 0 && errno != ENOENT) {
		fprintf(stderr, "stap: cannot read the tapset directory %s: %s\n", dir, strerror(errno));
		return false;
	}
	arch_list_files(dir, ".stp", arch, &paths);
	for (int i = 0; i < paths.n; i++) {
		const char *path = paths.items[i];
		char *text = tapset_read_file(path);
		if (!text) {
			fprintf(stderr, "stap: cannot read tapset file %s\n", path);
			return false;
		}
		diag_mark_library(path);
		struct tapset_file *tf = ast_alloc(sizeof(*tf));
		tf->path = path;
		tf->text = text;
		tf->rank = lib->files.n + 1;
		vec_push(&lib->files, tf);
		struct scan sc = {.p = text, .tf = tf, .lib = lib};
		tapset_scan(&sc);
		if (sc.eager)
			vec_push(eager, tf);
	}
	return true;
}

void tapset_add_generated(struct session *s, struct ast_file *f)
{
	struct tapset_state *l = lib(s);
	struct tapset_file *tf = ast_alloc(sizeof(*tf));
	tf->path = f->path;
	tf->text = "";
	tf->rank = l->files.n + 1;   /* after every file on the path: theirs win */
	vec_push(&l->files, tf);
	index_definitions(l, tf, f);
}

bool tapset_load(struct session *s)
{
	struct vec eager = {0};
	for (int i = 0; i < s->include_dirs.n; i++)
		if (!load_dir(lib(s), s->include_dirs.items[i], arch_is_arm64(s) ? "arm64" : "x86_64", &eager))
			return false;
	if (!load_dir(lib(s), s->tapset_dir, arch_is_arm64(s) ? "arm64" : "x86_64", &eager))
		return false;
	parse_all(s, &eager);
	return diag_error_count() == 0;
}

/*
 * A file joins the program: it goes on s->tapset_files, and resolve.c adds
 * its globals and top-level embedded C (the tapset only looks things up).
 */
static void use_file(struct session *s, struct tapset_file *tf)
{
	if (tf->used)
		return;
	tf->used = true;
	vec_push(&s->tapset_files, tf->ast);
}

/* Private declarations are visible only inside their own file. */
static bool visible(bool is_private, const struct ast_file *owner, const struct ast_file *from)
{
	return !is_private || owner == from;
}

struct function *tapset_find_function(struct session *s, const char *name, int nargs,
				      const struct ast_file *from, struct vec *candidates)
{
	parse_all(s, strmap_get(&lib(s)->may_define, name));
	struct vec *defs = strmap_get(&lib(s)->functions, name);
	if (!defs)
		return NULL;
	/* The caller's own file first, so its private functions win. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < defs->n; i++) {
			struct tapset_def *def = defs->items[i];
			struct function *fn = def->item;
			struct ast_file *f = def->tf->ast;
			if ((pass == 0) != (f == from) || !visible(fn->is_private, f, from))
				continue;
			if (candidates) {
				vec_push(candidates, fn);
			} else if (fn->params.n == nargs) {
				use_file(s, def->tf);
				return fn;
			}
		}
	}
	return NULL;
}

struct global *tapset_find_global(struct session *s, const char *name, const struct ast_file *from)
{
	parse_all(s, strmap_get(&lib(s)->may_define, name));
	struct vec *defs = strmap_get(&lib(s)->globals, name);
	if (!defs)
		return NULL;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < defs->n; i++) {
			struct tapset_def *def = defs->items[i];
			struct global *g = def->item;
			struct ast_file *f = def->tf->ast;
			if ((pass == 0) != (f == from) || !visible(g->is_private, f, from))
				continue;
			use_file(s, def->tf);
			return g;
		}
	}
	return NULL;
}

void tapset_need_aliases(struct session *s, const char *first)
{
	parse_all(s, first ? strmap_get(&lib(s)->may_alias, first) : &lib(s)->alias_files);
}

const struct vec *tapset_parsed(struct session *s)
{
	return &lib(s)->parsed;
}

bool tapset_parse_failed(struct session *s)
{
	return lib(s)->parse_failed;
}

void tapset_use_alias(struct session *s, struct probe *alias)
{
	struct tapset_file *tf = strmap_get(&lib(s)->by_ast, alias->file->path);
	if (tf)
		use_file(s, tf);
}

void tapset_parse_everything(struct session *s, struct vec *out)
{
	for (int i = 0; i < lib(s)->files.n; i++) {
		struct tapset_file *tf = lib(s)->files.items[i];
		parse_tapset(s, tf);
		if (tf->ast)
			vec_push(out, tf->ast);
	}
}
