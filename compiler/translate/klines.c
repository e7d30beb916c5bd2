/*
 * klines.c - pass 3: the kernel line tables of context-lines.stp
 * (symfile, symline, symfileline, print_backtrace_fileline).
 *
 * The whole vmlinux line table has millions of rows; a module carries
 * two smaller tables, and only when the script calls one of those
 * functions:
 *  - full line tables (12 bytes a row) of the functions it can be
 *    expected to meet most: every kernel (or module) function a probe of
 *    the script is in (kernel.function, kprobe.function, the syscall
 *    aliases...), then the other functions of their compilation units (a
 *    static helper's callers are usually in its own file), up to
 *    KLINES_MAX_ROWS rows in all, plus the start line (one row) of every
 *    other function of a probed kernel module. Keyed by module, symbol
 *    name and size, never by address: the runtime finds an address's
 *    function through kallsyms (linux/services/stack.c), so module load addresses
 *    never matter;
 *  - where every function of vmlinux's .text starts (about 4.7 bytes a
 *    function), keyed by offset from the first function: the kernel
 *    moves as a whole under KASLR, and the address of an exported
 *    function (KSTART_ANCHOR) places the table at run time.
 * Without DWARF (--debuginfo=btf, or no -dbg package) there is no table
 * and the functions answer with the address in hex.
 */
#include <stdlib.h>
#include <string.h>

#include "debuginfo/debuginfo.h"
#include "debuginfo/kernel.h"
#include "diag.h"
#include "emit.h"
#include "klines.h"
#include "probes.h"
#include "session.h"

/* Rows in all at most, and probed functions whose files are looked at. */
#define KLINES_MAX_ROWS 32768
#define KLINES_MAX_SYMBOLS 256
/* An exported kernel function whose address places the start table at run time. */
#define KSTART_ANCHOR "sprint_symbol"
#define KSTART_RUN_FILE_BITS 14  /* as STP_KSTART_RUN_FILE_BITS */
#define KSTART_BLOCK 32          /* functions a search may scan */

/* One function of the table. */
struct kline_func {
	const char *module;            /* "kernel" or the module's kallsyms name */
	struct dbg_func_lines *lines;  /* aliases (one function, several symbols) share rows */
	int first;                     /* its first row in the emitted table */
};

static bool wanted(struct session *s)
{
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		const char *file = fn->loc.file ? strrchr(fn->loc.file, '/') : NULL;
		if (fn->from_tapset && file && !strcmp(file + 1, "context-lines.stp"))
			return true;
	}
	return false;
}

static int compare_funcs(const void *a, const void *b)
{
	const struct kline_func *x = *(struct kline_func *const *)a, *y = *(struct kline_func *const *)b;
	int d = strcmp(x->module, y->module);
	if (!d)
		d = strcmp(x->lines->name, y->lines->name);
	if (!d)
		d = x->lines->size < y->lines->size ? -1 : x->lines->size > y->lines->size;
	return d;
}

/* Whether funcs has module:name of that size already. */
static bool known(const struct vec *funcs, const char *module, const struct dbg_func_lines *fl)
{
	for (int i = 0; i < funcs->n; i++) {
		const struct kline_func *k = funcs->items[i];
		if (k->lines->size == fl->size && !strcmp(k->lines->name, fl->name) && !strcmp(k->module, module))
			return true;
	}
	return false;
}

/* Add the lines of symbol ("name" or "module:name") and its file to funcs; returns the rows added. */
static int add_symbol(struct session *s, const char *symbol, int budget, struct vec *funcs)
{
	const char *colon = strchr(symbol, ':');
	const char *module = colon ? ast_printf("%.*s", (int)(colon - symbol), symbol) : "kernel";
	const char *name = colon ? colon + 1 : symbol;
	const char *err;
	struct debuginfo *di = kernel_debuginfo(s, module, &err);
	if (!di || di->source != DBG_SOURCE_DWARF)
		return 0;
	struct vec found = {0};
	dbg_func_lines(di, name, true, budget, &found);
	int added = 0;
	for (int i = 0; i < found.n; i++) {
		struct dbg_func_lines *fl = found.items[i];
		if (!fl->rows.n || known(funcs, module, fl))
			continue;
		struct kline_func *k = ast_alloc(sizeof(*k));
		k->module = module;
		k->lines = fl;
		vec_push(funcs, k);
		added += fl->rows.n;
	}
	return added;
}

/*
 * Where each function of a probed kernel module starts, for those funcs
 * does not have whole: one row each, found by name like the full tables
 * (a module's load address is known only at run time). Returns the rows added.
 */
static int add_module_starts(struct session *s, const char *module, int budget, struct vec *funcs)
{
	const char *err;
	struct debuginfo *di = kernel_debuginfo(s, module, &err);
	if (!di || di->source != DBG_SOURCE_DWARF)
		return 0;
	struct vec starts = {0};
	dbg_func_starts(di, NULL, &starts);
	int added = 0;
	for (int i = 0; i < starts.n && added < budget; i++) {
		const struct dbg_func_start *f = starts.items[i];
		struct dbg_func_lines *fl = ast_alloc(sizeof(*fl));
		fl->name = f->name;
		fl->size = f->size;
		if (!f->size || known(funcs, module, fl))
			continue;
		struct dbg_line_row *r = ast_alloc(sizeof(*r));
		r->line = f->line;
		r->file = f->file;
		vec_push(&fl->rows, r);
		struct kline_func *k = ast_alloc(sizeof(*k));
		k->module = module;
		k->lines = fl;
		vec_push(funcs, k);
		added++;
	}
	return added;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Add file to the sorted, unique vec files (looked up by binary search). */
static void add_file(struct vec *files, const char *file)
{
	int lo = 0, hi = files->n;
	while (lo < hi) {
		int mid = (lo + hi) / 2, d = strcmp(files->items[mid], file);
		if (!d)
			return;
		if (d < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	vec_push(files, NULL);
	memmove(files->items + lo + 1, files->items + lo, (files->n - 1 - lo) * sizeof(void *));
	files->items[lo] = (void *)file;
}

static int file_index(const struct vec *files, const char *file)
{
	const char **at = bsearch(&file, files->items, files->n, sizeof(void *), compare_strings);
	return at ? (int)(at - (const char **)files->items) : 0;
}

/* The full line tables of the probed functions' files: _stp_klines[] and _stp_kline_funcs[]. */
static void emit_full_tables(struct emitter *e, struct vec *funcs, const struct vec *files)
{
	emit_line(e, "static const struct _stp_kline _stp_klines[] = {");
	int first = 0;
	for (int i = 0; i < funcs->n; i++) {
		struct kline_func *k = funcs->items[i];
		k->first = first;
		for (int a = 0; a < i; a++) {
			struct kline_func *alias = funcs->items[a];
			if (alias->lines->rows.items == k->lines->rows.items)
				k->first = alias->first;  /* another name of a function already there */
		}
		if (k->first != first)
			continue;
		first += k->lines->rows.n;
		for (int j = 0; j < k->lines->rows.n; j++) {
			struct dbg_line_row *r = k->lines->rows.items[j];
			emit_line(e, "\t{0x%llx, %d, %d},", (unsigned long long)r->offset, r->line, file_index(files, r->file));
		}
	}
	if (!first)
		emit_line(e, "\t{0, 0, 0},");
	emit_line(e, "};");
	emit_line(e, "static const struct _stp_kline_func _stp_kline_funcs[] = {");
	for (int i = 0; i < funcs->n; i++) {
		struct kline_func *k = funcs->items[i];
		emit_line(e, "\t{%s, %s, 0x%llx, %d, %d},", emit_c_string(k->module), emit_c_string(k->lines->name),
			  (unsigned long long)k->lines->size, k->first, k->lines->rows.n);
	}
	if (!funcs->n)
		emit_line(e, "\t{\"\", \"\", 0, 0, 0},");
	emit_line(e, "};");
	emit_line(e, "#define STP_NR_KLINE_FUNCS %d", funcs->n);
}

/* Writes numbers as C initializers, sixteen to a line. */
struct number_row {
	struct emitter *e;
	char buf[256];
	size_t used;
	int n;
};

static void number_add(struct number_row *r, unsigned long long v)
{
	r->used += snprintf(r->buf + r->used, sizeof(r->buf) - r->used, "%s%llu,", r->n % 16 ? " " : "", v);
	if (++r->n % 16 == 0) {
		emit_line(r->e, "\t%s", r->buf);
		r->used = 0;
	}
}

static void number_end(struct number_row *r)
{
	if (r->used)
		emit_line(r->e, "\t%s", r->buf);
	if (!r->n)
		emit_line(r->e, "\t0,");
	emit_line(r->e, "};");
}

/*
 * Where every function of the kernel's .text starts (see runtime_api.h),
 * about 4.5 bytes a function: a u16 distance from the function before and
 * a u16 line each, a block start every KSTART_BLOCK functions, a file per
 * run. Keyed by address, not name: names would cost several times as
 * much. A function whose line or file index does not fit is left out.
 */
static void emit_starts(struct emitter *e, const struct vec *all, uint64_t anchor, const struct vec *files)
{
	struct vec starts = {0};
	for (int i = 0; i < all->n; i++) {
		const struct dbg_func_start *f = all->items[i];
		if (f->line <= UINT16_MAX && file_index(files, f->file) < 1 << KSTART_RUN_FILE_BITS)
			vec_push(&starts, (void *)f);
	}
	if (starts.n >= 1 << (32 - KSTART_RUN_FILE_BITS))
		starts.n = 0;
	const struct dbg_func_start *base = starts.n ? starts.items[0] : NULL;
	if (!base || anchor - base->addr > UINT32_MAX) {
		emit_line(e, "#define STP_NR_KSTARTS 0");
		return;
	}
	emit_line(e, "#define STP_KSTART_ANCHOR 0x%llx", (unsigned long long)(anchor - base->addr));
	emit_line(e, "#define STP_NR_KSTARTS %d", starts.n);
	struct number_row r = {.e = e};
	emit_line(e, "static const u16 _stp_kstart_deltas[] = {");
	int blocks = 0;
	for (int i = 0; i < starts.n; i++) {
		const struct dbg_func_start *f = starts.items[i], *prev = i ? starts.items[i - 1] : NULL;
		bool block = !prev || i % KSTART_BLOCK == 0 || f->addr - prev->addr > UINT16_MAX;
		blocks += block;
		number_add(&r, block ? 0 : f->addr - prev->addr);
	}
	number_end(&r);
	r = (struct number_row){.e = e};
	emit_line(e, "static const u16 _stp_kstart_lines[] = {");
	for (int i = 0; i < starts.n; i++)
		number_add(&r, ((const struct dbg_func_start *)starts.items[i])->line);
	number_end(&r);
	emit_line(e, "static const struct _stp_kstart_block _stp_kstart_blocks[] = {");
	for (int i = 0; i < starts.n; i++) {
		const struct dbg_func_start *f = starts.items[i], *prev = i ? starts.items[i - 1] : NULL;
		if (!prev || i % KSTART_BLOCK == 0 || f->addr - prev->addr > UINT16_MAX)
			emit_line(e, "\t{0x%llx, %d},", (unsigned long long)(f->addr - base->addr), i);
	}
	emit_line(e, "};");
	emit_line(e, "#define STP_NR_KSTART_BLOCKS %d", blocks);
	r = (struct number_row){.e = e};
	emit_line(e, "static const u32 _stp_kstart_runs[] = {");
	int runs = 0;
	for (int i = 0; i < starts.n; i++) {
		const struct dbg_func_start *f = starts.items[i], *prev = i ? starts.items[i - 1] : NULL;
		if (prev && !strcmp(prev->file, f->file))
			continue;
		number_add(&r, (unsigned long long)i << KSTART_RUN_FILE_BITS | (unsigned)file_index(files, f->file));
		runs++;
	}
	number_end(&r);
	emit_line(e, "#define STP_NR_KSTART_RUNS %d", runs);
}

void klines_emit(struct emitter *e, struct session *s)
{
	if (!wanted(s))
		return;
	const char *err;
	struct debuginfo *kernel = kernel_debuginfo(s, "kernel", &err);
	if (!kernel || kernel->source != DBG_SOURCE_DWARF)
		return;
	struct vec symbols = {0}, funcs = {0}, starts = {0};
	for (int i = 0; i < s->resolved.n && symbols.n < KLINES_MAX_SYMBOLS; i++) {
		struct resolved_probe *r = s->resolved.items[i];
		const char *symbol = r->provider->kernel_function ? r->provider->kernel_function(r) : NULL;
		bool dup = false;
		if (!symbol)
			continue;
		for (int k = 0; k < symbols.n && !dup; k++)
			dup = !strcmp(symbols.items[k], symbol);
		if (!dup)
			vec_push(&symbols, (void *)symbol);
	}
	int rows = 0;  /* counting aliases' rows again: a bound, not the size */
	for (int i = 0; i < symbols.n && rows < KLINES_MAX_ROWS; i++)
		rows += add_symbol(s, symbols.items[i], KLINES_MAX_ROWS - rows, &funcs);
	struct vec modules = {0};
	for (int i = 0; i < symbols.n; i++) {
		const char *symbol = symbols.items[i], *colon = strchr(symbol, ':');
		bool dup = false;
		for (int m = 0; m < modules.n && colon && !dup; m++)
			dup = !strncmp(modules.items[m], symbol, colon - symbol) && !((char *)modules.items[m])[colon - symbol];
		if (colon && !dup)
			vec_push(&modules, (void *)ast_printf("%.*s", (int)(colon - symbol), symbol));
	}
	for (int m = 0; m < modules.n && rows < KLINES_MAX_ROWS; m++)
		rows += add_module_starts(s, modules.items[m], KLINES_MAX_ROWS - rows, &funcs);
	qsort(funcs.items, funcs.n, sizeof(void *), compare_funcs);
	dbg_func_starts(kernel, ".text", &starts);
	uint64_t anchor = 0;
	for (int i = 0; i < starts.n && !anchor; i++) {
		const struct dbg_func_start *f = starts.items[i];
		if (!strcmp(f->name, KSTART_ANCHOR))
			anchor = f->addr;
	}
	if (!anchor)
		starts.n = 0;  /* the table could not be placed at run time */
	if (!funcs.n && !starts.n)
		return;
	struct vec files = {0};
	for (int i = 0; i < funcs.n; i++) {
		struct kline_func *k = funcs.items[i];
		for (int j = 0; j < k->lines->rows.n; j++)
			add_file(&files, ((struct dbg_line_row *)k->lines->rows.items[j])->file);
	}
	for (int i = 0; i < starts.n; i++)
		add_file(&files, ((struct dbg_func_start *)starts.items[i])->file);
	emit_line(e, "/* Kernel source lines for context-lines.stp (compiler/translate/klines.c): the full tables of %d functions,",
		  funcs.n);
	emit_line(e, "   where %d functions start, %d files. */", starts.n, files.n);
	emit_line(e, "#define STP_HAVE_KLINES 1");
	emit_line(e, "static const char *const _stp_kline_files[] = {");
	for (int f = 0; f < files.n; f++)
		emit_line(e, "\t%s,", emit_c_string(files.items[f]));
	emit_line(e, "};");
	emit_full_tables(e, &funcs, &files);
	emit_starts(e, &starts, anchor, &files);
	emit_blank(e);
}
