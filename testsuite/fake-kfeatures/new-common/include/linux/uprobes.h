/* uprobes.h - fake: as 6.12 declares it, spaced differently */
extern struct uprobe*uprobe_register (struct inode *inode, loff_t offset, loff_t ref_ctr_offset, struct uprobe_consumer *uc);
extern void uprobe_unregister_nosync(struct uprobe *uprobe, struct uprobe_consumer *uc);
extern void uprobe_unregister_sync(void);
