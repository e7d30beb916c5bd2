/*
 * dwarf.c - the debuginfo model from DWARF (elfutils libdw).
 *
 * Finding functions. The ELF symbol table is the index: a function pattern
 * is matched against FUNC symbols (compiler clones such as foo.isra.0 only
 * when the pattern itself has a '.'), and each match is tied to its DWARF
 * subprogram through .debug_aranges (dwarf_addrdie) and the subprogram whose
 * low_pc is the symbol's address. That avoids walking the whole tree of a
 * large image (the Debian cloud kernel's DWARF is ~500 MB) for the common
 * case. Inline instances have no symbol, so .inline walks the DIE tree of the
 * compilation units that can hold them (those whose name matches the file
 * pattern when one names a .c file, else all).
 *
 * Variables. The parameters and locals of a function (or inline instance)
 * whose scope covers the probe address, each with its DWARF location
 * evaluated at that address and reduced to struct dbg_loc. Supported
 * expressions: DW_OP_reg*, DW_OP_breg* (memory, or a value with
 * DW_OP_stack_value), DW_OP_fbreg (frame base = DW_OP_call_frame_cfa, which
 * is rsp + 8 at a function's entry and comes from the CFI elsewhere),
 * DW_OP_addr, constants with DW_OP_stack_value, DW_AT_const_value. Anything
 * else is reported as unavailable, naming the operation.
 *
 * Types are converted once per DIE (a hash table by DIE offset); members are
 * loaded on first use; a struct only declared in one compilation unit is
 * completed from its definition elsewhere, looked up by name.
 *
 * Kernel modules. A module's .ko (and its -dbg copy) is a relocatable object:
 * each section starts at 0 and the DWARF's addresses are relocations still to
 * be applied. libdwfl lays the sections out at distinct addresses and
 * relocates the DWARF (dwfl_report_offline), and the symbols are read through
 * it so they share that address space. Only differences of addresses leave
 * the compiler (a probe is a symbol plus an offset), so the layout itself is
 * never seen. Two things do not carry over: a static variable's address
 * (known only once the module is loaded: reported as unavailable) and
 * functions in .init.text (gone by the time a probe can attach: skipped).
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "debuginfo.h"
#include "kindex.h"

/* A function symbol of the ELF symbol table. */
struct elf_sym {
	const char *name;
	uint64_t addr;
	uint64_t size;
};

/* A hash table from DIE offsets to what was made of them (types, function indexes). */
struct die_table {
	uint64_t *keys;           /* DIE offset + 1 (0 = empty slot) */
	void **values;
	size_t cap, n;
};

/* The concrete functions of one compilation unit, by entry address. */
struct cu_funcs {
	size_t n;
	struct cu_func {
		uint64_t low;     /* entry address */
		uint64_t die;     /* subprogram DIE offset */
	} *items;
};

struct dwarf_state {
	Dwarf *dw;
	Elf *elf;
	int fd;
	Dwarf_CFI *cfi;            /* .debug_frame / .eh_frame, NULL if neither */
	bool arm64;                /* an AArch64 ELF (its register numbers) */
	Dwfl_Module *rel;          /* a relocatable object (kernel module) laid out by libdwfl, else NULL */
	struct elf_sym *syms;      /* FUNC symbols, by address */
	size_t nsyms;
	struct die_table types;     /* DIE offset -> struct dbg_type * */
	struct die_table cus;       /* CU DIE offset -> struct cu_funcs * */
	const struct kindex_subprogram *subs; /* the index's concrete subprograms by address, NULL without one */
	size_t nsubs;
	const char *info;          /* .debug_info where it lies in the file's read-only mapping, else NULL */
	uint64_t info_len;         /* its bytes */
	uint64_t walked;           /* CUs below this offset are known to libdw (reach_cu) */
	uint64_t released;         /* pages of .debug_info below this offset were given back */
};

static struct dbg_type *convert(struct debuginfo *di, Dwarf_Die *die);

/* ---- small helpers ---- */

/* How much of .debug_info reach_cu walks before it gives the pages behind it back. */
#define DWARF_RELEASE_STEP (2u << 20)

/* Give back the mapped pages of .debug_info in [st->released, to). */
static void release_info(struct dwarf_state *st, uint64_t to)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t a = ((uintptr_t)st->info + st->released + page - 1) & ~(page - 1);
	uintptr_t b = ((uintptr_t)st->info + to) & ~(page - 1);
	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
	st->released = to;
}

/*
 * Make libdw know the compilation unit holding DIE offset off. libdw learns
 * of units only in order, reading every unit's header before the one it is
 * asked for, and each header read maps the 64 KB around it (fault-around):
 * reaching a CU in the middle of vmlinux left ~30 MB of .debug_info
 * resident. The same walk is done here, and every DWARF_RELEASE_STEP the
 * pages already passed are given back. The mapping is private and read-only
 * (nothing ever writes to it), so a page touched again reads the same bytes
 * from the file.
 */
static void reach_cu(struct dwarf_state *st, uint64_t off)
{
	if (!st->info || off < st->walked || off >= st->info_len)
		return;
	Dwarf_Off cu = st->walked, next, last = cu;
	size_t hsize;
	Dwarf_Die die;
	while (cu <= off && dwarf_nextcu(st->dw, cu, &next, &hsize, NULL, NULL, NULL) == 0) {
		dwarf_offdie(st->dw, cu + hsize, &die); /* libdw learns of it */
		last = cu;
		cu = next;
		if (last - st->released >= DWARF_RELEASE_STEP)
			release_info(st, last);
	}
	st->walked = cu;
	if (last > st->released)
		release_info(st, last);
}

/* dwarf_offdie, reaching the DIE's compilation unit through reach_cu. */
static Dwarf_Die *offdie(struct dwarf_state *st, uint64_t off, Dwarf_Die *out)
{
	reach_cu(st, off);
	return dwarf_offdie(st->dw, off, out);
}

static void **table_slot(struct die_table *t, uint64_t key)
{
	if (t->n * 2 >= t->cap) {
		struct die_table bigger = {.cap = t->cap ? t->cap * 2 : 4096};
		bigger.keys = calloc(bigger.cap, sizeof(uint64_t));
		bigger.values = calloc(bigger.cap, sizeof(void *));
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->keys[i])
				continue;
			size_t j = (t->keys[i] * 0x9e3779b97f4a7c15ull) & (bigger.cap - 1);
			while (bigger.keys[j])
				j = (j + 1) & (bigger.cap - 1);
			bigger.keys[j] = t->keys[i];
			bigger.values[j] = t->values[i];
			bigger.n++;
		}
		free(t->keys);
		free(t->values);
		*t = bigger;
	}
	size_t j = ((key + 1) * 0x9e3779b97f4a7c15ull) & (t->cap - 1);
	while (t->keys[j] && t->keys[j] != key + 1)
		j = (j + 1) & (t->cap - 1);
	if (!t->keys[j]) {
		t->keys[j] = key + 1;
		t->n++;
	}
	return &t->values[j];
}

static bool attr_udata(Dwarf_Die *die, unsigned name, Dwarf_Word *out)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(die, name, &a) && dwarf_formudata(&a, out) == 0;
}

static bool type_of(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/* A source file name as the user writes it: relative to the compilation directory. */
static const char *relative_file(Dwarf_Die *cu, const char *file)
{
	if (!file)
		return NULL;
	Dwarf_Attribute a;
	const char *comp_dir = dwarf_attr(cu, DW_AT_comp_dir, &a) ? dwarf_formstring(&a) : NULL;
	size_t n = comp_dir ? strlen(comp_dir) : 0;
	if (n && !strncmp(file, comp_dir, n) && file[n] == '/')
		file += n + 1;
	while (!strncmp(file, "./", 2))
		file += 2;
	return ast_strdup(file);
}

/* file matches glob: the whole relative path, or its last components when glob has fewer. */
static bool file_matches(const char *glob, const char *file)
{
	if (!file)
		return false;
	if (dbg_glob_match(glob, file))
		return true;
	for (const char *p = file; (p = strchr(p, '/')) != NULL; p++)
		if (dbg_glob_match(glob, p + 1))
			return true;
	return false;
}

/* ---- types ---- */

static struct dbg_type *convert(struct debuginfo *di, Dwarf_Die *die)
{
	struct dwarf_state *st = di->priv;
	if (!die)
		return NULL;
	uint64_t off = dwarf_dieoffset(die);
	struct dbg_type **slot = (struct dbg_type **)table_slot(&st->types, off);
	if (*slot)
		return *slot;
	const char *name = dwarf_diename(die);
	Dwarf_Die target_die, *target = type_of(die, &target_die) ? &target_die : NULL;
	Dwarf_Word w;
	struct dbg_type *d;
	switch (dwarf_tag(die)) {
	case DW_TAG_base_type: {
		Dwarf_Word enc = 0;
		attr_udata(die, DW_AT_encoding, &enc);
		d = dbg_type_new(di, enc == DW_ATE_float ? DBG_FLOAT : DBG_INT, name, off);
		d->size = attr_udata(die, DW_AT_byte_size, &w) ? w : 0;
		d->is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
		d->is_char = d->size == 1 && name && strstr(name, "char");
		break;
	}
	case DW_TAG_enumeration_type:
		d = dbg_type_new(di, DBG_ENUM, name, off);
		d->size = attr_udata(die, DW_AT_byte_size, &w) ? w : 4;
		if (target) {
			Dwarf_Word enc = 0;
			attr_udata(target, DW_AT_encoding, &enc);
			d->is_signed = enc == DW_ATE_signed;
		}
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		d = *slot = dbg_type_new(di, DBG_PTR, NULL, off);
		d->size = 8;
		d->target = convert(di, target);
		return d;
	case DW_TAG_array_type: {
		/* int a[2][3]: subranges outermost first; build innermost first */
		d = *slot = dbg_type_new(di, DBG_ARRAY, NULL, off);
		struct dbg_type *elem = convert(di, target);
		Dwarf_Word counts[8];
		int ndims = 0;
		Dwarf_Die child;
		if (dwarf_child(die, &child) == 0) {
			do {
				if (dwarf_tag(&child) != DW_TAG_subrange_type || ndims == 8)
					continue;
				Dwarf_Word upper;
				if (attr_udata(&child, DW_AT_count, &w))
					counts[ndims++] = w;
				else if (attr_udata(&child, DW_AT_upper_bound, &upper))
					counts[ndims++] = upper + 1;
				else
					counts[ndims++] = 0;
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		for (int i = ndims - 1; i >= 1; i--) {
			struct dbg_type *inner = dbg_type_new(di, DBG_ARRAY, NULL, 0);
			inner->target = elem;
			inner->nelems = counts[i];
			inner->size = dbg_type_strip(elem) ? dbg_type_strip(elem)->size * counts[i] : 0;
			elem = inner;
		}
		d->target = elem;
		d->nelems = ndims ? counts[0] : 0;
		d->size = dbg_type_strip(elem) ? dbg_type_strip(elem)->size * d->nelems : 0;
		return d;
	}
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type: {
		d = dbg_type_new(di, dwarf_tag(die) == DW_TAG_union_type ? DBG_UNION : DBG_STRUCT, name, off);
		d->size = attr_udata(die, DW_AT_byte_size, &w) ? w : 0;
		d->incomplete = dwarf_hasattr(die, DW_AT_declaration);
		break;
	}
	case DW_TAG_typedef:
	case DW_TAG_const_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_atomic_type:
		d = *slot = dbg_type_new(di, dwarf_tag(die) == DW_TAG_typedef ? DBG_TYPEDEF
					 : dwarf_tag(die) == DW_TAG_const_type ? DBG_CONST : DBG_VOLATILE, name, off);
		d->target = convert(di, target);
		d->size = dbg_type_strip(d) ? dbg_type_strip(d)->size : 0;
		return d;
	case DW_TAG_subroutine_type:
		d = dbg_type_new(di, DBG_FUNC, NULL, off);
		break;
	default:
		d = dbg_type_new(di, DBG_VOID, NULL, off);
		break;
	}
	*slot = d;
	return d;
}

static struct dbg_type *dwarf_find_type(struct debuginfo *di, const char *name);

static void dwarf_load_members(struct debuginfo *di, struct dbg_type *d)
{
	struct dwarf_state *st = di->priv;
	if (d->incomplete) {
		/* a declaration: take the members of the definition, wherever it is */
		struct dbg_type *full = d->name ? dwarf_find_type(di, ast_printf("%s %s",
					d->kind == DBG_UNION ? "union" : "struct", d->name)) : NULL;
		if (full && !full->incomplete) {
			d->members = *dbg_type_members(full);
			d->size = full->size;
			d->incomplete = false;
		}
		return;
	}
	Dwarf_Die die, child;
	if (!offdie(st, d->handle, &die) || dwarf_child(&die, &child) != 0)
		return;
	do {
		if (d->kind == DBG_FUNC && dwarf_tag(&child) == DW_TAG_formal_parameter) {
			struct dbg_member *p = ast_alloc(sizeof(*p));
			const char *pname = dwarf_diename(&child);
			p->name = pname ? ast_strdup(pname) : NULL;
			Dwarf_Die pt;
			p->type = type_of(&child, &pt) ? convert(di, &pt) : NULL;
			vec_push(&d->members, p);
			continue;
		}
		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		struct dbg_member *m = ast_alloc(sizeof(*m));
		const char *name = dwarf_diename(&child);
		m->name = name ? ast_strdup(name) : NULL;
		Dwarf_Die t;
		m->type = type_of(&child, &t) ? convert(di, &t) : NULL;
		Dwarf_Word w;
		uint64_t byte_off = attr_udata(&child, DW_AT_data_member_location, &w) ? w : 0;
		Dwarf_Word bits;
		if (attr_udata(&child, DW_AT_bit_size, &bits)) {
			struct dbg_type *unit = dbg_type_strip(m->type);
			uint64_t unit_bits = unit && unit->size ? unit->size * 8 : 32;
			uint64_t bit;
			Dwarf_Word old;
			if (attr_udata(&child, DW_AT_data_bit_offset, &w))
				bit = w;
			else if (attr_udata(&child, DW_AT_bit_offset, &old)) /* DWARF 2/3: from the MSB */
				bit = byte_off * 8 + unit_bits - old - bits;
			else
				bit = byte_off * 8;
			m->offset = (bit / unit_bits) * (unit_bits / 8);
			m->bit_offset = (int)(bit % unit_bits);
			m->bit_size = (int)bits;
		} else {
			m->offset = byte_off;
		}
		vec_push(&d->members, m);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* "struct x", "union x", "enum x" or a plain name: the first definition among the top-level DIEs. */
static struct dbg_type *dwarf_find_type(struct debuginfo *di, const char *name)
{
	struct dwarf_state *st = di->priv;
	int tags[4] = {0};
	if (!strncmp(name, "struct ", 7)) {
		name += 7;
		tags[0] = DW_TAG_structure_type;
		tags[1] = DW_TAG_class_type;
	} else if (!strncmp(name, "union ", 6)) {
		name += 6;
		tags[0] = DW_TAG_union_type;
	} else if (!strncmp(name, "enum ", 5)) {
		name += 5;
		tags[0] = DW_TAG_enumeration_type;
	} else {
		tags[0] = DW_TAG_structure_type;
		tags[1] = DW_TAG_union_type;
		tags[2] = DW_TAG_typedef;
		tags[3] = DW_TAG_base_type;
	}
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct dbg_type *declared = NULL;
	while (dwarf_nextcu(st->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		if (offdie(st, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) {
			do {
				int tag = dwarf_tag(&child);
				if (tag != tags[0] && tag != tags[1] && tag != tags[2] && tag != tags[3])
					continue;
				const char *n = dwarf_diename(&child);
				if (!n || strcmp(n, name))
					continue;
				if (dwarf_hasattr(&child, DW_AT_declaration)) {
					if (!declared)
						declared = convert(di, &child);
					continue;
				}
				return convert(di, &child);
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	return declared;
}

/* ---- symbols ---- */

static int compare_sym_addr(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void add_symbol(struct dwarf_state *st, size_t *cap, const char *name, uint64_t addr, uint64_t size)
{
	if (st->nsyms == *cap) {
		*cap = *cap ? *cap * 2 : 4096;
		st->syms = realloc(st->syms, *cap * sizeof(*st->syms));
	}
	st->syms[st->nsyms++] = (struct elf_sym){name, addr, size};
}

/* A relocatable object's FUNC symbols at their libdwfl addresses, but none in .init.text. */
static void read_rel_symbols(struct dwarf_state *st, size_t *cap)
{
	int n = dwfl_module_getsymtab(st->rel);
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		Elf *elf;
		Dwarf_Addr bias;
		const char *name = dwfl_module_getsym_info(st->rel, i, &sym, &addr, &shndx, &elf, &bias);
		size_t shstrndx;
		GElf_Shdr sh;
		if (!name || !*name || GELF_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_shndx == SHN_UNDEF ||
		    elf_getshdrstrndx(elf, &shstrndx) != 0 || !gelf_getshdr(elf_getscn(elf, shndx), &sh))
			continue;
		const char *section = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!section || !strncmp(section, ".init", 5))
			continue;
		add_symbol(st, cap, name, addr - bias, sym.st_size);
	}
}

/* A linked image's FUNC symbols (vmlinux, a program), at their link-time addresses. */
static void read_elf_symbols(struct dwarf_state *st, size_t *cap)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(st->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 0; data && i < n; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value)
				continue;
			const char *name = elf_strptr(st->elf, sh.sh_link, sym.st_name);
			if (!name || !*name)
				continue;
			add_symbol(st, cap, name, sym.st_value, sym.st_size);
		}
	}
}

static void read_symbols(struct dwarf_state *st)
{
	size_t cap = 0;
	if (st->rel)
		read_rel_symbols(st, &cap);
	else
		read_elf_symbols(st, &cap);
	if (st->nsyms > 1)
		qsort(st->syms, st->nsyms, sizeof(*st->syms), compare_sym_addr);
}

/* The symbol at exactly addr (the first by name order among aliases), or NULL. */
static const struct elf_sym *symbol_at(struct dwarf_state *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nsyms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (st->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < st->nsyms && st->syms[lo].addr == addr ? &st->syms[lo] : NULL;
}

/* The symbol containing addr. */
static const struct elf_sym *symbol_containing(struct dwarf_state *st, uint64_t addr)
{
	size_t lo = 0, hi = st->nsyms;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (st->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct elf_sym *s = &st->syms[lo - 1];
	return addr < s->addr + (s->size ? s->size : 1) ? s : NULL;
}

/* ---- functions ---- */

static int collect_funcs_cb(Dwarf_Die *die, void *arg)
{
	struct cu_funcs *cf = arg;
	Dwarf_Addr low;
	if (dwarf_lowpc(die, &low) == 0) {
		if ((cf->n & (cf->n + 1)) == 0 || !cf->n)
			cf->items = realloc(cf->items, (cf->n + 1) * 2 * sizeof(*cf->items));
		cf->items[cf->n++] = (struct cu_func){low, dwarf_dieoffset(die)};
	}
	return DWARF_CB_OK;
}

static int compare_cu_func(const void *a, const void *b)
{
	const struct cu_func *x = a, *y = b;
	return x->low < y->low ? -1 : x->low > y->low;
}

/*
 * The index's subprogram that addr is the entry of (exact) or lies in
 * (!exact), the first in DWARF order of those at one address; NULL if none
 * (or no index).
 */
static const struct kindex_subprogram *indexed_subprogram(const struct dwarf_state *st, uint64_t addr, bool exact)
{
	size_t lo = 0, hi = st->nsubs;
	while (lo < hi) { /* the first entry above addr */
		size_t mid = (lo + hi) / 2;
		if (st->subs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct kindex_subprogram *s = &st->subs[lo - 1];
	while (s > st->subs && s[-1].addr == s->addr)
		s--;
	return s->addr == addr || (!exact && addr < s->end) ? s : NULL;
}

/*
 * The compilation unit holding the code at addr: from the index when it
 * has the function, else through .debug_aranges (which libdw reads and
 * sorts whole on first use: the index spares a one-probe script that).
 */
static bool cu_at(struct dwarf_state *st, uint64_t addr, Dwarf_Die *cu)
{
	const struct kindex_subprogram *s = indexed_subprogram(st, addr, false);
	if (s)
		return offdie(st, s->cu, cu) != NULL;
	return dwarf_addrdie(st->dw, addr, cu) != NULL;
}

/* The compilation unit of a function's DIE (handle), or of its address. */
static bool func_cu(struct dwarf_state *st, Dwarf_Die *die, uint64_t addr, Dwarf_Die *cu)
{
	uint8_t address_size, offset_size;
	return dwarf_diecu(die, cu, &address_size, &offset_size) != NULL || cu_at(st, addr, cu);
}

/* The subprogram DIE whose entry is addr: from the index, else through the (cached) table of its CU. */
static bool subprogram_at(struct dwarf_state *st, uint64_t addr, Dwarf_Die *cu, Dwarf_Die *out)
{
	const struct kindex_subprogram *s = indexed_subprogram(st, addr, true);
	if (s)
		return offdie(st, s->cu, cu) && offdie(st, s->die, out);
	if (!dwarf_addrdie(st->dw, addr, cu))
		return false;
	struct cu_funcs **slot = (struct cu_funcs **)table_slot(&st->cus, dwarf_dieoffset(cu));
	if (!*slot) {
		*slot = ast_alloc(sizeof(**slot));
		dwarf_getfuncs(cu, collect_funcs_cb, *slot, 0);
		if ((*slot)->n > 1)
			qsort((*slot)->items, (*slot)->n, sizeof(struct cu_func), compare_cu_func);
	}
	struct cu_funcs *cf = *slot;
	size_t lo = 0, hi = cf->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (cf->items[mid].low < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cf->n && cf->items[lo].low == addr && offdie(st, cf->items[lo].die, out);
}

/*
 * A function whose code has no concrete DWARF instance (GCC sometimes keeps
 * only the abstract subprogram of a function it also emitted out of line):
 * its declaration in the CU, found by name; its parameters then have no
 * locations, and are placed by the calling convention at the entry.
 */
static bool abstract_subprogram(Dwarf_Die *cu, const char *name, Dwarf_Die *out)
{
	Dwarf_Die child;
	if (dwarf_child(cu, &child) != 0)
		return false;
	do {
		const char *n = dwarf_tag(&child) == DW_TAG_subprogram ? dwarf_diename(&child) : NULL;
		if (n && !strcmp(n, name)) {
			*out = child;
			return true;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

static struct dbg_func *make_func(struct debuginfo *di, Dwarf_Die *cu, Dwarf_Die *die, const char *name)
{
	struct dbg_func *f = ast_alloc(sizeof(*f));
	f->name = ast_strdup(name);
	f->di = di;
	if (die) {
		f->handle = dwarf_dieoffset(die);
		f->file = relative_file(cu, dwarf_decl_file(die));
		dwarf_decl_line(die, &f->line);
		Dwarf_Die t;
		f->ret = type_of(die, &t) ? convert(di, &t) : NULL;
	}
	return f;
}

/* Inline instances of functions matching pattern in the DIE tree under die. */
static void walk_inlines(struct debuginfo *di, Dwarf_Die *cu, Dwarf_Die *die, Dwarf_Die *outer,
			 const char *pattern, const char *file_glob, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Die child;
	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		Dwarf_Addr entry;
		if (tag == DW_TAG_inlined_subroutine) {
			const char *name = dwarf_diename(&child);
			if (name && dbg_glob_match(pattern, name) && outer && dwarf_entrypc(&child, &entry) == 0) {
				Dwarf_Addr outer_low;
				const struct elf_sym *sym = dwarf_lowpc(outer, &outer_low) == 0 ? symbol_containing(st, entry) : NULL;
				struct dbg_func *f = make_func(di, cu, &child, name);
				if (sym && (!file_glob || file_matches(file_glob, f->file))) {
					f->inlined = true;
					f->addr = entry;
					f->symbol = sym->name;
					f->symbol_addr = sym->addr;
					vec_push(out, f);
				}
			}
			walk_inlines(di, cu, &child, outer, pattern, file_glob, out);
		} else if (tag == DW_TAG_subprogram) {
			Dwarf_Addr low;
			walk_inlines(di, cu, &child, dwarf_lowpc(&child, &low) == 0 ? &child : outer, pattern, file_glob, out);
		} else if (tag == DW_TAG_lexical_block) {
			walk_inlines(di, cu, &child, outer, pattern, file_glob, out);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* Note every inline instance under die (as walk_inlines reaches them) in t. */
static void note_inlines(Dwarf_Die *die, uint64_t cu, struct kindex_inlines *t)
{
	Dwarf_Die child;
	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_inlined_subroutine) {
			const char *name = dwarf_diename(&child);
			if (name)
				kindex_inline_note(t, name, cu);
		}
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block)
			note_inlines(&child, cu, t);
	} while (dwarf_siblingof(&child, &child) == 0);
}

/* Lay the typedefs out as KINDEX_TYPEDEFS and KINDEX_TYPEDEF_NAMES. */
static void index_typedefs(struct kindex_writer *w, const struct vec *typedefs)
{
	size_t len = 1;
	for (int i = 0; i < typedefs->n; i++)
		len += strlen((const char *)(uintptr_t)((struct kindex_typedef *)typedefs->items[i])->name) + 1;
	char *names = calloc(1, len);
	struct kindex_typedef *tds = calloc((size_t)typedefs->n + 1, sizeof(*tds));
	if (!names || !tds)
		abort();
	size_t at = 1;
	for (int i = 0; i < typedefs->n; i++) {
		const struct kindex_typedef *td = typedefs->items[i];
		const char *name = (const char *)(uintptr_t)td->name;
		tds[i] = (struct kindex_typedef){at, td->die};
		strcpy(names + at, name);
		at += strlen(name) + 1;
	}
	kindex_add(w, KINDEX_TYPEDEFS, tds, (size_t)typedefs->n * sizeof(*tds));
	kindex_add(w, KINDEX_TYPEDEF_NAMES, names, len);
	free(names);
	free(tds);
}

static int compare_subprogram(const void *a, const void *b)
{
	const struct kindex_subprogram *x = *(const struct kindex_subprogram *const *)a;
	const struct kindex_subprogram *y = *(const struct kindex_subprogram *const *)b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->die < y->die ? -1 : x->die > y->die; /* DWARF order at one address */
}

/* Lay the concrete subprograms out as KINDEX_SUBPROGRAMS, by address. */
static void index_subprograms(struct kindex_writer *w, struct vec *subs)
{
	qsort(subs->items, (size_t)subs->n, sizeof(void *), compare_subprogram);
	struct kindex_subprogram *out = calloc((size_t)subs->n + 1, sizeof(*out));
	if (!out)
		abort();
	for (int i = 0; i < subs->n; i++)
		out[i] = *(struct kindex_subprogram *)subs->items[i];
	kindex_add(w, KINDEX_SUBPROGRAMS, out, (size_t)subs->n * sizeof(*out));
	free(out);
}

bool dbg_dwarf_index(struct debuginfo *di, struct kindex_writer *w)
{
	struct dwarf_state *st = di->priv;
	struct kindex_inlines t = {0};
	Dwarf_Off off = 0, next;
	size_t hsize;
	Elf_Data *info = NULL;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	if (elf_getshdrstrndx(st->elf, &shstrndx) == 0)
		while ((scn = elf_nextscn(st->elf, scn))) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(st->elf, shstrndx, sh.sh_name) : NULL;
			if (name && !strcmp(name, ".debug_info"))
				info = elf_rawdata(scn, NULL);
		}
	uint64_t total = info ? info->d_size : 0;
	struct strmap typedef_seen = {0};
	struct vec typedefs = {0}; /* of struct kindex_typedef * with name a const char * until laid out */
	struct vec subs = {0};     /* of struct kindex_subprogram * */
	while (dwarf_nextcu(st->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		if (offdie(st, off + hsize, &cu))
			note_inlines(&cu, off + hsize, &t);
		if (offdie(st, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) {
			do { /* what dwarf_typedefs finds: the first top-level typedef of each name */
				Dwarf_Addr low, high;
				if (dwarf_tag(&child) == DW_TAG_subprogram && dwarf_lowpc(&child, &low) == 0 && low) {
					struct kindex_subprogram *sp = ast_alloc(sizeof(*sp));
					*sp = (struct kindex_subprogram){low, dwarf_highpc(&child, &high) == 0 && high > low ? high : low + 1,
									 dwarf_dieoffset(&child), off + hsize};
					vec_push(&subs, sp);
				}
				const char *n = dwarf_tag(&child) == DW_TAG_typedef ? dwarf_diename(&child) : NULL;
				if (!n || strmap_get(&typedef_seen, n))
					continue;
				*strmap_slot(&typedef_seen, n) = (void *)1;
				struct kindex_typedef *td = ast_alloc(sizeof(*td));
				td->name = (uint64_t)(uintptr_t)n;
				td->die = dwarf_dieoffset(&child);
				vec_push(&typedefs, td);
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		kindex_progress(w, off, total);
		off = next;
	}
	kindex_add_inlines(w, &t);
	index_typedefs(w, &typedefs);
	index_subprograms(w, &subs);
	/* the symbol table, sorted as read_symbols sorts it */
	struct kindex_symbol *syms = calloc(st->nsyms + 1, sizeof(*syms));
	size_t names_len = 0;
	for (size_t i = 0; i < st->nsyms; i++)
		names_len += strlen(st->syms[i].name) + 1;
	char *names = malloc(names_len + 1);
	if (!syms || !names)
		abort();
	size_t at = 0;
	for (size_t i = 0; i < st->nsyms; i++) {
		syms[i] = (struct kindex_symbol){at, st->syms[i].addr, st->syms[i].size};
		strcpy(names + at, st->syms[i].name);
		at += strlen(st->syms[i].name) + 1;
	}
	kindex_add(w, KINDEX_SYMBOLS, syms, st->nsyms * sizeof(*syms));
	kindex_add(w, KINDEX_SYMBOL_NAMES, names, names_len);
	free(syms);
	free(names);
	return true;
}

/* The symbol table from index k; false if it has none (or one that does not hold together). */
static bool indexed_symbols(struct dwarf_state *st, const struct kindex *k)
{
	const void *syms_v, *names_v;
	size_t syms_len, names_len;
	if (!kindex_section(k, KINDEX_SYMBOLS, &syms_v, &syms_len) ||
	    !kindex_section(k, KINDEX_SYMBOL_NAMES, &names_v, &names_len) || !names_len ||
	    ((const char *)names_v)[names_len - 1])
		return false;
	const struct kindex_symbol *syms = syms_v;
	size_t n = syms_len / sizeof(*syms);
	st->syms = malloc((n + 1) * sizeof(*st->syms));
	if (!st->syms)
		abort();
	for (size_t i = 0; i < n; i++) {
		if (syms[i].name >= names_len) {
			free(st->syms);
			st->syms = NULL;
			return false;
		}
		st->syms[i] = (struct elf_sym){(const char *)names_v + syms[i].name, syms[i].addr, syms[i].size};
	}
	st->nsyms = n;
	return true;
}

/*
 * Whether any source file of the CU (its line table's list: the .c file and
 * every header it includes) matches file_glob. A function is declared in
 * one of them, so a CU with none cannot hold a match (a directory's
 * wildcard, kernel.function("*@fs/..."), then indexes the DIEs of that directory's CUs only).
 */
static bool cu_has_file(Dwarf_Die *cu, const char *file_glob)
{
	Dwarf_Files *files;
	size_t n;
	if (dwarf_getsrcfiles(cu, &files, &n) != 0)
		return true; /* cannot tell: look inside */
	for (size_t i = 0; i < n; i++)
		if (file_matches(file_glob, relative_file(cu, dwarf_filesrc(files, i, NULL, NULL))))
			return true;
	return false;
}

static void dwarf_functions(struct debuginfo *di, const char *pattern, const char *file_glob, bool want_inline,
			    struct vec *out)
{
	struct dwarf_state *st = di->priv;
	if (want_inline) {
		/* a .c file pattern limits the walk to that compilation unit */
		bool c_file = file_glob && strlen(file_glob) > 2 && !strcmp(file_glob + strlen(file_glob) - 2, ".c");
		struct vec cus = {0};
		if (kindex_inline_cus(di->index, pattern, &cus)) {
			/* the index names the CUs holding an instance: walk only those, in the same order */
			for (int i = 0; i < cus.n; i++) {
				Dwarf_Die cu;
				if (offdie(st, (Dwarf_Off)(uintptr_t)cus.items[i], &cu) &&
				    (!c_file || file_matches(file_glob, relative_file(&cu, dwarf_diename(&cu)))))
					walk_inlines(di, &cu, &cu, NULL, pattern, file_glob, out);
			}
			return;
		}
		Dwarf_Off off = 0, next;
		size_t hsize;
		while (dwarf_nextcu(st->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
			Dwarf_Die cu;
			if (offdie(st, off + hsize, &cu)) {
				const char *cu_name = relative_file(&cu, dwarf_diename(&cu));
				if (!c_file || file_matches(file_glob, cu_name))
					walk_inlines(di, &cu, &cu, NULL, pattern, file_glob, out);
			}
			off = next;
		}
		return;
	}
	bool glob = dbg_is_glob(pattern);
	bool clones = strchr(pattern, '.') != NULL;
	/*
	 * A .c file pattern (over a whole directory, say) first rules out, through the cheap
	 * address-to-CU lookup, every function whose compilation unit does not
	 * match: a function declared in a .c file is compiled in that file's
	 * CU, and indexing the DIEs of every CU of the kernel is what made a
	 * wildcard over a directory slow. Each CU is named once (cu_ok).
	 */
	bool c_file = file_glob && strlen(file_glob) > 2 && !strcmp(file_glob + strlen(file_glob) - 2, ".c");
	struct die_table cu_ok = {0}; /* CU DIE offset -> (void *)1 matches, (void *)2 does not */
	for (size_t i = 0; i < st->nsyms; i++) {
		const struct elf_sym *sym = &st->syms[i];
		if (glob ? !dbg_glob_match(pattern, sym->name) : strcmp(pattern, sym->name))
			continue;
		if (glob && !clones && strchr(sym->name, '.'))
			continue;
		/* aliases at one address: one function */
		if (out->n && ((struct dbg_func *)out->items[out->n - 1])->addr == sym->addr)
			continue;
		Dwarf_Die cu, sub;
		if (file_glob && cu_at(st, sym->addr, &cu)) {
			void **ok = table_slot(&cu_ok, dwarf_dieoffset(&cu));
			if (!*ok)
				*ok = (c_file ? file_matches(file_glob, relative_file(&cu, dwarf_diename(&cu)))
					      : cu_has_file(&cu, file_glob)) ? (void *)1 : (void *)2;
			if (*ok == (void *)2)
				continue;
		}
		bool found = subprogram_at(st, sym->addr, &cu, &sub);
		if (!found && cu_at(st, sym->addr, &cu))
			found = abstract_subprogram(&cu, sym->name, &sub);
		struct dbg_func *f = make_func(di, &cu, found ? &sub : NULL, sym->name);
		if (file_glob && !file_matches(file_glob, f->file))
			continue;
		f->symbol = sym->name;
		f->addr = f->symbol_addr = sym->addr;
		f->exported = dbg_is_exported(di, sym->name);
		vec_push(out, f);
	}
	free(cu_ok.keys);
	free(cu_ok.values);
}

/* ---- variables ---- */

/* The CFA at pc as register + offset; false if the CFI does not say. */
static bool frame_cfa(struct dwarf_state *st, uint64_t pc, int *reg, int64_t *off)
{
	Dwarf_Frame *frame;
	Dwarf_Op *ops;
	size_t nops;
	if (!st->cfi || dwarf_cfi_addrframe(st->cfi, pc, &frame) != 0)
		return false;
	bool ok = dwarf_frame_cfa(frame, &ops, &nops) == 0 && nops == 1 &&
		  ((ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) || ops[0].atom == DW_OP_bregx);
	if (ok && ops[0].atom == DW_OP_bregx) {
		/* how libdw spells a DW_CFA_def_cfa rule (register, offset) */
		*reg = (int)ops[0].number;
		*off = (int64_t)ops[0].number2;
	} else if (ok) {
		*reg = ops[0].atom - DW_OP_breg0;
		*off = (int64_t)ops[0].number;
	}
	free(frame);
	return ok;
}

static const char *op_name(unsigned atom)
{
	const char *name = NULL;
	switch (atom) {
	case DW_OP_piece: name = "DW_OP_piece"; break;
	case DW_OP_entry_value: name = "DW_OP_entry_value"; break;
	case DW_OP_GNU_entry_value: name = "DW_OP_GNU_entry_value"; break;
	case DW_OP_implicit_value: name = "DW_OP_implicit_value"; break;
	case DW_OP_implicit_pointer: name = "DW_OP_implicit_pointer"; break;
	case DW_OP_GNU_implicit_pointer: name = "DW_OP_GNU_implicit_pointer"; break;
	default: return ast_printf("DW_OP 0x%x", atom);
	}
	return name;
}

/* Reduce one location expression to a dbg_loc. fn is the subprogram (for the frame base). */
static struct dbg_loc reduce(struct dwarf_state *st, Dwarf_Op *ops, size_t n, uint64_t pc, uint64_t entry)
{
	struct dbg_loc loc = {.kind = DBG_LOC_NONE, .reg = -1};
	if (n == 0) {
		loc.why = "optimized out";
		return loc;
	}
	unsigned a = ops[0].atom;
	bool stack_value = n == 2 && ops[1].atom == DW_OP_stack_value;
	if (n == 1 && a >= DW_OP_reg0 && a <= DW_OP_reg31)
		return (struct dbg_loc){.kind = DBG_LOC_REG, .reg = (int)(a - DW_OP_reg0)};
	if (n == 1 && a == DW_OP_regx)
		return (struct dbg_loc){.kind = DBG_LOC_REG, .reg = (int)ops[0].number};
	if (a >= DW_OP_breg0 && a <= DW_OP_breg31 && (n == 1 || stack_value)) {
		loc.reg = (int)(a - DW_OP_breg0);
		loc.offset = (int64_t)ops[0].number;
		loc.kind = stack_value ? DBG_LOC_REG : DBG_LOC_MEMORY;
		loc.value_is_sum = stack_value;
		return loc;
	}
	if (a == DW_OP_fbreg && n == 1) {
		/* kernel and user code alike use DW_AT_frame_base = DW_OP_call_frame_cfa */
		int reg;
		int64_t off;
		if (pc == entry) {
			/* at the first instruction the CFA is just above the return address (x86-64), or sp (arm64: bl pushes nothing) */
			bool arm64 = st->arm64;
			reg = arm64 ? 31 : DBG_REG_SP;
			off = arm64 ? 0 : 8;
		} else if (!frame_cfa(st, pc, &reg, &off)) {
			loc.why = "its frame base is not known at this address (no CFI)";
			return loc;
		}
		loc.kind = DBG_LOC_MEMORY;
		loc.reg = reg;
		loc.offset = off + (int64_t)ops[0].number;
		return loc;
	}
	if (a == DW_OP_addr && n == 1 && st->rel) {
		loc.why = "it is a static variable of a module, whose address is known only once the module is loaded";
		return loc;
	}
	if (a == DW_OP_addr && n == 1)
		return (struct dbg_loc){.kind = DBG_LOC_MEMORY, .reg = -1, .offset = (int64_t)ops[0].number, .absolute = true};
	if (stack_value && ((a >= DW_OP_lit0 && a <= DW_OP_lit31) || a == DW_OP_constu || a == DW_OP_consts ||
			    (a >= DW_OP_const1u && a <= DW_OP_const8s))) {
		int64_t v = a >= DW_OP_lit0 && a <= DW_OP_lit31 ? (int64_t)(a - DW_OP_lit0) : (int64_t)ops[0].number;
		return (struct dbg_loc){.kind = DBG_LOC_CONST, .offset = v};
	}
	for (size_t i = 0; i < n; i++) {
		unsigned op = ops[i].atom;
		if (op == DW_OP_piece || op == DW_OP_entry_value || op == DW_OP_GNU_entry_value ||
		    op == DW_OP_implicit_value || op == DW_OP_implicit_pointer || op == DW_OP_GNU_implicit_pointer) {
			loc.why = ast_printf("its location uses %s, which is not supported", op_name(op));
			return loc;
		}
	}
	loc.why = ast_printf("its location expression (%zu operations, starting with %s) is not supported", n,
			     op_name(a));
	return loc;
}

static struct dbg_loc locate(struct dwarf_state *st, Dwarf_Die *var, uint64_t pc, uint64_t entry)
{
	Dwarf_Attribute a;
	if (dwarf_attr_integrate(var, DW_AT_const_value, &a)) {
		Dwarf_Sword v;
		if (dwarf_formsdata(&a, &v) == 0)
			return (struct dbg_loc){.kind = DBG_LOC_CONST, .offset = v};
	}
	if (!dwarf_attr(var, DW_AT_location, &a))
		return (struct dbg_loc){.kind = DBG_LOC_NONE, .reg = -1, .why = "optimized out"};
	Dwarf_Op *ops;
	size_t n;
	int got = dwarf_getlocation_addr(&a, pc, &ops, &n, 1);
	if (got <= 0)
		return (struct dbg_loc){.kind = DBG_LOC_NONE, .reg = -1, .why = "not available at this address"};
	return reduce(st, ops, n, pc, entry);
}

/* Variables of the scope die (and of the nested lexical blocks covering pc). */
static void collect(struct debuginfo *di, Dwarf_Die *scope, uint64_t pc, uint64_t entry, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Die child;
	if (dwarf_child(scope, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) {
			const char *name = dwarf_diename(&child);
			if (!name)
				continue;
			struct dbg_var *v = ast_alloc(sizeof(*v));
			v->name = ast_strdup(name);
			Dwarf_Die t;
			v->type = type_of(&child, &t) ? convert(di, &t) : NULL;
			v->is_param = tag == DW_TAG_formal_parameter;
			v->loc = locate(st, &child, pc, entry);
			/* a local declared elsewhere (extern, static in an outer file scope) has no location: skip it */
			if (!v->is_param && dwarf_hasattr(&child, DW_AT_declaration))
				continue;
			vec_push(out, v);
		} else if (tag == DW_TAG_lexical_block && dwarf_haspc(&child, pc) > 0) {
			collect(di, &child, pc, entry, out);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static void dwarf_variables(struct debuginfo *di, struct dbg_func *f, uint64_t pc, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Die die;
	if (!f->handle || !offdie(st, f->handle, &die))
		return;
	Dwarf_Addr low;
	/*
	 * An arm64 kernel's functions begin with the NOPs ftrace patches (-fpatchable-function-entry):
	 * the symbol, and the probe, are on them, DWARF's low_pc after them. They change no register,
	 * so the locations at low_pc hold there.
	 */
	uint64_t at = pc;
	if (pc == f->addr && dwarf_tag(&die) == DW_TAG_subprogram && dwarf_lowpc(&die, &low) == 0 && low > pc &&
	    low - pc <= 16)
		at = low;
	collect(di, &die, at, at == pc ? f->addr : at, out);
	if (dwarf_tag(&die) == DW_TAG_subprogram && dwarf_lowpc(&die, &low) != 0 && !dwarf_hasattr(&die, DW_AT_ranges)) {
		/* only the abstract instance: no locations */
		if (pc == f->addr)
			dbg_abi_locate(di, out);
	}
}

/*
 * Where an unoptimized function's body starts. GCC at -O0 gives each
 * parameter and local one location, a slot in the frame (DW_OP_fbreg),
 * which the prologue fills from the argument registers: at the entry it
 * holds garbage. Then the body starts at the line table's prologue_end
 * mark if there is one (clang), else at the function's second line-table
 * row, the first statement of its body (what GCC emits). Optimized code
 * has location lists, right at every address, so it keeps its entry,
 * unless always (--prologue-searching=always, -P) asks for the body start.
 */
static uint64_t dwarf_prologue_end(struct debuginfo *di, struct dbg_func *f, bool always)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Die die, cu, child;
	if (!f->handle || !offdie(st, f->handle, &die) || !func_cu(st, &die, f->addr, &cu))
		return f->addr;
	bool slots = false;
	if (dwarf_child(&die, &child) == 0) {
		do {
			int tag = dwarf_tag(&child);
			Dwarf_Attribute a;
			Dwarf_Op *ops;
			size_t n;
			if ((tag == DW_TAG_formal_parameter || tag == DW_TAG_variable) &&
			    dwarf_attr(&child, DW_AT_location, &a) && dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 &&
			    ops[0].atom == DW_OP_fbreg)
				slots = true;
		} while (!slots && dwarf_siblingof(&child, &child) == 0);
	}
	const struct elf_sym *sym = symbol_at(st, f->addr);
	Dwarf_Lines *lines;
	size_t nlines;
	if ((!slots && !always) || !sym || dwarf_getsrclines(&cu, &lines, &nlines) != 0)
		return f->addr;
	uint64_t marked = 0, second = 0;
	for (size_t j = 0; j < nlines; j++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, j);
		Dwarf_Addr addr;
		bool flag;
		if (dwarf_lineaddr(l, &addr) != 0 || addr <= f->addr || addr >= sym->addr + sym->size)
			continue;
		if (dwarf_lineprologueend(l, &flag) == 0 && flag && (!marked || addr < marked))
			marked = addr;
		if (dwarf_linebeginstatement(l, &flag) == 0 && flag && (!second || addr < second))
			second = addr;
	}
	return marked ? marked : second ? second : f->addr;
}

/* ---- lines ---- */

static int compare_line_number(const void *a, const void *b)
{
	const struct dbg_line *x = *(struct dbg_line *const *)a, *y = *(struct dbg_line *const *)b;
	return x->line != y->line ? (x->line > y->line) - (x->line < y->line) : (x->addr > y->addr) - (x->addr < y->addr);
}

/* The address ranges of the inline instances under die, as pairs of uint64_t (low, high) in out. */
static void inline_ranges(Dwarf_Die *die, struct vec *out)
{
	Dwarf_Die child;
	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_inlined_subroutine) {
			Dwarf_Addr base, low, high;
			ptrdiff_t off = 0;
			while ((off = dwarf_ranges(&child, off, &base, &low, &high)) > 0) {
				uint64_t *pair = ast_alloc(2 * sizeof(uint64_t));
				pair[0] = low;
				pair[1] = high;
				vec_push(out, pair);
			}
		} else if (tag == DW_TAG_lexical_block) {
			inline_ranges(&child, out);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

/*
 * Per source line of f (in a file matching file_glob), the first address
 * in f's symbol where a statement of it starts; in line order. A line
 * whose address an earlier line already has is left out: one probe per
 * address.
 */
static void dwarf_statements(struct debuginfo *di, struct dbg_func *f, const char *file_glob, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	const struct elf_sym *sym = symbol_at(st, f->symbol_addr);
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t nlines;
	if (!sym || !cu_at(st, f->addr, &cu) || dwarf_getsrclines(&cu, &lines, &nlines) != 0)
		return;
	struct vec found = {0}, inlines = {0};
	Dwarf_Die die;
	if (f->handle && !f->inlined && offdie(st, f->handle, &die))
		inline_ranges(&die, &inlines);
	for (size_t j = 0; j < nlines; j++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, j);
		int lineno;
		Dwarf_Addr addr;
		bool stmt, end;
		if (dwarf_lineno(l, &lineno) != 0 || lineno <= 0 || dwarf_lineaddr(l, &addr) != 0 ||
		    addr < sym->addr || addr >= sym->addr + sym->size || dwarf_linebeginstatement(l, &stmt) != 0 ||
		    !stmt || dwarf_lineendsequence(l, &end) != 0 || end)
			continue;
		const char *file = relative_file(&cu, dwarf_linesrc(l, NULL, NULL));
		if (file_glob && !file_matches(file_glob, file))
			continue;
		struct dbg_line *dl = ast_alloc(sizeof(*dl));
		dl->func = f;
		dl->file = file;
		dl->line = lineno;
		dl->addr = addr;
		for (int k = 0; k < inlines.n && !dl->inlined; k++) {
			const uint64_t *pair = inlines.items[k];
			dl->inlined = addr >= pair[0] && addr < pair[1];
		}
		vec_push(&found, dl);
	}
	vec_sort(&found, compare_line_number);
	for (int i = 0; i < found.n; i++) {
		struct dbg_line *dl = found.items[i];
		bool dup = false;
		for (int k = 0; k < out->n && !dup; k++) {
			struct dbg_line *o = out->items[k];
			dup = o->func == f && (o->addr == dl->addr || (o->line == dl->line && !strcmp(o->file, dl->file)));
		}
		if (!dup)
			vec_push(out, dl);
	}
}

/* Labels under die (lexical blocks included, inline instances not) matching glob. */
static void walk_labels(struct debuginfo *di, Dwarf_Die *cu, Dwarf_Die *die, struct dbg_func *f, const char *glob,
			struct vec *out)
{
	Dwarf_Die child;
	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		const char *name = dwarf_diename(&child);
		Dwarf_Addr low;
		if (tag == DW_TAG_label && name && dbg_glob_match(glob, name) && dwarf_lowpc(&child, &low) == 0) {
			struct dbg_label *lb = ast_alloc(sizeof(*lb));
			lb->func = f;
			lb->name = ast_strdup(name);
			lb->file = relative_file(cu, dwarf_decl_file(&child));
			dwarf_decl_line(&child, &lb->line);
			lb->addr = low;
			vec_push(out, lb);
		} else if (tag == DW_TAG_lexical_block) {
			walk_labels(di, cu, &child, f, glob, out);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static void dwarf_labels(struct debuginfo *di, struct dbg_func *f, const char *glob, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Die die, cu;
	if (!f->handle || !offdie(st, f->handle, &die) || !func_cu(st, &die, f->addr, &cu))
		return;
	walk_labels(di, &cu, &die, f, glob, out);
}

/* Call sites under die whose callee (DW_AT_call_origin, or GCC's DW_AT_abstract_origin) matches glob. */
static void walk_calls(struct debuginfo *di, Dwarf_Die *cu, Dwarf_Die *die, struct dbg_func *f, const char *glob,
		       struct vec *out)
{
	Dwarf_Die child;
	if (dwarf_child(die, &child) != 0)
		return;
	do {
		int tag = dwarf_tag(&child);
		if (tag == DW_TAG_call_site || tag == DW_TAG_GNU_call_site) {
			Dwarf_Attribute a;
			Dwarf_Die callee;
			Dwarf_Addr ret;
			bool origin = (dwarf_attr(&child, DW_AT_call_origin, &a) || dwarf_attr(&child, DW_AT_abstract_origin, &a)) &&
				      dwarf_formref_die(&a, &callee);
			bool has_ret = (dwarf_attr(&child, DW_AT_call_return_pc, &a) || dwarf_attr(&child, DW_AT_low_pc, &a)) &&
				       dwarf_formaddr(&a, &ret) == 0;
			bool tail = dwarf_hasattr(&child, DW_AT_call_tail_call) || dwarf_hasattr(&child, DW_AT_GNU_tail_call);
			const char *name = origin ? dwarf_diename(&callee) : NULL;
			if (name && has_ret && !tail && dbg_glob_match(glob, name)) {
				struct dbg_call *c = ast_alloc(sizeof(*c));
				c->caller = f;
				c->callee = ast_strdup(name);
				c->callee_file = relative_file(cu, dwarf_decl_file(&callee));
				c->return_addr = ret;
				vec_push(out, c);
			}
		} else if (tag == DW_TAG_lexical_block || tag == DW_TAG_inlined_subroutine) {
			walk_calls(di, cu, &child, f, glob, out);
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static void dwarf_calls(struct debuginfo *di, struct dbg_func *f, const char *glob, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Die die, cu;
	if (f->handle && offdie(st, f->handle, &die) && func_cu(st, &die, f->addr, &cu))
		walk_calls(di, &cu, &die, f, glob, out);
}

/* ---- line tables of functions (symfileline) ---- */

static int compare_row_offset(const void *a, const void *b)
{
	const struct dbg_line_row *x = *(struct dbg_line_row *const *)a, *y = *(struct dbg_line_row *const *)b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* Sort fl's rows by offset and keep one per change of line (the first row at an offset wins). */
static int compare_start_addr(const void *a, const void *b)
{
	const struct dbg_func_start *x = *(struct dbg_func_start *const *)a, *y = *(struct dbg_func_start *const *)b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void tidy_rows(struct dbg_func_lines *fl)
{
	qsort(fl->rows.items, fl->rows.n, sizeof(void *), compare_row_offset);
	int kept = 0;
	for (int i = 0; i < fl->rows.n; i++) {
		struct dbg_line_row *r = fl->rows.items[i], *prev = kept ? fl->rows.items[kept - 1] : NULL;
		if (prev && (prev->offset == r->offset ||
			     (prev->line == r->line && !strcmp(prev->file, r->file))))
			continue;
		fl->rows.items[kept++] = r;
	}
	fl->rows.n = kept;
}

/*
 * The rows of the compilation unit holding symbol name, grouped by the
 * function symbol each address is in. Rows whose address is in no
 * symbol (padding, cold parts under their own .cold symbol are their
 * own functions) are dropped.
 */
static int dwarf_func_lines(struct debuginfo *di, const char *name, bool whole_cu, int max_rows, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	const struct elf_sym *sym = NULL;
	for (size_t i = 0; i < st->nsyms && !sym; i++)
		if (!strcmp(st->syms[i].name, name))
			sym = &st->syms[i];
	Dwarf_Die cu;
	Dwarf_Lines *lines;
	size_t nlines;
	if (!sym || !cu_at(st, sym->addr, &cu) || dwarf_getsrclines(&cu, &lines, &nlines) != 0)
		return 0;
	struct vec funcs = {0};  /* of struct dbg_func_lines *, funcs.items[0] for sym */
	struct vec owners = {0}; /* the elf_sym of each */
	for (size_t j = 0; j < nlines; j++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, j);
		Dwarf_Addr addr;
		int lineno;
		bool end;
		if (dwarf_lineaddr(l, &addr) || dwarf_lineno(l, &lineno) || dwarf_lineendsequence(l, &end) || end ||
		    lineno <= 0)
			continue;
		const struct elf_sym *owner = symbol_containing(st, addr);
		if (!owner || !owner->size || (!whole_cu && owner != sym))
			continue;
		int k = 0;
		while (k < owners.n && owners.items[k] != owner)
			k++;
		if (k == owners.n) {
			struct dbg_func_lines *fl = ast_alloc(sizeof(*fl));
			fl->name = owner->name;
			fl->size = owner->size;
			vec_push(&owners, (void *)owner);
			vec_push(&funcs, fl);
		}
		struct dbg_line_row *r = ast_alloc(sizeof(*r));
		r->offset = addr - owner->addr;
		r->line = lineno;
		r->file = relative_file(&cu, dwarf_linesrc(l, NULL, NULL));
		if (!r->file)
			r->file = "??";
		vec_push(&((struct dbg_func_lines *)funcs.items[k])->rows, r);
	}
	int added = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < funcs.n; k++) {
			struct dbg_func_lines *fl = funcs.items[k];
			if ((owners.items[k] == sym) != (pass == 0))
				continue;
			tidy_rows(fl);
			/* The function under each of its names (kallsyms may show any alias). */
			const struct elf_sym *owner = owners.items[k], *first = owner;
			while (first > st->syms && first[-1].addr == owner->addr)
				first--;
			for (const struct elf_sym *a = first; a < st->syms + st->nsyms && a->addr == owner->addr; a++) {
				if (a->size != owner->size || added + fl->rows.n > max_rows)
					continue;
				struct dbg_func_lines *named = fl;
				if (a != owner) {
					named = ast_alloc(sizeof(*named));
					*named = *fl;
					named->name = a->name;
				}
				added += fl->rows.n;
				vec_push(out, named);
			}
		}
	}
	return added;
}

#define FUNC_STARTS_CHUNK 32

/*
 * The first line of every function symbol in the section: one pass over
 * every compilation unit's line table, keeping the rows at a symbol's
 * address (the first such row of a unit; the first unit that has one).
 */
static void dwarf_func_starts(struct debuginfo *di, const char *section, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	uint64_t lo = 0, hi = UINT64_MAX;
	if (st->rel && section)
		return;
	if (section) {
		if (elf_getshdrstrndx(st->elf, &shstrndx) != 0)
			return;
		hi = 0;
		while ((scn = elf_nextscn(st->elf, scn)) != NULL) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(st->elf, shstrndx, sh.sh_name) : NULL;
			if (name && !strcmp(name, section) && (sh.sh_flags & SHF_ALLOC)) {
				lo = sh.sh_addr;
				hi = sh.sh_addr + sh.sh_size;
			}
		}
		if (lo == hi)
			return;
	}
	unsigned char *done = calloc(st->nsyms ? st->nsyms : 1, 1);  /* by index into st->syms */
	struct vec found = {0};
	Dwarf_Off off = 0, next;
	size_t hsize;
	/*
	 * libdw keeps every line table it decoded until its handle ends, and
	 * vmlinux's add up to hundreds of megabytes: a linked image's units
	 * are read through handles of their own, FUNC_STARTS_CHUNK units each.
	 */
	Dwarf *dw = st->rel ? st->dw : dwarf_begin_elf(st->elf, DWARF_C_READ, NULL);
	for (int units = 1; dw && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0; units++) {
		Dwarf_Die cu;
		Dwarf_Lines *lines;
		size_t nlines;
		if (dwarf_offdie(dw, off + hsize, &cu) && dwarf_getsrclines(&cu, &lines, &nlines) == 0) {
			for (size_t j = 0; j < nlines; j++) {
				Dwarf_Line *l = dwarf_onesrcline(lines, j);
				Dwarf_Addr addr;
				int lineno;
				bool end;
				if (dwarf_lineaddr(l, &addr) || addr < lo || addr >= hi || dwarf_lineno(l, &lineno) ||
				    lineno <= 0 || dwarf_lineendsequence(l, &end) || end)
					continue;
				const struct elf_sym *sym = symbol_at(st, addr);
				if (!sym || done[sym - st->syms])
					continue;
				done[sym - st->syms] = 1;
				struct dbg_func_start *f = ast_alloc(sizeof(*f));
				f->addr = addr;
				f->name = sym->name;
				f->size = sym->size;
				f->file = relative_file(&cu, dwarf_linesrc(l, NULL, NULL));
				f->line = lineno;
				if (f->file)
					vec_push(&found, f);
			}
		}
		off = next;
		if (!st->rel && units % FUNC_STARTS_CHUNK == 0) {
			dwarf_end(dw);
			dw = dwarf_begin_elf(st->elf, DWARF_C_READ, NULL);
		}
	}
	if (dw && !st->rel)
		dwarf_end(dw);
	free(done);
	qsort(found.items, found.n, sizeof(void *), compare_start_addr);
	for (int i = 0; i < found.n; i++)
		vec_push(out, found.items[i]);
}

/* ---- globals ---- */

static struct dbg_var *dwarf_global(struct debuginfo *di, const char *name, const char *file_glob)
{
	struct dwarf_state *st = di->priv;
	struct dbg_var *fallback = NULL; /* defined, with a location that is no link-time address */
	Dwarf_Off off = 0, next;
	size_t hsize;
	while (dwarf_nextcu(st->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		if (offdie(st, off + hsize, &cu) && dwarf_child(&cu, &child) == 0 &&
		    (!file_glob || file_matches(file_glob, relative_file(&cu, dwarf_diename(&cu))))) {
			do {
				if (dwarf_tag(&child) != DW_TAG_variable || dwarf_hasattr(&child, DW_AT_declaration))
					continue;
				const char *n = dwarf_diename(&child);
				if (!n || strcmp(n, name))
					continue;
				struct dbg_var *v = ast_alloc(sizeof(*v));
				v->name = ast_strdup(n);
				Dwarf_Die t;
				v->type = type_of(&child, &t) ? convert(di, &t) : NULL;
				v->loc = locate(st, &child, 0, 1);
				if (v->loc.kind == DBG_LOC_MEMORY && v->loc.absolute)
					return v;
				if (!fallback && dwarf_hasattr(&child, DW_AT_location))
					fallback = v; /* a module's static: no address until loaded */
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
	return fallback;
}

/* dwarf_typedefs from the index: false if it has no typedef table. */
static bool indexed_typedefs(struct debuginfo *di, const char *glob, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	const void *tds_v, *names_v;
	size_t tds_len, names_len;
	if (!kindex_section(di->index, KINDEX_TYPEDEFS, &tds_v, &tds_len) ||
	    !kindex_section(di->index, KINDEX_TYPEDEF_NAMES, &names_v, &names_len) || !names_len ||
	    ((const char *)names_v)[names_len - 1])
		return false;
	const struct kindex_typedef *tds = tds_v;
	for (size_t i = 0; i < tds_len / sizeof(*tds); i++) {
		Dwarf_Die die;
		if (tds[i].name < names_len && dbg_glob_match(glob, (const char *)names_v + tds[i].name) &&
		    offdie(st, tds[i].die, &die))
			vec_push(out, convert(di, &die));
	}
	return true;
}

static void dwarf_typedefs(struct debuginfo *di, const char *glob, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	if (indexed_typedefs(di, glob, out))
		return;
	Dwarf_Off off = 0, next;
	size_t hsize;
	struct vec seen = {0};
	while (dwarf_nextcu(st->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu, child;
		if (offdie(st, off + hsize, &cu) && dwarf_child(&cu, &child) == 0) {
			do {
				const char *n = dwarf_tag(&child) == DW_TAG_typedef ? dwarf_diename(&child) : NULL;
				if (!n || !dbg_glob_match(glob, n))
					continue;
				bool dup = false;
				for (int i = 0; i < seen.n && !dup; i++)
					dup = !strcmp(seen.items[i], n);
				if (dup)
					continue;
				vec_push(&seen, (void *)n);
				vec_push(out, convert(di, &child));
			} while (dwarf_siblingof(&child, &child) == 0);
		}
		off = next;
	}
}

/* An enumerator named name of an enum declared at the top of compilation unit cu. */
static bool cu_enumerator(struct debuginfo *di, Dwarf_Die *cu, const char *name, struct dbg_var *out)
{
	Dwarf_Die type, item;
	if (dwarf_child(cu, &type) != 0)
		return false;
	do {
		if (dwarf_tag(&type) != DW_TAG_enumeration_type || dwarf_child(&type, &item) != 0)
			continue;
		do {
			Dwarf_Attribute a;
			Dwarf_Sword value;
			const char *n = dwarf_tag(&item) == DW_TAG_enumerator ? dwarf_diename(&item) : NULL;
			if (!n || strcmp(n, name) || !dwarf_attr(&item, DW_AT_const_value, &a) ||
			    dwarf_formsdata(&a, &value) != 0)
				continue;
			*out = (struct dbg_var){.name = n, .type = convert(di, &type),
						.loc = {.kind = DBG_LOC_CONST, .reg = -1, .offset = (int64_t)value}};
			return true;
		} while (dwarf_siblingof(&item, &item) == 0);
	} while (dwarf_siblingof(&type, &type) == 0);
	return false;
}

/* An enumerator of an enum declared at the top of f's compilation unit, or of the first unit that has one. */
static bool dwarf_enumerator(struct debuginfo *di, struct dbg_func *f, const char *name, struct dbg_var *out)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Die die, cu;
	if (f)
		return f->handle && offdie(st, f->handle, &die) && dwarf_diecu(&die, &cu, NULL, NULL) &&
		       cu_enumerator(di, &cu, name, out);
	Dwarf_Off off = 0, next;
	size_t hsize;
	for (; dwarf_nextcu(st->dw, off, &next, &hsize, NULL, NULL, NULL) == 0; off = next)
		if (offdie(st, off + hsize, &cu) && cu_enumerator(di, &cu, name, out))
			return true;
	return false;
}

/* The enumerators of enum t, from its DIE. */
static void dwarf_enumerators(struct debuginfo *di, struct dbg_type *t, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Die type, item;
	if (!offdie(st, t->handle, &type) || dwarf_child(&type, &item) != 0)
		return;
	do {
		Dwarf_Attribute a;
		Dwarf_Sword value;
		const char *n = dwarf_tag(&item) == DW_TAG_enumerator ? dwarf_diename(&item) : NULL;
		if (!n || !dwarf_attr(&item, DW_AT_const_value, &a) || dwarf_formsdata(&a, &value) != 0)
			continue;
		struct dbg_var *v = ast_alloc(sizeof(*v));
		*v = (struct dbg_var){.name = n, .type = t, .loc = {.kind = DBG_LOC_CONST, .reg = -1, .offset = (int64_t)value}};
		vec_push(out, v);
	} while (dwarf_siblingof(&item, &item) == 0);
}

static void dwarf_function_names(struct debuginfo *di, struct vec *out)
{
	struct dwarf_state *st = di->priv;
	for (size_t i = 0; i < st->nsyms; i++)
		vec_push(out, (void *)st->syms[i].name);
}

/* A linked image is one piece; in a relocatable object, libdwfl says which section each address is in. */
static bool dwarf_same_section(struct debuginfo *di, uint64_t a, uint64_t b)
{
	struct dwarf_state *st = di->priv;
	Dwarf_Addr bias;
	if (!st->rel || !dwfl_module_getdwarf(st->rel, &bias))
		return !st->rel;
	Dwarf_Addr ra = a + bias, rb = b + bias;  /* the DWARF's addresses are relative to the bias */
	int sa = dwfl_module_relocate_address(st->rel, &ra);
	return sa >= 0 && sa == dwfl_module_relocate_address(st->rel, &rb);
}

static const struct dbg_ops dwarf_ops = {
	.functions = dwarf_functions,
	.variables = dwarf_variables,
	.find_type = dwarf_find_type,
	.load_members = dwarf_load_members,
	.statements = dwarf_statements,
	.labels = dwarf_labels,
	.calls = dwarf_calls,
	.global = dwarf_global,
	.typedefs = dwarf_typedefs,
	.prologue_end = dwarf_prologue_end,
	.func_lines = dwarf_func_lines,
	.func_starts = dwarf_func_starts,
	.function_names = dwarf_function_names,
	.enumerator = dwarf_enumerator,
	.enumerators = dwarf_enumerators,
	.same_section = dwarf_same_section,
};

/* libdwfl for a relocatable object: sections laid out, DWARF relocated; no search for separate debuginfo. */
static char *no_debuginfo_path = "";
static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &no_debuginfo_path,
};

static Dwarf *open_relocatable(struct dwarf_state *st, const char *path)
{
	Dwfl *dwfl = dwfl_begin(&offline_callbacks);
	Dwfl_Module *mod = dwfl ? dwfl_report_offline(dwfl, path, path, -1) : NULL;
	Dwarf_Addr bias;
	Dwarf *dw = NULL;
	if (mod && dwfl_report_end(dwfl, NULL, NULL) == 0)
		dw = dwfl_module_getdwarf(mod, &bias);
	if (!dw) {
		if (dwfl)
			dwfl_end(dwfl);
		return NULL;
	}
	st->rel = mod;  /* the Dwfl lives as long as the compiler (never freed, like the arena) */
	st->cfi = dwfl_module_dwarf_cfi(mod, &bias);
	if (!st->cfi)
		st->cfi = dwfl_module_eh_cfi(mod, &bias);
	return dw;
}

/*
 * Does p lie in a private mapping of a file? libelf reads the file into
 * memory when it cannot map it, and giving back anonymous pages would zero
 * them: reach_cu gives pages back only from a file's mapping.
 */
static bool in_file_mapping(const void *p)
{
	FILE *f = fopen("/proc/self/maps", "r");
	if (!f)
		return false;
	char line[512];
	bool found = false, file = false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, ino;
		char perms[5];
		if (sscanf(line, "%lx-%lx %4s %*x %*x:%*x %lu", &lo, &hi, perms, &ino) == 4 &&
		    (uintptr_t)p >= lo && (uintptr_t)p < hi) {
			found = true;
			file = ino != 0 && perms[3] == 'p';
		}
	}
	fclose(f);
	return file;
}

/* Where .debug_info lies in the file's mapping, for reach_cu to give pages back; left NULL if it is not there as is. */
static void find_info(struct dwarf_state *st)
{
	size_t shstrndx, file_len;
	char *file = elf_rawfile(st->elf, &file_len);
	if (!file || elf_getshdrstrndx(st->elf, &shstrndx) != 0)
		return;
	for (Elf_Scn *scn = elf_nextscn(st->elf, NULL); scn; scn = elf_nextscn(st->elf, scn)) {
		GElf_Shdr sh;
		const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(st->elf, shstrndx, sh.sh_name) : NULL;
		if (!name || strcmp(name, ".debug_info") != 0)
			continue;
		Elf_Data *d = (sh.sh_flags & SHF_COMPRESSED) ? NULL : elf_getdata(scn, NULL);
		if (d && d->d_buf && (char *)d->d_buf >= file && d->d_size <= file_len &&
		    (char *)d->d_buf - file <= (ptrdiff_t)(file_len - d->d_size) && in_file_mapping(d->d_buf)) {
			st->info = d->d_buf;
			st->info_len = d->d_size;
		}
		return;
	}
}

struct debuginfo *dbg_open_dwarf(const char *path, const char **err)
{
	return dbg_open_dwarf_indexed(path, NULL, err);
}

struct debuginfo *dbg_open_dwarf_indexed(const char *path, struct kindex *index, const char **err)
{
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = ast_printf("cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	struct dwarf_state *st = ast_alloc(sizeof(*st));
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	GElf_Ehdr eh = {0};
	bool rel = elf && gelf_getehdr(elf, &eh) && eh.e_type == ET_REL;
	Dwarf *dw = !elf ? NULL : rel ? open_relocatable(st, path) : dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	if (!dw) {
		*err = ast_printf("%s has no DWARF debuginfo", path);
		if (elf)
			elf_end(elf);
		close(fd);
		return NULL;
	}
	st->dw = dw;
	st->elf = elf;
	st->fd = fd;
	st->arm64 = eh.e_machine == EM_AARCH64;
	if (!rel) {
		find_info(st);
		st->cfi = dwarf_getcfi(dw);
		if (!st->cfi)
			st->cfi = dwarf_getcfi_elf(elf);
	}
	if (!indexed_symbols(st, index))
		read_symbols(st);
	const void *subs;
	size_t subs_len;
	if (kindex_section(index, KINDEX_SUBPROGRAMS, &subs, &subs_len) && subs_len % sizeof(*st->subs) == 0) {
		st->subs = subs;
		st->nsubs = subs_len / sizeof(*st->subs);
	}
	struct debuginfo *di = ast_alloc(sizeof(*di));
	di->index = index;
	di->source = DBG_SOURCE_DWARF;
	di->path = path;
	di->ops = &dwarf_ops;
	di->priv = st;
	di->arm64 = st->arm64;
	return di;
}
