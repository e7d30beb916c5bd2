/*
 * probes/process.c - the process family: process[("path") | (PID)].begin,
 * .end, .thread.begin, .thread.end here; function, statement, mark and
 * library points are handed to uprobe.c.
 *
 * A process point without a path or PID, in a session with -c or -x,
 * only sees the target process and its descendants, as in SystemTap; its
 * function, statement, mark and plt points probe the target's program.
 * An absolute path with wildcards (process("/lib64/libc.so*")) is expanded
 * against the target's file system (--sysroot): one point per file.
 */
#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wordexp.h>

#include "debuginfo/buildid.h"
#include "diag.h"
#include "probes/process.h"

bool process_root(struct probe_point *pp, const char **path, int64_t *pid)
{
	struct probe_component *root = probes_component(pp, 0);
	if (root->arg && root->arg->kind == NODE_STR) {
		if (!*root->arg->u.str) {
			diag_error(root->arg->loc, "process(\"\") needs a program path");
			return false;
		}
		*path = root->arg->u.str;
	} else if (root->arg) {
		if (root->arg->u.num <= 0 || root->arg->u.num > 4194304) {
			diag_error(root->arg->loc, "process(PID) needs a process id, not %lld",
				   (long long)root->arg->u.num);
			return false;
		}
		*pid = root->arg->u.num;
	}
	return true;
}

/*
 * The program of the -c command (its first word; uprobe.c searches PATH
 * for a bare name) or of the -x process (/proc/PID/exe, so stap must run
 * where the process does); NULL if neither names one.
 */
const char *process_target_program(struct session *s)
{
	if (s->target_cmd) {
		wordexp_t we;
		const char *prog = NULL;
		if (wordexp(s->target_cmd, &we, WRDE_NOCMD) != 0)
			return NULL; /* shell syntax: no one program */
		if (we.we_wordc > 0)
			prog = ast_strdup(we.we_wordv[0]);
		wordfree(&we);
		return prog;
	}
	if (s->target_pid) {
		char buf[PATH_MAX];
		ssize_t n = readlink(ast_printf("/proc/%ld/exe", s->target_pid), buf, sizeof(buf) - 1);
		if (n <= 0)
			return NULL;
		buf[n] = 0;
		return ast_strdup(buf);
	}
	return NULL;
}

/* The directories a build-id is looked for in (target paths), each with its subdirectories. */
static const char *buildid_dirs(struct session *s)
{
	const char *path = !s->sysroot && getenv("PATH") ? getenv("PATH") : "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin";
	return ast_printf("%s:/lib:/usr/lib:/usr/lib/x86_64-linux-gnu:/usr/libexec", path);
}

/* The host path of the file with build-id hex: here, else from debuginfod (with a warning); NULL after a diagnostic. */
static const char *buildid_search(struct session *s, struct srcloc loc, bool quiet, const char *hex)
{
	const char *sysroot = s->sysroot ? s->sysroot : "", *target = process_target_program(s), *why;
	struct vec candidates = {0};
	const char *prog = target ? process_host_file(s, target) : NULL;
	if (prog)
		vec_push(&candidates, (void *)prog);
	const char *found = buildid_find_local(hex, sysroot, &candidates, buildid_dirs(s));
	if (found)
		return found;
	found = buildid_debuginfod(hex, &why);
	if (found && !quiet)
		diag_warning(loc, "build-id %s: no file here has it, so its symbols come from debuginfod's copy, %s: "
			     "its function, statement, mark and plt probes reach every process running a file with that "
			     "build-id, its other points only those running that copy", hex, found);
	if (found || quiet)
		return found;
	/* a -dbgsym package's link: the debuginfo is there, and the program is not */
	const char *debug = ast_printf("%s/usr/lib/debug/.build-id/%.2s/%s.debug", sysroot, hex, hex + 2);
	diag_error(loc, "no program or library with build-id %s: looked at %s%s/usr/lib/debug/.build-id/%.2s/%s, "
		   "then the files in PATH, /lib, /usr/lib, /usr/lib/x86_64-linux-gnu and /usr/libexec%s and their "
		   "subdirectories (at most %d files); debuginfod: %s.%s Install the program, run it with -c, or set "
		   "DEBUGINFOD_URLS to a server that publishes it", hex,
		   prog ? ast_printf("the -c/-x program %s, ", target) : "", sysroot, hex, hex + 2,
		   *sysroot ? " under --sysroot" : "", BUILDID_SCAN_MAX, why,
		   access(debug, F_OK) ? "" : ast_printf(" Its debuginfo %s is installed, but not the program itself.", debug));
	return NULL;
}

bool process_buildid_program(struct session *s, struct srcloc loc, bool quiet, const char **path, const char **buildid)
{
	if (!*path || !buildid_is_hex(*path) || process_host_file(s, *path))
		return true;
	char *hex = ast_strdup(*path);
	for (char *p = hex; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	const char *host = buildid_search(s, loc, quiet, hex);
	if (!host)
		return false;
	size_t root = s->sysroot && !strncmp(host, s->sysroot, strlen(s->sysroot)) ? strlen(s->sysroot) : 0;
	*path = ast_strdup(host + root);
	*buildid = hex;
	if (s->verbose)
		fprintf(stderr, "%s:%d:%d: process(\"%s\"): the file with that build-id is %s\n", loc.file, loc.line,
			loc.col, hex, *path);
	return true;
}

/*
 * process(PID).function(...) and the other uprobe points: as SystemTap, stap
 * probes the program PID runs when it compiles (/proc/PID/exe), and the
 * probes fire only in that process. That needs stap to run where the process
 * lives: not with --remote, and not with --sysroot (another machine's files).
 * NULL after a diagnostic.
 */
static const char *process_pid_program(struct session *s, struct probe_point *pp, const char *what, int64_t pid)
{
	struct probe_component *root = probes_component(pp, 0);
	const char *elsewhere = s->remote || s->remotes.n ? "the probes run on a --remote target"
				: s->sysroot ? "the target's files are under --sysroot" : NULL;
	if (elsewhere) {
		diag_error(root->arg->loc, "process(%lld).%s: stap finds the program of a process id in /proc on "
			   "this machine, but %s: name the program, process(\"/path/to/program\").%s(...), or use "
			   "process.%s with -x PID", (long long)pid, what, elsewhere, what, what);
		return NULL;
	}
	char buf[PATH_MAX];
	ssize_t n = readlink(ast_printf("/proc/%lld/exe", (long long)pid), buf, sizeof(buf) - 1);
	if (n <= 0) {
		diag_error(root->arg->loc, "process(%lld).%s: no process %lld whose program stap can read on this "
			   "machine (/proc/%lld/exe: %s): name the program, process(\"/path/to/program\").%s(...), "
			   "or use process.%s with -x PID where the process runs", (long long)pid, what, (long long)pid,
			   (long long)pid, strerror(errno), what, what);
		return NULL;
	}
	buf[n] = 0;
	const char *deleted = strstr(buf, " (deleted)");
	if (deleted && !deleted[10]) {
		diag_error(root->arg->loc, "process(%lld).%s: the program of process %lld, %.*s, was deleted or "
			   "replaced since it started", (long long)pid, what, (long long)pid, (int)(deleted - buf), buf);
		return NULL;
	}
	return ast_strdup(buf);
}

static bool process_resolve(struct session *s, struct probe_point *pp, struct process_point *pt)
{
	struct probe_component *root = probes_component(pp, 0);
	if (!process_root(pp, &pt->path, &pt->pid) ||
	    !process_buildid_program(s, pt->path ? root->arg->loc : root->loc, pt->optional, &pt->path, &pt->buildid))
		return false;
	struct probe_component *c = probes_component(pp, 1);
	if (!c) {
		diag_error(root->loc, "expected process.begin, .end, .thread.begin, .thread.end, .function(...), "
			   ".statement(...), .mark(...) or .library(...) after 'process'");
		return false;
	}
	int n = probes_ncomponents(pp);
	int last = 2;
	if (!strcmp(c->name, "begin") || !strcmp(c->name, "end")) {
		pt->kind = !strcmp(c->name, "begin") ? PROCESS_BEGIN : PROCESS_END;
	} else if (!strcmp(c->name, "thread")) {
		struct probe_component *t = probes_component(pp, 2);
		if (!t || (strcmp(t->name, "begin") && strcmp(t->name, "end")) || t->arg) {
			diag_error(t ? t->loc : c->loc, "expected .thread.begin or .thread.end");
			return false;
		}
		pt->kind = !strcmp(t->name, "begin") ? PROCESS_THREAD_BEGIN : PROCESS_THREAD_END;
		last = 3;
	} else if (!strcmp(c->name, "insn")) {
		/* checked in Module.symvers of Debian's 6.1 kernels: neither is exported */
		diag_error(c->loc, "process.insn%s is not supported: single-stepping a task needs "
			   "user_enable_single_step()/user_enable_block_step(), which Linux (6.1) does not export to "
			   "modules (and it has no utrace to hook the step traps)",
			   probes_component(pp, 2) && !strcmp(probes_component(pp, 2)->name, "block") ? ".block" : "");
		return false;
	} else {
		pt->kind = PROCESS_UPROBE;
		if (pt->pid) {
			pt->path = process_pid_program(s, pp, c->name, pt->pid);
			if (!pt->path)
				return false;
			return uprobe_resolve(s, pp, 1, pt);
		}
		if (!pt->path) {
			pt->path = process_target_program(s);
			if (!pt->path) {
				diag_error(root->loc, "process.%s without a program probes the -c or -x target, and this "
					   "session has %s: name it, process(\"/path/to/program\").%s(...)", c->name,
					   s->target_cmd || s->target_pid ? "no program stap can find" : "neither",
					   c->name);
				return false;
			}
			pt->target_only = true;
		}
		return uprobe_resolve(s, pp, 1, pt);
	}
	if (c->arg) {
		diag_error(c->loc, "process.%s takes no argument", c->name);
		return false;
	}
	if (n > last) {
		struct probe_component *extra = probes_component(pp, last);
		diag_error(extra->loc, "unexpected '.%s' after this process event", extra->name);
		return false;
	}
	return !pt->path || process_program_path(s, pt->path, root->arg->loc, pt->optional, &pt->path);
}

/*
 * One resolved probe per process event point; a uprobe point gives one
 * per site (each function, line or marker it matches), since each site
 * has target variables of its own.
 */
static bool process_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl, struct vec *out);

/* pp with its process("...") argument replaced by path. */
static struct probe_point *with_path(struct probe_point *pp, const char *path)
{
	struct probe_point *copy = ast_alloc(sizeof(*copy));
	*copy = *pp;
	copy->components = (struct vec){0};
	for (int i = 0; i < pp->components.n; i++)
		vec_push(&copy->components, pp->components.items[i]);
	struct probe_component *root = ast_alloc(sizeof(*root));
	*root = *probes_component(pp, 0);
	root->arg = ast_new(NODE_STR, root->arg->loc, root->arg->tok);
	root->arg->u.str = path;
	copy->components.items[0] = root;
	return copy;
}

/* process("/glob*"): each regular file the pattern matches on the target (links to one file count once). */
static bool expand_path_glob(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl,
			     struct vec *out)
{
	struct probe_component *root = probes_component(pp, 0);
	const char *pattern = root->arg->u.str, *sysroot = s->sysroot ? s->sysroot : "";
	glob_t g;
	int n = 0;
	struct vec seen = {0}, unusable = {0};
	if (glob(ast_printf("%s%s", sysroot, pattern), 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			struct stat st;
			char real[PATH_MAX];
			if (stat(g.gl_pathv[i], &st) != 0 || !S_ISREG(st.st_mode) || !realpath(g.gl_pathv[i], real))
				continue;
			bool dup = false;
			for (int k = 0; k < seen.n && !dup; k++)
				dup = !strcmp(seen.items[k], real);
			if (dup)
				continue;
			vec_push(&seen, ast_strdup(real));
			/* a match that is no program of the target (an i386 library in /lib32) is no match */
			int before = out->n, muted = diag_muted_errors();
			diag_mute(1);
			bool ok = process_expand(s, with_path(pp, ast_strdup(g.gl_pathv[i] + strlen(sysroot))), tmpl, out);
			diag_mute(-1);
			if (!ok || diag_muted_errors() != muted) {
				out->n = before;
				vec_push(&unusable, ast_strdup(g.gl_pathv[i] + strlen(sysroot)));
				continue;
			}
			n++;
		}
		globfree(&g);
	}
	if (!n && !pp->optional) {
		const char *where = s->sysroot ? ast_printf(" (under --sysroot %s)", s->sysroot) : "";
		if (unusable.n) /* say which files it did match, so the user sees why none counts */
			diag_error(root->arg->loc, "no program of the target that can be probed matches '%s'%s: it "
				   "matches %s%s, which %s no program stapc can probe there (not ELF, another architecture, or "
				   "without that point)", pattern, where,
				   (const char *)unusable.items[0], unusable.n > 1 ? ast_printf(" and %d more", unusable.n - 1) : "",
				   unusable.n > 1 ? "are" : "is");
		else
			diag_error(root->arg->loc, "no file of the target matches '%s'%s", pattern, where);
		return false;
	}
	return true;
}

static bool process_expand(struct session *s, struct probe_point *pp, const struct resolved_probe *tmpl, struct vec *out)
{
	struct probe_component *root = probes_component(pp, 0);
	if (root->arg && root->arg->kind == NODE_STR && root->arg->u.str[0] == '/' && strpbrk(root->arg->u.str, "*?["))
		return expand_path_glob(s, pp, tmpl, out);
	struct process_point *pt = ast_alloc(sizeof(*pt));
	pt->optional = pp->optional;
	int errors = diag_error_count();
	if (!process_resolve(s, pp, pt))
		return pt->optional && diag_error_count() == errors; /* '?': quietly nothing */
	if (pt->kind != PROCESS_UPROBE) {
		struct resolved_probe *r = ast_alloc(sizeof(*r));
		*r = *tmpl;
		r->data = pt;
		r->pp = probes_point_text(pp); /* a glob's match names its file */
		vec_push(out, r);
		return true;
	}
	for (int i = 0; i < pt->sites.n; i++) {
		struct uprobe_site *site = pt->sites.items[i];
		struct process_point *one = ast_alloc(sizeof(*one));
		*one = *pt;
		one->sites = (struct vec){0};
		vec_push(&one->sites, site);
		struct resolved_probe *r = ast_alloc(sizeof(*r));
		*r = *tmpl;
		r->data = one;
		r->pp = site->pp;
		r->scope = site->scope;
		vec_push(out, r);
	}
	return true;
}

static const char *const tf_kinds[] = {
	[PROCESS_BEGIN] = "STP_TF_BEGIN",
	[PROCESS_END] = "STP_TF_END",
	[PROCESS_THREAD_BEGIN] = "STP_TF_THREAD_BEGIN",
	[PROCESS_THREAD_END] = "STP_TF_THREAD_END",
};

/* Both tables always exist (possibly empty), so the runtime needs no #ifdef per kind. */
static void process_table(struct emitter *e, struct session *s, struct vec *mine)
{
	emit_open(e, "static struct _stp_tf_probe _stp_tf_probes[] = {");
	for (int i = 0; i < mine->n; i++) {
		struct resolved_probe *r = mine->items[i];
		struct process_point *pt = r->data;
		if (pt->kind == PROCESS_UPROBE)
			continue;
		emit_line(e, "{ .probe = &_stp_probes[%d], .kind = %s, .path = %s, .pid = %lld },", r->index,
			  tf_kinds[pt->kind], pt->path ? emit_c_string(pt->path) : "NULL", (long long)pt->pid);
	}
	emit_close(e, "};");
	uprobe_emit_table(e, s, mine);
}

/* Whether some uprobe names its program by build-id: the runtime then watches exec for other copies. */
static void process_defines(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	for (int i = 0; i < mine->n; i++)
		if (uprobe_by_buildid(((const struct resolved_probe *)mine->items[i])->data)) {
			emit_line(e, "#define STP_UPROBES_BUILDID 1 /* process(\"BUILD-ID\"): every program with it */");
			return;
		}
}

/*
 * The files r probes: every program and library it names (the guest needs
 * them), or with symbols only those of its uprobes (whose hits look up
 * their symbols).
 */
static void process_user_files(const struct resolved_probe *r, bool symbols, struct vec *out)
{
	const struct process_point *pt = r->data;
	if (!pt || (symbols && pt->kind != PROCESS_UPROBE))
		return;
	if (pt->path)
		vec_push(out, (void *)pt->path);
	if (pt->file)
		vec_push(out, (void *)pt->file);
}

const struct probe_provider probe_process = {
	.name = "process",
	.patterns = (const char *const[]){
		"process{,(number),(string)}{,.thread}.{begin,end}",
		"process{,(number),(string)}{,.library(string)}.function(string){,.call,.return,.exported,.label(string),.callee(string),.callee(string).call,.callee(string).return,.callees,.callees.call,.callees.return,.callees(number),.callees(number).call,.callees(number).return}",
		"process{,(number),(string)}{,.library(string)}.statement(string){,.nearest}",
		"process{,(number),(string)}{,.library(string)}.statement(number){,.absolute}",
		"process{,(number),(string)}{,.library(string)}.plt{,(string)}{,.return}",
		"process{,(number),(string)}{,.library(string)}{,.provider(string)}.mark(string)",
		NULL,
	},
	.user_files = process_user_files,
	.expand = process_expand,
	.feature = "STP_HAVE_PROCESS",
	.emit_defines = process_defines,
	.emit_table = process_table,
	.runtime = (const struct runtime_file[]){{"task_finder", 5, 3}, {"uprobes", 6, 2}, {"uprobes_buildid", 7, 1}, {0}},
};
