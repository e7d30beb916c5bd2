/* fs.h - fake: as 5.10 declares it */
extern loff_t no_llseek(struct file *file, loff_t offset, int whence);
