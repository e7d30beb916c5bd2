/* kfeatures.c - the compat layer's compiler half: what the target kernel offers, named by feature, detected once per build tree and cached. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "sha256.h"
#include "kfeatures.h"

/*
 * Kernels differ in small, knowable ways (a function removed, a signature
 * changed, a field renamed). Each difference the runtime cares about is one
 * row below, named by the feature, never by a version: the row says where
 * the target's own build tree shows it. The answers become
 * stp_kfeatures.h ("#define STP_HAVE_X 1"), written into the module's
 * directory at pass 4; runtime/linux/compat/compat.h turns them into wrappers so
 * the rest of the runtime has no #ifdef on a kernel. The generated C of
 * pass 3 never changes with the kernel.
 *
 * Detection reads the build tree (-r) and the source tree it points to
 * (Debian splits headers into RELEASE and a "-common" tree), so it is done
 * once per build tree and cached under the cache directory, keyed by the
 * table, the tree's path and the identity (size, mtime, inode) of every file
 * a row reads: reinstalling the kernel's headers changes the key.
 */

/* How a row is detected. */
enum kfeature_method {
	KF_HEADER,	/* a header (build tree or source tree) holds a sequence of C tokens, comments aside */
	KF_FILE,	/* a file exists in the build or the source tree */
	KF_SYMVERS,	/* Module.symvers exports a symbol */
};

/* One named feature. */
struct kfeature {
	const char *name;		/* the macro is STP_HAVE_<name> */
	enum kfeature_method method;	/* how it is detected */
	const char *where;		/* KF_HEADER, KF_FILE: a path under the tree; KF_SYMVERS: the symbol */
	const char *pattern;		/* KF_HEADER: C tokens that must appear in a row, spacing aside */
};

static const struct kfeature kfeatures_table[] = {
	/* no_llseek: 5.10 declares a function, 6.1 a NULL macro, 6.12 removed it (a NULL .llseek means the same); fs.h */
	{ "NO_LLSEEK", KF_HEADER, "include/linux/fs.h", "no_llseek" },
	/* uprobe_register returns a struct uprobe * (6.12: takes ref_ctr_offset; unregister takes the handle); uprobes.h */
	{ "UPROBE_HANDLE", KF_HEADER, "include/linux/uprobes.h", "struct uprobe *uprobe_register(" },
	/* uprobe_register_refctr, for SDT semaphores (5.10 .. 6.10; 6.12 folded it into uprobe_register); uprobes.h */
	{ "UPROBE_REGISTER_REFCTR", KF_HEADER, "include/linux/uprobes.h", "uprobe_register_refctr" },
	/* uprobe_unregister_sync exported: 6.12 splits unregister into _nosync plus one sync; Module.symvers */
	{ "UPROBE_UNREGISTER_SYNC", KF_SYMVERS, "uprobe_unregister_sync", NULL },
	/* task_struct's state is __state (6.1, 6.12); 5.10 calls it state; sched.h */
	{ "TASK_STATE_UNDERSCORE", KF_HEADER, "include/linux/sched.h", "unsigned int __state;" },
	/* pde_data() (6.1, 6.12); 5.10 has PDE_DATA(); proc_fs.h */
	{ "PDE_DATA_LOWER", KF_HEADER, "include/linux/proc_fs.h", "pde_data(" },
	/* block_device's partition number is in __bd_flags' low byte (6.10+: 6.12); bd_partno before; blk_types.h */
	{ "BDEV_FLAGS_PARTNO", KF_HEADER, "include/linux/blk_types.h", "atomic_t __bd_flags;" },
	/* get_file_rcu takes the __rcu slot and returns the file (6.7+: 6.12); before, a macro on the file; fs.h */
	{ "GET_FILE_RCU_SLOT", KF_HEADER, "include/linux/fs.h", "struct file *get_file_rcu(struct file __rcu **" },
	/* linux/trace_recursion.h, which ftrace entry hooks need (5.11+: 6.1, 6.12; 5.10 keeps it in kernel/trace/): the file */
	{ "TRACE_RECURSION_H", KF_FILE, "include/linux/trace_recursion.h", NULL },
	/* struct ftrace_regs, what ftrace callbacks receive (5.11+; 5.10 passes struct pt_regs): ftrace.h */
	{ "FTRACE_REGS", KF_HEADER, "include/linux/ftrace.h", "struct ftrace_regs {" },
	/* get_kretprobe(ri) (5.11+); 5.10's kretprobe_instance holds the kretprobe in ri->rp: kprobes.h */
	{ "GET_KRETPROBE", KF_HEADER, "include/linux/kprobes.h", "struct kretprobe *get_kretprobe(" },
	/* struct kprobe's fault_handler (up to 5.13: 5.10): a fault in a handler counts as a missed hit there; kprobes.h */
	{ "KPROBE_FAULT_HANDLER", KF_HEADER, "include/linux/kprobes.h", "kprobe_fault_handler_t fault_handler;" },
	/* kretprobe_find_ret_addr(), so an unwinder sees through the kretprobe trampoline (5.15+); 5.10's stops there: kprobes.h */
	{ "KRETPROBE_FIND_RET_ADDR", KF_HEADER, "include/linux/kprobes.h", "unsigned long kretprobe_find_ret_addr(" },
	/* modules carry their own BTF (5.11+: 6.1, 6.12); 5.10's have none, only vmlinux has BTF: the kernel's config */
	{ "MODULE_BTF", KF_HEADER, "include/generated/autoconf.h", "#define CONFIG_DEBUG_INFO_BTF_MODULES 1" },
	/* a bio names its block device, bi_bdev (5.12+); 5.10's names its disk and partition: blk_types.h */
	{ "BIO_BI_BDEV", KF_HEADER, "include/linux/blk_types.h", "struct block_device *bi_bdev;" },
	/* task_cpu() reads task_struct.cpu where the thread_info is in the task (5.10); 5.16+ keeps it in thread_info: sched.h */
	{ "TASK_STRUCT_CPU", KF_HEADER, "include/linux/sched.h", "return READ_ONCE(p->cpu);" },
	/* struct folio, the page-cache unit (5.16+); 5.10 hands around struct page, which begins the same way: mm_types.h */
	{ "FOLIO", KF_HEADER, "include/linux/mm_types.h", "struct folio {" },
	/* blk_opf_t, the type of a bio's operation and flags (6.0+; 5.10: unsigned int): blk_types.h */
	{ "BLK_OPF_T", KF_HEADER, "include/linux/blk_types.h", "blk_opf_t;" },
	/* relay's subbuf_start callback gets the previous sub-buffer's padding (5.10 .. 6.x); 7.2 dropped it; relay.h */
	{ "RELAY_SUBBUF_START_PADDING", KF_HEADER, "include/linux/relay.h", "void *prev_subbuf, size_t prev_padding);" },
	/* relay_open takes its callbacks const (5.11+: 6.1 on); 5.10's takes them writable: relay.h */
	{ "RELAY_CALLBACKS_CONST", KF_HEADER, "include/linux/relay.h", "const struct rchan_callbacks *cb," },
	/* the anonymous-mapping tag bit of page/folio->mapping is FOLIO_MAPPING_ANON (7.2); PAGE_MAPPING_ANON before; page-flags.h */
	{ "FOLIO_MAPPING_ANON", KF_HEADER, "include/linux/page-flags.h", "#define FOLIO_MAPPING_ANON" },
	/* hrtimer_setup() sets the callback with the clock (6.13+: 7.2, which removed hrtimer_init); hrtimer.h */
	{ "HRTIMER_SETUP", KF_HEADER, "include/linux/hrtimer.h", "void hrtimer_setup(" },
	/* uprobe_consumer's handler and ret_handler take a __u64 *data last (6.13+: 7.2); uprobes.h */
	{ "UPROBE_HANDLER_DATA", KF_HEADER, "include/linux/uprobes.h", "struct pt_regs *regs, __u64 *data);" },
	/* kallsyms_on_each_symbol's callback no longer gets the symbol's module (6.4+: 6.12; vmlinux only); kallsyms.h */
	{ "KALLSYMS_EACH_NO_MODULE", KF_HEADER, "include/linux/kallsyms.h",
	  "kallsyms_on_each_symbol(int (*fn)(void *, const char *, unsigned long)" },
	/* a module's memory is mem[MOD_TEXT...], one region per kind (6.4+: 6.12); core_layout before; module.h */
	{ "MODULE_MEMORY", KF_HEADER, "include/linux/module.h", "struct module_memory {" },
	/* linux/hex.h (6.x+): hex_asc_hi, bin2hex; kernel.h includes it up to 6.12, 7.2's does not: the file */
	{ "HEX_H", KF_FILE, "include/linux/hex.h", NULL },
	/* strlcpy (5.10, 6.1; removed in 6.8: 6.12, 7.2 have strscpy only), which embedded C may call: string.h */
	{ "STRLCPY", KF_HEADER, "include/linux/string.h", "size_t strlcpy(" },
	/* a dentry's inode-alias node is in the union d_u (5.10 .. 6.12); 7.2's union is anonymous: dcache.h */
	{ "DENTRY_D_U", KF_HEADER, "include/linux/dcache.h", "} d_u;" },
	/* __trace_puts takes the string's size too (5.10 .. 6.12, in kernel.h); 7.2's (trace_printk.h) does not */
	{ "TRACE_PUTS_SIZE", KF_HEADER, "include/linux/kernel.h", "int __trace_puts(unsigned long ip, const char *str, int size);" },
	/* uses_default_overflow_handler(): arm64 steps over a watched access when orig_overflow_handler is perf's (6.1.192 has it); perf_event.h */
	{ "USES_DEFAULT_OVERFLOW_HANDLER", KF_HEADER, "include/linux/perf_event.h",
	  "static inline bool uses_default_overflow_handler(struct perf_event *event)" },
};

#define KFEATURES_COUNT (sizeof(kfeatures_table) / sizeof(kfeatures_table[0]))
#define KFEATURES_FORMAT "stapc kfeatures 1" /* bump when the header's shape changes */
#define KFEATURES_TRAILER "/* end of stp_kfeatures.h: sha256 "

/* The two roots a row may read. */
struct kfeature_trees {
	const char *build;	/* -r DIR or /lib/modules/R/build */
	const char *source;	/* where its headers' sources are: "source" link, Makefile's include, or build */
};

/* A file's whole text, or NULL. */
static char *read_text(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 65536, len = 0, n;
	char *text = ast_alloc(cap + 1);
	while ((n = fread(text + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			char *bigger = ast_alloc(2 * cap + 1);
			memcpy(bigger, text, len);
			text = bigger;
			cap *= 2;
		}
	}
	bool ok = !ferror(f);
	fclose(f);
	if (!ok)
		return NULL;
	text[len] = '\0';
	return text;
}

/*
 * The source tree beside the build tree: its "source" link (a kbuild O=
 * tree, /lib/modules/R/source), else the directory of the Makefile that
 * the build tree's Makefile includes (Debian's linux-headers-R), else the
 * build tree itself (a full source tree).
 */
static const char *source_tree(const char *build)
{
	struct stat st;
	const char *link = ast_printf("%s/source", build);
	if (stat(link, &st) == 0 && S_ISDIR(st.st_mode))
		return link;
	char *makefile = read_text(ast_printf("%s/Makefile", build));
	for (char *line = makefile; line && *line;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		size_t len = strlen(line);
		if (!strncmp(line, "include ", 8) && len > 17 && !strcmp(line + len - 9, "/Makefile")) {
			const char *dir = ast_strndup(line + 8, len - 17);
			while (*dir == ' ')
				dir++;
			if (*dir != '/')
				dir = ast_printf("%s/%s", build, dir);	/* make -C runs in the build tree */
			if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
				return dir;
		}
		line = end ? end + 1 : line + len;
	}
	return build;
}

/*
 * C text as its tokens, one space apart: comments dropped, whitespace runs
 * made one space, a space on each side of every punctuation character.
 * "struct uprobe*uprobe_register (" becomes " struct uprobe * uprobe_register ( ".
 */
static const char *token_text(const char *text)
{
	char *out = ast_alloc(3 * strlen(text) + 3), *o = out;
	*o++ = ' ';
	for (const char *p = text; *p; p++) {
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");
			p = end ? end + 1 : p + strlen(p) - 1;
		} else if (p[0] == '/' && p[1] == '/') {
			while (p[1] && p[1] != '\n')
				p++;
		} else if (isalnum((unsigned char)*p) || *p == '_') {
			*o++ = *p;
			continue;
		} else if (!isspace((unsigned char)*p)) {
			if (o[-1] != ' ')
				*o++ = ' ';
			*o++ = *p;
		}
		if (o[-1] != ' ')
			*o++ = ' ';
	}
	if (o[-1] != ' ')
		*o++ = ' ';
	*o = '\0';
	return out;
}

/* Does the header at path hold the row's tokens in a row? */
static bool header_matches(const char *path, const struct kfeature *k)
{
	const char *text = read_text(path);
	return text && strstr(token_text(text), token_text(k->pattern)) != NULL;
}

/* Module.symvers lines are "CRC<TAB>SYMBOL<TAB>MODULE<TAB>EXPORT<TAB>NAMESPACE". */
static bool symvers_exports(const char *build, const char *symbol)
{
	const char *text = read_text(ast_printf("%s/Module.symvers", build));
	const char *want = ast_printf("\t%s\t", symbol);
	for (const char *p = text; p && (p = strstr(p, want)) != NULL; p++) {
		const char *line = p;
		while (line > text && line[-1] != '\n')
			line--;
		if (!memchr(line, '\t', (size_t)(p - line)))
			return true;	/* the second field, not a later one */
	}
	return false;
}

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

/* One row against the trees. */
static bool kfeature_detect(const struct kfeature_trees *t, const struct kfeature *k)
{
	const char *roots[] = { t->build, t->source };
	switch (k->method) {
	case KF_SYMVERS:
		return symvers_exports(t->build, k->where);
	case KF_FILE:
	case KF_HEADER:
		for (size_t i = 0; i < 2; i++) {
			const char *path = ast_printf("%s/%s", roots[i], k->where);
			if (k->method == KF_FILE ? file_exists(path) : header_matches(path, k))
				return true;
		}
		return false;
	}
	return false;
}

/* The kernel release the tree was built for, for the header's comment. */
static const char *tree_release(struct session *s)
{
	char *text = read_text(ast_printf("%s/include/config/kernel.release", s->kernel_build));
	if (!text || !strchr(s->release, '/'))
		return s->release;
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* The header text for the trees, with its checksum trailer. */
static const char *kfeatures_detect_all(struct session *s, const struct kfeature_trees *t)
{
	char *text = ast_printf("/* " KFEATURES_HEADER " - what kernel %s offers, detected by stap from %s"
				" (compiler/build/kfeatures.c) */\n#ifndef STP_KFEATURES_H\n#define STP_KFEATURES_H\n",
				tree_release(s), s->kernel_build);
	for (size_t i = 0; i < KFEATURES_COUNT; i++) {
		const struct kfeature *k = &kfeatures_table[i];
		text = kfeature_detect(t, k) ? ast_printf("%s#define STP_HAVE_%s 1\n", text, k->name)
					     : ast_printf("%s/* #undef STP_HAVE_%s */\n", text, k->name);
	}
	text = ast_printf("%s#endif\n", text);
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	struct sha256 h;
	sha256_init(&h);
	sha256_update(&h, text, strlen(text));
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	return ast_printf("%s" KFEATURES_TRAILER "%s */\n", text, hex);
}

/* A cached header is whole when its trailer's checksum matches what precedes it. */
static bool kfeatures_valid(const char *text)
{
	const char *trailer = text ? strstr(text, KFEATURES_TRAILER) : NULL;
	if (!trailer)
		return false;
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	struct sha256 h;
	sha256_init(&h);
	sha256_update(&h, text, (size_t)(trailer - text));
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	return !strcmp(trailer + strlen(KFEATURES_TRAILER), ast_printf("%s */\n", hex));
}

static void hash_text(struct sha256 *h, const char *text)
{
	sha256_update(h, text ? text : "", strlen(text ? text : "") + 1);
}

/* size, mtime, inode of a file, or "missing". */
static void hash_identity(struct sha256 *h, const char *path)
{
	struct stat st;
	hash_text(h, path);
	hash_text(h, stat(path, &st) != 0 ? "missing"
					   : ast_printf("%lld %lld.%09ld %llu %llu", (long long)st.st_size,
							(long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
							(unsigned long long)st.st_ino, (unsigned long long)st.st_dev));
}

/* The cache file for these trees: CACHE/kfeatures/<sha256 of the table and the trees' files>.h. */
static const char *kfeatures_cache_path(const struct kfeature_trees *t, const char *dir)
{
	static const char *const tree_files[] = {
		"Makefile", "Module.symvers", ".config", "include/config/kernel.release",
		"include/generated/autoconf.h",
	};
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[2 * SHA256_DIGEST_SIZE + 1];
	struct sha256 h;
	sha256_init(&h);
	hash_text(&h, KFEATURES_FORMAT);
	char *build = realpath(t->build, NULL), *source = realpath(t->source, NULL);
	hash_text(&h, build ? build : t->build);
	hash_text(&h, source ? source : t->source);
	free(build);
	free(source);
	for (size_t i = 0; i < sizeof(tree_files) / sizeof(tree_files[0]); i++)
		hash_identity(&h, ast_printf("%s/%s", t->build, tree_files[i]));
	for (size_t i = 0; i < KFEATURES_COUNT; i++) {
		const struct kfeature *k = &kfeatures_table[i];
		hash_text(&h, ast_printf("%s %d %s %s", k->name, (int)k->method, k->where, k->pattern ? k->pattern : ""));
		if (k->method != KF_SYMVERS) {
			hash_identity(&h, ast_printf("%s/%s", t->build, k->where));
			hash_identity(&h, ast_printf("%s/%s", t->source, k->where));
		}
	}
	sha256_final(&h, digest);
	sha256_hex(digest, hex);
	return ast_printf("%s/kfeatures/%s.h", dir, hex);
}

/* Store text at path through a temporary file and a rename; failure costs only the next detection. */
static void kfeatures_store(struct session *s, const char *path, const char *text)
{
	const char *dir = ast_strndup(path, (size_t)(strrchr(path, '/') - path));
	const char *tmp = ast_printf("%s.tmp%d", path, (int)getpid());
	FILE *f;
	if (!cache_make_dirs(dir) || !(f = fopen(tmp, "w"))) {
		if (s->verbose)
			fprintf(stderr, "stap: cannot cache the kernel's features in %s: %s\n", dir, strerror(errno));
		return;
	}
	bool ok = fputs(text, f) >= 0;
	ok = fclose(f) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		if (s->verbose)
			fprintf(stderr, "stap: cannot cache the kernel's features in %s\n", path);
	}
}

const char *kfeatures_text(struct session *s)
{
	struct stat st;
	if (stat(s->kernel_build, &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "stap: no kernel build tree at %s: cannot tell what the kernel offers\n", s->kernel_build);
		return NULL;
	}
	struct kfeature_trees t = { .build = s->kernel_build, .source = source_tree(s->kernel_build) };
	const char *dir = s->disable_cache ? NULL : cache_dir();
	const char *path = dir ? kfeatures_cache_path(&t, dir) : NULL;
	const char *text = path ? read_text(path) : NULL;
	if (text && kfeatures_valid(text)) {
		if (s->verbose >= 2)
			fprintf(stderr, "stap: kernel features from the cache: %s\n", path);
		return text;
	}
	if (text && s->verbose)
		fprintf(stderr, "stap: %s is damaged: detecting the kernel's features again\n", path);
	text = kfeatures_detect_all(s, &t);
	if (s->verbose >= 2)
		fprintf(stderr, "stap: kernel features detected in %s (sources %s)\n", t.build, t.source);
	if (path)
		kfeatures_store(s, path, text);
	return text;
}

int kfeatures_dump(struct session *s)
{
	const char *text = kfeatures_text(s);
	if (!text)
		return STAP_EXIT_FAILURE;
	fputs(text, stdout);
	return STAP_EXIT_OK;
}
