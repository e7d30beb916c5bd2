/* ast.h - the one tree every pass works on: tagged-union nodes, kinds listed once. */
#ifndef STAPC_AST_H
#define STAPC_AST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct diag_expansion;

/* A position in a script or tapset file. file is interned: compare pointers. */
struct srcloc {
	const char *file; /* path as given on the command line or tapset path */
	int line;         /* 1-based */
	int col;          /* 1-based, in bytes */
	const struct diag_expansion *expansion; /* macro/alias use this text came from, or NULL (diag.h) */
};

/* Value types of the language. */
enum stp_type {
	TYPE_UNKNOWN = 0, /* not inferred yet */
	TYPE_LONG,        /* 64-bit signed integer */
	TYPE_STRING,      /* NUL-terminated, at most MAXSTRINGLEN-1 bytes at run time */
	TYPE_STATS,       /* statistics aggregate (issue 3) */
	TYPE_VOID,        /* function without a return value */
};

/* A growable array of pointers, allocated from the arena. */
struct vec {
	void **items; /* elements */
	int n;        /* number in use */
	int cap;      /* allocated slots */
};

/*
 * A string-keyed hash table of pointers, in the arena. Keys are not copied:
 * they must live as long as the table (names in the AST do).
 */
struct strmap_entry;
struct strmap {
	struct strmap_entry **buckets; /* chains; NULL until the first insertion */
	int nbuckets;                  /* a power of two */
	int n;                         /* entries */
};

/*
 * Every node kind, once: X(NAME, "description used in diagnostics").
 * Expressions come first, then statements.
 */
#define AST_NODE_KINDS(X)                                                     \
	X(NUM, "number")             /* u.num */                                \
	X(STR, "string")             /* u.str */                                \
	X(VAR, "identifier")         /* u.var: scalar or whole-array reference */ \
	X(INDEX, "array index")      /* u.index: arr[k1, k2] */                 \
	X(CALL, "function call")     /* u.call: f(a, b), also printf & co. */   \
	X(UNARY, "operator")         /* u.unary: - ~ ! + */                     \
	X(BINARY, "operator")        /* u.binary: arithmetic, bitwise, compare, . && || */ \
	X(TERNARY, "operator")       /* u.ternary: c ? a : b */                 \
	X(ASSIGN, "operator")        /* u.assign: = += -= *= /= %= <<= >>= &= |= ^= .= */ \
	X(INCDEC, "operator")        /* u.incdec: ++x x++ --x x-- */            \
	X(IN, "operator")            /* u.in: [k1, k2] in arr */                \
	X(WILDCARD, "'*'")           /* a '*' key: delete a[*, k], [*, k] in a */ \
	X(BLOCK, "block")            /* u.block: { stmts } */                   \
	X(EXPR_STMT, "expression")   /* u.expr_stmt */                          \
	X(NULL_STMT, "statement")    /* ; */                                    \
	X(IF, "keyword")             /* u.if_stmt */                            \
	X(WHILE, "keyword")          /* u.while_stmt */                         \
	X(FOR, "keyword")            /* u.for_stmt */                           \
	X(FOREACH, "keyword")        /* u.foreach */                            \
	X(BREAK, "keyword")          /* no payload */                           \
	X(CONTINUE, "keyword")       /* no payload */                           \
	X(NEXT, "keyword")           /* no payload */                           \
	X(RETURN, "keyword")         /* u.ret */                                \
	X(DELETE, "keyword")         /* u.del */                                \
	X(TRY, "keyword")            /* u.try_stmt: try { } catch (msg) { } */  \
	X(EMBEDDED, "embedded C")    /* u.embedded: %{ ... %} as a statement */ \
	X(STAT_ADD, "operator")      /* u.stat_add: x <<< v, a[k] <<< v */     \
	X(STAT_OP, "operator")       /* u.stat_op: @count(x), @hist_log(a[k])[3] */ \
	X(REGEX, "operator")         /* u.regex: s =~ "re", s !~ "re" */  \
	X(TARGET, "target variable") /* u.target: $var->f[i], @cast(p, "t")->f, @var("x"), $$parms */ \
	X(DEFINED, "@defined")       /* u.at_op: @defined(expr) */             \
	X(ENTRY, "@entry")           /* u.at_op: @entry(target) in a .return probe */

enum node_kind {
#define AST_ENUM(name, desc) NODE_##name,
	AST_NODE_KINDS(AST_ENUM)
#undef AST_ENUM
};

/*
 * How many kinds there are: not a member of enum node_kind, so a switch
 * over a node's kind lists every kind and no default (-Wswitch then
 * names the switches a new kind must be added to).
 */
#define AST_ONE(name, desc) +1
enum { NODE_KIND_COUNT = 0 AST_NODE_KINDS(AST_ONE) };
#undef AST_ONE

/* Operators, shared by UNARY, BINARY, ASSIGN and INCDEC. */
enum ast_op {
	OP_NONE = 0,  /* plain '=' in ASSIGN */
	OP_ADD,       /* + */
	OP_SUB,       /* - */
	OP_MUL,       /* * */
	OP_DIV,       /* / */
	OP_MOD,       /* % */
	OP_SHL,       /* << */
	OP_SHR,       /* >> (arithmetic) */
	OP_BITAND,    /* & */
	OP_BITOR,     /* | */
	OP_BITXOR,    /* ^ */
	OP_BITNOT,    /* ~ (unary) */
	OP_NEG,       /* - (unary) */
	OP_PLUS,      /* + (unary) */
	OP_NOT,       /* ! (unary) */
	OP_AND,       /* && */
	OP_OR,        /* || */
	OP_EQ,        /* == */
	OP_NE,        /* != */
	OP_LT,        /* < */
	OP_LE,        /* <= */
	OP_GT,        /* > */
	OP_GE,        /* >= */
	OP_CONCAT,    /* . */
	OP_INC,       /* ++ */
	OP_DEC,       /* -- */
};

/* Statistics operators; the first six are the extractors, in runtime order (enum _stp_stat_op). */
enum stat_op {
	STAT_COUNT,        /* @count */
	STAT_SUM,          /* @sum */
	STAT_MIN,          /* @min */
	STAT_MAX,          /* @max */
	STAT_AVG,          /* @avg */
	STAT_VARIANCE,     /* @variance(x [, bit_shift]) */
	STAT_HIST_LINEAR,  /* @hist_linear(x, lo, hi, step) */
	STAT_HIST_LOG,     /* @hist_log(x) */
};

/* "@count" ... for an operator; parse the name back (-1 if unknown). */
const char *ast_stat_op_name(enum stat_op op);
int ast_stat_op_parse(const char *name);

/* Spelling of an operator as the user writes it ("+", "<<=" is op + "="). */
const char *ast_op_spelling(enum ast_op op);

struct symbol;
struct function;
struct regex_prog;
struct probe;

/* What a target expression starts from. */
enum target_base {
	TARGET_BASE_VAR,     /* $name: a parameter, local, global of the probed code, or $return */
	TARGET_BASE_CAST,    /* @cast(ptr, "type" [, "module"]) */
	TARGET_BASE_AT_VAR,  /* @var("name[@file]" [, "module"]) */
	TARGET_BASE_AUTO,    /* expr->field: operand's type found in pass 2 (autocast) */
	TARGET_BASE_PARMS,   /* $$parms */
	TARGET_BASE_LOCALS,  /* $$locals */
	TARGET_BASE_VARS,    /* $$vars */
	TARGET_BASE_RETURN,  /* $$return */
};

/* One step of a target expression's access path. */
struct target_step {
	const char *field;     /* ->field, or NULL for [index] */
	struct node *index;    /* [index]: a long expression */
	struct srcloc loc;     /* of the '->' or '[' */
};

struct node {
	enum node_kind kind;   /* which member of u is valid */
	struct srcloc loc;     /* where the node's leading token starts */
	const char *tok;       /* spelling of the node's leading token, for "near ..." */
	enum stp_type type;    /* expressions: inferred type (pass 2) */
	union {
		int64_t num;                   /* NUM: value (wrapped to 64 bits) */
		const char *str;               /* STR: decoded bytes, escapes applied */
		struct {
			const char *name;      /* as written */
			struct symbol *sym;    /* resolved (pass 2) */
		} var;                         /* VAR */
		struct {
			struct node *array;    /* a VAR naming the array */
			struct vec keys;       /* of struct node *, 1..9 */
		} index;                       /* INDEX */
		struct {
			const char *name;      /* function or builtin name */
			struct vec args;       /* of struct node * */
			struct function *func; /* resolved script/tapset function, or NULL for builtins */
			int builtin;           /* resolved builtin id (pass 2), 0 if none */
			struct vec *enumerators; /* @enumname: of struct dbg_var *, its type's (pass 2, enums.c) */
		} call;                        /* CALL */
		struct {
			enum ast_op op;
			struct node *operand;
		} unary;                       /* UNARY */
		struct {
			enum ast_op op;
			struct node *lhs, *rhs;
		} binary;                      /* BINARY */
		struct {
			struct node *cond, *then, *otherwise;
		} ternary;                     /* TERNARY */
		struct {
			enum ast_op op;        /* OP_NONE for '=', else the compound operator */
			struct node *lhs;      /* VAR or INDEX */
			struct node *rhs;
		} assign;                      /* ASSIGN */
		struct {
			enum ast_op op;        /* OP_INC or OP_DEC */
			bool prefix;           /* ++x rather than x++ */
			struct node *operand;  /* VAR or INDEX */
		} incdec;                      /* INCDEC */
		struct {
			struct vec keys;       /* of struct node * */
			struct node *array;    /* a VAR */
		} in;                          /* IN */
		struct {
			struct vec stmts;      /* of struct node * */
		} block;                       /* BLOCK */
		struct {
			struct node *expr;
		} expr_stmt;                   /* EXPR_STMT */
		struct {
			struct node *cond, *then, *otherwise; /* otherwise may be NULL */
		} if_stmt;                     /* IF */
		struct {
			struct node *cond, *body;
		} while_stmt;                  /* WHILE */
		struct {
			struct node *init, *cond, *step; /* each may be NULL */
			struct node *body;
		} for_stmt;                    /* FOR */
		struct {
			struct node *value;    /* VAR bound to the element value, or NULL */
			struct vec keys;       /* of VAR nodes bound to the keys */
			struct node *array;    /* VAR naming the array */
			struct vec slice;      /* of struct node *: arr[*, k] keys to match (WILDCARD: any), or empty */
			int sort_column;       /* 0 = value, 1..n = key n; meaningful when sort_dir != 0 */
			int sort_dir;          /* +1 ascending, -1 descending, 0 unsorted */
			int sort_stat;         /* statistics arrays sorted by value: 1 + enum stat_op, 0 = @count */
			struct node *limit;    /* expression or NULL */
			struct node *body;
		} foreach;                     /* FOREACH */
		struct {
			struct node *value;    /* may be NULL */
		} ret;                         /* RETURN */
		struct {
			struct node *target;   /* VAR (whole array or scalar) or INDEX */
		} del;                         /* DELETE */
		struct {
			const char *code;      /* text between %{ and %} */
		} embedded;                    /* EMBEDDED */
		struct {
			struct node *body;     /* BLOCK: errors inside it are caught */
			struct node *var;      /* VAR receiving the message, or NULL */
			struct node *handler;  /* BLOCK run when an error was caught */
		} try_stmt;                    /* TRY */
		struct {
			struct node *target;   /* VAR or INDEX naming the statistic */
			struct node *value;    /* long expression */
		} stat_add;                    /* STAT_ADD */
		struct {
			enum stat_op op;
			struct node *operand;  /* VAR or INDEX naming the statistic */
			struct vec args;       /* of struct node *: literal parameters after the operand */
			struct node *bucket;   /* @hist_*(...)[bucket], or NULL */
		} stat_op;                     /* STAT_OP */
		struct {
			struct node *subject;  /* string expression */
			struct node *pattern;  /* STR literal: the POSIX ERE */
			bool negate;           /* !~ rather than =~ */
			struct regex_prog *prog; /* the compiled pattern (pass 2, regex.h) */
		} regex;                       /* REGEX */
		struct {
			enum target_base base;
			const char *name;      /* $name without '$'; @cast: the type; @var: "name[@file]" */
			const char *module;    /* @cast, @var: module argument, NULL for the kernel */
			struct node *operand;  /* @cast: the pointer expression; AUTO: the typed expression */
			struct vec path;       /* of struct target_step *: ->field and [index] in order */
			bool address_of;       /* &$var->field: the address, not the value */
			int pretty;            /* 0 value, 1 '$' (one level), 2 '$$' (nested) pretty string */
			enum stp_type provided_type; /* $name the probe point defines (targetvar_bind_provided):
			                                its type, else TYPE_UNKNOWN */
			void *resolved;        /* targetvar.c: per-probe access plans (pass 2) */
		} target;                      /* TARGET */
		struct {
			struct node *operand;  /* ENTRY: a TARGET; DEFINED: any expression, not evaluated */
			void *resolved;        /* targetvar.c: per-probe results (pass 2) */
		} at_op;                       /* DEFINED, ENTRY */
	} u;
};

/* One component of a probe point: name, or name("arg") / name(123). */
struct probe_component {
	const char *name;      /* "kprobe", "function", "ms", "return", ... */
	struct node *arg;      /* NUM or STR literal, or NULL */
	struct srcloc loc;     /* of the name */
	int mark;              /* '?' (1) or '!' (2) written after it, ending an alternative inside braces */
};

/*
 * A probe point as written: kprobe.function("x").return, with its marks:
 * name? (optional), name! (optional and sufficient), name if (cond).
 * Brace alternatives ({a,b}.c) are expanded by the parser, one point each.
 */
struct probe_point {
	struct vec components; /* of struct probe_component * */
	struct srcloc loc;     /* of the first component */
	bool optional;         /* '?' or '!': matching nothing is not an error */
	bool sufficient;       /* '!': once it matches, later points of the list are skipped */
	struct node *cond;     /* if (expr) after the point, or NULL */
};

/* In a derived probe: a copy of an alias body, and the file it was written in (whose private names it sees). */
struct probe_body_file {
	struct node *block;    /* the BLOCK copied from the alias */
	struct ast_file *file; /* the alias's file */
};

/* What a probe declaration defines. */
enum probe_kind {
	PROBE_PLAIN,           /* probe points { body } */
	PROBE_ALIAS_PROLOGUE,  /* probe name = points { body }: body runs before the user's */
	PROBE_ALIAS_EPILOGUE,  /* probe name += points { body }: body runs after the user's */
};

/*
 * probe a, b { body }, or an alias definition. In pass 2 the script's plain
 * probes are derived (probes.c) into the probes the module runs: aliases
 * expanded (their bodies wrapped around a copy of the user's), conditions
 * combined; those are the ones session->probes lists.
 */
struct probe {
	enum probe_kind kind;  /* plain probe or alias definition */
	struct vec names;      /* aliases: of struct probe_point *, the names defined */
	struct vec points;     /* of struct probe_point * */
	struct vec resolved;   /* derived: of struct resolved_probe *, its points as resolved (pass 2) */
	struct node *body;     /* BLOCK */
	struct node *epilogue; /* BLOCK or NULL: an '=' alias's second block, run after the user's body
				  (probe ALIAS = POINTS { prologue }, { epilogue }: SystemTap 4.4) */
	struct srcloc loc;     /* of the 'probe' keyword */
	bool from_tapset;      /* defined in a tapset file */
	struct ast_file *file; /* the file that defines it */
	int index;             /* position in session->probes */
	int body_index;        /* the probe whose C function and locals it runs (pass 3): its own index, or
				  an earlier probe's whose generated code is the same text (translate.c) */
	struct node *cond;     /* derived: the conditions of its points and aliases, and-ed; or NULL */
	struct vec cond_reads; /* of struct symbol *: globals cond reads (pass 2) */
	int cond_index;        /* derived with a cond: its slot in the module's condition flags */
	struct vec body_files; /* derived: of struct probe_body_file *, the alias bodies in body */
	struct vec locals;     /* of struct symbol *: its locals (pass 2) */
	struct vec callees;    /* of struct function *: functions its body calls (pass 2) */
	struct vec globals_read;    /* of struct symbol *: globals it (or callees) reads (pass 2) */
	struct vec globals_written; /* of struct symbol *: globals it (or callees) writes (pass 2) */
	bool quiet;            /* its code (and what it calls) never prints (pass 3, from the AST) */
	bool uses_regs;        /* its code may read the registers or the probe's own entry (pass 3, from the AST) */
};

/* A function parameter: name and optional declared type. */
struct param {
	const char *name;
	enum stp_type type;    /* TYPE_UNKNOWN if not declared */
	struct srcloc loc;
	struct symbol *sym;    /* resolved (pass 2) */
};

/* function name:type (a:type, b) { body } or %{ embedded %} */
struct function {
	const char *name;
	enum stp_type type;    /* declared return type or TYPE_UNKNOWN; inferred in pass 2 */
	struct vec params;     /* of struct param * */
	struct node *body;     /* BLOCK, or EMBEDDED for %{ %} functions */
	struct srcloc loc;     /* of the name */
	bool from_tapset;      /* defined in a tapset file */
	bool is_private;       /* 'private function': visible only inside its file */
	bool pure;             /* embedded C with the pure pragma: no side effects */
	bool stable;           /* stable pragma: same result within one probe hit */
	bool unprivileged;     /* unprivileged pragma: safe for unprivileged users */
	bool myproc_unprivileged; /* myproc-unprivileged pragma: safe in the user's own processes only */
	bool guru_only;        /* guru pragma: script code may call it only with -g */
	bool prints;           /* embedded C: writes to the output (pragma:print; assumed outside the tapset) */
	bool reads_regs;       /* embedded C: reads the probe's registers or entry (pragma:regs; assumed outside the tapset) */
	bool can_fail;         /* embedded C: may leave an error in the context (pass 1); script functions always may */
	const char *autocast;  /* embedded C: returns a kernel pointer to this type (pragma:autocast:TYPE), or NULL */
	bool used;             /* reachable from some probe (pass 2) */
	struct vec locals;     /* of struct symbol *, locals other than params (pass 2) */
	int index;             /* position in session->functions */
	struct vec callees;    /* of struct function *: functions it calls (pass 2) */
	struct vec globals_read;    /* of struct symbol *: globals its body reads (pass 2) */
	struct vec globals_written; /* of struct symbol *: globals its body writes (pass 2) */
	struct ast_file *file; /* the file that defines it */
	bool context_sensitive; /* a script function reading the probe point ($x, $$vars, @entry, ...), itself or
	                           through a callee: planned and generated once per probe that calls it (pass 2) */
	int *clone_of;         /* context_sensitive: per probe index, the clone that probe runs, -1 none (pass 3) */
	int nclones;           /* context_sensitive: distinct clones generated (pass 3) */
};

/* The histogram a statistics global keeps (pass 2: from its @hist_* uses). */
struct stat_hist {
	enum stat_op kind;     /* STAT_HIST_LINEAR or STAT_HIST_LOG; STAT_COUNT when none */
	int64_t lo, hi, step;  /* @hist_linear parameters */
	struct srcloc loc;     /* first @hist_* naming it */
};

/* global a, b = 4, arr[100] */
struct global {
	const char *name;
	struct node *init;     /* NUM or STR literal initial value, or NULL */
	int64_t max_entries;   /* arr[N]: declared size, 0 if not given */
	bool wrap;             /* arr%[N] or arr%: when full, a new key replaces the oldest */
	struct srcloc loc;
	bool from_tapset;
	bool is_private;       /* 'private global': visible only inside its file */
	struct ast_file *file; /* the file that declares it */
	struct symbol *sym;    /* the symbol (pass 2) */
	struct stat_hist hist; /* statistics only: its histogram (pass 2) */
};

/* Everything one file contributes. */
struct ast_file {
	const char *path;
	struct vec globals;    /* of struct global * */
	struct vec functions;  /* of struct function * */
	struct vec probes;     /* of struct probe * */
	struct vec embedded;   /* of struct node * (EMBEDDED): top-level %{ %} blocks */
	struct vec macros;     /* of struct pp_macro * (preprocess.c): its @define macros */
	int rank;              /* definition order: 0 the script, then tapset files in path order */
	struct strmap functions_by_name; /* name -> struct vec of its functions (built on first lookup) */
};

/* Kinds of symbols. */
enum symbol_kind {
	SYM_GLOBAL,  /* script global */
	SYM_LOCAL,   /* local of a probe or function */
	SYM_PARAM,   /* function parameter */
};

struct symbol {
	const char *name;
	enum symbol_kind kind;
	enum stp_type type;        /* value type; for arrays, the element type */
	int arity;                 /* -1 unknown, 0 scalar, n = array with n keys */
	enum stp_type keys[9];     /* key types when arity > 0 */
	struct srcloc loc;         /* declaration or first use */
	struct global *global;     /* SYM_GLOBAL: declaration */
	bool read;                 /* read somewhere (pass 2) */
	bool written;              /* assigned somewhere (pass 2) */
	bool printed;              /* passed to a print function (end-of-script display) */
	int index;                 /* position among its owner's symbols */
};

/* Allocation and vectors (arena: the compiler never frees). */
void *ast_alloc(size_t size);
char *ast_strdup(const char *s);
char *ast_strndup(const char *s, size_t n);
char *ast_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *ast_join(const char *a, const char *sep, const char *b); /* a sep b, without printf's cost */
void vec_push(struct vec *v, void *item);
/* Sort a vector of pointers; an empty one (items NULL) is left alone, unlike qsort's contract. */
void vec_sort(struct vec *v, int (*compare)(const void *a, const void *b));
const char *ast_intern(const char *s); /* one copy per distinct string (file names) */

/* The value stored under key, or NULL. */
void *strmap_get(const struct strmap *m, const char *key);
/* The slot holding key's value, created (holding NULL) if absent. */
void **strmap_slot(struct strmap *m, const char *key);
/* The vec stored under key (a struct vec *), created empty if absent. */
struct vec *strmap_vec(struct strmap *m, const char *key);

struct node *ast_new(enum node_kind kind, struct srcloc loc, const char *tok);
const char *ast_kind_name(enum node_kind kind);
const char *ast_type_name(enum stp_type type);

/*
 * The walker: calls pre(node) before the children and post(node) after,
 * in source order. If pre returns false the children are skipped.
 * Either callback may be NULL. Only this function knows a node's children.
 */
struct ast_walker {
	bool (*pre)(struct ast_walker *w, struct node *n);
	void (*post)(struct ast_walker *w, struct node *n);
	void *data;
};
void ast_walk(struct ast_walker *w, struct node *n);
/* Does the tree n hold a node (n itself or below) that match accepts? */
bool ast_contains(struct node *n, bool (*match)(const struct node *));

/*
 * A deep copy of a tree (ast_clone.c), with pass-2 annotations (symbols,
 * resolved calls, types) cleared, so the copy can be resolved on its own:
 * alias expansion gives each derived probe its own copy of the bodies.
 */
struct node *ast_clone(const struct node *n);

/* Canonical printing for -p1 / -p2. */
void ast_print_node(FILE *out, const struct node *n, int indent);
void ast_print_expr(FILE *out, const struct node *n);
const char *ast_expr_text(const struct node *n); /* the same, as a string (for messages) */
const char *ast_probe_point_text(const struct probe_point *pp); /* a point, as a string */
void ast_print_probe_point(FILE *out, const struct probe_point *pp);
void ast_print_file(FILE *out, const struct ast_file *f);

#endif
