/*
 * probes/procfs.c - procfs("name").read and .write: a file under
 * /proc/systemtap/MODULE/ whose reads and writes run the probe.
 *
 * In a .read probe the body sets $value (= or .=, never reads it, as in
 * SystemTap), which becomes what the reader gets; in a .write probe $value holds what the writer wrote (one probe
 * hit per write() call). procfs.read / procfs.write name the file
 * "command", as SystemTap does.
 *
 * Permissions, as SystemTap sets them: 0400 for a read probe, 0200 for a
 * write probe (0600 with both); procfs("name").umask(N).read gives the
 * read bits of everyone (0444) less N instead, .umask(N).write the write
 * bits (0222) less N: umask(0040).read makes the file 0404.
 *
 * procfs("name").read.maxsize(N) (also .umask(U).read.maxsize(N), and the
 * .umask(U).maxsize(N) that SystemTap's manual lists, a read probe too):
 * $value holds up to N bytes instead of MAXSTRINGLEN-1, in a buffer the
 * runtime allocates per file when the session starts. Writes to such a
 * $value go through _stp_strbuf_set/_stp_strbuf_append (targetvar.c), so
 * `$value .= a . b` builds a long text piece by piece. A read probe
 * without .maxsize gets -D STP_PROCFS_BUFSIZE=N's size if that is given.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "probes.h"
#include "families.h"
#include "targetvar.h"

/* What a procfs point resolved to. */
struct procfs_point {
	const char *name;  /* file name under /proc/systemtap/MODULE */
	bool write;        /* .write rather than .read */
	int mode;          /* the permission bits this probe gives the file */
	int64_t maxsize;   /* .read.maxsize(N): bytes $value holds; 0: a string_t's */
};

/* The largest .maxsize(N): the buffer is allocated once per file for the whole session. */
#define PROCFS_MAXSIZE_LIMIT (1 << 20)

/* .maxsize(N) at op (N from 1 to PROCFS_MAXSIZE_LIMIT) into *maxsize; false with a diagnostic. */
static bool parse_maxsize(struct probe_component *op, int64_t *maxsize)
{
	if (!op->arg || op->arg->kind != NODE_NUM || op->arg->u.num < 1 || op->arg->u.num > PROCFS_MAXSIZE_LIMIT) {
		diag_error(op->arg ? op->arg->loc : op->loc, "procfs(...).read.maxsize(N) needs a number from 1 to %d",
			   PROCFS_MAXSIZE_LIMIT);
		return false;
	}
	*maxsize = op->arg->u.num;
	return true;
}

/*
 * -D STP_PROCFS_BUFSIZE=N, SystemTap's default for read probes without
 * .maxsize: 0 when not given, N (1 to PROCFS_MAXSIZE_LIMIT) when given, -1
 * (after a diagnostic at loc) when it is not such a number.
 */
static int64_t default_bufsize(struct session *s, struct srcloc loc)
{
	for (int i = s->defines.n - 1; i >= 0; i--) {
		struct define *d = s->defines.items[i];
		if (strcmp(d->name, "STP_PROCFS_BUFSIZE"))
			continue;
		char *end = NULL;
		long long n = d->value ? strtoll(d->value, &end, 0) : 0;
		if (!d->value || end == d->value || *end || n < 1 || n > PROCFS_MAXSIZE_LIMIT) {
			diag_error(loc, "-D STP_PROCFS_BUFSIZE=%s: the size of a procfs read buffer is a number from 1 to %d",
				   d->value ? d->value : "", PROCFS_MAXSIZE_LIMIT);
			return -1;
		}
		return n;
	}
	return 0;
}

/* A file name: not empty, no '/', not . or .., printable, short. */
static const char *bad_file_name(const char *name)
{
	size_t len = strlen(name);
	if (!len)
		return "is empty";
	if (len > 64)
		return "is longer than 64 bytes";
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return "is a directory name";
	for (const char *p = name; *p; p++) {
		if (*p == '/')
			return "contains '/': procfs files live directly in the module's directory";
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return "contains a space or a control character";
	}
	return NULL;
}

static bool procfs_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	struct probe_component *root = probes_component(pp, 0);
	struct probe_component *op = probes_component(pp, 1);
	const char *name = "command";
	int64_t umask = -1;	/* none */
	int64_t maxsize = 0;	/* none */
	int next = 2;
	if (op && !strcmp(op->name, "umask")) {
		if (!op->arg || op->arg->kind != NODE_NUM || op->arg->u.num < 0 || op->arg->u.num > 0777) {
			diag_error(op->arg ? op->arg->loc : op->loc, "procfs(...).umask(N) needs a number from 0 to 0777");
			return false;
		}
		umask = op->arg->u.num;
		op = probes_component(pp, 2);
		next = 3;
	}
	if (root->arg) {
		if (root->arg->kind != NODE_STR) {
			diag_error(root->arg->loc, "procfs(\"name\") needs a file name in quotes");
			return false;
		}
		name = root->arg->u.str;
		const char *why = bad_file_name(name);
		if (why) {
			diag_error(root->arg->loc, "procfs file name \"%s\" %s", name, why);
			return false;
		}
	}
	bool write = false;
	if (op && umask >= 0 && !strcmp(op->name, "maxsize")) {
		/* procfs.umask(U).maxsize(N), as SystemTap's manual spells it: a read probe */
		if (!parse_maxsize(op, &maxsize))
			return false;
	} else {
		if (!op || (strcmp(op->name, "read") && strcmp(op->name, "write")) || op->arg) {
			diag_error(op ? op->loc : root->loc, "expected procfs(\"name\").read or procfs(\"name\").write");
			return false;
		}
		write = !strcmp(op->name, "write");
		struct probe_component *size = probes_component(pp, next);
		if (size && !strcmp(size->name, "maxsize")) {
			if (write) {
				diag_error(size->loc, "'.maxsize' applies to procfs(...).read only: a .write probe's $value is "
					   "what one write() brings, at most MAXSTRINGLEN-1 bytes");
				return false;
			}
			if (!parse_maxsize(size, &maxsize))
				return false;
			next++;
		}
	}
	bool explicit_maxsize = maxsize != 0;
	if (!write && !maxsize) {
		/* without .maxsize, -D STP_PROCFS_BUFSIZE=N if given; pp() shows no .maxsize */
		maxsize = default_bufsize(s, root->loc);
		if (maxsize < 0)
			return false;
	}
	if (probes_ncomponents(pp) > next) {
		struct probe_component *extra = probes_component(pp, next);
		diag_error(extra->loc, "unexpected '.%s' after procfs(...).%s", extra->name,
			   probes_component(pp, next - 1)->name);
		return false;
	}
	const char *kind = write ? "write" : "read";
	struct procfs_point *pt = ast_alloc(sizeof(*pt));
	pt->name = name;
	pt->write = write;
	pt->maxsize = maxsize;
	if (umask < 0)
		pt->mode = pt->write ? 0200 : 0400;
	else
		pt->mode = (pt->write ? 0222 : 0444) & ~(int)umask;
	/* one read and one write probe per file */
	for (int i = 0; i < s->resolved.n; i++) {
		struct resolved_probe *other = s->resolved.items[i];
		struct procfs_point *o = other->data;
		if (other->provider == &probe_procfs && !strcmp(o->name, name) && o->write == pt->write) {
			diag_error(op->loc, "procfs file \"%s\" already has a .%s probe", name, kind);
			diag_note(other->point->loc, "the other one is here");
			return false;
		}
	}
	out->data = pt;
	out->pp = umask < 0 ? ast_printf("procfs(\"%s\").%s", name, kind)
			    : ast_printf("procfs(\"%s\").umask(0%o).%s", name, (unsigned)umask, kind);
	if (explicit_maxsize)
		out->pp = ast_printf("%s.maxsize(%" PRId64 ")", out->pp, maxsize);
	/* $value: the file's text, written by a .read probe, read in a .write probe */
	out->scope = ast_alloc(sizeof(*out->scope));
	out->scope->what = out->pp;
	targetvar_provide(out->scope, "value", TYPE_STRING, "(const char *)_stp_procfs_value(&c->base)",
			  pt->write ? NULL : maxsize ? "_stp_procfs_strbuf(&c->base)" : "_stp_procfs_value(&c->base)",
			  false);
	if (maxsize)
		((struct target_provided *)out->scope->provided.items[0])->strbuf = true;
	struct target_provided *value = out->scope->provided.items[0];
	if (pt->write)
		value->readonly_why = "$value is what the user wrote and cannot be assigned in a procfs .write probe";
	else
		value->writeonly_why = "$value is what a procfs .read probe gives the reader: it is set (= or .=), "
				       "not read (a .write probe's $value holds what was written)";
	return true;
}

/* One entry per file, with its read and write probe. */
static void procfs_table(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)s;
	emit_open(e, "static struct _stp_procfs_file _stp_procfs_files[] = {");
	for (int i = 0; i < mine->n; i++) {
		struct resolved_probe *r = mine->items[i];
		struct procfs_point *pt = r->data;
		int j, reader = -1, writer = -1, mode = 0;
		int64_t maxsize = 0;
		for (j = 0; j < i; j++)
			if (!strcmp(((struct procfs_point *)((struct resolved_probe *)mine->items[j])->data)->name, pt->name))
				break;
		if (j < i)
			continue; /* emitted with the first probe of this file */
		for (j = i; j < mine->n; j++) {
			struct resolved_probe *o = mine->items[j];
			struct procfs_point *opt = o->data;
			if (strcmp(opt->name, pt->name))
				continue;
			mode |= opt->mode;
			if (opt->write) {
				writer = o->index;
			} else {
				reader = o->index;
				maxsize = opt->maxsize;
			}
		}
		emit_line(e, "{ .name = %s, .mode = 0%o, .maxsize = %" PRId64 ", .read_probe = %s, .write_probe = %s },",
			  emit_c_string(pt->name), (unsigned)mode, maxsize,
			  reader < 0 ? "NULL" : ast_printf("&_stp_probes[%d]", reader),
			  writer < 0 ? "NULL" : ast_printf("&_stp_probes[%d]", writer));
	}
	emit_close(e, "};");
}

const struct probe_provider probe_procfs = {
	.name = "procfs",
	.patterns = (const char *const[]){
		"procfs{,(string)}{,.umask(number)}.{read,read.maxsize(number),write}",
		"procfs{,(string)}.umask(number).maxsize(number)",
		NULL,
	},
	.resolve = procfs_resolve,
	.feature = "STP_HAVE_PROCFS",
	.emit_table = procfs_table,
	.runtime = (const struct runtime_file[]){{"procfs", 4, 4}, {0}},
};
