/* transport_msgs.h - the versioned protocol shared by the module, staprun and stapio. */
#ifndef STP_TRANSPORT_MSGS_H
#define STP_TRANSPORT_MSGS_H

/*
 * Two channels connect a loaded module to stapio, both in debugfs under
 * /sys/kernel/debug/systemtap/<module>/:
 *
 * .cmd (control, read/write)
 *	stapio writes one command per write(): a struct _stp_msg_hdr followed
 *	by exactly hdr.len payload bytes. The module reads messages into a
 *	fixed ring (never allocating, never waking anybody from probe
 *	context); a read() with a buffer of at least STP_MSG_MAX bytes
 *	returns zero or more whole messages and never blocks, so stapio
 *	polls it on a short tick. Commands are carried out on a workqueue:
 *	the write returns at once, and the answer comes as a message.
 *
 *	stapio                          module
 *	  START {version, target} --->    runs begin probes, registers probes
 *	  INPUT bytes             --->    runs input.char/input.line (any time)
 *	                          <---    STARTED {status}
 *	                          <---    WARNING / ERROR text (any time)
 *	                          <---    SYSTEM {after_seq} command (system())
 *	                          <---    REQUEST_EXIT (exit() or an error)
 *	  EXIT                    --->    unregisters, runs end or error probes
 *	                          <---    EXITED {counters}   (always last)
 *
 *	  MONITOR {op, index}     --->    (stap --monitor) status, pause, ...
 *	                          <---    STATUS line ... STATUS (empty: end)
 *
 *	START carries STP_PROTOCOL_VERSION; a module built from another
 *	version answers STARTED with -EPROTO and runs nothing.
 *
 * trace<cpu> (read only, one per CPU: the module's ring, relay in flight mode)
 *	A stream of records, each a struct _stp_record_hdr followed by len
 *	bytes of script output. seq is one global counter taken at the moment
 *	a record enters the buffer, so merging all CPUs by seq restores the
 *	order in which output was produced. A read() may end inside a record
 *	(the rest comes with the next), but a record never spans CPUs; a
 *	seq is only consumed by a record that was actually written. poll()
 *	reports a ring readable once it is a quarter full (never, in flight
 *	mode).
 *	A record whose len has STP_RECORD_SWITCH_FILE set carries no text: it
 *	marks where switch_file() was called, and stapio starts its next
 *	output file before writing the records after it.
 *	In flight recorder mode (STP_FLIGHTREC_PARAM) every sub-buffer starts
 *	with a record instead: records are padded to 8 bytes and never span
 *	sub-buffers, and filler records take the rest of a sub-buffer (see
 *	STP_RECORD_PADDED, STP_RECORD_FILL).
 */

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#endif

/* Bump on any change to the layout or meaning of anything in this file. */
#define STP_PROTOCOL_VERSION 6

/* Where the module's files live in debugfs (relative to its mount point). */
#define STP_DEBUGFS_ROOT "systemtap"
#define STP_CTL_FILE ".cmd"
#define STP_RELAY_BASENAME "trace"

/* Module parameter for the relay size: MB per CPU (staprun -s). */
#define STP_BUFSIZE_PARAM "_stp_bufsize"

/* Module parameter staprun -L sets: flight recorder mode (keep the newest output while detached). */
#define STP_FLIGHTREC_PARAM "_stp_flightrec"

/* Read-only module parameter: 1 when the module was built with stap -b (bulk mode). */
#define STP_BULKMODE_PARAM "_stp_bulkmode"

/* Read-only module parameter: 1 when the module was built with stap --monitor (staprun -M). */
#define STP_MONITOR_PARAM "_stp_monitor"

/* Module parameters staprun sets: the local time zone at start (tz_ctime() and friends). */
#define STP_TZ_GMTOFF_PARAM "_stp_tz_gmtoff"	/* seconds west of UTC */
#define STP_TZ_NAME_PARAM "_stp_tz_name"	/* its abbreviation, e.g. CET */
#define STP_TZ_NAME_MAX 16			/* bytes of the name, NUL included */

/*
 * The user staprun runs for (its real uid), which staprun alone sets: a
 * --privilege=stapusr module probes only that user's processes.
 */
#define STP_UID_PARAM "_stp_uid"

/* Module parameters stap --remote sets: remote_id() and remote_uri(). */
#define STP_REMOTE_ID_PARAM "_stp_remote_id"
#define STP_REMOTE_URI_PARAM "_stp_remote_uri"
#define STP_REMOTE_URI_MAX 128			/* bytes of the URI, NUL included */

/*
 * Module parameter staprun -N PID sets (stap --target-namespaces=PID): the process whose pid
 * and user namespaces the ns_* and task_ns_* functions use, instead of stapio's.
 */
#define STP_NAMESPACES_PID_PARAM "_stp_namespaces_pid"

/* Read-only module parameter: 1 when the script has input.char/input.line probes (stapio then reads stdin). */
#define STP_HAS_INPUT_PARAM "_stp_has_input"

/* Largest payload of an INPUT command, in bytes. */
#define STP_INPUT_CHUNK 256

/* stapio's exit status when another stapio has the module's .cmd open: staprun then leaves the module loaded. */
#define STP_STAPIO_EXIT_BUSY 3

/* stapio's exit status after SIGQUIT detached it from a running session: staprun leaves the module loaded. */
#define STP_STAPIO_EXIT_DETACHED 4

/*
 * Largest text payload of a WARNING or ERROR message, in bytes: room for an
 * error, the statement it was near and a few call sites with the absolute
 * paths of installed tapset files.
 */
#define STP_MSG_TEXT_MAX 480

/* Largest whole message (header plus payload) in either direction. */
#define STP_MSG_MAX 512

/* Starts every control message; len payload bytes follow. */
struct _stp_msg_hdr {
	uint32_t type;			/* an enum _stp_cmd_type or _stp_msg_type */
	uint32_t len;			/* payload bytes after this header */
};

/* Commands: stapio to module. */
enum _stp_cmd_type {
	STP_CMD_START = 1,		/* payload struct _stp_cmd_start */
	STP_CMD_EXIT = 2,		/* no payload: stop the script */
	STP_CMD_INPUT = 3,		/* up to STP_INPUT_CHUNK bytes of stapio's stdin; none: end of input */
	STP_CMD_MONITOR = 4,		/* payload struct _stp_cmd_monitor (module built with stap --monitor) */
};

/* What a MONITOR command asks; only a module built with stap --monitor accepts it (else -EOPNOTSUPP). */
enum _stp_monitor_op {
	STP_MONITOR_STATUS = 1,		/* answer with STATUS lines, then an empty STATUS */
	STP_MONITOR_RESET = 2,		/* every global back to its initial value (or zero, empty) */
	STP_MONITOR_PAUSE = 3,		/* every probe off */
	STP_MONITOR_RESUME = 4,		/* every probe on */
	STP_MONITOR_TOGGLE = 5,		/* probe index on if off, off if on */
};

/* Payload of STP_CMD_MONITOR. */
struct _stp_cmd_monitor {
	uint32_t op;			/* an enum _stp_monitor_op */
	uint32_t index;			/* STP_MONITOR_TOGGLE: the probe's index in the status */
};

/* Messages: module to stapio. */
enum _stp_msg_type {
	STP_MSG_STARTED = 101,		/* payload struct _stp_msg_started */
	STP_MSG_WARNING = 102,		/* payload text (no NUL): print "WARNING: text" */
	STP_MSG_ERROR = 103,		/* payload text (no NUL): print "ERROR: text" */
	STP_MSG_REQUEST_EXIT = 104,	/* no payload: please send EXIT */
	STP_MSG_EXITED = 105,		/* payload struct _stp_msg_exited; the last message */
	STP_MSG_SYSTEM = 106,		/* payload struct _stp_msg_system, then the command (no NUL) */
	STP_MSG_STATUS = 107,		/* one line of monitor status (no NUL, no newline); empty: the last */
};

/* Payload of STP_CMD_START. */
struct _stp_cmd_start {
	uint32_t version;		/* STP_PROTOCOL_VERSION of stapio */
	uint32_t reserved;		/* zero */
	int64_t target_pid;		/* target(): -x PID or the -c command, 0 if none */
};

/* Payload of STP_MSG_STARTED. */
struct _stp_msg_started {
	int32_t status;			/* 0, or -errno: begin/registration failed or bad version */
	uint32_t version;		/* STP_PROTOCOL_VERSION of the module */
};

/*
 * Head of STP_MSG_SYSTEM's payload: stapio runs the command that follows with
 * /bin/sh -c, in the background, once it has written out every relay record
 * up to after_seq (the output the script printed before calling system()).
 */
struct _stp_msg_system {
	uint32_t after_seq;		/* last record seq taken before the call, 0 if none */
	uint32_t reserved;		/* zero */
};

/* Payload of STP_MSG_EXITED. */
struct _stp_msg_exited {
	uint32_t errored;		/* 1 if the script ended with an error */
	uint32_t errors;		/* ERRORs reported */
	uint64_t skipped;		/* probe hits skipped (reentrancy, lock timeouts, kprobe misses) */
	uint64_t dropped;		/* output records lost because the relay buffers were full */
	uint64_t overwritten;		/* flight recorder mode: older records overwritten by newer ones */
	uint64_t lost_msgs;		/* control messages lost because the ring was full */
};

/* Largest len of a relay record; anything larger means a corrupt stream. */
#define STP_RECORD_MAX (1u << 20)

/* Flag in a record's len: no text follows; start the next output file here (switch_file()). */
#define STP_RECORD_SWITCH_FILE (1u << 31)

/*
 * Flags in a record's len (flight recorder mode): PADDED, the record is
 * followed by 0-7 unused bytes, up to a multiple of 8 from its header's
 * start; FILL, a filler with no seq (0): skip the len bytes that follow.
 */
#define STP_RECORD_PADDED (1u << 30)
#define STP_RECORD_FILL (1u << 29)

/* Starts every relay record; len bytes of output follow. */
struct _stp_record_hdr {
	uint32_t seq;			/* global order of the record, from 1, wraps */
	uint32_t len;			/* output bytes after this header */
};

#endif
