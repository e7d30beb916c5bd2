/*
 * probes/process_syscall.c - process[("path") | (PID)].syscall and
 * .syscall.return: every system call a matching task makes, at entry and
 * at exit (runtime/linux/probes/process_syscall.c: the sys_enter and sys_exit
 * tracepoints, filtered by task).
 *
 * Which tasks, as for process.begin (probes/process.c): process(PID) the
 * threads of that process, process("path") those running the program,
 * process.syscall the -c/-x target and its descendants, or every user
 * task without -c or -x.
 *
 * Target variables, as SystemTap documents them: $syscall (the number),
 * $arg1 .. $arg6 at entry, $return at exit; all longs.
 */
#include <string.h>

#include "diag.h"
#include "probes.h"
#include "probes/process.h"
#include "targetvar.h"

/* A resolved_probe's data. */
struct syscall_point {
	const char *path;       /* process("path"), or NULL */
	int64_t pid;            /* process(PID), or 0 */
	bool is_return;         /* .syscall.return */
};

/* The C expression for one field of the hit (struct _stp_syscall_hit). */
static const char *hit_field(const char *field)
{
	return ast_printf("(int64_t)((const struct _stp_syscall_hit *)c->base.hit_data)->%s", field);
}

static bool syscall_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	struct syscall_point *pt = ast_alloc(sizeof(*pt));
	const char *buildid = NULL;
	if (!process_root(pp, &pt->path, &pt->pid) ||
	    !process_buildid_program(s, probes_component(pp, 0)->loc, false, &pt->path, &buildid))
		return false;
	struct probe_component *sc = probes_component(pp, 1), *ret = probes_component(pp, 2);
	if (sc->arg) {
		diag_error(sc->loc, ".syscall takes no argument: it fires for every system call");
		return false;
	}
	if (ret && (strcmp(ret->name, "return") || ret->arg || probes_ncomponents(pp) > 3)) {
		struct probe_component *bad = strcmp(ret->name, "return") || ret->arg ? ret : probes_component(pp, 3);
		diag_error(bad->loc, "unexpected '.%s' after .syscall%s", bad->name,
			   bad == ret ? ": only .return may follow" : ".return");
		return false;
	}
	pt->is_return = ret != NULL;
	out->data = pt;
	out->scope = ast_alloc(sizeof(*out->scope));
	out->scope->what = probes_point_text(pp);
	targetvar_provide(out->scope, "syscall", TYPE_LONG, hit_field("nr"), NULL, true);
	if (pt->is_return) {
		targetvar_provide(out->scope, "return", TYPE_LONG, hit_field("ret"), NULL, false);
		return true;
	}
	for (int i = 1; i <= 6; i++)
		targetvar_provide(out->scope, ast_printf("arg%d", i), TYPE_LONG, hit_field(ast_printf("args[%d]", i - 1)),
				  NULL, true);
	return true;
}

static void syscall_row(struct emitter *e, const struct resolved_probe *r)
{
	const struct syscall_point *pt = r->data;
	emit_line(e, "{ .probe = &_stp_probes[%d], .path = %s, .pid = %lld, .is_return = %d },", r->index,
		  pt->path ? emit_c_string(pt->path) : "NULL", (long long)pt->pid, pt->is_return);
}

/* The program a process("path") point names: the guest needs it (run.c). */
static void syscall_user_files(const struct resolved_probe *r, bool symbols, struct vec *out)
{
	const struct syscall_point *pt = r->data;
	if (!symbols && pt->path)
		vec_push(out, (void *)pt->path);
}

const struct probe_provider probe_process_syscall = {
	.name = "process.syscall",
	.patterns = (const char *const[]){"process{,(number),(string)}.syscall{,.return}", NULL},
	.resolve = syscall_resolve,
	.feature = "STP_HAVE_PROCESS_SYSCALL",
	.table = "_stp_syscall_probe",
	.row = syscall_row,
	.runtime = (const struct runtime_file[]){{"task_finder", 0, 0}, {"process_syscall", 9, 2}, {0}},
	.user_files = syscall_user_files,
};
