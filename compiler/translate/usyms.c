/*
 * usyms.c - pass 3: the user-space symbol tables of the ucontext tapset
 * (ubacktrace, usymname, umodname...): for each program or library the
 * module knows, its ELF symbols (functions and objects, by address), its
 * loaded segments (file offset -> link-time address) and its unwind rules (compiler/debuginfo/elfsym.c reads the CFI: one
 * row per change of rule, 16 bytes each).
 *
 * Which files: every -d PATH, every program or library a process probe
 * attaches to and, with --ldd, the shared libraries all of those need
 * (DT_NEEDED, found in their run path and the standard directories, as
 * the dynamic loader would), recursively. Paths are the target's; with
 * --sysroot the file read is under it, and a symbolic link is followed
 * there, because at run time a mapping is matched by the name and size
 * of the file it maps (linux/services/ustack.c), which are those of the link's
 * target.
 *
 * Source lines (DWARF line tables, 16 bytes a row, and the source file
 * names) only when it calls one of tapset/linux/ucontext-lines.stp.
 *
 * The tables are emitted only when the script calls a function of the
 * ucontext tapset (tapset/linux/ucontext-*.stp) or has a process
 * .callees(N) deeper than 1 (its check unwinds), right after runtime.h,
 * with STP_HAVE_USYMS defined for the runtime.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch.h"
#include "debuginfo/elfsym.h"
#include "diag.h"
#include "emit.h"
#include "probes.h"
#include "session.h"
#include "usyms.h"

/* Symbols of one file in the table at most: past this, the rest is dropped (with a warning). */
#define USYMS_MAX_SYMBOLS 200000
/* Line-table rows of one file at most (16 bytes each), likewise. */
#define USYMS_MAX_LINES 200000

/* Whether a used function comes from tapset file 'name' (ucontext-lines.stp: source lines wanted). */
static bool uses_tapset_file(struct session *s, const char *name)
{
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		const char *file = fn->loc.file ? strrchr(fn->loc.file, '/') : NULL;
		if (fn->from_tapset && file && !strcmp(file + 1, name))
			return true;
	}
	return false;
}

/*
 * Whether a used function comes from the ucontext tapset, or is probefunc()
 * (user probes' names), or a process .callees(N), N > 1, walks user stacks.
 */
static bool usyms_wanted(struct session *s)
{
	if (s->user_callers)
		return true;
	for (int i = 0; i < s->functions.n; i++) {
		struct function *fn = s->functions.items[i];
		const char *file = fn->loc.file ? strrchr(fn->loc.file, '/') : NULL;
		if (fn->from_tapset && file && (!strncmp(file + 1, "ucontext-", 9) || !strcmp(fn->name, "probefunc")))
			return true;
	}
	return false;
}

/* The host path of a target path. */
static const char *host_path(struct session *s, const char *target)
{
	return s->sysroot ? ast_printf("%s%s", s->sysroot, target) : target;
}

/* Follow symbolic links of a target path inside the sysroot (at most 16). */
static const char *resolve_links(struct session *s, const char *target)
{
	for (int hops = 0; hops < 16; hops++) {
		char buf[PATH_MAX];
		ssize_t len = readlink(host_path(s, target), buf, sizeof(buf) - 1);
		if (len <= 0)
			return target;
		buf[len] = '\0';
		if (buf[0] == '/') {
			target = ast_strdup(buf);
		} else {
			const char *slash = strrchr(target, '/');
			target = ast_printf("%.*s/%s", slash ? (int)(slash - target) : 0, target, buf);
		}
	}
	return target;
}

static bool listed(const struct vec *files, const char *target)
{
	for (int i = 0; i < files->n; i++)
		if (!strcmp(files->items[i], target))
			return true;
	return false;
}

/* The libraries target needs, added to files (which the caller goes on walking). */
static void add_needed(struct session *s, const char *target, struct vec *files)
{
	const char *err;
	struct elfsym_file *f = elfsym_open(host_path(s, target), arch_is_arm64(s), &err);
	if (!f)
		return;
	struct vec needed = {0};
	const char *runpath;
	elfsym_needed(f, &needed, &runpath);
	const char *dirs = ast_printf("%s%s/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:/lib:/usr/lib",
				      runpath, *runpath ? ":" : "");
	for (int i = 0; i < needed.n; i++) {
		for (const char *d = dirs; *d;) {
			size_t len = strcspn(d, ":");
			const char *cand = ast_printf("%.*s/%s", (int)len, d, (const char *)needed.items[i]);
			d += len + (d[len] == ':');
			if (!len || access(host_path(s, cand), R_OK) != 0)
				continue;
			cand = resolve_links(s, cand);
			if (!listed(files, cand))
				vec_push(files, (void *)cand);
			break;
		}
	}
}

/* Every file whose symbols the module gets, as resolved target paths. */
static void collect_files(struct session *s, struct vec *files)
{
	for (int i = 0; i < s->user_modules.n; i++) {
		const char *t = resolve_links(s, s->user_modules.items[i]);
		if (!listed(files, t))
			vec_push(files, (void *)t);
	}
	for (int i = 0; i < s->resolved.n; i++) {
		struct resolved_probe *r = s->resolved.items[i];
		struct vec names = {0};
		if (r->provider->user_files)
			r->provider->user_files(r, true, &names);
		for (int k = 0; k < names.n; k++) {
			const char *t = resolve_links(s, names.items[k]);
			if (!listed(files, t))
				vec_push(files, (void *)t);
		}
	}
	if (s->ldd)
		for (int i = 0; i < files->n; i++)  /* files grows as libraries are found */
			add_needed(s, files->items[i], files);
}

/*
 * One file's line table (_stp_ulines_N, _stp_ufiles_N), if it has one;
 * returns its rows.
 */
static int emit_lines(struct emitter *e, struct elfsym_file *f, const char *target, int index)
{
	struct vec rows = {0}, files = {0};
	bool truncated;
	if (!elfsym_lines(f, USYMS_MAX_LINES, &rows, &truncated) || !rows.n)
		return 0;
	if (truncated)
		diag_warning((struct srcloc){0}, "%s: only its first %d source lines are kept", target, USYMS_MAX_LINES);
	emit_line(e, "static const struct _stp_uline _stp_ulines_%d[] = {", index);
	for (int i = 0; i < rows.n; i++) {
		struct elfsym_line *r = rows.items[i];
		int k = 0;
		if (r->line) {
			while (k < files.n && strcmp(files.items[k], r->file))
				k++;
			if (k == files.n)
				vec_push(&files, (void *)r->file);
		}
		emit_line(e, "\t{0x%llxULL, %d, %d},", (unsigned long long)r->vaddr, r->line, k);
	}
	emit_line(e, "};");
	emit_line(e, "static const char *const _stp_ufiles_%d[] = {", index);
	for (int k = 0; k < files.n; k++)
		emit_line(e, "\t%s,", emit_c_string(files.items[k]));
	if (!files.n)
		emit_line(e, "\t\"\",");
	emit_line(e, "};");
	return rows.n;
}

/* One file's tables; false (with a warning) if it cannot be read. */
static bool emit_file(struct emitter *e, struct session *s, const char *target, int index, bool want_lines)
{
	const char *err;
	struct stat st;
	const char *host = host_path(s, target);
	struct elfsym_file *f = elfsym_open(host, arch_is_arm64(s), &err);
	if (!f || stat(host, &st) != 0) {
		diag_error((struct srcloc){0}, "no symbols for %s: %s", target, f ? strerror(errno) : err);
		return false;
	}
	struct vec syms = {0}, segs = {0};
	elfsym_symbols(f, &syms);
	elfsym_segments(f, &segs);
	if (syms.n > USYMS_MAX_SYMBOLS) {
		diag_warning((struct srcloc){0}, "%s: only its first %d symbols are kept", target, USYMS_MAX_SYMBOLS);
		syms.n = USYMS_MAX_SYMBOLS;
	}
	emit_line(e, "/* %s: %d symbols, %d segments */", target, syms.n, segs.n);
	emit_line(e, "static const struct _stp_usym _stp_usyms_%d[] = {", index);
	for (int i = 0; i < syms.n; i++) {
		struct elfsym_func *fn = syms.items[i];
		emit_line(e, "\t{0x%llxULL, 0x%llxULL, %s},", (unsigned long long)fn->vaddr,
			  (unsigned long long)fn->size, emit_c_string(fn->name));
	}
	if (!syms.n)
		emit_line(e, "\t{0, 0, \"\"},");
	emit_line(e, "};");
	emit_line(e, "static const struct _stp_useg _stp_usegs_%d[] = {", index);
	for (int i = 0; i < segs.n; i++) {
		struct elfsym_segment *seg = segs.items[i];
		emit_line(e, "\t{0x%llxULL, 0x%llxULL, 0x%llxULL},", (unsigned long long)seg->offset,
			  (unsigned long long)seg->vaddr, (unsigned long long)seg->filesz);
	}
	if (!segs.n)
		emit_line(e, "\t{0, 0, 0},");
	emit_line(e, "};");
	struct vec rows = {0};
	elfsym_cfi_rows(f, &rows);
	emit_line(e, "static const struct _stp_ucfi _stp_ucfi_%d[] = {", index);
	static const char *const regs[] = {"STP_UCFA_NONE", "STP_UCFA_SP", "STP_UCFA_BP"};
	for (int i = 0; i < rows.n; i++) {
		struct elfsym_cfi_row *row = rows.items[i];
		bool fits = row->cfa_offset == (int32_t)row->cfa_offset && row->bp_offset == (int16_t)row->bp_offset &&
			    row->ra_offset == (int16_t)row->ra_offset;
		if (row->reg == ELFSYM_CFA_NONE || !fits)
			emit_line(e, "\t{0x%llxULL, 0, STP_UCFA_NONE, 0, 0, 0},", (unsigned long long)row->vaddr);
		else
			emit_line(e, "\t{0x%llxULL, %lld, %s, %d, %lld, %lld},", (unsigned long long)row->vaddr,
				  (long long)row->cfa_offset, regs[row->reg], row->outermost, (long long)row->bp_offset,
				  (long long)row->ra_offset);
	}
	if (!rows.n)
		emit_line(e, "\t{0, 0, STP_UCFA_NONE, 0, 0, 0},");
	emit_line(e, "};");
	int nlines = want_lines ? emit_lines(e, f, target, index) : 0;
	const char *base = strrchr(target, '/');
	emit_line(e, "#define STP_UMODULE_%d {%s, %s, %lldLL, _stp_usegs_%d, %d, _stp_usyms_%d, %d, _stp_ucfi_%d, %d, %s, %d, %s}",
		  index, emit_c_string(target), emit_c_string(base ? base + 1 : target), (long long)st.st_size, index, segs.n,
		  index, syms.n, index, rows.n, nlines ? ast_printf("_stp_ulines_%d", index) : "NULL", nlines,
		  nlines ? ast_printf("_stp_ufiles_%d", index) : "NULL");
	return true;
}

void usyms_emit(struct emitter *e, struct session *s)
{
	if (!usyms_wanted(s))
		return;
	struct vec files = {0};
	collect_files(s, &files);
	emit_line(e, "/* User-space symbols for the ucontext tapset (compiler/translate/usyms.c). */");
	emit_line(e, "#define STP_HAVE_USYMS 1");
	bool want_lines = uses_tapset_file(s, "ucontext-lines.stp");
	int n = 0;
	for (int i = 0; i < files.n; i++)
		if (emit_file(e, s, files.items[i], n, want_lines))
			n++;
	emit_line(e, "static const struct _stp_umodule _stp_umodules[] = {");
	for (int i = 0; i < n; i++)
		emit_line(e, "\tSTP_UMODULE_%d,", i);
	if (!n)
		emit_line(e, "\t{\"\", \"\", -1LL, NULL, 0, NULL, 0, NULL, 0, NULL, 0, NULL},");
	emit_line(e, "};");
	emit_line(e, "#define STP_NR_UMODULES %d", n);
	emit_blank(e);
}
