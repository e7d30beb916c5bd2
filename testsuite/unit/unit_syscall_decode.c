/*
 * unit_syscall_decode.c - every {value, "NAME"} of runtime/syscall_decode.c against the
 * kernel's UAPI headers (this file) and glibc's (unit_syscall_decode_libc.c, for the values
 * the UAPI does not export: AF_*, SOCK_*, R_OK...), and the renderings argstr uses.
 */
/* Only stdio and string: stdlib would bring glibc's sigset_t and timeval, which clash with the UAPI headers. */
#include <stdio.h>
#include <string.h>
#define MAXSTRINGLEN 128
#include "syscall_decode.c"
#include "unit.h"
#include "unit_syscall_decode.h"

#include <linux/fcntl.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <asm/signal.h>
#include <asm/errno.h>
#include <asm/ioctls.h>
#include <linux/futex.h>
#include <linux/prctl.h>
#include <linux/wait.h>
#include <linux/time.h>
#include <linux/fs.h>
#include <asm/prctl.h>
#include <linux/eventpoll.h>
#include <linux/fadvise.h>
#include <linux/resource.h>
#include <linux/xattr.h>
#include <linux/quota.h>
#include <linux/dqblk_xfs.h>
#include <linux/mempolicy.h>
#include <linux/kexec.h>
#include <linux/keyctl.h>
#include <linux/perf_event.h>
#include <linux/seccomp.h>
#include <linux/rseq.h>
#include <linux/io_uring.h>
#include <linux/mount.h>
#include <linux/landlock.h>

static const struct _stp_sym uapi_open_flags[] = {
	E(O_CREAT), E(O_EXCL), E(O_NOCTTY), E(O_TRUNC), E(O_APPEND), E(O_NONBLOCK), E(O_SYNC),
	E(O_DSYNC), E(FASYNC), E(O_DIRECT), E(O_LARGEFILE), E(O_TMPFILE), E(O_DIRECTORY),
	E(O_NOFOLLOW), E(O_NOATIME), E(O_CLOEXEC), E(O_PATH),
};
static const struct _stp_sym uapi_open_accmode[] = { E(O_RDONLY), E(O_WRONLY), E(O_RDWR) };
static const struct _stp_sym uapi_at_flags[] = {
	E(AT_SYMLINK_NOFOLLOW), E(AT_REMOVEDIR), E(AT_SYMLINK_FOLLOW), E(AT_NO_AUTOMOUNT), E(AT_EMPTY_PATH),
	E(AT_RECURSIVE),
};
static const struct _stp_sym uapi_mmap_prot[] = {
	E(PROT_READ), E(PROT_WRITE), E(PROT_EXEC), E(PROT_SEM), E(PROT_GROWSDOWN), E(PROT_GROWSUP),
};
static const struct _stp_sym uapi_mmap_type[] = { E(MAP_SHARED), E(MAP_PRIVATE), E(MAP_SHARED_VALIDATE) };
static const struct _stp_sym uapi_mmap_flags[] = {
	E(MAP_FIXED), E(MAP_ANONYMOUS), E(MAP_32BIT), E(MAP_GROWSDOWN), E(MAP_DENYWRITE),
	E(MAP_EXECUTABLE), E(MAP_LOCKED), E(MAP_NORESERVE), E(MAP_POPULATE), E(MAP_NONBLOCK),
	E(MAP_STACK), E(MAP_HUGETLB), E(MAP_SYNC), E(MAP_FIXED_NOREPLACE), E(MAP_UNINITIALIZED),
};
static const struct _stp_sym uapi_clone_flags[] = {
	E(CLONE_VM), E(CLONE_FS), E(CLONE_FILES), E(CLONE_SIGHAND), E(CLONE_PIDFD), E(CLONE_PTRACE),
	E(CLONE_VFORK), E(CLONE_PARENT), E(CLONE_THREAD), E(CLONE_NEWNS), E(CLONE_SYSVSEM),
	E(CLONE_SETTLS), E(CLONE_PARENT_SETTID), E(CLONE_CHILD_CLEARTID), E(CLONE_DETACHED),
	E(CLONE_UNTRACED), E(CLONE_CHILD_SETTID), E(CLONE_NEWCGROUP), E(CLONE_NEWUTS),
	E(CLONE_NEWIPC), E(CLONE_NEWUSER), E(CLONE_NEWPID), E(CLONE_NEWNET), E(CLONE_IO),
};
static const struct _stp_sym uapi_signals[] = {
	E(SIGHUP), E(SIGINT), E(SIGQUIT), E(SIGILL), E(SIGTRAP), E(SIGABRT), E(SIGBUS), E(SIGFPE),
	E(SIGKILL), E(SIGUSR1), E(SIGSEGV), E(SIGUSR2), E(SIGPIPE), E(SIGALRM), E(SIGTERM),
	E(SIGSTKFLT), E(SIGCHLD), E(SIGCONT), E(SIGSTOP), E(SIGTSTP), E(SIGTTIN), E(SIGTTOU),
	E(SIGURG), E(SIGXCPU), E(SIGXFSZ), E(SIGVTALRM), E(SIGPROF), E(SIGWINCH), E(SIGIO),
	E(SIGPWR), E(SIGSYS),
};
static const struct _stp_sym uapi_sigprocmask_how[] = { E(SIG_BLOCK), E(SIG_UNBLOCK), E(SIG_SETMASK) };
static const struct _stp_sym uapi_errnos[] = {
	E(EPERM), E(ENOENT), E(ESRCH), E(EINTR), E(EIO), E(ENXIO), E(E2BIG), E(ENOEXEC), E(EBADF),
	E(ECHILD), E(EAGAIN), E(ENOMEM), E(EACCES), E(EFAULT), E(ENOTBLK), E(EBUSY), E(EEXIST),
	E(EXDEV), E(ENODEV), E(ENOTDIR), E(EISDIR), E(EINVAL), E(ENFILE), E(EMFILE), E(ENOTTY),
	E(ETXTBSY), E(EFBIG), E(ENOSPC), E(ESPIPE), E(EROFS), E(EMLINK), E(EPIPE), E(EDOM),
	E(ERANGE), E(EDEADLK), E(ENAMETOOLONG), E(ENOLCK), E(ENOSYS), E(ENOTEMPTY), E(ELOOP),
	E(ENOMSG), E(EIDRM), E(ECHRNG), E(EL2NSYNC), E(EL3HLT), E(EL3RST), E(ELNRNG), E(EUNATCH),
	E(ENOCSI), E(EL2HLT), E(EBADE), E(EBADR), E(EXFULL), E(ENOANO), E(EBADRQC), E(EBADSLT),
	E(EBFONT), E(ENOSTR), E(ENODATA), E(ETIME), E(ENOSR), E(ENONET), E(ENOPKG), E(EREMOTE),
	E(ENOLINK), E(EADV), E(ESRMNT), E(ECOMM), E(EPROTO), E(EMULTIHOP), E(EDOTDOT), E(EBADMSG),
	E(EOVERFLOW), E(ENOTUNIQ), E(EBADFD), E(EREMCHG), E(ELIBACC), E(ELIBBAD), E(ELIBSCN),
	E(ELIBMAX), E(ELIBEXEC), E(EILSEQ), E(ERESTART), E(ESTRPIPE), E(EUSERS), E(ENOTSOCK),
	E(EDESTADDRREQ), E(EMSGSIZE), E(EPROTOTYPE), E(ENOPROTOOPT), E(EPROTONOSUPPORT),
	E(ESOCKTNOSUPPORT), E(EOPNOTSUPP), E(EPFNOSUPPORT), E(EAFNOSUPPORT), E(EADDRINUSE),
	E(EADDRNOTAVAIL), E(ENETDOWN), E(ENETUNREACH), E(ENETRESET), E(ECONNABORTED),
	E(ECONNRESET), E(ENOBUFS), E(EISCONN), E(ENOTCONN), E(ESHUTDOWN), E(ETOOMANYREFS),
	E(ETIMEDOUT), E(ECONNREFUSED), E(EHOSTDOWN), E(EHOSTUNREACH), E(EALREADY), E(EINPROGRESS),
	E(ESTALE), E(EUCLEAN), E(ENOTNAM), E(ENAVAIL), E(EISNAM), E(EREMOTEIO), E(EDQUOT),
	E(ENOMEDIUM), E(EMEDIUMTYPE), E(ECANCELED), E(ENOKEY), E(EKEYEXPIRED), E(EKEYREVOKED),
	E(EKEYREJECTED), E(EOWNERDEAD), E(ENOTRECOVERABLE), E(ERFKILL), E(EHWPOISON),
};
static const struct _stp_sym uapi_fcntl_cmds[] = {
	E(F_DUPFD), E(F_GETFD), E(F_SETFD), E(F_GETFL), E(F_SETFL), E(F_GETLK), E(F_SETLK),
	E(F_SETLKW), E(F_SETOWN), E(F_GETOWN), E(F_SETSIG), E(F_GETSIG), E(F_SETOWN_EX),
	E(F_GETOWN_EX), E(F_GETOWNER_UIDS), E(F_OFD_GETLK), E(F_OFD_SETLK), E(F_OFD_SETLKW),
	E(F_SETLEASE), E(F_GETLEASE), E(F_NOTIFY), E(F_DUPFD_CLOEXEC), E(F_SETPIPE_SZ),
	E(F_GETPIPE_SZ), E(F_ADD_SEALS), E(F_GET_SEALS),
};
static const struct _stp_sym uapi_ioctl_requests[] = {
	E(TCGETS), E(TCSETS), E(TCSETSW), E(TCSETSF), E(TCFLSH), E(TIOCSCTTY), E(TIOCGPGRP),
	E(TIOCSPGRP), E(TIOCGWINSZ), E(TIOCSWINSZ), E(FIONREAD), E(FIONBIO), E(FIONCLEX),
	E(FIOCLEX), E(FIOASYNC),
};
static const struct _stp_sym uapi_futex_ops[] = {
	E(FUTEX_WAIT), E(FUTEX_WAKE), E(FUTEX_FD), E(FUTEX_REQUEUE), E(FUTEX_CMP_REQUEUE),
	E(FUTEX_WAKE_OP), E(FUTEX_LOCK_PI), E(FUTEX_UNLOCK_PI), E(FUTEX_TRYLOCK_PI),
	E(FUTEX_WAIT_BITSET), E(FUTEX_WAKE_BITSET), E(FUTEX_WAIT_REQUEUE_PI),
	E(FUTEX_CMP_REQUEUE_PI), E(FUTEX_LOCK_PI2),
};
static const struct _stp_sym uapi_prctl_options[] = {
	E(PR_SET_PDEATHSIG), E(PR_GET_PDEATHSIG), E(PR_GET_DUMPABLE), E(PR_SET_DUMPABLE),
	E(PR_GET_UNALIGN), E(PR_SET_UNALIGN), E(PR_GET_KEEPCAPS), E(PR_SET_KEEPCAPS),
	E(PR_GET_FPEMU), E(PR_SET_FPEMU), E(PR_GET_FPEXC), E(PR_SET_FPEXC), E(PR_GET_TIMING),
	E(PR_SET_TIMING), E(PR_SET_NAME), E(PR_GET_NAME), E(PR_GET_ENDIAN), E(PR_SET_ENDIAN),
	E(PR_GET_SECCOMP), E(PR_SET_SECCOMP), E(PR_CAPBSET_READ), E(PR_CAPBSET_DROP),
	E(PR_GET_TSC), E(PR_SET_TSC), E(PR_GET_SECUREBITS), E(PR_SET_SECUREBITS),
	E(PR_SET_TIMERSLACK), E(PR_GET_TIMERSLACK), E(PR_TASK_PERF_EVENTS_DISABLE),
	E(PR_TASK_PERF_EVENTS_ENABLE), E(PR_MCE_KILL), E(PR_MCE_KILL_GET), E(PR_SET_MM),
	E(PR_SET_CHILD_SUBREAPER), E(PR_GET_CHILD_SUBREAPER), E(PR_SET_NO_NEW_PRIVS),
	E(PR_GET_NO_NEW_PRIVS), E(PR_GET_TID_ADDRESS), E(PR_SET_THP_DISABLE),
	E(PR_GET_THP_DISABLE), E(PR_SET_FP_MODE), E(PR_GET_FP_MODE), E(PR_CAP_AMBIENT),
	E(PR_GET_SPECULATION_CTRL), E(PR_SET_SPECULATION_CTRL), E(PR_SET_IO_FLUSHER),
	E(PR_GET_IO_FLUSHER), E(PR_SET_SYSCALL_USER_DISPATCH), E(PR_SCHED_CORE),
};
static const struct _stp_sym uapi_seek_whence[] = {
	E(SEEK_SET), E(SEEK_CUR), E(SEEK_END), E(SEEK_DATA), E(SEEK_HOLE),
};
static const struct _stp_sym uapi_clock_ids[] = {
	E(CLOCK_REALTIME), E(CLOCK_MONOTONIC), E(CLOCK_PROCESS_CPUTIME_ID),
	E(CLOCK_THREAD_CPUTIME_ID), E(CLOCK_MONOTONIC_RAW), E(CLOCK_REALTIME_COARSE),
	E(CLOCK_MONOTONIC_COARSE), E(CLOCK_BOOTTIME), E(CLOCK_REALTIME_ALARM),
	E(CLOCK_BOOTTIME_ALARM), E(CLOCK_TAI),
};
static const struct _stp_sym uapi_wait_options[] = {
	E(WNOHANG), E(WUNTRACED), E(WEXITED), E(WCONTINUED), E(WNOWAIT), E(__WNOTHREAD),
	E(__WALL), E(__WCLONE),
};

static const struct _stp_sym uapi_arch_prctl_codes[] = {
	E(ARCH_SET_GS), E(ARCH_SET_FS), E(ARCH_GET_FS), E(ARCH_GET_GS), E(ARCH_GET_CPUID),
	E(ARCH_SET_CPUID), E(ARCH_GET_XCOMP_SUPP), E(ARCH_GET_XCOMP_PERM), E(ARCH_REQ_XCOMP_PERM),
	E(ARCH_GET_XCOMP_GUEST_PERM), E(ARCH_REQ_XCOMP_GUEST_PERM), E(ARCH_MAP_VDSO_X32),
	E(ARCH_MAP_VDSO_32), E(ARCH_MAP_VDSO_64),
};

static const struct _stp_sym uapi_epoll_ops[] = { E(EPOLL_CTL_ADD), E(EPOLL_CTL_DEL), E(EPOLL_CTL_MOD) };
static const struct _stp_sym uapi_fadvice[] = {
	E(POSIX_FADV_NORMAL), E(POSIX_FADV_RANDOM), E(POSIX_FADV_SEQUENTIAL), E(POSIX_FADV_WILLNEED),
	E(POSIX_FADV_DONTNEED), E(POSIX_FADV_NOREUSE),
};
static const struct _stp_sym uapi_madvice[] = {
	E(MADV_NORMAL), E(MADV_RANDOM), E(MADV_SEQUENTIAL), E(MADV_WILLNEED), E(MADV_DONTNEED),
	E(MADV_FREE), E(MADV_REMOVE), E(MADV_DONTFORK), E(MADV_DOFORK), E(MADV_MERGEABLE),
	E(MADV_UNMERGEABLE), E(MADV_HUGEPAGE), E(MADV_NOHUGEPAGE), E(MADV_DONTDUMP), E(MADV_DODUMP),
	E(MADV_WIPEONFORK), E(MADV_KEEPONFORK), E(MADV_COLD), E(MADV_PAGEOUT), E(MADV_POPULATE_READ),
	E(MADV_POPULATE_WRITE), E(MADV_DONTNEED_LOCKED), E(MADV_COLLAPSE), E(MADV_HWPOISON),
	E(MADV_SOFT_OFFLINE),
};
static const struct _stp_sym uapi_mlockall_flags[] = { E(MCL_CURRENT), E(MCL_FUTURE), E(MCL_ONFAULT) };
static const struct _stp_sym uapi_msync_flags[] = { E(MS_ASYNC), E(MS_INVALIDATE), E(MS_SYNC) };
static const struct _stp_sym uapi_itimer_which[] = { E(ITIMER_REAL), E(ITIMER_VIRTUAL), E(ITIMER_PROF) };
static const struct _stp_sym uapi_priority_which[] = { E(PRIO_PROCESS), E(PRIO_PGRP), E(PRIO_USER) };
static const struct _stp_sym uapi_rusage_who[] = { E(RUSAGE_SELF), E(RUSAGE_CHILDREN), E(RUSAGE_THREAD) };
/* SCHED_NORMAL is written SCHED_OTHER, as strace and SystemTap write it. */
static const struct _stp_sym uapi_sched_policies[] = {
	{SCHED_NORMAL, "SCHED_OTHER"}, E(SCHED_FIFO), E(SCHED_RR), E(SCHED_BATCH), E(SCHED_IDLE),
	E(SCHED_DEADLINE),
};
static const struct _stp_sym uapi_rlimit_resources[] = {
	E(RLIMIT_CPU), E(RLIMIT_FSIZE), E(RLIMIT_DATA), E(RLIMIT_STACK), E(RLIMIT_CORE), E(RLIMIT_RSS),
	E(RLIMIT_NPROC), E(RLIMIT_NOFILE), E(RLIMIT_MEMLOCK), E(RLIMIT_AS), E(RLIMIT_LOCKS),
	E(RLIMIT_SIGPENDING), E(RLIMIT_MSGQUEUE), E(RLIMIT_NICE), E(RLIMIT_RTPRIO), E(RLIMIT_RTTIME),
};
static const struct _stp_sym uapi_rename_flags[] = {
	E(RENAME_NOREPLACE), E(RENAME_EXCHANGE), E(RENAME_WHITEOUT),
};

static const struct _stp_sym uapi_xattr_flags[] = { E(XATTR_CREATE), E(XATTR_REPLACE) };

/* The third batch: the calls that had no row (quota, memory policy, kexec, keys, perf, seccomp,
 * io_uring, the new mount API, landlock...). */
static const struct _stp_sym uapi_quotactl_cmds[] = {
	E(Q_SYNC), E(Q_QUOTAON), E(Q_QUOTAOFF), E(Q_GETFMT), E(Q_GETINFO), E(Q_SETINFO), E(Q_GETQUOTA),
	E(Q_SETQUOTA), E(Q_GETNEXTQUOTA), E(Q_XQUOTAON), E(Q_XQUOTAOFF), E(Q_XGETQUOTA), E(Q_XSETQLIM),
	E(Q_XGETQSTAT), E(Q_XQUOTARM), E(Q_XQUOTASYNC), E(Q_XGETQSTATV), E(Q_XGETNEXTQUOTA),
};
static const struct _stp_sym uapi_quota_types[] = { E(USRQUOTA), E(GRPQUOTA), E(PRJQUOTA) };
static const struct _stp_sym uapi_mempolicy_modes[] = {
	E(MPOL_DEFAULT), E(MPOL_PREFERRED), E(MPOL_BIND), E(MPOL_INTERLEAVE), E(MPOL_LOCAL),
	E(MPOL_PREFERRED_MANY),
};
static const struct _stp_sym uapi_mempolicy_mode_flags[] = {
	E(MPOL_F_STATIC_NODES), E(MPOL_F_RELATIVE_NODES), E(MPOL_F_NUMA_BALANCING),
};
static const struct _stp_sym uapi_mbind_flags[] = { E(MPOL_MF_STRICT), E(MPOL_MF_MOVE), E(MPOL_MF_MOVE_ALL) };
static const struct _stp_sym uapi_get_mempolicy_flags[] = { E(MPOL_F_NODE), E(MPOL_F_ADDR), E(MPOL_F_MEMS_ALLOWED) };
static const struct _stp_sym uapi_kexec_flags[] = { E(KEXEC_ON_CRASH), E(KEXEC_PRESERVE_CONTEXT) };
static const struct _stp_sym uapi_kexec_archs[] = {
	E(KEXEC_ARCH_DEFAULT), E(KEXEC_ARCH_386), E(KEXEC_ARCH_68K), E(KEXEC_ARCH_PARISC),
	E(KEXEC_ARCH_X86_64), E(KEXEC_ARCH_PPC), E(KEXEC_ARCH_PPC64), E(KEXEC_ARCH_IA_64),
	E(KEXEC_ARCH_ARM), E(KEXEC_ARCH_S390), E(KEXEC_ARCH_SH), E(KEXEC_ARCH_MIPS_LE),
	E(KEXEC_ARCH_MIPS), E(KEXEC_ARCH_AARCH64), E(KEXEC_ARCH_RISCV), E(KEXEC_ARCH_LOONGARCH),
};
static const struct _stp_sym uapi_kexec_file_flags[] = {
	E(KEXEC_FILE_UNLOAD), E(KEXEC_FILE_ON_CRASH), E(KEXEC_FILE_NO_INITRAMFS),
};
static const struct _stp_sym uapi_key_specs[] = {
	E(KEY_SPEC_THREAD_KEYRING), E(KEY_SPEC_PROCESS_KEYRING), E(KEY_SPEC_SESSION_KEYRING),
	E(KEY_SPEC_USER_KEYRING), E(KEY_SPEC_USER_SESSION_KEYRING), E(KEY_SPEC_GROUP_KEYRING),
	E(KEY_SPEC_REQKEY_AUTH_KEY), E(KEY_SPEC_REQUESTOR_KEYRING),
};
static const struct _stp_sym uapi_perf_flags[] = {
	E(PERF_FLAG_FD_NO_GROUP), E(PERF_FLAG_FD_OUTPUT), E(PERF_FLAG_PID_CGROUP), E(PERF_FLAG_FD_CLOEXEC),
};
static const struct _stp_sym uapi_seccomp_ops[] = {
	E(SECCOMP_SET_MODE_STRICT), E(SECCOMP_SET_MODE_FILTER), E(SECCOMP_GET_ACTION_AVAIL),
	E(SECCOMP_GET_NOTIF_SIZES),
};
static const struct _stp_sym uapi_seccomp_flags[] = {
	E(SECCOMP_FILTER_FLAG_TSYNC), E(SECCOMP_FILTER_FLAG_LOG), E(SECCOMP_FILTER_FLAG_SPEC_ALLOW),
	E(SECCOMP_FILTER_FLAG_NEW_LISTENER), E(SECCOMP_FILTER_FLAG_TSYNC_ESRCH),
	E(SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV),
};
static const struct _stp_sym uapi_rwf_flags[] = { E(RWF_HIPRI), E(RWF_DSYNC), E(RWF_SYNC), E(RWF_NOWAIT), E(RWF_APPEND) };
static const struct _stp_sym uapi_rseq_flags[] = { E(RSEQ_FLAG_UNREGISTER) };
static const struct _stp_sym uapi_io_uring_enter_flags[] = {
	E(IORING_ENTER_GETEVENTS), E(IORING_ENTER_SQ_WAKEUP), E(IORING_ENTER_SQ_WAIT),
	E(IORING_ENTER_EXT_ARG), E(IORING_ENTER_REGISTERED_RING),
};
static const struct _stp_sym uapi_io_uring_register_ops[] = {
	E(IORING_REGISTER_BUFFERS), E(IORING_UNREGISTER_BUFFERS), E(IORING_REGISTER_FILES),
	E(IORING_UNREGISTER_FILES), E(IORING_REGISTER_EVENTFD), E(IORING_UNREGISTER_EVENTFD),
	E(IORING_REGISTER_FILES_UPDATE), E(IORING_REGISTER_EVENTFD_ASYNC), E(IORING_REGISTER_PROBE),
	E(IORING_REGISTER_PERSONALITY), E(IORING_UNREGISTER_PERSONALITY),
	E(IORING_REGISTER_RESTRICTIONS), E(IORING_REGISTER_ENABLE_RINGS), E(IORING_REGISTER_FILES2),
	E(IORING_REGISTER_FILES_UPDATE2), E(IORING_REGISTER_BUFFERS2),
	E(IORING_REGISTER_BUFFERS_UPDATE), E(IORING_REGISTER_IOWQ_AFF),
	E(IORING_UNREGISTER_IOWQ_AFF), E(IORING_REGISTER_IOWQ_MAX_WORKERS),
	E(IORING_REGISTER_RING_FDS), E(IORING_UNREGISTER_RING_FDS), E(IORING_REGISTER_PBUF_RING),
	E(IORING_UNREGISTER_PBUF_RING), E(IORING_REGISTER_SYNC_CANCEL),
	E(IORING_REGISTER_FILE_ALLOC_RANGE),
};
static const struct _stp_sym uapi_open_tree_flags[] = {
	E(OPEN_TREE_CLONE), E(OPEN_TREE_CLOEXEC), E(AT_SYMLINK_NOFOLLOW), E(AT_NO_AUTOMOUNT),
	E(AT_EMPTY_PATH), E(AT_RECURSIVE),
};
static const struct _stp_sym uapi_move_mount_flags[] = {
	E(MOVE_MOUNT_F_SYMLINKS), E(MOVE_MOUNT_F_AUTOMOUNTS), E(MOVE_MOUNT_F_EMPTY_PATH),
	E(MOVE_MOUNT_T_SYMLINKS), E(MOVE_MOUNT_T_AUTOMOUNTS), E(MOVE_MOUNT_T_EMPTY_PATH),
	E(MOVE_MOUNT_SET_GROUP),
};
static const struct _stp_sym uapi_fsopen_flags[] = { E(FSOPEN_CLOEXEC) };
static const struct _stp_sym uapi_fspick_flags[] = {
	E(FSPICK_CLOEXEC), E(FSPICK_SYMLINK_NOFOLLOW), E(FSPICK_NO_AUTOMOUNT), E(FSPICK_EMPTY_PATH),
};
static const struct _stp_sym uapi_fsmount_flags[] = { E(FSMOUNT_CLOEXEC) };
static const struct _stp_sym uapi_mount_attr_flags[] = {
	E(MOUNT_ATTR_RDONLY), E(MOUNT_ATTR_NOSUID), E(MOUNT_ATTR_NODEV), E(MOUNT_ATTR_NOEXEC),
	E(MOUNT_ATTR_NOATIME), E(MOUNT_ATTR_STRICTATIME), E(MOUNT_ATTR_NODIRATIME),
	E(MOUNT_ATTR_IDMAP), E(MOUNT_ATTR_NOSYMFOLLOW),
};
static const struct _stp_sym uapi_fsconfig_cmds[] = {
	E(FSCONFIG_SET_FLAG), E(FSCONFIG_SET_STRING), E(FSCONFIG_SET_BINARY), E(FSCONFIG_SET_PATH),
	E(FSCONFIG_SET_PATH_EMPTY), E(FSCONFIG_SET_FD), E(FSCONFIG_CMD_CREATE),
	E(FSCONFIG_CMD_RECONFIGURE),
};
static const struct _stp_sym uapi_landlock_create_flags[] = {
	E(LANDLOCK_CREATE_RULESET_VERSION), E(LANDLOCK_CREATE_RULESET_ERRATA),
};
static const struct _stp_sym uapi_landlock_rule_types[] = { E(LANDLOCK_RULE_PATH_BENEATH) };

/* The kernel-internal errnos (include/linux/errno.h, not UAPI) start at 512. */
static const struct _stp_sym *errnos_uapi_only(int *n)
{
	static struct _stp_sym uapi[sizeof(_stp_errnos) / sizeof(_stp_errnos[0])];
	int i;

	*n = 0;
	for (i = 0; i < (int)(sizeof(_stp_errnos) / sizeof(_stp_errnos[0])); i++)
		if (_stp_errnos[i].value < 512)
			uapi[(*n)++] = _stp_errnos[i];
	return uapi;
}

static void test_tables(void)
{
	int n;
	const struct _stp_sym *errs = errnos_uapi_only(&n);

	CHECK(same_table("open_flags", STP_SYMS(_stp_open_flags), STP_SYMS(uapi_open_flags)));
	CHECK(same_table("open_accmode", STP_SYMS(_stp_open_accmode), STP_SYMS(uapi_open_accmode)));
	CHECK(same_table("at_flags", STP_SYMS(_stp_at_flags), STP_SYMS(uapi_at_flags)));
	CHECK(same_table("mmap_prot", STP_SYMS(_stp_mmap_prot), STP_SYMS(uapi_mmap_prot)));
	CHECK(same_table("mmap_type", STP_SYMS(_stp_mmap_type), STP_SYMS(uapi_mmap_type)));
	CHECK(same_table("mmap_flags", STP_SYMS(_stp_mmap_flags), STP_SYMS(uapi_mmap_flags)));
	CHECK(same_table("clone_flags", STP_SYMS(_stp_clone_flags), STP_SYMS(uapi_clone_flags)));
	CHECK(same_table("signals", STP_SYMS(_stp_signals), STP_SYMS(uapi_signals)));
	CHECK(SIGRTMIN == STP_SIGRTMIN);
	CHECK(same_table("sigprocmask_how", STP_SYMS(_stp_sigprocmask_how), STP_SYMS(uapi_sigprocmask_how)));
	CHECK(same_table("errnos", errs, n, STP_SYMS(uapi_errnos)));
	CHECK(same_table("fcntl_cmds", STP_SYMS(_stp_fcntl_cmds), STP_SYMS(uapi_fcntl_cmds)));
	CHECK(same_table("ioctl_requests", STP_SYMS(_stp_ioctl_requests), STP_SYMS(uapi_ioctl_requests)));
	CHECK(same_table("futex_ops", STP_SYMS(_stp_futex_ops), STP_SYMS(uapi_futex_ops)));
	CHECK(FUTEX_PRIVATE_FLAG == STP_FUTEX_PRIVATE_FLAG && FUTEX_CLOCK_REALTIME == STP_FUTEX_CLOCK_REALTIME);
	CHECK(same_table("prctl_options", STP_SYMS(_stp_prctl_options), STP_SYMS(uapi_prctl_options)));
	CHECK(same_table("seek_whence", STP_SYMS(_stp_seek_whence), STP_SYMS(uapi_seek_whence)));
	CHECK(same_table("clock_ids", STP_SYMS(_stp_clock_ids), STP_SYMS(uapi_clock_ids)));
	CHECK(same_table("wait_options", STP_SYMS(_stp_wait_options), STP_SYMS(uapi_wait_options)));
	CHECK(same_table("arch_prctl_codes", STP_SYMS(_stp_arch_prctl_codes), STP_SYMS(uapi_arch_prctl_codes)));
	CHECK(AT_FDCWD == STP_AT_FDCWD);
	CHECK(same_table("epoll_ops", STP_SYMS(_stp_epoll_ops), STP_SYMS(uapi_epoll_ops)));
	CHECK(same_table("fadvice", STP_SYMS(_stp_fadvice), STP_SYMS(uapi_fadvice)));
	CHECK(same_table("madvice", STP_SYMS(_stp_madvice), STP_SYMS(uapi_madvice)));
	CHECK(same_table("mlockall_flags", STP_SYMS(_stp_mlockall_flags), STP_SYMS(uapi_mlockall_flags)));
	CHECK(same_table("msync_flags", STP_SYMS(_stp_msync_flags), STP_SYMS(uapi_msync_flags)));
	CHECK(same_table("itimer_which", STP_SYMS(_stp_itimer_which), STP_SYMS(uapi_itimer_which)));
	CHECK(same_table("priority_which", STP_SYMS(_stp_priority_which), STP_SYMS(uapi_priority_which)));
	CHECK(same_table("rusage_who", STP_SYMS(_stp_rusage_who), STP_SYMS(uapi_rusage_who)));
	CHECK(same_table("sched_policies", STP_SYMS(_stp_sched_policies), STP_SYMS(uapi_sched_policies)));
	CHECK(SCHED_RESET_ON_FORK == STP_SCHED_RESET_ON_FORK);
	CHECK(same_table("rlimit_resources", STP_SYMS(_stp_rlimit_resources), STP_SYMS(uapi_rlimit_resources)));
	CHECK(same_table("rename_flags", STP_SYMS(_stp_rename_flags), STP_SYMS(uapi_rename_flags)));
	CHECK(same_table("xattr_flags", STP_SYMS(_stp_xattr_flags), STP_SYMS(uapi_xattr_flags)));
	/* quotactl's table holds the commands before QCMD shifts them */
	CHECK(same_table("quotactl_cmds", STP_SYMS(_stp_quotactl_cmds), STP_SYMS(uapi_quotactl_cmds)));
	CHECK(SUBCMDSHIFT == STP_QUOTA_SUBCMDSHIFT);
	CHECK(same_table("quota_types", STP_SYMS(_stp_quota_types), STP_SYMS(uapi_quota_types)));
	CHECK(same_table("mempolicy_modes", STP_SYMS(_stp_mempolicy_modes), STP_SYMS(uapi_mempolicy_modes)));
	CHECK(same_table("mempolicy_mode_flags", STP_SYMS(_stp_mempolicy_mode_flags), STP_SYMS(uapi_mempolicy_mode_flags)));
	CHECK(same_table("mbind_flags", STP_SYMS(_stp_mbind_flags), STP_SYMS(uapi_mbind_flags)));
	CHECK(same_table("get_mempolicy_flags", STP_SYMS(_stp_get_mempolicy_flags), STP_SYMS(uapi_get_mempolicy_flags)));
	CHECK(same_table("kexec_flags", STP_SYMS(_stp_kexec_flags), STP_SYMS(uapi_kexec_flags)));
	CHECK(same_table("kexec_archs", STP_SYMS(_stp_kexec_archs), STP_SYMS(uapi_kexec_archs)));
	CHECK(KEXEC_ARCH_MASK == STP_KEXEC_ARCH_MASK);
	CHECK(same_table("kexec_file_flags", STP_SYMS(_stp_kexec_file_flags), STP_SYMS(uapi_kexec_file_flags)));
	CHECK(same_table("key_specs", STP_SYMS(_stp_key_specs), STP_SYMS(uapi_key_specs)));
	CHECK(same_table("perf_flags", STP_SYMS(_stp_perf_flags), STP_SYMS(uapi_perf_flags)));
	CHECK(same_table("seccomp_ops", STP_SYMS(_stp_seccomp_ops), STP_SYMS(uapi_seccomp_ops)));
	CHECK(same_table("seccomp_flags", STP_SYMS(_stp_seccomp_flags), STP_SYMS(uapi_seccomp_flags)));
	CHECK(same_table("rwf_flags", STP_SYMS(_stp_rwf_flags), STP_SYMS(uapi_rwf_flags)));
	CHECK(same_table("rseq_flags", STP_SYMS(_stp_rseq_flags), STP_SYMS(uapi_rseq_flags)));
	CHECK(same_table("io_uring_enter_flags", STP_SYMS(_stp_io_uring_enter_flags), STP_SYMS(uapi_io_uring_enter_flags)));
	CHECK(same_table("io_uring_register_ops", STP_SYMS(_stp_io_uring_register_ops), STP_SYMS(uapi_io_uring_register_ops)));
	CHECK(same_table("open_tree_flags", STP_SYMS(_stp_open_tree_flags), STP_SYMS(uapi_open_tree_flags)));
	CHECK(same_table("move_mount_flags", STP_SYMS(_stp_move_mount_flags), STP_SYMS(uapi_move_mount_flags)));
	CHECK(same_table("fsopen_flags", STP_SYMS(_stp_fsopen_flags), STP_SYMS(uapi_fsopen_flags)));
	CHECK(same_table("fspick_flags", STP_SYMS(_stp_fspick_flags), STP_SYMS(uapi_fspick_flags)));
	CHECK(same_table("fsmount_flags", STP_SYMS(_stp_fsmount_flags), STP_SYMS(uapi_fsmount_flags)));
	CHECK(same_table("mount_attr_flags", STP_SYMS(_stp_mount_attr_flags), STP_SYMS(uapi_mount_attr_flags)));
	CHECK(same_table("fsconfig_cmds", STP_SYMS(_stp_fsconfig_cmds), STP_SYMS(uapi_fsconfig_cmds)));
	CHECK(same_table("landlock_create_flags", STP_SYMS(_stp_landlock_create_flags), STP_SYMS(uapi_landlock_create_flags)));
	CHECK(same_table("landlock_rule_types", STP_SYMS(_stp_landlock_rule_types), STP_SYMS(uapi_landlock_rule_types)));
}

/* The renderings, with values built from the UAPI names. */
static void test_rendering(void)
{
	char b[MAXSTRINGLEN];

	_stp_decode_open_flags(b, sizeof(b), O_RDONLY | O_CLOEXEC);
	CHECK_STR(b, "O_RDONLY|O_CLOEXEC");
	_stp_decode_open_flags(b, sizeof(b), O_WRONLY | O_CREAT | O_TRUNC);
	CHECK_STR(b, "O_WRONLY|O_CREAT|O_TRUNC");
	_stp_decode_open_flags(b, sizeof(b), O_RDWR | O_SYNC | O_TMPFILE);
	CHECK_STR(b, "O_RDWR|O_SYNC|O_TMPFILE");
	_stp_decode_open_flags(b, sizeof(b), O_RDONLY | O_DIRECTORY | 0x40000000);
	CHECK_STR(b, "O_RDONLY|O_DIRECTORY|0x40000000");
	_stp_decode_pipe_flags(b, sizeof(b), O_CLOEXEC | O_NONBLOCK);
	CHECK_STR(b, "O_NONBLOCK|O_CLOEXEC");
	_stp_decode_pipe_flags(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	_stp_decode_dirfd(b, sizeof(b), AT_FDCWD);
	CHECK_STR(b, "AT_FDCWD");
	_stp_decode_dirfd(b, sizeof(b), 0xffffff9c);	/* an int argument read as a register */
	CHECK_STR(b, "AT_FDCWD");
	_stp_decode_dirfd(b, sizeof(b), 3);
	CHECK_STR(b, "3");
	_stp_decode_mmap_flags(b, sizeof(b), MAP_PRIVATE | MAP_ANONYMOUS);
	CHECK_STR(b, "MAP_PRIVATE|MAP_ANONYMOUS");
	_stp_decode_mmap_flags(b, sizeof(b), MAP_SHARED | MAP_FIXED | MAP_DENYWRITE);
	CHECK_STR(b, "MAP_SHARED|MAP_FIXED|MAP_DENYWRITE");
	b[0] = '\0';
	_stp_decode_flags(b, sizeof(b), STP_SYMS(_stp_mmap_prot), PROT_READ | PROT_EXEC, 0);
	CHECK_STR(b, "PROT_READ|PROT_EXEC");
	b[0] = '\0';
	_stp_decode_flags(b, sizeof(b), STP_SYMS(_stp_mmap_prot), 0, 0);
	CHECK_STR(b, "0x0");
	_stp_decode_clone_flags(b, sizeof(b), CLONE_VM | CLONE_VFORK | SIGCHLD);
	CHECK_STR(b, "CLONE_VM|CLONE_VFORK|SIGCHLD");
	_stp_decode_clone_flags(b, sizeof(b), CLONE_CHILD_SETTID | CLONE_CHILD_CLEARTID | SIGCHLD);
	CHECK_STR(b, "CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD");
	_stp_decode_signal(b, sizeof(b), SIGKILL);
	CHECK_STR(b, "SIGKILL");
	_stp_decode_signal(b, sizeof(b), SIGRTMIN + 3);
	CHECK_STR(b, "SIGRTMIN+3");
	_stp_decode_signal(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	_stp_decode_futex_op(b, sizeof(b), FUTEX_WAIT | FUTEX_PRIVATE_FLAG);
	CHECK_STR(b, "FUTEX_WAIT_PRIVATE");
	_stp_decode_futex_op(b, sizeof(b), FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME);
	CHECK_STR(b, "FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME");
	_stp_decode_mode(b, sizeof(b), 0644);
	CHECK_STR(b, "0644");
	_stp_decode_mode(b, sizeof(b), 0);
	CHECK_STR(b, "0");
	_stp_decode_errno(b, sizeof(b), ENOENT);
	CHECK_STR(b, "ENOENT");
	_stp_decode_errno(b, sizeof(b), 3333);
	CHECK_STR(b, "E#3333");
	_stp_decode_return(b, sizeof(b), 1, -ENOENT);
	CHECK_STR(b, "-2 (ENOENT)");
	_stp_decode_return(b, sizeof(b), 1, 3);
	CHECK_STR(b, "3");
	_stp_decode_return(b, sizeof(b), 2, 4096);
	CHECK_STR(b, "0x1000");
	_stp_decode_return(b, sizeof(b), 3, 8);
	CHECK_STR(b, "010");
	_stp_decode_return(b, sizeof(b), 1, -5000);
	CHECK_STR(b, "-5000");
	b[0] = '\0';
	_stp_decode_enum(b, sizeof(b), STP_SYMS(_stp_fcntl_cmds), F_DUPFD_CLOEXEC);
	CHECK_STR(b, "F_DUPFD_CLOEXEC");
	b[0] = '\0';
	_stp_decode_enum(b, sizeof(b), STP_SYMS(_stp_prctl_options), 9999);
	CHECK_STR(b, "9999");
	/* truncation keeps the NUL within the buffer */
	char small[8];
	_stp_decode_open_flags(small, sizeof(small), O_RDONLY | O_CLOEXEC);
	CHECK_STR(small, "O_RDONL");
}

/* Fake user memory for argstr: strings at 0x1000 + k, words at 0x2000 + 8k. */
static const char *fake_strings[] = {"/etc/passwd", "ls", "-l", "a\"b\n"};
static const unsigned long fake_words[] = {0x1001, 0x1002, 0, 0x1003, 0};

static void fake_string(char *buf, int size, unsigned long addr)
{
	if (addr < 0x1000 || addr >= 0x1000 + sizeof(fake_strings) / sizeof(fake_strings[0])) {
		_stp_decode_num(buf, size, (long)addr, 1);
		return;
	}
	_stp_decode_cat(buf, size, "\"");
	_stp_decode_cat(buf, size, fake_strings[addr - 0x1000]);
	_stp_decode_cat(buf, size, "\"");
}

static int fake_word(unsigned long addr, unsigned long *out)
{
	unsigned long k = (addr - 0x2000) / 8;

	if (addr < 0x2000 || k >= sizeof(fake_words) / sizeof(fake_words[0]))
		return -1;
	*out = fake_words[k];
	return 0;
}

/* argstr from a spec, as compiler/elaborate/syscalls.c writes them from syscalls.tbl. */
/* The decoders added for the second batch of calls, by the names syscalls.tbl gives them. */
static void test_more_decoders(void)
{
	char b[MAXSTRINGLEN];

	_stp_decode_epoll_op(b, sizeof(b), EPOLL_CTL_MOD);
	CHECK_STR(b, "EPOLL_CTL_MOD");
	_stp_decode_fadvice(b, sizeof(b), POSIX_FADV_DONTNEED);
	CHECK_STR(b, "POSIX_FADV_DONTNEED");
	_stp_decode_madvice(b, sizeof(b), MADV_HWPOISON);
	CHECK_STR(b, "MADV_HWPOISON");
	_stp_decode_madvice(b, sizeof(b), 77);
	CHECK_STR(b, "77");
	_stp_decode_mlockall_flags(b, sizeof(b), MCL_CURRENT | MCL_FUTURE);
	CHECK_STR(b, "MCL_CURRENT|MCL_FUTURE");
	_stp_decode_msync_flags(b, sizeof(b), MS_SYNC | MS_INVALIDATE);
	CHECK_STR(b, "MS_INVALIDATE|MS_SYNC");
	_stp_decode_itimer_which(b, sizeof(b), ITIMER_PROF);
	CHECK_STR(b, "ITIMER_PROF");
	_stp_decode_priority_which(b, sizeof(b), PRIO_USER);
	CHECK_STR(b, "PRIO_USER");
	_stp_decode_rusage_who(b, sizeof(b), RUSAGE_CHILDREN);
	CHECK_STR(b, "RUSAGE_CHILDREN");
	_stp_decode_rlimit_resource(b, sizeof(b), RLIMIT_NOFILE);
	CHECK_STR(b, "RLIMIT_NOFILE");
	_stp_decode_rename_flags(b, sizeof(b), RENAME_NOREPLACE);
	CHECK_STR(b, "RENAME_NOREPLACE");
	_stp_decode_sched_policy(b, sizeof(b), SCHED_NORMAL);
	CHECK_STR(b, "SCHED_OTHER");
	_stp_decode_sched_policy(b, sizeof(b), SCHED_RR | SCHED_RESET_ON_FORK);
	CHECK_STR(b, "SCHED_RR|SCHED_RESET_ON_FORK");
}

/* argstr of calls the second batch of rows describes, each decoder by its syscalls.tbl name. */
static void test_more_argstr(void)
{
	static const struct _stp_argstr_reader rd = {fake_string, fake_word};
	char b[MAXSTRINGLEN];
	unsigned long epoll_args[6] = {4, EPOLL_CTL_ADD, 5, 0x7ffd1000};
	unsigned long rusage_args[6] = {(unsigned long)(long)RUSAGE_CHILDREN, 0x7ffd2000};
	unsigned long sched_args[6] = {0, SCHED_FIFO, 0x7ffd3000};
	unsigned long rename_args[6] = {(unsigned long)(long)AT_FDCWD, 0x1000, 3, 0x1000, RENAME_EXCHANGE};
	unsigned long misc_args[6] = {RLIMIT_NOFILE, MADV_DONTNEED, POSIX_FADV_WILLNEED, ITIMER_REAL,
				      PRIO_PGRP, MCL_FUTURE};

	_stp_syscall_argstr(b, sizeof(b), epoll_args, "int,int:epoll_op,int,ptr", &rd);
	CHECK_STR(b, "4, EPOLL_CTL_ADD, 5, 0x7ffd1000");
	_stp_syscall_argstr(b, sizeof(b), rusage_args, "int:rusage_who,ptr", &rd);
	CHECK_STR(b, "RUSAGE_CHILDREN, 0x7ffd2000");
	_stp_syscall_argstr(b, sizeof(b), sched_args, "int,int:sched_policy,ptr", &rd);
	CHECK_STR(b, "0, SCHED_FIFO, 0x7ffd3000");
	_stp_syscall_argstr(b, sizeof(b), rename_args, "int:dirfd,ustr,int:dirfd,ustr,uint:rename_flags", &rd);
	CHECK_STR(b, "AT_FDCWD, \"/etc/passwd\", 3, \"/etc/passwd\", RENAME_EXCHANGE");
	_stp_syscall_argstr(b, sizeof(b), misc_args,
			    "int:rlimit_resource,int:madvice,int:fadvice,int:itimer_which,int:priority_which,int:mlockall_flags",
			    &rd);
	CHECK_STR(b, "RLIMIT_NOFILE, MADV_DONTNEED, POSIX_FADV_WILLNEED, ITIMER_REAL, PRIO_PGRP, MCL_FUTURE");
	misc_args[0] = XATTR_REPLACE;
	_stp_syscall_argstr(b, sizeof(b), misc_args, "int:xattr_flags", &rd);
	CHECK_STR(b, "XATTR_REPLACE");
	misc_args[0] = MS_ASYNC;
	_stp_syscall_argstr(b, sizeof(b), misc_args, "int:msync_flags", &rd);
	CHECK_STR(b, "MS_ASYNC");
}

/* The third batch: decoders with a shape of their own, and argstr of rows using sptr and skip. */
static void test_third_batch(void)
{
	static const struct _stp_argstr_reader rd = {fake_string, fake_word};
	char b[MAXSTRINGLEN];
	unsigned long seccomp_args[6] = {SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_LOG,
					 0x7ffd1000};
	unsigned long preadv2_args[6] = {3, 0x7ffd2000, 2, 4096, 0xdead, RWF_NOWAIT | RWF_HIPRI};
	unsigned long add_key_args[6] = {0x1001, 0x1002, 0x7ffd3000, 8,
					 (unsigned long)(long)KEY_SPEC_SESSION_KEYRING};
	unsigned long mbind_args[6] = {0x7f0000000000UL, 4096, MPOL_BIND | MPOL_F_STATIC_NODES, 0x7ffd4000, 65,
				       MPOL_MF_STRICT | MPOL_MF_MOVE};
	unsigned long move_mount_args[6] = {(unsigned long)(long)AT_FDCWD, 0x1000, 4, 0x1003,
					    MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_SYMLINKS};

	_stp_decode_quotactl_cmd(b, sizeof(b), QCMD(Q_GETQUOTA, USRQUOTA));
	CHECK_STR(b, "Q_GETQUOTA|USRQUOTA");
	_stp_decode_quotactl_cmd(b, sizeof(b), QCMD(Q_XGETQSTAT, PRJQUOTA));
	CHECK_STR(b, "Q_XGETQSTAT|PRJQUOTA");
	_stp_decode_quotactl_cmd(b, sizeof(b), QCMD(0x77, 9));
	CHECK_STR(b, "119|9");
	_stp_decode_mempolicy_mode(b, sizeof(b), MPOL_INTERLEAVE | MPOL_F_STATIC_NODES);
	CHECK_STR(b, "MPOL_INTERLEAVE|MPOL_F_STATIC_NODES");
	_stp_decode_mempolicy_mode(b, sizeof(b), MPOL_DEFAULT);
	CHECK_STR(b, "MPOL_DEFAULT");
	_stp_decode_kexec_flags(b, sizeof(b), KEXEC_ON_CRASH | KEXEC_ARCH_X86_64);
	CHECK_STR(b, "KEXEC_ON_CRASH|KEXEC_ARCH_X86_64");
	_stp_decode_kexec_flags(b, sizeof(b), KEXEC_ARCH_DEFAULT);
	CHECK_STR(b, "KEXEC_ARCH_DEFAULT");
	_stp_decode_key_spec(b, sizeof(b), 0xfffffffdUL);	/* an int argument read as a register */
	CHECK_STR(b, "KEY_SPEC_SESSION_KEYRING");
	_stp_decode_key_spec(b, sizeof(b), 12345);
	CHECK_STR(b, "12345");
	_stp_decode_io_uring_enter_flags(b, sizeof(b), IORING_ENTER_GETEVENTS | IORING_ENTER_EXT_ARG);
	CHECK_STR(b, "IORING_ENTER_GETEVENTS|IORING_ENTER_EXT_ARG");
	_stp_decode_open_tree_flags(b, sizeof(b), OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	CHECK_STR(b, "OPEN_TREE_CLONE|OPEN_TREE_CLOEXEC|AT_RECURSIVE");
	_stp_decode_mount_attr_flags(b, sizeof(b), MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOATIME);
	CHECK_STR(b, "MOUNT_ATTR_RDONLY|MOUNT_ATTR_NOATIME");
	_stp_decode_perf_flags(b, sizeof(b), PERF_FLAG_FD_CLOEXEC);
	CHECK_STR(b, "PERF_FLAG_FD_CLOEXEC");
	_stp_decode_fsconfig_cmd(b, sizeof(b), FSCONFIG_CMD_CREATE);
	CHECK_STR(b, "FSCONFIG_CMD_CREATE");

	_stp_syscall_argstr(b, sizeof(b), seccomp_args, "uint:seccomp_op,uint:seccomp_flags,ptr", &rd);
	CHECK_STR(b, "SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC|SECCOMP_FILTER_FLAG_LOG, 0x7ffd1000");
	/* pos_h (skip) is not shown */
	_stp_syscall_argstr(b, sizeof(b), preadv2_args, "int,ptr,int,long,skip,int:rwf_flags", &rd);
	CHECK_STR(b, "3, 0x7ffd2000, 2, 4096, RWF_HIPRI|RWF_NOWAIT");
	/* sptr: the string quoted, though the variable is the address */
	_stp_syscall_argstr(b, sizeof(b), add_key_args, "sptr,sptr,ptr,ulong,int:key_spec", &rd);
	CHECK_STR(b, "\"ls\", \"-l\", 0x7ffd3000, 8, KEY_SPEC_SESSION_KEYRING");
	_stp_syscall_argstr(b, sizeof(b), mbind_args, "ptr,ulong,int:mempolicy_mode,ptr,ulong,uint:mbind_flags", &rd);
	CHECK_STR(b, "0x7f0000000000, 4096, MPOL_BIND|MPOL_F_STATIC_NODES, 0x7ffd4000, 65, MPOL_MF_STRICT|MPOL_MF_MOVE");
	_stp_syscall_argstr(b, sizeof(b), move_mount_args, "int:dirfd,ustr,int:dirfd,ustr,uint:move_mount_flags", &rd);
	CHECK_STR(b, "AT_FDCWD, \"/etc/passwd\", 4, \"a\"b\n\", MOVE_MOUNT_F_EMPTY_PATH|MOVE_MOUNT_T_SYMLINKS");
}

static void test_argstr(void)
{
	static const struct _stp_argstr_reader rd = {fake_string, fake_word};
	char b[MAXSTRINGLEN];
	unsigned long open_args[6] = {(unsigned long)(long)AT_FDCWD, 0x1000, O_RDONLY | O_CLOEXEC, 3};
	unsigned long creat_args[6] = {(unsigned long)(long)AT_FDCWD, 0x1000, O_WRONLY | O_CREAT, 0644};
	unsigned long exec_args[6] = {0x1000, 0x2000, 0x2018};
	unsigned long misc_args[6] = {(unsigned long)-1, 0xffffffffUL, 0x7fff0000, 0x9999, 5, 6};

	_stp_syscall_argstr(b, sizeof(b), open_args, "int:dirfd,ustr,int:open_flags,octal@creat", &rd);
	CHECK_STR(b, "AT_FDCWD, \"/etc/passwd\", O_RDONLY|O_CLOEXEC");
	_stp_syscall_argstr(b, sizeof(b), creat_args, "int:dirfd,ustr,int:open_flags,octal@creat", &rd);
	CHECK_STR(b, "AT_FDCWD, \"/etc/passwd\", O_WRONLY|O_CREAT, 0644");
	_stp_syscall_argstr(b, sizeof(b), exec_args, "ustr,argv,env", &rd);
	CHECK_STR(b, "\"/etc/passwd\", [\"ls\", \"-l\"], [/* 1 vars */]");
	exec_args[1] = 0x8;
	exec_args[2] = 0;
	_stp_syscall_argstr(b, sizeof(b), exec_args, "ustr,argv,env", &rd);
	CHECK_STR(b, "\"/etc/passwd\", 0x8, NULL");
	_stp_syscall_argstr(b, sizeof(b), misc_args, "int,uint,ptr,ustr,long,ulong", &rd);
	CHECK_STR(b, "-1, 4294967295, 0x7fff0000, 0x9999, 5, 6");
	_stp_syscall_argstr(b, sizeof(b), misc_args, "int:no_such_decoder", &rd);
	CHECK_STR(b, "-1");
	_stp_syscall_argstr(b, sizeof(b), misc_args, "", &rd);
	CHECK_STR(b, "");
	misc_args[0] = SIGKILL | CLONE_VM;
	_stp_syscall_argstr(b, sizeof(b), misc_args, "ulong:clone_flags", &rd);
	CHECK_STR(b, "CLONE_VM|SIGKILL");
}

int main(void)
{
	test_argstr();
	test_tables();
	test_rendering();
	test_more_decoders();
	test_more_argstr();
	test_third_batch();
	unit_checks++;
	unit_failures += test_libc_tables();
	return unit_report("unit_syscall_decode");
}
