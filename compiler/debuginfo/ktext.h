/*
 * ktext.h - what a kernel image (a linked vmlinux with its symbol table: the
 * -dbg package's) says about probing its functions: which entries are ftrace
 * sites (__mcount_loc), which lie in .init.text, and which the kprobes
 * blacklist refuses (_kprobe_blacklist entries, the __kprobes, noinstr and
 * entry text ranges). Pass 2 leaves such functions out of wildcards, and the
 * shared ftrace hook (runtime/linux/probes/ftrace_multi.c) is given the sites'
 * link-time addresses.
 */
#ifndef STAPC_DEBUGINFO_KTEXT_H
#define STAPC_DEBUGINFO_KTEXT_H

#include <stdbool.h>
#include <stdint.h>

struct ktext;

/* What a function entry is, for a probe at it. */
enum ktext_verdict {
	KTEXT_OK,        /* an ftrace site: hookable by the shared ftrace hook or a kprobe */
	KTEXT_INIT,      /* in .init.text or .exit.text: freed after boot */
	KTEXT_BLACKLIST, /* refused by the kprobes blacklist */
	KTEXT_NOTRACE,   /* no ftrace call site at its entry (notrace, or not built with fentry) */
};

/* Open path (a vmlinux with symbols); NULL and *err if it is not one or lacks the sections. */
struct ktext *ktext_open(const char *path, const char **err);

struct kindex;
struct kindex_writer;
/* ktext_open with what index k holds of it (no symbol scan, no sort); ktext_open's answer without. */
struct ktext *ktext_open_indexed(const char *path, const struct kindex *k, const char **err);
/* Add what ktext_open reads of path to the index being built; false if path has none of it. */
bool ktext_index(const char *path, struct kindex_writer *w);

/* The verdict for a function entering at entry; for KTEXT_OK, *site is its ftrace call site. */
enum ktext_verdict ktext_check(const struct ktext *k, uint64_t entry, uint64_t *site);

/* Link-time address of a symbol of any type (a function, a section marker); false if absent. */
bool ktext_symbol(const struct ktext *k, const char *name, uint64_t *addr);

#endif
