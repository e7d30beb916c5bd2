/* relay.c - the output transport: per-CPU relay buffers in debugfs, no-overwrite, one record per flush. */

#include <linux/relay.h>
#include <linux/debugfs.h>

/*
 * One relay channel with a buffer per CPU, shown as trace<cpu> next to
 * .cmd. A full buffer is never overwritten: the write is dropped and
 * counted, and reported to stapio at the end. Sub-buffers are larger
 * than any record (header + STP_PRINT_BUF_SIZE), so records never span
 * two and relay only pads the tail of a sub-buffer.
 */

#define STP_RELAY_SUBBUF_SIZE (64 * 1024) /* bytes per sub-buffer */
#define STP_RELAY_DEFAULT_MB 1		   /* per-CPU size when staprun gives none */
#define STP_RELAY_MAX_MB 1024		   /* largest per-CPU size accepted */

static unsigned int _stp_bufsize;	/* MB per CPU, module parameter (staprun -s) */
module_param(_stp_bufsize, uint, 0400);
MODULE_PARM_DESC(_stp_bufsize, "relay buffer size per CPU in MB (0: default)");

static struct rchan *_stp_relay_chan;		/* the channel, NULL until init */
static atomic64_t _stp_relay_dropped = ATOMIC64_INIT(0); /* records lost to full buffers */
static atomic_t _stp_record_seq = ATOMIC_INIT(0);	  /* last seq handed to a record */

/* Switching to a new sub-buffer: refuse (and so drop the write) when all are unread. */
static int _stp_relay_subbuf_start(struct rchan_buf *buf, void *subbuf,
				   void *prev_subbuf, size_t prev_padding)
{
	if (relay_buf_full(buf)) {
		atomic64_inc(&_stp_relay_dropped);
		return 0;
	}
	return 1;
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
 * Write the record whose header is hdr and whose text_len bytes of text
 * follow it in memory, into this CPU's buffer. Like relay_write(), but the
 * sequence number is taken only once the space is known to be there, in
 * the same interrupts-off section as the copy: a dropped record consumes
 * no seq, so stapio sees a gap only for a record still being copied.
 */
static void _stp_transport_write(struct _stp_record_hdr *hdr, size_t text_len)
{
	size_t length = sizeof(*hdr) + text_len;
	struct rchan_buf *buf;
	unsigned long flags;

	BUILD_BUG_ON(offsetof(struct _stp_print_buf, text) !=
		     offsetof(struct _stp_print_buf, hdr) + sizeof(struct _stp_record_hdr));
	local_irq_save(flags);
	buf = *this_cpu_ptr(_stp_relay_chan->buf);
	if (unlikely(buf->offset + length > _stp_relay_chan->subbuf_size) &&
	    relay_switch_subbuf(buf, length) == 0)
		goto out;
	hdr->seq = (u32)atomic_inc_return(&_stp_record_seq);
	hdr->len = text_len;
	memcpy(buf->data + buf->offset, hdr, length);
	smp_wmb();		/* the record before the offset that publishes it */
	buf->offset += length;
out:
	local_irq_restore(flags);
}

static u64 _stp_relay_dropped_count(void)
{
	return atomic64_read(&_stp_relay_dropped);
}
