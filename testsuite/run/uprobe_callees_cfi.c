/* The program of uprobe_callees_depth.c for uprobe_callees_cfi.stp, built with other flags. */
#include "uprobe_callees_depth.c"
