/* The program of run/process_data, started before the session (see process_data.c). */
#include "process_data.c"
