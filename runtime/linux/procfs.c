/* procfs.c - procfs("name").read / .write: files under /proc/systemtap/MODULE whose reads and writes run probes. */

/*
 * Each open file gets its own buffer of MAXSTRINGLEN bytes, the $value of
 * the probes it runs:
 *
 *  open for reading   the .read probe runs once and fills the buffer (it
 *                     stays empty unless the session is running); read()
 *                     and lseek() then serve that text, so a reader sees
 *                     one consistent snapshot however it splits its reads.
 *  write()            at most MAXSTRINGLEN-1 bytes are taken from the user,
 *                     NUL-terminated, and the .write probe runs with them;
 *                     the rest of a longer write comes back as a short
 *                     write, so the writer's next write() is another hit.
 *
 * Probes run in the reader's or writer's process context through the usual
 * runner (interrupts off, no sleeping); the copies to and from user space
 * happen outside the body, without any script lock held.
 *
 * The files are created when the session starts and removed when it stops,
 * before the end probes: proc_remove() waits for every read or write in
 * progress and releases files still open, so no handler runs after it.
 * /proc/systemtap itself is shared by all modules and never removed: the
 * kernel offers a module no safe way to tell whether another one still has
 * a directory in it. It is an empty directory with no code of ours behind it.
 */

/* $value of the probe running: the open file's buffer (see procfs.c). */
static char *_stp_procfs_value(struct _stp_context *c)
{
	return c->hit_data;
}

#ifdef STP_HAVE_PROCFS

#include <linux/proc_fs.h>
#include <linux/namei.h>
#include <linux/uaccess.h>

/* The state of one open file. */
struct _stp_procfs_buf {
	size_t len;			/* bytes of text a reader gets */
	char text[MAXSTRINGLEN];	/* $value: NUL-terminated */
};

static struct proc_dir_entry *_stp_procfs_dir;	/* /proc/systemtap/MODULE */

static int _stp_procfs_open(struct inode *inode, struct file *file)
{
	struct _stp_procfs_file *f = pde_data(inode);
	struct _stp_procfs_buf *buf;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	if ((file->f_mode & FMODE_READ) && f->read_probe) {
		_stp_run_probe_data(f->read_probe, NULL, NULL, buf->text);
		buf->text[MAXSTRINGLEN - 1] = '\0';
		buf->len = strlen(buf->text);
	}
	file->private_data = buf;
	return 0;
}

static ssize_t _stp_procfs_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	struct _stp_procfs_buf *buf = file->private_data;

	return simple_read_from_buffer(ubuf, count, ppos, buf->text, buf->len);
}

static ssize_t _stp_procfs_write(struct file *file, const char __user *ubuf, size_t count,
				 loff_t *ppos)
{
	struct _stp_procfs_file *f = pde_data(file_inode(file));
	struct _stp_procfs_buf *buf = file->private_data;
	size_t n = min_t(size_t, count, MAXSTRINGLEN - 1);

	if (!f->write_probe)
		return -EINVAL;
	if (copy_from_user(buf->text, ubuf, n))
		return -EFAULT;
	buf->text[n] = '\0';
	_stp_run_probe_data(f->write_probe, NULL, NULL, buf->text);
	buf->text[0] = '\0';
	*ppos += n;
	return n;
}

static int _stp_procfs_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
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
	struct path path;

	if (kern_path("/proc/systemtap", LOOKUP_DIRECTORY, &path) == 0)
		path_put(&path);
	else if (!proc_mkdir("systemtap", NULL))
		return NULL;
	return proc_mkdir("systemtap/" STP_MODULE_NAME, NULL);
}

static void _stp_procfs_unregister(void)
{
	if (!_stp_procfs_dir)
		return;
	proc_remove(_stp_procfs_dir);	/* waits for handlers, closes open files */
	_stp_procfs_dir = NULL;
}

/* All or nothing: on a failure, report it naming the probe, and remove the rest. */
static int _stp_procfs_register(void)
{
	size_t i;

	_stp_procfs_dir = _stp_procfs_mkdir();
	if (!_stp_procfs_dir) {
		_stp_session_error("cannot create /proc/systemtap/%s", STP_MODULE_NAME);
		return -ENOMEM;
	}
	for (i = 0; i < ARRAY_SIZE(_stp_procfs_files); i++) {
		struct _stp_procfs_file *f = &_stp_procfs_files[i];
		const struct _stp_probe *p = f->read_probe ? f->read_probe : f->write_probe;
		f->pde = proc_create_data(f->name, f->mode, _stp_procfs_dir, &_stp_procfs_ops, f);
		if (!f->pde) {
			_stp_session_error("probe %s at %s: cannot create /proc/systemtap/%s/%s",
					   p->pp, p->location, STP_MODULE_NAME, f->name);
			_stp_procfs_unregister();
			return -ENOMEM;
		}
	}
	return 0;
}

/* The family's entry in _stp_families[] (runtime_api.h). */
static const struct _stp_family _stp_family_procfs = {
	.name = "procfs",
	.register_all = _stp_procfs_register,
	.unregister_all = _stp_procfs_unregister,
};

#endif
