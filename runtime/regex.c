/* regex.c - what the translator's generated regex matchers share: thread-list pushes, and the probe hit's last match for matched() and ngroups(). */

/*
 * A thread list (see compiler/elaborate/regex.c) is l[0] = count, then count entries
 * of 1 + ncaps words: the state, then the capture offsets. mark[state]
 * holds the generation of the list the state was last added to, so a
 * state is on a list at most once: the lists never hold more entries than
 * the matcher has states, and the first (highest-priority) thread to reach
 * a state keeps it.
 */
static int32_t *_stp_regex_push(int32_t *l, int32_t *mark, int32_t gen, int state,
				const int32_t *caps, int ncaps)
{
	int32_t *e;

	if (mark[state] == gen)
		return NULL;
	mark[state] = gen;
	e = l + 1 + l[0] * (ncaps + 1);
	l[0]++;
	e[0] = state;
	memcpy(e + 1, caps, (size_t)ncaps * sizeof(int32_t));
	return e + 1;
}

static void _stp_regex_record(struct _stp_context *c, const char *s, int matched, int ngroups,
			      const int32_t *caps)
{
	struct _stp_regex_match *m = &c->regex;

	m->valid = matched;
	if (!matched)
		return;
	if (ngroups > STP_REGEX_MAX_GROUPS)
		ngroups = STP_REGEX_MAX_GROUPS;
	m->ngroups = ngroups;
	memcpy(m->caps, caps, (size_t)(2 * (ngroups + 1)) * sizeof(int32_t));
	_stp_strlcpy(m->subject, s);
}

static const char *_stp_regex_matched(struct _stp_context *c, int64_t n, char *out)
{
	struct _stp_regex_match *m = &c->regex;
	int32_t start, end;

	if (!m->valid)
		return "matched() without a successful regex match";
	if (n < 0 || n > m->ngroups)
		return "matched(): no such group in the last regex";
	start = m->caps[2 * n];
	end = m->caps[2 * n + 1];
	if (start < 0 || end < start) {
		out[0] = '\0';	/* a group that took no part in the match */
		return NULL;
	}
	memcpy(out, m->subject + start, (size_t)(end - start));
	out[end - start] = '\0';
	return NULL;
}

static const char *_stp_regex_ngroups(struct _stp_context *c, int64_t *out)
{
	if (!c->regex.valid)
		return "ngroups() without a successful regex match";
	*out = c->regex.ngroups;
	return NULL;
}
