/* unit.h - a minimal check harness for the runtime's user-space unit tests. */
#ifndef STP_UNIT_H
#define STP_UNIT_H

#include <stdio.h>

static int unit_failures;	/* checks failed so far */
static int unit_checks;		/* checks run so far */

#define CHECK(cond)                                                                  \
	do {                                                                         \
		unit_checks++;                                                       \
		if (!(cond)) {                                                       \
			unit_failures++;                                             \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,       \
				__LINE__, #cond);                                    \
		}                                                                    \
	} while (0)

#define CHECK_STR(got, want)                                                         \
	do {                                                                         \
		const char *g_ = (got), *w_ = (want);                                \
		unit_checks++;                                                       \
		if (strcmp(g_, w_) != 0) {                                           \
			unit_failures++;                                             \
			fprintf(stderr, "%s:%d: got \"%s\", want \"%s\"\n", __FILE__, \
				__LINE__, g_, w_);                                   \
		}                                                                    \
	} while (0)

/* Print the tally; the exit status of a test program. */
static inline int unit_report(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, unit_checks, unit_failures);
	return unit_failures ? 1 : 0;
}

#endif
