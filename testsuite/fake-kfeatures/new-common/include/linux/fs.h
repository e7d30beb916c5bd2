/* fs.h - fake: as 6.12 declares it; a comment that names no_llseek is not a declaration */
// neither is this one: no_llseek
extern loff_t noop_llseek(struct file *file, loff_t offset, int whence);
struct file *get_file_rcu(struct file __rcu **f);
