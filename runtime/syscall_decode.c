/*
 * syscall_decode.c - argstr decoders: {value, "NAME"} tables of the x86-64 UAPI numbers (open
 * flags, AT_*, mmap, clone, signals, errno, socket, fcntl, ioctl, futex, prctl, ...; arm64's
 * where they differ, under __aarch64__) and the
 * code that renders a value with them. Generic C (no kernel headers): the numbers are written
 * out here and testsuite/unit/unit_syscall_decode.c checks each one against the UAPI headers.
 */
#ifndef STP_SYSCALL_DECODE_C
#define STP_SYSCALL_DECODE_C

/* One named value of a table. */
struct _stp_sym {
	long value;           /* the number the kernel uses */
	const char *name;     /* its UAPI name */
};

#define STP_SYMS(t) (t), (int)(sizeof(t) / sizeof((t)[0]))

/*
 * open(2) flags past the access mode (O_ACCMODE, the low two bits). arm64
 * has four of its own (arch/arm64/include/uapi/asm/fcntl.h): O_DIRECTORY,
 * O_NOFOLLOW, O_DIRECT and O_LARGEFILE, so O_TMPFILE (with O_DIRECTORY) too.
 */
static const struct _stp_sym _stp_open_flags[] = {
	{0100, "O_CREAT"}, {0200, "O_EXCL"}, {0400, "O_NOCTTY"}, {01000, "O_TRUNC"},
	{02000, "O_APPEND"}, {04000, "O_NONBLOCK"}, {04010000, "O_SYNC"}, {010000, "O_DSYNC"},
#ifdef __aarch64__
	{020000, "FASYNC"}, {0200000, "O_DIRECT"}, {0400000, "O_LARGEFILE"},
	{020040000, "O_TMPFILE"}, {040000, "O_DIRECTORY"}, {0100000, "O_NOFOLLOW"},
#else
	{020000, "FASYNC"}, {040000, "O_DIRECT"}, {0100000, "O_LARGEFILE"},
	{020200000, "O_TMPFILE"}, {0200000, "O_DIRECTORY"}, {0400000, "O_NOFOLLOW"},
#endif
	{01000000, "O_NOATIME"}, {02000000, "O_CLOEXEC"}, {010000000, "O_PATH"},
};
static const struct _stp_sym _stp_open_accmode[] = {
	{0, "O_RDONLY"}, {1, "O_WRONLY"}, {2, "O_RDWR"},
};

/* *at(2) flags. */
static const struct _stp_sym _stp_at_flags[] = {
	{0x100, "AT_SYMLINK_NOFOLLOW"}, {0x200, "AT_REMOVEDIR"}, {0x400, "AT_SYMLINK_FOLLOW"},
	{0x800, "AT_NO_AUTOMOUNT"}, {0x1000, "AT_EMPTY_PATH"}, {0x8000, "AT_RECURSIVE"},
};

/* access(2) modes. */
static const struct _stp_sym _stp_access_modes[] = {
	{4, "R_OK"}, {2, "W_OK"}, {1, "X_OK"},
};

/* mmap(2) and mprotect(2) protections. */
static const struct _stp_sym _stp_mmap_prot[] = {
	{0x1, "PROT_READ"}, {0x2, "PROT_WRITE"}, {0x4, "PROT_EXEC"}, {0x8, "PROT_SEM"},
	{0x01000000, "PROT_GROWSDOWN"}, {0x02000000, "PROT_GROWSUP"},
};

/* mmap(2) flags: the mapping type (low four bits), then the flag bits. */
static const struct _stp_sym _stp_mmap_type[] = {
	{0x1, "MAP_SHARED"}, {0x2, "MAP_PRIVATE"}, {0x3, "MAP_SHARED_VALIDATE"},
};
static const struct _stp_sym _stp_mmap_flags[] = {
	{0x10, "MAP_FIXED"}, {0x20, "MAP_ANONYMOUS"}, {0x40, "MAP_32BIT"}, {0x100, "MAP_GROWSDOWN"},
	{0x800, "MAP_DENYWRITE"}, {0x1000, "MAP_EXECUTABLE"}, {0x2000, "MAP_LOCKED"},
	{0x4000, "MAP_NORESERVE"}, {0x8000, "MAP_POPULATE"}, {0x10000, "MAP_NONBLOCK"},
	{0x20000, "MAP_STACK"}, {0x40000, "MAP_HUGETLB"}, {0x80000, "MAP_SYNC"},
	{0x100000, "MAP_FIXED_NOREPLACE"}, {0x4000000, "MAP_UNINITIALIZED"},
};

/* clone(2) flags; the low byte is the exit signal. */
static const struct _stp_sym _stp_clone_flags[] = {
	{0x100, "CLONE_VM"}, {0x200, "CLONE_FS"}, {0x400, "CLONE_FILES"}, {0x800, "CLONE_SIGHAND"},
	{0x1000, "CLONE_PIDFD"}, {0x2000, "CLONE_PTRACE"}, {0x4000, "CLONE_VFORK"},
	{0x8000, "CLONE_PARENT"}, {0x10000, "CLONE_THREAD"}, {0x20000, "CLONE_NEWNS"},
	{0x40000, "CLONE_SYSVSEM"}, {0x80000, "CLONE_SETTLS"}, {0x100000, "CLONE_PARENT_SETTID"},
	{0x200000, "CLONE_CHILD_CLEARTID"}, {0x400000, "CLONE_DETACHED"},
	{0x800000, "CLONE_UNTRACED"}, {0x1000000, "CLONE_CHILD_SETTID"},
	{0x2000000, "CLONE_NEWCGROUP"}, {0x4000000, "CLONE_NEWUTS"}, {0x8000000, "CLONE_NEWIPC"},
	{0x10000000, "CLONE_NEWUSER"}, {0x20000000, "CLONE_NEWPID"}, {0x40000000, "CLONE_NEWNET"},
	{0x80000000L, "CLONE_IO"},
};

/* Signals 1-31; 32 and up are SIGRTMIN+N. */
static const struct _stp_sym _stp_signals[] = {
	{1, "SIGHUP"}, {2, "SIGINT"}, {3, "SIGQUIT"}, {4, "SIGILL"}, {5, "SIGTRAP"}, {6, "SIGABRT"},
	{7, "SIGBUS"}, {8, "SIGFPE"}, {9, "SIGKILL"}, {10, "SIGUSR1"}, {11, "SIGSEGV"},
	{12, "SIGUSR2"}, {13, "SIGPIPE"}, {14, "SIGALRM"}, {15, "SIGTERM"}, {16, "SIGSTKFLT"},
	{17, "SIGCHLD"}, {18, "SIGCONT"}, {19, "SIGSTOP"}, {20, "SIGTSTP"}, {21, "SIGTTIN"},
	{22, "SIGTTOU"}, {23, "SIGURG"}, {24, "SIGXCPU"}, {25, "SIGXFSZ"}, {26, "SIGVTALRM"},
	{27, "SIGPROF"}, {28, "SIGWINCH"}, {29, "SIGIO"}, {30, "SIGPWR"}, {31, "SIGSYS"},
};
#define STP_SIGRTMIN 32
#define STP_NSIG 64

/* sigprocmask(2) how. */
static const struct _stp_sym _stp_sigprocmask_how[] = {
	{0, "SIG_BLOCK"}, {1, "SIG_UNBLOCK"}, {2, "SIG_SETMASK"},
};

/* errno values: the UAPI ones, then the kernel-internal ones a syscall may return. */
static const struct _stp_sym _stp_errnos[] = {
	{1, "EPERM"}, {2, "ENOENT"}, {3, "ESRCH"}, {4, "EINTR"}, {5, "EIO"}, {6, "ENXIO"},
	{7, "E2BIG"}, {8, "ENOEXEC"}, {9, "EBADF"}, {10, "ECHILD"}, {11, "EAGAIN"}, {12, "ENOMEM"},
	{13, "EACCES"}, {14, "EFAULT"}, {15, "ENOTBLK"}, {16, "EBUSY"}, {17, "EEXIST"},
	{18, "EXDEV"}, {19, "ENODEV"}, {20, "ENOTDIR"}, {21, "EISDIR"}, {22, "EINVAL"},
	{23, "ENFILE"}, {24, "EMFILE"}, {25, "ENOTTY"}, {26, "ETXTBSY"}, {27, "EFBIG"},
	{28, "ENOSPC"}, {29, "ESPIPE"}, {30, "EROFS"}, {31, "EMLINK"}, {32, "EPIPE"}, {33, "EDOM"},
	{34, "ERANGE"}, {35, "EDEADLK"}, {36, "ENAMETOOLONG"}, {37, "ENOLCK"}, {38, "ENOSYS"},
	{39, "ENOTEMPTY"}, {40, "ELOOP"}, {42, "ENOMSG"}, {43, "EIDRM"}, {44, "ECHRNG"},
	{45, "EL2NSYNC"}, {46, "EL3HLT"}, {47, "EL3RST"}, {48, "ELNRNG"}, {49, "EUNATCH"},
	{50, "ENOCSI"}, {51, "EL2HLT"}, {52, "EBADE"}, {53, "EBADR"}, {54, "EXFULL"},
	{55, "ENOANO"}, {56, "EBADRQC"}, {57, "EBADSLT"}, {59, "EBFONT"}, {60, "ENOSTR"},
	{61, "ENODATA"}, {62, "ETIME"}, {63, "ENOSR"}, {64, "ENONET"}, {65, "ENOPKG"},
	{66, "EREMOTE"}, {67, "ENOLINK"}, {68, "EADV"}, {69, "ESRMNT"}, {70, "ECOMM"},
	{71, "EPROTO"}, {72, "EMULTIHOP"}, {73, "EDOTDOT"}, {74, "EBADMSG"}, {75, "EOVERFLOW"},
	{76, "ENOTUNIQ"}, {77, "EBADFD"}, {78, "EREMCHG"}, {79, "ELIBACC"}, {80, "ELIBBAD"},
	{81, "ELIBSCN"}, {82, "ELIBMAX"}, {83, "ELIBEXEC"}, {84, "EILSEQ"}, {85, "ERESTART"},
	{86, "ESTRPIPE"}, {87, "EUSERS"}, {88, "ENOTSOCK"}, {89, "EDESTADDRREQ"},
	{90, "EMSGSIZE"}, {91, "EPROTOTYPE"}, {92, "ENOPROTOOPT"}, {93, "EPROTONOSUPPORT"},
	{94, "ESOCKTNOSUPPORT"}, {95, "EOPNOTSUPP"}, {96, "EPFNOSUPPORT"}, {97, "EAFNOSUPPORT"},
	{98, "EADDRINUSE"}, {99, "EADDRNOTAVAIL"}, {100, "ENETDOWN"}, {101, "ENETUNREACH"},
	{102, "ENETRESET"}, {103, "ECONNABORTED"}, {104, "ECONNRESET"}, {105, "ENOBUFS"},
	{106, "EISCONN"}, {107, "ENOTCONN"}, {108, "ESHUTDOWN"}, {109, "ETOOMANYREFS"},
	{110, "ETIMEDOUT"}, {111, "ECONNREFUSED"}, {112, "EHOSTDOWN"}, {113, "EHOSTUNREACH"},
	{114, "EALREADY"}, {115, "EINPROGRESS"}, {116, "ESTALE"}, {117, "EUCLEAN"},
	{118, "ENOTNAM"}, {119, "ENAVAIL"}, {120, "EISNAM"}, {121, "EREMOTEIO"}, {122, "EDQUOT"},
	{123, "ENOMEDIUM"}, {124, "EMEDIUMTYPE"}, {125, "ECANCELED"}, {126, "ENOKEY"},
	{127, "EKEYEXPIRED"}, {128, "EKEYREVOKED"}, {129, "EKEYREJECTED"}, {130, "EOWNERDEAD"},
	{131, "ENOTRECOVERABLE"}, {132, "ERFKILL"}, {133, "EHWPOISON"},
	{512, "ERESTARTSYS"}, {513, "ERESTARTNOINTR"}, {514, "ERESTARTNOHAND"},
	{515, "ENOIOCTLCMD"}, {516, "ERESTART_RESTARTBLOCK"}, {517, "EPROBE_DEFER"},
	{518, "EOPENSTALE"}, {519, "ENOPARAM"},
};

/* Socket address families. */
static const struct _stp_sym _stp_socket_families[] = {
	{0, "AF_UNSPEC"}, {1, "AF_UNIX"}, {2, "AF_INET"}, {3, "AF_AX25"}, {4, "AF_IPX"},
	{5, "AF_APPLETALK"}, {6, "AF_NETROM"}, {7, "AF_BRIDGE"}, {8, "AF_ATMPVC"}, {9, "AF_X25"},
	{10, "AF_INET6"}, {11, "AF_ROSE"}, {12, "AF_DECnet"}, {13, "AF_NETBEUI"},
	{14, "AF_SECURITY"}, {15, "AF_KEY"}, {16, "AF_NETLINK"}, {17, "AF_PACKET"}, {18, "AF_ASH"},
	{19, "AF_ECONET"}, {20, "AF_ATMSVC"}, {21, "AF_RDS"}, {22, "AF_SNA"}, {23, "AF_IRDA"},
	{24, "AF_PPPOX"}, {25, "AF_WANPIPE"}, {26, "AF_LLC"}, {27, "AF_IB"}, {28, "AF_MPLS"},
	{29, "AF_CAN"}, {30, "AF_TIPC"}, {31, "AF_BLUETOOTH"}, {32, "AF_IUCV"}, {33, "AF_RXRPC"},
	{34, "AF_ISDN"}, {35, "AF_PHONET"}, {36, "AF_IEEE802154"}, {37, "AF_CAIF"}, {38, "AF_ALG"},
	{39, "AF_NFC"}, {40, "AF_VSOCK"}, {41, "AF_KCM"}, {42, "AF_QIPCRTR"}, {43, "AF_SMC"},
	{44, "AF_XDP"}, {45, "AF_MCTP"},
};

/* Socket types (low four bits), then the flags socket(2) accepts with them. */
static const struct _stp_sym _stp_socket_types[] = {
	{1, "SOCK_STREAM"}, {2, "SOCK_DGRAM"}, {3, "SOCK_RAW"}, {4, "SOCK_RDM"},
	{5, "SOCK_SEQPACKET"}, {6, "SOCK_DCCP"}, {10, "SOCK_PACKET"},
};
static const struct _stp_sym _stp_socket_type_flags[] = {
	{04000, "SOCK_NONBLOCK"}, {02000000, "SOCK_CLOEXEC"},
};

/* fcntl(2) commands. */
static const struct _stp_sym _stp_fcntl_cmds[] = {
	{0, "F_DUPFD"}, {1, "F_GETFD"}, {2, "F_SETFD"}, {3, "F_GETFL"}, {4, "F_SETFL"},
	{5, "F_GETLK"}, {6, "F_SETLK"}, {7, "F_SETLKW"}, {8, "F_SETOWN"}, {9, "F_GETOWN"},
	{10, "F_SETSIG"}, {11, "F_GETSIG"}, {15, "F_SETOWN_EX"}, {16, "F_GETOWN_EX"},
	{17, "F_GETOWNER_UIDS"}, {36, "F_OFD_GETLK"}, {37, "F_OFD_SETLK"}, {38, "F_OFD_SETLKW"},
	{1024, "F_SETLEASE"}, {1025, "F_GETLEASE"}, {1026, "F_NOTIFY"}, {1030, "F_DUPFD_CLOEXEC"},
	{1031, "F_SETPIPE_SZ"}, {1032, "F_GETPIPE_SZ"}, {1033, "F_ADD_SEALS"},
	{1034, "F_GET_SEALS"},
};

/* ioctl(2) requests common enough to name: terminals and generic file ones. */
static const struct _stp_sym _stp_ioctl_requests[] = {
	{0x5401, "TCGETS"}, {0x5402, "TCSETS"}, {0x5403, "TCSETSW"}, {0x5404, "TCSETSF"},
	{0x540B, "TCFLSH"}, {0x540E, "TIOCSCTTY"}, {0x540F, "TIOCGPGRP"}, {0x5410, "TIOCSPGRP"},
	{0x5413, "TIOCGWINSZ"}, {0x5414, "TIOCSWINSZ"}, {0x541B, "FIONREAD"}, {0x5421, "FIONBIO"},
	{0x5450, "FIONCLEX"}, {0x5451, "FIOCLEX"}, {0x5452, "FIOASYNC"},
};

/* futex(2) operations (the low bits), with the private and clock flags apart. */
static const struct _stp_sym _stp_futex_ops[] = {
	{0, "FUTEX_WAIT"}, {1, "FUTEX_WAKE"}, {2, "FUTEX_FD"}, {3, "FUTEX_REQUEUE"},
	{4, "FUTEX_CMP_REQUEUE"}, {5, "FUTEX_WAKE_OP"}, {6, "FUTEX_LOCK_PI"},
	{7, "FUTEX_UNLOCK_PI"}, {8, "FUTEX_TRYLOCK_PI"}, {9, "FUTEX_WAIT_BITSET"},
	{10, "FUTEX_WAKE_BITSET"}, {11, "FUTEX_WAIT_REQUEUE_PI"}, {12, "FUTEX_CMP_REQUEUE_PI"},
	{13, "FUTEX_LOCK_PI2"},
};
#define STP_FUTEX_PRIVATE_FLAG 128
#define STP_FUTEX_CLOCK_REALTIME 256

/* prctl(2) options. */
static const struct _stp_sym _stp_prctl_options[] = {
	{1, "PR_SET_PDEATHSIG"}, {2, "PR_GET_PDEATHSIG"}, {3, "PR_GET_DUMPABLE"},
	{4, "PR_SET_DUMPABLE"}, {5, "PR_GET_UNALIGN"}, {6, "PR_SET_UNALIGN"},
	{7, "PR_GET_KEEPCAPS"}, {8, "PR_SET_KEEPCAPS"}, {9, "PR_GET_FPEMU"}, {10, "PR_SET_FPEMU"},
	{11, "PR_GET_FPEXC"}, {12, "PR_SET_FPEXC"}, {13, "PR_GET_TIMING"}, {14, "PR_SET_TIMING"},
	{15, "PR_SET_NAME"}, {16, "PR_GET_NAME"}, {19, "PR_GET_ENDIAN"}, {20, "PR_SET_ENDIAN"},
	{21, "PR_GET_SECCOMP"}, {22, "PR_SET_SECCOMP"}, {23, "PR_CAPBSET_READ"},
	{24, "PR_CAPBSET_DROP"}, {25, "PR_GET_TSC"}, {26, "PR_SET_TSC"},
	{27, "PR_GET_SECUREBITS"}, {28, "PR_SET_SECUREBITS"}, {29, "PR_SET_TIMERSLACK"},
	{30, "PR_GET_TIMERSLACK"}, {31, "PR_TASK_PERF_EVENTS_DISABLE"},
	{32, "PR_TASK_PERF_EVENTS_ENABLE"}, {33, "PR_MCE_KILL"}, {34, "PR_MCE_KILL_GET"},
	{35, "PR_SET_MM"}, {36, "PR_SET_CHILD_SUBREAPER"}, {37, "PR_GET_CHILD_SUBREAPER"},
	{38, "PR_SET_NO_NEW_PRIVS"}, {39, "PR_GET_NO_NEW_PRIVS"}, {40, "PR_GET_TID_ADDRESS"},
	{41, "PR_SET_THP_DISABLE"}, {42, "PR_GET_THP_DISABLE"}, {45, "PR_SET_FP_MODE"},
	{46, "PR_GET_FP_MODE"}, {47, "PR_CAP_AMBIENT"}, {52, "PR_GET_SPECULATION_CTRL"},
	{53, "PR_SET_SPECULATION_CTRL"}, {57, "PR_SET_IO_FLUSHER"}, {58, "PR_GET_IO_FLUSHER"},
	{59, "PR_SET_SYSCALL_USER_DISPATCH"}, {62, "PR_SCHED_CORE"},
};

/* arch_prctl(2) codes (x86). */
static const struct _stp_sym _stp_arch_prctl_codes[] = {
	{0x1001, "ARCH_SET_GS"}, {0x1002, "ARCH_SET_FS"}, {0x1003, "ARCH_GET_FS"},
	{0x1004, "ARCH_GET_GS"}, {0x1011, "ARCH_GET_CPUID"}, {0x1012, "ARCH_SET_CPUID"},
	{0x1021, "ARCH_GET_XCOMP_SUPP"}, {0x1022, "ARCH_GET_XCOMP_PERM"},
	{0x1023, "ARCH_REQ_XCOMP_PERM"}, {0x1024, "ARCH_GET_XCOMP_GUEST_PERM"},
	{0x1025, "ARCH_REQ_XCOMP_GUEST_PERM"}, {0x2001, "ARCH_MAP_VDSO_X32"},
	{0x2002, "ARCH_MAP_VDSO_32"}, {0x2003, "ARCH_MAP_VDSO_64"},
};

/* lseek(2) whence. */
static const struct _stp_sym _stp_seek_whence[] = {
	{0, "SEEK_SET"}, {1, "SEEK_CUR"}, {2, "SEEK_END"}, {3, "SEEK_DATA"}, {4, "SEEK_HOLE"},
};

/* Clock ids. */
static const struct _stp_sym _stp_clock_ids[] = {
	{0, "CLOCK_REALTIME"}, {1, "CLOCK_MONOTONIC"}, {2, "CLOCK_PROCESS_CPUTIME_ID"},
	{3, "CLOCK_THREAD_CPUTIME_ID"}, {4, "CLOCK_MONOTONIC_RAW"}, {5, "CLOCK_REALTIME_COARSE"},
	{6, "CLOCK_MONOTONIC_COARSE"}, {7, "CLOCK_BOOTTIME"}, {8, "CLOCK_REALTIME_ALARM"},
	{9, "CLOCK_BOOTTIME_ALARM"}, {11, "CLOCK_TAI"},
};

/* wait4(2)/waitid(2) options. */
static const struct _stp_sym _stp_wait_options[] = {
	{1, "WNOHANG"}, {2, "WUNTRACED"}, {4, "WEXITED"}, {8, "WCONTINUED"},
	{0x01000000, "WNOWAIT"}, {0x20000000, "__WNOTHREAD"}, {0x40000000, "__WALL"},
	{0x80000000L, "__WCLONE"},
};

/* epoll_ctl(2) operations. */
static const struct _stp_sym _stp_epoll_ops[] = {
	{1, "EPOLL_CTL_ADD"}, {2, "EPOLL_CTL_DEL"}, {3, "EPOLL_CTL_MOD"},
};

/* fadvise64(2) advice (x86-64 values; s390 differs). */
static const struct _stp_sym _stp_fadvice[] = {
	{0, "POSIX_FADV_NORMAL"}, {1, "POSIX_FADV_RANDOM"}, {2, "POSIX_FADV_SEQUENTIAL"},
	{3, "POSIX_FADV_WILLNEED"}, {4, "POSIX_FADV_DONTNEED"}, {5, "POSIX_FADV_NOREUSE"},
};

/* madvise(2) advice. */
static const struct _stp_sym _stp_madvice[] = {
	{0, "MADV_NORMAL"}, {1, "MADV_RANDOM"}, {2, "MADV_SEQUENTIAL"}, {3, "MADV_WILLNEED"},
	{4, "MADV_DONTNEED"}, {8, "MADV_FREE"}, {9, "MADV_REMOVE"}, {10, "MADV_DONTFORK"},
	{11, "MADV_DOFORK"}, {12, "MADV_MERGEABLE"}, {13, "MADV_UNMERGEABLE"},
	{14, "MADV_HUGEPAGE"}, {15, "MADV_NOHUGEPAGE"}, {16, "MADV_DONTDUMP"}, {17, "MADV_DODUMP"},
	{18, "MADV_WIPEONFORK"}, {19, "MADV_KEEPONFORK"}, {20, "MADV_COLD"}, {21, "MADV_PAGEOUT"},
	{22, "MADV_POPULATE_READ"}, {23, "MADV_POPULATE_WRITE"}, {24, "MADV_DONTNEED_LOCKED"},
	{25, "MADV_COLLAPSE"}, {100, "MADV_HWPOISON"}, {101, "MADV_SOFT_OFFLINE"},
};

/* mlockall(2) flags. */
static const struct _stp_sym _stp_mlockall_flags[] = {
	{1, "MCL_CURRENT"}, {2, "MCL_FUTURE"}, {4, "MCL_ONFAULT"},
};

/* msync(2) flags. */
static const struct _stp_sym _stp_msync_flags[] = {
	{1, "MS_ASYNC"}, {2, "MS_INVALIDATE"}, {4, "MS_SYNC"},
};

/* getitimer(2)/setitimer(2) timers. */
static const struct _stp_sym _stp_itimer_which[] = {
	{0, "ITIMER_REAL"}, {1, "ITIMER_VIRTUAL"}, {2, "ITIMER_PROF"},
};

/* getpriority(2)/setpriority(2) which. */
static const struct _stp_sym _stp_priority_which[] = {
	{0, "PRIO_PROCESS"}, {1, "PRIO_PGRP"}, {2, "PRIO_USER"},
};

/* getrusage(2) who. */
static const struct _stp_sym _stp_rusage_who[] = {
	{0, "RUSAGE_SELF"}, {-1, "RUSAGE_CHILDREN"}, {1, "RUSAGE_THREAD"},
};

/* Scheduling policies (SCHED_NORMAL as strace and SystemTap write it); a flag may be ORed in. */
static const struct _stp_sym _stp_sched_policies[] = {
	{0, "SCHED_OTHER"}, {1, "SCHED_FIFO"}, {2, "SCHED_RR"}, {3, "SCHED_BATCH"},
	{5, "SCHED_IDLE"}, {6, "SCHED_DEADLINE"},
};
#define STP_SCHED_RESET_ON_FORK 0x40000000

/* Resource limits (getrlimit(2), setrlimit(2), prlimit64(2)). */
static const struct _stp_sym _stp_rlimit_resources[] = {
	{0, "RLIMIT_CPU"}, {1, "RLIMIT_FSIZE"}, {2, "RLIMIT_DATA"}, {3, "RLIMIT_STACK"},
	{4, "RLIMIT_CORE"}, {5, "RLIMIT_RSS"}, {6, "RLIMIT_NPROC"}, {7, "RLIMIT_NOFILE"},
	{8, "RLIMIT_MEMLOCK"}, {9, "RLIMIT_AS"}, {10, "RLIMIT_LOCKS"}, {11, "RLIMIT_SIGPENDING"},
	{12, "RLIMIT_MSGQUEUE"}, {13, "RLIMIT_NICE"}, {14, "RLIMIT_RTPRIO"}, {15, "RLIMIT_RTTIME"},
};

/* renameat2(2) flags. */
static const struct _stp_sym _stp_rename_flags[] = {
	{1, "RENAME_NOREPLACE"}, {2, "RENAME_EXCHANGE"}, {4, "RENAME_WHITEOUT"},
};

/* setxattr(2) flags. */
static const struct _stp_sym _stp_xattr_flags[] = {
	{1, "XATTR_CREATE"}, {2, "XATTR_REPLACE"},
};

/* quotactl(2) commands: QCMD(cmd, type) is cmd << 8 | type. The VFS ones, then XFS's. */
static const struct _stp_sym _stp_quotactl_cmds[] = {
	{0x800001, "Q_SYNC"}, {0x800002, "Q_QUOTAON"}, {0x800003, "Q_QUOTAOFF"},
	{0x800004, "Q_GETFMT"}, {0x800005, "Q_GETINFO"}, {0x800006, "Q_SETINFO"},
	{0x800007, "Q_GETQUOTA"}, {0x800008, "Q_SETQUOTA"}, {0x800009, "Q_GETNEXTQUOTA"},
	{0x5801, "Q_XQUOTAON"}, {0x5802, "Q_XQUOTAOFF"}, {0x5803, "Q_XGETQUOTA"},
	{0x5804, "Q_XSETQLIM"}, {0x5805, "Q_XGETQSTAT"}, {0x5806, "Q_XQUOTARM"},
	{0x5807, "Q_XQUOTASYNC"}, {0x5808, "Q_XGETQSTATV"}, {0x5809, "Q_XGETNEXTQUOTA"},
};
static const struct _stp_sym _stp_quota_types[] = {
	{0, "USRQUOTA"}, {1, "GRPQUOTA"}, {2, "PRJQUOTA"},
};
#define STP_QUOTA_SUBCMDSHIFT 8

/* Memory policy modes (mbind(2), set_mempolicy(2)), then the mode flags ORed in. */
static const struct _stp_sym _stp_mempolicy_modes[] = {
	{0, "MPOL_DEFAULT"}, {1, "MPOL_PREFERRED"}, {2, "MPOL_BIND"}, {3, "MPOL_INTERLEAVE"},
	{4, "MPOL_LOCAL"}, {5, "MPOL_PREFERRED_MANY"},
};
static const struct _stp_sym _stp_mempolicy_mode_flags[] = {
	{1 << 15, "MPOL_F_STATIC_NODES"}, {1 << 14, "MPOL_F_RELATIVE_NODES"},
	{1 << 13, "MPOL_F_NUMA_BALANCING"},
};

/* mbind(2) and move_pages(2) flags. */
static const struct _stp_sym _stp_mbind_flags[] = {
	{1, "MPOL_MF_STRICT"}, {2, "MPOL_MF_MOVE"}, {4, "MPOL_MF_MOVE_ALL"},
};

/* get_mempolicy(2) flags. */
static const struct _stp_sym _stp_get_mempolicy_flags[] = {
	{1, "MPOL_F_NODE"}, {2, "MPOL_F_ADDR"}, {4, "MPOL_F_MEMS_ALLOWED"},
};

/* kexec_load(2) flags; the high 16 bits name the architecture. */
static const struct _stp_sym _stp_kexec_flags[] = {
	{1, "KEXEC_ON_CRASH"}, {2, "KEXEC_PRESERVE_CONTEXT"},
};
static const struct _stp_sym _stp_kexec_archs[] = {
	{0 << 16, "KEXEC_ARCH_DEFAULT"}, {3 << 16, "KEXEC_ARCH_386"}, {4 << 16, "KEXEC_ARCH_68K"},
	{15 << 16, "KEXEC_ARCH_PARISC"}, {62 << 16, "KEXEC_ARCH_X86_64"}, {20 << 16, "KEXEC_ARCH_PPC"},
	{21 << 16, "KEXEC_ARCH_PPC64"}, {50 << 16, "KEXEC_ARCH_IA_64"}, {40 << 16, "KEXEC_ARCH_ARM"},
	{22 << 16, "KEXEC_ARCH_S390"}, {42 << 16, "KEXEC_ARCH_SH"}, {10 << 16, "KEXEC_ARCH_MIPS_LE"},
	{8 << 16, "KEXEC_ARCH_MIPS"}, {183 << 16, "KEXEC_ARCH_AARCH64"}, {243 << 16, "KEXEC_ARCH_RISCV"},
	{258L << 16, "KEXEC_ARCH_LOONGARCH"},
};
#define STP_KEXEC_ARCH_MASK 0xffff0000UL

/* kexec_file_load(2) flags. */
static const struct _stp_sym _stp_kexec_file_flags[] = {
	{1, "KEXEC_FILE_UNLOAD"}, {2, "KEXEC_FILE_ON_CRASH"}, {4, "KEXEC_FILE_NO_INITRAMFS"},
};

/* The special key serial numbers of add_key(2), request_key(2), keyctl(2). */
static const struct _stp_sym _stp_key_specs[] = {
	{-1, "KEY_SPEC_THREAD_KEYRING"}, {-2, "KEY_SPEC_PROCESS_KEYRING"},
	{-3, "KEY_SPEC_SESSION_KEYRING"}, {-4, "KEY_SPEC_USER_KEYRING"},
	{-5, "KEY_SPEC_USER_SESSION_KEYRING"}, {-6, "KEY_SPEC_GROUP_KEYRING"},
	{-7, "KEY_SPEC_REQKEY_AUTH_KEY"}, {-8, "KEY_SPEC_REQUESTOR_KEYRING"},
};

/* perf_event_open(2) flags. */
static const struct _stp_sym _stp_perf_flags[] = {
	{1, "PERF_FLAG_FD_NO_GROUP"}, {2, "PERF_FLAG_FD_OUTPUT"}, {4, "PERF_FLAG_PID_CGROUP"},
	{8, "PERF_FLAG_FD_CLOEXEC"},
};

/* seccomp(2) operations and filter flags. */
static const struct _stp_sym _stp_seccomp_ops[] = {
	{0, "SECCOMP_SET_MODE_STRICT"}, {1, "SECCOMP_SET_MODE_FILTER"},
	{2, "SECCOMP_GET_ACTION_AVAIL"}, {3, "SECCOMP_GET_NOTIF_SIZES"},
};
static const struct _stp_sym _stp_seccomp_flags[] = {
	{1, "SECCOMP_FILTER_FLAG_TSYNC"}, {2, "SECCOMP_FILTER_FLAG_LOG"},
	{4, "SECCOMP_FILTER_FLAG_SPEC_ALLOW"}, {8, "SECCOMP_FILTER_FLAG_NEW_LISTENER"},
	{16, "SECCOMP_FILTER_FLAG_TSYNC_ESRCH"}, {32, "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV"},
};

/* preadv2(2)/pwritev2(2) flags. */
static const struct _stp_sym _stp_rwf_flags[] = {
	{1, "RWF_HIPRI"}, {2, "RWF_DSYNC"}, {4, "RWF_SYNC"}, {8, "RWF_NOWAIT"}, {0x10, "RWF_APPEND"},
};

/* rseq(2) flags. */
static const struct _stp_sym _stp_rseq_flags[] = {
	{1, "RSEQ_FLAG_UNREGISTER"},
};

/* io_uring_enter(2) flags and io_uring_register(2) operations. */
static const struct _stp_sym _stp_io_uring_enter_flags[] = {
	{1, "IORING_ENTER_GETEVENTS"}, {2, "IORING_ENTER_SQ_WAKEUP"}, {4, "IORING_ENTER_SQ_WAIT"},
	{8, "IORING_ENTER_EXT_ARG"}, {16, "IORING_ENTER_REGISTERED_RING"},
};
static const struct _stp_sym _stp_io_uring_register_ops[] = {
	{0, "IORING_REGISTER_BUFFERS"}, {1, "IORING_UNREGISTER_BUFFERS"},
	{2, "IORING_REGISTER_FILES"}, {3, "IORING_UNREGISTER_FILES"},
	{4, "IORING_REGISTER_EVENTFD"}, {5, "IORING_UNREGISTER_EVENTFD"},
	{6, "IORING_REGISTER_FILES_UPDATE"}, {7, "IORING_REGISTER_EVENTFD_ASYNC"},
	{8, "IORING_REGISTER_PROBE"}, {9, "IORING_REGISTER_PERSONALITY"},
	{10, "IORING_UNREGISTER_PERSONALITY"}, {11, "IORING_REGISTER_RESTRICTIONS"},
	{12, "IORING_REGISTER_ENABLE_RINGS"}, {13, "IORING_REGISTER_FILES2"},
	{14, "IORING_REGISTER_FILES_UPDATE2"}, {15, "IORING_REGISTER_BUFFERS2"},
	{16, "IORING_REGISTER_BUFFERS_UPDATE"}, {17, "IORING_REGISTER_IOWQ_AFF"},
	{18, "IORING_UNREGISTER_IOWQ_AFF"}, {19, "IORING_REGISTER_IOWQ_MAX_WORKERS"},
	{20, "IORING_REGISTER_RING_FDS"}, {21, "IORING_UNREGISTER_RING_FDS"},
	{22, "IORING_REGISTER_PBUF_RING"}, {23, "IORING_UNREGISTER_PBUF_RING"},
	{24, "IORING_REGISTER_SYNC_CANCEL"}, {25, "IORING_REGISTER_FILE_ALLOC_RANGE"},
};

/* The new mount API: open_tree(2), move_mount(2), fsopen(2), fspick(2), fsmount(2), fsconfig(2). */
static const struct _stp_sym _stp_open_tree_flags[] = {
	{1, "OPEN_TREE_CLONE"}, {02000000, "OPEN_TREE_CLOEXEC"}, {0x100, "AT_SYMLINK_NOFOLLOW"},
	{0x800, "AT_NO_AUTOMOUNT"}, {0x1000, "AT_EMPTY_PATH"}, {0x8000, "AT_RECURSIVE"},
};
static const struct _stp_sym _stp_move_mount_flags[] = {
	{0x1, "MOVE_MOUNT_F_SYMLINKS"}, {0x2, "MOVE_MOUNT_F_AUTOMOUNTS"},
	{0x4, "MOVE_MOUNT_F_EMPTY_PATH"}, {0x10, "MOVE_MOUNT_T_SYMLINKS"},
	{0x20, "MOVE_MOUNT_T_AUTOMOUNTS"}, {0x40, "MOVE_MOUNT_T_EMPTY_PATH"},
	{0x100, "MOVE_MOUNT_SET_GROUP"},
};
static const struct _stp_sym _stp_fsopen_flags[] = { {1, "FSOPEN_CLOEXEC"} };
static const struct _stp_sym _stp_fspick_flags[] = {
	{1, "FSPICK_CLOEXEC"}, {2, "FSPICK_SYMLINK_NOFOLLOW"}, {4, "FSPICK_NO_AUTOMOUNT"},
	{8, "FSPICK_EMPTY_PATH"},
};
static const struct _stp_sym _stp_fsmount_flags[] = { {1, "FSMOUNT_CLOEXEC"} };
/* MOUNT_ATTR_RELATIME is 0: the absence of NOATIME and STRICTATIME. */
static const struct _stp_sym _stp_mount_attr_flags[] = {
	{0x1, "MOUNT_ATTR_RDONLY"}, {0x2, "MOUNT_ATTR_NOSUID"}, {0x4, "MOUNT_ATTR_NODEV"},
	{0x8, "MOUNT_ATTR_NOEXEC"}, {0x10, "MOUNT_ATTR_NOATIME"}, {0x20, "MOUNT_ATTR_STRICTATIME"},
	{0x80, "MOUNT_ATTR_NODIRATIME"}, {0x100000, "MOUNT_ATTR_IDMAP"},
	{0x200000, "MOUNT_ATTR_NOSYMFOLLOW"},
};
static const struct _stp_sym _stp_fsconfig_cmds[] = {
	{0, "FSCONFIG_SET_FLAG"}, {1, "FSCONFIG_SET_STRING"}, {2, "FSCONFIG_SET_BINARY"},
	{3, "FSCONFIG_SET_PATH"}, {4, "FSCONFIG_SET_PATH_EMPTY"}, {5, "FSCONFIG_SET_FD"},
	{6, "FSCONFIG_CMD_CREATE"}, {7, "FSCONFIG_CMD_RECONFIGURE"},
};

/* landlock_create_ruleset(2) flags and landlock_add_rule(2) rule types. */
static const struct _stp_sym _stp_landlock_create_flags[] = {
	{1, "LANDLOCK_CREATE_RULESET_VERSION"}, {2, "LANDLOCK_CREATE_RULESET_ERRATA"},
};
static const struct _stp_sym _stp_landlock_rule_types[] = {
	{1, "LANDLOCK_RULE_PATH_BENEATH"},
};

/* The special directory descriptor of the *at calls. */
#define STP_AT_FDCWD (-100)

/* ---- Rendering ---- */

/* Append text to the NUL-terminated buf of size bytes, truncating. */
static inline void _stp_decode_cat(char *buf, int size, const char *text)
{
	int len = (int)strlen(buf);

	while (*text && len < size - 1)
		buf[len++] = *text++;
	buf[len] = '\0';
}

/* Append a number, in hex (0x...) or signed decimal. */
static inline void _stp_decode_num(char *buf, int size, long value, int hex)
{
	char num[24];

	if (hex)
		snprintf(num, sizeof(num), "0x%lx", (unsigned long)value);
	else
		snprintf(num, sizeof(num), "%ld", value);
	_stp_decode_cat(buf, size, num);
}

/* The name of value in a table, or NULL. */
static inline const char *_stp_decode_lookup(const struct _stp_sym *t, int n, long value)
{
	int i;

	for (i = 0; i < n; i++)
		if (t[i].value == value)
			return t[i].name;
	return NULL;
}

/* Append value's name from the table, or the number in decimal. */
static inline void _stp_decode_enum(char *buf, int size, const struct _stp_sym *t, int n, long value)
{
	const char *name = _stp_decode_lookup(t, n, value);

	if (name)
		_stp_decode_cat(buf, size, name);
	else
		_stp_decode_num(buf, size, value, 0);
}

/*
 * Append the names of the bits of value in the table joined by '|' (an entry
 * whose value has several bits matches only when all are set, and takes them
 * all), then any bits left in hex. Nothing is appended for 0 unless none is
 * given (then "0"). Returns the number of parts appended.
 */
static inline int _stp_decode_flags(char *buf, int size, const struct _stp_sym *t, int n,
			     unsigned long value, int parts)
{
	int i;

	for (i = 0; i < n; i++) {
		unsigned long bits = (unsigned long)t[i].value;
		if (bits && (value & bits) == bits) {
			if (parts++)
				_stp_decode_cat(buf, size, "|");
			_stp_decode_cat(buf, size, t[i].name);
			value &= ~bits;
		}
	}
	if (value || !parts) {
		if (parts++)
			_stp_decode_cat(buf, size, "|");
		_stp_decode_num(buf, size, (long)value, 1);
	}
	return parts;
}

/* open(2) flags: O_RDONLY|O_CLOEXEC. */
static inline void _stp_decode_open_flags(char *buf, int size, long flags)
{
	buf[0] = '\0';
	_stp_decode_enum(buf, size, STP_SYMS(_stp_open_accmode), flags & 3);
	if (flags & ~3L)
		_stp_decode_flags(buf, size, STP_SYMS(_stp_open_flags), (unsigned long)flags & ~3UL, 1);
}

/* Flags of pipe2, dup3, accept4...: open flag bits without an access mode; 0 is "0". */
static inline void _stp_decode_pipe_flags(char *buf, int size, long flags)
{
	buf[0] = '\0';
	if (!flags)
		_stp_decode_cat(buf, size, "0");
	else
		_stp_decode_flags(buf, size, STP_SYMS(_stp_open_flags), (unsigned long)flags, 0);
}

/* A directory descriptor of the *at calls: AT_FDCWD or the number. */
static inline void _stp_decode_dirfd(char *buf, int size, long fd)
{
	buf[0] = '\0';
	if ((int)fd == STP_AT_FDCWD)
		_stp_decode_cat(buf, size, "AT_FDCWD");
	else
		_stp_decode_num(buf, size, (int)fd, 0);
}

/* mmap(2) flags: MAP_PRIVATE|MAP_ANONYMOUS. */
static inline void _stp_decode_mmap_flags(char *buf, int size, long flags)
{
	const char *type = _stp_decode_lookup(STP_SYMS(_stp_mmap_type), flags & 0xf);
	int parts = 0;

	buf[0] = '\0';
	if (type) {
		_stp_decode_cat(buf, size, type);
		flags &= ~0xfL;
		parts = 1;
	}
	if (flags || !parts)
		_stp_decode_flags(buf, size, STP_SYMS(_stp_mmap_flags), (unsigned long)flags, parts);
}

/* A signal number: SIGKILL, SIGRTMIN+3, or the number. */
static inline void _stp_decode_signal(char *buf, int size, long sig)
{
	buf[0] = '\0';
	if (sig >= STP_SIGRTMIN && sig <= STP_NSIG) {
		_stp_decode_cat(buf, size, "SIGRTMIN");
		if (sig > STP_SIGRTMIN) {
			_stp_decode_cat(buf, size, "+");
			_stp_decode_num(buf, size, sig - STP_SIGRTMIN, 0);
		}
		return;
	}
	_stp_decode_enum(buf, size, STP_SYMS(_stp_signals), sig);
}

/* clone(2) flags: CLONE_VM|CLONE_FS|...|SIGCHLD (the low byte names the exit signal). */
static inline void _stp_decode_clone_flags(char *buf, int size, unsigned long flags)
{
	char sig[24];
	int parts;

	buf[0] = '\0';
	parts = flags & ~0xffUL ? _stp_decode_flags(buf, size, STP_SYMS(_stp_clone_flags), flags & ~0xffUL, 0) : 0;
	if ((flags & 0xff) || !parts) {
		if (parts)
			_stp_decode_cat(buf, size, "|");
		_stp_decode_signal(sig, sizeof(sig), (long)(flags & 0xff));
		_stp_decode_cat(buf, size, sig);
	}
}

/* socket(2) type: SOCK_STREAM|SOCK_CLOEXEC. */
static inline void _stp_decode_socket_type(char *buf, int size, long type)
{
	buf[0] = '\0';
	_stp_decode_enum(buf, size, STP_SYMS(_stp_socket_types), type & 0xf);
	if (type & ~0xfL)
		_stp_decode_flags(buf, size, STP_SYMS(_stp_socket_type_flags), (unsigned long)type & ~0xfUL, 1);
}

/* futex(2) op: FUTEX_WAIT_PRIVATE, FUTEX_WAIT_BITSET|FUTEX_CLOCK_REALTIME. */
static inline void _stp_decode_futex_op(char *buf, int size, long op)
{
	buf[0] = '\0';
	_stp_decode_enum(buf, size, STP_SYMS(_stp_futex_ops), op & ~(long)(STP_FUTEX_PRIVATE_FLAG | STP_FUTEX_CLOCK_REALTIME));
	if (op & STP_FUTEX_PRIVATE_FLAG)
		_stp_decode_cat(buf, size, "_PRIVATE");
	if (op & STP_FUTEX_CLOCK_REALTIME)
		_stp_decode_cat(buf, size, "|FUTEX_CLOCK_REALTIME");
}

/* A file mode in octal, as strace prints it (0644). */
static inline void _stp_decode_mode(char *buf, int size, long mode)
{
	snprintf(buf, size, "%#lo", (unsigned long)mode & 07777777);
}

/* access(2) mode: F_OK or R_OK|W_OK. */
static inline void _stp_decode_access_mode(char *buf, int size, long mode)
{
	buf[0] = '\0';
	if (mode == 0)
		_stp_decode_cat(buf, size, "F_OK");
	else
		_stp_decode_flags(buf, size, STP_SYMS(_stp_access_modes), (unsigned long)mode, 0);
}

/* errno name of a positive error number, or "E#N" past the table (SystemTap's form). */
static inline void _stp_decode_errno(char *buf, int size, long err)
{
	const char *name = _stp_decode_lookup(STP_SYMS(_stp_errnos), err);

	buf[0] = '\0';
	if (name) {
		_stp_decode_cat(buf, size, name);
	} else {
		_stp_decode_cat(buf, size, "E#");
		_stp_decode_num(buf, size, err, 0);
	}
}

/*
 * A system call's return value: decimal (format 1), hex (2) or octal (3),
 * and for -4095..-1 the error's name: "-2 (ENOENT)".
 */
static inline void _stp_decode_return(char *buf, int size, int format, long ret)
{
	char err[40];

	if (format == 2 && ret >= 0)
		snprintf(buf, size, "0x%lx", (unsigned long)ret);
	else if (format == 3 && ret >= 0)
		snprintf(buf, size, "%#lo", (unsigned long)ret);
	else
		snprintf(buf, size, "%ld", ret);
	if (ret < 0 && ret >= -4095) {
		_stp_decode_errno(err, sizeof(err), -ret);
		if (err[0] != 'E' || err[1] != '#') {
			_stp_decode_cat(buf, size, " (");
			_stp_decode_cat(buf, size, err);
			_stp_decode_cat(buf, size, ")");
		}
	}
}

/* The decoders that are one table, with the signature all decoders share. */
#define STP_ENUM_DECODER(name, table)                                                   \
	static inline void _stp_decode_##name(char *buf, int size, long v)            \
	{                                                                               \
		buf[0] = '\0';                                                         \
		_stp_decode_enum(buf, size, STP_SYMS(table), v);                        \
	}
#define STP_FLAGS_DECODER(name, table)                                                  \
	static inline void _stp_decode_##name(char *buf, int size, long v)            \
	{                                                                               \
		buf[0] = '\0';                                                         \
		_stp_decode_flags(buf, size, STP_SYMS(table), (unsigned long)v, 0);     \
	}
STP_ENUM_DECODER(sigprocmask_how, _stp_sigprocmask_how)
STP_ENUM_DECODER(family, _stp_socket_families)
STP_ENUM_DECODER(fcntl_cmd, _stp_fcntl_cmds)
STP_ENUM_DECODER(ioctl_request, _stp_ioctl_requests)
STP_ENUM_DECODER(prctl_option, _stp_prctl_options)
STP_ENUM_DECODER(arch_prctl_code, _stp_arch_prctl_codes)
STP_ENUM_DECODER(whence, _stp_seek_whence)
STP_ENUM_DECODER(clockid, _stp_clock_ids)
STP_ENUM_DECODER(epoll_op, _stp_epoll_ops)
STP_ENUM_DECODER(fadvice, _stp_fadvice)
STP_ENUM_DECODER(madvice, _stp_madvice)
STP_ENUM_DECODER(itimer_which, _stp_itimer_which)
STP_ENUM_DECODER(priority_which, _stp_priority_which)
STP_ENUM_DECODER(rusage_who, _stp_rusage_who)
STP_ENUM_DECODER(rlimit_resource, _stp_rlimit_resources)
STP_FLAGS_DECODER(at_flags, _stp_at_flags)
STP_FLAGS_DECODER(wait_options, _stp_wait_options)
STP_FLAGS_DECODER(mlockall_flags, _stp_mlockall_flags)
STP_FLAGS_DECODER(msync_flags, _stp_msync_flags)
STP_FLAGS_DECODER(rename_flags, _stp_rename_flags)
STP_FLAGS_DECODER(xattr_flags, _stp_xattr_flags)
STP_ENUM_DECODER(seccomp_op, _stp_seccomp_ops)
STP_ENUM_DECODER(io_uring_register_op, _stp_io_uring_register_ops)
STP_ENUM_DECODER(fsconfig_cmd, _stp_fsconfig_cmds)
STP_ENUM_DECODER(landlock_rule_type, _stp_landlock_rule_types)
STP_FLAGS_DECODER(mbind_flags, _stp_mbind_flags)
STP_FLAGS_DECODER(get_mempolicy_flags, _stp_get_mempolicy_flags)
STP_FLAGS_DECODER(kexec_file_flags, _stp_kexec_file_flags)
STP_FLAGS_DECODER(perf_flags, _stp_perf_flags)
STP_FLAGS_DECODER(seccomp_flags, _stp_seccomp_flags)
STP_FLAGS_DECODER(rwf_flags, _stp_rwf_flags)
STP_FLAGS_DECODER(rseq_flags, _stp_rseq_flags)
STP_FLAGS_DECODER(io_uring_enter_flags, _stp_io_uring_enter_flags)
STP_FLAGS_DECODER(open_tree_flags, _stp_open_tree_flags)
STP_FLAGS_DECODER(move_mount_flags, _stp_move_mount_flags)
STP_FLAGS_DECODER(fsopen_flags, _stp_fsopen_flags)
STP_FLAGS_DECODER(fspick_flags, _stp_fspick_flags)
STP_FLAGS_DECODER(fsmount_flags, _stp_fsmount_flags)
STP_FLAGS_DECODER(mount_attr_flags, _stp_mount_attr_flags)
STP_FLAGS_DECODER(landlock_create_flags, _stp_landlock_create_flags)

/* sched_setscheduler(2) policy: SCHED_FIFO, SCHED_RR|SCHED_RESET_ON_FORK... */
static inline void _stp_decode_sched_policy(char *buf, int size, long v)
{
	buf[0] = '\0';
	_stp_decode_enum(buf, size, STP_SYMS(_stp_sched_policies), v & ~(long)STP_SCHED_RESET_ON_FORK);
	if (v & STP_SCHED_RESET_ON_FORK)
		_stp_decode_cat(buf, size, "|SCHED_RESET_ON_FORK");
}

/* mmap(2) protections: PROT_NONE for 0. */
static inline void _stp_decode_mmap_prot(char *buf, int size, long v)
{
	buf[0] = '\0';
	if (!v)
		_stp_decode_cat(buf, size, "PROT_NONE");
	else
		_stp_decode_flags(buf, size, STP_SYMS(_stp_mmap_prot), (unsigned long)v, 0);
}

/* quotactl(2) command: Q_GETQUOTA|USRQUOTA (the command, then the quota type). */
static inline void _stp_decode_quotactl_cmd(char *buf, int size, long v)
{
	unsigned long cmd = (unsigned int)v;

	buf[0] = '\0';
	_stp_decode_enum(buf, size, STP_SYMS(_stp_quotactl_cmds), (long)(cmd >> STP_QUOTA_SUBCMDSHIFT));
	_stp_decode_cat(buf, size, "|");
	_stp_decode_enum(buf, size, STP_SYMS(_stp_quota_types), (long)(cmd & 0xff));
}

/* Memory policy mode: MPOL_BIND, MPOL_INTERLEAVE|MPOL_F_STATIC_NODES. */
static inline void _stp_decode_mempolicy_mode(char *buf, int size, long v)
{
	unsigned long flags = (unsigned long)v & (0x7UL << 13);

	buf[0] = '\0';
	_stp_decode_enum(buf, size, STP_SYMS(_stp_mempolicy_modes), v & ~(long)(0x7UL << 13));
	if (flags)
		_stp_decode_flags(buf, size, STP_SYMS(_stp_mempolicy_mode_flags), flags, 1);
}

/* kexec_load(2) flags: KEXEC_ON_CRASH|KEXEC_ARCH_X86_64. */
static inline void _stp_decode_kexec_flags(char *buf, int size, long v)
{
	unsigned long flags = (unsigned long)v & ~STP_KEXEC_ARCH_MASK;
	int parts = 0;

	buf[0] = '\0';
	if (flags)
		parts = _stp_decode_flags(buf, size, STP_SYMS(_stp_kexec_flags), flags, 0);
	if (parts)
		_stp_decode_cat(buf, size, "|");
	_stp_decode_enum(buf, size, STP_SYMS(_stp_kexec_archs), (long)((unsigned long)v & STP_KEXEC_ARCH_MASK));
}

/* A key serial number: KEY_SPEC_SESSION_KEYRING, or the number. */
static inline void _stp_decode_key_spec(char *buf, int size, long v)
{
	buf[0] = '\0';
	_stp_decode_enum(buf, size, STP_SYMS(_stp_key_specs), (long)(int)v);
}

static inline void _stp_decode_clone(char *buf, int size, long v)
{
	_stp_decode_clone_flags(buf, size, (unsigned long)v);
}

/* Every decoder by the name syscalls.tbl gives it. */
struct _stp_decoder {
	const char *name;
	void (*render)(char *buf, int size, long value);  /* writes from buf[0] */
};
static const struct _stp_decoder _stp_decoders[] = {
	{"open_flags", _stp_decode_open_flags}, {"pipe_flags", _stp_decode_pipe_flags},
	{"dirfd", _stp_decode_dirfd}, {"at_flags", _stp_decode_at_flags},
	{"access_mode", _stp_decode_access_mode}, {"mmap_prot", _stp_decode_mmap_prot},
	{"mmap_flags", _stp_decode_mmap_flags}, {"clone_flags", _stp_decode_clone},
	{"signal", _stp_decode_signal}, {"sigprocmask_how", _stp_decode_sigprocmask_how},
	{"family", _stp_decode_family}, {"socktype", _stp_decode_socket_type},
	{"fcntl_cmd", _stp_decode_fcntl_cmd}, {"ioctl_request", _stp_decode_ioctl_request},
	{"futex_op", _stp_decode_futex_op}, {"prctl_option", _stp_decode_prctl_option},
	{"arch_prctl_code", _stp_decode_arch_prctl_code}, {"whence", _stp_decode_whence},
	{"clockid", _stp_decode_clockid}, {"wait_options", _stp_decode_wait_options},
	{"epoll_op", _stp_decode_epoll_op}, {"fadvice", _stp_decode_fadvice},
	{"madvice", _stp_decode_madvice}, {"itimer_which", _stp_decode_itimer_which},
	{"priority_which", _stp_decode_priority_which}, {"rusage_who", _stp_decode_rusage_who},
	{"rlimit_resource", _stp_decode_rlimit_resource}, {"mlockall_flags", _stp_decode_mlockall_flags},
	{"msync_flags", _stp_decode_msync_flags}, {"rename_flags", _stp_decode_rename_flags},
	{"sched_policy", _stp_decode_sched_policy}, {"xattr_flags", _stp_decode_xattr_flags},
	{"quotactl_cmd", _stp_decode_quotactl_cmd}, {"mempolicy_mode", _stp_decode_mempolicy_mode},
	{"mbind_flags", _stp_decode_mbind_flags}, {"get_mempolicy_flags", _stp_decode_get_mempolicy_flags},
	{"kexec_flags", _stp_decode_kexec_flags}, {"kexec_file_flags", _stp_decode_kexec_file_flags},
	{"key_spec", _stp_decode_key_spec}, {"perf_flags", _stp_decode_perf_flags},
	{"seccomp_op", _stp_decode_seccomp_op}, {"seccomp_flags", _stp_decode_seccomp_flags},
	{"rwf_flags", _stp_decode_rwf_flags}, {"rseq_flags", _stp_decode_rseq_flags},
	{"io_uring_enter_flags", _stp_decode_io_uring_enter_flags},
	{"io_uring_register_op", _stp_decode_io_uring_register_op},
	{"open_tree_flags", _stp_decode_open_tree_flags}, {"move_mount_flags", _stp_decode_move_mount_flags},
	{"fsopen_flags", _stp_decode_fsopen_flags}, {"fspick_flags", _stp_decode_fspick_flags},
	{"fsmount_flags", _stp_decode_fsmount_flags}, {"mount_attr_flags", _stp_decode_mount_attr_flags},
	{"fsconfig_cmd", _stp_decode_fsconfig_cmd},
	{"landlock_create_flags", _stp_decode_landlock_create_flags},
	{"landlock_rule_type", _stp_decode_landlock_rule_type},
};

/*
 * What argstr needs of user memory, given by the caller (the kernel's
 * fault-safe copies; stubs in the unit test).
 */
struct _stp_argstr_reader {
	/* append the string at addr quoted and escaped, or 0x... if unreadable */
	void (*string)(char *buf, int size, unsigned long addr);
	/* the word at addr into *out; nonzero if unreadable */
	int (*word)(unsigned long addr, unsigned long *out);
};

/* Length of the spec word at p (up to ',', ':', '@' or the end). */
static inline int _stp_spec_word(const char *p)
{
	int n = 0;

	while (p[n] && p[n] != ',' && p[n] != ':' && p[n] != '@')
		n++;
	return n;
}

static inline int _stp_spec_is(const char *p, int n, const char *word)
{
	return (int)strlen(word) == n && !strncmp(p, word, n);
}

/* A NULL-terminated array of user strings: ["ls", "-l"], or [/ * N vars * /] when count_only. */
static inline void _stp_argstr_vector(char *buf, int size, unsigned long addr, int count_only,
				      const struct _stp_argstr_reader *rd)
{
	unsigned long p;
	int i, start = (int)strlen(buf);

	if (!addr) {
		_stp_decode_cat(buf, size, "NULL");
		return;
	}
	if (!count_only)
		_stp_decode_cat(buf, size, "[");
	for (i = 0; i < 4096; i++) {
		if (rd->word(addr + 8 * i, &p)) {
			buf[start] = '\0';	/* unreadable: its address alone */
			_stp_decode_num(buf, size, (long)addr, 1);
			return;
		}
		if (!p)
			break;
		if (count_only)
			continue;
		if (i)
			_stp_decode_cat(buf, size, ", ");
		if ((int)strlen(buf) >= size - 1)
			break;
		rd->string(buf, size, p);
	}
	if (count_only) {
		char n[48];
		snprintf(n, sizeof(n), "[/* %d vars */]", i);
		_stp_decode_cat(buf, size, n);
	} else {
		_stp_decode_cat(buf, size, "]");
	}
}

/*
 * argstr from the six raw argument registers and the call's spec, written by
 * compiler/elaborate/syscalls.c from syscalls.tbl: TYPE[:DECODER][@creat] per argument,
 * joined by ','. TYPE is int uint long ulong ptr ustr sptr octal argv env
 * skip (sptr: a string shown quoted whose variable is its address; skip: a
 * register the call ignores, not shown); an @creat argument is shown only
 * when the open_flags argument creates a file (O_CREAT or __O_TMPFILE).
 */
static __attribute__((__noinline__)) void _stp_syscall_argstr(char *buf, int size, const unsigned long *args,
							      const char *spec,
							      const struct _stp_argstr_reader *rd)
{
	const char *p;
	int i, creat = 0;

	/* the open flags, for @creat */
	for (p = spec, i = 0; *p && i < 6; i++) {
		const char *colon = strchr(p, ':'), *comma = strchr(p, ',');
		if (colon && (!comma || colon < comma) && !strncmp(colon + 1, "open_flags", 10))
			creat = (args[i] & 0x400040) != 0;
		if (!comma)
			break;
		p = comma + 1;
	}
	buf[0] = '\0';
	for (p = spec, i = 0; *p && i < 6; i++) {
		int n = _stp_spec_word(p), len;
		const char *type = p, *dec = NULL;
		int dec_len = 0, if_creat = 0;
		unsigned long v = args[i];
		long value;

		p += n;
		if (*p == ':') {
			dec = ++p;
			dec_len = _stp_spec_word(p);
			p += dec_len;
		}
		if (*p == '@') {
			if_creat = 1;
			p += 1 + _stp_spec_word(p + 1);
		}
		if (*p == ',')
			p++;
		if ((if_creat && !creat) || _stp_spec_is(type, n, "skip"))
			continue;
		if (buf[0])
			_stp_decode_cat(buf, size, ", ");
		len = (int)strlen(buf);
		value = _stp_spec_is(type, n, "int") ? (long)(int)v
			: _stp_spec_is(type, n, "uint") || _stp_spec_is(type, n, "octal") ? (long)(unsigned int)v
			: (long)v;
		if (dec) {
			size_t k;
			for (k = 0; k < sizeof(_stp_decoders) / sizeof(_stp_decoders[0]); k++)
				if (_stp_spec_is(dec, dec_len, _stp_decoders[k].name))
					break;
			if (k < sizeof(_stp_decoders) / sizeof(_stp_decoders[0])) {
				_stp_decoders[k].render(buf + len, size - len, value);
				continue;
			}
		}
		if (_stp_spec_is(type, n, "ustr") || _stp_spec_is(type, n, "sptr"))
			rd->string(buf, size, v);
		else if (_stp_spec_is(type, n, "argv") || _stp_spec_is(type, n, "env"))
			_stp_argstr_vector(buf, size, v, type[0] == 'e', rd);
		else if (_stp_spec_is(type, n, "ptr"))
			_stp_decode_num(buf, size, value, 1);
		else if (_stp_spec_is(type, n, "octal"))
			_stp_decode_mode(buf + len, size - len, value);
		else if (_stp_spec_is(type, n, "uint") || _stp_spec_is(type, n, "ulong"))
			snprintf(buf + len, size - len, "%lu", (unsigned long)value);
		else
			_stp_decode_num(buf, size, value, 0);
	}
}

#endif /* STP_SYSCALL_DECODE_C */
