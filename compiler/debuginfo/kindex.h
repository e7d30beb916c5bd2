/*
 * kindex.h - the per-kernel index: what pass 2 asks of a kernel's BTF and
 * DWARF, built once per kernel, kept as a memory-mapped file, checked on
 * every open and rebuilt when stale or corrupt. docs/internals.md describes
 * the file.
 */
#ifndef STAPC_DEBUGINFO_KINDEX_H
#define STAPC_DEBUGINFO_KINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"

/* The sections an index can hold. */
enum kindex_section_id {
	KINDEX_BTF = 1,          /* the raw .BTF of vmlinux, as vmlinuz holds it compressed */
	KINDEX_INLINE_NAMES = 2, /* NUL-separated names of inlined functions, sorted by strcmp */
	KINDEX_INLINE_ENTRIES = 3, /* struct kindex_inline per name, in the same order */
	KINDEX_INLINE_CUS = 4,   /* uint64_t CU DIE offsets, each entry's run ascending */
	KINDEX_SYMBOLS = 5,      /* struct kindex_symbol: vmlinux's function symbols as dwarf.c sorts them */
	KINDEX_SYMBOL_NAMES = 6, /* their NUL-terminated names */
	KINDEX_KTEXT_SITES = 7,  /* uint64_t ftrace call sites of vmlinux, sorted (ktext.c) */
	KINDEX_KTEXT_BLACKLIST = 8, /* uint64_t kprobes blacklist entries, sorted (ktext.c) */
	KINDEX_KTEXT_RANGES = 9, /* ktext.c's init and blacklisted text ranges */
	KINDEX_TYPEDEFS = 10,    /* struct kindex_typedef: vmlinux's top-level typedefs, first of each name, in DWARF order */
	KINDEX_TYPEDEF_NAMES = 11, /* their NUL-terminated names */
	KINDEX_NAMES = 12,       /* a sorted name list (kindex_names_add): System.map's function symbols */
	KINDEX_NAME_OFFSETS = 13, /* uint32_t offsets of those names in KINDEX_NAMES, in name order */
	KINDEX_SUBPROGRAMS = 14, /* struct kindex_subprogram: vmlinux's concrete top-level functions, by address */
	KINDEX_SECTION_MAX = 15,
};

/* One inlined function's name and the compilation units with an inline instance of it. */
struct kindex_inline {
	uint32_t name;  /* offset in KINDEX_INLINE_NAMES */
	uint32_t first; /* first index in KINDEX_INLINE_CUS */
	uint32_t count; /* how many CU offsets */
};

/* A function symbol of vmlinux's symbol table. */
struct kindex_symbol {
	uint64_t name; /* offset in KINDEX_SYMBOL_NAMES */
	uint64_t addr; /* link-time address */
	uint64_t size; /* bytes */
};

/* A typedef DIE of vmlinux's DWARF. */
struct kindex_typedef {
	uint64_t name; /* offset in KINDEX_TYPEDEF_NAMES */
	uint64_t die;  /* its DIE offset */
};

/* A concrete subprogram DIE of vmlinux's DWARF: what dwarf.c would otherwise find through .debug_aranges. */
struct kindex_subprogram {
	uint64_t addr; /* its entry (DW_AT_low_pc) */
	uint64_t end;  /* its DW_AT_high_pc, or addr + 1 when its code is in several ranges */
	uint64_t die;  /* its DIE offset */
	uint64_t cu;   /* its compilation unit's DIE offset */
};

struct kindex;
struct kindex_writer;

/* Fills an index being built: adds sections with kindex_add; false if it could not (no index then). */
typedef bool (*kindex_build_fn)(void *arg, struct kindex_writer *w);

/* Is the index in use? ($STAPC_KINDEX=off turns it off, to compare against the paths without it.) */
bool kindex_enabled(void);

/*
 * The stored index named kind ("btf", "dwarf") of kernel release, built
 * from the file source, when its key (release, kind, source's build-id when
 * it is an ELF file, its device, inode, size and mtime) and checksums
 * match; else NULL, with *why saying what was wrong with a file that was
 * there (NULL: none was, or the index is disabled).
 */
struct kindex *kindex_load(const char *release, const char *kind, const char *source, const char **why);
/*
 * Build that index now with build and store it for the next run; NULL if
 * build fails. With say, stderr is told (once, then progress each second
 * past the first): the caller says so for a terminal or -v, so the output
 * of a script does not depend on whether an index existed.
 */
struct kindex *kindex_build(const char *release, const char *kind, const char *source, const char *why,
			    bool say, kindex_build_fn build, void *arg);
/* kindex_load, else kindex_build. */
struct kindex *kindex_open(const char *release, const char *kind, const char *source, bool say,
			   kindex_build_fn build, void *arg);

/* Section id's bytes; false if the index has none. */
bool kindex_section(const struct kindex *k, enum kindex_section_id id, const void **data, size_t *len);

/* Add a section (copied) to the index being built. */
void kindex_add(struct kindex_writer *w, enum kindex_section_id id, const void *data, size_t len);

/* Report how far a build is (done of total); shown once a build has taken over a second. */
void kindex_progress(struct kindex_writer *w, uint64_t done, uint64_t total);

/*
 * The CU DIE offsets, ascending and each once, of the compilation units
 * holding an inline instance of a function matching pattern (a glob or a
 * name), appended to out as uint64_t values cast to void *. False if the
 * index has no inline table (the caller walks every CU).
 */
bool kindex_inline_cus(const struct kindex *k, const char *pattern, struct vec *out);

/* The inline table while it is built: names as they are met, each with its CUs. */
struct kindex_inlines {
	struct strmap by_name; /* name -> struct vec of CU DIE offsets (uint64_t cast to void *) */
	struct vec names;      /* of const char *: each name once */
};
/* Note an inline instance of name in the CU at DIE offset cu (CUs are met in ascending order). */
void kindex_inline_note(struct kindex_inlines *t, const char *name, uint64_t cu);
/* Add the table as the three KINDEX_INLINE_* sections. */
void kindex_add_inlines(struct kindex_writer *w, struct kindex_inlines *t);

/* Add names (const char *, sorted by strcmp; a repeat is stored once) as KINDEX_NAMES and KINDEX_NAME_OFFSETS. */
void kindex_names_add(struct kindex_writer *w, const struct vec *names);
/* Is name in the index's KINDEX_NAMES? *listed: whether the index has such a list at all. */
bool kindex_names_has(const struct kindex *k, const char *name, bool *listed);
/* How many names KINDEX_NAMES holds (0 without one). */
size_t kindex_names_count(const struct kindex *k);
/* The i-th of them, in name order; NULL if there is no such name. */
const char *kindex_names_at(const struct kindex *k, size_t i);

/* The directory indexes live in: $STAPC_KINDEX_DIR, /var/cache/stapc/kindex, or the user's cache. */
const char *kindex_dir(void);

#endif
