/*
 * parser.y - pass 1, second half: the SystemTap grammar, building struct ast_file.
 *
 * A pure (reentrant) LALR(1) parser fed by lexer.l. The expression grammar is
 * written as one nonterminal per precedence level, lowest first, following
 * SystemTap:
 *
 *   = += -= ... (right)   ?: (right)   ||   &&   |   ^   &   in
 *   == != < <= > >=   << >>   . (concatenation)   + -   * / %
 *   unary + - ! ~   ++x --x   x++ x--   primary
 *
 * Semicolons after statements are optional, as in SystemTap
 * ("probe begin { x = 1 y = 2 }" is two statements). That makes a few
 * tokens ambiguous between "continue this expression" and "start the next
 * statement" ('-' '+' '++' '--' '(' '['), and "return" ambiguous between
 * "with a value" and "without". Those conflicts are resolved greedily (the
 * expression continues), exactly like SystemTap's recursive-descent parser,
 * through the STMT_END precedence below. Nothing else uses precedence, and
 * %expect 0 keeps it that way.
 *
 * Each node's loc/tok is its leading token, except operator nodes, which
 * carry the operator ("near operator '/'").
 *
 * Error recovery, so one run reports several syntax errors: inside a block,
 * a syntax error abandons the statement being parsed and drops tokens until
 * one that can start a statement (or the block's '}'); elsewhere it abandons
 * the top-level declaration and skips to the next 'global', 'probe',
 * 'function' or '%{'. Bison reports nothing more until three tokens have
 * been accepted, which keeps one mistake from cascading.
 */

%code requires {
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ast.h"

#ifndef YY_TYPEDEF_YY_SCANNER_T
#define YY_TYPEDEF_YY_SCANNER_T
typedef void *yyscan_t;
#endif

/* Brackets tracked for error recovery; deeper nesting is counted, not remembered. */
#define PARSE_MAX_NESTING 256

/* Semantic value of a token. */
struct parse_token {
	const char *text; /* spelling as written (strings keep their quotes) */
	int64_t num;      /* NUMBER: value, wrapped to 64 bits */
	const char *str;  /* STRING: decoded contents */
};

/* The variables of a foreach header while it is being parsed. */
struct parse_foreach {
	struct node *value;  /* VAR bound to the element value, or NULL */
	struct vec keys;     /* of VAR nodes */
	int sort_column;     /* 0 = value, 1..n = key n */
	int sort_dir;        /* +1, -1, or 0 when unsorted */
};

/* A foreach key variable and the sort marker written after it. */
struct parse_key {
	struct node *var; /* VAR node */
	int sort;         /* +1 for '+', -1 for '-', 0 for none */
};

/* State shared by the scanner (as yyextra) and the parser (as a parameter). */
struct parse_state {
	struct session *session;  /* whose options, arguments and macros the preprocessor sees */
	const char *path;         /* interned file name, put in every srcloc */
	bool is_tapset;           /* mark declarations as from_tapset */
	struct ast_file *file;    /* the file being built */
	int line;                 /* scanner cursor: line of the next character */
	int col;                  /* scanner cursor: column of the next character */
	struct srcloc start;      /* start of a comment or %{ block in progress */
	char *buf;                /* text of the %{ block in progress */
	size_t buf_len;           /* bytes used in buf */
	size_t buf_cap;           /* bytes allocated for buf */
	const char *last_text;    /* spelling of the latest token, for syntax errors */
	int last_token;           /* kind of the latest token */
	bool eof_reported;        /* the scanner already reported why the file ended early */
	bool unterminated_string; /* an unterminated string was reported: skip the next syntax error */
	int pp_braces;            /* scanner: depth of brace alternatives in a probe point */
	int cond_parens;          /* scanner: parenthesis depth in a probe point's "if (...)" */
	bool macro_file;          /* a *.stpm file: only macro definitions, nothing is parsed */
	struct pp_state *pp;      /* the preprocessor between the scanner and the parser */
	char open[PARSE_MAX_NESTING]; /* brackets ( [ { open before the latest token, innermost last */
	int nopen;                /* how many are open (may exceed the array: only counted) */
	int block_before;         /* brackets open up to the innermost '{' before the latest token */
	bool comment_before;      /* scanner: a comment was skipped since the latest token */
};
}

%code provides {
int yylex(YYSTYPE *yylval, struct srcloc *yylloc, yyscan_t scanner);
/* After the nesting check: 'return' only in functions, literal printd delimiters. */
void parse_check_statements(struct ast_file *f);
}

%code {
#include <string.h>

#include "diag.h"
#include "session.h"
#include "targetvar_parse.h"

/* A nonterminal's location is that of its first symbol (its leading token). */
#define YYLLOC_DEFAULT(cur, rhs, n)                        \
	do {                                               \
		if (n)                                     \
			(cur) = YYRHSLOC(rhs, 1);          \
		else                                       \
			(cur) = YYRHSLOC(rhs, 0);          \
	} while (0)

static void yyerror(struct srcloc *loc, yyscan_t scanner, struct parse_state *ps, const char *msg);

static struct node *new_num(struct srcloc loc, const char *tok, int64_t value);
static struct node *new_assign(struct parse_state *ps, struct srcloc loc, enum ast_op op, struct node *lhs,
			       struct node *rhs);
static struct node *new_var(struct srcloc loc, const char *name);
static struct node *new_binary(struct srcloc loc, const char *tok, enum ast_op op,
			       struct node *lhs, struct node *rhs);
static struct node *new_unary(struct srcloc loc, const char *tok, enum ast_op op,
			      struct node *operand);
static struct node *new_incdec(struct srcloc loc, const char *tok, enum ast_op op,
			       bool prefix, struct node *operand);
static bool is_lvalue(const struct node *n);
static enum stp_type parse_type_name(struct srcloc loc, const char *name);
static void add_foreach_key(struct parse_foreach *fe, struct parse_key key);
static struct vec pp_product(struct vec prefixes, struct vec suffixes, struct srcloc loc);
static struct vec pp_finish(struct vec seqs, int mark, struct node *cond);
static void pp_mark_alternatives(struct vec *seqs, int mark);
static void add_global(struct parse_state *ps, struct global *g);
static struct probe *new_probe(struct parse_state *ps, struct srcloc loc, enum probe_kind kind,
			       struct vec names, struct vec points, struct node *body);
static struct node *new_foreach(struct srcloc loc, struct parse_foreach *fe, struct srcloc array_loc,
				const char *array, int sort_stat, struct srcloc sort_loc, int sort,
				struct node *limit, struct node *body);
static struct node *new_foreach_hist(struct srcloc loc, struct parse_foreach *fe, struct node *hist,
				     struct node *limit, struct node *body);
static struct node *new_stat_op(struct srcloc loc, const char *name, struct vec args, struct node *bucket);
static struct node *new_hist_in(struct srcloc loc, struct node *index, struct node *hist);
static struct global *new_global(struct parse_state *ps, struct srcloc loc, const char *name);
static void set_pragmas(struct function *f, const char *code);
static int parse_lex(YYSTYPE *val, struct srcloc *loc, yyscan_t scanner, struct parse_state *ps);
static int skip_to_statement(struct parse_state *ps, yyscan_t scanner, int token, YYSTYPE *val,
			     struct srcloc *loc, bool *progress);

/* The parser reads tokens through parse_lex, which tracks open brackets. */
#define yylex(val, loc, scanner) parse_lex(val, loc, scanner, ps)
}

%define api.pure full
%define api.location.type {struct srcloc}
%define parse.error custom
%define parse.lac full
%locations
%param {yyscan_t scanner}
%parse-param {struct parse_state *ps}
%expect 0

%union {
	struct parse_token tok;       /* tokens */
	struct node *node;            /* expressions and statements */
	struct vec vec;               /* lists */
	enum ast_op op;               /* assignment operators */
	enum stp_type type;           /* declared types */
	int sort;                     /* sort marker: +1, -1, 0 */
	struct probe_point *point;    /* probe points */
	struct probe_component *comp; /* probe point components */
	struct global *global;        /* global declarations */
	struct param *param;          /* function parameters */
	struct function *func;        /* function headers */
	struct parse_foreach *fe;     /* foreach variables */
	struct parse_key key;         /* one foreach key */
}

%token <tok> IDENT "identifier"
%token <tok> NUMBER "number"
%token <tok> STRING "string"
%token <tok> EMBEDDED_CODE "embedded C block"
%token <tok> PP_NAME "probe point component"
%token <tok> PP_LBRACE "'{' of probe point alternatives" PP_RBRACE "'}' of probe point alternatives"
%token <tok> TARGET_VAR "target variable"
%token <tok> AT_NAME "@ operator"
%token <tok> AT_DEFINED "'@defined'"
%token <tok> STAT_OP "statistics operator"
/* Preprocessor tokens: preprocess.c consumes them, the grammar never sees them. */
%token <tok> PP_IF "'%('" PP_THEN "'%?'" PP_ELSE "'%:'" PP_END "'%)'"
%token <tok> ARROW "'->'" PRETTY_SUFFIX "'$'"
%token <tok> GLOBAL "'global'" PROBE "'probe'" FUNCTION "'function'"
%token <tok> IF "'if'" ELSE "'else'" WHILE "'while'" FOR "'for'" FOREACH "'foreach'"
%token <tok> IN "'in'" BREAK "'break'" CONTINUE "'continue'" NEXT "'next'"
%token <tok> RETURN "'return'" DELETE "'delete'" LIMIT "'limit'" PRIVATE "'private'"
%token <tok> TRY "'try'" CATCH "'catch'"
%token <tok> SHL "'<<'" SHR "'>>'" LE "'<='" GE "'>='" EQ "'=='" NE "'!='"
%token <tok> AND "'&&'" OR "'||'" INC "'++'" DEC "'--'"
%token <tok> ADD_ASSIGN "'+='" SUB_ASSIGN "'-='" MUL_ASSIGN "'*='" DIV_ASSIGN "'/='"
%token <tok> MOD_ASSIGN "'%='" SHL_ASSIGN "'<<='" SHR_ASSIGN "'>>='" AND_ASSIGN "'&='"
%token <tok> OR_ASSIGN "'|='" XOR_ASSIGN "'^='" CONCAT_ASSIGN "'.='"
%token <tok> STATS_ADD "'<<<'" REGEX_MATCH "'=~'" REGEX_NOMATCH "'!~'"
%token <tok> '+' '-' '*' '/' '%' '&' '|' '^' '~' '!' '<' '>' '=' '.' '?' ':' ';' ','
%token <tok> '(' ')' '[' ']' '{' '}'

/* See the top of the file: only statement ends use precedence. */
%precedence STMT_END
%precedence ARROW
%precedence ';' '-' '+' INC DEC '(' '[' IDENT NUMBER STRING '!' '~' AT_DEFINED STAT_OP '&' TARGET_VAR AT_NAME EMBEDDED_CODE
%precedence THEN
%precedence ELSE

%type <node> block statement expr opt_expr assign_expr ternary_expr lor_expr land_expr
%type <node> bitor_expr bitxor_expr bitand_expr in_expr compare_expr shift_expr
%type <node> concat_expr add_expr mul_expr unary_expr crement_expr primary literal target
%type <tok> member_name
%type <vec> statements expr_list opt_args params opt_params global_list key_list
%type <node> key
%type <op> assign_op
%type <tok> compare_op
%type <type> opt_type
%type <sort> opt_sort sort_sign
%type <comp> component
%type <global> global_item
%type <param> param
%type <fe> foreach_vars foreach_keys
%type <key> foreach_key
%type <node> opt_limit
%type <vec> probe_points pp_item pp_seq pp_elem pp_alts pp_alt
%type <sort> pp_mark
%type <node> pp_cond
%type <func> function_head function_sig

%%

/* file = (global-decl | probe-decl | function-decl | "%{" ... "%}")* */
file:
	%empty
|	file toplevel
;

toplevel:
	global_decl
|	probe_decl
|	function_decl
|	EMBEDDED_CODE {
		struct node *n = ast_new(NODE_EMBEDDED, @1, "%{");
		n->u.embedded.code = $1.text;
		vec_push(&ps->file->embedded, n);
	}
|	error         { /* skipped to the next declaration; already reported */ }
;

/*
 * global-decl = "private"? "global" global-item ("," global-item)* ";"?
 * A private global is visible only inside the file that declares it.
 */
global_decl:
	GLOBAL global_list opt_semicolon {
		for (int i = 0; i < $2.n; i++)
			add_global(ps, $2.items[i]);
	}
|	PRIVATE GLOBAL global_list opt_semicolon {
		for (int i = 0; i < $3.n; i++) {
			((struct global *)$3.items[i])->is_private = true;
			add_global(ps, $3.items[i]);
		}
	}
;

opt_semicolon:
	%empty
|	';'
;

global_list:
	global_item                 { $$ = (struct vec){ 0 }; vec_push(&$$, $1); }
|	global_list ',' global_item { $$ = $1; vec_push(&$$, $3); }
;

/*
 * global-item = ident ("=" literal | "[" number "]" | "%" ("[" number "]")?)?
 * "%" makes a wrap-around array: when full, a new element replaces the oldest.
 */
global_item:
	IDENT {
		$$ = new_global(ps, @1, $1.text);
	}
|	IDENT '=' literal {
		$$ = new_global(ps, @1, $1.text);
		$$->init = $3;
	}
|	IDENT '[' NUMBER ']' {
		$$ = new_global(ps, @1, $1.text);
		$$->max_entries = $3.num;
		if ($3.num <= 0)
			diag_error(@3, "array size must be positive");
	}
|	IDENT '%' {
		$$ = new_global(ps, @1, $1.text);
		$$->wrap = true;
	}
|	IDENT '%' '[' NUMBER ']' {
		$$ = new_global(ps, @1, $1.text);
		$$->wrap = true;
		$$->max_entries = $4.num;
		if ($4.num <= 0)
			diag_error(@4, "array size must be positive");
	}
;

/* literal = number | "-" number | string */
literal:
	NUMBER     { $$ = new_num(@1, $1.text, $1.num); }
|	'-' NUMBER {
		$$ = new_num(@1, ast_printf("-%s", $2.text), (int64_t)(0 - (uint64_t)$2.num));
	}
|	STRING     { $$ = ast_new(NODE_STR, @1, $1.text); $$->u.str = $1.str; }
;

/*
 * probe-decl = "probe" probe-points block
 *            | "probe" probe-points ("=" | "+=") probe-points block   (an alias)
 *            | "probe" probe-points "=" probe-points block "," block
 * In an alias the first list names the alias; "=" runs its body before the
 * user's (a prologue), "+=" after it (an epilogue); "=" with two blocks
 * runs the first before and the second after (SystemTap 4.4).
 */
probe_decl:
	PROBE probe_points block { new_probe(ps, @1, PROBE_PLAIN, (struct vec){ 0 }, $2, $3); }
|	PROBE probe_points '=' probe_points block {
		new_probe(ps, @1, PROBE_ALIAS_PROLOGUE, $2, $4, $5);
	}
|	PROBE probe_points '=' probe_points block ',' block {
		new_probe(ps, @1, PROBE_ALIAS_PROLOGUE, $2, $4, $5)->epilogue = $7;
	}
|	PROBE probe_points ADD_ASSIGN probe_points block {
		new_probe(ps, @1, PROBE_ALIAS_EPILOGUE, $2, $4, $5);
	}
;

/* probe-points = probe-point ("," probe-point)*, each brace-expanded (of struct probe_point *) */
probe_points:
	pp_item                  { $$ = $1; }
|	probe_points ',' pp_item {
		$$ = $1;
		for (int i = 0; i < $3.n; i++)
			vec_push(&$$, $3.items[i]);
	}
;

/* probe-point = pp-seq ("?" | "!")? ("if" "(" expr ")")? */
pp_item:
	pp_seq pp_mark pp_cond { $$ = pp_finish($1, $2, $3); }
;

pp_mark:
	%empty { $$ = 0; }
|	'?'    { $$ = 1; }
|	'!'    { $$ = 2; }
;

pp_cond:
	%empty           { $$ = NULL; }
|	IF '(' expr ')'  { $$ = $3; }
;

/*
 * pp-seq = pp-elem ("." pp-elem)*      pp-elem = component | "{" pp-seq ("," pp-seq)* "}"
 * Values are the alternatives spelled so far: a vec of component sequences
 * (each a struct vec * of struct probe_component *).
 */
pp_seq:
	pp_elem
|	pp_seq '.' pp_elem { $$ = pp_product($1, $3, @2); }
;

pp_elem:
	component {
		struct vec *seq = ast_alloc(sizeof(*seq));
		vec_push(seq, $1);
		$$ = (struct vec){ 0 };
		vec_push(&$$, seq);
	}
|	PP_LBRACE pp_alts PP_RBRACE { $$ = $2; }
;

pp_alts:
	pp_alt
|	pp_alts ',' pp_alt {
		$$ = $1;
		for (int i = 0; i < $3.n; i++)
			vec_push(&$$, $3.items[i]);
	}
;

/* pp-alt = pp-seq ("?" | "!")?: a mark inside the braces applies to that alternative only */
pp_alt:
	pp_seq pp_mark { $$ = $1; pp_mark_alternatives(&$$, $2); }
;

/* component = name ("(" literal ")")?   where name may contain '*' */
component:
	PP_NAME {
		$$ = ast_alloc(sizeof(*$$));
		$$->name = $1.text;
		$$->loc = @1;
	}
|	PP_NAME '(' literal ')' {
		$$ = ast_alloc(sizeof(*$$));
		$$->name = $1.text;
		$$->loc = @1;
		$$->arg = $3;
	}
;

/*
 * function-decl = "private"? "function" ident (":" type)? "(" params? ")" (block | "%{" ... "%}")
 * params = ident (":" type)? ("," ident (":" type)?)*
 * Functions may share a name if their parameter counts differ (overloading by arity).
 */
function_decl:
	function_head block         { $1->body = $2; }
|	function_head EMBEDDED_CODE {
		$1->body = ast_new(NODE_EMBEDDED, @2, "%{");
		$1->body->u.embedded.code = $2.text;
		set_pragmas($1, $2.text);
	}
;

function_head:
	FUNCTION function_sig         { $$ = $2; }
|	PRIVATE FUNCTION function_sig { $$ = $3; $$->is_private = true; }
;

function_sig:
	IDENT opt_type '(' opt_params ')' {
		struct function *f = ast_alloc(sizeof(*f));
		f->name = $1.text;
		f->type = $2;
		f->params = $4;
		f->loc = @1;
		f->from_tapset = ps->is_tapset;
		f->file = ps->file;
		vec_push(&ps->file->functions, f);
		$$ = f;
	}
;

opt_type:
	%empty    { $$ = TYPE_UNKNOWN; }
|	':' IDENT { $$ = parse_type_name(@2, $2.text); }
;

opt_params:
	%empty { $$ = (struct vec){ 0 }; }
|	params
;

params:
	param            { $$ = (struct vec){ 0 }; vec_push(&$$, $1); }
|	params ',' param {
		$$ = $1;
		for (int i = 0; i < $1.n; i++)
			if (!strcmp(((struct param *)$1.items[i])->name, $3->name)) {
				diag_error($3->loc, "parameter '%s' is named twice", $3->name);
				diag_note(((struct param *)$1.items[i])->loc, "first named here");
				break;
			}
		vec_push(&$$, $3);
	}
;

param:
	IDENT opt_type {
		$$ = ast_alloc(sizeof(*$$));
		$$->name = $1.text;
		$$->type = $2;
		$$->loc = @1;
	}
;

/* block = "{" statement* "}" */
block:
	'{' statements '}' { $$ = ast_new(NODE_BLOCK, @1, "{"); $$->u.block.stmts = $2; }
;

statements:
	%empty               { $$ = (struct vec){ 0 }; }
|	statements statement { $$ = $1; vec_push(&$$, $2); }
;

/* A statement's ';' is optional; when present it belongs to the statement. */
semicolon:
	%empty %prec STMT_END
|	';'
;

/*
 * statement = block | ";" | expr ";"?
 *           | "if" "(" expr ")" statement ("else" statement)?
 *           | "while" "(" expr ")" statement
 *           | "for" "(" expr? ";" expr? ";" expr? ")" statement
 *           | "foreach" "(" foreach-vars "in" ident sort? ("limit" expr)? ")" statement
 *           | "foreach" "(" foreach-vars "in" hist-op "(" expr-list ")" ("limit" expr)? ")" statement
 *           | ("break" | "continue" | "next") ";"?
 *           | "return" expr? ";"?  | "delete" expr ";"?  | "%{" ... "%}"
 *           | "try" block "catch" ("(" ident ")")? block
 */
statement:
	block
|	';' { $$ = ast_new(NODE_NULL_STMT, @1, ";"); }
|	expr semicolon {
		if ($1->kind == NODE_EMBEDDED) {
			$$ = $1; /* %{ ... %} alone: C statements in place */
		} else {
			$$ = ast_new(NODE_EXPR_STMT, $1->loc, $1->tok);
			$$->u.expr_stmt.expr = $1;
		}
	}
|	IF '(' expr ')' statement %prec THEN {
		$$ = ast_new(NODE_IF, @1, "if");
		$$->u.if_stmt.cond = $3;
		$$->u.if_stmt.then = $5;
	}
|	IF '(' expr ')' statement ELSE statement {
		$$ = ast_new(NODE_IF, @1, "if");
		$$->u.if_stmt.cond = $3;
		$$->u.if_stmt.then = $5;
		$$->u.if_stmt.otherwise = $7;
	}
|	WHILE '(' expr ')' statement {
		$$ = ast_new(NODE_WHILE, @1, "while");
		$$->u.while_stmt.cond = $3;
		$$->u.while_stmt.body = $5;
	}
|	FOR '(' opt_expr ';' opt_expr ';' opt_expr ')' statement {
		$$ = ast_new(NODE_FOR, @1, "for");
		$$->u.for_stmt.init = $3;
		$$->u.for_stmt.cond = $5;
		$$->u.for_stmt.step = $7;
		$$->u.for_stmt.body = $9;
	}
|	FOREACH '(' foreach_vars IN IDENT opt_sort opt_limit ')' statement {
		$$ = new_foreach(@1, $3, @5, $5.text, 0, @6, $6, $7, $9);
	}
|	FOREACH '(' foreach_vars IN IDENT '[' key_list ']' opt_sort opt_limit ')' statement {
		/* foreach ([a, b] in arr[*, 1]): only the elements whose keys match the slice */
		$$ = new_foreach(@1, $3, @5, $5.text, 0, @9, $9, $10, $12);
		$$->u.foreach.slice = $7;
	}
|	FOREACH '(' foreach_vars IN IDENT '[' key_list ']' STAT_OP sort_sign opt_limit ')' statement {
		int op = ast_stat_op_parse($9.text);
		if (op < STAT_COUNT || op > STAT_VARIANCE) {
			diag_error(@9, "a foreach can sort by @count, @sum, @min, @max, @avg or @variance, not %s",
				   $9.text);
			op = STAT_COUNT;
		}
		$$ = new_foreach(@1, $3, @5, $5.text, op + 1, @9, $10, $11, $13);
		$$->u.foreach.slice = $7;
	}
|	FOREACH '(' foreach_vars IN IDENT STAT_OP sort_sign opt_limit ')' statement {
		/* foreach (k in stats_array @sum-): sorted by an aggregate of each element */
		int op = ast_stat_op_parse($6.text);
		if (op < STAT_COUNT || op > STAT_VARIANCE) {
			diag_error(@6, "a foreach can sort by @count, @sum, @min, @max, @avg or @variance, not %s",
				   $6.text);
			op = STAT_COUNT;
		}
		$$ = new_foreach(@1, $3, @5, $5.text, op + 1, @6, $7, $8, $10);
	}
|	FOREACH '(' foreach_vars IN STAT_OP '(' expr_list ')' opt_limit ')' statement {
		/* foreach ([v =] bucket in @hist_log(x)): every bucket index of a histogram, in order */
		$$ = new_foreach_hist(@1, $3, new_stat_op(@5, $5.text, $7, NULL), $9, $11);
	}
|	BREAK semicolon    { $$ = ast_new(NODE_BREAK, @1, "break"); }
|	CONTINUE semicolon { $$ = ast_new(NODE_CONTINUE, @1, "continue"); }
|	NEXT semicolon     { $$ = ast_new(NODE_NEXT, @1, "next"); }
|	RETURN semicolon   { $$ = ast_new(NODE_RETURN, @1, "return"); }
|	RETURN expr semicolon {
		$$ = ast_new(NODE_RETURN, @1, "return");
		$$->u.ret.value = $2;
	}
|	DELETE expr semicolon {
		$$ = ast_new(NODE_DELETE, @1, "delete");
		$$->u.del.target = $2;
		if (!is_lvalue($2))
			diag_error($2->loc, "'delete' needs a variable, an array or an array element");
	}
|	TRY block CATCH block {
		$$ = ast_new(NODE_TRY, @1, "try");
		$$->u.try_stmt.body = $2;
		$$->u.try_stmt.handler = $4;
	}
|	TRY block CATCH '(' IDENT ')' block {
		$$ = ast_new(NODE_TRY, @1, "try");
		$$->u.try_stmt.body = $2;
		$$->u.try_stmt.var = new_var(@5, $5.text);
		$$->u.try_stmt.handler = $7;
	}
|	error {
		/* Reported already: resynchronise at the end of the broken statement. */
		bool progress = false;
		yychar = skip_to_statement(ps, scanner, yychar, &yylval, &yylloc, &progress);
		if (progress)
			yyerrok;
		$$ = ast_new(NODE_NULL_STMT, @1, ";");
	}
;

/*
 * foreach-vars = foreach-key | "[" foreach-key ("," foreach-key)* "]"
 *              | ident "=" (foreach-key | "[" foreach-key ("," foreach-key)* "]")
 * foreach-key  = ident sort?        sort = "+" | "-"
 */
foreach_vars:
	foreach_key {
		$$ = ast_alloc(sizeof(*$$));
		add_foreach_key($$, $1);
	}
|	'[' foreach_keys ']' { $$ = $2; }
|	IDENT '=' foreach_key {
		$$ = ast_alloc(sizeof(*$$));
		$$->value = new_var(@1, $1.text);
		add_foreach_key($$, $3);
	}
|	IDENT '=' '[' foreach_keys ']' {
		$$ = $4;
		$$->value = new_var(@1, $1.text);
	}
;

foreach_keys:
	foreach_key {
		$$ = ast_alloc(sizeof(*$$));
		add_foreach_key($$, $1);
	}
|	foreach_keys ',' foreach_key {
		$$ = $1;
		add_foreach_key($$, $3);
	}
;

foreach_key:
	IDENT opt_sort { $$.var = new_var(@1, $1.text); $$.sort = $2; }
;

opt_sort:
	%empty { $$ = 0; }
|	sort_sign
;

sort_sign:
	'+'    { $$ = 1; }
|	'-'    { $$ = -1; }
;

opt_limit:
	%empty     { $$ = NULL; }
|	LIMIT expr { $$ = $2; }
;

opt_expr:
	%empty { $$ = NULL; }
|	expr
;

expr:
	assign_expr
;

/* assign-expr = ternary-expr (assign-op assign-expr | "<<<" assign-expr)? */
assign_expr:
	ternary_expr
|	ternary_expr STATS_ADD assign_expr {
		$$ = ast_new(NODE_STAT_ADD, @2, "<<<");
		$$->u.stat_add.target = $1;
		$$->u.stat_add.value = $3;
		if (!is_lvalue($1))
			diag_error(@2, "left operand of '<<<' must be a variable or an array element");
	}
|	ternary_expr assign_op assign_expr { $$ = new_assign(ps, @2, $2, $1, $3); }
;

assign_op:
	'='           { $$ = OP_NONE; }
|	ADD_ASSIGN    { $$ = OP_ADD; }
|	SUB_ASSIGN    { $$ = OP_SUB; }
|	MUL_ASSIGN    { $$ = OP_MUL; }
|	DIV_ASSIGN    { $$ = OP_DIV; }
|	MOD_ASSIGN    { $$ = OP_MOD; }
|	SHL_ASSIGN    { $$ = OP_SHL; }
|	SHR_ASSIGN    { $$ = OP_SHR; }
|	AND_ASSIGN    { $$ = OP_BITAND; }
|	OR_ASSIGN     { $$ = OP_BITOR; }
|	XOR_ASSIGN    { $$ = OP_BITXOR; }
|	CONCAT_ASSIGN { $$ = OP_CONCAT; }
;

/* ternary-expr = lor-expr ("?" expr ":" ternary-expr)? */
ternary_expr:
	lor_expr
|	lor_expr '?' expr ':' ternary_expr {
		$$ = ast_new(NODE_TERNARY, @2, "?");
		$$->u.ternary.cond = $1;
		$$->u.ternary.then = $3;
		$$->u.ternary.otherwise = $5;
	}
;

/* lor-expr = land-expr ("||" land-expr)* */
lor_expr:
	land_expr
|	lor_expr OR land_expr { $$ = new_binary(@2, "||", OP_OR, $1, $3); }
;

/* land-expr = bitor-expr ("&&" bitor-expr)* */
land_expr:
	bitor_expr
|	land_expr AND bitor_expr { $$ = new_binary(@2, "&&", OP_AND, $1, $3); }
;

/* bitor-expr = bitxor-expr ("|" bitxor-expr)* */
bitor_expr:
	bitxor_expr
|	bitor_expr '|' bitxor_expr { $$ = new_binary(@2, "|", OP_BITOR, $1, $3); }
;

/* bitxor-expr = bitand-expr ("^" bitand-expr)* */
bitxor_expr:
	bitand_expr %prec STMT_END
|	bitxor_expr '^' bitand_expr %prec STMT_END { $$ = new_binary(@2, "^", OP_BITXOR, $1, $3); }
;

/* bitand-expr = in-expr ("&" in-expr)* */
bitand_expr:
	in_expr
|	bitand_expr '&' in_expr { $$ = new_binary(@2, "&", OP_BITAND, $1, $3); }
;

/*
 * in-expr = compare-expr ("in" ident)? | "[" key-list "]" "in" ident
 *         | (compare-expr | "[" expr "]") "in" hist-op "(" expr-list ")"
 */
in_expr:
	compare_expr
|	compare_expr IN IDENT {
		$$ = ast_new(NODE_IN, @2, "in");
		vec_push(&$$->u.in.keys, $1);
		$$->u.in.array = new_var(@3, $3.text);
	}
|	'[' key_list ']' IN IDENT {
		$$ = ast_new(NODE_IN, @4, "in");
		$$->u.in.keys = $2;
		$$->u.in.array = new_var(@5, $5.text);
	}
|	compare_expr IN STAT_OP '(' expr_list ')' {
		$$ = new_hist_in(@2, $1, new_stat_op(@3, $3.text, $5, NULL));
	}
|	'[' key_list ']' IN STAT_OP '(' expr_list ')' {
		if ($2.n != 1)
			diag_error(@1, "a histogram bucket is named by one index");
		$$ = new_hist_in(@4, $2.items[0], new_stat_op(@5, $5.text, $7, NULL));
	}
;

/*
 * compare-expr = shift-expr (("==" | "!=" | "<" | "<=" | ">" | ">=") shift-expr
 *                           | ("=~" | "!~") string)*
 */
compare_expr:
	shift_expr
|	compare_expr REGEX_MATCH shift_expr {
		$$ = ast_new(NODE_REGEX, @2, "=~");
		$$->u.regex.subject = $1;
		$$->u.regex.pattern = $3;
		if ($3->kind != NODE_STR)
			diag_error($3->loc, "the right operand of '=~' must be a string literal (the regular expression)");
	}
|	compare_expr REGEX_NOMATCH shift_expr {
		$$ = ast_new(NODE_REGEX, @2, "!~");
		$$->u.regex.subject = $1;
		$$->u.regex.pattern = $3;
		$$->u.regex.negate = true;
		if ($3->kind != NODE_STR)
			diag_error($3->loc, "the right operand of '!~' must be a string literal (the regular expression)");
	}
|	compare_expr compare_op shift_expr {
		static const struct { const char *tok; enum ast_op op; } ops[] = {
			{ "==", OP_EQ }, { "!=", OP_NE }, { "<", OP_LT },
			{ "<=", OP_LE }, { ">", OP_GT }, { ">=", OP_GE },
		};
		enum ast_op op = OP_EQ;
		for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
			if (strcmp(ops[i].tok, $2.text) == 0)
				op = ops[i].op;
		$$ = new_binary(@2, ast_op_spelling(op), op, $1, $3);
	}
;

compare_op: EQ | NE | '<' | LE | '>' | GE ;

/* shift-expr = concat-expr (("<<" | ">>") concat-expr)* */
shift_expr:
	concat_expr
|	shift_expr SHL concat_expr { $$ = new_binary(@2, "<<", OP_SHL, $1, $3); }
|	shift_expr SHR concat_expr { $$ = new_binary(@2, ">>", OP_SHR, $1, $3); }
;

/* concat-expr = add-expr ("." add-expr)* */
concat_expr:
	add_expr %prec STMT_END
|	concat_expr '.' add_expr %prec STMT_END {
		$$ = new_binary(@2, ".", OP_CONCAT, $1, $3);
	}
;

/* add-expr = mul-expr (("+" | "-") mul-expr)* */
add_expr:
	mul_expr
|	add_expr '+' mul_expr { $$ = new_binary(@2, "+", OP_ADD, $1, $3); }
|	add_expr '-' mul_expr { $$ = new_binary(@2, "-", OP_SUB, $1, $3); }
;

/* mul-expr = unary-expr (("*" | "/" | "%") unary-expr)* */
mul_expr:
	unary_expr
|	mul_expr '*' unary_expr { $$ = new_binary(@2, "*", OP_MUL, $1, $3); }
|	mul_expr '/' unary_expr { $$ = new_binary(@2, "/", OP_DIV, $1, $3); }
|	mul_expr '%' unary_expr { $$ = new_binary(@2, "%", OP_MOD, $1, $3); }
;

/* unary-expr = ("-" | "+" | "!" | "~") unary-expr | "&" target | "&" "(" target ")" | crement-expr */
unary_expr:
	crement_expr
|	'-' unary_expr { $$ = new_unary(@1, "-", OP_NEG, $2); }
|	'+' unary_expr { $$ = new_unary(@1, "+", OP_PLUS, $2); }
|	'!' unary_expr { $$ = new_unary(@1, "!", OP_NOT, $2); }
|	'~' unary_expr { $$ = new_unary(@1, "~", OP_BITNOT, $2); }
|	'&' target %prec STMT_END { $$ = targetvar_address_of(@1, $2); }
|	'&' '(' expr ')' %prec STMT_END {
		/* &($p->member): parentheses after '&' (SystemTap 4.0); (expr)->member after '&' is a target */
		$$ = targetvar_address_of(@1, $3);
	}
;

/* crement-expr = ("++" | "--") primary | primary ("++" | "--")? */
crement_expr:
	primary %prec STMT_END
|	INC primary { $$ = new_incdec(@1, "++", OP_INC, true, $2); }
|	DEC primary { $$ = new_incdec(@1, "--", OP_DEC, true, $2); }
|	primary INC { $$ = new_incdec(@2, "++", OP_INC, false, $1); }
|	primary DEC { $$ = new_incdec(@2, "--", OP_DEC, false, $1); }
;

/*
 * primary = number | string | ident | ident "(" (expr ("," expr)*)? ")"
 *         | ident "[" key-list "]" | "(" expr ")" | "@defined" "(" expr ")"
 *         | stat-op "(" expr ("," expr)* ")" ("[" expr "]")?
 */
primary:
	NUMBER { $$ = new_num(@1, $1.text, $1.num); }
|	STRING { $$ = ast_new(NODE_STR, @1, $1.text); $$->u.str = $1.str; }
|	IDENT %prec STMT_END { $$ = new_var(@1, $1.text); }
|	IDENT '(' opt_args ')' {
		$$ = ast_new(NODE_CALL, @1, $1.text);
		$$->u.call.name = $1.text;
		$$->u.call.args = $3;
	}
|	IDENT '[' key_list ']' {
		$$ = ast_new(NODE_INDEX, @1, $1.text);
		$$->u.index.array = new_var(@1, $1.text);
		$$->u.index.keys = $3;
		if ($3.n > 9)
			diag_error(@2, "too many array indexes (at most 9)");
	}
|	'(' expr ')' { $$ = $2; }
|	EMBEDDED_CODE %prec STMT_END {
		/* an embedded-C expression (guru mode): its value is an int64_t, or a string when it says so */
		$$ = ast_new(NODE_EMBEDDED, @1, "%{");
		$$->u.embedded.code = $1.text;
	}
|	STAT_OP '(' expr_list ')' %prec STMT_END { $$ = new_stat_op(@1, $1.text, $3, NULL); }
|	STAT_OP '(' expr_list ')' '[' expr ']'   { $$ = new_stat_op(@1, $1.text, $3, $6); }
|	AT_DEFINED '(' expr ')' {
		$$ = ast_new(NODE_DEFINED, @1, $1.text);
		$$->u.at_op.operand = $3;
	}
|	target %prec STMT_END
;

/*
 * target = "$name" | "$$parms" | "$$locals" | "$$vars" | "$$return"
 *        | "@" name "(" args ")"              (@cast, @var, @entry)
 *        | target "->" member | target "[" expr "]" | target ("$" | "$$")
 *        | (ident | ident "(" args ")" | ident "[" keys "]" | "(" expr ")") "->" member
 * The last line is autocast: pass 2 finds what the expression points to.
 */
target:
	TARGET_VAR                   { $$ = targetvar_new(@1, $1.text); }
|	AT_NAME '(' opt_args ')'     {
		/* raw kernel reads and registers are guru-only, as in SystemTap (pass 1) */
		bool raw = !strcmp($1.text, "@kderef") || !strcmp($1.text, "@kregister");
		if (raw && !ps->is_tapset && ps->session && !ps->session->guru)
			diag_error(@1, "%s reads the kernel's raw memory or registers: it needs guru mode (-g)", $1.text);
		$$ = targetvar_at_operator(@1, $1.text, &$3);
	}
|	target ARROW member_name     { $$ = targetvar_add_field($1, @2, $3.text); }
|	IDENT ARROW member_name      { $$ = targetvar_add_field(new_var(@1, $1.text), @2, $3.text); }
|	IDENT '(' opt_args ')' ARROW member_name {
		struct node *call = ast_new(NODE_CALL, @1, $1.text);
		call->u.call.name = $1.text;
		call->u.call.args = $3;
		$$ = targetvar_add_field(call, @5, $6.text);
	}
|	IDENT '[' key_list ']' ARROW member_name {
		struct node *index = ast_new(NODE_INDEX, @1, $1.text);
		index->u.index.array = new_var(@1, $1.text);
		index->u.index.keys = $3;
		$$ = targetvar_add_field(index, @5, $6.text);
	}
|	'(' expr ')' ARROW member_name { $$ = targetvar_add_field($2, @4, $5.text); }
|	target '[' expr ']'          { $$ = targetvar_add_index($1, @2, $3); }
|	target PRETTY_SUFFIX         { $$ = targetvar_set_pretty($1, @2, $2.text); }
;

/* Struct members may be spelled like keywords (list_head->next). */
member_name:
	IDENT | NEXT | DELETE | LIMIT | PRIVATE | GLOBAL | PROBE | FUNCTION | IN
;

/*
 * key-list = key ("," key)*    key = expr | "*"
 * A '*' key matches any value; pass 2 allows it only in 'delete' and 'in'.
 */
key_list:
	key              { $$ = (struct vec){ 0 }; vec_push(&$$, $1); }
|	key_list ',' key { $$ = $1; vec_push(&$$, $3); }
;

key:
	expr
|	'*' { $$ = ast_new(NODE_WILDCARD, @1, "*"); }
;

opt_args:
	%empty { $$ = (struct vec){ 0 }; }
|	expr_list
;

expr_list:
	expr               { $$ = (struct vec){ 0 }; vec_push(&$$, $1); }
|	expr_list ',' expr { $$ = $1; vec_push(&$$, $3); }
;

%%

/*
 * Under --compatible=3.3 or older: SystemTap before 4.0 let the third
 * operand of '?:' take an assignment, c ? a : b = v meaning c ? a : (b = v)
 * (NEWS 4.0).
 */
static bool ternary_takes_assignment(const struct parse_state *ps)
{
	int major = 0, minor = 0;
	const char *v = ps->session ? ps->session->compatible : NULL;
	return v && sscanf(v, "%d.%d", &major, &minor) >= 1 && (major < 3 || (major == 3 && minor <= 3));
}

/* lhs op= rhs; the parse of c ? a : b = v, (c ? a : b) = v, turned into c ? a : (b = v) where that is the old meaning. */
static struct node *new_assign(struct parse_state *ps, struct srcloc loc, enum ast_op op, struct node *lhs,
			       struct node *rhs)
{
	if (lhs->kind == NODE_TERNARY && ternary_takes_assignment(ps)) {
		struct node *last = lhs;
		while (last->u.ternary.otherwise->kind == NODE_TERNARY)
			last = last->u.ternary.otherwise;
		last->u.ternary.otherwise = new_assign(ps, loc, op, last->u.ternary.otherwise, rhs);
		return lhs;
	}
	struct node *n = ast_new(NODE_ASSIGN, loc, ast_join(ast_op_spelling(op), "", "="));
	n->u.assign.op = op;
	n->u.assign.lhs = lhs;
	n->u.assign.rhs = rhs;
	if (!is_lvalue(lhs))
		diag_error(loc, "left operand of '%s' must be a variable or an array element", n->tok);
	return n;
}

static struct node *new_num(struct srcloc loc, const char *tok, int64_t value)
{
	struct node *n = ast_new(NODE_NUM, loc, tok);
	n->u.num = value;
	return n;
}

static struct node *new_var(struct srcloc loc, const char *name)
{
	struct node *n = ast_new(NODE_VAR, loc, name);
	n->u.var.name = name;
	return n;
}

static struct node *new_binary(struct srcloc loc, const char *tok, enum ast_op op,
			       struct node *lhs, struct node *rhs)
{
	struct node *n = ast_new(NODE_BINARY, loc, tok);
	n->u.binary.op = op;
	n->u.binary.lhs = lhs;
	n->u.binary.rhs = rhs;
	return n;
}

static struct node *new_unary(struct srcloc loc, const char *tok, enum ast_op op,
			      struct node *operand)
{
	struct node *n = ast_new(NODE_UNARY, loc, tok);
	n->u.unary.op = op;
	n->u.unary.operand = operand;
	return n;
}

static struct node *new_incdec(struct srcloc loc, const char *tok, enum ast_op op,
			       bool prefix, struct node *operand)
{
	struct node *n = ast_new(NODE_INCDEC, loc, tok);
	n->u.incdec.op = op;
	n->u.incdec.prefix = prefix;
	n->u.incdec.operand = operand;
	if (!is_lvalue(operand))
		diag_error(loc, "operand of '%s' must be a variable or an array element", tok);
	return n;
}

/* foreach (value = [keys] in array sort limit) body, with at most one sort directive. */
static struct node *new_foreach(struct srcloc loc, struct parse_foreach *fe, struct srcloc array_loc,
				const char *array, int sort_stat, struct srcloc sort_loc, int sort,
				struct node *limit, struct node *body)
{
	struct node *n = ast_new(NODE_FOREACH, loc, "foreach");
	n->u.foreach.value = fe->value;
	n->u.foreach.keys = fe->keys;
	n->u.foreach.array = new_var(array_loc, array);
	n->u.foreach.sort_column = fe->sort_column;
	n->u.foreach.sort_dir = fe->sort_dir;
	if (sort) {
		if (fe->sort_dir)
			diag_error(sort_loc, "multiple sort directives in foreach");
		n->u.foreach.sort_column = 0;
		n->u.foreach.sort_dir = sort;
		n->u.foreach.sort_stat = sort_stat;
	}
	n->u.foreach.limit = limit;
	n->u.foreach.body = body;
	return n;
}

/*
 * foreach over the buckets of a histogram: one key, the bucket index (the one @hist_*(x)[i]
 * takes), in increasing order; the value is the bucket's count. Written with u.foreach.array
 * holding the STAT_OP node instead of an array's name.
 */
static struct node *new_foreach_hist(struct srcloc loc, struct parse_foreach *fe, struct node *hist,
				     struct node *limit, struct node *body)
{
	struct node *n = ast_new(NODE_FOREACH, loc, "foreach");
	n->u.foreach.value = fe->value;
	n->u.foreach.keys = fe->keys;
	n->u.foreach.array = hist;
	n->u.foreach.limit = limit;
	n->u.foreach.body = body;
	if (hist->u.stat_op.op != STAT_HIST_LINEAR && hist->u.stat_op.op != STAT_HIST_LOG)
		diag_error(hist->loc, "a foreach can iterate the buckets of @hist_linear or @hist_log, not of %s",
			   hist->tok);
	else if (fe->keys.n != 1)
		diag_error(((struct node *)fe->keys.items[1])->loc,
			   "a foreach over histogram buckets binds one key, the bucket index");
	/* the buckets come in index order: an ascending sort on the index says just that */
	else if (fe->sort_dir && (fe->sort_column != 1 || fe->sort_dir != 1))
		diag_error(loc, "the buckets of a histogram are iterated in index order; they cannot be sorted");
	return n;
}

/*
 * b in @hist_log(x): true when bucket b holds values. That is its definition, so it is
 * written as @hist_log(x)[b] != 0 (an index outside the histogram is the same error).
 */
static struct node *new_hist_in(struct srcloc loc, struct node *index, struct node *hist)
{
	if (hist->u.stat_op.op != STAT_HIST_LINEAR && hist->u.stat_op.op != STAT_HIST_LOG) {
		diag_error(hist->loc, "'in' can test the buckets of @hist_linear or @hist_log, not of %s", hist->tok);
		return hist;
	}
	hist->u.stat_op.bucket = index;
	struct node *zero = ast_new(NODE_NUM, loc, "0");
	zero->u.num = 0;
	return new_binary(loc, "!=", OP_NE, hist, zero);
}

/* @count(x), @hist_linear(a[k], 0, 100, 10)[3]: the operand is a variable or an element. */
static struct node *new_stat_op(struct srcloc loc, const char *name, struct vec args, struct node *bucket)
{
	struct node *n = ast_new(NODE_STAT_OP, loc, name);
	int op = ast_stat_op_parse(name);
	n->u.stat_op.op = op < 0 ? STAT_COUNT : (enum stat_op)op;
	n->u.stat_op.operand = args.items[0];
	for (int i = 1; i < args.n; i++)
		vec_push(&n->u.stat_op.args, args.items[i]);
	n->u.stat_op.bucket = bucket;
	if (!is_lvalue(n->u.stat_op.operand))
		diag_error(n->u.stat_op.operand->loc, "the operand of %s must be a statistics variable or array element",
			   name);
	if (bucket && op != STAT_HIST_LINEAR && op != STAT_HIST_LOG)
		diag_error(bucket->loc, "only a histogram (@hist_linear, @hist_log) can be indexed by bucket");
	return n;
}

/* Only variables and array elements can be assigned, incremented or deleted
   (target variables too: pass 2 checks -g and what can be written). */
static bool is_lvalue(const struct node *n)
{
	return n->kind == NODE_VAR || n->kind == NODE_INDEX || n->kind == NODE_TARGET;
}

static enum stp_type parse_type_name(struct srcloc loc, const char *name)
{
	if (strcmp(name, "long") == 0)
		return TYPE_LONG;
	if (strcmp(name, "string") == 0)
		return TYPE_STRING;
	diag_error(loc, "unknown type '%s' (expected 'long' or 'string')", name);
	return TYPE_UNKNOWN;
}

/* Brace expansion yields at most this many points from one probe point. */
#define PP_MAX_EXPANSION 10000

/* Every prefix followed by every suffix, in product order (a.{b,c} -> a.b, a.c). */
static struct vec pp_product(struct vec prefixes, struct vec suffixes, struct srcloc loc)
{
	struct vec out = { 0 };
	if ((long)prefixes.n * suffixes.n > PP_MAX_EXPANSION) {
		diag_error(loc, "probe point braces expand to more than %d points", PP_MAX_EXPANSION);
		return prefixes;
	}
	for (int i = 0; i < prefixes.n; i++) {
		for (int j = 0; j < suffixes.n; j++) {
			const struct vec *a = prefixes.items[i], *b = suffixes.items[j];
			struct vec *seq = ast_alloc(sizeof(*seq));
			for (int k = 0; k < a->n; k++)
				vec_push(seq, a->items[k]);
			for (int k = 0; k < b->n; k++)
				vec_push(seq, b->items[k]);
			vec_push(&out, seq);
		}
	}
	return out;
}

/* A global joins the file; a second declaration of its name in the same file is an error, as in SystemTap's parser. */
static void add_global(struct parse_state *ps, struct global *g)
{
	for (int i = 0; i < ps->file->globals.n; i++) {
		struct global *other = ps->file->globals.items[i];
		if (!strcmp(other->name, g->name)) {
			diag_error(g->loc, "global '%s' is declared twice", g->name);
			diag_note(other->loc, "first declared here");
			return;
		}
	}
	vec_push(&ps->file->globals, g);
}

/* kernel.{trace("x")!, ...}: the mark (1 '?', 2 '!') goes on each alternative's last component. */
static void pp_mark_alternatives(struct vec *seqs, int mark)
{
	for (int i = 0; mark && i < seqs->n; i++) {
		struct vec *seq = seqs->items[i];
		struct probe_component *last = seq->items[seq->n - 1];
		if (mark > last->mark)
			last->mark = mark;
	}
}

/*
 * One probe point per alternative, each with the mark (1 '?', 2 '!') and
 * condition; a mark written inside braces adds to the one after the point.
 */
static struct vec pp_finish(struct vec seqs, int mark, struct node *cond)
{
	struct vec out = { 0 };
	for (int i = 0; i < seqs.n; i++) {
		struct vec *seq = seqs.items[i];
		struct probe_point *pp = ast_alloc(sizeof(*pp));
		int m = mark;
		for (int k = 0; k < seq->n; k++)
			if (((struct probe_component *)seq->items[k])->mark > m)
				m = ((struct probe_component *)seq->items[k])->mark;
		pp->components = *seq;
		pp->loc = ((struct probe_component *)seq->items[0])->loc;
		pp->optional = m != 0;
		pp->sufficient = m == 2;
		pp->cond = cond;
		vec_push(&out, pp);
	}
	return out;
}

/* A probe or alias declaration joins the file. */
static struct probe *new_probe(struct parse_state *ps, struct srcloc loc, enum probe_kind kind,
			       struct vec names, struct vec points, struct node *body)
{
	struct probe *p = ast_alloc(sizeof(*p));
	p->kind = kind;
	p->names = names;
	p->points = points;
	p->body = body;
	p->loc = loc;
	p->from_tapset = ps->is_tapset;
	p->file = ps->file;
	/* Once per declaration: brace expansion repeats the same mistake in every name. */
	bool marked = false, wild = false;
	for (int i = 0; i < names.n; i++) {
		struct probe_point *name = names.items[i];
		if ((name->optional || name->cond) && !marked) {
			diag_error(name->loc, "an alias name cannot be %s",
				   name->cond ? "conditional" : "optional");
			marked = true;
		}
		for (int j = 0; j < name->components.n; j++) {
			struct probe_component *c = name->components.items[j];
			if (strchr(c->name, '*') && !wild) {
				diag_error(c->loc, "an alias name cannot contain wildcards");
				wild = true;
			}
		}
	}
	vec_push(&ps->file->probes, p);
	return p;
}

/* What check_body reports against. */
struct body_check {
	bool in_function; /* a function's body, where 'return' belongs */
};

static bool is_delimited_print(const char *name)
{
	return !strcmp(name, "printd") || !strcmp(name, "printdln") || !strcmp(name, "sprintd") ||
	       !strcmp(name, "sprintdln");
}

static bool check_node(struct ast_walker *w, struct node *n)
{
	const struct body_check *bc = w->data;
	if (n->kind == NODE_RETURN && !bc->in_function)
		diag_error(n->loc, "'return' outside a function: use 'next' to leave a probe");
	/* the print family's delimiter is part of the call's shape, as a format is (SystemTap: pass 1) */
	if (n->kind == NODE_CALL && n->u.call.args.n && is_delimited_print(n->u.call.name)) {
		struct node *delim = n->u.call.args.items[0];
		if (delim->kind != NODE_STR)
			diag_error(delim->loc, "the delimiter of %s must be a string literal", n->u.call.name);
	}
	return true;
}

static void check_body(struct node *body, bool in_function)
{
	struct body_check bc = { .in_function = in_function };
	struct ast_walker w = { .pre = check_node, .data = &bc };
	ast_walk(&w, body);
}

/* The rules a statement obeys by where it is written (pass 1), once the nesting is bounded. */
void parse_check_statements(struct ast_file *f)
{
	for (int i = 0; i < f->functions.n; i++)
		check_body(((struct function *)f->functions.items[i])->body, true);
	for (int i = 0; i < f->probes.n; i++) {
		struct probe *p = f->probes.items[i];
		check_body(p->body, false);
		check_body(p->epilogue, false);
	}
}

static struct global *new_global(struct parse_state *ps, struct srcloc loc, const char *name)
{
	struct global *g = ast_alloc(sizeof(*g));
	g->name = name;
	g->loc = loc;
	g->from_tapset = ps->is_tapset;
	g->file = ps->file;
	return g;
}

/* Does the embedded code hold the comment "/" "* word *" "/" (spaces around word optional)? */
static bool has_pragma(const char *code, const char *word)
{
	size_t len = strlen(word);
	for (const char *p = strstr(code, "/*"); p; p = strstr(p + 2, "/*")) {
		const char *q = p + 2;
		q += strspn(q, " \t");
		if (strncmp(q, word, len) != 0)
			continue;
		q += len;
		q += strspn(q, " \t");
		if (q[0] == '*' && q[1] == '/')
			return true;
	}
	return false;
}

/* The word after prefix in a pragma comment of code (prefixWORD), or NULL. */
static const char *pragma_value(const char *code, const char *prefix)
{
	size_t len = strlen(prefix);
	for (const char *p = strstr(code, "/*"); p; p = strstr(p + 2, "/*")) {
		const char *q = p + 2;
		q += strspn(q, " \t");
		if (strncmp(q, prefix, len) != 0)
			continue;
		q += len;
		size_t n = strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (n)
			return ast_strndup(q, n);
	}
	return NULL;
}

/* Whether C code mentions identifier id as a whole token. */
static bool mentions(const char *code, const char *id)
{
	size_t n = strlen(id);
	for (const char *p = code; (p = strstr(p, id)); p += n) {
		bool before = p > code && (p[-1] == '_' || (p[-1] >= '0' && p[-1] <= '9') ||
					   ((p[-1] | 32) >= 'a' && (p[-1] | 32) <= 'z'));
		char a = p[n];
		bool after = a == '_' || (a >= '0' && a <= '9') || ((a | 32) >= 'a' && (a | 32) <= 'z');
		if (!before && !after)
			return true;
	}
	return false;
}

/*
 * Embedded-C functions: the pragma comments that describe them, and whether
 * the code can leave an error in the context (only through STAP_ERROR, the
 * STAP_KREAD that wraps it, or the context itself: CONTEXT, c, last_error), so
 * a call checks for one.
 */
static void set_pragmas(struct function *f, const char *code)
{
	f->can_fail = mentions(code, "STAP_ERROR") || mentions(code, "STAP_KREAD") || mentions(code, "CONTEXT") ||
		      mentions(code, "c") || mentions(code, "last_error");
	f->pure = has_pragma(code, "pure");
	f->stable = has_pragma(code, "stable");
	f->unprivileged = has_pragma(code, "unprivileged");
	f->myproc_unprivileged = has_pragma(code, "myproc-unprivileged");
	f->guru_only = has_pragma(code, "guru");
	f->prints = has_pragma(code, "pragma:print");
	f->reads_regs = has_pragma(code, "pragma:regs");
	f->autocast = pragma_value(code, "pragma:autocast:");
}

/* Append a foreach key; at most one sort marker per foreach. */
static void add_foreach_key(struct parse_foreach *fe, struct parse_key key)
{
	vec_push(&fe->keys, key.var);
	if (!key.sort)
		return;
	if (fe->sort_dir) {
		diag_error(key.var->loc, "multiple sort directives in foreach");
		return;
	}
	fe->sort_dir = key.sort;
	fe->sort_column = fe->keys.n;
}

/* How many brackets are open up to and including the innermost '{'. */
static int block_level(const struct parse_state *ps)
{
	for (int i = ps->nopen < PARSE_MAX_NESTING ? ps->nopen : PARSE_MAX_NESTING; i > 0; i--)
		if (ps->open[i - 1] == '{')
			return i;
	return 0;
}

/* Read a token and keep the stack of open brackets up to date. */
static int parse_lex(YYSTYPE *val, struct srcloc *loc, yyscan_t scanner, struct parse_state *ps)
{
	int token = (yylex)(val, loc, scanner);
	ps->block_before = block_level(ps);
	switch (token) {
	case '{':
	case IF: case WHILE: case FOR: case FOREACH: case RETURN:
	case DELETE: case NEXT: case BREAK: case CONTINUE:
		/* never inside ( ) or [ ]: brackets still open there were left unclosed */
		while (ps->nopen > 0 && ps->nopen <= PARSE_MAX_NESTING && ps->open[ps->nopen - 1] != '{')
			ps->nopen--;
		if (token != '{')
			break;
		/* fall through */
	case '(':
	case '[':
		if (ps->nopen < PARSE_MAX_NESTING)
			ps->open[ps->nopen] = (char)token;
		ps->nopen++;
		break;
	case ')':
	case ']':
		/* a stray closer (nothing of its kind open above the innermost '{') is ignored */
		if (ps->nopen > 0 && (ps->nopen > PARSE_MAX_NESTING ||
				      ps->open[ps->nopen - 1] == (token == ')' ? '(' : '[')))
			ps->nopen--;
		break;
	case '}':
		/* closes the innermost '{' and whatever was left open inside it */
		while (ps->nopen > 0) {
			ps->nopen--;
			if (ps->nopen >= PARSE_MAX_NESTING || ps->open[ps->nopen] == '{')
				break;
		}
		break;
	}
	return token;
}

/*
 * Panic-mode recovery for a broken statement. The statement started inside
 * the innermost '{' open before the offending token; drop tokens until,
 * back at that block's level, one of these comes:
 *   ';'                      ends the broken statement: dropped, stop;
 *   '}' of a nested block    ends it too: dropped, stop;
 *   a statement keyword      starts the next statement: kept;
 *   '}' of the block itself  kept, it closes the block;
 *   end of file              kept.
 * Returns the new lookahead token (YYEMPTY if none); *progress is false when
 * the offending token itself was kept, so bison still treats a second error
 * on it as part of the first (and drops it) instead of looping.
 */
static int skip_to_statement(struct parse_state *ps, yyscan_t scanner, int token, YYSTYPE *val,
			     struct srcloc *loc, bool *progress)
{
	/* brackets open at the block's level: its '{' is the innermost */
	int level = token == YYEMPTY ? block_level(ps) : ps->block_before;
	*progress = false;
	for (;;) {
		if (token == YYEMPTY) {
			token = parse_lex(val, loc, scanner, ps);
			*progress = true;
		}
		if (token <= YYEOF)
			return token;
		if (token == '}' && ps->nopen < level)
			return token;
		if (ps->nopen == level) {
			switch (token) {
			case ';':
			case '}':
				*progress = true;
				return YYEMPTY;
			case IF: case WHILE: case FOR: case FOREACH: case RETURN:
			case DELETE: case NEXT: case BREAK: case CONTINUE:
				return token;
			}
		}
		token = YYEMPTY;
	}
}

static void yyerror(struct srcloc *loc, yyscan_t scanner, struct parse_state *ps, const char *msg)
{
	(void)scanner;
	(void)ps;
	if (strcmp(msg, "memory exhausted") == 0)
		msg = "nesting too deep (parser stack exhausted)";
	diag_error(*loc, "%s", msg);
}

/*
 * "syntax error, unexpected identifier 'x', expecting ';' or '}'".
 * Tokens with a spelling of their own (identifiers, numbers, strings) are
 * quoted so the message names exactly what was found.
 */
static int yyreport_syntax_error(const yypcontext_t *ctx, yyscan_t scanner, struct parse_state *ps)
{
	(void)scanner;
	enum { MAX_EXPECTED = 6 };
	yysymbol_kind_t expected[MAX_EXPECTED];
	int n = yypcontext_expected_tokens(ctx, expected, MAX_EXPECTED);
	yysymbol_kind_t found = yypcontext_token(ctx);

	/* An unterminated comment, %{ or string already explains this one. */
	if (found == YYSYMBOL_YYEOF && ps->eof_reported)
		return 0;
	if (ps->unterminated_string) {
		ps->unterminated_string = false;
		return 0;
	}

	const char *what;
	switch (found) {
	case YYSYMBOL_IDENT:
	case YYSYMBOL_NUMBER:
	case YYSYMBOL_PP_NAME:
	case YYSYMBOL_TARGET_VAR:
	case YYSYMBOL_PRETTY_SUFFIX:
		what = ast_printf("%s '%s'", yysymbol_name(found), ps->last_text);
		break;
	case YYSYMBOL_AT_NAME:
		/* Macros are expanded before the parser: this one was never defined. */
		what = ast_printf("%s '%s' (no macro of that name is defined)", yysymbol_name(found),
				  ps->last_text);
		break;
	case YYSYMBOL_STRING:
		what = ast_printf("string %s", ps->last_text);
		break;
	default:
		what = yysymbol_name(found);
		break;
	}

	char *msg = ast_printf("syntax error, unexpected %s", what);
	for (int i = 0; i < n; i++)
		msg = ast_printf("%s%s%s", msg, i == 0 ? ", expecting " : i == n - 1 ? " or " : ", ",
				 yysymbol_name(expected[i]));
	diag_error(*yypcontext_location(ctx), "%s", msg);
	return 0;
}
