/* The program of run/process_data, built as a PIE (see process_data.c). */
#include "process_data.c"
