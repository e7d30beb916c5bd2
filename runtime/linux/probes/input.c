/* input.c - input.char and input.line probes: the bytes of stapio's stdin, sent with the INPUT command. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

/* stapio reads its stdin only for a module that says it has input probes (one without has no such parameter). */
static int _stp_has_input = 1;
module_param(_stp_has_input, int, 0444);
MODULE_PARM_DESC(_stp_has_input, "1 if the script has input.char or input.line probes (read only)");

/* $value: the hit's byte or line, a NUL-terminated string (hit_data). */
static char *_stp_input_value(struct _stp_context *c)
{
	return c->hit_data;
}

#ifdef STP_HAVE_INPUT

static DEFINE_MUTEX(_stp_input_mutex);		/* one INPUT at a time: guards the line below */
static char _stp_input_line[MAXSTRINGLEN];	/* the line read so far, NUL-terminated */
static size_t _stp_input_line_len;		/* its bytes */
static char _stp_input_char[2];			/* input.char's $value */

/* Run every probe of one kind (line or char) with $value text. */
static void _stp_input_run(int line, char *text)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_input_probes); i++)
		if (_stp_input_probes[i].line == line)
			_stp_run_probe_data(_stp_input_probes[i].probe, NULL, NULL, text);
}

static void _stp_input_line_done(void)
{
	_stp_input_line[_stp_input_line_len] = '\0';
	_stp_input_run(1, _stp_input_line);
	_stp_input_line_len = 0;
}

/*
 * Hook (the .cmd write of INPUT, stapio's process context): each byte
 * runs the input.char probes, each newline (or a line that fills
 * MAXSTRINGLEN-1 bytes) the input.line probes; an empty INPUT is the end
 * of input, which hands over a last line without its newline. The runner
 * runs the bodies only while the session is RUNNING.
 */
static int _stp_input_feed(const char *buf, size_t len)
{
	size_t i;

	mutex_lock(&_stp_input_mutex);
	if (!len && _stp_input_line_len)
		_stp_input_line_done();
	for (i = 0; i < len; i++) {
		_stp_input_char[0] = buf[i];
		_stp_input_run(0, _stp_input_char);
		_stp_input_line[_stp_input_line_len++] = buf[i];
		if (buf[i] == '\n' || _stp_input_line_len == MAXSTRINGLEN - 1)
			_stp_input_line_done();
	}
	mutex_unlock(&_stp_input_mutex);
	return 0;
}

#endif

#endif /* STP_FAMILY_DECLS */
