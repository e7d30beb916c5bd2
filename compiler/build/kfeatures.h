/* kfeatures.h - the compat layer's compiler half: named features of the target kernel, detected once per build tree. */
#ifndef STAPC_KFEATURES_H
#define STAPC_KFEATURES_H

#include "session.h"

#define KFEATURES_HEADER "stp_kfeatures.h" /* the generated header's name in the module's directory */

/*
 * The text of stp_kfeatures.h for the session's kernel build tree (-r):
 * one "#define STP_HAVE_X 1" per feature the tree offers, a comment for
 * each one it lacks. Read from the cache when a valid entry for this very
 * tree is there, else detected and stored. NULL after a message when the
 * tree cannot be read at all.
 */
const char *kfeatures_text(struct session *s);

/* --dump-kfeatures: print kfeatures_text for -r; the exit status. */
int kfeatures_dump(struct session *s);

#endif
