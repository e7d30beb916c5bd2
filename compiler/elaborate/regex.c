/*
 * regex.c - POSIX extended regular expressions, compiled at translate time
 * into a C matcher specialised for one pattern. Nothing is interpreted in
 * the kernel: the module contains straight-line C for each pattern.
 *
 * Pipeline: the pattern is parsed (recursive descent, nesting bounded) into
 * a small tree, the tree into a Thompson NFA (Pike-VM instructions: CHAR,
 * SPLIT, JMP, SAVE, BOL, EOL, MATCH; {m,n} expanded into copies), and the
 * NFA into C. For each state that consumes a character, and for the start,
 * the epsilon closure is worked out here, once, in priority order, for each
 * anchor context (at the start of the subject, at its end, both, neither):
 * which consuming states it reaches and which capture slots it sets on the
 * way. The generated code is then a breadth-first simulation over at most
 * REGEX_MAX_STATES threads, each carrying its capture offsets: time
 * O(length x states), memory fixed at translate time, no recursion, no
 * backtracking.
 *
 * Semantics (see docs/language.md):
 *  - the overall match is POSIX's: the leftmost start, and from there the
 *    longest match;
 *  - among the ways of making that match, the subexpressions are those of
 *    the highest-priority path: quantifiers greedy, alternatives tried left
 *    to right (Perl/Pike order). This agrees with POSIX's subexpression
 *    rules in the usual cases; where POSIX would prefer a longer earlier
 *    subexpression through a lower-priority alternative (e.g. (a|ab)(c|bcd)
 *    on "abcd") the groups can differ, the overall match never does;
 *  - a repeated group reports its last iteration, and an iteration that
 *    matches nothing is not one: (a*)* on "b" leaves group 1 unset where
 *    glibc reports it empty at 0;
 *  - '.' and negated brackets
 *    match any byte but NUL (newline included); matching is byte-wise, case
 *    sensitive, in the C locale.
 * Supported: literals, '.', bracket expressions with ranges, [:class:],
 * [.c.] and [=c=] for single characters, '^' and '$' anywhere, groups,
 * '|', '*', '+', '?', {m}, {m,}, {m,n} (m, n <= 255; a '{' that does not
 * start a valid count is an error, as in glibc: write \{), '\' quoting the
 * next character. Rejected with a message: back-references and the GNU
 * escapes (\w \W \s \S \b \B \< \> \` \'), which are not ERE.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ast.h"
#include "regex.h"

/* ---- Parse tree ---- */

enum re_kind {
	RE_SET,     /* one byte out of a set */
	RE_EMPTY,   /* matches the empty string */
	RE_CAT,     /* a then b */
	RE_ALT,     /* a or b */
	RE_REPEAT,  /* a{min,max}, max -1 for no limit */
	RE_GROUP,   /* ( a ), capture number group */
	RE_BOL,     /* ^ */
	RE_EOL,     /* $ */
};

struct re_node {
	enum re_kind kind;
	struct re_node *a, *b; /* operands */
	int min, max;          /* RE_REPEAT */
	int group;             /* RE_GROUP: 1-based */
	uint32_t set[8];       /* RE_SET: bytes 0..255 */
};

struct re_parser {
	const char *pattern;   /* whole pattern */
	const char *p;         /* cursor */
	int depth;             /* open parentheses */
	int ngroups;           /* groups so far */
	const char *error;     /* first error */
	int error_offset;      /* where */
};

static struct re_node *re_new(enum re_kind kind)
{
	struct re_node *n = ast_alloc(sizeof(*n));
	n->kind = kind;
	return n;
}

static struct re_node *re_fail(struct re_parser *ps, const char *msg, const char *at)
{
	if (!ps->error) {
		ps->error = msg;
		ps->error_offset = (int)(at - ps->pattern);
	}
	return NULL;
}

static void set_add(uint32_t *set, unsigned c)
{
	set[c >> 5] |= 1u << (c & 31);
}

static bool set_has(const uint32_t *set, unsigned c)
{
	return (set[c >> 5] >> (c & 31)) & 1;
}

static struct re_node *re_char(unsigned c)
{
	struct re_node *n = re_new(RE_SET);
	set_add(n->set, c);
	return n;
}

static struct re_node *re_cat(struct re_node *a, struct re_node *b)
{
	if (!a)
		return b;
	struct re_node *n = re_new(RE_CAT);
	n->a = a;
	n->b = b;
	return n;
}

/* The character classes, in the order class_has numbers them. */
static const char *const re_classes[] = {
	"alpha", "digit", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl", "xdigit",
};

/* Membership of byte c in the C-locale class number k of re_classes. */
static bool class_has(int k, int c)
{
	bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
	bool print = c >= 0x20 && c < 0x7f;
	switch (k) {
	case 0: return upper || lower;
	case 1: return digit;
	case 2: return upper || lower || digit;
	case 3: return upper;
	case 4: return lower;
	case 5: return c == ' ' || (c >= '\t' && c <= '\r');
	case 6: return c == ' ' || c == '\t';
	case 7: return print && c != ' ' && !upper && !lower && !digit;
	case 8: return print;
	case 9: return print && c != ' ';
	case 10: return c < 0x20 || c == 0x7f;
	default: return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
	}
}

/* One element of a bracket expression: a byte, or -1 after adding a whole [:class:]. */
static int bracket_element(struct re_parser *ps, uint32_t *set)
{
	const char *start = ps->p;
	if (ps->p[0] == '[' && (ps->p[1] == ':' || ps->p[1] == '.' || ps->p[1] == '=')) {
		char kind = ps->p[1];
		const char *name = ps->p + 2;
		const char *end = strchr(name, kind);
		if (!end || end[1] != ']') {
			re_fail(ps, kind == ':' ? "unterminated [: :] class" : "unterminated [. .] or [= =]", start);
			return -2;
		}
		size_t len = (size_t)(end - name);
		ps->p = end + 2;
		if (kind != ':') {
			if (len != 1) {
				re_fail(ps, "only single characters are supported in [. .] and [= =]", start);
				return -2;
			}
			return (unsigned char)name[0];
		}
		for (size_t k = 0; k < sizeof(re_classes) / sizeof(re_classes[0]); k++) {
			if (strlen(re_classes[k]) == len && strncmp(re_classes[k], name, len) == 0) {
				for (int c = 1; c < 256; c++)
					if (class_has((int)k, c))
						set_add(set, (unsigned)c);
				return -1;
			}
		}
		re_fail(ps, "unknown character class", start);
		return -2;
	}
	if (!*ps->p) {
		re_fail(ps, "unterminated [ ]", start);
		return -2;
	}
	return (unsigned char)*ps->p++;
}

/* bracket = "[" "^"? "]"? element* "]"; the cursor is after '['. */
static struct re_node *parse_bracket(struct re_parser *ps)
{
	const char *open = ps->p - 1;
	struct re_node *n = re_new(RE_SET);
	bool negate = false;
	if (*ps->p == '^') {
		negate = true;
		ps->p++;
	}
	bool first = true;
	while (first || *ps->p != ']') {
		if (!*ps->p)
			return re_fail(ps, "unterminated [ ]", open);
		const char *at = ps->p;
		int lo = first && *ps->p == ']' ? (unsigned char)*ps->p++ : bracket_element(ps, n->set);
		first = false;
		if (lo == -2)
			return NULL;
		if (lo == -1)
			continue;
		if (ps->p[0] == '-' && ps->p[1] && ps->p[1] != ']') {
			ps->p++;
			int hi = bracket_element(ps, n->set);
			if (hi == -2)
				return NULL;
			if (hi == -1 || hi < lo)
				return re_fail(ps, "invalid range in [ ]", at);
			for (int c = lo; c <= hi; c++)
				set_add(n->set, (unsigned)c);
		} else {
			set_add(n->set, (unsigned)lo);
		}
	}
	ps->p++; /* ']' */
	if (negate)
		for (int i = 0; i < 8; i++)
			n->set[i] = ~n->set[i];
	n->set[0] &= ~1u; /* never NUL */
	return n;
}

static struct re_node *parse_alt(struct re_parser *ps);

/* A repetition count: digits, at most 255. */
static int parse_count(struct re_parser *ps)
{
	int v = 0;
	if (*ps->p < '0' || *ps->p > '9')
		return -1;
	while (*ps->p >= '0' && *ps->p <= '9') {
		v = v * 10 + (*ps->p++ - '0');
		if (v > 255)
			return -2;
	}
	return v;
}

static struct re_node *parse_atom(struct re_parser *ps)
{
	const char *at = ps->p;
	char c = *ps->p++;
	switch (c) {
	case '(': {
		if (++ps->depth > REGEX_MAX_DEPTH)
			return re_fail(ps, "parentheses nested too deeply", at);
		int group = ++ps->ngroups;
		if (group > REGEX_MAX_GROUPS)
			return re_fail(ps, "too many groups", at);
		struct re_node *inner = parse_alt(ps);
		if (!inner)
			return NULL;
		if (*ps->p != ')')
			return re_fail(ps, "unmatched (", at);
		ps->p++;
		ps->depth--;
		struct re_node *n = re_new(RE_GROUP);
		n->a = inner;
		n->group = group;
		return n;
	}
	case '.': {
		struct re_node *n = re_new(RE_SET);
		for (int i = 0; i < 8; i++)
			n->set[i] = ~0u;
		n->set[0] &= ~1u;
		return n;
	}
	case '^':
		return re_new(RE_BOL);
	case '$':
		return re_new(RE_EOL);
	case '[':
		return parse_bracket(ps);
	case '\\': {
		char e = *ps->p++;
		if (!e)
			return re_fail(ps, "trailing backslash", at);
		if (e >= '1' && e <= '9')
			return re_fail(ps, "back-references are not supported", at);
		if (strchr("wWsSbB<>`'", e))
			return re_fail(ps, "GNU escapes such as \\w are not supported", at);
		return re_char((unsigned char)e);
	}
	case '*':
	case '+':
	case '?':
		return re_fail(ps, "nothing to repeat", at);
	case ')':
		return re_fail(ps, "unmatched )", at);
	case '{':
		return re_fail(ps, "nothing to repeat", at);
	default:
		return re_char((unsigned char)c);
	}
}

/* piece = atom ("*" | "+" | "?" | "{" m ("," n?)? "}")* */
static struct re_node *parse_piece(struct re_parser *ps)
{
	struct re_node *atom = parse_atom(ps);
	while (atom) {
		const char *at = ps->p;
		int min, max;
		if (*ps->p == '*') {
			min = 0, max = -1;
		} else if (*ps->p == '+') {
			min = 1, max = -1;
		} else if (*ps->p == '?') {
			min = 0, max = 1;
		} else if (*ps->p == '{') {
			ps->p++;
			min = max = parse_count(ps);
			if (*ps->p == ',') {
				ps->p++;
				max = *ps->p == '}' ? -1 : parse_count(ps);
			}
			if (min == -2 || max == -2)
				return re_fail(ps, "repetition count above 255", at);
			if (*ps->p != '}' || min < 0 || (max != -1 && max < 0))
				return re_fail(ps, "invalid repetition {m,n}", at);
			if (max != -1 && max < min)
				return re_fail(ps, "invalid repetition: {m,n} with m > n", at);
		} else {
			break;
		}
		ps->p++;
		if (atom->kind == RE_BOL || atom->kind == RE_EOL)
			return re_fail(ps, "an anchor cannot be repeated", at);
		struct re_node *r = re_new(RE_REPEAT);
		r->a = atom;
		r->min = min;
		r->max = max;
		atom = r;
	}
	return atom;
}

/* branch = piece* */
static struct re_node *parse_branch(struct re_parser *ps)
{
	struct re_node *n = NULL;
	while (*ps->p && *ps->p != '|' && !(*ps->p == ')' && ps->depth > 0)) {
		struct re_node *piece = parse_piece(ps);
		if (!piece)
			return NULL;
		n = re_cat(n, piece);
	}
	return n ? n : re_new(RE_EMPTY);
}

/* alt = branch ("|" branch)* */
static struct re_node *parse_alt(struct re_parser *ps)
{
	struct re_node *n = parse_branch(ps);
	while (n && *ps->p == '|') {
		ps->p++;
		struct re_node *b = parse_branch(ps);
		if (!b)
			return NULL;
		struct re_node *alt = re_new(RE_ALT);
		alt->a = n;
		alt->b = b;
		n = alt;
	}
	return n;
}

/* ---- NFA ---- */

enum re_op { OP_CHAR, OP_MATCH, OP_SPLIT, OP_JMP, OP_SAVE, OP_BOL, OP_EOL };

struct re_inst {
	enum re_op op;
	int x, y;        /* SPLIT: preferred x, then y; JMP: x */
	int save;        /* SAVE: capture slot */
	int set;         /* CHAR: index into prog->sets */
	int state;       /* CHAR, MATCH: thread state number */
};

struct regex_prog {
	struct re_inst *insts;   /* the program, entry at 0 */
	int ninsts;
	uint32_t (*sets)[8];     /* distinct byte sets */
	int nsets;
	int nstates;             /* consuming states: CHARs, then MATCH last */
	int ngroups;
	bool anchors;            /* uses ^ or $ */
	const char *pattern;
	bool overflow;           /* exceeded REGEX_MAX_INSTS */
};

static int emit_inst(struct regex_prog *p, enum re_op op)
{
	if (p->ninsts >= REGEX_MAX_INSTS) {
		p->overflow = true;
		return p->ninsts - 1;
	}
	struct re_inst *in = &p->insts[p->ninsts];
	memset(in, 0, sizeof(*in));
	in->op = op;
	return p->ninsts++;
}

static int intern_set(struct regex_prog *p, const uint32_t *set)
{
	for (int i = 0; i < p->nsets; i++)
		if (memcmp(p->sets[i], set, sizeof(p->sets[i])) == 0)
			return i;
	memcpy(p->sets[p->nsets], set, sizeof(p->sets[0]));
	return p->nsets++;
}

static void compile_node(struct regex_prog *p, const struct re_node *n)
{
	if (p->overflow)
		return;
	switch (n->kind) {
	case RE_SET: {
		int i = emit_inst(p, OP_CHAR);
		p->insts[i].set = intern_set(p, n->set);
		break;
	}
	case RE_EMPTY:
		break;
	case RE_CAT:
		compile_node(p, n->a);
		compile_node(p, n->b);
		break;
	case RE_ALT: {
		int split = emit_inst(p, OP_SPLIT);
		p->insts[split].x = split + 1;
		compile_node(p, n->a);
		int jmp = emit_inst(p, OP_JMP);
		p->insts[split].y = p->ninsts;
		compile_node(p, n->b);
		p->insts[jmp].x = p->ninsts;
		break;
	}
	case RE_GROUP: {
		int s = emit_inst(p, OP_SAVE);
		p->insts[s].save = 2 * n->group;
		compile_node(p, n->a);
		s = emit_inst(p, OP_SAVE);
		p->insts[s].save = 2 * n->group + 1;
		break;
	}
	case RE_BOL:
		emit_inst(p, OP_BOL);
		p->anchors = true;
		break;
	case RE_EOL:
		emit_inst(p, OP_EOL);
		p->anchors = true;
		break;
	case RE_REPEAT: {
		for (int i = 0; i < n->min && !p->overflow; i++)
			compile_node(p, n->a);
		if (n->max == -1) {
			/* L: SPLIT body, out; body; JMP L */
			int split = emit_inst(p, OP_SPLIT);
			p->insts[split].x = split + 1;
			compile_node(p, n->a);
			int jmp = emit_inst(p, OP_JMP);
			p->insts[jmp].x = split;
			p->insts[split].y = p->ninsts;
			break;
		}
		/* optional copies, nested: each may be skipped to the common end */
		int *splits = ast_alloc(sizeof(int) * (size_t)(n->max - n->min + 1));
		int count = 0;
		for (int i = n->min; i < n->max && !p->overflow; i++) {
			int split = emit_inst(p, OP_SPLIT);
			p->insts[split].x = split + 1;
			splits[count++] = split;
			compile_node(p, n->a);
		}
		for (int i = 0; i < count; i++)
			p->insts[splits[i]].y = p->ninsts;
		break;
	}
	}
}

struct regex_prog *regex_compile(const char *pattern, const char **error, int *error_offset)
{
	struct re_parser ps = {.pattern = pattern, .p = pattern};
	struct re_node *tree = parse_alt(&ps);
	if (tree && *ps.p)
		re_fail(&ps, "unmatched )", ps.p);
	if (ps.error) {
		*error = ps.error;
		*error_offset = ps.error_offset;
		return NULL;
	}

	struct regex_prog *p = ast_alloc(sizeof(*p));
	p->pattern = pattern;
	p->ngroups = ps.ngroups;
	p->insts = ast_alloc(sizeof(*p->insts) * REGEX_MAX_INSTS);
	p->sets = ast_alloc(sizeof(*p->sets) * REGEX_MAX_INSTS);
	int s = emit_inst(p, OP_SAVE);
	p->insts[s].save = 0;
	compile_node(p, tree);
	s = emit_inst(p, OP_SAVE);
	p->insts[s].save = 1;
	emit_inst(p, OP_MATCH);
	for (int i = 0; i < p->ninsts; i++) {
		struct re_inst *in = &p->insts[i];
		if (in->op == OP_CHAR)
			in->state = p->nstates++;
		if (in->op == OP_SAVE || in->op == OP_BOL || in->op == OP_EOL)
			in->x = i + 1; /* straight-line successors */
	}
	p->insts[p->ninsts - 1].state = p->nstates++;
	if (p->overflow || p->nstates > REGEX_MAX_STATES) {
		*error = "regular expression too complex (too many character positions once {m,n} is expanded)";
		*error_offset = 0;
		return NULL;
	}
	return p;
}

int regex_ngroups(const struct regex_prog *p)
{
	return p->ngroups;
}

static int ncaps(const struct regex_prog *p)
{
	return 2 * (p->ngroups + 1);
}

int regex_work_words(const struct regex_prog *p)
{
	return 2 * (1 + p->nstates * (ncaps(p) + 1)) + p->nstates;
}

/* ---- Epsilon closures and C ---- */

/* Anchor contexts: bit 0 at the start of the subject, bit 1 at its end. */
#define CTX_START 1
#define CTX_END 2

struct closure_walk {
	const struct regex_prog *p;
	int ctx;
	bool *visited;      /* per instruction */
	int *saves;         /* capture slots set on the current path */
	int nsaves;
	FILE *out;
	int indent;
};

static void closure(struct closure_walk *w, int pc)
{
	const struct re_inst *in = &w->p->insts[pc];
	if (w->visited[pc])
		return;
	w->visited[pc] = true;
	switch (in->op) {
	case OP_CHAR:
	case OP_MATCH:
		fprintf(w->out, "%*s", w->indent, "");
		if (!w->nsaves) {
			fprintf(w->out, "(void)_stp_regex_push(l, mark, gen, %d, caps, C);\n", in->state);
			break;
		}
		fprintf(w->out, "if ((e = _stp_regex_push(l, mark, gen, %d, caps, C)) != 0) {", in->state);
		for (int i = 0; i < w->nsaves; i++)
			fprintf(w->out, " e[%d] = i;", w->saves[i]);
		fprintf(w->out, " }\n");
		break;
	case OP_SPLIT:
		closure(w, in->x);
		closure(w, in->y);
		break;
	case OP_JMP:
		closure(w, in->x);
		break;
	case OP_SAVE:
		w->saves[w->nsaves++] = in->save;
		closure(w, in->x);
		w->nsaves--;
		break;
	case OP_BOL:
		if (w->ctx & CTX_START)
			closure(w, in->x);
		break;
	case OP_EOL:
		if (w->ctx & CTX_END)
			closure(w, in->x);
		break;
	}
}

static void emit_closure(FILE *out, const struct regex_prog *p, int pc, int ctx, int indent)
{
	struct closure_walk w = {.p = p, .ctx = ctx, .out = out, .indent = indent};
	w.visited = calloc((size_t)p->ninsts, sizeof(bool));
	w.saves = calloc((size_t)p->ninsts + 1, sizeof(int));
	closure(&w, pc);
	free(w.visited);
	free(w.saves);
}

/* The test of a byte against set k, as a C expression of c. */
static void emit_test(FILE *out, const char *name, const struct regex_prog *p, int k)
{
	const uint32_t *set = p->sets[k];
	int count = 0, last = 0;
	for (int c = 0; c < 256; c++)
		if (set_has(set, (unsigned)c)) {
			count++;
			last = c;
		}
	if (count == 1)
		fprintf(out, "c == %d", last);
	else if (count == 255 && !set_has(set, 0))
		fprintf(out, "c != 0");
	else
		fprintf(out, "(%s_set%d[c >> 5] >> (c & 31)) & 1", name, k);
}

void regex_emit(FILE *out, const struct regex_prog *p, const char *name)
{
	int n = p->nstates, c = ncaps(p);

	fputs("/* regex \"", out);
	for (const char *s = p->pattern; *s; s++) {
		if (*s == '*' && s[1] == '/')
			fputs("*\\", out);
		else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			fputc('?', out);
		else
			fputc(*s, out);
	}
	fprintf(out, "\": %d states, %d group%s */\n", n, p->ngroups, p->ngroups == 1 ? "" : "s");
	for (int k = 0; k < p->nsets; k++) {
		fprintf(out, "static const uint32_t %s_set%d[8] = {", name, k);
		for (int i = 0; i < 8; i++)
			fprintf(out, "%s0x%08xu", i ? ", " : " ", p->sets[k][i]);
		fputs(" };\n", out);
	}

	/* the byte test of each consuming state */
	fprintf(out, "static int %s_test(int state, unsigned int c)\n{\n\t(void)c;\n\tswitch (state) {\n", name);
	for (int i = 0; i < p->ninsts; i++) {
		if (p->insts[i].op != OP_CHAR)
			continue;
		fprintf(out, "\tcase %d: return ", p->insts[i].state);
		emit_test(out, name, p, p->insts[i].set);
		fputs(";\n", out);
	}
	fputs("\t}\n\treturn 0;\n}\n", out);

	/* the closures: from 0 = the start, from k + 1 = after consuming state k */
	fprintf(out, "static void %s_add(int32_t *l, int32_t *mark, int32_t gen, int from, const int32_t *caps, "
		"int32_t i, const char *s)\n{\n", name);
	fprintf(out, "\tenum { C = %d };\n\tint32_t *e;\n", c);
	if (p->anchors)
		fputs("\tint ctx = (i == 0 ? 1 : 0) | (i >= MAXSTRINGLEN - 1 || s[i] == '\\0' ? 2 : 0);\n", out);
	fputs("\t(void)e;\n\t(void)s;\n\tswitch (from) {\n", out);
	for (int from = 0; from <= p->ninsts; from++) {
		int pc;
		if (from == 0) {
			pc = 0;
			fputs("\tcase 0:\n", out);
		} else if (p->insts[from - 1].op == OP_CHAR) {
			pc = from; /* the instruction after CHAR from-1 */
			fprintf(out, "\tcase %d:\n", p->insts[from - 1].state + 1);
		} else {
			continue;
		}
		if (!p->anchors) {
			emit_closure(out, p, pc, 0, 16);
		} else {
			fputs("\t\tswitch (ctx) {\n", out);
			for (int ctx = 0; ctx < 4; ctx++) {
				fprintf(out, "\t\tcase %d:\n", ctx);
				emit_closure(out, p, pc, ctx, 24);
				fputs("\t\t\tbreak;\n", out);
			}
			fputs("\t\t}\n", out);
		}
		fputs("\t\tbreak;\n", out);
	}
	fputs("\t}\n}\n", out);

	/* the simulation */
	fprintf(out,
		"static int %s(const char *s, int32_t *w, int32_t *best)\n"
		"{\n"
		"\tenum { N = %d, C = %d, E = C + 1, MATCH = N - 1 };\n"
		"\tint32_t *cl = w, *nl = w + 1 + N * E, *mark = w + 2 * (1 + N * E), *tmp;\n"
		"\tint32_t init[C];\n"
		"\tint32_t i, j;\n"
		"\tint found = 0;\n"
		"\n"
		"\tcl[0] = 0;\n"
		"\tfor (j = 0; j < N; j++)\n"
		"\t\tmark[j] = 0;\n"
		"\tfor (j = 0; j < C; j++)\n"
		"\t\tinit[j] = -1;\n"
		"\tfor (i = 0; i < MAXSTRINGLEN; i++) {\n"
		"\t\tunsigned int c = i < MAXSTRINGLEN - 1 ? (unsigned char)s[i] : 0;\n"
		"\n"
		"\t\tif (!found) /* a new thread starting here, after every older one */\n"
		"\t\t\t%s_add(cl, mark, i + 1, 0, init, i, s);\n"
		"\t\tif (!cl[0])\n"
		"\t\t\tbreak;\n"
		"\t\tnl[0] = 0;\n"
		"\t\tfor (j = 0; j < cl[0]; j++) {\n"
		"\t\t\tint32_t *e = cl + 1 + j * E;\n"
		"\n"
		"\t\t\tif (found && e[1] > best[0])\n"
		"\t\t\t\tcontinue; /* starts right of the match found: cannot be leftmost */\n"
		"\t\t\tif (e[0] == MATCH) {\n"
		"\t\t\t\tif (!found || e[1] < best[0] || (e[1] == best[0] && e[2] > best[1])) {\n"
		"\t\t\t\t\tfor (int k = 0; k < C; k++)\n"
		"\t\t\t\t\t\tbest[k] = e[1 + k];\n"
		"\t\t\t\t\tfound = 1;\n"
		"\t\t\t\t}\n"
		"\t\t\t\tcontinue;\n"
		"\t\t\t}\n"
		"\t\t\tif (c && %s_test(e[0], c))\n"
		"\t\t\t\t%s_add(nl, mark, i + 2, e[0] + 1, e + 1, i + 1, s);\n"
		"\t\t}\n"
		"\t\ttmp = cl;\n"
		"\t\tcl = nl;\n"
		"\t\tnl = tmp;\n"
		"\t\tif (!c)\n"
		"\t\t\tbreak;\n"
		"\t}\n"
		"\treturn found;\n"
		"}\n\n",
		name, n, c, name, name, name);
}
