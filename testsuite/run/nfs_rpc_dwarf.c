/* The program of run/nfs_rpc, for the DWARF variant of its test. */
#include "nfs_rpc.c"
