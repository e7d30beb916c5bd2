/* build.h - pass 4: the module built by kbuild against the target's headers, through the cache. */
#ifndef STAPC_BUILD_H
#define STAPC_BUILD_H

#include "session.h"

/* Build s->c_file into s->ko_path (and NAME.ko here at -p4); false after a message. */
bool build_module(struct session *s);

#endif
