/* privilege.h - --privilege levels (man stap, UNPRIVILEGED USERS): options and the pass-2 check. */
#ifndef STAPC_PRIVILEGE_H
#define STAPC_PRIVILEGE_H

#include "session.h"

/*
 * After the command line: a non-root user outside stapdev running pass 5
 * without --privilege gets their groups' level, and without --use-server the
 * default compile server if they are in stapusr; -g and SYSTEMTAP_RUNTIME and
 * friends are refused below stapdev (printed; false).
 */
bool privilege_configure(struct session *s);
/* Pass 2, after resolution: report each probe point, function or kernel access the level forbids. */
bool privilege_check(struct session *s);

#endif
