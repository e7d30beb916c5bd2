/*
 * probes/process.h - the process family, shared by process.c (begin/end
 * events of processes and threads) and uprobe.c (probes inside a
 * program: function, statement, mark, library).
 */
#ifndef STAPC_PROBES_PROCESS_H
#define STAPC_PROBES_PROCESS_H

#include "debuginfo/elfsym.h"
#include "probes.h"

/* Kinds of process points. */
enum process_kind {
	PROCESS_BEGIN,          /* process.begin */
	PROCESS_END,            /* process.end */
	PROCESS_THREAD_BEGIN,   /* process.thread.begin */
	PROCESS_THREAD_END,     /* process.thread.end */
	PROCESS_UPROBE,         /* .function, .statement, .mark: a uprobe per site */
};

/* One place a uprobe goes: one resolved probe each (see process.c). */
struct uprobe_site {
	uint64_t offset;             /* file offset of the instruction */
	uint64_t vaddr;              /* its link-time address (the runtime measures the load bias on it) */
	uint64_t semaphore;          /* SDT: file offset of the semaphore, 0 if none */
	const char *what;            /* "main", "main+0x1c", "provider:name": for messages */
	struct elfsym_sdt *mark;     /* SDT marker, or NULL */
	struct vec args;             /* SDT: its decoded operands (uprobe.c's struct sdt_arg *) */
	int sdt_index;               /* its entry in the generated SDT site table */
	const char *pp;              /* canonical text: process("/bin/x").function("f@x.c:3").return */
	struct target_scope *scope;  /* its target variables (targetvar.h) */
	int64_t callee_return;       /* .callee: the call site's return address minus the callee's entry
					(link-time), checked at the entry; 0 for none */
	int64_t *callers;            /* .callees(N), N > 1: the N - 1 call sites above it (their return
					addresses minus the callee's entry, link-time), innermost first */
	int ncallers;
};

/* What a process point resolved to (resolved_probe.data). */
struct process_point {
	enum process_kind kind;
	const char *path;            /* process("path") on the target, NULL if not named */
	const char *buildid;         /* process("HEX"): the build-id (lowercase) that found path, else NULL */
	int64_t pid;                 /* process(PID), 0 if not given */
	bool optional;               /* '?': a program, function, line or marker not found is no match, not an error */
	bool target_only;            /* no path given: path is the -c/-x program, and only the target fires */
	/* PROCESS_UPROBE */
	const char *file;            /* target path of the file probed: the program or .library */
	bool relocatable;            /* that file is PIE or a shared library */
	bool is_return;              /* .return */
	bool is_mark;                /* .mark: $argN, $$name, $$provider */
	struct vec sites;            /* of struct uprobe_site *: all matches; one per resolved probe after expansion */
};

/* process.c: the program of the -c command or the -x process, NULL if neither names one. */
const char *process_target_program(struct session *s);
/* uprobe.c: the host path of program name (searched in PATH if it has no '/'), NULL if there is no such file. */
const char *process_host_file(struct session *s, const char *name);
/*
 * process.c: process("HEX") where no file has that name names the program
 * with that build-id: found, *path is its target path and *buildid the
 * build-id; false after a diagnostic (none if quiet). True with nothing
 * changed when *path is no build-id.
 */
bool process_buildid_program(struct session *s, struct srcloc loc, bool quiet, const char **path, const char **buildid);
/* uprobe.c: the target path of program name (searched in PATH if it has no '/'); false after a
   diagnostic, or quietly if quiet. */
bool process_program_path(struct session *s, const char *name, struct srcloc loc, bool quiet, const char **target);
/* uprobe.c: resolve the rest of pp after process("path"), the point's component index next;
   an optional point that matches nothing gets no sites. */
/*
 * The first component of a process point: process("path") sets *path,
 * process(PID) *pid, plain process neither; false after a diagnostic.
 * Also for the families that share the form (process_syscall.c).
 */
bool process_root(struct probe_point *pp, const char **path, int64_t *pid);

bool uprobe_resolve(struct session *s, struct probe_point *pp, int next, struct process_point *pt);
/* uprobe.c: pt's uprobes go on the program it names by build-id (not on a .library of it): the
   runtime also attaches them to other files with that build-id that processes exec. */
bool uprobe_by_buildid(const struct process_point *pt);
/* uprobe.c: the entry handlers of .return probes, and the uprobe and SDT tables for the uprobe points in mine. */
void uprobe_emit_table(struct emitter *e, struct session *s, struct vec *mine);

#endif
