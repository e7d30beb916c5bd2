/* trace_recursion.h - fake: the file only has to exist */
