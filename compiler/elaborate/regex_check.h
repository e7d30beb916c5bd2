/* regex_check.h - bad regular expressions reported in pass 2 (regex_check.c). */
#ifndef STAPC_REGEX_CHECK_H
#define STAPC_REGEX_CHECK_H

#include "session.h"

/* regex_check.c: compile every =~ / !~ pattern, reporting bad ones. */
bool regex_elaborate(struct session *s);

#endif
