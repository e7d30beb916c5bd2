/*
 * suggest.h - what the target has instead of a name it no longer has.
 *
 * Scripts written for older kernels name members, functions and parameters
 * that Linux has since moved or renamed: $bio->bi_size (now inside
 * bi_iter), sys_io_submit (now behind the arch prefix __x64_sys_),
 * $cachep of kmem_cache_alloc (now $s), do_sync_read (new_sync_read). Each
 * function here reads the target's own debuginfo (DWARF or BTF) and
 * answers with the candidates, best first; the caller prints them as a
 * note, or with --adapt applies a unique one.
 *
 * Bounds: member searches look two levels of embedded structs down; name
 * searches use an index of the binary's function names built once per
 * debuginfo (di->names) and a banded edit distance, so an error costs one
 * pass over the sorted names with a length filter, never a pairwise scan.
 */
#ifndef STAPC_SUGGEST_H
#define STAPC_SUGGEST_H

#include "debuginfo.h"

/* At most this many similar names are suggested. */
#define SUGGEST_MAX_SIMILAR 6

/*
 * Member field of struct/union t one or two levels of embedded (not
 * pointed-to) structs or unions down, as paths "bi_iter->bi_size"
 * (const char *) of the shallowest level that has any.
 */
void suggest_members(struct dbg_type *t, const char *field, struct vec *out);

/*
 * The function name behind an arch or syscall prefix: for "sys_X" or "X",
 * the functions __x64_sys_X, __ia32_sys_X, __se_sys_X, __do_sys_X, ksys_X
 * the binary has (const char *), in that order.
 */
void suggest_prefixed(struct debuginfo *di, const char *name, struct vec *out);
/* The same names whether the binary has them or not (a symbol table checks them: kprobe.function). */
void suggest_prefix_forms(const char *name, struct vec *out);

/*
 * Functions of similar name (const char *), best first, at most
 * SUGGEST_MAX_SIMILAR, none of those in skip (const char *): within an
 * edit distance of about a quarter of the name's length, then those holding
 * every '_'-separated word of name in order, then those with the same first
 * and last word around another middle (do_iter_read for do_sync_read).
 */
void suggest_similar(struct debuginfo *di, const char *name, const struct vec *skip, struct vec *out);
/* The same among names (const char *, in any order, repeats allowed): one file's functions. */
void suggest_similar_among(const struct vec *names, const char *name, const struct vec *skip, struct vec *out);

/*
 * Parameters of vars (struct dbg_var *) that can stand for the missing
 * variable name: one whose type is named like it ($cachep: struct
 * kmem_cache *, $bio: struct bio *), else one whose type has every member
 * in members (const char *: what the script reads through $name). Into out
 * as struct dbg_var *.
 */
void suggest_variables(const struct vec *vars, const char *name, const struct vec *members, struct vec *out);

/* The binary's function names, sorted, each once (built on first use). */
const struct vec *suggest_function_names(struct debuginfo *di);

#endif
