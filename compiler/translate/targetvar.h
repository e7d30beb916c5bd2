/*
 * targetvar.h - target variables: $var->field, $$parms, @cast, @var, @defined,
 * @entry. Built by the parser, resolved against each probe point's debuginfo
 * in pass 2, turned into fault-safe C in pass 3.
 */
#ifndef STAPC_TARGETVAR_H
#define STAPC_TARGETVAR_H

#include "ast.h"
#include "codegen.h"
#include "debuginfo/debuginfo.h"
#include "emit.h"
#include "session.h"

/*
 * A variable a probe point defines itself, not found in the probed code's
 * debuginfo: procfs $value, an SDT marker's $arg1..$argN, $$name and
 * $$provider. The provider gives the C that reads it, and for a string it
 * lets the body write, the buffer to write. Such a variable is typed in
 * pass 2 before type inference (targetvar_bind_provided), needs no -g to
 * be written, and takes no ->member, [index], '&' or '$' suffix.
 */
struct target_provided {
	const char *name;          /* without the first '$': "value", "arg1", "$name" */
	enum stp_type type;        /* TYPE_LONG or TYPE_STRING */
	const char *rvalue;        /* C expression in a probe body reading it; may set c->base.last_error */
	const char *lvalue;        /* TYPE_STRING: a char * to a MAXSTRINGLEN buffer it is written through;
	                              TYPE_LONG: a C lvalue of an integer type; NULL: read-only */
	const char *readonly_why;  /* lvalue NULL: the error for an assignment (NULL: a generic one) */
	bool strbuf;               /* TYPE_STRING: lvalue is a struct _stp_strbuf *, a buffer longer than a
	                              string_t (procfs .read.maxsize): written with _stp_strbuf_set/append,
	                              read as its first MAXSTRINGLEN-1 bytes */
	bool in_parms;             /* listed by $$parms and $$vars (SDT operands) */
};

/*
 * What a probe point offers to target expressions. Providers that know the
 * probed code (kernel.function, kernel.statement, kernel.trace, and the
 * user-space families) fill one in struct resolved_probe.scope.
 */
struct target_scope {
	struct debuginfo *di;      /* types come from here (and @cast without a module); NULL if none */
	struct vec vars;           /* of struct dbg_var *: what $name may name, located at the probe */
	struct vec provided;       /* of struct target_provided *: the point's own variables */
	const char *no_debuginfo;  /* vars is empty for want of debuginfo: why ("x has no DWARF"), else NULL */
	bool is_return;            /* a return probe: $return exists, the others are saved at entry */
	struct dbg_type *ret;      /* is_return: the type of $return (NULL: void) */
	bool user;                 /* the probed code is a user-space program: read its memory */
	const char *what;          /* "function vfs_read", for messages */
	/* filled by targetvar.c for return probes: values saved by the entry handler */
	struct vec saved;          /* of struct tv_saved * (targetvar.c) */
	int entry_size;            /* bytes of the saved longs; strings follow (targetvar_entry_size) */
};

/* Parser helpers (targetvar_parse.c): build the nodes, reporting malformed uses at once. */
struct node *targetvar_new(struct srcloc loc, const char *text);
struct node *targetvar_at_operator(struct srcloc loc, const char *name, struct vec *args);
struct node *targetvar_add_field(struct node *t, struct srcloc loc, const char *field);
struct node *targetvar_add_index(struct node *t, struct srcloc loc, struct node *index);
struct node *targetvar_set_pretty(struct node *t, struct srcloc loc, const char *suffix);
struct node *targetvar_address_of(struct srcloc loc, struct node *t);

/* Pass 2, types.c: the value type a target expression has (long or string). */
enum stp_type targetvar_value_type(const struct node *n);

/*
 * Pass 2, after probe points are resolved and before types: give each
 * $name a probe point defines (struct target_provided) its type. False
 * (with diagnostics) if the points of one probe disagree on it.
 */
bool targetvar_bind_provided(struct session *s);

/* Add a variable the point defines to scope (allocating nothing else). */
void targetvar_provide(struct target_scope *scope, const char *name, enum stp_type type, const char *rvalue,
		       const char *lvalue, bool in_parms);

/*
 * Pass 2, after probe points are resolved: check every target expression
 * against every point of its probe, splitting a probe whose body reads
 * target variables into one probe per point (their locations differ), and
 * plan each access. False (with diagnostics) on errors.
 */
bool targetvar_resolve(struct session *s);

/* Pass 3 (codegen.c): C for a TARGET, DEFINED or ENTRY node; C for an assignment to a TARGET. */
const char *targetvar_gen_expr(struct codegen *g, struct node *n);
const char *targetvar_gen_assign(struct codegen *g, struct node *assign);

/*
 * Pass 3 (probes/kprobe.c): for a return probe whose scope saves values at
 * entry, emit "static void NAME(struct context *c)" storing them into
 * c->base.entry_data. Returns false (emitting nothing) if nothing is saved.
 */
bool targetvar_emit_entry(struct emitter *e, struct session *s, struct target_scope *scope, struct probe *probe,
			  const char *name);

/* C expression for the bytes of kretprobe instance data the saved values need. */
const char *targetvar_entry_size(struct target_scope *scope);

/* -L: " $name:type" for each variable of scope. */
const char *targetvar_list(struct target_scope *scope);

#endif
