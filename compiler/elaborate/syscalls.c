/*
 * syscalls.c - the syscall.*, nd_syscall.* and syscall_any probe aliases, generated from the
 * target kernel and a table of ours rather than written out by hand.
 *
 * What the target (-r) kernel says, from its headers tree (which pass 4 needs anyway, and
 * which exists for every Debian kernel, with DWARF or with BTF only):
 *  - arch/x86/include/generated/asm/syscalls_64.h: __SYSCALL(NR, sys_FUNC) (6.11+: exit and
 *    exit_group are __SYSCALL_NORETURN; before 5.11: __SYSCALL_COMMON and __SYSCALL_64), the number of each x86-64 system call and the
 *    function behind it (sys_ni_syscall: not built);
 *  - arch/x86/include/generated/uapi/asm/unistd_64.h: __NR_NAME NR, the user-space names;
 *  - include/linux/syscalls.h and arch/x86/include/asm/syscalls.h: the sys_FUNC prototypes,
 *    whose parameter names and types name and render the arguments of a call our table
 *    does not list. (The kernel's own DWARF and BTF only describe __x64_sys_FUNC(const
 *    struct pt_regs *): the prototypes are where argument names survive.)
 * tapset/linux/syscalls.tbl adds SystemTap's documented names: the probe name, the variable
 * of each argument and how argstr renders it (see the file's header).
 *
 * A point is expanded lazily, when a script names syscall.NAME, nd_syscall.NAME or
 * syscall_any (with .return, wildcards, .maxactive(N)): this file writes the alias text for
 * just the calls the point matches and parses it as a tapset file would be. The hook:
 *  - one call (or a few: at most FEW_CALLS): an entry probe on __x64_sys_FUNC, reading the
 *    user's registers from the struct pt_regs it receives (kernel.function, or kprobe.function
 *    for nd_syscall), and a return probe on it for .return;
 *  - more (syscall.*, syscall_any): one raw_syscalls:sys_enter / sys_exit tracepoint whose
 *    body dispatches on the call number: name and argstr's spec from two arrays indexed by it
 *    (a generated tapset file), per-call variables in a binary tree of comparisons holding only
 *    the calls that have one. A return whose bodies use @entry(...) is a return probe on each
 *    call instead: sys_exit has no entry to save the value at.
 * Only the variables some probe body or alias can read are computed: the bodies are scanned
 * for the names they read before the text is written, so `syscall.* { n++ }` is n++ alone.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "diag.h"
#include "tapset.h"
#include "parse.h"
#include "syscalls.h"

/* Points matching more calls than this use one tracepoint instead of an entry probe each. */
#define FEW_CALLS 8
#define MAX_ARGS 6

/* How one argument is read and shown. */
struct sc_arg {
	const char *var;      /* the script variable */
	const char *type;     /* int uint long ulong ptr ustr sptr octal argv env skip */
	const char *decoder;  /* NULL, or K: VAR_str = _sc_K_str(VAR) */
	bool if_creat;        /* argstr shows it only when the open flags create a file */
	const char *extra;    /* NULL, or variables derived from it (/EXTRA in syscalls.tbl, see extra_vars) */
};

/* One system call of the target kernel, as its probes present it. */
struct sc_call {
	const char *name;     /* the probe name and `name`: SystemTap's (pread), else the kernel's */
	const char *uname;    /* unistd_64.h name (pread64) */
	const char *func;     /* the kernel function, __x64_sys_pread64 */
	int nr;               /* its number */
	int nargs;
	struct sc_arg args[MAX_ARGS];
	bool ret_hex;         /* retstr in hex (addresses: mmap, brk) */
	int nparams;          /* the kernel prototype's parameters (-1: no prototype) */
	struct syscalls_param params[MAX_ARGS]; /* their names and C types ($fd of syscall.read) */
	int null_arg;         /* a call another one makes with this argument NULL (send: sendto's
	                         to_uaddr): its index + 1, the other hits are skipped; 0 for none */
};

/* One row of syscalls.tbl. */
struct sc_row {
	const char *name;
	const char *uname;
	int nargs;
	struct sc_arg args[MAX_ARGS];
	bool ret_hex;
};

/* What one session knows of the target's system calls (session.syscalls). */
struct syscalls_state {
	struct vec calls;          /* of struct sc_call *, by number */
	struct vec derived;        /* of struct sc_call *: calls x86-64 makes through another one
	                              (send, recv), matched by their exact name only */
	bool loaded;               /* calls read from the kernel's files */
	bool table_written;        /* the generated tapset file of the call table (write_table_file) is in */
	struct vec read_names;     /* of const char *: identifiers the bodies read as locals */
	bool uses_entry;           /* the bodies use @entry(...): a return needs each call's own return probe */
	struct vec script_globals; /* of const char *: the script's globals, never assigned here */
	struct vec cache_keys;     /* of const char *: point text already expanded */
	struct vec cache_aliases;  /* parallel: of struct vec * of struct probe * */
	bool listing;              /* stap -l/-L: one alias per call, every variable computed */
};

/* ---- Reading the kernel's files ---- */

/*
 * The common headers of a split tree (Debian: build/Makefile is "include
 * /usr/src/linux-headers-R-common/Makefile"), else the build tree itself.
 */
const char *syscalls_wrapper_prefix(const struct session *s)
{
	return s->arch && !strcmp(s->arch->name, "arm64") ? "__arm64_sys_" : "__x64_sys_";
}

const char *syscalls_source_tree(const char *build)
{
	char *mk = tapset_read_file(ast_printf("%s/Makefile", build));
	/* its "include SRC/Makefile" line: the first, or after KBUILD_OUTPUT=... (Debian's 7.x) */
	const char *p = mk;
	while (p && strncmp(p, "include ", 8)) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (p) {
		p += 8;
		const char *end = strstr(p, "/Makefile");
		if (end && !memchr(p, '\n', (size_t)(end - p)))
			return ast_printf("%.*s", (int)(end - p), p);
	}
	return build;
}

static bool is_ident(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Words of a C parameter declaration: identifiers and '*', qualifiers dropped. */
static int param_words(const char *p, const char *end, const char **w, int max)
{
	int n = 0;
	while (p < end && n < max) {
		if (*p == '*') {
			w[n++] = "*";
			p++;
		} else if (is_ident(*p)) {
			const char *s = p;
			while (p < end && is_ident(*p))
				p++;
			const char *word = ast_printf("%.*s", (int)(p - s), s);
			if (strcmp(word, "const") && strcmp(word, "__user") && strcmp(word, "volatile"))
				w[n++] = word;
		} else {
			p++;
		}
	}
	return n;
}

static bool is_type_word(const char *w)
{
	static const char *const words[] = {"unsigned", "signed", "long", "int", "short", "char", "void"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (!strcmp(w, words[i]))
			return true;
	return false;
}

/* The script's names for a call's locals: a kernel name that is one of them gets "arg_". */
static const char *safe_var(const char *name)
{
	static const char *const taken[] = {
		"name", "argstr", "retval", "retstr", "syscall_nr", "__nr", "if", "else", "for", "foreach",
		"while", "in", "next", "break", "continue", "return", "delete", "try", "catch",
		"global", "function", "probe", "private", "string", "long",
	};
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		if (!strcmp(name, taken[i]))
			return ast_printf("arg_%s", name);
	return name;
}

/* An argument from its C declaration: its name (argN when unnamed) and how to show it. */
static void arg_from_c(struct sc_arg *a, const char *p, const char *end, int pos)
{
	const char *w[16];
	int n = param_words(p, end, w, 16);
	int stars = 0;
	bool is_char = false, is_unsigned = false, is_int = false, is_long = false;
	const char *last = n ? w[n - 1] : "";
	bool named = n >= 2 && strcmp(last, "*") && !is_type_word(last);
	for (int i = 0; i < (named ? n - 1 : n); i++) {
		const char *x = w[i];
		stars += !strcmp(x, "*");
		is_char |= !strcmp(x, "char");
		is_unsigned |= !strcmp(x, "unsigned") || !strcmp(x, "umode_t") || !strcmp(x, "uid_t") ||
			       !strcmp(x, "gid_t") || !strcmp(x, "u32") || !strcmp(x, "__u32") ||
			       !strcmp(x, "qid_t") || !strcmp(x, "rwf_t") || !strcmp(x, "size_t");
		is_int |= !strcmp(x, "int") || !strcmp(x, "pid_t") || !strcmp(x, "clockid_t") ||
			  !strcmp(x, "timer_t") || !strcmp(x, "key_serial_t") || !strcmp(x, "mqd_t") ||
			  !strcmp(x, "s32") || !strcmp(x, "__s32") || !strcmp(x, "umode_t") ||
			  !strcmp(x, "uid_t") || !strcmp(x, "gid_t") || !strcmp(x, "u32") ||
			  !strcmp(x, "__u32") || !strcmp(x, "qid_t") || !strcmp(x, "rwf_t");
		is_long |= !strcmp(x, "long") || !strcmp(x, "size_t") || !strcmp(x, "loff_t") ||
			   !strcmp(x, "off_t") || !strcmp(x, "u64") || !strcmp(x, "__u64");
	}
	a->var = named ? safe_var(last) : ast_printf("arg%d", pos + 1);
	a->decoder = NULL;
	a->if_creat = false;
	bool is_const = false;
	for (const char *q = p; q + 5 <= end; q++)
		is_const |= !strncmp(q, "const", 5) && (q == p || !is_ident(q[-1])) && (q + 5 == end || !is_ident(q[5]));
	if (stars)
		/*
		 * a string only when read by the call (const) and named: an unnamed
		 * one would clash with the longs argN
		 */
		a->type = stars == 1 && is_char && is_const && named ? "ustr" : "ptr";
	else if (is_int && !is_long)
		a->type = is_unsigned ? "uint" : "int";
	else
		a->type = is_unsigned ? "ulong" : "long";
}

/* A parameter's name and C type as the prototype writes them ("buf", "char *"), qualifiers dropped. */
static void param_from_c(struct syscalls_param *out, const char *p, const char *end, int pos)
{
	const char *w[16];
	int n = param_words(p, end, w, 16);
	const char *last = n ? w[n - 1] : "";
	bool named = n >= 2 && strcmp(last, "*") && !is_type_word(last);
	const char *type = "";
	for (int i = 0; i < (named ? n - 1 : n); i++)
		type = ast_printf("%s%s%s", type, *type && strcmp(w[i], "*") ? " " : "", w[i]);
	out->name = named ? last : ast_printf("arg%d", pos + 1);
	out->ctype = type;
}

/* Prototypes "asmlinkage long sys_F(...);" of text, for calls without a row. */
static void read_prototypes(struct syscalls_state *st, const char *prefix, const char *text)
{
	for (const char *p = text; p && (p = strstr(p, "asmlinkage long sys_")); p++) {
		const char *f = p + strlen("asmlinkage long ");
		const char *open = strchr(f, '(');
		const char *close = open ? strstr(open, ");") : NULL;
		if (!close)
			return;
		const char *func = ast_printf("%s%.*s", prefix, (int)(open - f - 4), f + 4);
		for (int i = 0; i < st->calls.n; i++) {
			struct sc_call *c = st->calls.items[i];
			if (strcmp(c->func, func) || c->nargs >= 0)
				continue; /* not this one, or an earlier #if branch won */
			c->nargs = 0;
			const char *a = open + 1;
			while (a < close && c->nargs < MAX_ARGS) {
				const char *e = a;
				int depth = 0;
				while (e < close && (depth || *e != ',')) {
					depth += *e == '(';
					depth -= *e == ')';
					e++;
				}
				const char *w[4];
				if (param_words(a, e, w, 4) != 1 || strcmp(w[0], "void")) {
					arg_from_c(&c->args[c->nargs], a, e, c->nargs);
					param_from_c(&c->params[c->nargs], a, e, c->nargs);
					c->nargs++;
				}
				a = e + 1;
			}
		}
	}
}

static struct sc_call *call_by_nr(struct syscalls_state *st, int nr)
{
	for (int i = 0; i < st->calls.n; i++)
		if (((struct sc_call *)st->calls.items[i])->nr == nr)
			return st->calls.items[i];
	return NULL;
}

/* ---- syscalls.tbl ---- */

static bool parse_arg_spec(struct sc_arg *a, const char *spec, struct srcloc loc)
{
	if (!strcmp(spec, "-")) {
		/* a register the call ignores (preadv2's pos_h): no variable, not in argstr */
		*a = (struct sc_arg){.var = "-", .type = "skip"};
		return true;
	}
	char *s = ast_strdup(spec);
	char *slash = strchr(s, '/');
	a->extra = NULL;
	if (slash) {
		*slash++ = '\0';
		if (strcmp(slash, "name") && strcmp(slash, "sockaddr") && strcmp(slash, "buf") && strcmp(slash, "addr")) {
			diag_error(loc, "syscalls.tbl: unknown derived variables '/%s' (name, sockaddr, buf or addr)", slash);
			return false;
		}
		a->extra = slash;
	}
	char *at = strchr(s, '@');
	a->if_creat = false;
	if (at) {
		if (strcmp(at, "@creat")) {
			diag_error(loc, "syscalls.tbl: unknown argstr condition '%s' (only @creat)", at);
			return false;
		}
		a->if_creat = true;
		*at = '\0';
	}
	char *type = strchr(s, ':');
	if (!type) {
		diag_error(loc, "syscalls.tbl: argument '%s' is not VAR:TYPE[:DECODER]", spec);
		return false;
	}
	*type++ = '\0';
	char *dec = strchr(type, ':');
	if (dec)
		*dec++ = '\0';
	static const char *const types[] = {"int", "uint", "long", "ulong", "ptr", "ustr", "sptr", "octal", "argv", "env"};
	bool known = false;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		known |= !strcmp(type, types[i]);
	if (!known || !*s) {
		diag_error(loc, "syscalls.tbl: argument '%s': type must be one of int uint long ulong ptr ustr sptr octal argv env", spec);
		return false;
	}
	a->var = s;
	a->type = type;
	a->decoder = dec && *dec ? dec : NULL;
	return true;
}

/* Rows: NAME KERNEL-NAME|- ARG... [=x]. */
static void read_table(const char *path, struct vec *rows)
{
	char *text = tapset_read_file(path);
	if (!text) {
		diag_error((struct srcloc){.file = ast_intern(path), .line = 1, .col = 1},
			   "cannot read the system call table %s", path);
		return;
	}
	int line = 0;
	for (char *p = text; *p;) {
		char *eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		line++;
		char *hash = strchr(p, '#');
		if (hash)
			*hash = '\0';
		struct srcloc loc = {.file = ast_intern(path), .line = line, .col = 1};
		char *tok[MAX_ARGS + 4];
		int n = 0;
		for (char *t = strtok(p, " \t"); t && n < MAX_ARGS + 4; t = strtok(NULL, " \t"))
			tok[n++] = t;
		if (n == 1 || n > MAX_ARGS + 3) {
			diag_error(loc, "syscalls.tbl: a row is NAME KERNEL-NAME ARG... [=x], at most %d arguments", MAX_ARGS);
		} else if (n >= 2) {
			struct sc_row *r = ast_alloc(sizeof(*r));
			r->name = ast_strdup(tok[0]);
			r->uname = strcmp(tok[1], "-") ? ast_strdup(tok[1]) : r->name;
			for (int i = 2; i < n; i++) {
				if (!strcmp(tok[i], "=x") && i == n - 1)
					r->ret_hex = true;
				else if (r->nargs < MAX_ARGS)
					parse_arg_spec(&r->args[r->nargs++], tok[i], loc);
			}
			vec_push(rows, r);
		}
		if (!eol)
			break;
		p = eol + 1;
	}
}

/* ---- The target's calls ---- */

/* Does the argument's variable hold a string? */
static bool is_string_arg(const struct sc_arg *a)
{
	return !strcmp(a->type, "ustr") || !strcmp(a->type, "argv") || !strcmp(a->type, "env");
}

/*
 * One type per variable across all calls (syscall.* reads them in one body):
 * the table's rows decide; a kernel argument of the other type is renamed
 * VAR_uaddr (a pointer, then shown as an address) or VAR_val.
 */
static void unify_types(struct vec *rows_calls, struct vec *other_calls)
{
	struct vec names = {0}, strings = {0};
	struct vec *lists[2] = {rows_calls, other_calls};
	for (int l = 0; l < 2; l++) {
		for (int i = 0; i < lists[l]->n; i++) {
			struct sc_call *c = lists[l]->items[i];
			for (int k = 0; k < c->nargs; k++) {
				struct sc_arg *a = &c->args[k];
				if (!strcmp(a->type, "skip"))
					continue;
				for (int round = 0; round < 2; round++) {
					int found = -1;
					for (int j = 0; j < names.n; j++)
						if (!strcmp(names.items[j], a->var))
							found = j;
					if (found < 0) {
						vec_push(&names, (void *)a->var);
						vec_push(&strings, (void *)(is_string_arg(a) ? "s" : ""));
						break;
					}
					if ((*(const char *)strings.items[found] != 0) == is_string_arg(a))
						break;
					if (!strcmp(a->type, "ustr")) {
						a->type = "ptr";
						a->var = ast_printf("%s_uaddr", a->var);
					} else {
						a->var = ast_printf("%s_val", a->var);
					}
				}
			}
		}
	}
}

static const char *argstr_spec(const struct sc_call *c);

/*
 * The tapset file of the target's call table, for the tracepoint dispatch:
 * __sc_name_of(nr) and __sc_spec_of(nr) (argstr's spec) look the number up in
 * two arrays instead of a comparison per call in the probe body.
 */
static void write_table_file(struct session *s)
{
	struct syscalls_state *st = s->syscalls;
	int max = -1;
	for (int i = 0; i < st->calls.n; i++)
		if (((struct sc_call *)st->calls.items[i])->nr > max)
			max = ((struct sc_call *)st->calls.items[i])->nr;
	if (max < 0)
		return;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, "// generated by compiler/elaborate/syscalls.c: the system calls of kernel %s\n%%{\n",
		s->release ? s->release : "?");
	fprintf(f, "/* by number: name, argstr spec (see _stp_syscall_argstr) */\n");
	fprintf(f, "static const char *const _sc_names[%d] = {\n", max + 1);
	for (int i = 0; i < st->calls.n; i++) {
		const struct sc_call *c = st->calls.items[i];
		fprintf(f, "\t[%d] = \"%s\",\n", c->nr, c->name);
	}
	fprintf(f, "};\nstatic const char *const _sc_specs[%d] = {\n", max + 1);
	for (int i = 0; i < st->calls.n; i++) {
		const struct sc_call *c = st->calls.items[i];
		fprintf(f, "\t[%d] = \"%s\",\n", c->nr, argstr_spec(c));
	}
	fprintf(f, "};\n%%}\n\n");
	fprintf(f, "// __sc_name_of - the name of system call nr (\"\" if the kernel has none)\n");
	fprintf(f, "function __sc_name_of:string (nr:long) %%{ /* pure */\n"
		   "\tconst char *n = STAP_ARG_nr >= 0 && STAP_ARG_nr < %d ? _sc_names[STAP_ARG_nr] : NULL;\n"
		   "\tstrscpy(STAP_RETVALUE, n ? n : \"\", MAXSTRINGLEN);\n%%}\n\n", max + 1);
	fprintf(f, "// __sc_spec_of - the argstr spec of system call nr\n");
	fprintf(f, "function __sc_spec_of:string (nr:long) %%{ /* pure */\n"
		   "\tconst char *n = STAP_ARG_nr >= 0 && STAP_ARG_nr < %d ? _sc_specs[STAP_ARG_nr] : NULL;\n"
		   "\tstrscpy(STAP_RETVALUE, n ? n : \"\", MAXSTRINGLEN);\n%%}\n", max + 1);
	fclose(f);
	const char *path = ast_intern("<generated syscall table>");
	diag_mark_library(path);
	if (s->verbose >= 3)
		fprintf(stderr, "%s", text);
	tapset_add_generated(s, parse_file(s, path, text, true));
}

static bool in_row_calls(const struct vec *v, const struct sc_call *c)
{
	for (int i = 0; i < v->n; i++)
		if (v->items[i] == c)
			return true;
	return false;
}

/*
 * send(2) and recv(2), which syscalls(2) lists and scripts probe (syscall.send), have no
 * number on x86-64: the C library makes them sendto and recvfrom with a NULL address. So
 * syscall.send is sendto's function with its first four arguments, skipping the hits whose
 * address is not NULL; likewise recv. They are matched by their exact name, so syscall.*
 * does not see a sendto twice.
 */
static void add_derived(struct syscalls_state *st)
{
	static const struct { const char *name, *via; int nargs; } derived[] = {
		{"send", "sendto", 4},
		{"recv", "recvfrom", 4},
	};
	for (size_t i = 0; i < sizeof(derived) / sizeof(derived[0]); i++) {
		for (int j = 0; j < st->calls.n; j++) {
			const struct sc_call *via = st->calls.items[j];
			if (strcmp(via->uname, derived[i].via) || via->nargs <= derived[i].nargs)
				continue;
			struct sc_call *c = ast_alloc(sizeof(*c));
			*c = *via;
			c->name = c->uname = derived[i].name;
			c->nargs = derived[i].nargs;
			c->null_arg = derived[i].nargs + 1;
			vec_push(&st->derived, c);
			break;
		}
	}
}

/*
 * One row of syscalls_64.h: __SYSCALL(NR, FUNC) since 5.11, and __SYSCALL_NORETURN(NR, FUNC)
 * for exit and exit_group since 6.11; __SYSCALL_COMMON(NR, FUNC) and __SYSCALL_64(NR, FUNC)
 * before (5.10), whose __SYSCALL_X32 rows are x32's, not x86-64's.
 */
static bool table_row(const char *p, int *nr, char func[128])
{
	static const char *const forms[] = {"__SYSCALL(%d, %127[a-z0-9_])", "__SYSCALL_NORETURN(%d, %127[a-z0-9_])",
	                                    "__SYSCALL_COMMON(%d, %127[a-z0-9_])", "__SYSCALL_64(%d, %127[a-z0-9_])"};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++)
		if (sscanf(p, forms[i], nr, func) == 2)
			return true;
	return false;
}

static struct syscalls_state *load(struct session *s)
{
	if (!s->syscalls)
		s->syscalls = ast_alloc(sizeof(*s->syscalls));
	struct syscalls_state *st = s->syscalls;
	if (st->loaded)
		return st;
	st->loaded = true;
	const char *build = s->kernel_build;
	char *table = NULL, *unistd = NULL;
	bool generic = strcmp(syscalls_wrapper_prefix(s), "__x64_sys_") != 0;
	if (generic && !syscalls_generic_tables(s, &table, &unistd))
		return st;
	if (!generic) {
		table = tapset_read_file(ast_printf("%s/arch/x86/include/generated/asm/syscalls_64.h", build));
		unistd = tapset_read_file(ast_printf("%s/arch/x86/include/generated/uapi/asm/unistd_64.h", build));
	}
	if (!table || !unistd)
		return st; /* no syscall aliases: syscall.NAME is then an unknown point */
	for (const char *p = table; (p = strstr(p, "__SYSCALL")); p++) {
		int nr;
		char func[128];
		if (!table_row(p, &nr, func) || !strcmp(func, "sys_ni_syscall"))
			continue;
		struct sc_call *c = ast_alloc(sizeof(*c));
		c->nr = nr;
		c->func = ast_printf("%s%s", syscalls_wrapper_prefix(s), func + 4);
		c->nargs = -1;
		c->nparams = -1;
		vec_push(&st->calls, c);
	}
	for (const char *p = unistd; (p = strstr(p, "#define __NR_")); p++) {
		int nr;
		char name[128];
		if (sscanf(p, "#define __NR_%127[a-z0-9_] %d", name, &nr) != 2)
			continue;
		struct sc_call *c = call_by_nr(st, nr);
		if (c)
			c->uname = c->name = ast_strdup(name);
	}
	const char *src = syscalls_source_tree(build);
	const char *prefix = syscalls_wrapper_prefix(s);
	read_prototypes(st, prefix, tapset_read_file(ast_printf("%s/include/linux/syscalls.h", src)));
	read_prototypes(st, prefix, tapset_read_file(ast_printf("%s/arch/%s/include/asm/syscalls.h", src,
								 s->arch ? s->arch->kbuild : "x86")));
	for (int i = 0; i < st->calls.n; i++) {
		struct sc_call *c = st->calls.items[i];
		c->nparams = c->nargs;
	}
	struct vec rows = {0}, row_calls = {0}, other_calls = {0};
	read_table(ast_printf("%s/linux/syscalls.tbl", s->tapset_dir), &rows);
	for (int i = 0; i < st->calls.n; i++) {
		struct sc_call *c = st->calls.items[i];
		if (!c->uname)
			c->uname = c->name = ast_printf("syscall_%d", c->nr);
		for (int j = 0; j < rows.n; j++) {
			struct sc_row *r = rows.items[j];
			if (strcmp(r->uname, c->uname))
				continue;
			c->name = r->name;
			c->nargs = r->nargs;
			memcpy(c->args, r->args, sizeof(c->args));
			c->ret_hex = r->ret_hex;
			vec_push(&row_calls, c);
			break;
		}
		if (c->nargs < 0) {
			/* no prototype either: six raw arguments */
			c->nargs = MAX_ARGS;
			for (int k = 0; k < MAX_ARGS; k++)
				c->args[k] = (struct sc_arg){.var = ast_printf("arg%d", k + 1), .type = "ulong"};
		}
		if (!in_row_calls(&row_calls, c))
			vec_push(&other_calls, c);
	}
	unify_types(&row_calls, &other_calls);
	add_derived(st);
	return st;
}

/* ---- Names the bodies read ---- */

static bool collect_var(struct ast_walker *w, struct node *n)
{
	struct syscalls_state *st = w->data;
	st->uses_entry |= n->kind == NODE_ENTRY;
	if (n->kind == NODE_VAR) {
		for (int i = 0; i < st->read_names.n; i++)
			if (!strcmp(st->read_names.items[i], n->u.var.name))
				return true;
		vec_push(&st->read_names, (void *)n->u.var.name);
	}
	return true;
}

/*
 * The identifiers the bodies around the point read: the user's probe and
 * the aliases it reached this point through. The script's globals are not
 * the aliases' to assign.
 */
static void collect_read_names(struct session *s, struct syscalls_state *st, const struct vec *bodies)
{
	st->read_names.n = 0;
	st->uses_entry = false;
	if (!st->script_globals.n)
		for (int i = 0; i < s->script->globals.n; i++)
			vec_push(&st->script_globals, (void *)((struct global *)s->script->globals.items[i])->name);
	struct ast_walker w = {.pre = collect_var, .data = st};
	for (int i = 0; i < bodies->n; i++)
		ast_walk(&w, bodies->items[i]);
}

static bool in_names(const struct vec *v, const char *name)
{
	for (int i = 0; i < v->n; i++)
		if (!strcmp(v->items[i], name))
			return true;
	return false;
}

static bool is_read(const struct syscalls_state *st, const char *name)
{
	if (in_names(&st->script_globals, name))
		return false;
	if (st->listing)
		return true;
	for (int i = 0; i < st->read_names.n; i++)
		if (!strcmp(st->read_names.items[i], name))
			return true;
	return false;
}

/* ---- Writing alias text ---- */

/* The value of argument i, as the script sees it, from the registers at __sc_regs. */
static const char *arg_value(const struct sc_arg *a, int i)
{
	const char *raw = ast_printf("_sc_arg(__sc_regs, %d)", i);
	if (!strcmp(a->type, "int"))
		return ast_printf("_sc_int(%s)", raw);
	if (!strcmp(a->type, "uint") || !strcmp(a->type, "octal"))
		return ast_printf("_sc_uint(%s)", raw);
	return raw;
}

/* The call's argstr spec for _sc_argstr (runtime/syscall_decode.c): TYPE[:DECODER][@creat],... */
static const char *argstr_spec(const struct sc_call *c)
{
	const char *spec = "";
	for (int i = 0; i < c->nargs; i++) {
		const struct sc_arg *a = &c->args[i];
		spec = ast_printf("%s%s%s%s%s%s", spec, i ? "," : "", a->type, a->decoder ? ":" : "",
				  a->decoder ? a->decoder : "", a->if_creat ? "@creat" : "");
	}
	return spec;
}

/*
 * The variables derived from argument i of c (its /EXTRA), into names (at
 * most 5); returns how many:
 *   name      VAR_name: the decoder's text (kill's sig_name)
 *   sockaddr  uaddr_af, uaddr_ip, uaddr_ip_port, uaddr_ipv6_flowinfo, uaddr_ipv6_scope_id:
 *             the socket address at VAR, the next argument its length (connect, bind)
 *   buf       VAR without _uaddr, plus _str: the buffer at VAR quoted, the next argument
 *             its length (write's buf_str)
 *   addr      VAR without _str: the address of the user string VAR (quotactl's special)
 */
static int extra_vars(const struct sc_call *c, int i, const char **names)
{
	const struct sc_arg *a = &c->args[i];
	if (!a->extra || ((!strcmp(a->extra, "sockaddr") || !strcmp(a->extra, "buf")) && i + 1 >= c->nargs))
		return 0;
	if (!strcmp(a->extra, "name")) {
		names[0] = ast_printf("%s_name", a->var);
		return a->decoder ? 1 : 0;
	}
	if (!strcmp(a->extra, "sockaddr")) {
		static const char *const sock[] = {"uaddr_af", "uaddr_ip", "uaddr_ip_port", "uaddr_ipv6_flowinfo",
						   "uaddr_ipv6_scope_id"};
		for (int k = 0; k < 5; k++)
			names[k] = sock[k];
		return 5;
	}
	size_t len = strlen(a->var);
	if (!strcmp(a->extra, "addr")) {
		if (len <= 4 || strcmp(a->var + len - 4, "_str"))
			return 0;
		names[0] = ast_printf("%.*s", (int)len - 4, a->var);
		return 1;
	}
	if (len > 6 && !strcmp(a->var + len - 6, "_uaddr"))
		len -= 6;
	names[0] = ast_printf("%.*s_str", (int)len, a->var);
	return 1;
}

/* Whether a body reads a variable derived from argument i of c. */
static bool extra_read(const struct syscalls_state *st, const struct sc_call *c, int i)
{
	const char *names[5];
	int n = extra_vars(c, i, names);
	for (int k = 0; k < n; k++)
		if (is_read(st, names[k]))
			return true;
	return false;
}

/* Statements computing the variables derived from argument i of c that are read. */
static void emit_extras(const struct syscalls_state *st, FILE *f, const struct sc_call *c, int i, const char *indent)
{
	const struct sc_arg *a = &c->args[i];
	const char *names[5];
	int n = extra_vars(c, i, names);
	const char *v = arg_value(a, i), *len = i + 1 < c->nargs ? arg_value(&c->args[i + 1], i + 1) : "0";
	for (int k = 0; k < n; k++) {
		if (!is_read(st, names[k]))
			continue;
		if (!strcmp(a->extra, "name"))
			fprintf(f, "%s%s = _sc_%s_str(%s)\n", indent, names[k], a->decoder, v);
		else if (!strcmp(a->extra, "buf"))
			fprintf(f, "%s%s = _sc_ubuf_quoted(%s, %s)\n", indent, names[k], v, len);
		else if (!strcmp(a->extra, "addr"))
			fprintf(f, "%s%s = %s\n", indent, names[k], v);
		else if (k == 0)
			fprintf(f, "%s%s = _sc_uaddr_af(%s, %s)\n", indent, names[k], v, len);
		else if (k == 1)
			fprintf(f, "%s%s = _sc_uaddr_ip(%s, %s)\n", indent, names[k], v, len);
		else
			fprintf(f, "%s%s = _sc_uaddr_num(%s, %s, %d)\n", indent, names[k], v, len, k - 2);
	}
}

/* Statements computing the call's variables that are read. */
static void emit_args(const struct syscalls_state *st, FILE *f, const struct sc_call *c, const char *indent, bool with_argstr)
{
	for (int i = 0; i < c->nargs; i++) {
		const struct sc_arg *a = &c->args[i];
		const char *v = arg_value(a, i);
		if (!strcmp(a->type, "skip"))
			continue;
		emit_extras(st, f, c, i, indent);
		if (!strcmp(a->type, "ustr")) {
			if (is_read(st, a->var))
				fprintf(f, "%s%s = _sc_ustr_quoted(%s)\n", indent, a->var, v);
			if (is_read(st, ast_printf("%s_unquoted", a->var)))
				fprintf(f, "%s%s_unquoted = _sc_ustr(%s)\n", indent, a->var, v);
			if (is_read(st, ast_printf("%s_uaddr", a->var)))
				fprintf(f, "%s%s_uaddr = %s\n", indent, a->var, v);
		} else if (!strcmp(a->type, "argv") || !strcmp(a->type, "env")) {
			if (is_read(st, a->var))
				fprintf(f, "%s%s = _sc_%s_str(%s)\n", indent, a->var, a->type, v);
		} else {
			const char *str_var = ast_printf("%s_str", a->var);
			bool str = a->decoder && is_read(st, str_var);
			if (is_read(st, a->var))
				fprintf(f, "%s%s = %s\n", indent, a->var, v);
			if (str)
				fprintf(f, "%s%s = _sc_%s_str(%s)\n", indent, str_var, a->decoder,
					is_read(st, a->var) ? a->var : v);
		}
	}
	if (with_argstr && is_read(st, "argstr")) {
		if (c->nargs)
			fprintf(f, "%sargstr = _sc_argstr(__sc_regs, \"%s\")\n", indent, argstr_spec(c));
		else
			fprintf(f, "%sargstr = \"\"\n", indent);
	}
}

/* Does the call have a variable the bodies read (besides name, argstr)? */
static bool has_read_vars(const struct syscalls_state *st, const struct sc_call *c)
{
	for (int i = 0; i < c->nargs; i++) {
		const char *v = c->args[i].var;
		if (is_read(st, v) || is_read(st, ast_printf("%s_str", v)) || is_read(st, ast_printf("%s_unquoted", v)) ||
		    is_read(st, ast_printf("%s_uaddr", v)) || extra_read(st, c, i))
			return true;
	}
	return false;
}

static bool needs_regs(const struct syscalls_state *st, const struct sc_call *c)
{
	if (is_read(st, "argstr"))
		return c->nargs > 0;
	return has_read_vars(st, c);
}

/* What a family of points is. */
enum sc_family {
	FAM_SYSCALL, /* syscall.NAME: kernel.function, or the tracepoints for many */
	FAM_ND,      /* nd_syscall.NAME: kprobe.function, or the tracepoints for many */
	FAM_ANY,     /* syscall_any: the tracepoints */
	FAM_TP,      /* tp_syscall.NAME: always the tracepoints (SystemTap's tracepoint-based aliases) */
};

/* One call's entry or return alias on its own function. */
static void write_single(const struct syscalls_state *st, FILE *f, enum sc_family fam, const struct sc_call *c, bool ret, const char *maxactive,
			 bool optional)
{
	const char *prov = fam == FAM_ND ? "kprobe" : "kernel";
	const char *suffix = ast_printf("%s%s", ret ? ".return" : "", maxactive);
	if (fam == FAM_ANY)	/* syscall_any.return with @entry: one alias per call, all of that name */
		fprintf(f, "probe syscall_any.return = kernel.function(\"%s\")%s", c->func, suffix);
	else
		fprintf(f, "probe %s.%s%s = %s.function(\"%s\")%s", fam == FAM_ND ? "nd_syscall" : "syscall",
			c->name, ret ? ".return" : "", prov, c->func, suffix);
	/*
	 * A call without arguments has no wrapper of its own: __x64_sys_F is an
	 * alias of __do_sys_F, the only name BTF gives the function.
	 */
	const char *sys = strstr(c->func, "_sys_");	/* after __x64 or __arm64 */
	if (fam != FAM_ND && c->nargs == 0 && sys && !strncmp(c->func, "__", 2))
		fprintf(f, " !, kernel.function(\"__do_sys_%s\")%s", sys + 5, suffix);
	/* one of a wildcard's calls whose function cannot be probed is skipped, as SystemTap does */
	fprintf(f, "%s {\n", optional ? " ?" : "");
	if (c->null_arg && ret)
		fprintf(f, "\tif (@entry(_sc_arg(_sc_regs(), %d)) != 0)\n\t\tnext\n", c->null_arg - 1);
	else if (c->null_arg)
		fprintf(f, "\tif (_sc_arg(_sc_regs(), %d) != 0)\n\t\tnext\n", c->null_arg - 1);
	if (is_read(st, "name"))
		fprintf(f, "\tname = \"%s\"\n", c->name);
	if (fam == FAM_ANY && is_read(st, "syscall_nr"))
		fprintf(f, "\tsyscall_nr = %d\n", c->nr);
	if (fam != FAM_ANY && is_read(st, "__nr"))	/* listed by -L as SystemTap lists it */
		fprintf(f, "\t__nr = %d\n", c->nr);
	if (ret) {
		const char *rv = fam == FAM_ND ? "returnval()" : "$return";
		if (is_read(st, "retval") || is_read(st, "retstr"))
			fprintf(f, "\tretval = %s\n", rv);
		if (is_read(st, "retstr"))
			fprintf(f, "\tretstr = return_str(%d, retval)\n", c->ret_hex ? 2 : 1);
	} else {
		if (needs_regs(st, c))
			/*
			 * the wrapper's one argument, from its register: under BTF the
			 * parameter's name is whichever deduplicated prototype won
			 * (regs, __unused)
			 */
			fprintf(f, "\t__sc_regs = _sc_regs()\n");
		emit_args(st, f, c, "\t", true);
	}
	fprintf(f, "}\n");
}

/*
 * A binary tree of comparisons over the calls [lo, hi) (sorted by number):
 * each leaf assigns its call's variables (vars), or, for a filter, ends the
 * hit for numbers that are not one of the st->calls.
 */
static void write_tree(const struct syscalls_state *st, FILE *f, struct sc_call **v, int lo, int hi, bool vars, int depth)
{
	char indent[64];
	int d = depth < 60 ? depth : 60;
	memset(indent, '\t', (size_t)d);
	indent[d] = '\0';
	if (hi - lo == 1) {
		if (!vars) {
			fprintf(f, "%sif (__sc_nr != %d) next\n", indent, v[lo]->nr);
			return;
		}
		fprintf(f, "%sif (__sc_nr == %d) {\n", indent, v[lo]->nr);
		emit_args(st, f, v[lo], ast_printf("%s\t", indent), false);
		fprintf(f, "%s}\n", indent);
		return;
	}
	int mid = lo + (hi - lo) / 2;
	fprintf(f, "%sif (__sc_nr < %d) {\n", indent, v[mid]->nr);
	write_tree(st, f, v, lo, mid, vars, depth + 1);
	fprintf(f, "%s} else {\n", indent);
	write_tree(st, f, v, mid, hi, vars, depth + 1);
	fprintf(f, "%s}\n", indent);
}

static int compare_nr(const void *a, const void *b)
{
	return (*(struct sc_call *const *)a)->nr - (*(struct sc_call *const *)b)->nr;
}

/*
 * Many calls, one tracepoint: the number selects the name and argstr spec
 * from the table file's arrays; a tree of comparisons filters a partial match
 * and assigns the per-call variables the bodies read (only for calls that
 * have one).
 */
static void write_dispatch(const struct syscalls_state *st, FILE *f, const char *alias_name, enum sc_family fam, struct vec *matched, bool ret)
{
	struct sc_call **v = (struct sc_call **)matched->items;
	qsort(v, (size_t)matched->n, sizeof(*v), compare_nr);
	bool all = matched->n == st->calls.n;
	fprintf(f, "probe %s = kernel.trace(\"raw_syscalls:%s\") {\n", alias_name, ret ? "sys_exit" : "sys_enter");
	/* sys_exit has no $id: the number is in the registers' orig_ax */
	const char *nr = ret ? "_sc_nr($regs)" : "$id";
	if (fam == FAM_ANY && is_read(st, "syscall_nr"))
		fprintf(f, "\tsyscall_nr = %s\n", nr);
	if (ret && (is_read(st, "retval") || is_read(st, "retstr")))
		fprintf(f, "\tretval = $ret\n");
	struct vec with_vars = {0};
	if (!ret && fam != FAM_ANY)
		for (int i = 0; i < matched->n; i++)
			if (has_read_vars(st, v[i]))
				vec_push(&with_vars, v[i]);
	bool argstr = !ret && fam != FAM_ANY && is_read(st, "argstr");
	bool retstr = ret && fam != FAM_ANY && is_read(st, "retstr");
	bool uses_nr = !all || is_read(st, "name") || argstr || retstr || with_vars.n;
	if (!uses_nr) {
		fprintf(f, "}\n");
		return;
	}
	/* a 32-bit task's numbers are another table's: not these calls */
	fprintf(f, "\tif (_sc_compat()) next\n");
	fprintf(f, "\t__sc_nr = %s\n", nr);
	if (!all)
		write_tree(st, f, v, 0, matched->n, false, 1);
	if (is_read(st, "name"))
		fprintf(f, "\tname = __sc_name_of(__sc_nr)\n");
	if (argstr || with_vars.n)
		fprintf(f, "\t__sc_regs = $regs\n");
	if (argstr)
		fprintf(f, "\targstr = _sc_argstr(__sc_regs, __sc_spec_of(__sc_nr))\n");
	if (retstr) {
		/* the calls that return addresses */
		const char *hex = "";
		for (int i = 0; i < matched->n; i++)
			if (v[i]->ret_hex)
				hex = ast_printf("%s%s__sc_nr == %d", hex, *hex ? " || " : "", v[i]->nr);
		if (*hex)
			fprintf(f, "\tretstr = return_str((%s) ? 2 : 1, retval)\n", hex);
		else
			fprintf(f, "\tretstr = return_str(1, retval)\n");
	}
	if (with_vars.n)
		write_tree(st, f, (struct sc_call **)with_vars.items, 0, with_vars.n, true, 1);
	fprintf(f, "}\n");
}

/* ---- Matching points ---- */

/* syscall.NAME[.return][.maxactive(N)], nd_syscall..., tp_syscall.NAME[.return], syscall_any[.return]. */
static bool point_shape(const struct probe_point *pp, enum sc_family *fam, const char **pattern,
			bool *ret, const char **maxactive)
{
	int n = probes_ncomponents(pp);
	const struct probe_component *c0 = probes_component(pp, 0);
	int i;
	if (c0->arg)
		return false;
	if (!strcmp(c0->name, "syscall_any")) {
		*fam = FAM_ANY;
		*pattern = "*";
		i = 1;
	} else if (!strcmp(c0->name, "syscall") || !strcmp(c0->name, "nd_syscall") || !strcmp(c0->name, "tp_syscall")) {
		const struct probe_component *c1 = probes_component(pp, 1);
		if (!c1 || c1->arg)
			return false;
		*fam = c0->name[0] == 'n' ? FAM_ND : c0->name[0] == 't' ? FAM_TP : FAM_SYSCALL;
		*pattern = c1->name;
		i = 2;
	} else {
		return false;
	}
	*ret = false;
	*maxactive = "";
	if (i < n && !strcmp(probes_component(pp, i)->name, "return") && !probes_component(pp, i)->arg) {
		*ret = true;
		i++;
	}
	if (i < n && *ret && *fam != FAM_TP && !strcmp(probes_component(pp, i)->name, "maxactive") && probes_component(pp, i)->arg &&
	    probes_component(pp, i)->arg->kind == NODE_NUM) {
		*maxactive = ast_printf(".maxactive(%lld)", (long long)probes_component(pp, i)->arg->u.num);
		i++;
	}
	return i == n;
}

int syscalls_params(struct session *s, const char *func, const struct syscalls_param **params)
{
	struct syscalls_state *st = load(s);
	for (int i = 0; i < st->calls.n; i++) {
		const struct sc_call *c = st->calls.items[i];
		if (!strcmp(c->func, func)) {
			*params = c->params;
			return c->nparams;
		}
	}
	return -1;
}

void syscalls_names(struct session *s, struct vec *out)
{
	struct syscalls_state *st = load(s);
	for (int i = 0; i < st->calls.n; i++)
		vec_push(out, (void *)((struct sc_call *)st->calls.items[i])->name);
}

/* Why the target kernel has no call table: the file it lacks. */
static const char *no_table(struct session *s)
{
	return ast_printf("no system call table for kernel %s (%s/arch/%s/include/generated/asm/syscalls_64.h%s)",
			  s->release ? s->release : "?", s->kernel_build, s->arch ? s->arch->kbuild : "x86",
			  s->arch && strcmp(s->arch->name, "x86_64") ? ", or the generic unistd.h through the cross preprocessor"
								     : "");
}

const char *syscalls_function_missing_why(struct session *s, const char *name)
{
	if (strcmp(name, "__sc_name_of") && strcmp(name, "__sc_spec_of"))
		return NULL;
	return load(s)->calls.n ? NULL : no_table(s);
}

bool syscalls_provide_function(struct session *s, const char *name)
{
	if (strcmp(name, "__sc_name_of") && strcmp(name, "__sc_spec_of"))
		return false;
	struct syscalls_state *st = load(s);
	if (st->table_written || !st->calls.n)
		return false;
	st->table_written = true;
	write_table_file(s);
	return true;
}

enum syscalls_result syscalls_aliases(struct session *s, struct probe_point *pp, bool optional,
				      const struct vec *bodies, struct vec *out)
{
	enum sc_family fam;
	const char *pattern, *maxactive;
	bool ret;
	if (!point_shape(pp, &fam, &pattern, &ret, &maxactive))
		return SYSCALLS_NOT_MINE;
	struct syscalls_state *st = load(s);
	st->listing = s->list_probes;
	collect_read_names(s, st, bodies);
	/* the text depends on the point and on the names read */
	const char *key = probes_point_text(pp);
	const char *cache_key = st->uses_entry ? ast_printf("%s @entry", key) : key;
	for (int i = 0; i < st->read_names.n; i++)
		cache_key = ast_printf("%s %s", cache_key, (const char *)st->read_names.items[i]);
	for (int i = 0; i < st->cache_keys.n; i++) {
		if (!strcmp(st->cache_keys.items[i], cache_key)) {
			struct vec *v = st->cache_aliases.items[i];
			for (int j = 0; j < v->n; j++)
				vec_push(out, v->items[j]);
			return SYSCALLS_ALIASES;
		}
	}
	struct vec matched = {0};
	for (int i = 0; i < st->calls.n; i++) {
		struct sc_call *c = st->calls.items[i];
		if (probes_glob(pattern, c->name) || (strcmp(c->uname, c->name) && probes_glob(pattern, c->uname)))
			vec_push(&matched, c);
	}
	for (int i = 0; i < st->derived.n && !probes_has_wildcard(pattern); i++) {
		struct sc_call *c = st->derived.items[i];
		if (!strcmp(pattern, c->name))
			vec_push(&matched, c);
	}
	if (!matched.n) {
		if (optional)
			return SYSCALLS_NONE;
		if (!st->calls.n)
			diag_error(pp->loc, "probe point '%s': %s", key, no_table(s));
		else
			diag_error(pp->loc, "probe point '%s': kernel %s has no system call '%s'", key,
				   s->release ? s->release : "?", pattern);
		return SYSCALLS_NONE;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fprintf(f, "// generated by compiler/elaborate/syscalls.c for %s from kernel %s and tapset/linux/syscalls.tbl\n",
		key, s->release ? s->release : "?");
	/*
	 * @entry(...) in a return of many calls: each call's own return probe
	 * (the sys_exit tracepoint has no entry to save it at), as SystemTap's
	 * syscall.*.return was before the tracepoints
	 */
	bool dispatch = (fam == FAM_ANY || (matched.n > FEW_CALLS && !st->listing)) && !(ret && st->uses_entry);
	if (dispatch && !st->table_written) {
		/* the dispatch's name and argstr arrays */
		st->table_written = true;
		write_table_file(s);
	}
	if (fam == FAM_TP && !st->table_written) {
		/* the name and argstr arrays every tracepoint alias reads */
		st->table_written = true;
		write_table_file(s);
	}
	if (fam == FAM_TP && (matched.n <= FEW_CALLS || st->listing)) {
		/* each call its own alias on the tracepoints, named as the user may list it */
		for (int i = 0; i < matched.n; i++) {
			struct vec one = {0};
			vec_push(&one, matched.items[i]);
			write_dispatch(st, f, ast_printf("tp_syscall.%s%s", ((struct sc_call *)matched.items[i])->name,
							 ret ? ".return" : ""), fam, &one, ret);
		}
	} else if (fam == FAM_TP) {
		write_dispatch(st, f, ret ? "tp_syscall.__dispatch.return" : "tp_syscall.__dispatch", fam, &matched, ret);
	} else if (dispatch)
		write_dispatch(st, f, fam == FAM_ANY ? (ret ? "syscall_any.return" : "syscall_any")
			       : ast_printf("%s.__dispatch%s", fam == FAM_ND ? "nd_syscall" : "syscall", ret ? ".return" : ""),
			       fam, &matched, ret);
	else
		for (int i = 0; i < matched.n; i++)
			write_single(st, f, fam, matched.items[i], ret, maxactive, fam == FAM_ANY || probes_has_wildcard(pattern));
	fclose(f);
	const char *path = ast_printf("<generated %s>", key);
	diag_mark_library(ast_intern(path));
	if (s->verbose >= 3)
		fprintf(stderr, "%s", text);
	struct ast_file *file = parse_file(s, path, text, true);
	struct vec *aliases = ast_alloc(sizeof(*aliases));
	for (int i = 0; i < file->probes.n; i++) {
		struct probe *p = file->probes.items[i];
		p->file = file;
		vec_push(aliases, p);
		vec_push(out, p);
	}
	vec_push(&st->cache_keys, (void *)cache_key);
	vec_push(&st->cache_aliases, aliases);
	return aliases->n ? SYSCALLS_ALIASES : SYSCALLS_NONE;
}
