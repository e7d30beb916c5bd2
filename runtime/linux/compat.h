/* compat.h - the compat layer's runtime half: wrappers over what kernels do differently, chosen by stp_kfeatures.h. */
#ifndef STP_LINUX_COMPAT_H
#define STP_LINUX_COMPAT_H

/*
 * stp_kfeatures.h is written into the module's directory at pass 4 by
 * compiler/build/kfeatures.c: "#define STP_HAVE_X 1" for each feature the
 * target kernel's build tree shows (docs/internals.md lists them). Only
 * this file tests them: the rest of the runtime calls the wrappers below.
 * Where one interface exists on every supported kernel (strscpy,
 * READ_ONCE), the runtime uses it and needs no feature at all.
 */
#include "stp_kfeatures.h"

#include <linux/fs.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/uprobes.h>
#include <linux/err.h>
#include <linux/blk_types.h>
#include <linux/uaccess.h>

/* The .llseek of a file that cannot seek: no_llseek where the kernel has it, NULL (the same since 6.12) where not. */
#ifdef STP_HAVE_NO_LLSEEK
#define _stp_llseek_none no_llseek
#else
#define _stp_llseek_none NULL
#endif

/* A task's scheduler state (TASK_RUNNING, TASK_DEAD...), read once. */
static inline unsigned int _stp_task_state(const struct task_struct *t)
{
#ifdef STP_HAVE_TASK_STATE_UNDERSCORE
	return READ_ONCE(t->__state);
#else
	return (unsigned int)READ_ONCE(t->state);
#endif
}

/* The data a procfs entry was created with, from its inode. */
static inline void *_stp_pde_data(const struct inode *inode)
{
#ifdef STP_HAVE_PDE_DATA_LOWER
	return pde_data(inode);
#else
	return PDE_DATA(inode);
#endif
}

/* A block device's partition number (0: the whole disk), read without faulting; false if it cannot be read. */
static inline bool _stp_bdev_partno_nofault(const struct block_device *bdev, u8 *partno)
{
#ifdef STP_HAVE_BDEV_FLAGS_PARTNO
	atomic_t flags;

	if (copy_from_kernel_nofault(&flags, &bdev->__bd_flags, sizeof(flags)))
		return false;
	*partno = atomic_read(&flags) & BD_PARTNO;
	return true;
#else
	return !copy_from_kernel_nofault(partno, &bdev->bd_partno, sizeof(*partno));
#endif
}

/* What unregistering a uprobe needs, on every kernel. */
struct _stp_uprobe_reg {
#ifdef STP_HAVE_UPROBE_HANDLE
	struct uprobe *uprobe;	/* the handle uprobe_register returned */
#endif
	struct inode *inode;	/* the file the probe is on */
	loff_t offset;		/* its offset in the file */
};

/*
 * Register uc at inode:offset; ref_ctr_offset, if not 0, is an SDT
 * semaphore's offset the kernel counts up while the probe is on. 0 or a
 * negative errno; on success reg holds what _stp_uprobe_unregister needs.
 */
static inline int _stp_uprobe_register(struct _stp_uprobe_reg *reg, struct inode *inode, loff_t offset,
				       loff_t ref_ctr_offset, struct uprobe_consumer *uc)
{
#ifdef STP_HAVE_UPROBE_HANDLE
	struct uprobe *u = uprobe_register(inode, offset, ref_ctr_offset, uc);

	if (IS_ERR(u))
		return PTR_ERR(u);
	reg->uprobe = u;
#elif defined(STP_HAVE_UPROBE_REGISTER_REFCTR)
	int rc = ref_ctr_offset ? uprobe_register_refctr(inode, offset, ref_ctr_offset, uc)
				: uprobe_register(inode, offset, uc);

	if (rc)
		return rc;
#else
#error "this kernel's uprobes.h declares neither uprobe_register_refctr nor a uprobe_register returning a handle"
#endif
	reg->inode = inode;
	reg->offset = offset;
	return 0;
}

/* Unregister uc; returns once none of its handlers runs any more (may sleep). */
static inline void _stp_uprobe_unregister(struct _stp_uprobe_reg *reg, struct uprobe_consumer *uc)
{
#ifdef STP_HAVE_UPROBE_HANDLE
	uprobe_unregister_nosync(reg->uprobe, uc);
#ifdef STP_HAVE_UPROBE_UNREGISTER_SYNC
	uprobe_unregister_sync();
#endif
#else
	uprobe_unregister(reg->inode, reg->offset, uc);
#endif
}

#endif
