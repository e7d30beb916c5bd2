/*
 * unit_regex.c - the translator's regex compiler against glibc: every
 * pattern of regex_corpus.txt was compiled by compiler/elaborate/regex.c into C
 * (regex_cases.c, written by regex_gen at build time); each matcher runs
 * here on its subjects and must agree with regcomp/regexec(REG_EXTENDED):
 * match or not, the overall match, and each group's offsets (unless the
 * pattern is marked as one where POSIX subexpression rules and priority
 * order differ). Patterns marked for rejection must have been refused.
 */
#include <regex.h>

#include "kshim.h"
#include "runtime_api.h"
#include "string.c"
#include "regex.c"
#include "unit.h"

int shim_fail_countdown;
long shim_live_allocations;

struct regex_case {
	const char *pattern;
	int (*match)(const char *s, int32_t *work, int32_t *caps);
	int ngroups;
	int span_only;          /* compare group 0 only */
	int must_reject;        /* marked '!' in the corpus */
	int rejected;           /* the compiler refused it */
	int work_words;         /* scratch the matcher needs */
	const char *subjects[16];
};

#include "regex_cases.c"

static int32_t work[65536];

static void check_case(const struct regex_case *rc)
{
	regex_t re;

	if (rc->must_reject || rc->rejected) {
		CHECK(rc->must_reject && rc->rejected);
		if (!(rc->must_reject && rc->rejected))
			fprintf(stderr, "  pattern \"%s\": must_reject=%d rejected=%d\n", rc->pattern, rc->must_reject,
				rc->rejected);
		return;
	}
	if (regcomp(&re, rc->pattern, REG_EXTENDED) != 0) {
		CHECK(!"glibc rejects a corpus pattern");
		fprintf(stderr, "  glibc rejects \"%s\"\n", rc->pattern);
		return;
	}
	for (int i = 0; rc->subjects[i]; i++) {
		const char *s = rc->subjects[i];
		regmatch_t pm[REGEX_TEST_MAX_GROUPS + 1];
		int32_t caps[2 * (REGEX_TEST_MAX_GROUPS + 1)];
		int want = regexec(&re, s, (size_t)rc->ngroups + 1, pm, 0) == 0;
		int got = rc->match(s, work, caps);
		int groups = rc->span_only ? 0 : rc->ngroups;
		int same = want == got;

		for (int g = 0; same && want && g <= groups; g++)
			same = pm[g].rm_so == caps[2 * g] && pm[g].rm_eo == caps[2 * g + 1];
		CHECK(same);
		if (!same) {
			fprintf(stderr, "  \"%s\" on \"%s\": glibc %s", rc->pattern, s, want ? "" : "no match");
			for (int g = 0; want && g <= rc->ngroups; g++)
				fprintf(stderr, " (%d,%d)", (int)pm[g].rm_so, (int)pm[g].rm_eo);
			fprintf(stderr, ", generated %s", got ? "" : "no match");
			for (int g = 0; got && g <= rc->ngroups; g++)
				fprintf(stderr, " (%d,%d)", caps[2 * g], caps[2 * g + 1]);
			fputc('\n', stderr);
		}
		if (rc->span_only && want && got)
			printf("  priority groups for \"%s\" on \"%s\" (glibc/generated):", rc->pattern, s);
		for (int g = 1; rc->span_only && want && got && g <= rc->ngroups; g++)
			printf(" (%d,%d)/(%d,%d)", (int)pm[g].rm_so, (int)pm[g].rm_eo, caps[2 * g], caps[2 * g + 1]);
		if (rc->span_only && want && got)
			putchar('\n');
	}
	regfree(&re);
}

/* Strings longer than MAXSTRINGLEN are read only up to MAXSTRINGLEN - 1 bytes, like the module's strings. */
static void check_bound(void)
{
	static char long_s[MAXSTRINGLEN + 100];

	memset(long_s, 'a', sizeof(long_s) - 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int32_t caps[2 * (REGEX_TEST_MAX_GROUPS + 1)];
		if (strcmp(cases[i].pattern, "a+") == 0 && cases[i].match) {
			CHECK(cases[i].match(long_s, work, caps) == 1);
			CHECK(caps[0] == 0 && caps[1] == MAXSTRINGLEN - 1);
		}
	}
}

int main(void)
{
	int patterns = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(cases[i].work_words <= (int)(sizeof(work) / sizeof(work[0])));
		check_case(&cases[i]);
		patterns++;
	}
	check_bound();
	printf("unit_regex: %d patterns\n", patterns);
	return unit_report("unit_regex");
}
