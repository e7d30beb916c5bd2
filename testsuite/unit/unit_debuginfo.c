/*
 * unit_debuginfo.c - the debuginfo layer against the real files of an
 * installed Debian kernel: BTF from the compressed /boot/vmlinuz-R and DWARF
 * from linux-image-R-dbg must describe the same functions and types.
 *
 * The release is argv[1], else the newest R with both /boot/vmlinuz-R and
 * /usr/lib/debug/boot/vmlinux-R. Most checks compare the two sources with
 * each other (neither is hand-copied); a few pin facts of the C source that
 * any 6.x kernel has (vfs_read's parameters, task_struct.comm is char[16]).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "debuginfo.h"
#include "unit.h"
#include "vmlinuz.h"

static const char *pick_release(void)
{
	DIR *d = opendir("/boot");
	const char *best = NULL;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "vmlinuz-", 8))
			continue;
		struct stat st;
		const char *rel = e->d_name + 8;
		if (stat(ast_printf("/usr/lib/debug/boot/vmlinux-%s", rel), &st) == 0 &&
		    (!best || strverscmp(rel, best) > 0))
			best = ast_strdup(rel);
	}
	if (d)
		closedir(d);
	return best;
}

static struct dbg_func *one_function(struct debuginfo *di, const char *name)
{
	struct vec v = {0};
	dbg_functions(di, name, NULL, false, &v);
	return v.n == 1 ? v.items[0] : NULL;
}

static struct dbg_var *find_var(struct vec *vars, const char *name)
{
	for (int i = 0; i < vars->n; i++) {
		struct dbg_var *v = vars->items[i];
		if (!strcmp(v->name, name))
			return v;
	}
	return NULL;
}

/* The same function's parameters from both sources: names, types, entry registers. */
static void compare_params(struct debuginfo *btf, struct debuginfo *dwarf, const char *name)
{
	struct dbg_func *fb = one_function(btf, name), *fd = one_function(dwarf, name);
	CHECK(fb && fd);
	if (!fb || !fd)
		return;
	struct vec vb = {0}, vd = {0};
	dbg_variables(btf, fb, fb->addr, &vb);
	dbg_variables(dwarf, fd, fd->addr, &vd);
	int np = 0;
	for (int i = 0; i < vd.n; i++)
		np += ((struct dbg_var *)vd.items[i])->is_param;
	CHECK(vb.n == np);
	for (int i = 0; i < vb.n && i < vd.n; i++) {
		struct dbg_var *b = vb.items[i], *d = vd.items[i];
		CHECK_STR(b->name, d->name);
		CHECK_STR(dbg_type_text(b->type), dbg_type_text(d->type));
		/* at the entry, DWARF says the parameter is in the register the ABI gives it */
		if (b->loc.kind == DBG_LOC_REG) {
			CHECK(d->loc.kind == DBG_LOC_REG);
			CHECK(d->loc.reg == b->loc.reg);
		}
	}
	CHECK_STR(dbg_type_text(fb->ret), dbg_type_text(fd->ret));
}

/* Every member of a struct at the same offset with the same type text in both. */
static void compare_struct(struct debuginfo *btf, struct debuginfo *dwarf, const char *name)
{
	struct dbg_type *tb = dbg_find_type(btf, name), *td = dbg_find_type(dwarf, name);
	CHECK(tb && td);
	if (!tb || !td)
		return;
	CHECK(tb->size == td->size && tb->size > 0);
	const struct vec *mb = dbg_type_members(dbg_type_strip(tb)), *md = dbg_type_members(dbg_type_strip(td));
	CHECK(mb->n == md->n && mb->n > 0);
	for (int i = 0; i < mb->n && i < md->n; i++) {
		struct dbg_member *b = mb->items[i], *d = md->items[i];
		CHECK_STR(b->name ? b->name : "", d->name ? d->name : "");
		CHECK(b->offset == d->offset);
		CHECK(b->bit_offset == d->bit_offset && b->bit_size == d->bit_size);
		CHECK_STR(dbg_type_text(b->type), dbg_type_text(d->type));
	}
}

int main(int argc, char **argv)
{
	const char *release = argc > 1 ? argv[1] : pick_release();
	if (!release) {
		fprintf(stderr, "unit_debuginfo: no kernel with both /boot/vmlinuz-R and linux-image-R-dbg installed\n");
		return 1;
	}
	const char *err = NULL;
	struct debuginfo *btf = dbg_open_btf(ast_printf("/boot/vmlinuz-%s", release), NULL, &err);
	if (!btf)
		fprintf(stderr, "BTF: %s\n", err);
	struct debuginfo *dwarf = dbg_open_dwarf(ast_printf("/usr/lib/debug/boot/vmlinux-%s", release), &err);
	if (!dwarf)
		fprintf(stderr, "DWARF: %s\n", err);
	CHECK(btf && dwarf);
	if (!btf || !dwarf)
		return unit_report("unit_debuginfo");

	/* vfs_read(struct file *file, char __user *buf, size_t count, loff_t *pos) */
	struct dbg_func *f = one_function(btf, "vfs_read");
	CHECK(f != NULL);
	struct vec vars = {0};
	if (f)
		dbg_variables(btf, f, 0, &vars);
	CHECK(vars.n == 4);
	struct dbg_var *file = find_var(&vars, "file"), *count = find_var(&vars, "count");
	CHECK(file && file->loc.kind == DBG_LOC_REG && file->loc.reg == DBG_REG_DI);
	CHECK(count && count->loc.kind == DBG_LOC_REG && count->loc.reg == DBG_REG_DX);
	if (file)
		CHECK_STR(dbg_type_text(file->type), "struct file*");
	if (count)
		CHECK_STR(dbg_type_text(count->type), "size_t");

	/* the same function from DWARF: its file, line, and the same prototype */
	struct dbg_func *fd = one_function(dwarf, "vfs_read");
	CHECK(fd && fd->file && !strcmp(fd->file, "fs/read_write.c") && fd->line > 0);
	compare_params(btf, dwarf, "vfs_read");
	compare_params(btf, dwarf, "do_sys_openat2");
	compare_params(btf, dwarf, "__x64_sys_openat"); /* syscalls take a struct pt_regs * */

	/* a member through both sources */
	uint64_t off_b = 0, off_d = 0;
	struct dbg_member *comm = dbg_member_find(dbg_find_type(btf, "struct task_struct"), "comm", &off_b);
	CHECK(comm && dbg_member_find(dbg_find_type(dwarf, "struct task_struct"), "comm", &off_d));
	CHECK(off_b == off_d && off_b > 0);
	if (comm)
		CHECK_STR(dbg_type_text(comm->type), "char[16]");
	compare_struct(btf, dwarf, "struct file");
	compare_struct(btf, dwarf, "struct sk_buff");   /* bit-fields, anonymous unions */
	compare_struct(btf, dwarf, "struct inode");

	/* globs: every match is a match, and a known one is among them */
	struct vec vfs = {0};
	dbg_functions(btf, "vfs_re*", NULL, false, &vfs);
	bool has_read = false;
	for (int i = 0; i < vfs.n; i++) {
		struct dbg_func *g = vfs.items[i];
		CHECK(!strncmp(g->name, "vfs_re", 6));
		has_read |= !strcmp(g->name, "vfs_read");
	}
	CHECK(has_read);

	/* func@file with DWARF; BTF knows no files */
	struct vec in_file = {0};
	dbg_functions(dwarf, "*", "fs/read_write.c", false, &in_file);
	CHECK(in_file.n > 10);
	for (int i = 0; i < in_file.n; i++)
		CHECK_STR(((struct dbg_func *)in_file.items[i])->file, "fs/read_write.c");
	struct vec none = {0};
	dbg_functions(btf, "vfs_read", "fs/read_write.c", false, &none);
	CHECK(none.n == 0);

	/* vfs_read's statements: in line order, each line once, each address inside it; its own
	   lines after its declaration, those of rw_verify_area (inlined, declared before it) marked */
	if (fd) {
		struct vec lines = {0};
		int own = 0, inlined = 0;
		dwarf->ops->statements(dwarf, fd, "fs/read_write.c", &lines);
		for (int i = 0; i < lines.n; i++) {
			struct dbg_line *dl = lines.items[i], *prev = i ? lines.items[i - 1] : NULL;
			CHECK(dl->addr >= fd->addr && dl->addr < fd->addr + 4096 && dl->func == fd);
			CHECK(!prev || prev->line < dl->line);
			CHECK(dl->inlined || dl->line >= fd->line);
			dl->inlined ? inlined++ : own++;
		}
		CHECK(own > 5 && inlined > 0);
	}

	/* inline instances of fs/read_write.c's functions (which ones differs by kernel and
	   compiler: 6.1 inlines rw_verify_area, 6.12 exports it): each lies inside the function
	   whose symbol it names */
	struct vec inl = {0};
	dbg_functions(dwarf, "*", "fs/read_write.c", true, &inl);
	CHECK(inl.n > 0);
	for (int i = 0; i < inl.n; i++) {
		struct dbg_func *g = inl.items[i];
		CHECK(g->inlined && g->symbol && g->addr >= g->symbol_addr && g->addr < g->symbol_addr + 65536);
	}

	/* a global variable: an absolute address */
	struct dbg_var *jiffies = dbg_global(dwarf, "jiffies_64", NULL);
	CHECK(jiffies && jiffies->loc.kind == DBG_LOC_MEMORY && jiffies->loc.absolute && jiffies->loc.offset != 0);

	/* a damaged bzImage is an error, not a crash */
	unsigned char junk[0x400] = {'M', 'Z'};
	memcpy(junk + 0x202, "HdrS", 4);
	junk[0x206] = 0x0f;
	junk[0x207] = 0x02;
	junk[0x248] = 0x10;
	junk[0x24c] = 0x20;
	unsigned char *out;
	size_t out_len;
	CHECK(vmlinuz_extract(junk, sizeof(junk), &out, &out_len) != NULL);
	return unit_report("unit_debuginfo");
}
