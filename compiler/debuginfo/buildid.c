/*
 * buildid.c - finding an ELF file by its GNU build-id.
 *
 * A file's build-id is read from its notes alone (the program headers'
 * PT_NOTE segments, else the SHT_NOTE sections), with a few preads and no
 * libelf handle, so that scanning a directory of a thousand programs costs
 * a few milliseconds. A scan visits each directory (and each file) once
 * however many links lead to it (/bin and /usr/bin on a merged /usr).
 */
#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buildid.h"

/* Longest note read: a build-id is 20 bytes (sha1), at most 64 here. */
#define NOTE_MAX 4096

bool buildid_is_hex(const char *text)
{
	size_t n = strlen(text);
	if (n < 16 || n > 128 || n % 2)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isxdigit((unsigned char)text[i]))
			return false;
	return true;
}

/* The build-id among the notes in buf[0..size), as hex; NULL if none. */
static const char *note_buildid(const unsigned char *buf, size_t size)
{
	size_t at = 0;
	while (at + sizeof(Elf64_Nhdr) <= size) {
		Elf64_Nhdr nh;
		memcpy(&nh, buf + at, sizeof(nh));
		size_t name = at + sizeof(nh), desc = name + ((nh.n_namesz + 3) & ~3u);
		if (desc > size || nh.n_descsz > size - desc)
			return NULL;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(buf + name, "GNU", 4) &&
		    nh.n_descsz > 0 && nh.n_descsz <= 64) {
			char *hex = ast_alloc(nh.n_descsz * 2 + 1);
			for (size_t i = 0; i < nh.n_descsz; i++)
				sprintf(hex + 2 * i, "%02x", buf[desc + i]);
			return hex;
		}
		at = desc + ((nh.n_descsz + 3) & ~3u);
	}
	return NULL;
}

/* The build-id in the note area at file offset off, size bytes; NULL if none. */
static const char *read_notes(int fd, uint64_t off, uint64_t size)
{
	unsigned char buf[NOTE_MAX];
	if (size > sizeof(buf))
		size = sizeof(buf);
	ssize_t n = pread(fd, buf, size, (off_t)off);
	return n > 0 ? note_buildid(buf, (size_t)n) : NULL;
}

/* The first build-id in the note areas of n program headers (or section headers) at table. */
static const char *table_buildid(int fd, uint64_t table, uint64_t entsize, int n, bool sections)
{
	for (int i = 0; i < n; i++) {
		union {
			Elf64_Phdr ph;
			Elf64_Shdr sh;
		} h;
		size_t size = sections ? sizeof(h.sh) : sizeof(h.ph);
		if (pread(fd, &h, size, (off_t)(table + (uint64_t)i * entsize)) != (ssize_t)size)
			return NULL;
		const char *id = NULL;
		if (sections ? h.sh.sh_type == SHT_NOTE : h.ph.p_type == PT_NOTE)
			id = sections ? read_notes(fd, h.sh.sh_offset, h.sh.sh_size) : read_notes(fd, h.ph.p_offset, h.ph.p_filesz);
		if (id)
			return id;
	}
	return NULL;
}

/* From the PT_NOTE segments, or the SHT_NOTE sections of a file without program headers. */
static const char *elf64_buildid(int fd, const Elf64_Ehdr *eh)
{
	if (eh->e_phnum)
		return table_buildid(fd, eh->e_phoff, eh->e_phentsize, eh->e_phnum < 64 ? eh->e_phnum : 64, false);
	return table_buildid(fd, eh->e_shoff, eh->e_shentsize, eh->e_shnum < 256 ? eh->e_shnum : 256, true);
}

const char *buildid_of_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	Elf64_Ehdr eh;
	const char *id = NULL;
	if (pread(fd, &eh, sizeof(eh), 0) == sizeof(eh) && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr) &&
	    (eh.e_shentsize == sizeof(Elf64_Shdr) || !eh.e_shnum))
		id = elf64_buildid(fd, &eh);
	close(fd);
	return id;
}

/* A scan's state: what it has visited, and how many files it may still read. */
struct scan {
	const char *hex;        /* the build-id wanted */
	struct strmap seen;     /* "dev:ino" of the directories and files visited */
	int budget;             /* files it may still read */
};

/* Marks the file or directory st visited; false if it was already. */
static bool first_visit(struct scan *sc, const struct stat *st)
{
	void **slot = strmap_slot(&sc->seen, ast_printf("%llx:%llx", (unsigned long long)st->st_dev,
							 (unsigned long long)st->st_ino));
	if (*slot)
		return false;
	*slot = sc;
	return true;
}

/* dir's regular files, and those of its subdirectories down to depth more levels. */
static const char *scan_dir(struct scan *sc, const char *dir, int depth)
{
	struct stat st;
	DIR *d;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || !first_visit(sc, &st) || !(d = opendir(dir)))
		return NULL;
	const char *found = NULL;
	struct vec subdirs = {0};
	for (struct dirent *e; !found && sc->budget > 0 && (e = readdir(d));) {
		if (e->d_name[0] == '.')
			continue;
		const char *path = ast_printf("%s/%s", dir, e->d_name);
		if (stat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode)) {
			if (depth > 0)
				vec_push(&subdirs, (void *)path);
		} else if (S_ISREG(st.st_mode) && st.st_size >= (off_t)sizeof(Elf64_Ehdr) && first_visit(sc, &st)) {
			sc->budget--;
			const char *id = buildid_of_file(path);
			if (id && !strcmp(id, sc->hex))
				found = path;
		}
	}
	closedir(d);
	for (int i = 0; !found && i < subdirs.n; i++)
		found = scan_dir(sc, subdirs.items[i], depth - 1);
	return found;
}

/* host if it is a file with build-id hex (a link to one counts), else NULL. */
static const char *if_match(const char *host, const char *hex)
{
	const char *id = buildid_of_file(host);
	return id && !strcmp(id, hex) ? host : NULL;
}

const char *buildid_find_local(const char *hex, const char *sysroot, const struct vec *candidates,
			       const char *dirs)
{
	for (int i = 0; i < candidates->n; i++)
		if (if_match(candidates->items[i], hex))
			return candidates->items[i];
	/* the link an rpm installs beside the .debug one: to the executable itself */
	char real[PATH_MAX];
	const char *link = ast_printf("%s/usr/lib/debug/.build-id/%.2s/%s", sysroot, hex, hex + 2);
	if (realpath(link, real) && if_match(real, hex))
		return ast_strdup(real);
	struct scan sc = {.hex = hex, .budget = BUILDID_SCAN_MAX};
	while (*dirs) {
		size_t len = strcspn(dirs, ":");
		const char *found = len ? scan_dir(&sc, ast_printf("%s%.*s", sysroot, (int)len, dirs), 1) : NULL;
		if (found)
			return found;
		dirs += len + (dirs[len] == ':');
	}
	return NULL;
}

/* libdebuginfod's calls (debuginfod.h), declared here: it is loaded only when used. */
typedef void *(*debuginfod_begin_fn)(void);
typedef int (*debuginfod_find_fn)(void *client, const unsigned char *build_id, int build_id_len, char **path);
typedef void (*debuginfod_end_fn)(void *client);

const char *buildid_debuginfod(const char *hex, const char **why)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	if (!urls || !*urls) {
		*why = "DEBUGINFOD_URLS is not set";
		return NULL;
	}
	void *lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		*why = ast_printf("cannot load libdebuginfod (%s)", dlerror());
		return NULL;
	}
	debuginfod_begin_fn begin = (debuginfod_begin_fn)dlsym(lib, "debuginfod_begin");
	debuginfod_find_fn find = (debuginfod_find_fn)dlsym(lib, "debuginfod_find_executable");
	debuginfod_end_fn end = (debuginfod_end_fn)dlsym(lib, "debuginfod_end");
	void *client = begin && find && end ? begin() : NULL;
	const char *found = NULL;
	*why = "libdebuginfod has no client";
	if (client) {
		char *path = NULL;
		/* a length of 0: the build-id is given as a hex string */
		int fd = find(client, (const unsigned char *)hex, 0, &path);
		if (fd >= 0) {
			close(fd);
			found = path ? ast_strdup(path) : NULL;
		} else {
			*why = ast_printf("the servers of DEBUGINFOD_URLS (%s) have no executable with that build-id: %s",
					  urls, strerror(-fd));
		}
		free(path);
		end(client);
	}
	dlclose(lib);
	return found;
}
