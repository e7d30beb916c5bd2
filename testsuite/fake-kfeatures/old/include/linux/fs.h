/* fs.h - fake: as 5.10 declares it */
extern loff_t no_llseek(struct file *file, loff_t offset, int whence);
#define get_file_rcu(x) atomic_long_inc_not_zero(&(x)->f_count)
