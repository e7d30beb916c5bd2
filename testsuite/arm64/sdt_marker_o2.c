/* sdt_marker_o2.c - arm64/sdt_marker's program built with -O2 (sdt_marker_o2.cflags). */
#include "sdt_marker.c"
