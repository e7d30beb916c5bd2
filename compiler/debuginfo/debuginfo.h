/*
 * debuginfo.h - what the translator knows about a target binary's functions,
 * variables and types, read from DWARF (elfutils libdw) or from BTF (libbpf).
 *
 * One model for both sources and for every kind of target: the kernel image,
 * a kernel module, or a user-space ELF program or library. A struct debuginfo
 * is one opened binary; the backends (dwarf.c, btf.c) fill the same structs,
 * so probe providers, target-variable code generation and -L listing never
 * know which source answered.
 *
 * Addresses are link-time addresses of the binary (what the symbol table and
 * DWARF say); probes are attached by symbol name plus an offset, so load-time
 * relocation (KASLR, PIE) never enters the compiler.
 *
 * Memory: everything is allocated from the compiler's arena and lives until
 * exit, like the AST (see ast.h).
 */
#ifndef STAPC_DEBUGINFO_H
#define STAPC_DEBUGINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "ast.h"

struct ktext;
struct kindex;

/* Where the information comes from. */
enum dbg_source {
	DBG_SOURCE_DWARF, /* full debuginfo: inline instances, lines, locals, locations */
	DBG_SOURCE_BTF,   /* BTF: functions, prototypes and types; parameters from the calling convention */
};

/* Kinds of types, after the C type system. */
enum dbg_type_kind {
	DBG_VOID,     /* void (also what an unknown type decays to) */
	DBG_INT,      /* integers, bool and char; size and is_signed say which */
	DBG_ENUM,     /* enumerations: read as integers of their size */
	DBG_FLOAT,    /* floating point: can be read only as raw bits */
	DBG_PTR,      /* pointer to target */
	DBG_ARRAY,    /* target[nelems] */
	DBG_STRUCT,   /* struct: members */
	DBG_UNION,    /* union: members */
	DBG_FUNC,     /* a function type (what a function pointer points to) */
	DBG_TYPEDEF,  /* typedef name for target */
	DBG_CONST,    /* const target */
	DBG_VOLATILE, /* volatile target (also restrict) */
};

struct dbg_type;
struct debuginfo;

/* A member of a struct or union. Anonymous struct/union members have name NULL. */
struct dbg_member {
	const char *name;       /* NULL for an anonymous struct or union member */
	struct dbg_type *type;
	uint64_t offset;        /* bytes from the start of the enclosing type */
	int bit_offset;         /* bit-field: first bit within the storage unit at offset (little-endian), else 0 */
	int bit_size;           /* bit-field: width in bits, else 0 */
};

struct dbg_type {
	enum dbg_type_kind kind;
	const char *name;       /* "int", "task_struct", "size_t"; NULL when anonymous */
	uint64_t size;          /* bytes (pointers 8); 0 when unknown or incomplete */
	bool is_signed;         /* DBG_INT, DBG_ENUM */
	bool is_char;           /* DBG_INT of one byte named char: arrays of it print as strings */
	bool incomplete;        /* struct/union only declared here (a forward declaration) */
	struct dbg_type *target;/* PTR, ARRAY, TYPEDEF, CONST, VOLATILE: the type it is built on; NULL = void */
	uint64_t nelems;        /* DBG_ARRAY: element count, 0 if unknown (flexible array) */
	struct vec members;     /* STRUCT, UNION: of struct dbg_member *, loaded on first use;
	                           FUNC: its parameters (name may be NULL, offset 0) */
	bool members_loaded;    /* members holds the members */
	struct debuginfo *di;   /* owner, for loading members lazily */
	uint64_t handle;        /* backend's identity of the type (BTF id, DWARF DIE offset) */
};

/* Where a variable's value lives at one address, as the probe handler computes it. */
enum dbg_loc_kind {
	DBG_LOC_NONE,     /* not available here (optimized out, or unsupported expression); see why */
	DBG_LOC_REG,      /* the value is register reg (x86-64 DWARF numbering), plus offset if value_is_sum */
	DBG_LOC_MEMORY,   /* the value is in memory at register reg + offset (reg -1: absolute address offset) */
	DBG_LOC_CONST,    /* the value is the constant offset */
	DBG_LOC_ARG,      /* the value is argument number reg of the probe handler (tracepoints) */
};

/* x86-64 DWARF register numbers, also used for the BTF calling convention. */
enum dbg_x86_reg {
	DBG_REG_AX = 0, DBG_REG_DX = 1, DBG_REG_CX = 2, DBG_REG_BX = 3,
	DBG_REG_SI = 4, DBG_REG_DI = 5, DBG_REG_BP = 6, DBG_REG_SP = 7,
	DBG_REG_R8 = 8, /* .. r15 = 15 */
	DBG_REG_IP = 16,
};

struct dbg_loc {
	enum dbg_loc_kind kind;
	int reg;                /* DBG_LOC_REG, DBG_LOC_MEMORY: register, -1 for none */
	int64_t offset;         /* added to the register (MEMORY: address; REG: value if value_is_sum) */
	bool value_is_sum;      /* DBG_LOC_REG: the value is reg + offset (DW_OP_breg + DW_OP_stack_value) */
	bool absolute;          /* DBG_LOC_MEMORY with reg -1: offset is a link-time address */
	const char *why;        /* DBG_LOC_NONE: why, for the error message */
};

/* A parameter or local variable of a function, seen from one address. */
struct dbg_var {
	const char *name;
	struct dbg_type *type;
	struct dbg_loc loc;     /* where it is at the scope's address */
	bool is_param;          /* a formal parameter, not a local */
};

/* A function, or one inline instance of one. */
struct dbg_func {
	const char *name;       /* as in the source */
	const char *file;       /* declaring source file as recorded ("fs/read_write.c"), NULL if unknown */
	int line;               /* declaration line, 0 if unknown */
	const char *symbol;     /* symbol to attach a probe to: the function, or for an inline instance the
	                           function it was inlined into */
	uint64_t addr;          /* link-time address of the probe point (entry, or the inline instance's entry) */
	uint64_t symbol_addr;   /* link-time address of symbol; addr - symbol_addr is the probe offset */
	bool inlined;           /* an inline instance (kprobe at symbol + offset) */
	bool exported;          /* EXPORT_SYMBOL'd (kernel) or a dynamic symbol (user space) */
	struct dbg_type *ret;   /* return type, NULL for void */
	struct debuginfo *di;   /* where it came from */
	uint64_t handle;        /* backend's identity (BTF id, DWARF DIE offset) */
};

/* A source line resolved to an address inside a function (statement probes). */
struct dbg_line {
	struct dbg_func *func;  /* the (outermost, not inlined) function containing it */
	const char *file;       /* as recorded in the line table */
	int line;
	uint64_t addr;          /* link-time address of the first instruction of the line */
	bool inlined;           /* the code is that of a function inlined there, not func's own */
};

/* A source label inside a function (.label probes). */
struct dbg_label {
	struct dbg_func *func;  /* the function it is in */
	const char *name;
	const char *file;       /* where it is declared, NULL if unknown */
	int line;
	uint64_t addr;          /* link-time address of the labelled code */
};

/* A call a function makes, known from a DWARF call site (.callee probes). */
struct dbg_call {
	struct dbg_func *caller;
	const char *callee;     /* the called function's name */
	const char *callee_file;/* where it is declared, NULL if unknown (tells apart statics of one name) */
	uint64_t return_addr;   /* link-time address the call returns to (in the caller) */
};

/* One row of a function's line table: from offset (bytes past its symbol) up to the next row. */
struct dbg_line_row {
	uint64_t offset;
	int line;
	const char *file;       /* relative to the compilation directory ("fs/open.c") */
};

/* The line table of one function symbol (symfileline, print_backtrace_fileline). */
struct dbg_func_lines {
	const char *name;       /* the ELF symbol */
	uint64_t size;          /* its size: tells apart static functions of one name */
	struct vec rows;        /* of struct dbg_line_row *, by offset, a change of line each */
};

/* Where one function symbol starts in the source (symfileline of any kernel function). */
struct dbg_func_start {
	uint64_t addr;          /* link-time address of the symbol */
	const char *name;       /* the ELF symbol (the first by address order among aliases) */
	uint64_t size;          /* its size */
	const char *file;       /* relative to the compilation directory ("fs/open.c") */
	int line;               /* the line of its first instruction */
};

/* Backend operations; see dwarf.c and btf.c for what each source can answer. */
struct dbg_ops {
	/* Functions whose name matches the glob pattern (and whose file matches
	   file_glob when not NULL), in address order; inline instances only if
	   want_inline. */
	void (*functions)(struct debuginfo *di, const char *pattern, const char *file_glob,
			  bool want_inline, struct vec *out);
	/* Parameters and locals of f as seen at address pc (f->addr for the entry). */
	void (*variables)(struct debuginfo *di, struct dbg_func *f, uint64_t pc, struct vec *out);
	/* A named struct, union, enum or typedef ("task_struct", "struct file", "size_t"). */
	struct dbg_type *(*find_type)(struct debuginfo *di, const char *name);
	/* Fill t->members. */
	void (*load_members)(struct debuginfo *di, struct dbg_type *t);
	/* Per source line of f in a file matching file_glob (NULL: any), the first address
	   where a statement of it starts (struct dbg_line *), in line order, one per
	   address. DWARF only (NULL in BTF). */
	void (*statements)(struct debuginfo *di, struct dbg_func *f, const char *file_glob, struct vec *out);
	/* The labels of f (not of functions inlined into it) whose name matches glob,
	   as struct dbg_label *. DWARF only (NULL in BTF). */
	void (*labels)(struct debuginfo *di, struct dbg_func *f, const char *glob, struct vec *out);
	/* The direct calls f makes (not tail calls) to functions matching glob, as
	   struct dbg_call *, from the DWARF call sites. DWARF only (NULL in BTF). */
	void (*calls)(struct debuginfo *di, struct dbg_func *f, const char *glob, struct vec *out);
	/* A global variable by name (and file glob), as a variable with an absolute location. */
	struct dbg_var *(*global)(struct debuginfo *di, const char *name, const char *file_glob);
	/* Typedefs whose name matches glob (struct dbg_type *, each name once). */
	void (*typedefs)(struct debuginfo *di, const char *glob, struct vec *out);
	/* Where f's body starts, if its variables live in frame slots its prologue fills
	   (unoptimized code), else f->addr. DWARF only (NULL in BTF). */
	uint64_t (*prologue_end)(struct debuginfo *di, struct dbg_func *f, bool always);
	/* The line tables of the functions of the compilation unit holding function
	   symbol 'name' (only of that function unless whole_cu), appended to out (of
	   struct dbg_func_lines *); at most max_rows rows in all, the named function's
	   first. Returns the rows added. DWARF only (NULL in BTF). */
	int (*func_lines)(struct debuginfo *di, const char *name, bool whole_cu, int max_rows, struct vec *out);
	/* Where every function symbol of the section named 'section' (".text"; NULL: any
	   but .init ones, the only choice in a kernel module) starts: struct
	   dbg_func_start *, by address, one per address. DWARF only (NULL in BTF). */
	void (*func_starts)(struct debuginfo *di, const char *section, struct vec *out);
	/* The name of every out-of-line function (const char *, in any order, repeats
	   allowed): what suggest.c's index of names is built from. */
	void (*function_names)(struct debuginfo *di, struct vec *out);
	/* An enumerator named name that code of f can use (DWARF: declared at the top of f's
	   compilation unit, or of any unit when f is NULL, as @enum asks; BTF: in any enum), into *out as a constant of its enum type
	   ($PIDTYPE_PID, SystemTap 4.5). False if none. */
	bool (*enumerator)(struct debuginfo *di, struct dbg_func *f, const char *name, struct dbg_var *out);
	/* The enumerators of enum type t (stripped of typedefs), in declaration order, as
	   struct dbg_var * constants (loc.offset the value): what @enumname names. */
	void (*enumerators)(struct debuginfo *di, struct dbg_type *t, struct vec *out);
	/* Whether link-time addresses a and b keep their distance once loaded: a linked
	   image moves as one piece, but a relocatable object's (a kernel module's)
	   sections are placed apart, so there only two addresses of one section do.
	   NULL: a linked image. */
	bool (*same_section)(struct debuginfo *di, uint64_t a, uint64_t b);
};

/* One opened binary. */
struct debuginfo {
	enum dbg_source source;
	const char *path;       /* the file read */
	const char *module;     /* "kernel", a module name, or a program path */
	const struct dbg_ops *ops;
	void *priv;             /* the backend's state */
	struct vec exported;    /* of const char *: exported symbol names, sorted (kernel: Module.symvers) */
	bool arm64;             /* arm64 code: register numbers x0..x30 = 0..30, sp 31, pc 32; AAPCS64 arguments
				   (DWARF: from the ELF header; the kernel's BTF: set from the session, kernel.c) */
	int prologue;           /* an enum dbg_prologue_mode: dbg_prologue_end's, from the session's -P */
	const struct ktext *ktext; /* the kernel image's ftrace sites and blacklist (probes/dwarf.c), once read */
	bool ktext_read;        /* ktext was tried */
	bool user_space;        /* types of user-space headers (@cast "<sys/un.h>"): read user memory */
	struct vec names;       /* of const char *: function names sorted, each once (suggest.c), once built */
	bool names_read;        /* names was built */
	struct kindex *index;   /* the kernel's index (kindex.c) when it has one, else NULL */
};

/* Open path's DWARF; NULL (and *err set) if it has none or cannot be read. */
struct debuginfo *dbg_open_dwarf(const char *path, const char **err);
struct kindex_writer;
/* dbg_open_dwarf with the kernel's index: its symbol table and inline instances from there. */
struct debuginfo *dbg_open_dwarf_indexed(const char *path, struct kindex *index, const char **err);
/* Fill an index of the kernel's DWARF (kindex.c): the CUs holding each inlined function. */
bool dbg_dwarf_index(struct debuginfo *di, struct kindex_writer *w);
/* The raw .BTF of an ELF file, a raw BTF file or a bzImage, malloc'd into *out; NULL or why not. */
const char *dbg_btf_extract(const char *path, unsigned char **out, size_t *out_len);
/* Open vmlinux BTF from its raw bytes (copied), read from path. */
struct debuginfo *dbg_open_btf_raw(const char *path, const void *raw, size_t len, const char **err);
/* Open a module's split BTF over base from its raw bytes (a module's index); NULL with *err if they do not parse. */
struct debuginfo *dbg_open_btf_split_raw(const char *path, const void *raw, size_t len, struct debuginfo *base,
					 const char **err);

/* Open BTF from an ELF's .BTF section, a raw BTF file, or a compressed bzImage
   (vmlinuz); base is the vmlinux BTF a module's split BTF builds on, or NULL. */
struct debuginfo *dbg_open_btf(const char *path, struct debuginfo *base, const char **err);

/* Convenience wrappers over ops. */
bool dbg_enumerator(struct debuginfo *di, struct dbg_func *f, const char *name, struct dbg_var *out);
void dbg_enumerators(struct debuginfo *di, struct dbg_type *t, struct vec *out); /* nothing without the op */
void dbg_functions(struct debuginfo *di, const char *pattern, const char *file_glob, bool want_inline,
		   struct vec *out);
void dbg_variables(struct debuginfo *di, struct dbg_func *f, uint64_t pc, struct vec *out);
struct dbg_type *dbg_find_type(struct debuginfo *di, const char *name);
struct dbg_var *dbg_global(struct debuginfo *di, const char *name, const char *file_glob);
/* When a function probe skips the prologue (--prologue-searching=WHEN, -P). */
enum dbg_prologue_mode {
	DBG_PROLOGUE_AUTO = 0,   /* only where the variables live in frame slots (unoptimized code) */
	DBG_PROLOGUE_ALWAYS,     /* at every function that has a body start in its line table */
	DBG_PROLOGUE_NEVER,      /* never: probes stay on the entry */
};
/* f->addr without the op or under DBG_PROLOGUE_NEVER; di->prologue says when to search */
uint64_t dbg_prologue_end(struct debuginfo *di, struct dbg_func *f);
int dbg_func_lines(struct debuginfo *di, const char *name, bool whole_cu, int max_rows,
		   struct vec *out); /* 0 without the op */
void dbg_func_starts(struct debuginfo *di, const char *section, struct vec *out); /* nothing without the op */
bool dbg_same_section(struct debuginfo *di, uint64_t a, uint64_t b); /* true without the op */

/* Types. */
struct dbg_type *dbg_type_new(struct debuginfo *di, enum dbg_type_kind kind, const char *name, uint64_t handle);
struct dbg_type *dbg_type_strip(struct dbg_type *t);   /* without typedefs, const, volatile */
const struct vec *dbg_type_members(struct dbg_type *t);/* loads them on first use */
/* Find member name in struct/union t (searching anonymous members); the offset
   accumulates through them. NULL if absent. */
struct dbg_member *dbg_member_find(struct dbg_type *t, const char *name, uint64_t *offset);
/* C spelling: "struct file*", "const char*", "unsigned int", "size_t". */
const char *dbg_type_text(struct dbg_type *t);
/* True if t (stripped) is an integer, enum, pointer: a value that fits a long. */
bool dbg_type_is_scalar(struct dbg_type *t);

/* Glob matching with * ? [..] (fnmatch semantics, no special '/'). */
bool dbg_glob_match(const char *pattern, const char *name);
/* True if pattern has glob characters. */
bool dbg_is_glob(const char *pattern);
/* Locate the parameters among vars by the x86-64 calling convention at a function's entry. */
void dbg_abi_locate(const struct debuginfo *di, struct vec *vars);
/* Exported-symbol test (binary search in di->exported). */
bool dbg_is_exported(struct debuginfo *di, const char *name);

#endif
