/*
 * lsp_complete.c - completion in a language-server child, by what the text
 * before the position is:
 *   $pre               the target variables of the probe the position is in
 *                      (its header elaborated alone, as stap -L does);
 *   probe ...pre       in a probe header: probe point families (as
 *                      --dump-probe-types lists them), tapset and system call
 *                      aliases; inside kernel.function("pre: the target
 *                      kernel's functions (its System.map, through the
 *                      per-kernel index, debuginfo/kindex.c; else its
 *                      debuginfo); inside
 *                      module("M").function("pre: M's functions (its debuginfo);
 *                      inside process("PATH").function("pre: the functions of
 *                      the program (its symbol table, else its DWARF);
 *   pre                elsewhere: functions and globals of the document and
 *                      the tapset, the variables of the enclosing probe's
 *                      aliases, and the language's keywords.
 */
#include <ctype.h>
#include <string.h>

#include "json.h"
#include "kernel.h"
#include "lsp_worker.h"
#include "debuginfo.h"
#include "probes.h"
#include "probes/process.h"
#include "arch.h"
#include "elfsym.h"
#include "syscalls.h"
#include "tapset.h"
#include "targetvar.h"

/* Items in one answer, at most; past it the list is marked incomplete. */
#define LSP_MAX_ITEMS 1000

/* LSP's CompletionItemKind values used here. */
enum {
	ITEM_FUNCTION = 3,
	ITEM_FIELD = 5,
	ITEM_VARIABLE = 6,
	ITEM_MODULE = 9,
	ITEM_KEYWORD = 14,
	ITEM_EVENT = 23,
};

/* An answer being written. */
struct completion {
	FILE *out;              /* where it goes */
	const struct lsp_job *job; /* the request */
	int items;              /* written so far */
	bool incomplete;        /* some were left out */
	struct strmap seen;     /* labels written, each once */
	int edit_col;           /* >= 0: items replace the text from this byte column of the line to the position */
};

/* One item: label (also the text inserted), its kind, a detail line and documentation (may be NULL). */
static void item(struct completion *c, const char *label, int kind, const char *detail, const char *doc)
{
	void **slot = strmap_slot(&c->seen, label);
	if (*slot)
		return;
	*slot = (void *)label;
	if (c->items >= LSP_MAX_ITEMS) {
		c->incomplete = true;
		return;
	}
	fputs(c->items++ ? ",{\"label\":" : "{\"label\":", c->out);
	json_write_string(c->out, label);
	fprintf(c->out, ",\"kind\":%d", kind);
	if (detail) {
		fputs(",\"detail\":", c->out);
		json_write_string(c->out, detail);
	}
	if (doc) {
		fputs(",\"documentation\":{\"kind\":\"markdown\",\"value\":", c->out);
		json_write_string(c->out, doc);
		fputc('}', c->out);
	}
	if (c->edit_col >= 0) {
		const char *text = c->job->text;
		int line = c->job->line;
		fprintf(c->out, ",\"filterText\":");
		json_write_string(c->out, label);
		fprintf(c->out, ",\"textEdit\":{\"range\":{\"start\":{\"line\":%d,\"character\":%d},"
			"\"end\":{\"line\":%d,\"character\":%d}},\"newText\":", line, lsp_character(text, line, c->edit_col),
			line, c->job->character);
		json_write_string(c->out, label);
		fputc('}', c->out);
	}
	fputc('}', c->out);
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* $pre: the target variables of the points of the probe the position is in. */
static void complete_target(struct completion *c, struct session *s, const char *pre)
{
	struct vec points = {0};
	lsp_probe_points(s, c->job, &points);
	for (int i = 0; i < points.n; i++) {
		const struct resolved_probe *r = points.items[i];
		const struct target_scope *scope = r->scope;
		for (int j = 0; scope && j < scope->provided.n; j++) {
			const struct target_provided *pv = scope->provided.items[j];
			if (starts_with(pv->name, pre))
				item(c, pv->name, ITEM_FIELD, ast_printf("$%s:%s", pv->name, ast_type_name(pv->type)), NULL);
		}
		for (int j = 0; scope && j < scope->vars.n; j++) {
			struct dbg_var *v = scope->vars.items[j];
			if (starts_with(v->name, pre))
				item(c, v->name, ITEM_FIELD, ast_printf("$%s:%s (%s)", v->name, dbg_type_text(v->type), r->pp),
				     NULL);
		}
		if (scope && scope->is_return && starts_with("return", pre))
			item(c, "return", ITEM_FIELD, ast_printf("$return:%s", scope->ret ? dbg_type_text(scope->ret) : "void"),
			     NULL);
	}
}

/* A --dump-probe-types pattern as text to insert: (string) and (number) as empty arguments. */
static const char *pattern_text(const char *pattern)
{
	char *out = ast_strdup(pattern);
	for (char *p; (p = strstr(out, "(string)"));)
		out = ast_printf("%.*s(\"\")%s", (int)(p - out), out, p + 8);
	for (char *p; (p = strstr(out, "(number)"));)
		out = ast_printf("%.*s()%s", (int)(p - out), out, p + 8);
	return out;
}

static void complete_module_function(struct completion *c, struct session *s, const char *module, const char *pre);

/*
 * kernel.function("pre, kprobe.function("pre: the kernel's functions starting
 * with pre, from its System.map; without a real one (a kernel without its -dbg
 * package), from its debuginfo (BTF names every function).
 */
static void complete_kernel_function(struct completion *c, struct session *s, const char *pre)
{
	struct vec names = {0};
	if (!kernel_has_symbol_table(s)) {
		complete_module_function(c, s, "kernel", pre);
		return;
	}
	int all = kernel_function_names(s, pre, LSP_MAX_ITEMS, &names);
	for (int i = 0; i < names.n; i++)
		item(c, names.items[i], ITEM_FUNCTION, "kernel function", NULL);
	c->incomplete = c->incomplete || all > names.n;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* module("M").function("pre: the functions of module M's debuginfo starting with pre. */
static void complete_module_function(struct completion *c, struct session *s, const char *module, const char *pre)
{
	const char *err;
	struct debuginfo *di = kernel_debuginfo(s, module, &err);
	struct vec funcs = {0}, names = {0};
	if (!di)
		return;
	dbg_functions(di, ast_printf("%s*", pre), NULL, false, &funcs);
	dbg_functions(di, ast_printf("%s*", pre), NULL, true, &funcs);	/* inlined ones too (DWARF), as stap -l lists them */
	for (int i = 0; i < funcs.n; i++)
		vec_push(&names, (void *)((struct dbg_func *)funcs.items[i])->name);
	vec_sort(&names, compare_names);
	for (int i = 0; i < names.n; i++)
		item(c, names.items[i], ITEM_FUNCTION,
		     strcmp(module, "kernel") ? ast_printf("function of module %s", module) : "kernel function", NULL);
}

/*
 * process("PATH").function("pre: the functions of the program (PATH, or a
 * name searched in PATH) starting with pre: from its symbol table, or from its
 * DWARF when it has none (a stripped program with debuginfo beside it).
 */
static void complete_process_function(struct completion *c, struct session *s, const char *path, const char *pre)
{
	const char *err, *host = process_host_file(s, path);
	struct elfsym_file *f = host ? elfsym_open(host, arch_is_arm64(s), &err) : NULL;
	struct vec funcs = {0};
	const char *detail = ast_printf("function of %s", path);
	if (f)
		elfsym_functions(f, ast_printf("%s*", pre), &funcs);
	for (int i = 0; i < funcs.n; i++)
		item(c, ((struct elfsym_func *)funcs.items[i])->name, ITEM_FUNCTION, detail, NULL);
	struct debuginfo *di = host && !funcs.n ? dbg_open_dwarf(host, &err) : NULL;
	if (!di)
		return;
	struct vec names = {0};
	dbg_functions(di, ast_printf("%s*", pre), NULL, false, &funcs);
	for (int i = 0; i < funcs.n; i++)
		vec_push(&names, (void *)((struct dbg_func *)funcs.items[i])->name);
	vec_sort(&names, compare_names);
	for (int i = 0; i < names.n; i++)
		item(c, names.items[i], ITEM_FUNCTION, detail, NULL);
}

/* A point starting pre: a family's forms, the tapset's aliases, the system calls'. */
static void complete_point(struct completion *c, struct session *s, const char *pre)
{
	struct vec patterns = {0}, aliases = {0}, calls = {0};
	probes_patterns(&patterns);
	for (int i = 0; i < patterns.n; i++) {
		const char *text = pattern_text(patterns.items[i]);
		if (starts_with(text, pre))
			item(c, text, ITEM_MODULE, ast_printf("probe point: %s", (const char *)patterns.items[i]), NULL);
	}
	lsp_all(s, "probe", &aliases);
	for (int i = 0; i < aliases.n; i++) {
		const struct lsp_definition *d = aliases.items[i];
		if (starts_with(d->name, pre))
			item(c, d->name, ITEM_EVENT, d->signature, lsp_doc_comment(c->job, d));
	}
	if (!starts_with("syscall", pre) && !starts_with("nd_syscall", pre) && !starts_with(pre, "syscall.") &&
	    !starts_with(pre, "nd_syscall."))
		return;
	syscalls_names(s, &calls);
	static const char *const forms[] = {"syscall.%s", "syscall.%s.return", "nd_syscall.%s", "nd_syscall.%s.return"};
	for (int i = 0; i < calls.n; i++)
		for (size_t k = 0; k < sizeof(forms) / sizeof(forms[0]); k++) {
			const char *name = ast_printf(forms[k], (const char *)calls.items[i]);
			if (starts_with(name, pre))
				item(c, name, ITEM_EVENT, "system call probe", NULL);
		}
}

/* In a probe header, the point being written: after "probe", an alias's '=', or the last ',' (outside parentheses). */
static const char *point_start(const char *line, const char *pos)
{
	const char *p = strstr(line, "probe") + 5, *start = p;
	int depth = 0;
	bool quoted = false;
	for (; p < pos; p++) {
		if (*p == '"' && p[-1] != '\\')
			quoted = !quoted;
		else if (!quoted && (*p == '(' || *p == ')'))
			depth += *p == '(' ? 1 : -1;
		else if (!quoted && !depth && (*p == ',' || *p == '='))
			start = p + 1;
	}
	while (start < pos && (*start == ' ' || *start == '\t'))
		start++;
	return start;
}

/* The words of the language that start statements and declarations. */
static const char *const keywords[] = {
	"probe", "function", "global", "private", "if", "else", "for", "foreach", "in", "limit", "while", "do",
	"break", "continue", "return", "next", "delete", "try", "catch", "long", "string",
};

/* pre: functions and globals of the document and the tapset, alias variables of the probe, keywords. */
static void complete_name(struct completion *c, struct session *s, const char *pre)
{
	struct vec points = {0}, functions = {0}, globals = {0};
	lsp_probe_points(s, c->job, &points);	/* first: it parses its own script */
	for (int i = 0; i < points.n; i++) {
		const struct resolved_probe *r = points.items[i];
		for (int j = 0; r->via_alias && r->probe && j < r->probe->locals.n; j++) {
			const struct symbol *sym = r->probe->locals.items[j];
			if (strncmp(sym->name, "__", 2) && starts_with(sym->name, pre))
				item(c, sym->name, ITEM_VARIABLE, ast_printf("%s:%s (%s)", sym->name, ast_type_name(sym->type), r->pn),
				     NULL);
		}
	}
	lsp_parse_document(s, c->job);
	lsp_all(s, "function", &functions);
	for (int i = 0; i < functions.n; i++) {
		const struct lsp_definition *d = functions.items[i];
		if (starts_with(d->name, pre))
			item(c, d->name, ITEM_FUNCTION, d->signature, lsp_doc_comment(c->job, d));
	}
	lsp_all(s, "global", &globals);
	for (int i = 0; i < globals.n; i++) {
		const struct lsp_definition *d = globals.items[i];
		if (starts_with(d->name, pre))
			item(c, d->name, ITEM_VARIABLE, d->signature, NULL);
	}
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (starts_with(keywords[i], pre))
			item(c, keywords[i], ITEM_KEYWORD, NULL, NULL);
}

void lsp_complete(struct session *s, const struct lsp_job *job, FILE *out)
{
	struct completion c = {.out = out, .job = job, .edit_col = -1};
	const char *line = lsp_line_start(job->text, job->line);
	const char *pos = job->text + lsp_offset(job->text, job->line, job->character);
	fputs("{\"items\":[", out);
	if (line) {
		const char *word = pos;
		while (word > line && (isalnum((unsigned char)word[-1]) || word[-1] == '_'))
			word--;
		const char *pre = ast_strndup(word, (size_t)(pos - word));
		const char *keyword = line + strspn(line, " \t");
		bool header = !strncmp(keyword, "probe", 5) && isspace((unsigned char)keyword[5]) && pos > keyword + 5 &&
			      !memchr(line, '{', (size_t)(pos - line));
		c.edit_col = (int)(word - line);
		if (word > line && word[-1] == '$') {
			complete_target(&c, s, pre);
		} else if (header) {
			const char *start = point_start(line, pos), *point = ast_strndup(start, (size_t)(pos - start));
			const char *quote = strrchr(point, '"');
			const char *module = !strncmp(point, "module(\"", 8) ? point + 8 : NULL;
			size_t module_len = module ? strcspn(module, "\"") : 0;
			const char *program = !strncmp(point, "process(\"", 9) ? point + 9 : NULL;
			size_t program_len = program ? strcspn(program, "\"") : 0;
			bool in_name = quote && quote > point && quote[-1] == '(' && !strchr(quote, ')');
			if (in_name && (strstr(point, "kernel.function(") || strstr(point, "kprobe.function("))) {
				c.edit_col = (int)(start - line) + (int)(quote + 1 - point);
				complete_kernel_function(&c, s, quote + 1);
			} else if (in_name && module && module_len && !strncmp(module + module_len, "\").function(\"", 13) &&
				   quote == module + module_len + 12) {
				c.edit_col = (int)(start - line) + (int)(quote + 1 - point);
				complete_module_function(&c, s, ast_strndup(module, module_len), quote + 1);
			} else if (in_name && program && program_len &&
				   !strncmp(program + program_len, "\").function(\"", 13) &&
				   quote == program + program_len + 12) {
				c.edit_col = (int)(start - line) + (int)(quote + 1 - point);
				complete_process_function(&c, s, ast_strndup(program, program_len), quote + 1);
			} else {
				c.edit_col = (int)(start - line);
				complete_point(&c, s, point);
			}
		} else {
			complete_name(&c, s, pre);
		}
	}
	fprintf(out, "],\"isIncomplete\":%s}", c.incomplete ? "true" : "false");
}
