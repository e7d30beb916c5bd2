/* relay.c - the output transport: per-CPU rings (ring.c), or relay buffers that overwrite the oldest in flight recorder mode. */

#include <linux/relay.h>
#include <linux/debugfs.h>

/*
 * The normal mode writes into the module's own ring per CPU (ring.c): a
 * full ring drops the new record and counts it, and a reader never sees
 * a record that is not whole. Flight recorder mode (_stp_flightrec, set
 * by staprun -L) uses one relay channel with a buffer per CPU, shown as
 * trace<cpu> next to .cmd like the rings, to keep the newest output
 * instead: while no stapio has .cmd open, a full buffer overwrites its
 * oldest sub-buffer, and relay's read() then starts at the oldest one
 * left. For that every sub-buffer starts with a record: records never
 * span two, each takes a multiple of 8 bytes (STP_RECORD_PADDED) and the
 * rest of a sub-buffer too small for the next is one filler record
 * (STP_RECORD_FILL). The records of each overwritten sub-buffer are
 * counted (_stp_relay_overwritten) and reported at the end. While a
 * stapio is attached, full buffers drop new records as in the normal
 * mode: relay cannot move a reader that is part-way through a
 * sub-buffer, so overwriting under it would hand it half a record.
 * Its files never report readable to poll(): stapio reads them once a
 * tick, as relay's read() mishandles a reader that catches up with the
 * writer at the end of a sub-buffer (the rings have no such case).
 */

#define STP_RELAY_SUBBUF_SIZE (64 * 1024) /* bytes per sub-buffer */
#define STP_RELAY_DEFAULT_MB 1		   /* per-CPU size (ring or relay) when staprun gives none */
#define STP_RELAY_MAX_MB 1024		   /* largest per-CPU size accepted */

static unsigned int _stp_bufsize;	/* MB per CPU, module parameter (staprun -s) */
module_param(_stp_bufsize, uint, 0400);
MODULE_PARM_DESC(_stp_bufsize, "output buffer size per CPU in MB (0: default)");

static int _stp_flightrec;		/* flight recorder mode, module parameter (staprun -L) */
module_param(_stp_flightrec, int, 0444);
MODULE_PARM_DESC(_stp_flightrec, "1: keep the newest output while detached (staprun -L)");

static struct rchan *_stp_relay_chan;		/* the channel, NULL until init */
static atomic64_t _stp_relay_dropped = ATOMIC64_INIT(0); /* flight mode: records lost to full buffers */
static atomic64_t _stp_relay_overwritten = ATOMIC64_INIT(0); /* flight mode: records overwritten */
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
				   void *prev_subbuf _STP_RELAY_SUBBUF_START_PADDING)
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

/* stapio polls its trace files; these are read once a tick (see above). */
static __poll_t _stp_relay_poll_never(struct file *file, poll_table *wait)
{
	return 0;
}

static struct file_operations _stp_relay_fops;	/* relay's, with _stp_relay_poll_never */

static struct dentry *_stp_relay_create_file(const char *filename, struct dentry *parent,
					     umode_t mode, struct rchan_buf *buf,
					     int *is_global)
{
	struct dentry *d = debugfs_create_file(filename, mode, parent, buf, &_stp_relay_fops);

	return IS_ERR(d) ? NULL : d;
}

static int _stp_relay_remove_file(struct dentry *dentry)
{
	debugfs_remove(dentry);
	return 0;
}

static _STP_RELAY_CALLBACKS_CONST struct rchan_callbacks _stp_relay_callbacks = {
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
	if (!_stp_flightrec)
		return _stp_ring_init((size_t)mb << 20);
	_stp_relay_fops = relay_file_operations;
	_stp_relay_fops.owner = THIS_MODULE;
	_stp_relay_fops.poll = _stp_relay_poll_never;
	_stp_relay_chan = relay_open(STP_RELAY_BASENAME, _stp_module_dir,
				     STP_RELAY_SUBBUF_SIZE, n_subbufs,
				     &_stp_relay_callbacks, NULL);
	return _stp_relay_chan ? 0 : -ENOMEM;
}

static void _stp_relay_exit(void)
{
	_stp_ring_exit();
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
 * follow it in memory into this CPU's ring (or relay buffer in flight
 * mode), or drop it whole.
 */
static void _stp_transport_write(struct _stp_record_hdr *hdr, size_t text_len, u32 rec_flags)
{
	unsigned long flags;

	BUILD_BUG_ON(offsetof(struct _stp_print_buf, text) !=
		     offsetof(struct _stp_print_buf, hdr) + sizeof(struct _stp_record_hdr));
	BUILD_BUG_ON(STP_PRINT_BUF_SIZE > STP_RECORD_MAX);
	BUILD_BUG_ON(STP_RELAY_SUBBUF_SIZE % 8);
	local_irq_save(flags);
	if (likely(!_stp_flightrec))
		_stp_ring_write(hdr, text_len, rec_flags);
	else
		_stp_transport_write_flight(*this_cpu_ptr(_stp_relay_chan->buf), hdr, text_len, rec_flags);
	local_irq_restore(flags);
}

static u64 _stp_relay_dropped_count(void)
{
	return atomic64_read(&_stp_relay_dropped) + atomic64_read(&_stp_ring_dropped);
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
