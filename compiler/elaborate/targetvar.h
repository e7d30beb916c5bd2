/*
 * targetvar.h - target variables: $var->field, $$parms, @cast, @var, @defined,
 * @entry. Built by the parser, resolved against each probe point's debuginfo
 * in pass 2, turned into fault-safe C in pass 3.
 */
#ifndef STAPC_TARGETVAR_H
#define STAPC_TARGETVAR_H

#include "ast.h"
#include "debuginfo/debuginfo.h"
#include "emit.h"
#include "session.h"
#include "targetvar_parse.h"

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
	const char *writeonly_why; /* the error for reading it (NULL: it may be read); '.=' only writes */
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
	struct dbg_func *func;     /* the probed function, whose enumerators $NAME may also name; or NULL */
	/* filled by targetvar.c for return probes: values saved by the entry handler */
	struct vec saved;          /* of struct tv_saved * (targetvar.c) */
	int entry_size;            /* bytes of the saved longs; strings follow (targetvar_entry_size) */
};


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

/* -L: " $name:type" for each variable of scope. */
const char *targetvar_list(struct target_scope *scope);

/*
 * The plans pass 2 makes for pass 3 (translate/codegen_target.c): how one
 * target expression is read at one probe point, as a short program on one
 * unsigned long v (see targetvar.c).
 */
enum tv_op_kind {
	TV_START_REG,    /* v = register reg (+ k) */
	TV_START_CONST,  /* v = k */
	TV_START_ARG,    /* v = handler argument reg (tracepoints) */
	TV_START_ABS,    /* v = link-time kernel address k, relocated at run time */
	TV_START_MODSYM, /* v = where data symbol symbol of kernel module module is loaded now */
	TV_START_EXPR,   /* v = the script expression expr (@cast) */
	TV_ADD,          /* v += k */
	TV_INDEX,        /* v += expr * k */
	TV_LOAD,         /* v = load size bytes at v */
	TV_BITS,         /* v = bits [bit, bit + bits) of v */
	TV_TRUNC,        /* v = low size bytes of v */
	TV_WIDEN_FLOAT,  /* v = the IEEE double bits of the IEEE single in v's low 32 bits */
};

struct tv_op {
	enum tv_op_kind kind;
	int reg;
	int64_t k;
	int size;
	bool is_signed;
	struct node *expr;
	int bit, bits;
	int64_t size_base;         /* TV_START_ABS: init_task's link-time address */
	const char *module;        /* TV_START_MODSYM: the module (kbuild's name) */
	const char *symbol;        /* TV_START_MODSYM: its symbol */
};

/* The access plan of one target expression at one probe point. */
struct tv_plan {
	struct probe *probe;       /* the probe (copy) it belongs to; NULL in a function body */
	const char *error;         /* not readable here: why; NULL if planned */
	bool skipped;              /* with error: --skip-badvars, so it reads as 0 (or "") instead of failing */
	struct vec ops;            /* of struct tv_op * */
	struct dbg_type *type;     /* the type of what v holds or points to */
	bool in_memory;            /* v is the address of an object of type */
	int bit, bits;             /* a bit-field in memory: its bits (bits 0: not a bit-field) */
	bool user;                 /* loads read user memory */
	int saved;                 /* >= 0: a return probe reads the value saved at entry, at this offset */
	struct tv_plan *at_entry;  /* saved: the plan evaluated by the entry handler */
	struct tv_saved *entry_expr; /* @entry(expr) of any expression: the value the entry handler saves */
	bool defined;              /* DEFINED nodes: the answer here */
	struct vec vars;           /* $$parms and friends: of struct tv_named * */
	bool settable_reg;         /* the value is exactly register reg (writable with -g) */
	int reg;                   /* settable_reg: which */
	struct target_provided *provided; /* a variable the point defines: its C, no ops */
	const char *suggestion;    /* with error: what the target has instead (a note), or NULL */
	bool adaptable;            /* with suggestion: the only candidate, which --adapt applies */
	const char *adapt_name;    /* planned under --adapt: the variable used for $name, or NULL */
	struct vec adapt_fields;   /* planned under --adapt: of const char *, per path step the members
	                              followed for its field ("bi_iter->bi_size"), NULL: as written */
};

/* One variable of $$parms / $$locals / $$vars. */
struct tv_named {
	const char *name;
	struct tv_plan *plan;      /* NULL for a provided one */
	struct target_provided *provided; /* the point defines it (SDT operands) */
};

/* A value a return probe's entry handler saves. */
struct tv_saved {
	struct tv_plan *plan;      /* evaluated at entry */
	struct node *node;         /* the expression, for pretty printing and errors */
	struct node *expr;         /* @entry(expr) other than a target: evaluated whole at entry, else NULL */
	const char *code;          /* expr: its C, generated with the probe's body (pass 3), NULL if unused */
	int offset;                /* into the kretprobe instance data */
	bool is_string;
};

/* The target expressions inside n (n itself if it is one), outermost first. */
struct vec targetvar_inner_targets(struct node *n);

/* The plan of node n (a TARGET, DEFINED or ENTRY) at probe p (NULL in a function body), or NULL. */
struct tv_plan *targetvar_plan_of(struct node *n, struct probe *p);

#endif
