/*
 * probes/process_data.c - process[("path")].data(ADDRESS | "symbol")[.length(N)].write / .rw
 * (SystemTap 5.1): hardware watchpoints in user space, set in every thread
 * of each process running the program (runtime/linux/process_data.c).
 *
 * process("path") watches the processes running path; plain process the
 * -c/-x target and its descendants, in the target's program. An address
 * is the process's run-time address, as the program sees it (&counter); a
 * symbol is a data object of the program's symbol table, its link-time
 * address moved by the load bias of a PIE at run time, its length its
 * size rounded up to 1, 2, 4 or 8 (1 if it is larger, or not aligned to
 * that). .length(N) as for kernel.data (hwbkpt.c).
 */
#include <inttypes.h>
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "probes.h"
#include "probes/hwbkpt.h"
#include "probes/process.h"

/* A resolved_probe's data. */
struct udata_point {
	struct hwbkpt_spec spec;
	const char *path;        /* target path of the program */
	bool target_only;        /* plain process: only the -c/-x target and its descendants */
	bool relative;           /* the address is link-time in a PIE: the runtime adds the load bias */
};

/* The symbol's address and watch length from the program's symbol table; false after a diagnostic. */
static bool symbol_spec(struct session *s, struct probe_component *data, struct udata_point *pt)
{
	const char *err = NULL, *host = process_host_file(s, pt->path);
	struct elfsym_file *f = host ? elfsym_open(host, arch_is_arm64(s), &err) : NULL;
	if (!f) {
		diag_error(data->arg->loc, "cannot read %s for its symbol '%s': %s", pt->path, pt->spec.symbol,
			   err ? err : "no such file");
		return false;
	}
	struct vec syms = {0};
	elfsym_symbols(f, &syms);
	for (int i = 0; i < syms.n; i++) {
		const struct elfsym_func *sym = syms.items[i];
		if (strcmp(sym->name, pt->spec.symbol))
			continue;
		pt->spec.address = sym->vaddr;
		pt->relative = elfsym_relocatable(f);
		int len = 1;
		while (len < (int)sym->size && len < HWBKPT_MAX_LENGTH)
			len *= 2;
		pt->spec.length = len >= (int)sym->size && sym->vaddr % (uint64_t)len == 0 ? len : 1;
		return true;
	}
	diag_error(data->arg->loc, "no symbol '%s' in %s's symbol table (a global or static variable of the "
		   "program)", pt->spec.symbol, pt->path);
	return false;
}

static bool udata_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	struct probe_component *root = probes_component(pp, 0), *data = probes_component(pp, 1);
	struct udata_point *pt = ast_alloc(sizeof(*pt));
	int64_t pid = 0;
	const char *buildid = NULL;
	if (!process_root(pp, &pt->path, &pid) ||
	    !process_buildid_program(s, pt->path ? root->arg->loc : root->loc, false, &pt->path, &buildid))
		return false;
	if (pid) {
		diag_error(root->arg->loc, "process(PID).data is not supported: name the program, "
			   "process(\"/path/to/program\").data(...), or use process.data with -x PID");
		return false;
	}
	if (!pt->path) {
		pt->path = process_target_program(s);
		if (!pt->path) {
			diag_error(root->loc, "process.data without a program watches the -c or -x target, and this "
				   "session has %s: name it, process(\"/path/to/program\").data(...)",
				   s->target_cmd || s->target_pid ? "no program stap can find" : "neither");
			return false;
		}
		pt->target_only = true;
	}
	if (!process_program_path(s, pt->path, pt->target_only ? root->loc : root->arg->loc, false, &pt->path) ||
	    !hwbkpt_parse(s, pp, 1, "process.data", &pt->spec) || (pt->spec.symbol && !symbol_spec(s, data, pt)))
		return false;
	out->data = pt;
	const char *what = pt->spec.symbol ? ast_printf("\"%s\"", pt->spec.symbol) : ast_printf("0x%" PRIx64, pt->spec.address);
	out->pp = ast_printf("process(\"%s\").data(%s)%s", pt->path, what, hwbkpt_tail(&pt->spec));
	return true;
}

/* Before the table: a warning when one process would need more watchpoints than debug registers. */
static void udata_table(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)e;
	(void)s;
	if (mine->n > HWBKPT_REGISTERS) {
		const struct resolved_probe *fifth = mine->items[HWBKPT_REGISTERS];
		diag_warning(fifth->point->loc, "%d user-space watchpoints, but x86 has %d debug registers per thread: "
			     "a process that runs into all of them gets only the first %d", mine->n, HWBKPT_REGISTERS,
			     HWBKPT_REGISTERS);
	}
}

static void udata_row(struct emitter *e, const struct resolved_probe *r)
{
	const struct udata_point *pt = r->data;
	emit_line(e, "{ .probe = &_stp_probes[%d], .path = %s, .address = 0x%" PRIx64 "UL, .length = %d, .rw = %d, "
		  ".relative = %d, .target_only = %d },", r->index, emit_c_string(pt->path), pt->spec.address,
		  pt->spec.length, pt->spec.rw, pt->relative, pt->target_only);
}

/* The program watched: the guest needs it (run.c). */
static void udata_user_files(const struct resolved_probe *r, bool symbols, struct vec *out)
{
	const struct udata_point *pt = r->data;
	if (!symbols)
		vec_push(out, (void *)pt->path);
}

const struct probe_provider probe_process_data = {
	.name = "process.data",
	.patterns = (const char *const[]){
		"process{,(string)}.data(number){,.length(number)}.{write,rw}",
		"process{,(string)}.data(string).{write,rw}",
		NULL,
	},
	.resolve = udata_resolve,
	.feature = "STP_HAVE_PROCESS_DATA",
	.emit_table = udata_table,
	.table = "_stp_udata_probe",
	.row = udata_row,
	.runtime = (const struct runtime_file[]){{"task_finder", 0, 0}, {"process_data", 9, 1}, {0}},
	.user_files = udata_user_files,
};
