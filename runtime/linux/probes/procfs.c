/* procfs.c - procfs("name").read / .write: files under /proc/systemtap/MODULE whose reads and writes run probes. */

#ifndef STP_FAMILY_DECLS /* only code here (no declarations for generated code) */

/*
 * A file with a .read probe has one buffer, allocated when the session
 * starts: the $value of its read probe, MAXSTRINGLEN bytes, or N + 1 with
 * .read.maxsize(N) (N is at most 1 MiB, checked by the compiler). Each
 * open file gets what it shows:
 *
 *  open for reading   under the file's mutex, the .read probe runs once and
 *                     fills the buffer (it stays empty unless the session is
 *                     running), and the text is copied for this reader;
 *                     read() and lseek() then serve that copy, so a reader
 *                     sees one consistent snapshot however it splits its
 *                     reads, and readers of one file take turns only while
 *                     the probe runs.
 *  write()            at most MAXSTRINGLEN-1 bytes are taken from the user
 *                     into the open file's own buffer, NUL-terminated, and
 *                     the .write probe runs with them; the rest of a longer
 *                     write comes back as a short write, so the writer's
 *                     next write() is another hit.
 *
 * Probes run in the reader's or writer's process context through the usual
 * runner (interrupts off, no sleeping); the allocations and the copies to
 * and from user space happen outside the body, without any script lock.
 *
 * The files are created when the session starts (an open waits until the
 * begin probes have run, see _stp_start_settle) and removed when it stops,
 * before the end probes: proc_remove() waits for every read or write in
 * progress and releases files still open, so no handler runs after it.
 * /proc/systemtap itself is shared by all modules and never removed: the
 * kernel offers a module no safe way to tell whether another one still has
 * a directory in it. It is an empty directory with no code of ours behind it.
 */

/* $value of the probe running: the text of the struct _stp_strbuf in hit_data. */
static char *_stp_procfs_value(struct _stp_context *c)
{
	return ((struct _stp_strbuf *)c->hit_data)->text;
}

static struct _stp_strbuf *_stp_procfs_strbuf(struct _stp_context *c)
{
	return c->hit_data;
}

#ifdef STP_HAVE_PROCFS

#include <linux/proc_fs.h>
#include <linux/namei.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/mm.h>

/* What the runtime keeps for one file of _stp_procfs_files[] (same index). */
struct _stp_procfs_state {
	struct mutex lock;		/* one read probe at a time fills value */
	struct _stp_strbuf value;	/* the read probe's $value; text NULL: no read probe */
};

/* The state of one open file. */
struct _stp_procfs_open {
	char *text;			/* what a reader gets (kvmalloc), or NULL */
	size_t len;			/* its bytes */
	char written[MAXSTRINGLEN];	/* a .write probe's $value */
};

static struct proc_dir_entry *_stp_procfs_dir;	/* /proc/systemtap/MODULE */
static struct _stp_procfs_state _stp_procfs_states[ARRAY_SIZE(_stp_procfs_files)];

/* Run the read probe of f into its buffer and copy the text for one reader. */
static int _stp_procfs_fill(struct _stp_procfs_file *f, struct _stp_procfs_open *o)
{
	struct _stp_procfs_state *st = &_stp_procfs_states[f - _stp_procfs_files];
	int rc = 0;

	mutex_lock(&st->lock);
	st->value.text[0] = '\0';
	st->value.len = 0;
	_stp_run_probe_data(f->read_probe, NULL, NULL, &st->value);
	o->len = strnlen(st->value.text, st->value.size);
	o->text = kvmalloc(max_t(size_t, o->len, 1), GFP_KERNEL);
	if (o->text)
		memcpy(o->text, st->value.text, o->len);
	else
		rc = -ENOMEM;
	mutex_unlock(&st->lock);
	return rc;
}

static int _stp_procfs_open(struct inode *inode, struct file *file)
{
	struct _stp_procfs_file *f = _stp_pde_data(inode);
	struct _stp_procfs_open *o;

	/* created before the begin probes run: wait for them, or this hit is lost */
	if (wait_event_interruptible(_stp_start_wq, READ_ONCE(_stp_start_settled)))
		return -ERESTARTSYS;
	o = kzalloc(sizeof(*o), GFP_KERNEL);
	if (!o)
		return -ENOMEM;
	if ((file->f_mode & FMODE_READ) && f->read_probe) {
		int rc = _stp_procfs_fill(f, o);

		if (rc) {
			kfree(o);
			return rc;
		}
	}
	file->private_data = o;
	return 0;
}

static ssize_t _stp_procfs_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct _stp_procfs_open *o = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, o->text, o->len);
}

static ssize_t _stp_procfs_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	struct _stp_procfs_file *f = _stp_pde_data(file_inode(file));
	struct _stp_procfs_open *o = file->private_data;
	size_t n = min_t(size_t, count, MAXSTRINGLEN - 1);
	struct _stp_strbuf value = { .text = o->written, .size = MAXSTRINGLEN - 1, .len = n };

	if (!f->write_probe)
		return -EINVAL;
	if (copy_from_user(o->written, ubuf, n))
		return -EFAULT;
	o->written[n] = '\0';
	_stp_run_probe_data(f->write_probe, NULL, NULL, &value);
	o->written[0] = '\0';
	*ppos += n;
	return n;
}

static int _stp_procfs_release(struct inode *inode, struct file *file)
{
	struct _stp_procfs_open *o = file->private_data;

	kvfree(o->text);
	kfree(o);
	return 0;
}

static const struct proc_ops _stp_procfs_ops = {
	.proc_open = _stp_procfs_open,
	.proc_read = _stp_procfs_read,
	.proc_write = _stp_procfs_write,
	.proc_lseek = default_llseek,
	.proc_release = _stp_procfs_release,
};

/*
 * /proc/systemtap/MODULE. proc_mkdir() warns when the directory exists, so
 * the shared /proc/systemtap is looked up first and created only if absent.
 */
static struct proc_dir_entry *_stp_procfs_mkdir(void)
{
	char dir[sizeof("systemtap/") + MODULE_NAME_LEN];
	struct path path;

	if (kern_path("/proc/systemtap", LOOKUP_DIRECTORY, &path) == 0)
		path_put(&path);
	else if (!proc_mkdir("systemtap", NULL))
		return NULL;
	/* the module's name as loaded: staprun -R renames it */
	snprintf(dir, sizeof(dir), "systemtap/%s", module_name(THIS_MODULE));
	return proc_mkdir(dir, NULL);
}

static void _stp_procfs_unregister(void)
{
	size_t i;

	if (_stp_procfs_dir) {
		proc_remove(_stp_procfs_dir);	/* waits for handlers, closes open files */
		_stp_procfs_dir = NULL;
	}
	for (i = 0; i < ARRAY_SIZE(_stp_procfs_states); i++) {
		kvfree(_stp_procfs_states[i].value.text);
		_stp_procfs_states[i].value.text = NULL;
	}
}

/* The read buffers, before any file exists: MAXSTRINGLEN bytes, or maxsize + 1. */
static int _stp_procfs_alloc(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(_stp_procfs_files); i++) {
		struct _stp_procfs_file *f = &_stp_procfs_files[i];
		struct _stp_procfs_state *st = &_stp_procfs_states[i];
		size_t size = f->maxsize ? f->maxsize : MAXSTRINGLEN - 1;

		mutex_init(&st->lock);
		if (!f->read_probe)
			continue;
		/* a string_t's room at least: without maxsize $value is written as one */
		st->value.text = kvzalloc(max_t(size_t, size + 1, MAXSTRINGLEN), GFP_KERNEL);
		if (!st->value.text) {
			_stp_session_error("probe %s at %s: cannot allocate %zu bytes for /proc/systemtap/%s/%s",
					   f->read_probe->pp, f->read_probe->location, size + 1, module_name(THIS_MODULE),
					   f->name);
			return -ENOMEM;
		}
		st->value.size = size;
	}
	return 0;
}

/* All or nothing: on a failure, report it naming the probe, and remove the rest. */
static int _stp_procfs_register(void)
{
	size_t i;

	if (_stp_procfs_alloc()) {
		_stp_procfs_unregister();
		return -ENOMEM;
	}
	_stp_procfs_dir = _stp_procfs_mkdir();
	if (!_stp_procfs_dir) {
		_stp_session_error("cannot create /proc/systemtap/%s", module_name(THIS_MODULE));
		_stp_procfs_unregister();
		return -ENOMEM;
	}
	for (i = 0; i < ARRAY_SIZE(_stp_procfs_files); i++) {
		struct _stp_procfs_file *f = &_stp_procfs_files[i];
		const struct _stp_probe *p = f->read_probe ? f->read_probe : f->write_probe;
		f->pde = proc_create_data(f->name, f->mode, _stp_procfs_dir, &_stp_procfs_ops, f);
		if (!f->pde) {
			_stp_session_error("probe %s at %s: cannot create /proc/systemtap/%s/%s",
					   p->pp, p->location, module_name(THIS_MODULE), f->name);
			_stp_procfs_unregister();
			return -ENOMEM;
		}
	}
	return 0;
}

STP_FAMILY(procfs, _stp_procfs_register, _stp_procfs_unregister);

#endif

#endif /* STP_FAMILY_DECLS */
