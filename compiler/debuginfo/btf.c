/*
 * btf.c - the debuginfo model from BTF (libbpf's parser).
 *
 * BTF is what a kernel built with CONFIG_DEBUG_INFO_BTF carries in its .BTF
 * section: every type, and a FUNC with a named prototype for each function
 * that has a symbol. It has no source files, lines, locals, inline instances
 * or variable locations, so:
 *   - a function's parameters are located by the calling convention at the
 *     function's entry (dbg_abi_locate);
 *   - statement probes, .inline and func@file need DWARF (ops->statements is NULL,
 *     dbg_func.file is NULL);
 *   - at a return probe only $return (rax) is known.
 *
 * Sources accepted: an ELF file with .BTF (vmlinux, a module .ko: split BTF
 * over the vmlinux base), a raw BTF blob (/sys/kernel/btf/vmlinux), or a
 * compressed bzImage (/boot/vmlinuz-R, see vmlinuz.c).
 */
#define _GNU_SOURCE /* memfd_create */
#include <bpf/btf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debuginfo.h"
#include "vmlinuz.h"

/* The backend's state. */
struct btf_state {
	struct btf *btf;             /* parsed BTF (owns a copy of the data) */
	struct dbg_type **types;     /* converted types by id, NULL until asked for */
	uint32_t ntypes;             /* btf__type_cnt */
	uint32_t first_id;           /* first id of this file's own types (split BTF: after the base) */
};

static const struct dbg_ops btf_ops;

static struct dbg_type *convert(struct debuginfo *di, uint32_t id);

static const char *name_of(struct btf_state *st, const struct btf_type *t)
{
	const char *name = btf__name_by_offset(st->btf, t->name_off);
	return name && *name ? name : NULL;
}

/* The dbg_type of BTF type id, converted once; id 0 is void (NULL). */
static struct dbg_type *convert(struct debuginfo *di, uint32_t id)
{
	struct btf_state *st = di->priv;
	if (id == 0 || id >= st->ntypes)
		return NULL;
	if (st->types[id])
		return st->types[id];
	const struct btf_type *t = btf__type_by_id(st->btf, id);
	const char *name = name_of(st, t);
	struct dbg_type *d;
	switch (btf_kind(t)) {
	case BTF_KIND_INT: {
		uint32_t enc = btf_int_encoding(t);
		d = dbg_type_new(di, DBG_INT, name, id);
		d->size = t->size;
		d->is_signed = (enc & BTF_INT_SIGNED) != 0;
		d->is_char = t->size == 1 && name && strstr(name, "char");
		break;
	}
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		d = dbg_type_new(di, DBG_ENUM, name, id);
		d->size = t->size;
		d->is_signed = btf_kflag(t);
		break;
	case BTF_KIND_FLOAT:
		d = dbg_type_new(di, DBG_FLOAT, name, id);
		d->size = t->size;
		break;
	case BTF_KIND_PTR:
		d = dbg_type_new(di, DBG_PTR, NULL, id);
		d->size = 8;
		st->types[id] = d; /* before the target: self-referential structs */
		d->target = convert(di, t->type);
		return d;
	case BTF_KIND_ARRAY: {
		const struct btf_array *a = btf_array(t);
		d = dbg_type_new(di, DBG_ARRAY, NULL, id);
		st->types[id] = d;
		d->target = convert(di, a->type);
		d->nelems = a->nelems;
		struct dbg_type *elem = dbg_type_strip(d->target);
		d->size = elem ? elem->size * a->nelems : 0;
		return d;
	}
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		d = dbg_type_new(di, btf_kind(t) == BTF_KIND_STRUCT ? DBG_STRUCT : DBG_UNION, name, id);
		d->size = t->size;
		break;
	case BTF_KIND_FWD:
		d = dbg_type_new(di, btf_kflag(t) ? DBG_UNION : DBG_STRUCT, name, id);
		d->incomplete = true;
		d->members_loaded = true;
		break;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_CONST:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_RESTRICT:
		d = dbg_type_new(di, btf_kind(t) == BTF_KIND_TYPEDEF ? DBG_TYPEDEF
				     : btf_kind(t) == BTF_KIND_CONST ? DBG_CONST : DBG_VOLATILE, name, id);
		st->types[id] = d;
		d->target = convert(di, t->type);
		d->size = dbg_type_strip(d) ? dbg_type_strip(d)->size : 0;
		return d;
	case BTF_KIND_TYPE_TAG:
	case BTF_KIND_DECL_TAG:
		/* annotations (__user, __rcu): the type itself */
		return st->types[id] = convert(di, t->type);
	case BTF_KIND_FUNC_PROTO:
		d = dbg_type_new(di, DBG_FUNC, NULL, id);
		break;
	default:
		d = dbg_type_new(di, DBG_VOID, NULL, id);
		break;
	}
	st->types[id] = d;
	return d;
}

static void btf_load_members(struct debuginfo *di, struct dbg_type *d)
{
	struct btf_state *st = di->priv;
	const struct btf_type *t = btf__type_by_id(st->btf, (uint32_t)d->handle);
	if (btf_is_func_proto(t)) {
		const struct btf_param *p = btf_params(t);
		for (int i = 0; i < btf_vlen(t); i++) {
			struct dbg_member *dm = ast_alloc(sizeof(*dm));
			const char *pname = btf__name_by_offset(st->btf, p[i].name_off);
			dm->name = pname && *pname ? pname : NULL;
			dm->type = convert(di, p[i].type);
			vec_push(&d->members, dm);
		}
		return;
	}
	if (!btf_is_composite(t))
		return;
	const struct btf_member *m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++) {
		struct dbg_member *dm = ast_alloc(sizeof(*dm));
		uint32_t bit = btf_member_bit_offset(t, (uint32_t)i);
		const char *mname = btf__name_by_offset(st->btf, m[i].name_off);
		dm->name = mname && *mname ? mname : NULL;
		dm->type = convert(di, m[i].type);
		dm->bit_size = (int)btf_member_bitfield_size(t, (uint32_t)i);
		if (dm->bit_size) {
			/* a bit-field: address its storage unit, the bits within it */
			struct dbg_type *unit = dbg_type_strip(dm->type);
			uint64_t unit_bits = unit && unit->size ? unit->size * 8 : 32;
			dm->offset = (bit / unit_bits) * (unit_bits / 8);
			dm->bit_offset = (int)(bit % unit_bits);
		} else {
			dm->offset = bit / 8;
		}
		vec_push(&d->members, dm);
	}
}

static void btf_variables(struct debuginfo *di, struct dbg_func *f, uint64_t pc, struct vec *out)
{
	(void)pc;
	struct btf_state *st = di->priv;
	const struct btf_type *fn = btf__type_by_id(st->btf, (uint32_t)f->handle);
	const struct btf_type *proto = btf__type_by_id(st->btf, fn->type);
	const struct btf_param *p = btf_params(proto);
	for (int i = 0; i < btf_vlen(proto); i++) {
		if (!p[i].name_off && !p[i].type)
			break; /* "..." */
		struct dbg_var *v = ast_alloc(sizeof(*v));
		v->name = btf__name_by_offset(st->btf, p[i].name_off);
		if (!v->name || !*v->name)
			v->name = ast_printf("arg%d", i + 1);
		v->type = convert(di, p[i].type);
		v->is_param = true;
		vec_push(out, v);
	}
	dbg_abi_locate(di, out);
}

static void btf_functions(struct debuginfo *di, const char *pattern, const char *file_glob, bool want_inline,
			  struct vec *out)
{
	struct btf_state *st = di->priv;
	if (file_glob || want_inline)
		return; /* BTF knows neither files nor inline instances */
	bool glob = dbg_is_glob(pattern);
	for (uint32_t id = st->first_id; id < st->ntypes; id++) {
		const struct btf_type *t = btf__type_by_id(st->btf, id);
		if (!btf_is_func(t))
			continue;
		const char *name = name_of(st, t);
		if (!name || (glob ? !dbg_glob_match(pattern, name) : strcmp(pattern, name)))
			continue;
		/* the same name twice (two static functions): keep the first, as kprobes would */
		bool dup = false;
		for (int i = 0; i < out->n && !dup; i++)
			dup = !strcmp(((struct dbg_func *)out->items[i])->name, name);
		if (dup)
			continue;
		struct dbg_func *f = ast_alloc(sizeof(*f));
		f->name = ast_strdup(name);
		f->symbol = f->name;
		f->di = di;
		f->handle = id;
		f->exported = dbg_is_exported(di, name);
		const struct btf_type *proto = btf__type_by_id(st->btf, t->type);
		f->ret = convert(di, proto->type);
		vec_push(out, f);
	}
}

static void btf_function_names(struct debuginfo *di, struct vec *out)
{
	struct btf_state *st = di->priv;
	for (uint32_t id = st->first_id; id < st->ntypes; id++) {
		const struct btf_type *t = btf__type_by_id(st->btf, id);
		const char *name = btf_is_func(t) ? name_of(st, t) : NULL;
		if (name)
			vec_push(out, (void *)name);
	}
}

/* "struct x" / "union x" / "enum x" / plain name (struct, union, typedef, enum, base type). */
static struct dbg_type *btf_find_type(struct debuginfo *di, const char *name)
{
	struct btf_state *st = di->priv;
	static const struct {
		const char *prefix;
		int kinds[4];
	} forms[] = {
		{"struct ", {BTF_KIND_STRUCT, BTF_KIND_FWD}},
		{"union ", {BTF_KIND_UNION, BTF_KIND_FWD}},
		{"enum ", {BTF_KIND_ENUM, BTF_KIND_ENUM64}},
		{"", {BTF_KIND_STRUCT, BTF_KIND_UNION, BTF_KIND_TYPEDEF, BTF_KIND_INT}},
	};
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		size_t n = strlen(forms[f].prefix);
		if (strncmp(name, forms[f].prefix, n))
			continue;
		for (int k = 0; k < 4 && forms[f].kinds[k]; k++) {
			int id = btf__find_by_name_kind(st->btf, name + n, (uint32_t)forms[f].kinds[k]);
			if (id > 0)
				return convert(di, (uint32_t)id);
		}
		return NULL;
	}
	return NULL;
}

static void btf_typedefs(struct debuginfo *di, const char *glob, struct vec *out)
{
	struct btf_state *st = di->priv;
	for (uint32_t id = st->first_id; id < st->ntypes; id++) {
		const struct btf_type *t = btf__type_by_id(st->btf, id);
		const char *name = btf_is_typedef(t) ? name_of(st, t) : NULL;
		if (name && dbg_glob_match(glob, name))
			vec_push(out, convert(di, id));
	}
}

/* An enumerator of any enum the BTF describes (BTF has no compilation units to scope it). */
static bool btf_enumerator(struct debuginfo *di, struct dbg_func *f, const char *name, struct dbg_var *out)
{
	struct btf_state *st = di->priv;
	(void)f;
	for (uint32_t id = 1; id < st->ntypes; id++) {
		const struct btf_type *t = btf__type_by_id(st->btf, id);
		if (btf_is_enum(t)) {
			const struct btf_enum *e = btf_enum(t);
			for (int i = 0; i < btf_vlen(t); i++)
				if (!strcmp(btf__name_by_offset(st->btf, e[i].name_off), name)) {
					*out = (struct dbg_var){.name = name, .type = convert(di, id),
								.loc = {.kind = DBG_LOC_CONST, .reg = -1, .offset = e[i].val}};
					return true;
				}
		} else if (btf_is_enum64(t)) {
			const struct btf_enum64 *e = btf_enum64(t);
			for (int i = 0; i < btf_vlen(t); i++)
				if (!strcmp(btf__name_by_offset(st->btf, e[i].name_off), name)) {
					*out = (struct dbg_var){.name = name, .type = convert(di, id),
								.loc = {.kind = DBG_LOC_CONST, .reg = -1,
									.offset = (int64_t)btf_enum64_value(e + i)}};
					return true;
				}
		}
	}
	return false;
}

/* The enumerators of enum t (BTF_KIND_ENUM or ENUM64), from its type id. */
static void btf_enumerators(struct debuginfo *di, struct dbg_type *t, struct vec *out)
{
	struct btf_state *st = di->priv;
	const struct btf_type *bt = btf__type_by_id(st->btf, (uint32_t)t->handle);
	if (!bt || (!btf_is_enum(bt) && !btf_is_enum64(bt)))
		return;
	for (int i = 0; i < btf_vlen(bt); i++) {
		struct dbg_var *v = ast_alloc(sizeof(*v));
		const struct btf_enum *e = btf_is_enum(bt) ? btf_enum(bt) + i : NULL;
		const struct btf_enum64 *e64 = e ? NULL : btf_enum64(bt) + i;
		int64_t value = e ? (btf_kflag(bt) ? (int64_t)e->val : (int64_t)(uint32_t)e->val)
				  : (int64_t)btf_enum64_value(e64);
		*v = (struct dbg_var){.name = btf__name_by_offset(st->btf, e ? e->name_off : e64->name_off), .type = t,
				      .loc = {.kind = DBG_LOC_CONST, .reg = -1, .offset = value}};
		vec_push(out, v);
	}
}

static const struct dbg_ops btf_ops = {
	.functions = btf_functions,
	.variables = btf_variables,
	.find_type = btf_find_type,
	.load_members = btf_load_members,
	.statements = NULL,
	.global = NULL,
	.typedefs = btf_typedefs,
	.function_names = btf_function_names,
	.enumerator = btf_enumerator,
	.enumerators = btf_enumerators,
};

/*
 * The .BTF section inside a kernel Image without ELF headers (arm64's
 * vmlinuz, plain or once decompressed): the first header with BTF's magic,
 * version 1 and a 24-byte header whose types come first and strings after
 * them, all inside the image. NULL if there is none.
 */
static const void *image_btf(const unsigned char *data, size_t len, size_t *btf_len)
{
	for (size_t off = 0; off + 24 <= len; off += 4) {	/* the section is 4-aligned */
		const unsigned char *h = data + off;
		if (h[0] != 0x9f || h[1] != 0xeb || h[2] != 1 || h[3] != 0)
			continue;
		uint32_t f[6];	/* magic+version+flags, hdr_len, type_off, type_len, str_off, str_len */
		memcpy(f, h, sizeof(f));
		if (f[1] != 24 || f[2] != 0 || f[4] != f[3] || f[5] == 0)
			continue;
		uint64_t total = 24ull + f[4] + f[5];
		if (total > len - off)
			continue;
		*btf_len = (size_t)total;
		return h;
	}
	return NULL;
}

/* The .BTF section of an ELF image in memory, or NULL. */
static const void *elf_btf_section(const unsigned char *data, size_t len, size_t *btf_len)
{
	elf_version(EV_CURRENT);
	Elf *elf = elf_memory((char *)data, len);
	size_t shstrndx;
	const void *found = NULL;
	if (!elf || elf_getshdrstrndx(elf, &shstrndx) != 0) {
		if (elf)
			elf_end(elf);
		return NULL;
	}
	for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn && !found; scn = elf_nextscn(elf, scn)) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".BTF") && sh.sh_type == SHT_PROGBITS && sh.sh_offset + sh.sh_size <= len) {
			found = data + sh.sh_offset;
			*btf_len = sh.sh_size;
		}
	}
	elf_end(elf);
	return found;
}

/* The file's len bytes in an anonymous mapping (freed with munmap like a file's), or MAP_FAILED. */
static unsigned char *read_whole(int fd, size_t len)
{
	unsigned char *buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return buf;
	size_t got = 0;
	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (got != len) {
		munmap(buf, len);
		return MAP_FAILED;
	}
	return buf;
}

/* The debuginfo over a parsed btf (base: the vmlinux one of a module's split BTF, or NULL). */
static struct debuginfo *btf_debuginfo(const char *path, struct btf *btf, struct debuginfo *base)
{
	struct btf_state *st = ast_alloc(sizeof(*st));
	st->btf = btf;
	st->ntypes = btf__type_cnt(btf);
	st->first_id = base ? btf__type_cnt(((struct btf_state *)base->priv)->btf) : 1;
	st->types = ast_alloc(sizeof(*st->types) * st->ntypes);
	struct debuginfo *di = ast_alloc(sizeof(*di));
	di->source = DBG_SOURCE_BTF;
	di->path = path;
	di->ops = &btf_ops;
	di->priv = st;
	return di;
}

/* path's bytes mapped (or read, for sysfs), with *len; MAP_FAILED (and *err) if it cannot be read. */
static unsigned char *map_whole(const char *path, size_t *len, const char **err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0) {
		*err = ast_printf("cannot open %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return MAP_FAILED;
	}
	*len = (size_t)sb.st_size;
	unsigned char *map = *len ? mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	if (map == MAP_FAILED && *len)
		map = read_whole(fd, *len); /* sysfs (/sys/kernel/btf/vmlinux) cannot be mapped */
	close(fd);
	if (map == MAP_FAILED)
		*err = ast_printf("cannot read %s", path);
	return map;
}

/*
 * The raw BTF inside map (an ELF's .BTF, a bzImage's decompressed ELF's, or
 * the file itself), into *raw (*unpacked: what to free after); why not.
 */
static const char *find_raw(const char *path, unsigned char *map, size_t len, const void **raw, size_t *raw_len,
			    unsigned char **unpacked)
{
	unsigned char *elf = map;
	size_t elf_len = len;
	*unpacked = NULL;
	if (vmlinuz_is_bzimage(map, len)) {
		const char *why = vmlinuz_extract(map, len, unpacked, &elf_len);
		if (why)
			return ast_printf("%s: %s", path, why);
		elf = *unpacked;
	}
	*raw = elf;
	*raw_len = elf_len;
	if (elf_len >= 4 && !memcmp(elf, "\177ELF", 4))
		*raw = elf_btf_section(elf, elf_len, raw_len);
	else if (elf_len >= 2 && !(elf[0] == 0x9f && elf[1] == 0xeb))
		*raw = image_btf(elf, elf_len, raw_len);	/* arm64's Image: no ELF headers */
	return NULL;
}

const char *dbg_btf_extract(const char *path, unsigned char **out, size_t *out_len)
{
	size_t len;
	const char *err = NULL;
	unsigned char *map = map_whole(path, &len, &err), *unpacked;
	if (map == MAP_FAILED)
		return err;
	const void *raw;
	size_t raw_len;
	err = find_raw(path, map, len, &raw, &raw_len, &unpacked);
	if (!err && !raw)
		err = ast_printf("%s has no BTF (.BTF section)", path);
	if (!err) {
		*out = malloc(raw_len ? raw_len : 1);
		if (!*out)
			abort();
		memcpy(*out, raw, raw_len);
		*out_len = raw_len;
	}
	free(unpacked);
	munmap(map, len);
	return err;
}

struct debuginfo *dbg_open_btf_raw(const char *path, const void *raw, size_t len, const char **err)
{
	struct btf *btf = len <= UINT32_MAX ? btf__new(raw, (uint32_t)len) : NULL;
	if (!btf) {
		*err = ast_printf("%s has no BTF that can be parsed", path);
		return NULL;
	}
	return btf_debuginfo(path, btf, NULL);
}

struct debuginfo *dbg_open_btf_split_raw(const char *path, const void *raw, size_t len, struct debuginfo *base,
					 const char **err)
{
	/* this libbpf exports no btf__new_split: hand it the bytes as a raw BTF file */
	int fd = memfd_create("stapc-btf", MFD_CLOEXEC);
	size_t done = 0;
	while (fd >= 0 && done < len) {
		ssize_t n = write(fd, (const char *)raw + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	struct btf *btf = fd >= 0 && done == len
		? btf__parse_raw_split(ast_printf("/proc/self/fd/%d", fd), ((struct btf_state *)base->priv)->btf) : NULL;
	if (fd >= 0)
		close(fd);
	if (!btf) {
		*err = ast_printf("%s has no BTF that can be parsed", path);
		return NULL;
	}
	return btf_debuginfo(path, btf, base);
}

struct debuginfo *dbg_open_btf(const char *path, struct debuginfo *base, const char **err)
{
	size_t len;
	unsigned char *map = map_whole(path, &len, err), *unpacked;
	if (map == MAP_FAILED)
		return NULL;
	const void *raw;
	size_t raw_len;
	const char *why = find_raw(path, map, len, &raw, &raw_len, &unpacked);
	if (why) {
		munmap(map, len);
		*err = why;
		return NULL;
	}
	struct btf *btf = NULL;
	if (raw && base) {
		/* a module's split BTF (this libbpf exports no btf__new_split: let it read the file) */
		btf = btf__parse_elf_split(path, ((struct btf_state *)base->priv)->btf);
	} else if (raw) {
		btf = btf__new(raw, (uint32_t)raw_len);
	}
	free(unpacked);
	munmap(map, len);
	if (!btf) { /* libbpf 1.x: NULL with errno set */
		*err = ast_printf("%s has no BTF%s", path, raw ? " that can be parsed" : " (.BTF section)");
		return NULL;
	}
	return btf_debuginfo(path, btf, base);
}
