/* debuginfo.c - the source-independent half of the debuginfo layer: types, globs, dispatch. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "debuginfo.h"

void dbg_functions(struct debuginfo *di, const char *pattern, const char *file_glob, bool want_inline,
		   struct vec *out)
{
	di->ops->functions(di, pattern, file_glob, want_inline, out);
}

bool dbg_enumerator(struct debuginfo *di, struct dbg_func *f, const char *name, struct dbg_var *out)
{
	return di->ops->enumerator && di->ops->enumerator(di, f, name, out);
}

void dbg_variables(struct debuginfo *di, struct dbg_func *f, uint64_t pc, struct vec *out)
{
	di->ops->variables(di, f, pc, out);
}

void dbg_enumerators(struct debuginfo *di, struct dbg_type *t, struct vec *out)
{
	if (di->ops->enumerators && t && t->kind == DBG_ENUM)
		di->ops->enumerators(di, t, out);
}

struct dbg_type *dbg_find_type(struct debuginfo *di, const char *name)
{
	return di->ops->find_type(di, name);
}

struct dbg_var *dbg_global(struct debuginfo *di, const char *name, const char *file_glob)
{
	return di->ops->global ? di->ops->global(di, name, file_glob) : NULL;
}

uint64_t dbg_prologue_end(struct debuginfo *di, struct dbg_func *f)
{
	if (di->prologue == DBG_PROLOGUE_NEVER || !di->ops->prologue_end || f->inlined)
		return f->addr;
	return di->ops->prologue_end(di, f, di->prologue == DBG_PROLOGUE_ALWAYS);
}

int dbg_func_lines(struct debuginfo *di, const char *name, bool whole_cu, int max_rows, struct vec *out)
{
	return di->ops->func_lines ? di->ops->func_lines(di, name, whole_cu, max_rows, out) : 0;
}

void dbg_func_starts(struct debuginfo *di, const char *section, struct vec *out)
{
	if (di->ops->func_starts)
		di->ops->func_starts(di, section, out);
}

bool dbg_same_section(struct debuginfo *di, uint64_t a, uint64_t b)
{
	return !di->ops->same_section || di->ops->same_section(di, a, b);
}

struct dbg_type *dbg_type_new(struct debuginfo *di, enum dbg_type_kind kind, const char *name, uint64_t handle)
{
	struct dbg_type *t = ast_alloc(sizeof(*t));
	t->kind = kind;
	t->name = name && *name ? name : NULL;
	t->di = di;
	t->handle = handle;
	return t;
}

struct dbg_type *dbg_type_strip(struct dbg_type *t)
{
	while (t && (t->kind == DBG_TYPEDEF || t->kind == DBG_CONST || t->kind == DBG_VOLATILE))
		t = t->target;
	return t;
}

const struct vec *dbg_type_members(struct dbg_type *t)
{
	if (!t->members_loaded) {
		t->members_loaded = true;
		t->di->ops->load_members(t->di, t);
	}
	return &t->members;
}

struct dbg_member *dbg_member_find(struct dbg_type *t, const char *name, uint64_t *offset)
{
	t = dbg_type_strip(t);
	if (!t || (t->kind != DBG_STRUCT && t->kind != DBG_UNION))
		return NULL;
	const struct vec *members = dbg_type_members(t);
	for (int i = 0; i < members->n; i++) {
		struct dbg_member *m = members->items[i];
		if (m->name && !strcmp(m->name, name)) {
			*offset += m->offset;
			return m;
		}
	}
	/* anonymous struct and union members: their members are the outer type's */
	for (int i = 0; i < members->n; i++) {
		struct dbg_member *m = members->items[i];
		if (m->name)
			continue;
		uint64_t inner = *offset + m->offset;
		struct dbg_member *found = dbg_member_find(m->type, name, &inner);
		if (found) {
			*offset = inner;
			return found;
		}
	}
	return NULL;
}

/* Text of t with the declarator suffix built up in suffix (pointers, arrays). */
static const char *type_text(struct dbg_type *t, int depth)
{
	if (!t)
		return "void";
	if (depth > 16)
		return "...";
	switch (t->kind) {
	case DBG_VOID:
		return "void";
	case DBG_INT:
	case DBG_FLOAT:
	case DBG_TYPEDEF:
		return t->name ? t->name : "<anonymous>";
	case DBG_ENUM:
		return ast_printf("enum %s", t->name ? t->name : "<anonymous>");
	case DBG_STRUCT:
		return ast_printf("struct %s", t->name ? t->name : "<anonymous>");
	case DBG_UNION:
		return ast_printf("union %s", t->name ? t->name : "<anonymous>");
	case DBG_FUNC:
		return "function";
	case DBG_PTR:
		if (t->target && dbg_type_strip(t->target) && dbg_type_strip(t->target)->kind == DBG_FUNC)
			return "function*";
		return ast_printf("%s*", type_text(t->target, depth + 1));
	case DBG_ARRAY:
		return ast_printf("%s[%llu]", type_text(t->target, depth + 1), (unsigned long long)t->nelems);
	case DBG_CONST:
		return ast_printf("const %s", type_text(t->target, depth + 1));
	case DBG_VOLATILE:
		return ast_printf("volatile %s", type_text(t->target, depth + 1));
	}
	return "?";
}

const char *dbg_type_text(struct dbg_type *t)
{
	return type_text(t, 0);
}

bool dbg_type_is_scalar(struct dbg_type *t)
{
	t = dbg_type_strip(t);
	return t && (t->kind == DBG_INT || t->kind == DBG_ENUM || t->kind == DBG_PTR) && t->size >= 1 && t->size <= 8;
}

bool dbg_glob_match(const char *pattern, const char *name)
{
	return fnmatch(pattern, name, 0) == 0;
}

bool dbg_is_glob(const char *pattern)
{
	return strpbrk(pattern, "*?[") != NULL;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

bool dbg_is_exported(struct debuginfo *di, const char *name)
{
	if (!di->exported.n)
		return false;
	return bsearch(&name, di->exported.items, (size_t)di->exported.n, sizeof(void *), compare_names) != NULL;
}

/*
 * The calling convention at a function's first instruction: x86-64 SysV
 * passes integer-class arguments of up to 8 bytes in rdi, rsi, rdx, rcx,
 * r8, r9 in order, arm64's AAPCS64 in x0..x7; floating-point ones in
 * vector registers (unreadable here, and they take no integer register).
 * Integer-class arguments past the registers are on the stack, one 8-byte
 * slot each in order, the value at the slot's low address: on x86-64 the
 * first just above the return address the call pushed (sp + 8), on arm64
 * at sp (the return address is in x30). Anything else (a struct by value,
 * more floating-point arguments than vector registers, which spill to the
 * stack too) stops the assignment, since the later arguments' places
 * become uncertain.
 */
void dbg_abi_locate(const struct debuginfo *di, struct vec *vars)
{
	static const int x86_regs[] = {DBG_REG_DI, DBG_REG_SI, DBG_REG_DX, DBG_REG_CX, DBG_REG_R8, DBG_REG_R8 + 1};
	static const int arm64_regs[] = {0, 1, 2, 3, 4, 5, 6, 7};
	bool arm64 = di && di->arm64;
	const int *arg_regs = arm64 ? arm64_regs : x86_regs;
	int nregs = arm64 ? 8 : 6, nvector = 8, floats = 0;
	int sp = arm64 ? 31 : DBG_REG_SP;
	int64_t slot = arm64 ? 0 : 8;	/* the next stack argument's offset from sp */
	int next = 0;
	const char *stop = NULL;
	for (int i = 0; i < vars->n; i++) {
		struct dbg_var *v = vars->items[i];
		if (!v->is_param)
			continue;
		struct dbg_type *t = dbg_type_strip(v->type);
		if (!stop && t && t->kind == DBG_FLOAT && ++floats > nvector)
			stop = "on the stack after more floating-point arguments than vector registers";
		if (stop) {
			v->loc = (struct dbg_loc){.kind = DBG_LOC_NONE, .reg = -1, .why = stop};
		} else if (t && t->kind == DBG_FLOAT) {
			v->loc = (struct dbg_loc){.kind = DBG_LOC_NONE, .reg = -1, .why = "passed in a floating-point register"};
		} else if (dbg_type_is_scalar(t) && next < nregs) {
			v->loc = (struct dbg_loc){.kind = DBG_LOC_REG, .reg = arg_regs[next++]};
		} else if (dbg_type_is_scalar(t)) {
			v->loc = (struct dbg_loc){.kind = DBG_LOC_MEMORY, .reg = sp, .offset = slot};
			slot += 8;
		} else {
			stop = "passed by value as a struct: its registers are not known without DWARF locations";
			v->loc = (struct dbg_loc){.kind = DBG_LOC_NONE, .reg = -1, .why = stop};
		}
	}
}
