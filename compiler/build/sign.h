/* sign.h - stap --sign-module: a Machine Owner Key signature on the built module (sign.c). */
#ifndef STAPC_SIGN_H
#define STAPC_SIGN_H

#include "session.h"

/* Sign ko in place with the key in s->sign_key_dir (made if absent); false after a message. */
bool sign_module(struct session *s, const char *ko);

#endif
