/* options.h - the stap command line ($SYSTEMTAP_DIR/rc, then argv) into a session. */
#ifndef STAPC_OPTIONS_H
#define STAPC_OPTIONS_H

#include "session.h"

/*
 * Fill s from $SYSTEMTAP_DIR/rc (default ~/.systemtap/rc: options, read
 * first) and argv, the way SystemTap reads them: options may come before and
 * after the script file (GNU order), and only "--" ends them, so a script
 * argument that looks like an option goes after "--". Also reads the
 * SYSTEMTAP_* environment (docs/stap.md). Returns -1 when the run goes on,
 * else the exit status to end with (after --help, -V, a usage error...).
 */
int options_parse(struct session *s, int argc, char **argv);

/* The directory holding this executable (for staprun, stapio, stapvm and data). */
const char *options_exe_dir(void);

#endif
