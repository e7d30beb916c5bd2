/* proc_fs.h - fake: as 6.12 declares it */
static inline void *pde_data(const struct inode *inode)
{
	return inode->i_private;
}
