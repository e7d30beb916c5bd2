/*
 * probes/hwbkpt.c - kernel.data(ADDRESS | "symbol")[.length(N)].write / .rw:
 * hardware watchpoints on kernel data (runtime/linux/probes/hwbkpt.c), one
 * register_wide_hw_breakpoint per point, on every CPU.
 *
 * A symbol is looked up when the session starts (kallsyms, so KASLR and
 * BTF-only kernels need nothing at pass 2); with the kernel's DWARF a
 * misspelt one is an error here, and so is any on a kernel whose kallsyms
 * has no variables (CONFIG_KALLSYMS_ALL off: Debian's arm64 kernel). An address is the kernel's run-time
 * address, as in SystemTap. .length(N) watches N bytes from the address
 * (not with a symbol, which watches 1): N is rounded up to a length x86
 * debug registers support (1, 2, 4 or 8), and the address must be aligned
 * to it. x86 has 4 debug registers: a fifth watchpoint is warned about
 * here and fails when the session starts.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "debuginfo/kernel.h"
#include "diag.h"
#include "probes.h"

/* Debug registers of x86-64, and the most bytes one watches (arm64's too). */
#define HWBKPT_REGISTERS 4
#define HWBKPT_MAX_LENGTH 8

/* A resolved_probe's data. */
struct hwbkpt_point {
	const char *symbol;      /* the variable watched, or NULL for address */
	uint64_t address;        /* the address watched (when symbol is NULL) */
	int length;              /* bytes: 1, 2, 4 or 8 */
	bool rw;                 /* .rw: reads too; .write: writes only */
};

/*
 * With the kernel's DWARF, a data symbol must be one of its globals, or a
 * data symbol of its System.map (jiffies: the linker script defines it, so
 * DWARF has no variable of that name; kallsyms finds it at START).
 */
static bool symbol_known(struct session *s, const char *name)
{
	const char *err = NULL;
	struct debuginfo *di = kernel_debuginfo(s, "kernel", &err);
	return !di || di->source != DBG_SOURCE_DWARF || dbg_global(di, name, NULL) != NULL ||
	       kernel_data_symbol_known(s, name);
}

/*
 * Whether the kernel's kallsyms, which finds a symbol at START, holds its
 * variables: only with CONFIG_KALLSYMS_ALL (Debian's arm64 kernel has it
 * off), read from the build tree's include/config/auto.conf (a few KB, for
 * each kernel.data("symbol") point). A tree without that file is given
 * the benefit of the doubt.
 */
static bool kallsyms_has_data(struct session *s)
{
	char line[256];
	FILE *f = s->kernel_build ? fopen(ast_printf("%s/include/config/auto.conf", s->kernel_build), "r") : NULL;
	bool has = !f;

	while (f && !has && fgets(line, sizeof(line), f))
		has = !strcmp(line, "CONFIG_KALLSYMS_ALL=y\n");
	if (f)
		fclose(f);
	return has;
}

static bool hwbkpt_resolve(struct session *s, struct probe_point *pp, struct resolved_probe *out)
{
	struct probe_component *kernel = probes_component(pp, 0), *data = probes_component(pp, 1);
	struct hwbkpt_point *pt = ast_alloc(sizeof(*pt));
	if (kernel->arg) {
		diag_error(kernel->loc, "'kernel' takes no argument");
		return false;
	}
	if (!data->arg || (data->arg->kind == NODE_STR && !*data->arg->u.str)) {
		diag_error(data->loc, "kernel.data needs an address or a symbol name in quotes: kernel.data(\"jiffies\")");
		return false;
	}
	if (data->arg->kind == NODE_STR) {
		pt->symbol = data->arg->u.str;
		if (!symbol_known(s, pt->symbol)) {
			diag_error(data->arg->loc, "no global variable '%s' in the kernel's debuginfo", pt->symbol);
			return false;
		}
		if (!kallsyms_has_data(s)) {
			diag_error(data->arg->loc, "kernel %s was built without CONFIG_KALLSYMS_ALL: its kallsyms has no "
				   "variables, so '%s' cannot be found when the session starts; watch its address instead",
				   s->release ? s->release : "", pt->symbol);
			return false;
		}
	} else {
		pt->address = (uint64_t)data->arg->u.num;
	}
	pt->length = 1;
	int next = 2;
	struct probe_component *c = probes_component(pp, next);
	if (c && !strcmp(c->name, "length")) {
		if (pt->symbol) {
			diag_error(c->loc, ".length(N) applies only to kernel.data(ADDRESS): a symbol's watchpoint is 1 byte");
			return false;
		}
		if (!c->arg || c->arg->kind != NODE_NUM || c->arg->u.num < 1) {
			diag_error(c->loc, ".length needs a number of bytes, e.g. .length(4)");
			return false;
		}
		if (c->arg->u.num > HWBKPT_MAX_LENGTH) {
			diag_error(c->arg->loc, "a hardware watchpoint covers at most %d bytes on %s, not %" PRId64,
				   HWBKPT_MAX_LENGTH, s->arch->kbuild, c->arg->u.num);
			return false;
		}
		while (pt->length < c->arg->u.num)
			pt->length *= 2;
		if (pt->address % (uint64_t)pt->length) {
			diag_error(c->arg->loc, "a %d-byte watchpoint needs an address aligned to %d (0x%" PRIx64 " is not)",
				   pt->length, pt->length, pt->address);
			return false;
		}
		c = probes_component(pp, ++next);
	}
	if (!c) {
		diag_error(pp->loc, "kernel.data(...) needs .write or .rw: which accesses fire the probe");
		return false;
	}
	if (c->arg || (strcmp(c->name, "write") && strcmp(c->name, "rw"))) {
		diag_error(c->loc, "unexpected '.%s': expected %s.write or .rw", c->name,
			   next == 2 && !pt->symbol ? ".length(N), " : "");
		return false;
	}
	if (probes_ncomponents(pp) > next + 1) {
		struct probe_component *extra = probes_component(pp, next + 1);
		diag_error(extra->loc, "unexpected '.%s' after .%s", extra->name, c->name);
		return false;
	}
	pt->rw = !strcmp(c->name, "rw");
	out->data = pt;
	const char *what = pt->symbol ? ast_printf("\"%s\"", pt->symbol) : ast_printf("0x%" PRIx64, pt->address);
	out->pp = ast_printf("kernel.data(%s)%s.%s", what,
			     pt->symbol ? "" : ast_printf(".length(%d)", pt->length), pt->rw ? "rw" : "write");
	return true;
}

/*
 * Before the table: a warning when there are more watchpoints than x86's
 * debug registers (an arm64 CPU has 2 to 16 watchpoints: the kernel knows).
 */
static void hwbkpt_table(struct emitter *e, struct session *s, struct vec *mine)
{
	(void)e;
	if (mine->n > HWBKPT_REGISTERS && !arch_is_arm64(s)) {
		const struct resolved_probe *fifth = mine->items[HWBKPT_REGISTERS];
		diag_warning(fifth->point->loc, "%d hardware watchpoints, but x86 has %d debug registers: "
			     "the session will fail to start", mine->n, HWBKPT_REGISTERS);
	}
}

static void hwbkpt_row(struct emitter *e, const struct resolved_probe *r)
{
	const struct hwbkpt_point *pt = r->data;
	emit_line(e, "{ .probe = &_stp_probes[%d], .symbol = %s, .address = 0x%" PRIx64 "UL, .length = %d, .rw = %d },",
		  r->index, pt->symbol ? emit_c_string(pt->symbol) : "NULL", pt->address, pt->length, pt->rw);
}

const struct probe_provider probe_hwbkpt = {
	.name = "kernel.data",
	.patterns = (const char *const[]){
		"kernel.data(number){,.length(number)}.{write,rw}",
		"kernel.data(string).{write,rw}",
		NULL,
	},
	.resolve = hwbkpt_resolve,
	.feature = "STP_HAVE_HWBKPT",
	.emit_table = hwbkpt_table,
	.table = "_stp_hwbkpt_probe",
	.row = hwbkpt_row,
	.runtime = (const struct runtime_file[]){{"hwbkpt", 9, 1}, {0}},
};
