/*
 * kindex.c - the per-kernel index file: built once per kernel, memory-mapped,
 * checked on every open, rebuilt when stale or corrupt.
 *
 * Reading a kernel's BTF means decompressing the whole vmlinuz (xz: about a
 * second), and finding a function's inline instances means walking every DIE
 * of the kernel's DWARF: pass 2 of a one-line script paid that on every run.
 * The index keeps what those answers need (the raw .BTF bytes; the names of
 * inlined functions with the compilation units that hold them) in one file
 * per kernel release and source (BTF or DWARF), so a later run maps it and
 * reads only what it asks for. Anything not in an index is answered by the
 * paths that read the kernel's own files, as before.
 *
 * File layout (little-endian, native structs):
 *   struct file_header    magic, version, total size, key, checksum of the header and table
 *   struct section_entry  [KINDEX_SECTION_MAX]: offset, length, checksum of each section
 *   sections              8-byte aligned
 * The key says what the index was built from (see source_key); a key that
 * differs (a reinstalled kernel), a size that is not the file's (a truncated
 * write), a checksum that fails (a corrupt file) or a section table pointing
 * outside the file make the index stale: it is rebuilt, never trusted. A new
 * index is written to a temporary file in the same directory and renamed
 * over the old one, so concurrent stap processes see the old file or the
 * whole new one.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buildid.h"
#include "debuginfo.h"
#include "kindex.h"

#define KINDEX_MAGIC "STAPCKIX"
#define KINDEX_VERSION 6
#define KINDEX_KEY_MAX 512
#define KINDEX_SYSTEM_DIR "/var/cache/stapc/kindex"

/* One section's place in the file. */
struct section_entry {
	uint64_t offset;   /* from the start of the file; 0 when absent */
	uint64_t length;   /* bytes */
	uint64_t checksum; /* kindex_hash of its bytes */
};

/* The start of an index file. */
struct file_header {
	char magic[8];                 /* KINDEX_MAGIC */
	uint32_t version;              /* KINDEX_VERSION */
	uint32_t header_size;          /* sizeof(struct file_header): a layout change is a new version */
	uint64_t file_size;            /* the whole file: a truncated one does not match */
	char key[KINDEX_KEY_MAX];      /* what it was built from, NUL-terminated (source_key) */
	struct section_entry sections[KINDEX_SECTION_MAX]; /* by enum kindex_section_id */
	uint64_t checksum;             /* kindex_hash of everything above */
};

/* An opened (or just built) index. */
struct kindex {
	const unsigned char *base;     /* the mapped file, or the built bytes */
	size_t len;
	const struct file_header *header;
};

/* Sections gathered while building, before they are laid out in a file. */
struct kindex_writer {
	void *data[KINDEX_SECTION_MAX];   /* malloc'd copies */
	size_t len[KINDEX_SECTION_MAX];
	const char *release;              /* for the progress line */
	struct timespec start;            /* when the build began */
	time_t last_shown;                /* seconds since start of the last progress line, 0: none */
	bool quiet;                       /* no progress lines */
};

bool kindex_enabled(void)
{
	const char *env = getenv("STAPC_KINDEX");
	return !env || (strcmp(env, "off") && strcmp(env, "0") && strcmp(env, "no"));
}

/* A 64-bit hash read eight bytes at a time: detects corruption, not a forger. */
static uint64_t kindex_hash(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0x6a09e667f3bcc908ull ^ len;
	while (len >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		h = (h ^ w) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 31;
		p += 8;
		len -= 8;
	}
	while (len--)
		h = (h ^ *p++) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

/* ---- where ---- */

static bool usable_dir(const char *dir)
{
	struct stat sb;
	return stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static void make_dirs(const char *path, mode_t mode)
{
	char *p = ast_strdup(path);
	for (char *slash = strchr(p + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = 0;
		mkdir(p, mode);
		*slash = '/';
	}
	mkdir(p, mode);
}

const char *kindex_dir(void)
{
	const char *dir = getenv("STAPC_KINDEX_DIR");
	if (dir && *dir)
		return dir;
	/* one index per kernel for the whole machine: root builds it, every user reads it */
	if (geteuid() == 0)
		make_dirs(KINDEX_SYSTEM_DIR, 0755);
	if (usable_dir(KINDEX_SYSTEM_DIR) && access(KINDEX_SYSTEM_DIR, W_OK) == 0)
		return KINDEX_SYSTEM_DIR;
	const char *base = getenv("STAPC_CACHE_DIR");
	if (base && *base)
		return ast_printf("%s/kindex", base);
	base = getenv("XDG_CACHE_HOME");
	if (base && *base == '/')
		return ast_printf("%s/stapc/kindex", base);
	base = getenv("HOME");
	if (base && *base)
		return ast_printf("%s/.cache/stapc/kindex", base);
	return NULL;
}

/* The system-wide file for name when a user who cannot write there may trust it (root's or its own). */
static const char *system_file(const char *name)
{
	const char *path = ast_printf("%s/%s", KINDEX_SYSTEM_DIR, name);
	struct stat sb;
	if (stat(path, &sb) != 0 || (sb.st_uid != 0 && sb.st_uid != geteuid()) || (sb.st_mode & 022))
		return NULL;
	return path;
}

/* ---- the key ---- */

/* What the index of source depends on: a reinstalled or rebuilt kernel changes it. */
static const char *source_key(const char *release, const char *kind, const char *source)
{
	struct stat sb;
	if (stat(source, &sb) != 0)
		return NULL;
	const char *id = buildid_of_file(source); /* an ELF (vmlinux); a bzImage has none readable */
	const char *key = ast_printf("release=%s kind=%s source=%s build-id=%s dev=%llu ino=%llu size=%lld mtime=%lld.%09ld",
				     release, kind, source, id ? id : "-", (unsigned long long)sb.st_dev,
				     (unsigned long long)sb.st_ino, (long long)sb.st_size, (long long)sb.st_mtim.tv_sec,
				     sb.st_mtim.tv_nsec);
	return strlen(key) < KINDEX_KEY_MAX ? key : NULL;
}

/* ---- reading ---- */

/* NULL if the bytes are a whole, uncorrupted index built with key, else why not. */
static const char *check(const unsigned char *base, size_t len, const char *key)
{
	const struct file_header *h = (const void *)base;
	if (len < sizeof(*h) || memcmp(h->magic, KINDEX_MAGIC, 8))
		return "not an index";
	if (h->version != KINDEX_VERSION || h->header_size != sizeof(*h))
		return "another version";
	if (h->file_size != len)
		return "truncated";
	if (kindex_hash(h, offsetof(struct file_header, checksum)) != h->checksum)
		return "corrupt header";
	if (strncmp(h->key, key, KINDEX_KEY_MAX))
		return "built from another kernel file";
	for (int i = 0; i < KINDEX_SECTION_MAX; i++) {
		const struct section_entry *s = &h->sections[i];
		if (!s->offset)
			continue;
		if (s->offset < sizeof(*h) || s->offset > len || s->length > len - s->offset)
			return "section outside the file";
		if (kindex_hash(base + s->offset, s->length) != s->checksum)
			return "corrupt section";
	}
	return NULL;
}

/* The index in file path if it is good; NULL (with *why) if missing or not. */
static struct kindex *map_file(const char *path, const char *key, const char **why)
{
	*why = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	struct stat sb;
	void *map = fstat(fd, &sb) == 0 && sb.st_size > 0
		? mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	close(fd);
	if (map == MAP_FAILED) {
		*why = sb.st_size ? "cannot be mapped" : "empty";
		return NULL;
	}
	*why = check(map, (size_t)sb.st_size, key);
	if (*why) {
		munmap(map, (size_t)sb.st_size);
		return NULL;
	}
	struct kindex *k = ast_alloc(sizeof(*k));
	k->base = map;
	k->len = (size_t)sb.st_size;
	k->header = map;
	return k;
}

bool kindex_section(const struct kindex *k, enum kindex_section_id id, const void **data, size_t *len)
{
	if (!k || id <= 0 || id >= KINDEX_SECTION_MAX || !k->header->sections[id].offset)
		return false;
	*data = k->base + k->header->sections[id].offset;
	*len = k->header->sections[id].length;
	return true;
}

/* ---- building ---- */

void kindex_add(struct kindex_writer *w, enum kindex_section_id id, const void *data, size_t len)
{
	free(w->data[id]);
	w->data[id] = malloc(len ? len : 1);
	if (!w->data[id])
		abort();
	memcpy(w->data[id], data, len);
	w->len[id] = len;
}

void kindex_progress(struct kindex_writer *w, uint64_t done, uint64_t total)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	time_t elapsed = now.tv_sec - w->start.tv_sec;
	if (w->quiet || elapsed < 1 || elapsed == w->last_shown || !total)
		return;
	w->last_shown = elapsed;
	fprintf(stderr, "stap: indexing kernel %s: %d%%\n", w->release, (int)(done * 100 / total));
}

/* Lay the gathered sections out as a file image (malloc'd) under key. */
static unsigned char *lay_out(struct kindex_writer *w, const char *key, size_t *out_len)
{
	size_t len = sizeof(struct file_header);
	for (int i = 0; i < KINDEX_SECTION_MAX; i++)
		if (w->data[i])
			len = ((len + 7) & ~(size_t)7) + w->len[i];
	unsigned char *image = calloc(1, len);
	if (!image)
		abort();
	struct file_header *h = (void *)image;
	memcpy(h->magic, KINDEX_MAGIC, 8);
	h->version = KINDEX_VERSION;
	h->header_size = sizeof(*h);
	h->file_size = len;
	strncpy(h->key, key, KINDEX_KEY_MAX - 1);
	size_t at = sizeof(*h);
	for (int i = 0; i < KINDEX_SECTION_MAX; i++) {
		if (!w->data[i])
			continue;
		at = (at + 7) & ~(size_t)7;
		memcpy(image + at, w->data[i], w->len[i]);
		h->sections[i] = (struct section_entry){at, w->len[i], kindex_hash(image + at, w->len[i])};
		at += w->len[i];
		free(w->data[i]);
	}
	h->checksum = kindex_hash(h, offsetof(struct file_header, checksum));
	*out_len = len;
	return image;
}

/* Write image to path through a temporary file renamed over it; quiet when the directory is not writable. */
static void store(const char *dir, const char *path, const unsigned char *image, size_t len)
{
	make_dirs(dir, 0755);
	const char *tmp = ast_printf("%s.tmp.%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	size_t done = 0;
	while (done < len) {
		ssize_t n = write(fd, image + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (close(fd) != 0 || done != len || rename(tmp, path) != 0)
		unlink(tmp);
}

/* Where the index named name lives, if indexes are in use. */
static const char *index_path(const char *release, const char *kind, const char **dir)
{
	*dir = kindex_enabled() ? kindex_dir() : NULL;
	return *dir ? ast_printf("%s/%s.%s.kix", *dir, release, kind) : NULL;
}

struct kindex *kindex_load(const char *release, const char *kind, const char *source, const char **why)
{
	const char *dir, *path = index_path(release, kind, &dir);
	const char *key = path ? source_key(release, kind, source) : NULL;
	*why = NULL;
	if (!key)
		return NULL;
	struct kindex *k = map_file(path, key, why);
	/* a user who cannot write the system-wide directory still reads root's index there */
	const char *chosen = getenv("STAPC_KINDEX_DIR");
	const char *shared = strcmp(dir, KINDEX_SYSTEM_DIR) && !(chosen && *chosen)
		? system_file(ast_printf("%s.%s.kix", release, kind)) : NULL;
	if (!k && !*why && shared)
		k = map_file(shared, key, why);
	return k;
}

struct kindex *kindex_build(const char *release, const char *kind, const char *source, const char *why,
			    bool say, kindex_build_fn build, void *arg)
{
	const char *dir, *path = index_path(release, kind, &dir);
	const char *key = path ? source_key(release, kind, source) : NULL;
	if (!key)
		return NULL;
	struct kindex_writer w = {.release = release, .quiet = !say};
	clock_gettime(CLOCK_MONOTONIC, &w.start);
	if (say)
		fprintf(stderr, "stap: indexing kernel %s (%s%s%s) ...\n", release, kind, why ? ": the index was " : "",
		why ? why : "");
	if (!build(arg, &w)) {
		for (int i = 0; i < KINDEX_SECTION_MAX; i++)
			free(w.data[i]);
		return NULL;
	}
	size_t len;
	unsigned char *image = lay_out(&w, key, &len);
	store(dir, path, image, len);
	struct kindex *k = ast_alloc(sizeof(*k));
	k->base = image; /* kept for this run: freed at exit */
	k->len = len;
	k->header = (const void *)image;
	return k;
}

struct kindex *kindex_open(const char *release, const char *kind, const char *source, bool say,
			   kindex_build_fn build, void *arg)
{
	const char *why;
	struct kindex *k = kindex_load(release, kind, source, &why);
	return k ? k : kindex_build(release, kind, source, why, say, build, arg);
}

/* ---- the inline table ---- */

static int compare_offsets(const void *a, const void *b)
{
	uint64_t x = (uint64_t)(uintptr_t) * (void *const *)a, y = (uint64_t)(uintptr_t) * (void *const *)b;
	return x < y ? -1 : x > y;
}

bool kindex_inline_cus(const struct kindex *k, const char *pattern, struct vec *out)
{
	const void *names_v, *entries_v, *cus_v;
	size_t names_len, entries_len, cus_len;
	if (!kindex_section(k, KINDEX_INLINE_NAMES, &names_v, &names_len) ||
	    !kindex_section(k, KINDEX_INLINE_ENTRIES, &entries_v, &entries_len) ||
	    !kindex_section(k, KINDEX_INLINE_CUS, &cus_v, &cus_len) || !names_len || names_len > UINT32_MAX ||
	    ((const char *)names_v)[names_len - 1])
		return false;
	const char *names = names_v;
	const struct kindex_inline *entries = entries_v;
	const uint64_t *cus = cus_v;
	size_t n = entries_len / sizeof(*entries), ncus = cus_len / sizeof(*cus);
	size_t lo = 0, hi = n;
	int start = out->n;
	bool glob = dbg_is_glob(pattern);
	if (!glob) { /* sorted by name: the one entry */
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			int c = entries[mid].name < names_len ? strcmp(names + entries[mid].name, pattern) : 1;
			if (c < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		hi = lo + 1 <= n ? lo + 1 : n;
	}
	for (size_t i = lo; i < hi; i++) {
		const struct kindex_inline *e = &entries[i];
		if (e->name >= names_len || e->first > ncus || e->count > ncus - e->first)
			return false; /* checked by its checksum: only a bug gets here */
		const char *name = names + e->name;
		if (glob ? !dbg_glob_match(pattern, name) : strcmp(name, pattern))
			continue;
		for (uint32_t j = 0; j < e->count; j++)
			vec_push(out, (void *)(uintptr_t)cus[e->first + j]);
	}
	if (glob && out->n - start > 1) {
		qsort(out->items + start, (size_t)(out->n - start), sizeof(void *), compare_offsets);
		int kept = start;
		for (int i = start; i < out->n; i++)
			if (i == start || out->items[i] != out->items[kept - 1])
				out->items[kept++] = out->items[i];
		out->n = kept;
	}
	return true;
}

void kindex_inline_note(struct kindex_inlines *t, const char *name, uint64_t cu)
{
	struct vec *v = strmap_vec(&t->by_name, name);
	if (!v->n) {
		name = ast_intern(name);
		v = strmap_vec(&t->by_name, name);
		vec_push(&t->names, (void *)name);
	}
	if (!v->n || (uint64_t)(uintptr_t)v->items[v->n - 1] != cu)
		vec_push(v, (void *)(uintptr_t)cu);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void kindex_add_inlines(struct kindex_writer *w, struct kindex_inlines *t)
{
	vec_sort(&t->names, compare_names);
	size_t names_len = 1, ncus = 0;
	for (int i = 0; i < t->names.n; i++) {
		names_len += strlen(t->names.items[i]) + 1;
		ncus += (size_t)strmap_vec(&t->by_name, t->names.items[i])->n;
	}
	char *names = calloc(1, names_len);
	struct kindex_inline *entries = calloc((size_t)t->names.n + 1, sizeof(*entries));
	uint64_t *cus = calloc(ncus + 1, sizeof(*cus));
	if (!names || !entries || !cus)
		abort();
	size_t at = 1, c = 0; /* offset 0: the empty name, never used */
	for (int i = 0; i < t->names.n; i++) {
		const char *name = t->names.items[i];
		struct vec *v = strmap_vec(&t->by_name, name);
		entries[i] = (struct kindex_inline){(uint32_t)at, (uint32_t)c, (uint32_t)v->n};
		strcpy(names + at, name);
		at += strlen(name) + 1;
		for (int j = 0; j < v->n; j++)
			cus[c++] = (uint64_t)(uintptr_t)v->items[j];
	}
	kindex_add(w, KINDEX_INLINE_NAMES, names, names_len);
	kindex_add(w, KINDEX_INLINE_ENTRIES, entries, (size_t)t->names.n * sizeof(*entries));
	kindex_add(w, KINDEX_INLINE_CUS, cus, ncus * sizeof(*cus));
	free(names);
	free(entries);
	free(cus);
}

void kindex_names_add(struct kindex_writer *w, const struct vec *names)
{
	size_t len = 1;
	for (int i = 0; i < names->n; i++)
		len += strlen(names->items[i]) + 1;
	char *text = calloc(1, len);
	uint32_t *offsets = calloc((size_t)names->n + 1, sizeof(*offsets));
	if (!text || !offsets || len > UINT32_MAX)
		abort();
	size_t at = 1;
	int kept = 0;
	for (int i = 0; i < names->n; i++) {
		if (i && !strcmp(names->items[i], names->items[i - 1]))
			continue;	/* sorted: a repeat follows its first */
		offsets[kept++] = (uint32_t)at;
		strcpy(text + at, names->items[i]);
		at += strlen(names->items[i]) + 1;
	}
	kindex_add(w, KINDEX_NAMES, text, at);
	kindex_add(w, KINDEX_NAME_OFFSETS, offsets, (size_t)kept * sizeof(*offsets));
	free(text);
	free(offsets);
}

size_t kindex_names_count(const struct kindex *k)
{
	const void *offsets;
	size_t len;
	return kindex_section(k, KINDEX_NAME_OFFSETS, &offsets, &len) ? len / sizeof(uint32_t) : 0;
}

bool kindex_names_has(const struct kindex *k, const char *name, bool *listed)
{
	const void *text_v, *offsets_v;
	size_t text_len, offsets_len;
	*listed = kindex_section(k, KINDEX_NAMES, &text_v, &text_len) &&
		  kindex_section(k, KINDEX_NAME_OFFSETS, &offsets_v, &offsets_len) && text_len &&
		  !((const char *)text_v)[text_len - 1];
	if (!*listed)
		return false;
	const char *text = text_v;
	const uint32_t *offsets = offsets_v;
	size_t lo = 0, hi = offsets_len / sizeof(*offsets);
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = offsets[mid] < text_len ? strcmp(text + offsets[mid], name) : 1;
		if (!c)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

const char *kindex_names_at(const struct kindex *k, size_t i)
{
	const void *text, *offsets;
	size_t text_len, offsets_len;
	if (!kindex_section(k, KINDEX_NAMES, &text, &text_len) ||
	    !kindex_section(k, KINDEX_NAME_OFFSETS, &offsets, &offsets_len) || i >= offsets_len / sizeof(uint32_t) ||
	    !text_len || ((const char *)text)[text_len - 1] || ((const uint32_t *)offsets)[i] >= text_len)
		return NULL;
	return (const char *)text + ((const uint32_t *)offsets)[i];
}
