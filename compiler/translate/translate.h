/* translate.h - pass 3: the module's C from the elaborated program. */
#ifndef STAPC_TRANSLATE_H
#define STAPC_TRANSLATE_H

#include "session.h"

/* Write s->c_file; false after a diagnostic. */
bool translate(struct session *s);

#endif
