/* ktext.c - ftrace sites, .init.text and the kprobes blacklist of a vmlinux, from its sections and symbols (see ktext.h). */
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ast.h"
#include "kindex.h"
#include "ktext.h"

/* A text range [lo, hi) the verdict applies to as a whole. */
struct krange {
	uint64_t lo, hi;
	enum ktext_verdict verdict;
};

struct ktext {
	int fd;
	Elf *elf;
	const uint64_t *sites;   /* __mcount_loc: every ftrace call site, sorted */
	size_t nsites;
	const uint64_t *blacklist; /* _kprobe_blacklist: function entries, sorted */
	size_t nblacklist;
	struct krange ranges[8]; /* init, exit, __kprobes, noinstr, entry text */
	int nranges;
};

/* The section markers read from the symbol table. */
enum {
	M_SINITTEXT, M_EINITTEXT, M_KPROBES_START, M_KPROBES_END, M_NOINSTR_START, M_NOINSTR_END,
	M_ENTRY_START, M_ENTRY_END, M_MCOUNT_START, M_MCOUNT_STOP, M_BL_START, M_BL_STOP, M_COUNT
};
static const char *const marker_names[M_COUNT] = {
	"_sinittext", "_einittext", "__kprobes_text_start", "__kprobes_text_end", "__noinstr_text_start",
	"__noinstr_text_end", "__entry_text_start", "__entry_text_end", "__start_mcount_loc", "__stop_mcount_loc",
	"__start_kprobe_blacklist", "__stop_kprobe_blacklist",
};

static int compare_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Visit every symbol of the symbol table; stop early when visit returns true. */
static bool each_symbol(const struct ktext *k, bool (*visit)(const char *name, uint64_t addr, void *arg), void *arg)
{
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(k->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t n = sh.sh_size / sh.sh_entsize;
		for (size_t i = 1; data && i < n; i++) {
			GElf_Sym sym;
			const char *name;
			if (gelf_getsym(data, (int)i, &sym) && (name = elf_strptr(k->elf, sh.sh_link, sym.st_name)) &&
			    *name && visit(name, sym.st_value, arg))
				return true;
		}
	}
	return false;
}

static bool visit_marker(const char *name, uint64_t addr, void *arg)
{
	uint64_t *m = arg;
	for (int i = 0; i < M_COUNT; i++)
		if (!m[i] && !strcmp(name, marker_names[i]))
			m[i] = addr;
	return false;
}

/* Read the array of u64 at [lo, hi) from the allocated section holding it; NULL if none does. */
static uint64_t *read_array(struct ktext *k, uint64_t lo, uint64_t hi, size_t *n)
{
	Elf_Scn *scn = NULL;
	*n = 0;
	if (hi < lo || (hi - lo) % 8)
		return NULL;
	while ((scn = elf_nextscn(k->elf, scn)) != NULL) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || sh.sh_type == SHT_NOBITS ||
		    lo < sh.sh_addr || hi > sh.sh_addr + sh.sh_size)
			continue;
		uint64_t *a = malloc(hi - lo + 8);
		if (!a || pread(k->fd, a, hi - lo, (off_t)(sh.sh_offset + (lo - sh.sh_addr))) != (ssize_t)(hi - lo)) {
			free(a);
			return NULL;
		}
		*n = (hi - lo) / 8;
		size_t sorted = 1; /* the kernel's build sorts __mcount_loc: check before sorting */
		while (sorted < *n && a[sorted - 1] <= a[sorted])
			sorted++;
		if (sorted < *n)
			qsort(a, *n, sizeof(*a), compare_u64);
		return a;
	}
	return NULL;
}

static void add_range(struct ktext *k, uint64_t lo, uint64_t hi, enum ktext_verdict v)
{
	if (lo && hi > lo)
		k->ranges[k->nranges++] = (struct krange){lo, hi, v};
}

struct ktext *ktext_open(const char *path, const char **err)
{
	struct ktext *k = ast_alloc(sizeof(*k));
	elf_version(EV_CURRENT);
	k->fd = open(path, O_RDONLY | O_CLOEXEC);
	k->elf = k->fd >= 0 ? elf_begin(k->fd, ELF_C_READ_MMAP, NULL) : NULL;
	if (!k->elf) {
		*err = ast_printf("cannot read %s as ELF", path);
		if (k->fd >= 0)
			close(k->fd);
		return NULL;
	}
	uint64_t m[M_COUNT] = {0};
	each_symbol(k, visit_marker, m);
	k->sites = read_array(k, m[M_MCOUNT_START], m[M_MCOUNT_STOP], &k->nsites);
	if (!k->sites || !m[M_SINITTEXT]) {
		*err = ast_printf("%s has no __mcount_loc section or no .init.text markers", path);
		elf_end(k->elf);
		close(k->fd);
		return NULL;
	}
	k->blacklist = read_array(k, m[M_BL_START], m[M_BL_STOP], &k->nblacklist);
	add_range(k, m[M_SINITTEXT], m[M_EINITTEXT], KTEXT_INIT);
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	if (elf_getshdrstrndx(k->elf, &shstrndx) == 0) {
		while ((scn = elf_nextscn(k->elf, scn)) != NULL) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(k->elf, shstrndx, sh.sh_name) : NULL;
			if (name && !strcmp(name, ".exit.text"))
				add_range(k, sh.sh_addr, sh.sh_addr + sh.sh_size, KTEXT_INIT);
		}
	}
	/* what the kernel's populate_kprobe_blacklist and x86's add as whole areas */
	add_range(k, m[M_KPROBES_START], m[M_KPROBES_END], KTEXT_BLACKLIST);
	add_range(k, m[M_NOINSTR_START], m[M_NOINSTR_END], KTEXT_BLACKLIST);
	add_range(k, m[M_ENTRY_START], m[M_ENTRY_END], KTEXT_BLACKLIST);
	return k;
}

bool ktext_index(const char *path, struct kindex_writer *w)
{
	const char *err;
	struct ktext *k = ktext_open(path, &err);
	if (!k)
		return false;
	kindex_add(w, KINDEX_KTEXT_SITES, k->sites, k->nsites * sizeof(uint64_t));
	kindex_add(w, KINDEX_KTEXT_BLACKLIST, k->blacklist, k->nblacklist * sizeof(uint64_t));
	kindex_add(w, KINDEX_KTEXT_RANGES, k->ranges, (size_t)k->nranges * sizeof(k->ranges[0]));
	elf_end(k->elf);
	close(k->fd);
	return true;
}

struct ktext *ktext_open_indexed(const char *path, const struct kindex *index, const char **err)
{
	const void *sites, *blacklist, *ranges;
	size_t sites_len, blacklist_len, ranges_len;
	if (!kindex_section(index, KINDEX_KTEXT_SITES, &sites, &sites_len) || !sites_len ||
	    !kindex_section(index, KINDEX_KTEXT_BLACKLIST, &blacklist, &blacklist_len) ||
	    !kindex_section(index, KINDEX_KTEXT_RANGES, &ranges, &ranges_len) ||
	    ranges_len > sizeof(((struct ktext *)0)->ranges) || ranges_len % sizeof(struct krange))
		return ktext_open(path, err);
	struct ktext *k = ast_alloc(sizeof(*k));
	elf_version(EV_CURRENT);
	k->fd = open(path, O_RDONLY | O_CLOEXEC);
	k->elf = k->fd >= 0 ? elf_begin(k->fd, ELF_C_READ_MMAP, NULL) : NULL; /* for ktext_symbol */
	if (!k->elf) {
		*err = ast_printf("cannot read %s as ELF", path);
		if (k->fd >= 0)
			close(k->fd);
		return NULL;
	}
	k->sites = sites;
	k->nsites = sites_len / sizeof(uint64_t);
	k->blacklist = blacklist_len ? blacklist : NULL;
	k->nblacklist = blacklist_len / sizeof(uint64_t);
	memcpy(k->ranges, ranges, ranges_len);
	k->nranges = (int)(ranges_len / sizeof(struct krange));
	return k;
}

/* Index of the first element >= key. */
static size_t lower_bound(const uint64_t *a, size_t n, uint64_t key)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (a[mid] < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The fentry call is the function's first instruction, or follows its
 * endbr64 (4 bytes) when the kernel is built for IBT: a site within the
 * first 8 bytes is the function's own (a function is never that short
 * and followed by another one's site: each is aligned and has a ret).
 */
#define KTEXT_SITE_SLACK 8

enum ktext_verdict ktext_check(const struct ktext *k, uint64_t entry, uint64_t *site)
{
	for (int i = 0; i < k->nranges; i++)
		if (entry >= k->ranges[i].lo && entry < k->ranges[i].hi)
			return k->ranges[i].verdict;
	size_t b = lower_bound(k->blacklist, k->nblacklist, entry);
	if (b < k->nblacklist && k->blacklist[b] == entry)
		return KTEXT_BLACKLIST;
	size_t s = lower_bound(k->sites, k->nsites, entry);
	if (s == k->nsites || k->sites[s] >= entry + KTEXT_SITE_SLACK)
		return KTEXT_NOTRACE;
	*site = k->sites[s];
	return KTEXT_OK;
}

struct find_arg {
	const char *name;
	uint64_t addr;
};

static bool visit_find(const char *name, uint64_t addr, void *arg)
{
	struct find_arg *f = arg;
	if (strcmp(name, f->name))
		return false;
	f->addr = addr;
	return true;
}

bool ktext_symbol(const struct ktext *k, const char *name, uint64_t *addr)
{
	struct find_arg f = {name, 0};
	if (!each_symbol(k, visit_find, &f))
		return false;
	*addr = f.addr;
	return true;
}
