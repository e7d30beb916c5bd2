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
#include <linux/mm_types.h>
#include <linux/kprobes.h>
#include <linux/hrtimer.h>
#include <linux/module.h>
#include <linux/string.h>
#ifdef STP_HAVE_HEX_H
#include <linux/hex.h>	/* hex_asc_hi, bin2hex: kernel.h stopped including it in 7.x */
#endif

/*
 * strlcpy for embedded C that calls it (scripts written for older kernels): the
 * kernel's up to 6.7, else this one over strscpy (same result: the length of src).
 */
#ifndef STP_HAVE_STRLCPY
static inline size_t _stp_compat_strlcpy(char *dst, const char *src, size_t size)
{
	if (size)
		strscpy(dst, src, size);
	return strlen(src);
}
#define strlcpy _stp_compat_strlcpy
#endif

/* The member of struct dentry that links it into its inode's alias list (container_of's path). */
#ifdef STP_HAVE_DENTRY_D_U
#define _STP_DENTRY_ALIAS d_u.d_alias
#else
#define _STP_DENTRY_ALIAS d_alias
#endif

/* __trace_puts of a string of len bytes: 7.2 takes no length. */
#ifdef STP_HAVE_TRACE_PUTS_SIZE
#define _stp_trace_puts(ip, str, len) __trace_puts((ip), (str), (len))
#else
#define _stp_trace_puts(ip, str, len) __trace_puts((ip), (str))
#endif

/* The .llseek of a file that cannot seek: no_llseek where the kernel has it, NULL (the same since 6.12) where not. */
#ifdef STP_HAVE_NO_LLSEEK
#define _stp_llseek_none no_llseek
#else
#define _stp_llseek_none NULL
#endif

/* The arguments of relay's subbuf_start callback after prev_subbuf: size_t prev_padding, which 7.2 dropped. */
#ifdef STP_HAVE_RELAY_SUBBUF_START_PADDING
#define _STP_RELAY_SUBBUF_START_PADDING , size_t prev_padding
#else
#define _STP_RELAY_SUBBUF_START_PADDING
#endif

/* What relay_open's callbacks are: const (5.11+), writable on 5.10, whose relay_open may not take a const table. */
#ifdef STP_HAVE_RELAY_CALLBACKS_CONST
#define _STP_RELAY_CALLBACKS_CONST const
#else
#define _STP_RELAY_CALLBACKS_CONST
#endif

/* The bit of page->mapping / folio->mapping that marks anonymous memory (no address_space behind it). */
#ifdef STP_HAVE_FOLIO_MAPPING_ANON
#define _STP_MAPPING_ANON FOLIO_MAPPING_ANON
#else
#define _STP_MAPPING_ANON PAGE_MAPPING_ANON
#endif

/* The arguments of a uprobe_consumer's handler and ret_handler after regs: __u64 *data (6.13+), none before. */
#ifdef STP_HAVE_UPROBE_HANDLER_DATA
#define _STP_UPROBE_HANDLER_DATA , __u64 *data
#else
#define _STP_UPROBE_HANDLER_DATA
#endif

/* Initialise an hrtimer with its callback: hrtimer_setup where the kernel has it (it removed hrtimer_init). */
static inline void _stp_hrtimer_setup(struct hrtimer *timer, enum hrtimer_restart (*function)(struct hrtimer *),
				      clockid_t clock_id, enum hrtimer_mode mode)
{
#ifdef STP_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, function, clock_id, mode);
#else
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
#endif
}

/* A task's scheduler state (TASK_RUNNING, TASK_DEAD...), read once. */
static inline unsigned int _stp_task_state(const struct task_struct *t)
{
#ifdef STP_HAVE_TASK_STATE_UNDERSCORE
	return READ_ONCE(t->__state);
#else
	return (unsigned int)READ_ONCE(t->state);
#endif
}

/*
 * A task's state field, as an lvalue for fault-safe reads of a task that may be going away
 * (STAP_KREAD): 5.10's is a long, later ones an unsigned int, which reads its low half on
 * little-endian machines (the state bits all fit).
 */
#ifdef STP_HAVE_TASK_STATE_UNDERSCORE
#define _stp_task_state_field(t) ((t)->__state)
#else
#define _stp_task_state_field(t) ((t)->state)
#endif

/* A task's CPU number field, as an lvalue, where task_cpu() reads it. */
#if defined(STP_HAVE_TASK_STRUCT_CPU) && defined(CONFIG_THREAD_INFO_IN_TASK)
#define _stp_task_cpu_field(t) ((t)->cpu)
#else
#define _stp_task_cpu_field(t) (task_thread_info(t)->cpu)
#endif

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

/* A reference to the file in an __rcu slot (mm->exe_file), or NULL; under rcu_read_lock. */
static inline struct file *_stp_get_file_rcu(struct file __rcu **slot)
{
#ifdef STP_HAVE_GET_FILE_RCU_SLOT
	return get_file_rcu(slot);
#else
	struct file *f = rcu_dereference(*slot);

	return f && get_file_rcu(f) ? f : NULL;
#endif
}

/* The kretprobe a return instance belongs to. */
static inline struct kretprobe *_stp_get_kretprobe(struct kretprobe_instance *ri)
{
#ifdef STP_HAVE_GET_KRETPROBE
	return get_kretprobe(ri);
#else
	return ri->rp;
#endif
}

/*
 * Up to 5.13 (5.10) the kprobes core counts every fault taken inside a
 * kprobe handler as a missed hit of each kprobe at that address, although
 * the fault-safe read that took it was fixed up and the hit ran; it then
 * calls the kprobe's fault_handler. 5.14 dropped both. The hook set here
 * lets kprobes.c count those charges to take them back out of nmissed.
 */
#ifdef STP_HAVE_KPROBE_FAULT_HANDLER
#define _stp_kprobe_fault_hook(kp, fn) ((kp)->fault_handler = (fn))
#else
#define _stp_kprobe_fault_hook(kp, fn) ((void)(kp), (void)(fn))
#endif

/* A walk over vmlinux's symbols: fn(data, name, address) for each (_stp_kallsyms_each). */
struct _stp_kallsyms_walk {
	int (*fn)(void *data, const char *name, unsigned long addr);	/* nonzero stops the walk */
	void *data;							/* fn's first argument */
};

/*
 * The callback kallsyms_on_each_symbol takes: 6.4+ (6.12) walks vmlinux
 * only and passes no module; 5.10 and 6.1 pass each symbol's module, and
 * only vmlinux's (NULL) are handed on.
 */
#ifdef STP_HAVE_KALLSYMS_EACH_NO_MODULE
static inline int _stp_kallsyms_walk_one(void *w, const char *name, unsigned long addr)
{
	struct _stp_kallsyms_walk *k = w;

	return k->fn(k->data, name, addr);
}
#else
static inline int _stp_kallsyms_walk_one(void *w, const char *name, struct module *mod, unsigned long addr)
{
	struct _stp_kallsyms_walk *k = w;

	return mod ? 0 : k->fn(k->data, name, addr);
}
#endif

/* kallsyms_on_each_symbol, found at run time (modules cannot link against it) at each. */
typedef int (*_stp_kallsyms_each_fn)(typeof(&_stp_kallsyms_walk_one) fn, void *data);

/* Calls fn(data, name, addr) for each vmlinux symbol through kallsyms_on_each_symbol at each. */
static inline int _stp_kallsyms_each(void *each, int (*fn)(void *, const char *, unsigned long), void *data)
{
	struct _stp_kallsyms_walk k = { .fn = fn, .data = data };

	return ((_stp_kallsyms_each_fn)each)(_stp_kallsyms_walk_one, &k);
}

/* The sizes of module m as loaded: its code, its read-only data (with ro_after_init) and its writable data. */
static inline void _stp_module_sizes(const struct module *m, unsigned int *text, unsigned int *rodata,
				     unsigned int *data)
{
#ifdef STP_HAVE_MODULE_MEMORY
	*text = m->mem[MOD_TEXT].size;
	*rodata = m->mem[MOD_RODATA].size + m->mem[MOD_RO_AFTER_INIT].size;
	*data = m->mem[MOD_DATA].size;
#else
	*text = m->core_layout.text_size;
	*rodata = m->core_layout.ro_after_init_size - m->core_layout.text_size;
	*data = m->core_layout.size - m->core_layout.ro_after_init_size;
#endif
}

/*
 * What the page cache hands around: struct folio (5.16+), else struct page; both begin
 * with flags, lru, mapping and index, the fields the tapsets read.
 */
#ifdef STP_HAVE_FOLIO
typedef struct folio _stp_folio_t;
#else
typedef struct page _stp_folio_t;
#endif

/* A bio's operation and flags (bi_opf), as op_is_write() and friends take them. */
#ifdef STP_HAVE_BLK_OPF_T
typedef blk_opf_t _stp_blk_opf_t;
#else
typedef unsigned int _stp_blk_opf_t;
#endif

/*
 * Where a bio goes: its block device (*bdev; *disk stays NULL), or where the bio names no
 * block device, its disk and partition (*disk, *partno; *bdev stays NULL). Fault-safe:
 * -EFAULT if the bio cannot be read.
 */
static inline int _stp_bio_target(const struct bio *bio, struct block_device **bdev, struct gendisk **disk,
				  u8 *partno)
{
	*bdev = NULL;
	*disk = NULL;
	*partno = 0;
#ifdef STP_HAVE_BIO_BI_BDEV
	return copy_from_kernel_nofault(bdev, &bio->bi_bdev, sizeof(*bdev)) ? -EFAULT : 0;
#else
	if (copy_from_kernel_nofault(disk, &bio->bi_disk, sizeof(*disk)) ||
	    copy_from_kernel_nofault(partno, &bio->bi_partno, sizeof(*partno)))
		return -EFAULT;
	return 0;
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
