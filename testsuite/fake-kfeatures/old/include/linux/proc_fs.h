/* proc_fs.h - fake: as 5.10 declares it */
extern void *PDE_DATA(const struct inode *);
