/*
 * probes/uprobe.c - probes inside a user-space program, found in its ELF
 * file and attached with uprobes (file + offset):
 *
 *   process("path").function("pattern")[.call | .return]
 *   process("path").statement("func@file:LINES")                 (linespec.h)
 *   process("path").function("pattern").label("glob")           source labels
 *   process("path")[.provider("p")].mark("name")         SDT markers
 *   process("path").library("lib").function(...)         ... in a library it uses
 *   process("path")[.library("lib")].plt[("glob")][.return]  PLT entries
 *   process("path").function("pattern").callee("glob")[.call | .return]   calls at DWARF call sites
 *   process("path").function("pattern").callees[(N)][.call | .return]   and down N levels
 *
 * Paths are the target's: with --sysroot=DIR the file read here is
 * DIR/path. A name without '/' is looked up in PATH. Wildcard patterns
 * give one uprobe per matching function or marker, all running the same
 * body (a resolved probe each: each has its own target variables).
 *
 * Target variables: with the file's DWARF, the parameters and locals of
 * the function at the probed address (targetvar.c reads them with the
 * debuginfo layer, from user memory); $return in .return probes (the
 * return register; a long without DWARF); in .mark probes $arg1..$argN,
 * $$name and $$provider, decoded from the operands the marker recorded
 * ("-4@%eax", "8@-8(%rbp)", "4@$5").
 */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "debuginfo/debuginfo.h"
#include "codegen.h"
#include "diag.h"
#include "probes/linespec.h"
#include "probes/process.h"
#include "targetvar.h"

/* More sites than this for one point is surely a mistake (and slow to register). */
#define UPROBE_MAX_SITES 1000
/* SDT markers record at most 12 arguments. */
#define SDT_MAX_ARGS 12

/* A decoded SDT operand. */
struct sdt_arg {
	int size;             /* bytes, negative if signed */
	const char *kind;     /* STP_SDT_REG, STP_SDT_CONST or STP_SDT_MEM */
	const char *reg;      /* register (STP_UREG_...), or "STP_UREG_NONE" */
	int shift;            /* 8 for %ah and the like */
	const char *index;    /* MEM: index register, or "STP_UREG_NONE" */
	int scale;            /* MEM: 1, 2, 4 or 8 */
	int64_t value;        /* CONST: the value; MEM: displacement (or symbol address) */
	bool relocate;        /* MEM: value is a link-time address (rip-relative) */
};

/* x86-64 register names, each with the pt_regs slot and byte shift. */
static const struct {
	const char *names[4]; /* 64, 32, 16, 8-bit spellings */
	const char *reg;
} uregs[] = {
	{{"rax", "eax", "ax", "al"}, "STP_UREG_AX"},
	{{"rbx", "ebx", "bx", "bl"}, "STP_UREG_BX"},
	{{"rcx", "ecx", "cx", "cl"}, "STP_UREG_CX"},
	{{"rdx", "edx", "dx", "dl"}, "STP_UREG_DX"},
	{{"rsi", "esi", "si", "sil"}, "STP_UREG_SI"},
	{{"rdi", "edi", "di", "dil"}, "STP_UREG_DI"},
	{{"rbp", "ebp", "bp", "bpl"}, "STP_UREG_BP"},
	{{"rsp", "esp", "sp", "spl"}, "STP_UREG_SP"},
	{{"r8", "r8d", "r8w", "r8b"}, "STP_UREG_R8"},
	{{"r9", "r9d", "r9w", "r9b"}, "STP_UREG_R9"},
	{{"r10", "r10d", "r10w", "r10b"}, "STP_UREG_R10"},
	{{"r11", "r11d", "r11w", "r11b"}, "STP_UREG_R11"},
	{{"r12", "r12d", "r12w", "r12b"}, "STP_UREG_R12"},
	{{"r13", "r13d", "r13w", "r13b"}, "STP_UREG_R13"},
	{{"r14", "r14d", "r14w", "r14b"}, "STP_UREG_R14"},
	{{"r15", "r15d", "r15w", "r15b"}, "STP_UREG_R15"},
	{{"rip", "eip", "ip", NULL}, "STP_UREG_IP"},
};

/* "%name" at *p: the register and shift; advances *p. NULL if not a register. */
static const char *parse_reg(const char **p, int *shift)
{
	if (**p != '%')
		return NULL;
	const char *start = *p + 1;
	size_t len = strspn(start, "abcdefghijklmnopqrstuvwxyz0123456789");
	*shift = 0;
	static const char *const high[] = {"ah", "bh", "ch", "dh"};
	for (int i = 0; i < 4; i++)
		if (len == 2 && !strncmp(start, high[i], 2)) {
			*shift = 8;
			*p = start + len;
			return uregs[i].reg;
		}
	for (size_t r = 0; r < sizeof(uregs) / sizeof(uregs[0]); r++)
		for (int w = 0; w < 4; w++)
			if (uregs[r].names[w] && strlen(uregs[r].names[w]) == len &&
			    !strncmp(start, uregs[r].names[w], len)) {
				*p = start + len;
				return uregs[r].reg;
			}
	return NULL;
}

/* A decimal or 0x number with an optional sign at *p; advances *p. */
static bool parse_number(const char **p, int64_t *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(*p, &end, 0);
	if (end == *p || errno)
		return false;
	*v = x;
	*p = end;
	return true;
}

/* The "SIZE@" every operand starts with, into a (cleared first); *p then points past the '@'. */
static const char *parse_sdt_size(const char **p, struct sdt_arg *a)
{
	int64_t size;
	memset(a, 0, sizeof(*a));
	a->reg = a->index = "STP_UREG_NONE";
	a->scale = 1;
	if (!parse_number(p, &size) || **p != '@')
		return "expected SIZE@OPERAND";
	if (size != 1 && size != 2 && size != 4 && size != 8 && size != -1 && size != -2 && size != -4 &&
	    size != -8)
		return "the size must be 1, 2, 4 or 8, negative when signed";
	a->size = (int)size;
	(*p)++;
	return NULL;
}

/*
 * One operand "SIZE@OPERAND" into a; NULL on success, else what is wrong.
 * Symbols (in "sym+8(%rip)") are looked up in file.
 */
static const char *parse_sdt_arg(struct elfsym_file *file, const char *text, struct sdt_arg *a)
{
	const char *p = text;
	const char *bad = parse_sdt_size(&p, a);
	if (bad)
		return bad;
	if (*p == '%') {
		a->kind = "STP_SDT_REG";
		if (!(a->reg = parse_reg(&p, &a->shift)) || *p)
			return "unknown register";
		return NULL;
	}
	if (*p == '$') {
		p++;
		a->kind = "STP_SDT_CONST";
		if (!parse_number(&p, &a->value) || *p)
			return "expected a number after '$'";
		return NULL;
	}
	a->kind = "STP_SDT_MEM";
	if (*p != '(' && *p != '-' && !(*p >= '0' && *p <= '9')) {
		/* sym or sym+N or sym-N, then (%rip) */
		size_t len = strcspn(p, "+-(");
		char *sym = ast_strndup(p, len);
		uint64_t addr;
		if (!elfsym_data_symbol(file, sym, &addr))
			return ast_printf("no data symbol '%s'", sym);
		p += len;
		int64_t off = 0;
		if ((*p == '+' || *p == '-') && !parse_number(&p, &off))
			return "expected an offset after the symbol";
		if (strcmp(p, "(%rip)"))
			return "a symbol operand must be relative to %rip";
		a->value = (int64_t)addr + off;
		a->relocate = true;
		return NULL;
	}
	if (*p != '(' && !parse_number(&p, &a->value))
		return "expected a displacement";
	if (*p != '(')
		return "absolute addresses are not supported";
	p++;
	if (!(a->reg = parse_reg(&p, &a->shift)) || a->shift)
		return "unknown base register";
	if (!strcmp(a->reg, "STP_UREG_IP"))
		return "rip-relative operands need a symbol";
	if (*p == ',') {
		p++;
		int shift;
		if (!(a->index = parse_reg(&p, &shift)) || shift)
			return "unknown index register";
		if (*p == ',') {
			int64_t scale;
			p++;
			if (!parse_number(&p, &scale) || (scale != 1 && scale != 2 && scale != 4 && scale != 8))
				return "the scale must be 1, 2, 4 or 8";
			a->scale = (int)scale;
		}
	}
	if (strcmp(p, ")"))
		return "expected ')'";
	return NULL;
}

/* arm64's "xN", "wN" (0-30) or "sp" at *p: the register; advances *p. NULL if not one. */
static const char *parse_arm64_reg(const char **p)
{
	const char *q = *p;
	char *end;
	if (!strncmp(q, "sp", 2) || !strncmp(q, "wsp", 3)) {
		*p = q + (q[0] == 'w' ? 3 : 2);
		return "STP_UREG_SP";
	}
	if ((q[0] != 'x' && q[0] != 'w') || q[1] < '0' || q[1] > '9' || (q[1] == '0' && q[2] >= '0' && q[2] <= '9'))
		return NULL;
	unsigned long n = strtoul(q + 1, &end, 10);
	if (n > 30)
		return NULL;
	*p = end;
	return ast_printf("(STP_UREG_X0 + %lu)", n);
}

/*
 * One arm64 operand after "SIZE@" (GCC's AArch64 spelling of "nor"
 * operands): "x3"/"w3"/"sp", "[x29]", "[sp, 12]" or "[sp, #12]", the
 * low 12 bits of a symbol whose page adrp left in the base
 * "[x1, #:lo12:counter]", a constant "-7" or "#-7".
 */
static const char *parse_arm64_operand(struct elfsym_file *file, const char *p, struct sdt_arg *a)
{
	if (*p != '[') {
		if ((a->reg = parse_arm64_reg(&p))) {
			a->kind = "STP_SDT_REG";
			return *p ? "unknown register" : NULL;
		}
		a->reg = "STP_UREG_NONE";
		a->kind = "STP_SDT_CONST";
		p += *p == '#';
		return parse_number(&p, &a->value) && !*p ? NULL : "expected a register, a constant or [base, offset]";
	}
	p++;
	a->kind = "STP_SDT_MEM";
	if (!(a->reg = parse_arm64_reg(&p)))
		return "unknown base register";
	if (*p == ',') {
		p += 1 + strspn(p + 1, " ");
		p += *p == '#';
		if (!strncmp(p, ":lo12:", 6)) {
			size_t len = strcspn(p + 6, "+-]");
			const char *sym = ast_strndup(p + 6, len);
			uint64_t addr;
			int64_t off = 0;
			if (!elfsym_data_symbol(file, sym, &addr))
				return ast_printf("no data symbol '%s'%s", sym, !strncmp(sym, ".L", 2) ?
						  " (a section anchor: build the program with -fno-section-anchors)" : "");
			p += 6 + len;
			if ((*p == '+' || *p == '-') && !parse_number(&p, &off))
				return "expected an offset after the symbol";
			/* the load bias is whole pages: the low 12 bits are the link-time ones */
			a->value = (int64_t)((addr + (uint64_t)off) & 0xfff);
		} else if (!parse_number(&p, &a->value)) {
			return "expected an offset (index registers are not supported)";
		}
	}
	return strcmp(p, "]") ? "expected ']'" : NULL;
}

/* One arm64 operand "SIZE@OPERAND" into a (see parse_arm64_operand); NULL or what is wrong. */
static const char *parse_sdt_arg_arm64(struct elfsym_file *file, const char *text, struct sdt_arg *a)
{
	const char *p = text;
	const char *bad = parse_sdt_size(&p, a);
	return bad ? bad : parse_arm64_operand(file, p, a);
}

/*
 * Split a marker's operand string into args (arm64: its operands, whose
 * "[base, offset]" holds a space); NULL or what is wrong with which operand.
 */
static const char *parse_sdt_args(struct elfsym_file *file, bool arm64, const char *args, struct vec *out)
{
	const char *p = args;
	while (*p) {
		p += strspn(p, " ");
		if (!*p)
			break;
		size_t len = strcspn(p, " [");
		if (p[len] == '[')
			len += strcspn(p + len, "]") + (strchr(p + len, ']') ? 1 : 0);
		const char *op = ast_strndup(p, len);
		struct sdt_arg *a = ast_alloc(sizeof(*a));
		const char *why = arm64 ? parse_sdt_arg_arm64(file, op, a) : parse_sdt_arg(file, op, a);
		if (why)
			return ast_printf("operand '%s': %s", op, why);
		if (out->n == SDT_MAX_ARGS)
			return "more than 12 operands";
		vec_push(out, a);
		p += len;
	}
	return NULL;
}

/* A target path without '/' is searched in PATH (the standard one under --sysroot). */
static const char *target_path(struct session *s, const char *name, const char **host)
{
	const char *root = s->sysroot ? s->sysroot : "";
	if (strchr(name, '/')) {
		if (name[0] != '/' && !s->sysroot) {
			char buf[PATH_MAX];
			if (realpath(name, buf))
				name = ast_strdup(buf);
		}
		*host = ast_printf("%s%s", root, name);
		return name;
	}
	const char *path = s->sysroot || !getenv("PATH") ? "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin"
							  : getenv("PATH");
	while (*path) {
		size_t len = strcspn(path, ":");
		const char *cand = ast_printf("%.*s/%s", (int)len, path, name);
		const char *h = ast_printf("%s%s", root, cand);
		if (len && access(h, X_OK) == 0) {
			*host = h;
			return cand;
		}
		path += len + (path[len] == ':');
	}
	*host = NULL;
	return name;
}

/* An opened program or library: its symbols, and its DWARF when it has some. */
struct user_file {
	struct elfsym_file *elf;     /* symbols, offsets, SDT notes */
	const char *target;          /* its path on the target */
	const char *host;            /* the file read here (under --sysroot) */
	struct debuginfo *di;        /* its DWARF, NULL if it has none */
	const char *no_dwarf;        /* di NULL: why, for messages */
	bool arm64;                  /* an AArch64 file (-a arm64): its SDT operands are arm64's */
};

/* Report at loc, unless the point is optional ('?': what is not there is no match). */
static void not_found(bool quiet, struct srcloc loc, const char *msg)
{
	if (!quiet)
		diag_error(loc, "%s", msg);
}

/* Open the program (or library) named at loc; false after a diagnostic (none if quiet). */
static bool open_file(struct session *s, const char *name, struct srcloc loc, bool quiet, struct user_file *uf)
{
	const char *host, *err;
	memset(uf, 0, sizeof(*uf));
	uf->target = target_path(s, name, &host);
	if (!host) {
		not_found(quiet, loc, ast_printf("cannot find program '%s' in PATH", name));
		return false;
	}
	if (uf->target[0] != '/') {
		diag_error(loc, "'%s' must be an absolute path with --sysroot", name);
		return false;
	}
	uf->host = host;
	uf->arm64 = arch_is_arm64(s);
	uf->elf = elfsym_open(host, uf->arm64, &err);
	if (!uf->elf) {
		not_found(quiet, loc, err);
		return false;
	}
	return true;
}

/* Open uf's DWARF, once per file however many points name it (di stays NULL without). */
/* What the family keeps per session (session.uprobes). */
struct uprobe_state {
	struct vec dwarf; /* pairs: host path (const char *), then its struct user_file * with DWARF opened */
};

static void load_dwarf(struct session *s, struct user_file *uf)
{
	if (!s->uprobes)
		s->uprobes = ast_alloc(sizeof(*s->uprobes));
	struct vec *cache = &s->uprobes->dwarf;
	for (int i = 0; i < cache->n; i += 2) {
		if (!strcmp(cache->items[i], uf->host)) {
			struct user_file *known = cache->items[i + 1];
			uf->di = known->di;
			uf->no_dwarf = known->no_dwarf;
			return;
		}
	}
	const char *err;
	uf->di = dbg_open_dwarf(uf->host, &err);
	if (uf->di)
		uf->di->prologue = s->prologue_searching;
	if (!uf->di)
		uf->no_dwarf = ast_printf("%s has no DWARF debuginfo", uf->target);
	struct user_file *copy = ast_alloc(sizeof(*copy));
	*copy = *uf;
	vec_push(cache, (void *)uf->host);
	vec_push(cache, copy);
}

const char *process_host_file(struct session *s, const char *name)
{
	const char *host;
	target_path(s, name, &host);
	return host && access(host, F_OK) == 0 ? host : NULL;
}

bool process_program_path(struct session *s, const char *name, struct srcloc loc, bool quiet, const char **target)
{
	struct user_file uf;
	if (!open_file(s, name, loc, quiet, &uf))
		return false;
	*target = uf.target;
	return true;
}

/*
 * .library("lib"): a path, or a pattern matched against the program's
 * DT_NEEDED names, found in its run path and the standard directories.
 */
static bool open_library(struct session *s, struct user_file *prog, struct probe_component *lib, bool quiet,
			 struct user_file *out)
{
	const char *name = lib->arg->u.str;
	if (strchr(name, '/'))
		return open_file(s, name, lib->arg->loc, quiet, out);
	struct vec needed = {0};
	const char *runpath;
	elfsym_needed(prog->elf, &needed, &runpath);
	const char *dirs = ast_printf("%s%s/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:/lib:/usr/lib",
				      runpath, *runpath ? ":" : "");
	for (int i = 0; i < needed.n; i++) {
		const char *soname = needed.items[i];
		if (fnmatch(name, soname, 0) && fnmatch(ast_printf("%s.so*", name), soname, 0))
			continue;
		for (const char *d = dirs; *d;) {
			size_t len = strcspn(d, ":");
			const char *cand = ast_printf("%.*s/%s", (int)len, d, soname);
			if (len && access(ast_printf("%s%s", s->sysroot ? s->sysroot : "", cand), R_OK) == 0)
				return open_file(s, cand, lib->arg->loc, quiet, out);
			d += len + (d[len] == ':');
		}
		not_found(quiet, lib->arg->loc, ast_printf("library '%s' needed by %s is not in its run path or the "
							   "standard directories", soname, prog->target));
		return false;
	}
	not_found(quiet, lib->arg->loc, ast_printf("%s does not use a library matching '%s'", prog->target, name));
	return false;
}

static struct uprobe_site *add_site(struct process_point *pt, uint64_t offset, uint64_t vaddr, const char *what,
				    const char *pp, struct target_scope *scope)
{
	struct uprobe_site *site = ast_alloc(sizeof(*site));
	site->offset = offset;
	site->vaddr = vaddr;
	site->what = what;
	site->pp = pp;
	site->scope = scope;
	vec_push(&pt->sites, site);
	return site;
}

/* A scope without the program's variables: $return (a long) in a .return probe, nothing else. */
static struct target_scope *bare_scope(const char *why, bool is_return, const char *what)
{
	struct target_scope *sc = ast_alloc(sizeof(*sc));
	sc->user = true;
	sc->what = what;
	sc->no_debuginfo = why;
	if (is_return) {
		struct dbg_type *lng = dbg_type_new(NULL, DBG_INT, "long", 0);
		lng->size = 8;
		lng->is_signed = true;
		sc->is_return = true;
		sc->ret = lng;
	}
	return sc;
}

/*
 * Variables read at a function's entry, before its prologue ran: the
 * parameters from the argument registers (the ABI), every local unavailable
 * for the reason why.
 */
static void entry_vars(const struct debuginfo *di, struct vec *vars, const char *why)
{
	dbg_abi_locate(di, vars);
	for (int i = 0; i < vars->n; i++) {
		struct dbg_var *v = vars->items[i];
		if (!v->is_param)
			v->loc = (struct dbg_loc){.kind = DBG_LOC_NONE, .reg = -1, .why = why};
	}
}

/*
 * The variables of function f at pc. A .return probe reads them at the
 * entry (pc is f->addr); if the function's body starts after a prologue
 * (unoptimized code: skipped_prologue), its parameters are there still in
 * the argument registers, and its locals are not set yet.
 */
static struct target_scope *dwarf_scope(struct debuginfo *di, struct dbg_func *f, uint64_t pc, bool is_return,
					bool skipped_prologue, const char *what)
{
	struct target_scope *sc = ast_alloc(sizeof(*sc));
	sc->di = di;
	sc->user = true;
	sc->what = what;
	sc->func = f;
	dbg_variables(di, f, pc, &sc->vars);
	if (!is_return)
		return sc;
	sc->is_return = true;
	sc->ret = f->ret && dbg_type_strip(f->ret) && dbg_type_strip(f->ret)->kind != DBG_VOID ? f->ret : NULL;
	if (skipped_prologue) {
		entry_vars(di, &sc->vars, "a .return probe reads it at the function's entry, before it is set");
	}
	return sc;
}

/* "name@file:line" when DWARF says where f is declared, else "name". */
static const char *function_spec(const char *name, struct dbg_func *df)
{
	if (!df || !df->file)
		return name;
	return ast_printf("%s@%s:%d", name, df->file, df->line);
}

/* Which instances of a function .function("pattern") means (man stapprobes). */
enum inline_choice {
	INLINE_NONE,  /* .call and .return: the out-of-line function only */
	INLINE_ALSO,  /* plain .function: its inlined copies too (DWARF records them) */
	INLINE_ONLY,  /* .inline: only the inlined copies */
};

/* The inlined copies of the functions matching ls: a probe at each one's first instruction. */
static void add_inline_sites(struct user_file *uf, const struct linespec *ls, struct process_point *pt,
			     const char *family, const char *suffix)
{
	struct vec inl = {0};
	dbg_functions(uf->di, ls->func, ls->file, true, &inl);
	for (int i = 0; i < inl.n; i++) {
		struct dbg_func *df = inl.items[i];
		uint64_t offset;
		if ((ls->kind == LINESPEC_RANGES || ls->kind == LINESPEC_RELATIVE) && !linespec_has_line(ls, df->line, df->line))
			continue;
		if (!elfsym_offset(uf->elf, df->addr, &offset))
			continue;
		const char *what = ast_printf("inlined function %s", df->name);
		const char *pp = ast_printf("%s.function(\"%s\")%s", family, function_spec(df->name, df), suffix);
		add_site(pt, offset, df->addr, df->name, pp, dwarf_scope(uf->di, df, df->addr, false, false, what));
	}
}

/*
 * .function("pattern"): every matching function. With DWARF, a function
 * whose parameters live in frame slots its prologue fills (unoptimized
 * code) is probed where its body starts (dbg_prologue_end), so they are
 * readable; its .return probe still goes on the entry.
 */
static bool resolve_function(struct user_file *uf, struct probe_component *c, struct process_point *pt,
			     const char *family, const char *suffix, enum inline_choice inlines, bool exported)
{
	struct vec fns = {0}, dfuncs = {0};
	struct linespec ls;
	if (!linespec_parse(c->arg->u.str, &ls, c->arg->loc))
		return false;
	if (ls.file && !uf->di) {
		not_found(pt->optional, c->arg->loc, ast_printf("a source file in the pattern needs the program's DWARF: %s",
								 uf->no_dwarf));
		return false;
	}
	if (inlines == INLINE_ONLY && !uf->di) {
		not_found(pt->optional, c->arg->loc, ast_printf(".inline needs the program's DWARF: %s", uf->no_dwarf));
		return false;
	}
	if (inlines != INLINE_ONLY)
		elfsym_functions(uf->elf, ls.func, &fns);
	if (uf->di)
		dbg_functions(uf->di, ls.func, ls.file, false, &dfuncs);
	if (ls.file) {
		/* only the functions DWARF places in that file (and spanning its lines) */
		int kept = 0;
		for (int i = 0; i < fns.n; i++) {
			struct elfsym_func *fn = fns.items[i];
			bool ok = false;
			for (int j = 0; j < dfuncs.n && !ok; j++) {
				struct dbg_func *df = dfuncs.items[j];
				ok = df->addr == fn->vaddr && linespec_function_spans(&ls, uf->di, df);
			}
			if (ok)
				fns.items[kept++] = fn;
		}
		fns.n = kept;
	}
	if (exported) {
		int kept = 0;
		for (int i = 0; i < fns.n; i++) {
			struct elfsym_func *fn = fns.items[i];
			if (elfsym_exported(uf->elf, fn->name, fn->vaddr))
				fns.items[kept++] = fn;
		}
		fns.n = kept;
	}
	int before = pt->sites.n;
	if (inlines != INLINE_NONE && uf->di)
		add_inline_sites(uf, &ls, pt, family, suffix);
	if (!fns.n && pt->sites.n == before) {
		not_found(pt->optional, c->arg->loc, ast_printf("no %sfunction matching '%s' in %s",
								 inlines == INLINE_ONLY ? "inlined " : exported ? "exported " : "",
								 c->arg->u.str, pt->file));
		return false;
	}
	for (int i = 0; i < fns.n; i++) {
		struct elfsym_func *fn = fns.items[i];
		struct dbg_func *df = NULL;
		for (int j = 0; j < dfuncs.n && !df; j++)
			if (((struct dbg_func *)dfuncs.items[j])->addr == fn->vaddr)
				df = dfuncs.items[j];
		const char *what = ast_printf("function %s", fn->name);
		const char *pp = ast_printf("%s.function(\"%s\")%s", family, function_spec(fn->name, df), suffix);
		uint64_t vaddr = fn->vaddr, offset = fn->offset;
		struct target_scope *scope;
		if (df) {
			uint64_t body = dbg_prologue_end(uf->di, df);
			if (!pt->is_return && body != fn->vaddr && elfsym_offset(uf->elf, body, &offset))
				vaddr = body;
			scope = dwarf_scope(uf->di, df, vaddr, pt->is_return, body != fn->vaddr, what);
		} else {
			scope = bare_scope(uf->di ? ast_printf("%s has no DWARF for it", pt->file) : uf->no_dwarf,
					   pt->is_return, what);
		}
		add_site(pt, offset, vaddr, fn->name, pp, scope);
	}
	return true;
}

/*
 * .statement("func@file:LINES"): the first instruction of each line named, in each matching
 * function; with .nearest, for a named line without code, of the nearest line with code.
 */
static bool resolve_statement(struct user_file *uf, struct probe_component *c, bool nearest, struct process_point *pt,
			      const char *family)
{
	const char *spec = c->arg->u.str;
	struct linespec ls;
	if (!linespec_parse(spec, &ls, c->arg->loc))
		return false;
	if (!ls.file || ls.kind == LINESPEC_NONE) {
		diag_error(c->arg->loc, "expected \"function@file:LINES\" (LINES: N, N-M, a list of those, '*', or +N past "
			   "the function's declaration), not \"%s\"", spec);
		return false;
	}
	if (!uf->di) {
		not_found(pt->optional, c->arg->loc, ast_printf("statement probes need the program's line table: %s",
								 uf->no_dwarf));
		return false;
	}
	struct vec funcs = {0}, all = {0}, chosen = {0};
	dbg_functions(uf->di, ls.func, NULL, false, &funcs);
	for (int i = 0; i < funcs.n; i++) {
		struct vec lines = {0};
		uf->di->ops->statements(uf->di, funcs.items[i], ls.file, &lines);
		for (int j = 0; j < lines.n; j++)
			vec_push(&all, lines.items[j]);
	}
	if (nearest)
		linespec_nearest(&ls, &all, &chosen);
	struct vec *lines = nearest ? &chosen : &all;
	for (int j = 0; j < lines->n; j++) {
		struct dbg_line *dl = lines->items[j];
		struct dbg_func *f = dl->func;
		uint64_t offset;
		if ((!nearest && (!linespec_has_line(&ls, f->line, dl->line) || (ls.kind == LINESPEC_ANY && dl->inlined))) ||
		    !elfsym_offset(uf->elf, dl->addr, &offset))
			continue;
		const char *what = ast_printf("%s at line %d", f->name, dl->line);
		add_site(pt, offset, dl->addr, ast_printf("%s+0x%llx", f->name, (unsigned long long)(dl->addr - f->addr)),
			 ast_printf("%s.statement(\"%s@%s:%d\")", family, f->name, dl->file, dl->line),
			 dwarf_scope(uf->di, f, dl->addr, false, false, what));
	}
	if (!pt->sites.n) {
		const char *lines = linespec_lines_text(&ls);
		not_found(pt->optional, c->arg->loc, ast_printf("no code for line%s %s of %s in a function matching '%s' in %s",
								 linespec_single(&ls) ? "" : "s", lines + (*lines == ':'),
								 ls.file, ls.func, pt->file));
		return false;
	}
	return true;
}

/*
 * .statement(ADDRESS): the instruction at a link-time address inside a
 * function of the file's symbol table, with the variables DWARF gives
 * there; .statement(ADDRESS).absolute (guru): any address of the file's
 * loaded segments, unchecked, without variables.
 */
static bool resolve_statement_address(struct session *s, struct user_file *uf, struct probe_component *c,
				      struct probe_component *absolute, struct process_point *pt, const char *family)
{
	uint64_t addr = (uint64_t)c->arg->u.num, offset;
	const char *pp = ast_printf("%s.statement(0x%llx)%s", family, (unsigned long long)addr, absolute ? ".absolute" : "");
	if (absolute && !s->guru) {
		diag_error(absolute->loc, ".statement(ADDRESS).absolute needs guru mode (-g): the address is not checked "
			   "against the code of %s", pt->file);
		return false;
	}
	if (!elfsym_offset(uf->elf, addr, &offset)) {
		not_found(pt->optional, c->arg->loc, ast_printf("address 0x%llx is in no loaded segment of %s",
								 (unsigned long long)addr, pt->file));
		return false;
	}
	const char *what = ast_printf("0x%llx", (unsigned long long)addr);
	if (absolute) {
		add_site(pt, offset, addr, what, pp, bare_scope(".absolute probes read no variables", false, what));
		return true;
	}
	struct vec syms = {0};
	struct elfsym_func *fn = NULL;
	elfsym_symbols(uf->elf, &syms);
	for (int i = 0; i < syms.n && !fn; i++) {
		struct elfsym_func *f = syms.items[i];
		if (f->vaddr <= addr && addr < f->vaddr + f->size && elfsym_offset(uf->elf, f->vaddr, &(uint64_t){0}))
			fn = f;
	}
	struct vec funcs = {0};
	if (fn) {
		elfsym_functions(uf->elf, fn->name, &funcs);
		if (!funcs.n)
			fn = NULL;	/* a data object */
	}
	if (!fn) {
		not_found(pt->optional, c->arg->loc, ast_printf("no function of %s holds address 0x%llx (.absolute "
								 "probes any address, in guru mode)", pt->file,
								 (unsigned long long)addr));
		return false;
	}
	what = ast_printf("%s+0x%llx", fn->name, (unsigned long long)(addr - fn->vaddr));
	struct dbg_func *df = NULL;
	struct vec dfuncs = {0};
	if (uf->di)
		dbg_functions(uf->di, fn->name, NULL, false, &dfuncs);
	for (int j = 0; j < dfuncs.n && !df; j++)
		if (((struct dbg_func *)dfuncs.items[j])->addr == fn->vaddr)
			df = dfuncs.items[j];
	add_site(pt, offset, addr, what, pp,
		 df ? dwarf_scope(uf->di, df, addr, false, false, what)
		    : bare_scope(uf->di ? ast_printf("%s has no DWARF for %s", pt->file, fn->name) : uf->no_dwarf, false, what));
	return true;
}

/* .function("pattern").label("glob"): the labelled code, in each matching function (DWARF only). */
static bool resolve_label(struct user_file *uf, struct probe_component *c, struct probe_component *lc,
			  struct process_point *pt, const char *family)
{
	if (!uf->di) {
		not_found(pt->optional, lc->loc, ast_printf(".label needs the program's DWARF: %s", uf->no_dwarf));
		return false;
	}
	struct vec funcs = {0};
	struct linespec ls;
	if (!linespec_parse(c->arg->u.str, &ls, c->arg->loc))
		return false;
	dbg_functions(uf->di, ls.func, ls.file, false, &funcs);
	for (int i = 0; i < funcs.n; i++) {
		struct dbg_func *f = funcs.items[i];
		struct vec labels = {0};
		if (!linespec_function_spans(&ls, uf->di, f))
			continue;
		uf->di->ops->labels(uf->di, f, lc->arg->u.str, &labels);
		for (int j = 0; j < labels.n; j++) {
			struct dbg_label *lb = labels.items[j];
			uint64_t offset;
			if (!elfsym_offset(uf->elf, lb->addr, &offset))
				continue;
			add_site(pt, offset, lb->addr, ast_printf("%s:%s", f->name, lb->name),
				 ast_printf("%s.function(\"%s\").label(\"%s\")", family, function_spec(f->name, f), lb->name),
				 dwarf_scope(uf->di, f, lb->addr, false, false, ast_printf("label %s of %s", lb->name, f->name)));
		}
	}
	if (!pt->sites.n) {
		not_found(pt->optional, lc->arg->loc, ast_printf("no label matching '%s' in a function matching '%s' in %s",
								  lc->arg->u.str, c->arg->u.str, pt->file));
		return false;
	}
	return true;
}

/* The deepest .callees(N), as in the kernel: the run time steps N - 1 frames up the user stack on each hit. */
#define UPROBE_CALLEES_MAX_DEPTH 16

/* One .callee/.callees expansion in a file. */
struct ucallee_walk {
	struct user_file *uf;
	struct process_point *pt;
	const char *suffix;      /* "", ".call" or ".return" */
	const char *glob;        /* the callees of the first level */
	int depth;               /* levels to expand: 1 for .callee and .callees */
	uint64_t returns[UPROBE_CALLEES_MAX_DEPTH]; /* the call sites' return addresses, outermost first */
};

/* The function a call site calls, by name (and file, which tells apart statics of one name), or NULL. */
static struct dbg_func *ucall_target(struct debuginfo *di, struct dbg_call *call)
{
	struct vec named = {0};
	dbg_functions(di, call->callee, NULL, false, &named);
	for (int k = 0; k < named.n; k++) {
		struct dbg_func *g = named.items[k];
		if (!call->callee_file || (g->file && !strcmp(g->file, call->callee_file)))
			return g;
	}
	return NULL;
}

/* The target variables of a callee probe: at its first instruction, before unoptimized code sets its locals. */
static struct target_scope *ucallee_scope(struct user_file *uf, struct dbg_func *callee, struct dbg_func *caller,
					  bool is_return)
{
	struct target_scope *scope = dwarf_scope(uf->di, callee, callee->addr, is_return, false,
						 ast_printf("function %s called from %s", callee->name, caller->name));
	if (dbg_prologue_end(uf->di, callee) != callee->addr) {
		/* unoptimized: the parameters are still in the argument registers */
		entry_vars(uf->di, &scope->vars, "a .callee probe reads it at the entry, before it is set");
	}
	return scope;
}

/*
 * The callees of f at this level (and, below depth, theirs): a site per
 * call, keeping the return addresses of the chain above it as differences
 * from the callee's entry (one file moves by one load bias). pp is the
 * point so far. Stops past UPROBE_MAX_SITES, which the caller reports.
 */
static void ucallees_at(struct ucallee_walk *w, struct dbg_func *f, const char *pp, int level)
{
	struct user_file *uf = w->uf;
	struct vec calls = {0};
	uf->di->ops->calls(uf->di, f, level == 1 ? w->glob : "*", &calls);
	for (int j = 0; j < calls.n && w->pt->sites.n <= UPROBE_MAX_SITES; j++) {
		struct dbg_call *call = calls.items[j];
		struct dbg_func *callee = ucall_target(uf->di, call);
		uint64_t offset;
		if (!callee)
			continue;
		const char *here = ast_printf("%s.callee(\"%s\")", pp, function_spec(callee->name, callee));
		w->returns[level - 1] = call->return_addr;
		if (elfsym_offset(uf->elf, callee->addr, &offset)) {
			struct uprobe_site *site = add_site(w->pt, offset, callee->addr, callee->name,
							    ast_printf("%s%s", here, w->suffix),
							    ucallee_scope(uf, callee, f, w->pt->is_return));
			site->callee_return = (int64_t)(call->return_addr - callee->addr);
			site->ncallers = level - 1;
			if (site->ncallers)
				site->callers = ast_alloc(sizeof(int64_t) * (size_t)site->ncallers);
			for (int i = 0; i < site->ncallers; i++)
				site->callers[i] = (int64_t)(w->returns[level - 2 - i] - callee->addr);
		}
		if (level < w->depth)
			ucallees_at(w, callee, here, level + 1);
	}
}

/*
 * .callee("glob") / .callees[(N)] [.call|.return]: the entry of each
 * function of the file a matching function calls at a DWARF call site,
 * run only for that call (the runtime checks the return address); at
 * depth N, recursively the callees of those, each run only when the user
 * stack holds its whole chain of call sites (linux/probes/uprobes.c). The probe
 * stays on the callee's first instruction, where the return address is at
 * the stack pointer: unoptimized code's parameters are read from the
 * argument registers there, its locals are not set yet.
 */
static bool resolve_callees(struct user_file *uf, struct probe_component *c, struct probe_component *cc,
			    struct process_point *pt, const char *family, const char *suffix)
{
	struct ucallee_walk w = {.uf = uf, .pt = pt, .suffix = suffix,
				 .glob = cc->arg && cc->arg->kind == NODE_STR ? cc->arg->u.str : "*",
				 .depth = cc->arg && cc->arg->kind == NODE_NUM ? (int)cc->arg->u.num : 1};
	struct linespec ls;
	if (!linespec_parse(c->arg->u.str, &ls, c->arg->loc))
		return false;
	if (!uf->di) {
		not_found(pt->optional, cc->loc, ast_printf(".%s needs the program's DWARF: %s", cc->name, uf->no_dwarf));
		return false;
	}
	struct vec callers = {0};
	dbg_functions(uf->di, ls.func, ls.file, false, &callers);
	for (int i = 0; i < callers.n; i++) {
		struct dbg_func *f = callers.items[i];
		if (linespec_function_spans(&ls, uf->di, f))
			ucallees_at(&w, f, ast_printf("%s.function(\"%s\")", family, function_spec(f->name, f)), 1);
	}
	if (!pt->sites.n) {
		not_found(pt->optional, c->arg->loc, ast_printf("a function matching '%s' calls no function matching '%s' at a "
								 "call site DWARF records in %s", c->arg->u.str, w.glob, pt->file));
		return false;
	}
	return true;
}

/*
 * .plt or .plt("glob"): the PLT entries of the file (each a stub that
 * jumps to a library function), named by the symbol each calls. $$name is
 * that symbol; in a .return probe $return (a long) is what it returned.
 */
static bool resolve_plt(struct user_file *uf, struct probe_component *c, struct process_point *pt, const char *family,
			const char *suffix)
{
	const char *glob = c->arg ? c->arg->u.str : "*";
	struct vec entries = {0};
	elfsym_plt(uf->elf, glob, &entries);
	if (!entries.n) {
		not_found(pt->optional, c->arg ? c->arg->loc : c->loc,
			  ast_printf("no PLT entry%s%s in %s", c->arg ? " matching " : "", c->arg ? glob : "", pt->file));
		return false;
	}
	for (int i = 0; i < entries.n; i++) {
		struct elfsym_func *fn = entries.items[i];
		struct target_scope *scope = bare_scope(ast_printf("a PLT entry has no DWARF (%s@plt)", fn->name), pt->is_return,
							 ast_printf("PLT entry %s", fn->name));
		targetvar_provide(scope, "$name", TYPE_STRING, emit_c_string(fn->name), NULL, false);
		add_site(pt, fn->offset, fn->vaddr, ast_printf("%s@plt", fn->name),
			 ast_printf("%s.plt(\"%s\")%s", family, fn->name, suffix), scope);
	}
	return true;
}

/* .mark("name"), after an optional .provider("p"): every matching SDT marker. */
static bool resolve_mark(struct user_file *uf, const char *provider, struct probe_component *c, struct process_point *pt,
			 const char *family)
{
	struct vec marks = {0};
	elfsym_sdt_markers(uf->elf, provider, c->arg->u.str, &marks);
	if (!marks.n) {
		not_found(pt->optional, c->arg->loc,
			  ast_printf("no SDT marker matching '%s'%s%s in %s", c->arg->u.str, strcmp(provider, "*") ? " of provider " : "",
				     strcmp(provider, "*") ? provider : "", pt->file));
		return false;
	}
	for (int i = 0; i < marks.n; i++) {
		struct elfsym_sdt *m = marks.items[i];
		struct vec args = {0};
		const char *why = parse_sdt_args(uf->elf, uf->arm64, m->args, &args);
		if (why) {
			diag_error(c->arg->loc, "SDT marker %s:%s in %s: %s", m->provider, m->name, pt->file, why);
			return false;
		}
		/* $arg1..$argN, $$name, $$provider: the runtime decodes them from the site's table entry */
		struct target_scope *scope = ast_alloc(sizeof(*scope));
		scope->user = true;
		scope->what = ast_printf("SDT marker %s:%s", m->provider, m->name);
		for (int j = 0; j < args.n; j++)
			targetvar_provide(scope, ast_printf("arg%d", j + 1), TYPE_LONG,
					  ast_printf("_stp_sdt_arg(&c->base, c->base.regs, %d)", j + 1), NULL, true);
		targetvar_provide(scope, "$name", TYPE_STRING, "_stp_sdt_name(&c->base)", NULL, false);
		targetvar_provide(scope, "$provider", TYPE_STRING, "_stp_sdt_provider(&c->base)", NULL, false);
		struct uprobe_site *site = add_site(pt, m->offset, m->vaddr, ast_printf("%s:%s", m->provider, m->name),
						    ast_printf("%s.provider(\"%s\").mark(\"%s\")", family, m->provider, m->name),
						    scope);
		site->mark = m;
		site->args = args;
		site->semaphore = m->semaphore;
	}
	pt->is_mark = true;
	return true;
}

static bool string_arg(struct probe_component *c, const char *what)
{
	if (c->arg && c->arg->kind == NODE_STR && *c->arg->u.str)
		return true;
	diag_error(c->loc, "%s(\"...\") needs %s in quotes", c->name, what);
	return false;
}

bool uprobe_resolve(struct session *s, struct probe_point *pp, int next, struct process_point *pt)
{
	struct probe_component *root = probes_component(pp, 0);
	struct user_file uf;
	if (!open_file(s, pt->path, root->arg ? root->arg->loc : root->loc, pt->optional, &uf))
		return false;
	pt->path = pt->file = uf.target;
	/* process(PID) stays so: the probe fires in that process only */
	const char *family = pt->pid ? ast_printf("process(%lld)", (long long)pt->pid)
				     : ast_printf("process(\"%s\")", pt->buildid ? pt->buildid : pt->path);
	struct probe_component *c = probes_component(pp, next);
	if (!strcmp(c->name, "library")) {
		if (!string_arg(c, "a library name or path"))
			return false;
		struct user_file lib;
		if (!open_library(s, &uf, c, pt->optional, &lib))
			return false;
		uf = lib;
		pt->file = uf.target;
		family = ast_printf("%s.library(\"%s\")", family, pt->file);
		c = probes_component(pp, ++next);
		if (!c || (strcmp(c->name, "function") && strcmp(c->name, "plt") && strcmp(c->name, "statement") &&
			   strcmp(c->name, "mark") && strcmp(c->name, "provider"))) {
			diag_error(c ? c->loc : pp->loc, "expected .function(\"name\"), .statement(\"function@file:line\"), "
				   ".mark(\"name\"), .provider(\"name\").mark(\"name\") or .plt after .library(...)");
			return false;
		}
	}
	pt->relocatable = elfsym_relocatable(uf.elf);
	if (strcmp(c->name, "provider") && strcmp(c->name, "mark") && strcmp(c->name, "plt"))
		load_dwarf(s, &uf);
	const char *provider = "*";
	if (!strcmp(c->name, "provider")) {
		if (!string_arg(c, "a provider name"))
			return false;
		provider = c->arg->u.str;
		c = probes_component(pp, ++next);
		if (!c || strcmp(c->name, "mark")) {
			diag_error(c ? c->loc : pp->loc, "expected .mark(\"name\") after .provider(...)");
			return false;
		}
	}
	bool is_function = !strcmp(c->name, "function"), is_plt = !strcmp(c->name, "plt");
	if (!is_function && !is_plt && strcmp(c->name, "statement") && strcmp(c->name, "mark")) {
		diag_error(c->loc, "unknown process probe '.%s': expected begin, end, thread, function, statement, "
			   "mark, provider, plt or library", c->name);
		return false;
	}
	/* the suffix first: a .return probe's sites and variables differ */
	const char *suffix = "";
	enum inline_choice inlines = INLINE_ALSO;
	bool exported = false;	/* .exported: only the functions the file exports (its .dynsym) */
	struct probe_component *sc = probes_component(pp, next + 1), *label = NULL, *callee = NULL;
	if (sc && is_function && (!strcmp(sc->name, "callee") || !strcmp(sc->name, "callees"))) {
		struct probe_component *after = probes_component(pp, next + 2);
		bool callees = !strcmp(sc->name, "callees");
		if (callees ? sc->arg && (sc->arg->kind != NODE_NUM || sc->arg->u.num < 1) : !string_arg(sc, "a function name")) {
			if (callees)
				diag_error(sc->loc, ".callees takes a depth of 1 or more: .callees or .callees(N)");
			return false;
		}
		if (callees && sc->arg && sc->arg->u.num > UPROBE_CALLEES_MAX_DEPTH) {
			diag_error(sc->arg->loc, ".callees(%lld) is too deep: at most .callees(%d), as the run-time check walks "
				   "that many frames up the stack on every hit", (long long)sc->arg->u.num,
				   UPROBE_CALLEES_MAX_DEPTH);
			return false;
		}
		if (after && ((strcmp(after->name, "call") && strcmp(after->name, "return")) || after->arg ||
			      probes_ncomponents(pp) != next + 3)) {
			diag_error(after->loc, "unexpected '.%s' after .%s(...): only .call or .return may follow", after->name,
				   sc->name);
			return false;
		}
		callee = sc;
		if (after) {
			suffix = ast_printf(".%s", after->name);
			pt->is_return = !strcmp(after->name, "return");
		}
		sc = NULL;
	}
	bool nearest = false;
	struct probe_component *absolute = NULL;
	if (sc) {
		if (!strcmp(c->name, "statement") && c->arg && c->arg->kind == NODE_NUM && !strcmp(sc->name, "absolute") &&
		    !sc->arg && probes_ncomponents(pp) == next + 2) {
			absolute = sc;
		} else if (!strcmp(c->name, "statement") && !strcmp(sc->name, "nearest") && !sc->arg) {
			struct probe_component *extra = probes_component(pp, next + 2);
			if (extra) {
				diag_error(extra->loc, "unexpected '.%s' after .statement(...).nearest", extra->name);
				return false;
			}
			nearest = true;
		} else if (is_function && !strcmp(sc->name, "label") && probes_ncomponents(pp) == next + 2) {
			if (!string_arg(sc, "a label name"))
				return false;
			label = sc;
		} else if (is_function && !strcmp(sc->name, "inline") && !sc->arg && probes_ncomponents(pp) == next + 2) {
			inlines = INLINE_ONLY;
			suffix = ".inline";
		} else if (is_function && !strcmp(sc->name, "exported") && !sc->arg && probes_ncomponents(pp) == next + 2) {
			inlines = INLINE_NONE;	/* an inlined copy is not the exported function */
			exported = true;
			suffix = ".exported";
		} else if ((is_function || (is_plt && !strcmp(sc->name, "return"))) && !sc->arg &&
			   (!strcmp(sc->name, "return") || !strcmp(sc->name, "call")) && probes_ncomponents(pp) == next + 2) {
			pt->is_return = !strcmp(sc->name, "return");
			suffix = ast_printf(".%s", sc->name);
			inlines = INLINE_NONE;
		} else {
			diag_error(sc->loc, "unexpected '.%s' after .%s(...)%s", sc->name, c->name,
				   is_function ? ": only .call, .return, .inline, .exported or .label(\"name\") may follow"
				   : is_plt ? ": only .return may follow" : !strcmp(c->name, "statement") ? ": only .nearest (or .absolute after an address) may follow" : "");
			return false;
		}
	}
	bool ok;
	if (is_function && callee && callee->arg && callee->arg->kind == NODE_NUM && callee->arg->u.num > 1)
		s->user_callers = true; /* the chain check steps by the file's CFI (usyms.c) */
	if (is_function && callee)
		ok = string_arg(c, "a function name") && resolve_callees(&uf, c, callee, pt, family, suffix);
	else if (is_function && label)
		ok = string_arg(c, "a function name") && resolve_label(&uf, c, label, pt, family);
	else if (is_function)
		ok = string_arg(c, "a function name") && resolve_function(&uf, c, pt, family, suffix, inlines, exported);
	else if (is_plt)
		ok = (!c->arg || string_arg(c, "a symbol name")) && resolve_plt(&uf, c, pt, family, suffix);
	else if (!strcmp(c->name, "statement") && c->arg && c->arg->kind == NODE_NUM && !nearest)
		ok = resolve_statement_address(s, &uf, c, absolute, pt, family);
	else if (!strcmp(c->name, "statement"))
		ok = string_arg(c, "\"function@file:line\"") && resolve_statement(&uf, c, nearest, pt, family);
	else
		ok = string_arg(c, "a marker name") && resolve_mark(&uf, provider, c, pt, family);
	if (!ok)
		return false;
	if (pt->sites.n > UPROBE_MAX_SITES && !s->list_probes) {
		diag_error(c->arg ? c->arg->loc : c->loc, "'%s' matches %d places in %s, more than %d",
			   c->arg ? c->arg->u.str : c->name, pt->sites.n,
			   pt->file, UPROBE_MAX_SITES);
		return false;
	}
	return true;
}

bool uprobe_by_buildid(const struct process_point *pt)
{
	return pt->kind == PROCESS_UPROBE && pt->buildid && !strcmp(pt->file, pt->path);
}

static void emit_sdt_site(struct emitter *e, struct uprobe_site *site)
{
	struct vec args = site->args;
	char *list = "";
	for (int i = 0; i < args.n; i++) {
		struct sdt_arg *a = args.items[i];
		list = ast_printf("%s%s{ .size = %d, .kind = %s, .reg = %s, .shift = %d, .index = %s, .scale = %d, "
				  ".value = %lldLL, .relocate = %d }", list, i ? ", " : "", a->size, a->kind, a->reg,
				  a->shift, a->index, a->scale, (long long)a->value, a->relocate);
	}
	emit_line(e, "{ .provider = %s, .name = %s, .vaddr = 0x%llxULL, .nargs = %d, .args = { %s } },",
		  emit_c_string(site->mark->provider), emit_c_string(site->mark->name),
		  (unsigned long long)site->mark->vaddr, args.n, list);
}

/* .callees(N): the callers' call sites, ", .callers = (const long[]){...}, .ncallers = N", or "". */
static const char *ucallers_text(const struct uprobe_site *site)
{
	if (!site->ncallers)
		return "";
	const char *list = "";
	for (int i = 0; i < site->ncallers; i++)
		list = ast_printf("%s%s%lldL", list, i ? ", " : "", (long long)site->callers[i]);
	return ast_printf(", .callers = (const long[]){%s}, .ncallers = %d", list, site->ncallers);
}

/* Whether a site of the uprobe points is a .callees(N) callee deeper than 1. */
static bool any_callers(struct vec *mine)
{
	for (int i = 0; i < mine->n; i++) {
		struct process_point *pt = ((struct resolved_probe *)mine->items[i])->data;
		for (int j = 0; pt->kind == PROCESS_UPROBE && j < pt->sites.n; j++)
			if (((struct uprobe_site *)pt->sites.items[j])->ncallers)
				return true;
	}
	return false;
}

void uprobe_emit_table(struct emitter *e, struct session *s, struct vec *mine)
{
	/* .return probes that read values at the function's entry: their entry handlers */
	for (int i = 0; i < mine->n; i++) {
		struct resolved_probe *r = mine->items[i];
		struct process_point *pt = r->data;
		const char *name = ast_printf("probe_%d_entry", r->probe->index);
		if (pt->kind != PROCESS_UPROBE || !pt->is_return || !targetvar_emit_entry(e, s, r->scope, r->probe, name))
			continue;
		emit_line(e, "static struct _stp_probe _stp_entry_probe_%d = { .body = %s, .pp = %s, .location = \"%s:%d:%d\" };",
			  r->index, name, emit_c_string(r->pp), r->point->loc.file, r->point->loc.line, r->point->loc.col);
		emit_blank(e);
	}
	int nsdt = 0;
	emit_open(e, "static const struct _stp_sdt_site _stp_sdt_sites[] = {");
	for (int i = 0; i < mine->n; i++) {
		struct resolved_probe *r = mine->items[i];
		struct process_point *pt = r->data;
		if (pt->kind != PROCESS_UPROBE || !pt->is_mark)
			continue;
		for (int j = 0; j < pt->sites.n; j++) {
			struct uprobe_site *site = pt->sites.items[j];
			emit_sdt_site(e, site);
			site->sdt_index = nsdt++;
		}
	}
	emit_close(e, "};");
	if (any_callers(mine))
		emit_line(e, "#define STP_UPROBES_CALLERS 1 /* a .callees(N) probe also walks the user stack for its callers' */");
	emit_open(e, "static struct _stp_uprobe _stp_uprobes[] = {");
	for (int i = 0; i < mine->n; i++) {
		struct resolved_probe *r = mine->items[i];
		struct process_point *pt = r->data;
		if (pt->kind != PROCESS_UPROBE)
			continue;
		bool saves = pt->is_return && r->scope && r->scope->saved.n;
		for (int j = 0; j < pt->sites.n; j++) {
			struct uprobe_site *site = pt->sites.items[j];
			emit_line(e, "{ .probe = &_stp_probes[%d], .path = %s, .offset = 0x%llxULL, .vaddr = 0x%llxULL, "
				  ".semaphore = 0x%llxULL, .is_return = %d, .relocatable = %d, .filter_path = %s, .sdt = %s, "
				  ".what = %s%s%s%s%s%s },",
				  r->index, emit_c_string(pt->file), (unsigned long long)site->offset,
				  (unsigned long long)site->vaddr, (unsigned long long)site->semaphore, pt->is_return,
				  pt->relocatable, strcmp(pt->file, pt->path) ? emit_c_string(pt->path) : "NULL",
				  site->mark ? ast_printf("&_stp_sdt_sites[%d]", site->sdt_index) : "NULL",
				  emit_c_string(site->what),
				  site->callee_return ? ast_printf(", .callee_return = %lldL%s", (long long)site->callee_return,
								   ucallers_text(site)) : "",
				  saves ? ast_printf(", .entry = &_stp_entry_probe_%d, .data_size = %s", r->index,
						     targetvar_entry_size(r->scope)) : "",
				  pt->target_only ? ", .target_only = 1" : "",
				  pt->pid ? ast_printf(", .pid = %lld", (long long)pt->pid) : "",
				  uprobe_by_buildid(pt) ? ast_printf(", .buildid = \"%s\"", pt->buildid) : "");
		}
	}
	emit_close(e, "};");
}
