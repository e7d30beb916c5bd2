/* The program of ctx_function.c for ctx_function_btf.stp, reading a file of its own. */
#define SELF "/work/ctx_function_btf"
#include "ctx_function.c"
