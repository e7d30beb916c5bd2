/*
 * build_as.h - --build-as=USER (SystemTap 5.1): passes 1-4 in a child
 * process running as USER, pass 5 in stap itself, as root.
 */
#ifndef STAPC_BUILD_AS_H
#define STAPC_BUILD_AS_H
#include "session.h"

/* What build_as_compile's compile returns when pass 5 should follow. */
#define BUILD_AS_CONTINUE (-1)

/* With --build-as: stap runs as root, USER exists, no --remote or --use-server; false after a message. */
bool build_as_check(struct session *s);

/*
 * Run compile (passes 1 to 4, or fewer with -p) in a child that has
 * become USER for good; its exit status, or BUILD_AS_CONTINUE with the
 * child's module (s->ko_path, s->module_name) and its temporary
 * directory taken over by this process, removed at exit.
 */
int build_as_compile(struct session *s, int (*compile)(struct session *s));
#endif
