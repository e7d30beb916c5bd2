/* unit_syscall_decode.h - shared by the two halves of the decoder tables' unit test. */
#ifndef STP_UNIT_SYSCALL_DECODE_H
#define STP_UNIT_SYSCALL_DECODE_H

#include <stdio.h>
#include <string.h>

/* A header's name and value as a table entry. */
#define E(x) {(long)(x), #x}

/*
 * Do table t (ours) and want (built from the headers) hold the same entries?
 * Prints each difference.
 */
static inline int same_table(const char *what, const struct _stp_sym *t, int n,
			     const struct _stp_sym *want, int m)
{
	int ok = 1;

	for (int i = 0; i < m; i++) {
		int found = 0;
		for (int j = 0; j < n; j++)
			if (t[j].value == want[i].value && !strcmp(t[j].name, want[i].name))
				found = 1;
		if (!found) {
			fprintf(stderr, "%s: header has %s = %#lx, the table does not\n", what, want[i].name,
				(unsigned long)want[i].value);
			ok = 0;
		}
	}
	if (n != m) {
		fprintf(stderr, "%s: the table has %d entries, the headers checked %d\n", what, n, m);
		ok = 0;
	}
	return ok;
}

/* The glibc half: the number of tables that differ. */
int test_libc_tables(void);

#endif
