/*
 * elfsym.c - user-space program files through libelf and libdw: function
 * symbols with their file offsets, line-table addresses, SDT notes and
 * DT_NEEDED. Only what uprobes need to find an address; reading a
 * program's variables belongs to the DWARF layer.
 *
 * SDT notes (as the SDT note format documents them): in section
 * .note.stapsdt, notes of owner "stapsdt" and type 3 whose descriptor is
 * three addresses (the marker's pc, the link-time address of the
 * .stapsdt.base section, the semaphore or 0) followed by three
 * NUL-terminated strings: provider, name and the argument operands. If
 * the file was prelinked, .stapsdt.base now sits elsewhere and pc and
 * semaphore move by the same amount.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debuginfo/debuginfo.h"
#include "debuginfo/elfsym.h"

struct elfsym_file {
	const char *path;  /* as opened */
	Elf *elf;          /* libelf handle (the descriptor stays open: the compiler is short-lived) */
	GElf_Ehdr ehdr;    /* file header */
	Dwarf *dwarf;      /* NULL until needed, or if there is no DWARF */
	bool dwarf_tried;  /* dwarf_begin_elf was attempted */
};

struct elfsym_file *elfsym_open(const char *path, bool arm64, const char **err)
{
	elf_version(EV_CURRENT); /* libelf's one-time setup; repeating it costs nothing */
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = ast_printf("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	GElf_Ehdr ehdr;
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &ehdr)) {
		*err = ast_printf("%s is not an ELF file", path);
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	if (ehdr.e_machine != (arm64 ? EM_AARCH64 : EM_X86_64) || ehdr.e_ident[EI_CLASS] != ELFCLASS64) {
		*err = ast_printf("%s is not an %s program", path, arm64 ? "arm64" : "x86-64");
		elf_end(elf);
		close(fd);
		return NULL;
	}
	if (ehdr.e_type != ET_EXEC && ehdr.e_type != ET_DYN) {
		*err = ast_printf("%s is not an executable or a shared library", path);
		elf_end(elf);
		close(fd);
		return NULL;
	}
	struct elfsym_file *f = ast_alloc(sizeof(*f));
	f->path = ast_strdup(path);
	f->elf = elf;
	f->ehdr = ehdr;
	return f;
}

bool elfsym_relocatable(const struct elfsym_file *f)
{
	return f->ehdr.e_type == ET_DYN;
}

bool elfsym_offset(const struct elfsym_file *f, uint64_t vaddr, uint64_t *offset)
{
	size_t n;
	if (elf_getphdrnum(f->elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (vaddr >= ph.p_vaddr && vaddr < ph.p_vaddr + ph.p_filesz) {
			*offset = vaddr - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

/* The first section of a type, or NULL. */
static Elf_Scn *find_section_type(Elf *elf, GElf_Word type, GElf_Shdr *shdr)
{
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn))
		if (gelf_getshdr(scn, shdr) && shdr->sh_type == type)
			return scn;
	return NULL;
}

static Elf_Scn *find_section_name(struct elfsym_file *f, const char *name, GElf_Shdr *shdr)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(f->elf, &shstrndx))
		return NULL;
	for (Elf_Scn *scn = elf_nextscn(f->elf, NULL); scn; scn = elf_nextscn(f->elf, scn)) {
		const char *sname;
		if (gelf_getshdr(scn, shdr) && (sname = elf_strptr(f->elf, shstrndx, shdr->sh_name)) &&
		    !strcmp(sname, name))
			return scn;
	}
	return NULL;
}

/* Calls each(sym, name, arg) for every symbol of .symtab, or .dynsym if stripped. */
static void each_symbol(struct elfsym_file *f, void (*each)(GElf_Sym *, const char *, void *), void *arg)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = find_section_type(f->elf, SHT_SYMTAB, &shdr);
	if (!scn)
		scn = find_section_type(f->elf, SHT_DYNSYM, &shdr);
	if (!scn)
		return;
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
	for (size_t i = 0; data && i < count; i++) {
		GElf_Sym sym;
		const char *name;
		if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
		    !(name = elf_strptr(f->elf, shdr.sh_link, sym.st_name)) || !*name)
			continue;
		each(&sym, name, arg);
	}
}

struct func_search {
	struct elfsym_file *f;
	const char *pattern;
	struct vec *out;
};

static void match_function(GElf_Sym *sym, const char *name, void *arg)
{
	struct func_search *fs = arg;
	if (GELF_ST_TYPE(sym->st_info) != STT_FUNC && GELF_ST_TYPE(sym->st_info) != STT_GNU_IFUNC)
		return;
	if (fnmatch(fs->pattern, name, 0))
		return;
	for (int i = 0; i < fs->out->n; i++) {
		struct elfsym_func *have = fs->out->items[i];
		if (!strcmp(have->name, name))
			return; /* a local and a global of one name: the first wins */
	}
	struct elfsym_func *fn = ast_alloc(sizeof(*fn));
	fn->name = ast_strdup(name);
	fn->vaddr = sym->st_value;
	fn->size = sym->st_size;
	if (!elfsym_offset(fs->f, fn->vaddr, &fn->offset))
		return;
	vec_push(fs->out, fn);
}

static int by_name(const void *a, const void *b)
{
	const struct elfsym_func *x = *(struct elfsym_func *const *)a, *y = *(struct elfsym_func *const *)b;
	return strcmp(x->name, y->name);
}

void elfsym_functions(struct elfsym_file *f, const char *pattern, struct vec *out)
{
	struct func_search fs = {.f = f, .pattern = pattern, .out = out};
	each_symbol(f, match_function, &fs);
	if (out->n > 1)
		vec_sort(out, by_name);
}

/* Whether the file exports a function name at vaddr: a defined function symbol of .dynsym. */
bool elfsym_exported(struct elfsym_file *f, const char *name, uint64_t vaddr)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = find_section_type(f->elf, SHT_DYNSYM, &shdr);
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	size_t count = data && shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
	for (size_t i = 0; i < count; i++) {
		GElf_Sym sym;
		const char *sname;
		if (gelf_getsym(data, (int)i, &sym) && sym.st_shndx != SHN_UNDEF && sym.st_value == vaddr &&
		    (GELF_ST_TYPE(sym.st_info) == STT_FUNC || GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC) &&
		    (sname = elf_strptr(f->elf, shdr.sh_link, sym.st_name)) && !strcmp(sname, name))
			return true;
	}
	return false;
}

/*
 * The PLT: .rela.plt's R_X86_64_JUMP_SLOT relocations, in order, name
 * the entries of .plt.sec (the IBT layout: entry i at 16 * i) or, without
 * it, of .plt (entry i at 16 * (i + 1): entry 0 is the resolver's).
 */
void elfsym_plt(struct elfsym_file *f, const char *pattern, struct vec *out)
{
	GElf_Shdr rela, plt, dynsym;
	Elf_Scn *rscn = find_section_name(f, ".rela.plt", &rela);
	bool sec = find_section_name(f, ".plt.sec", &plt) != NULL;
	if (!rscn || (!sec && !find_section_name(f, ".plt", &plt)) || !rela.sh_entsize)
		return;
	Elf_Scn *dscn = elf_getscn(f->elf, rela.sh_link);
	Elf_Data *data = elf_getdata(rscn, NULL), *syms = dscn ? elf_getdata(dscn, NULL) : NULL;
	if (!data || !syms || !gelf_getshdr(dscn, &dynsym))
		return;
	for (size_t i = 0; i < rela.sh_size / rela.sh_entsize; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		const char *name;
		if (!gelf_getrela(data, (int)i, &r) || GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT ||
		    !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym) ||
		    !(name = elf_strptr(f->elf, dynsym.sh_link, sym.st_name)) || !*name || fnmatch(pattern, name, 0))
			continue;
		struct elfsym_func *fn = ast_alloc(sizeof(*fn));
		fn->name = ast_strdup(name);
		fn->vaddr = plt.sh_addr + 16 * (sec ? i : i + 1);
		fn->size = 16;
		if (fn->vaddr + 16 <= plt.sh_addr + plt.sh_size && elfsym_offset(f, fn->vaddr, &fn->offset))
			vec_push(out, fn);
	}
	if (out->n > 1)
		vec_sort(out, by_name);
}

static void add_symbol(GElf_Sym *sym, const char *name, void *arg)
{
	struct vec *out = arg;
	int type = GELF_ST_TYPE(sym->st_info);
	if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_OBJECT) || !sym->st_value)
		return;
	struct elfsym_func *fn = ast_alloc(sizeof(*fn));
	fn->name = ast_strdup(name);
	fn->vaddr = sym->st_value;
	fn->size = sym->st_size;
	vec_push(out, fn);
}

/* By address; at one address, a sized symbol first, then by name (a stable order). */
static int by_address(const void *a, const void *b)
{
	const struct elfsym_func *x = *(struct elfsym_func *const *)a, *y = *(struct elfsym_func *const *)b;
	if (x->vaddr != y->vaddr)
		return x->vaddr < y->vaddr ? -1 : 1;
	if ((x->size != 0) != (y->size != 0))
		return x->size ? -1 : 1;
	return strcmp(x->name, y->name);
}

void elfsym_symbols(struct elfsym_file *f, struct vec *out)
{
	each_symbol(f, add_symbol, out);
	if (out->n > 1)
		qsort(out->items, (size_t)out->n, sizeof(void *), by_address);
}

void elfsym_segments(struct elfsym_file *f, struct vec *out)
{
	size_t n;
	if (elf_getphdrnum(f->elf, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		struct elfsym_segment *seg = ast_alloc(sizeof(*seg));
		seg->offset = ph.p_offset;
		seg->vaddr = ph.p_vaddr;
		seg->filesz = ph.p_filesz;
		vec_push(out, seg);
	}
}

/* The DWARF register numbers a row's rules use, per machine. */
struct cfi_regs {
	unsigned sp, bp, ra;   /* stack pointer, frame pointer, return address column */
	bool ra_in_register;   /* the return address may stay in a register (arm64's link register) */
};
static const struct cfi_regs x86_64_regs = {7, 6, 16, false};
static const struct cfi_regs arm64_regs = {31, 29, 30, true};

/*
 * Where the caller's register r is: saved at CFA + *off (true), or left as
 * it was (*off 0, true: same_value, or undefined, which the unwinder then
 * carries on unchanged). False for any other rule.
 */
static bool saved_at(Dwarf_Frame *frame, unsigned r, int64_t *off)
{
	Dwarf_Op *ops, mem[3];
	size_t nops;
	*off = 0;
	if (dwarf_frame_register(frame, (int)r, mem, &ops, &nops) != 0)
		return false;
	if (nops == 2 && ops[0].atom == DW_OP_call_frame_cfa && ops[1].atom == DW_OP_plus_uconst) {
		*off = (int64_t)ops[1].number;
		return *off != 0;
	}
	return nops == 0;
}

/*
 * The rule of one CFI frame as a row at vaddr (reg NONE if it is not one
 * the runtime follows): the CFA is sp or the frame pointer plus an offset,
 * the return address saved at CFA + N (x86-64: always CFA - 8), or on
 * arm64 still in the link register (ra_offset 0: leaf code).
 */
static void cfi_row(Dwarf_Frame *frame, const struct cfi_regs *r, uint64_t vaddr, struct elfsym_cfi_row *row)
{
	Dwarf_Op *ops, mem[3];
	size_t nops;
	*row = (struct elfsym_cfi_row){.vaddr = vaddr, .reg = ELFSYM_CFA_NONE};
	/* libdw gives a register-plus-offset CFA as DW_OP_bregx REG, OFFSET. */
	if (dwarf_frame_cfa(frame, &ops, &nops) != 0 || nops != 1 || ops[0].atom != DW_OP_bregx ||
	    (ops[0].number != r->sp && ops[0].number != r->bp))
		return;
	enum elfsym_cfa_reg reg = ops[0].number == r->sp ? ELFSYM_CFA_SP : ELFSYM_CFA_BP;
	int64_t cfa_offset = (int64_t)ops[0].number2;
	/* The return address: undefined at the outermost frame. */
	if (dwarf_frame_register(frame, (int)r->ra, mem, &ops, &nops) != 0)
		return;
	bool outermost = nops == 0 && ops == mem;
	int64_t ra_offset = 0;
	if (!outermost && (!saved_at(frame, r->ra, &ra_offset) || (!ra_offset && !r->ra_in_register) ||
			   (!r->ra_in_register && ra_offset != -8)))
		return;
	/* The frame pointer: saved at CFA + N, or left as it was. */
	int64_t bp_offset;
	if (!saved_at(frame, r->bp, &bp_offset))
		return;
	row->reg = reg;
	row->cfa_offset = cfa_offset;
	row->outermost = outermost;
	row->bp_offset = bp_offset;
	row->ra_offset = outermost ? 0 : ra_offset;
}

static bool same_rule(const struct elfsym_cfi_row *a, const struct elfsym_cfi_row *b)
{
	return a->reg == b->reg && a->cfa_offset == b->cfa_offset && a->outermost == b->outermost &&
	       a->bp_offset == b->bp_offset && a->ra_offset == b->ra_offset;
}

/* Append a row unless it only repeats the rule of the last one. */
static void push_row(struct vec *out, const struct elfsym_cfi_row *row)
{
	if (out->n && same_rule(out->items[out->n - 1], row))
		return;
	struct elfsym_cfi_row *copy = ast_alloc(sizeof(*copy));
	*copy = *row;
	vec_push(out, copy);
}

bool elfsym_cfi_rows(struct elfsym_file *f, struct vec *out)
{
	/*
	 * .eh_frame first; .debug_frame for the code it does not cover (a
	 * program built with -fno-asynchronous-unwind-tables -g has
	 * .eh_frame only for the C library's start files).
	 */
	Dwarf_CFI *eh = dwarf_getcfi_elf(f->elf), *debug;
	if (!f->dwarf_tried) {
		f->dwarf_tried = true;
		f->dwarf = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
	}
	debug = f->dwarf ? dwarf_getcfi(f->dwarf) : NULL;
	if (!eh && !debug)
		return false;
	/* Function starts, to step over code without CFI quickly. */
	struct vec syms = {0};
	elfsym_symbols(f, &syms);
	size_t n;
	if (elf_getphdrnum(f->elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		uint64_t addr = ph.p_vaddr, end = ph.p_vaddr + ph.p_memsz;
		int next_sym = 0;
		while (addr < end) {
			Dwarf_Frame *frame;
			struct elfsym_cfi_row row;
			Dwarf_Addr start, stop;
			bool signal;
			if ((eh && dwarf_cfi_addrframe(eh, addr, &frame) == 0) ||
			    (debug && dwarf_cfi_addrframe(debug, addr, &frame) == 0)) {
				cfi_row(frame, f->ehdr.e_machine == EM_AARCH64 ? &arm64_regs : &x86_64_regs, addr, &row);
				dwarf_frame_info(frame, &start, &stop, &signal);
				free(frame);
				push_row(out, &row);
				addr = stop > addr ? stop : addr + 1;
				continue;
			}
			row = (struct elfsym_cfi_row){.vaddr = addr, .reg = ELFSYM_CFA_NONE};
			push_row(out, &row);
			while (next_sym < syms.n && ((struct elfsym_func *)syms.items[next_sym])->vaddr <= addr)
				next_sym++;
			addr = next_sym < syms.n ? ((struct elfsym_func *)syms.items[next_sym])->vaddr : end;
		}
		struct elfsym_cfi_row row = {.vaddr = end, .reg = ELFSYM_CFA_NONE};
		push_row(out, &row);
	}
	return true;
}

struct data_search {
	const char *name;
	uint64_t vaddr;
	bool found;
};

static void match_data(GElf_Sym *sym, const char *name, void *arg)
{
	struct data_search *ds = arg;
	if (!ds->found && GELF_ST_TYPE(sym->st_info) == STT_OBJECT && !strcmp(name, ds->name)) {
		ds->vaddr = sym->st_value;
		ds->found = true;
	}
}

bool elfsym_data_symbol(struct elfsym_file *f, const char *name, uint64_t *vaddr)
{
	struct data_search ds = {.name = name};
	each_symbol(f, match_data, &ds);
	*vaddr = ds.vaddr;
	return ds.found;
}

/* file matches want if want is empty, equal, or a suffix starting at a '/'. */
static bool file_matches(const char *file, const char *want)
{
	if (!*want)
		return true;
	size_t fl = strlen(file), wl = strlen(want);
	if (fl < wl || strcmp(file + fl - wl, want))
		return false;
	return fl == wl || file[fl - wl - 1] == '/';
}

bool elfsym_line_address(struct elfsym_file *f, const struct elfsym_func *fn, const char *file, int line,
			 uint64_t *vaddr, const char **err)
{
	if (!f->dwarf_tried) {
		f->dwarf = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
		f->dwarf_tried = true;
	}
	if (!f->dwarf) {
		*err = ast_printf("%s has no DWARF line table (build it with -g)", f->path);
		return false;
	}
	bool found = false;
	uint64_t best = 0;
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(f->dwarf, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nlines;
		if (dwarf_offdie(f->dwarf, off + hsize, &cu) && dwarf_getsrclines(&cu, &lines, &nlines) == 0) {
			for (size_t i = 0; i < nlines; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr addr;
				int lineno;
				bool stmt;
				const char *src = dwarf_linesrc(l, NULL, NULL);
				if (dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &lineno) || lineno != line ||
				    dwarf_linebeginstatement(l, &stmt) || !stmt || !src || !file_matches(src, file))
					continue;
				if (addr < fn->vaddr || (fn->size && addr >= fn->vaddr + fn->size))
					continue;
				if (!found || addr < best)
					best = addr;
				found = true;
			}
		}
		off = next;
	}
	if (!found) {
		*err = ast_printf("no code for line %d%s%s in function '%s' of %s", line, *file ? " of " : "", file,
				  fn->name, f->path);
		return false;
	}
	*vaddr = best;
	return true;
}

static int compare_line_vaddr(const void *a, const void *b)
{
	const struct elfsym_line *x = *(struct elfsym_line *const *)a, *y = *(struct elfsym_line *const *)b;
	return x->vaddr < y->vaddr ? -1 : x->vaddr > y->vaddr;
}

bool elfsym_lines(struct elfsym_file *f, int max_rows, struct vec *out, bool *truncated)
{
	if (!f->dwarf_tried) {
		f->dwarf = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
		f->dwarf_tried = true;
	}
	*truncated = false;
	if (!f->dwarf)
		return false;
	struct vec rows = {0};
	Dwarf_Off off = 0, next;
	size_t hsize;
	bool any = false;
	while (dwarf_nextcu(f->dwarf, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nlines;
		if (dwarf_offdie(f->dwarf, off + hsize, &cu) && dwarf_getsrclines(&cu, &lines, &nlines) == 0) {
			any = true;
			for (size_t i = 0; i < nlines; i++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, i);
				Dwarf_Addr addr;
				int lineno;
				bool end;
				if (dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &lineno) || dwarf_lineendsequence(l, &end))
					continue;
				struct elfsym_line *r = ast_alloc(sizeof(*r));
				r->vaddr = addr;
				r->line = end ? 0 : lineno;
				r->file = end ? NULL : dwarf_linesrc(l, NULL, NULL);
				if (r->line && !r->file)
					r->line = 0;
				vec_push(&rows, r);
			}
		}
		off = next;
	}
	qsort(rows.items, rows.n, sizeof(void *), compare_line_vaddr);
	for (int i = 0, j; i < rows.n; i = j) {
		/* Of the rows at one address, one with a line (a sequence's end may share it with the next's start). */
		struct elfsym_line *r = rows.items[i], *prev = out->n ? out->items[out->n - 1] : NULL;
		for (j = i + 1; j < rows.n && ((struct elfsym_line *)rows.items[j])->vaddr == r->vaddr; j++)
			if (!r->line)
				r = rows.items[j];
		if (prev && prev->line == r->line && (!r->line || !strcmp(prev->file, r->file)))
			continue;
		if (out->n >= max_rows) {
			*truncated = true;
			break;
		}
		vec_push(out, r);
	}
	return any;
}

/* Read an address of the note's class from p. */
static uint64_t note_address(const struct elfsym_file *f, const unsigned char *p)
{
	uint64_t v = 0;
	memcpy(&v, p, 8); /* x86-64 only (checked at open): little-endian, 8 bytes */
	(void)f;
	return v;
}

void elfsym_sdt_markers(struct elfsym_file *f, const char *provider, const char *name, struct vec *out)
{
	GElf_Shdr shdr, base_shdr;
	Elf_Scn *scn = find_section_name(f, ".note.stapsdt", &shdr);
	Elf_Scn *base = find_section_name(f, ".stapsdt.base", &base_shdr);
	if (!scn || shdr.sh_type != SHT_NOTE)
		return;
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t pos = 0, name_off, desc_off;
	GElf_Nhdr nh;
	while (data && (pos = gelf_getnote(data, pos, &nh, &name_off, &desc_off)) > 0) {
		const char *owner = (const char *)data->d_buf + name_off;
		const unsigned char *desc = (const unsigned char *)data->d_buf + desc_off;
		if (nh.n_type != 3 || nh.n_namesz != sizeof("stapsdt") || memcmp(owner, "stapsdt", 8) ||
		    nh.n_descsz < 3 * 8 + 3)
			continue;
		const char *strs = (const char *)desc + 3 * 8, *end = (const char *)desc + nh.n_descsz;
		const char *prov = strs;
		const char *mark = memchr(prov, '\0', (size_t)(end - prov));
		const char *args = mark ? memchr(mark + 1, '\0', (size_t)(end - mark - 1)) : NULL;
		if (!args || !memchr(args + 1, '\0', (size_t)(end - args - 1)))
			continue; /* malformed: strings not terminated inside the note */
		mark++;
		args++;
		if (fnmatch(provider, prov, 0) || fnmatch(name, mark, 0))
			continue;
		uint64_t pc = note_address(f, desc), recorded_base = note_address(f, desc + 8),
			 sem = note_address(f, desc + 16);
		if (base && recorded_base) {
			pc += base_shdr.sh_addr - recorded_base;
			if (sem)
				sem += base_shdr.sh_addr - recorded_base;
		}
		struct elfsym_sdt *m = ast_alloc(sizeof(*m));
		m->provider = ast_strdup(prov);
		m->name = ast_strdup(mark);
		m->args = ast_strdup(args);
		m->vaddr = pc;
		if (!elfsym_offset(f, pc, &m->offset))
			continue;
		if (sem && !elfsym_offset(f, sem, &m->semaphore))
			m->semaphore = 0;
		vec_push(out, m);
	}
}

void elfsym_needed(struct elfsym_file *f, struct vec *out, const char **runpath)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = find_section_type(f->elf, SHT_DYNAMIC, &shdr);
	*runpath = "";
	if (!scn)
		return;
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t count = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
	for (size_t i = 0; data && i < count; i++) {
		GElf_Dyn dyn;
		if (!gelf_getdyn(data, (int)i, &dyn))
			continue;
		const char *s = NULL;
		if (dyn.d_tag == DT_NEEDED || dyn.d_tag == DT_RUNPATH || dyn.d_tag == DT_RPATH)
			s = elf_strptr(f->elf, shdr.sh_link, dyn.d_un.d_val);
		if (!s)
			continue;
		if (dyn.d_tag == DT_NEEDED)
			vec_push(out, ast_strdup(s));
		else if (dyn.d_tag == DT_RUNPATH || !**runpath)
			*runpath = ast_strdup(s);
	}
}
