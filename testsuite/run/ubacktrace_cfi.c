/* A call chain main -> top -> middle -> leaf -> getppid() for user backtraces: fileline.c's program, built as ubacktrace_cfi.cflags says. */
#include "fileline.c"
