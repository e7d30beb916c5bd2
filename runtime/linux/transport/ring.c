/* ring.c - the normal mode's output transport: a ring per CPU that its probes write and stapio reads as trace<cpu>. */

#include <linux/debugfs.h>
#include <linux/vmalloc.h>
#include <linux/poll.h>
#include <linux/irq_work.h>
#include <linux/cpu.h>

/*
 * One single-producer, single-consumer byte ring per online CPU, shown as
 * trace<cpu> next to .cmd; flight recorder mode keeps relay (relay.c).
 *
 * The producer is whatever writes on that CPU: one probe body at a time
 * (the runner's per-CPU busy flag makes a probe that interrupts a body,
 * an NMI's included, skip without running), with interrupts off, or the
 * end-of-session printers once no probe can run. The consumer is a read()
 * of the file, one at a time (read_mutex).
 *
 * head and tail count the bytes ever written and read; a byte at count n
 * lives at data[n % size]. The writer reads tail with acquire (so it
 * reuses space only after the reader's copy out of it is done), checks
 * that the whole record fits, copies it, and publishes it with a release
 * store of head. The reader reads head with acquire and copies only
 * [tail, head), then hands the space back with a release store of tail.
 * A reader never sees a byte that is not written yet, and a record that
 * does not fit is dropped whole and counted: records never tear.
 *
 * stapio sleeps in poll() with its tick as timeout. The writer wakes it
 * through an irq_work (the one thing an NMI may do; on PREEMPT_RT it runs
 * in the irq_work thread, where wake_up may take its sleeping lock) when
 * the ring fills past a quarter, so a burst is read while it is written.
 * poll() reports the same watermark, not any byte, so stapio does not
 * wake for each record of a steady trickle: the tick takes those.
 *
 * A CPU that comes online after init has no ring: its records are
 * dropped and counted, and memory stays what staprun -s asked per CPU.
 */

#define STP_RING_WAKE_DIV 4	/* wake stapio at 1/STP_RING_WAKE_DIV full */

struct _stp_ring {
	char *data;		/* _stp_ring_size bytes; NULL: no ring on this CPU */
	unsigned long head;	/* bytes written: the writer's, published with release */
	unsigned long tail;	/* bytes read: the reader's, published with release */
	struct mutex read_mutex; /* one read() at a time */
	wait_queue_head_t wait;	/* poll()ers waiting for the watermark */
	struct irq_work wake;	/* the writer's way to wake them from any context */
	struct dentry *file;	/* trace<cpu> */
} ____cacheline_aligned_in_smp;

static struct _stp_ring *_stp_rings;	/* nr_cpu_ids of them, NULL until init */
static size_t _stp_ring_size;		/* bytes per ring */
static atomic_t _stp_record_seq = ATOMIC_INIT(0);	/* last seq handed to a record (both transports) */
static atomic64_t _stp_ring_dropped = ATOMIC64_INIT(0); /* records that did not fit */

static void _stp_ring_wake(struct irq_work *work)
{
	struct _stp_ring *ring = container_of(work, struct _stp_ring, wake);

	wake_up_interruptible(&ring->wait);
}

/* Bytes the reader may copy now. */
static size_t _stp_ring_used(struct _stp_ring *ring)
{
	return smp_load_acquire(&ring->head) - READ_ONCE(ring->tail);
}

static ssize_t _stp_ring_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct _stp_ring *ring = file->private_data;
	size_t n, at, first;
	unsigned long tail;
	ssize_t rc;

	if (mutex_lock_interruptible(&ring->read_mutex))
		return -ERESTARTSYS;
	tail = ring->tail;
	n = min(count, (size_t)(smp_load_acquire(&ring->head) - tail));
	at = tail % _stp_ring_size;
	first = min(n, _stp_ring_size - at);
	if (copy_to_user(ubuf, ring->data + at, first) ||
	    copy_to_user(ubuf + first, ring->data, n - first)) {
		rc = -EFAULT;	/* nothing consumed */
	} else {
		smp_store_release(&ring->tail, tail + n);
		rc = n;
	}
	mutex_unlock(&ring->read_mutex);
	return rc;
}

static __poll_t _stp_ring_poll(struct file *file, poll_table *wait)
{
	struct _stp_ring *ring = file->private_data;

	poll_wait(file, &ring->wait, wait);
	return _stp_ring_used(ring) >= _stp_ring_size / STP_RING_WAKE_DIV ? EPOLLIN | EPOLLRDNORM : 0;
}

static const struct file_operations _stp_ring_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = _stp_ring_read,
	.poll = _stp_ring_poll,
	.llseek = _stp_llseek_none,
};

/*
 * Write the record whose header is hdr and whose text_len bytes of text
 * follow it in memory into this CPU's ring, or drop it whole. The seq is
 * taken after the check, so a dropped record consumes none and stapio
 * sees a gap only while a copy is under way. Interrupts are off.
 */
static void _stp_ring_write(struct _stp_record_hdr *hdr, size_t text_len, u32 rec_flags)
{
	struct _stp_ring *ring = &_stp_rings[smp_processor_id()];
	size_t length = sizeof(*hdr) + text_len, size = _stp_ring_size, used, at, first;
	unsigned long head = ring->head;

	used = head - smp_load_acquire(&ring->tail);
	if (unlikely(!ring->data || length > size - used)) {
		atomic64_inc(&_stp_ring_dropped);
		return;
	}
	hdr->seq = (u32)atomic_inc_return(&_stp_record_seq);
	hdr->len = text_len | rec_flags;
	at = head % size;
	first = min(length, size - at);
	memcpy(ring->data + at, hdr, first);
	if (unlikely(first < length))
		memcpy(ring->data, (const char *)hdr + first, length - first);
	smp_store_release(&ring->head, head + length);
	if (used < size / STP_RING_WAKE_DIV && used + length >= size / STP_RING_WAKE_DIV)
		irq_work_queue(&ring->wake);
}

/* Undo _stp_ring_init, also a partial one; no writer may be left. */
static void _stp_ring_exit(void)
{
	unsigned int cpu;

	if (!_stp_rings)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		struct _stp_ring *ring = &_stp_rings[cpu];

		debugfs_remove(ring->file);	/* waits for a read() or poll() in progress */
		irq_work_sync(&ring->wake);
		vfree(ring->data);
	}
	kfree(_stp_rings);
	_stp_rings = NULL;
}

/* A ring of bytes for each online CPU, and its file. */
static int _stp_ring_init(size_t bytes)
{
	unsigned int cpu;
	int rc = 0;

	_stp_ring_size = bytes;
	_stp_rings = kcalloc(nr_cpu_ids, sizeof(*_stp_rings), GFP_KERNEL);
	if (!_stp_rings)
		return -ENOMEM;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
		mutex_init(&_stp_rings[cpu].read_mutex);
		init_waitqueue_head(&_stp_rings[cpu].wait);
		init_irq_work(&_stp_rings[cpu].wake, _stp_ring_wake);
	}
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct _stp_ring *ring = &_stp_rings[cpu];
		char name[32];

		ring->data = vmalloc(bytes);
		if (!ring->data) {
			rc = -ENOMEM;
			break;
		}
		snprintf(name, sizeof(name), "%s%u", STP_RELAY_BASENAME, cpu);
		ring->file = debugfs_create_file(name, 0400, _stp_module_dir, ring, &_stp_ring_fops);
		if (IS_ERR(ring->file)) {
			rc = PTR_ERR(ring->file);
			ring->file = NULL;
			break;
		}
	}
	cpus_read_unlock();
	if (rc)
		_stp_ring_exit();
	return rc;
}
