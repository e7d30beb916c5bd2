/* relay.c - the output transport: per-CPU relay buffers in debugfs; no-overwrite, or overwrite the oldest in flight recorder mode. */

#include <linux/relay.h>
#include <linux/debugfs.h>

/*
 * One relay channel with a buffer per CPU, shown as trace<cpu> next to
 * .cmd. Normally a full buffer is never overwritten: the write is dropped
 * and counted, and reported to stapio at the end. Sub-buffers are larger
 * than any record (header + STP_PRINT_BUF_SIZE), so a record spans at
 * most two of them.
 *
 * Flight recorder mode (_stp_flightrec, set by staprun -L) keeps the
 * newest output instead: while no stapio has .cmd open, a full buffer
 * overwrites its oldest sub-buffer, and relay's read() then starts at the
 * oldest one left. For that every sub-buffer starts with a record: records
 * never span two, each takes a multiple of 8 bytes (STP_RECORD_PADDED) and
 * the rest of a sub-buffer too small for the next is one filler record
 * (STP_RECORD_FILL). The records of each overwritten sub-buffer are
 * counted (_stp_relay_overwritten) and reported at the end. While a
 * stapio is attached, full buffers drop new records as in the normal mode:
 * relay cannot move a reader that is part-way through a sub-buffer, so
 * overwriting under it would hand it half a record.
 */

#define STP_RELAY_SUBBUF_SIZE (64 * 1024) /* bytes per sub-buffer */
#define STP_RELAY_DEFAULT_MB 1		   /* per-CPU size when staprun gives none */
#define STP_RELAY_MAX_MB 1024		   /* largest per-CPU size accepted */

static unsigned int _stp_bufsize;	/* MB per CPU, module parameter (staprun -s) */
module_param(_stp_bufsize, uint, 0400);
MODULE_PARM_DESC(_stp_bufsize, "relay buffer size per CPU in MB (0: default)");

static int _stp_flightrec;		/* flight recorder mode, module parameter (staprun -L) */
module_param(_stp_flightrec, int, 0444);
MODULE_PARM_DESC(_stp_flightrec, "1: keep the newest output while detached (staprun -L)");

static struct rchan *_stp_relay_chan;		/* the channel, NULL until init */
static atomic64_t _stp_relay_dropped = ATOMIC64_INIT(0); /* records lost to full buffers */
static atomic64_t _stp_relay_overwritten = ATOMIC64_INIT(0); /* flight mode: records overwritten */
static atomic_t _stp_record_seq = ATOMIC_INIT(0);	  /* last seq handed to a record */
static bool _stp_relay_attached;	/* a stapio has .cmd open (flight mode: do not overwrite) */

/* Flight mode: count the records of the sub-buffer about to be overwritten (bounded: 8 bytes each at least). */
static void _stp_relay_count_overwritten(const char *subbuf, size_t size)
{
	size_t pos = 0;
	u64 records = 0;

	while (pos + sizeof(struct _stp_record_hdr) <= size) {
		const struct _stp_record_hdr *hdr = (const void *)(subbuf + pos);
		u32 len = hdr->len & ~(STP_RECORD_PADDED | STP_RECORD_FILL | STP_RECORD_SWITCH_FILE);

		if (!(hdr->len & STP_RECORD_FILL) && !(hdr->len & STP_RECORD_SWITCH_FILE))
			records++;
		pos += ALIGN(sizeof(*hdr) + len, 8);
	}
	atomic64_add(records, &_stp_relay_overwritten);
}

/* Switching to a new sub-buffer: refuse when all are unread (the writer checks first), unless flight mode overwrites. */
static int _stp_relay_subbuf_start(struct rchan_buf *buf, void *subbuf,
				   void *prev_subbuf, size_t prev_padding)
{
	if (relay_buf_full(buf)) {
		if (_stp_flightrec && !READ_ONCE(_stp_relay_attached)) {
			_stp_relay_count_overwritten(subbuf, buf->chan->subbuf_size);
			return 1;
		}
		atomic64_inc(&_stp_relay_dropped);
		return 0;
	}
	return 1;
}

/*
 * A stapio opened (true) or closed (false) .cmd. Process context. Once
 * this returns after an attach, no writer overwrites any more: writers run
 * with interrupts off, which synchronize_rcu() waits out.
 */
static void _stp_relay_reader(bool attached)
{
	WRITE_ONCE(_stp_relay_attached, attached);
	if (attached && _stp_flightrec)
		synchronize_rcu();
}

static struct dentry *_stp_relay_create_file(const char *filename, struct dentry *parent,
					     umode_t mode, struct rchan_buf *buf,
					     int *is_global)
{
	struct dentry *d = debugfs_create_file(filename, mode, parent, buf,
					       &relay_file_operations);

	return IS_ERR(d) ? NULL : d;
}

static int _stp_relay_remove_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static const struct rchan_callbacks _stp_relay_callbacks = {
	.subbuf_start = _stp_relay_subbuf_start,
	.create_buf_file = _stp_relay_create_file,
	.remove_buf_file = _stp_relay_remove_file,
};

static int _stp_relay_init(void)
{
	unsigned int mb = _stp_bufsize ? min_t(unsigned int, _stp_bufsize, STP_RELAY_MAX_MB)
				       : STP_RELAY_DEFAULT_MB;
	size_t n_subbufs = max_t(size_t, 2, ((size_t)mb << 20) / STP_RELAY_SUBBUF_SIZE);

	BUILD_BUG_ON(sizeof(struct _stp_record_hdr) + STP_PRINT_BUF_SIZE >
		     STP_RELAY_SUBBUF_SIZE);
	_stp_relay_chan = relay_open(STP_RELAY_BASENAME, _stp_module_dir,
				     STP_RELAY_SUBBUF_SIZE, n_subbufs,
				     &_stp_relay_callbacks, NULL);
	return _stp_relay_chan ? 0 : -ENOMEM;
}

static void _stp_relay_exit(void)
{
	if (_stp_relay_chan)
		relay_close(_stp_relay_chan);
	_stp_relay_chan = NULL;
}

/*
 * Flight mode: write the record whole into this CPU's current sub-buffer,
 * or first fill the rest of that one with a filler record and go on in
 * the next (overwriting the oldest while detached, see above). Every
 * record takes a multiple of 8 bytes, so the rest is always either 0 or
 * room for a filler's header.
 */
static void _stp_transport_write_flight(struct rchan_buf *buf, struct _stp_record_hdr *hdr,
					size_t text_len, u32 rec_flags)
{
	size_t length = ALIGN(sizeof(*hdr) + text_len, 8);
	size_t size = _stp_relay_chan->subbuf_size;
	size_t room = buf->offset <= size ? size - buf->offset : 0;

	if (length > room) {
		if (READ_ONCE(_stp_relay_attached) &&
		    buf->subbufs_produced + 1 - READ_ONCE(buf->subbufs_consumed) >=
		    _stp_relay_chan->n_subbufs) {
			atomic64_inc(&_stp_relay_dropped);
			return;
		}
		if (room) {
			struct _stp_record_hdr fill = {
				.seq = 0,
				.len = (u32)(room - sizeof(fill)) | STP_RECORD_FILL,
			};

			memcpy(buf->data + buf->offset, &fill, sizeof(fill));
			smp_wmb();
			buf->offset = size;
		}
		if (!relay_switch_subbuf(buf, length))
			return;	/* refused: counted by the callback */
	}
	hdr->seq = (u32)atomic_inc_return(&_stp_record_seq);
	hdr->len = text_len | rec_flags | STP_RECORD_PADDED;
	memcpy(buf->data + buf->offset, hdr, sizeof(*hdr) + text_len);
	smp_wmb();	/* the bytes before the offset that publishes them */
	buf->offset += length;
}

/*
 * Write the record whose header is hdr and whose text_len bytes of text
 * follow it in memory, into this CPU's buffer, or drop it whole.
 *
 * Records are written as one byte stream that fills every sub-buffer to
 * the last byte, a record continuing in the next sub-buffer when it does
 * not fit; relay never pads. This matters: relay's read() mishandles a
 * reader that has caught up with the writer in a sub-buffer which is then
 * closed with padding (it re-reads the next sub-buffer from its start).
 * With no padding that path is never taken, and stapio reassembles the
 * records from the stream anyway. (Flight mode fills the rest of a
 * sub-buffer with a filler record instead, for the same reason.)
 *
 * Whether the record fits is decided before anything is written: the
 * rest of the current sub-buffer, plus one more if relay has one free (a
 * record is smaller than a sub-buffer). The sequence number is taken in
 * the same interrupts-off section, after that check, so a dropped record
 * consumes no seq and stapio sees a gap only while a copy is under way.
 */
static void _stp_transport_write(struct _stp_record_hdr *hdr, size_t text_len, u32 rec_flags)
{
	size_t length = sizeof(*hdr) + text_len, done = 0, size, room;
	const char *src = (const char *)hdr;
	struct rchan_buf *buf;
	unsigned long flags;

	BUILD_BUG_ON(offsetof(struct _stp_print_buf, text) !=
		     offsetof(struct _stp_print_buf, hdr) + sizeof(struct _stp_record_hdr));
	BUILD_BUG_ON(STP_PRINT_BUF_SIZE > STP_RECORD_MAX);
	BUILD_BUG_ON(STP_RELAY_SUBBUF_SIZE % 8);
	local_irq_save(flags);
	buf = *this_cpu_ptr(_stp_relay_chan->buf);
	if (_stp_flightrec) {
		_stp_transport_write_flight(buf, hdr, text_len, rec_flags);
		goto out;
	}
	size = _stp_relay_chan->subbuf_size;
	room = buf->offset <= size ? size - buf->offset : 0;
	if (length > room &&
	    buf->subbufs_produced + 1 - READ_ONCE(buf->subbufs_consumed) >=
	    _stp_relay_chan->n_subbufs) {
		atomic64_inc(&_stp_relay_dropped);
		goto out;
	}
	hdr->seq = (u32)atomic_inc_return(&_stp_record_seq);
	hdr->len = text_len | rec_flags;
	while (done < length) {
		size_t chunk;

		if (buf->offset >= size &&
		    !relay_switch_subbuf(buf, min(length - done, size)))
			break;	/* cannot happen: checked above */
		chunk = min(length - done, size - buf->offset);
		memcpy(buf->data + buf->offset, src + done, chunk);
		smp_wmb();	/* the bytes before the offset that publishes them */
		buf->offset += chunk;
		done += chunk;
	}
	/*
	 * A sub-buffer just filled to its last byte is handed over at once when
	 * a next one is free, not at the next write: a reader that caught up
	 * with the writer at the very end of a sub-buffer relay has not yet
	 * switched is the case relay's read() mishandles (it then re-reads or
	 * skips bytes, and stapio sees a torn record). stapio reads as soon as
	 * relay wakes it, so it does catch up.
	 */
	if (buf->offset == size &&
	    buf->subbufs_produced + 1 - READ_ONCE(buf->subbufs_consumed) < _stp_relay_chan->n_subbufs)
		relay_switch_subbuf(buf, 0);
out:
	local_irq_restore(flags);
}

static u64 _stp_relay_dropped_count(void)
{
	return atomic64_read(&_stp_relay_dropped);
}

static u64 _stp_relay_overwritten_count(void)
{
	return atomic64_read(&_stp_relay_overwritten);
}

/* The seq of the last record handed out (system() waits for the output up to it). */
static __maybe_unused u32 _stp_relay_last_seq(void)
{
	return (u32)atomic_read(&_stp_record_seq);
}
