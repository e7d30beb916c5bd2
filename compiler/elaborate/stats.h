/* stats.h - the statistics rules types.c does not cover (stats.c). */
#ifndef STAPC_STATS_H
#define STAPC_STATS_H

#include "session.h"

/* stats.c: statistics rules types.c does not cover: globals only, literal parameters, one histogram per global. */
bool stats_check(struct session *s);

#endif
