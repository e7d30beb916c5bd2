/* print.c - per-CPU output buffers: a probe hit's output is collected, then flushed as one relay record. */

/*
 * Each CPU has one buffer. Only the probe running on that CPU (the runner
 * guarantees one at a time, with preemption off) appends to it, so no
 * lock is needed. The record header is kept in front of the text, so a
 * flush hands one contiguous block to the transport. When an append
 * would overflow the buffer in the middle of a probe, what is there is
 * flushed first; text longer than a whole buffer is truncated.
 */

struct _stp_print_buf {
	u32 len;		/* bytes of text after the header */
	struct _stp_record_hdr hdr; /* filled in at flush time */
	char text[STP_PRINT_BUF_SIZE + 1]; /* output, plus room for vsnprintf's NUL */
};

static struct _stp_print_buf __percpu *_stp_print_bufs;

/* Writes one record to this CPU's relay buffer (linux/transport/relay.c); flags: 0 or STP_RECORD_SWITCH_FILE. */
static void _stp_transport_write(struct _stp_record_hdr *hdr, size_t text_len, u32 flags);

static int _stp_print_init(void)
{
	_stp_print_bufs = alloc_percpu(struct _stp_print_buf);
	return _stp_print_bufs ? 0 : -ENOMEM;
}

static void _stp_print_free(void)
{
	free_percpu(_stp_print_bufs);
	_stp_print_bufs = NULL;
}

static void _stp_print_flush(void)
{
	struct _stp_print_buf *pb = this_cpu_ptr(_stp_print_bufs);

	if (!pb->len)
		return;
	_stp_transport_write(&pb->hdr, pb->len, 0);
	pb->len = 0;
}

/*
 * switch_file(): the output printed so far stays in the current output
 * file, what follows goes to the next one. The probe's output is flushed
 * first, then an empty record flagged STP_RECORD_SWITCH_FILE takes the
 * next seq, so stapio sees the switch exactly between the two, whatever
 * CPU prints next. Never blocks; if the relay buffer is full the marker
 * is dropped (and counted) like any record.
 */
static __maybe_unused void _stp_switch_file(void)
{
	struct _stp_record_hdr hdr;

	_stp_print_flush();
	_stp_transport_write(&hdr, 0, STP_RECORD_SWITCH_FILE);
}

static noinline void _stp_print_flush_out_of_line(void)
{
	_stp_print_flush();
}

/*
 * The probe runner's flush: the common case, nothing printed, is one
 * test, and the flush itself is out of line so that the runner inlined
 * into every handler stays small.
 */
static __always_inline void _stp_print_flush_if_any(void)
{
	if (unlikely(this_cpu_read(_stp_print_bufs->len)))
		_stp_print_flush_out_of_line();
}

/* Append n bytes, flushing whenever the buffer fills. */
static void _stp_print_bytes(const char *s, size_t n)
{
	struct _stp_print_buf *pb = this_cpu_ptr(_stp_print_bufs);

	while (n > 0) {
		size_t room = STP_PRINT_BUF_SIZE - pb->len;
		size_t chunk = n < room ? n : room;

		memcpy(pb->text + pb->len, s, chunk);
		pb->len += chunk;
		s += chunk;
		n -= chunk;
		if (pb->len == STP_PRINT_BUF_SIZE)
			_stp_print_flush();
	}
}

static void _stp_print(const char *s)
{
	_stp_print_bytes(s, strlen(s));
}

static void _stp_print_char(char ch)
{
	_stp_print_bytes(&ch, 1);
}

/* v in decimal as %llu prints it: the translator's plain %u (no vsnprintf). */
static __maybe_unused void _stp_print_u64(u64 v)
{
	char buf[20], *p = buf + sizeof(buf);	/* 18446744073709551615: 20 digits */

	do {
		*--p = '0' + v % 10;
		v /= 10;
	} while (v);
	_stp_print_bytes(p, buf + sizeof(buf) - p);
}

/* v in decimal as %lld prints it: the translator's plain %d and print()'s numbers. */
static __maybe_unused void _stp_print_s64(int64_t v)
{
	char buf[20], *p = buf + sizeof(buf);	/* -9223372036854775808: 20 characters */
	u64 u = v < 0 ? -(u64)v : (u64)v;

	do {
		*--p = '0' + u % 10;
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	_stp_print_bytes(p, buf + sizeof(buf) - p);
}

static void _stp_vprintf(const char *fmt, va_list ap)
{
	struct _stp_print_buf *pb = this_cpu_ptr(_stp_print_bufs);
	size_t room = STP_PRINT_BUF_SIZE - pb->len;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(pb->text + pb->len, room + 1, fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n <= room) {
		pb->len += n;
	} else if (pb->len > 0) {
		/* Did not fit: flush what came before and format again. */
		_stp_print_flush();
		n = vsnprintf(pb->text, STP_PRINT_BUF_SIZE + 1, fmt, again);
		pb->len = min_t(size_t, n < 0 ? 0 : n, STP_PRINT_BUF_SIZE);
	} else {
		pb->len = STP_PRINT_BUF_SIZE; /* alone too long: truncated */
	}
	va_end(again);
}

static void _stp_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_stp_vprintf(fmt, ap);
	va_end(ap);
}

static void _stp_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	if (size == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
}
