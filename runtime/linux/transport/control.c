/* control.c - the .cmd control file: commands from stapio, and a lock-bounded message ring back to it. */

#include <linux/debugfs.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

/*
 * Messages may be posted from any context, including a probe that
 * interrupted code holding who knows what: posting copies bytes into a
 * fixed ring under a raw spinlock with interrupts off, and neither
 * allocates nor wakes anybody. stapio polls with non-blocking reads.
 * The last STP_CTL_RESERVE bytes of the ring are kept for the replies
 * posted from process context (STARTED, EXITED), so a flood of warnings
 * cannot push out the message that ends the session. A REQUEST_EXIT is
 * not queued at all but kept as a flag, so it can never be lost either.
 */

#define STP_CTL_RING_SIZE 16384	/* bytes in the ring, a power of two */
#define STP_CTL_RESERVE 1024	/* bytes only process-context replies may use */

struct _stp_ctl_ring {
	raw_spinlock_t lock;	/* protects everything below */
	u32 head;		/* producer position, free running */
	u32 tail;		/* consumer position, free running */
	char buf[STP_CTL_RING_SIZE]; /* messages: header then payload, may wrap */
};

static struct _stp_ctl_ring _stp_ctl_ring = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(_stp_ctl_ring.lock),
};
static atomic64_t _stp_ctl_lost = ATOMIC64_INIT(0); /* messages that found no room */
static atomic_t _stp_ctl_exit_pending = ATOMIC_INIT(0); /* a REQUEST_EXIT awaits delivery */
static struct dentry *_stp_debugfs_root;	/* /sys/kernel/debug/systemtap */
static bool _stp_debugfs_root_ref;		/* root came from debugfs_lookup: dput it */
static struct dentry *_stp_module_dir;		/* .../systemtap/<module> */

/* Commands, carried out by the session (module_main.c). */
static int _stp_session_cmd_start(const struct _stp_cmd_start *start);
static int _stp_session_cmd_exit(void);
static int _stp_input_feed(const char *buf, size_t len);
static int _stp_monitor_cmd(const struct _stp_cmd_monitor *m);	/* monitor.c */

static void _stp_ring_copy_in(struct _stp_ctl_ring *r, const void *src, u32 len)
{
	u32 at = r->head & (STP_CTL_RING_SIZE - 1);
	u32 first = min_t(u32, len, STP_CTL_RING_SIZE - at);

	memcpy(r->buf + at, src, first);
	memcpy(r->buf, (const char *)src + first, len - first);
	r->head += len;
}

static void _stp_ring_copy_out(struct _stp_ctl_ring *r, void *dst, u32 len)
{
	u32 at = r->tail & (STP_CTL_RING_SIZE - 1);
	u32 first = min_t(u32, len, STP_CTL_RING_SIZE - at);

	memcpy(dst, r->buf + at, first);
	memcpy((char *)dst + first, r->buf, len - first);
	r->tail += len;
}

/*
 * Queue one message. Callable from any context; fails (counting the loss)
 * when the ring has no room, or in NMI context when the lock is taken.
 */
static int _stp_ctl_send(u32 type, const void *data, u32 len, bool reply)
{
	struct _stp_ctl_ring *r = &_stp_ctl_ring;
	struct _stp_msg_hdr hdr = { .type = type, .len = len };
	unsigned long flags;
	u32 room;

	if (in_nmi()) {
		if (!raw_spin_trylock_irqsave(&r->lock, flags))
			goto lost;
	} else {
		raw_spin_lock_irqsave(&r->lock, flags);
	}
	room = STP_CTL_RING_SIZE - (r->head - r->tail);
	if (!reply)
		room = room > STP_CTL_RESERVE ? room - STP_CTL_RESERVE : 0;
	if (sizeof(hdr) + len > room) {
		raw_spin_unlock_irqrestore(&r->lock, flags);
		goto lost;
	}
	_stp_ring_copy_in(r, &hdr, sizeof(hdr));
	_stp_ring_copy_in(r, data, len);
	raw_spin_unlock_irqrestore(&r->lock, flags);
	return 0;
lost:
	atomic64_inc(&_stp_ctl_lost);
	return -ENOSPC;
}

/* Format a WARNING or ERROR text (without its prefix) and queue it. */
static void _stp_ctl_vsend_text(u32 type, const char *fmt, va_list ap)
{
	char text[STP_MSG_TEXT_MAX];
	int n = vscnprintf(text, sizeof(text), fmt, ap);

	_stp_ctl_send(type, text, n, false);
}

static void _stp_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	_stp_ctl_vsend_text(STP_MSG_WARNING, fmt, ap);
	va_end(ap);
}

static u32 _stp_relay_last_seq(void);

/*
 * system(): have stapio run cmd once the output printed so far is out. The
 * probe's output is flushed first so that it takes its seq before the
 * message is queued. A command too long for one message is dropped with a
 * warning.
 */
static __maybe_unused void _stp_system(const char *cmd)
{
	struct {
		struct _stp_msg_system head;
		char text[STP_MSG_MAX - sizeof(struct _stp_msg_hdr) - sizeof(struct _stp_msg_system)];
	} msg;
	size_t len = strnlen(cmd, MAXSTRINGLEN);

	if (len > sizeof(msg.text)) {
		_stp_warn("system: command of %zu bytes dropped (at most %zu)", len, sizeof(msg.text));
		return;
	}
	_stp_print_flush();
	msg.head.after_seq = _stp_relay_last_seq();
	msg.head.reserved = 0;
	memcpy(msg.text, cmd, len);
	if (_stp_ctl_send(STP_MSG_SYSTEM, &msg, sizeof(msg.head) + len, false))
		_stp_warn("system: no room to queue the command");
}

/* Ask stapio for an EXIT; delivered once, after the messages queued before it. */
static void _stp_ctl_request_exit(void)
{
	atomic_set(&_stp_ctl_exit_pending, 1);
}

/* Whole messages only; returns 0 when there is nothing to read (never blocks). */
static ssize_t _stp_ctl_read(struct file *file, char __user *ubuf, size_t count,
			     loff_t *ppos)
{
	struct _stp_ctl_ring *r = &_stp_ctl_ring;
	struct _stp_msg_hdr hdr;
	unsigned long flags;
	size_t n = 0;
	bool empty;
	char *kbuf;

	count = min_t(size_t, count, 4096);
	if (count < STP_MSG_MAX)
		return -EINVAL;
	kbuf = kmalloc(count, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;

	raw_spin_lock_irqsave(&r->lock, flags);
	while (r->tail != r->head) {
		u32 saved_tail = r->tail;

		_stp_ring_copy_out(r, &hdr, sizeof(hdr));
		if (n + sizeof(hdr) + hdr.len > count) {
			r->tail = saved_tail;
			break;
		}
		memcpy(kbuf + n, &hdr, sizeof(hdr));
		_stp_ring_copy_out(r, kbuf + n + sizeof(hdr), hdr.len);
		n += sizeof(hdr) + hdr.len;
	}
	empty = r->tail == r->head;
	raw_spin_unlock_irqrestore(&r->lock, flags);

	if (empty && n + sizeof(hdr) <= count &&
	    atomic_xchg(&_stp_ctl_exit_pending, 0)) {
		hdr.type = STP_MSG_REQUEST_EXIT;
		hdr.len = 0;
		memcpy(kbuf + n, &hdr, sizeof(hdr));
		n += sizeof(hdr);
	}

	if (n && copy_to_user(ubuf, kbuf, n))
		n = -EFAULT;
	kfree(kbuf);
	return n;
}

/* One whole command per write. */
static ssize_t _stp_ctl_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct {
		struct _stp_msg_hdr hdr;
		union {
			struct _stp_cmd_start start;
			struct _stp_cmd_monitor monitor;
			char input[STP_INPUT_CHUNK];
		} u;
	} cmd;
	int rc;

	if (count < sizeof(cmd.hdr) || count > sizeof(cmd))
		return -EINVAL;
	if (copy_from_user(&cmd, ubuf, count))
		return -EFAULT;
	if (cmd.hdr.len != count - sizeof(cmd.hdr))
		return -EINVAL;

	switch (cmd.hdr.type) {
	case STP_CMD_START:
		if (cmd.hdr.len != sizeof(cmd.u.start))
			return -EINVAL;
		_stp_stapio_pid = task_tgid_nr(current);	/* stapio writes START itself */
		rc = _stp_session_cmd_start(&cmd.u.start);
		break;
	case STP_CMD_EXIT:
		rc = cmd.hdr.len ? -EINVAL : _stp_session_cmd_exit();
		break;
	case STP_CMD_INPUT:
		rc = _stp_input_feed(cmd.u.input, cmd.hdr.len);
		break;
	case STP_CMD_MONITOR:
		if (cmd.hdr.len != sizeof(cmd.u.monitor))
			return -EINVAL;
		rc = _stp_monitor_cmd(&cmd.u.monitor);
		break;
	default:
		rc = -EINVAL;
		break;
	}
	return rc ? rc : count;
}

static atomic_t _stp_ctl_opened = ATOMIC_INIT(0);	/* a stapio has .cmd open */

/* One stapio at a time (staprun -A while another is attached would split the output): -EBUSY. */
static void _stp_relay_reader(bool attached);

static int _stp_ctl_open(struct inode *inode, struct file *file)
{
	if (atomic_cmpxchg(&_stp_ctl_opened, 0, 1))
		return -EBUSY;
	_stp_relay_reader(true);	/* flight recorder: stop overwriting before stapio reads */
	return 0;
}

static int _stp_ctl_release(struct inode *inode, struct file *file)
{
	_stp_relay_reader(false);
	atomic_set(&_stp_ctl_opened, 0);
	return 0;
}

static const struct file_operations _stp_ctl_fops = {
	.owner = THIS_MODULE,
	.open = _stp_ctl_open,
	.release = _stp_ctl_release,
	.read = _stp_ctl_read,
	.write = _stp_ctl_write,
	.llseek = noop_llseek,
};

/* Create (or find) systemtap/ and create systemtap/<module>/. */
static int _stp_debugfs_init(void)
{
	struct dentry *root = debugfs_lookup(STP_DEBUGFS_ROOT, NULL);

	if (root) {
		_stp_debugfs_root_ref = true;
	} else {
		root = debugfs_create_dir(STP_DEBUGFS_ROOT, NULL);
		if (IS_ERR(root) && PTR_ERR(root) == -EEXIST) {
			/* Another module created it in the meantime. */
			root = debugfs_lookup(STP_DEBUGFS_ROOT, NULL);
			_stp_debugfs_root_ref = root != NULL;
		}
		if (IS_ERR_OR_NULL(root))
			return root ? PTR_ERR(root) : -ENOENT;
	}
	_stp_debugfs_root = root;

	/* the module's name as loaded: staprun -R renames it */
	_stp_module_dir = debugfs_create_dir(module_name(THIS_MODULE), root);
	if (IS_ERR(_stp_module_dir)) {
		int rc = PTR_ERR(_stp_module_dir);

		_stp_module_dir = NULL;
		return rc;
	}
	return 0;
}

/*
 * Remove systemtap/<module>/ and everything left in it. The shared
 * systemtap/ directory stays: another module may be using it, and an
 * empty directory in debugfs costs nothing.
 */
static void _stp_debugfs_exit(void)
{
	debugfs_remove(_stp_module_dir);
	_stp_module_dir = NULL;
	if (_stp_debugfs_root_ref)
		dput(_stp_debugfs_root);
	_stp_debugfs_root = NULL;
	_stp_debugfs_root_ref = false;
}

/* Create .cmd last of all files: stapio may begin as soon as it appears. */
static int _stp_ctl_init(void)
{
	struct dentry *d = debugfs_create_file(STP_CTL_FILE, 0600, _stp_module_dir,
					       NULL, &_stp_ctl_fops);

	return IS_ERR(d) ? PTR_ERR(d) : 0;
}
