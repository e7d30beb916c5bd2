/* The program of kernel_callees_depth.c for kernel_callees_matchall.stp, with a file of its own. */
#define TEST_FILE "/tmp/kernel_callees_matchall.txt"
#include "kernel_callees_depth.c"
