/*
 * elfsym.h - what user-space probes need from a program or library file:
 * function symbols and their file offsets, source lines (DWARF line table),
 * SDT markers (.note.stapsdt) and the libraries it needs.
 */
#ifndef STAPC_ELFSYM_H
#define STAPC_ELFSYM_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"

struct elfsym_file;

/* A function symbol. */
struct elfsym_func {
	const char *name;
	uint64_t vaddr;   /* link-time address */
	uint64_t size;    /* bytes, 0 if unknown */
	uint64_t offset;  /* file offset of vaddr: what uprobes attach to */
};

/* One SDT marker site (a .note.stapsdt entry). */
struct elfsym_sdt {
	const char *provider;
	const char *name;
	const char *args;       /* "-4@%eax 8@-8(%rbp)", "" if none */
	uint64_t vaddr;         /* link-time address of the marker's nop */
	uint64_t offset;        /* its file offset */
	uint64_t semaphore;     /* file offset of the semaphore, 0 if none */
};

/*
 * Open path (a host path) for reading; NULL and *err set on failure (the
 * message says why: missing, not ELF, not for this machine...).
 */
struct elfsym_file *elfsym_open(const char *path, bool arm64, const char **err);

/* True for a shared object or PIE (addresses are relative to a load base). */
bool elfsym_relocatable(const struct elfsym_file *f);

/* File offset of a link-time address; false if no loaded segment holds it. */
bool elfsym_offset(const struct elfsym_file *f, uint64_t vaddr, uint64_t *offset);

/* Functions whose names match pattern (fnmatch), sorted by name, duplicates dropped: of struct elfsym_func *. */
void elfsym_functions(struct elfsym_file *f, const char *pattern, struct vec *out);
/* Whether the file exports function name at link-time address vaddr (a defined symbol of .dynsym). */
bool elfsym_exported(struct elfsym_file *f, const char *name, uint64_t vaddr);

/* PLT entries whose symbol matches pattern (fnmatch), sorted by name: of struct elfsym_func * (name: the
   symbol, vaddr and offset: the entry's). Empty without a .rela.plt (a static program). */
void elfsym_plt(struct elfsym_file *f, const char *pattern, struct vec *out);

/* Address of a global data symbol (for rip-relative SDT operands); false if absent. */
bool elfsym_data_symbol(struct elfsym_file *f, const char *name, uint64_t *vaddr);

/*
 * The lowest address of a line-table row for file:line inside fn (file
 * matched by suffix, "" for any file); false and *err if there is none or
 * the file has no line table.
 */
bool elfsym_line_address(struct elfsym_file *f, const struct elfsym_func *fn, const char *file, int line,
			 uint64_t *vaddr, const char **err);

/* One row of a file's line table: the source line of the code from vaddr up to the next row. */
struct elfsym_line {
	uint64_t vaddr;
	int line;               /* 0: no source line here (the end of a sequence) */
	const char *file;       /* as DWARF names it (the full path of the source), NULL with line 0 */
};

/*
 * The file's whole line table, sorted by address, one row per change of
 * file or line (of struct elfsym_line *); at most max_rows rows (the rest
 * dropped, *truncated set). False if the file has no DWARF line table.
 */
bool elfsym_lines(struct elfsym_file *f, int max_rows, struct vec *out, bool *truncated);

/* SDT markers matching provider and name patterns (fnmatch): of struct elfsym_sdt *. */
void elfsym_sdt_markers(struct elfsym_file *f, const char *provider, const char *name, struct vec *out);

/* A loaded segment (PT_LOAD): what maps file offsets to link-time addresses. */
struct elfsym_segment {
	uint64_t offset;  /* p_offset */
	uint64_t vaddr;   /* p_vaddr */
	uint64_t filesz;  /* p_filesz */
};

/* Every function and data object symbol with an address, sorted by address: of struct elfsym_func *. */
void elfsym_symbols(struct elfsym_file *f, struct vec *out);

/* The PT_LOAD segments, in file order: of struct elfsym_segment *. */
void elfsym_segments(struct elfsym_file *f, struct vec *out);

/* How to find a frame's caller in a range of code (x86-64 or arm64), from the file's CFI. */
enum elfsym_cfa_reg {
	ELFSYM_CFA_NONE,  /* no usable CFI here (none, or an expression): use frame pointers */
	ELFSYM_CFA_SP,    /* CFA = rsp (arm64: sp) + cfa_offset */
	ELFSYM_CFA_BP,    /* CFA = rbp (arm64: the frame pointer x29) + cfa_offset */
};
struct elfsym_cfi_row {
	uint64_t vaddr;             /* first address of the range (up to the next row) */
	enum elfsym_cfa_reg reg;
	int64_t cfa_offset;
	bool outermost;             /* the return address is undefined: the stack ends here (_start) */
	int64_t bp_offset;          /* the caller's rbp (x29) is saved at CFA + bp_offset; 0: unchanged */
	int64_t ra_offset;          /* the return address is at CFA + ra_offset (x86-64: -8); 0: still
	                               in arm64's link register x30 (code that has not saved it) */
};

/*
 * The unwind table of the file's executable segments from .eh_frame (and
 * .debug_frame where that has none), one row per change of rule, in address order:
 * of struct elfsym_cfi_row *. x86-64's return address is always at CFA - 8,
 * arm64's saved at CFA + N or in its link register; ranges whose rules say
 * otherwise get ELFSYM_CFA_NONE. False if the file has no CFI at all.
 */
bool elfsym_cfi_rows(struct elfsym_file *f, struct vec *out);

/* DT_NEEDED names and DT_RUNPATH/DT_RPATH ("" if none): of const char *. */
void elfsym_needed(struct elfsym_file *f, struct vec *out, const char **runpath);

#endif
