/*
 * probes/hwbkpt.h - what kernel.data (hwbkpt.c) and process.data
 * (process_data.c) share: the tail of a watchpoint point,
 * DATA(...)[.length(N)].write|.rw, read and checked the same way.
 */
#ifndef STAPC_PROBES_HWBKPT_H
#define STAPC_PROBES_HWBKPT_H
#include "probes.h"

/* Debug registers of x86-64, and the most bytes one watches (arm64's too). */
#define HWBKPT_REGISTERS 4
#define HWBKPT_MAX_LENGTH 8

/* One watchpoint's spec. */
struct hwbkpt_spec {
	const char *symbol;      /* the variable watched, or NULL for address */
	uint64_t address;        /* the address watched (when symbol is NULL) */
	int length;              /* bytes: 1, 2, 4 or 8 */
	bool rw;                 /* .rw: reads too; .write: writes only */
};

/*
 * Read pp from its data component (index data_at) on into spec: the
 * address or symbol, .length(N) (address only), .write or .rw; family
 * names the point in messages ("kernel.data"). False after a diagnostic.
 */
bool hwbkpt_parse(struct session *s, struct probe_point *pp, int data_at, const char *family, struct hwbkpt_spec *spec);

/* ".length(N).write", ".rw", ...: the canonical tail of spec's point after DATA(...). */
const char *hwbkpt_tail(const struct hwbkpt_spec *spec);
#endif
