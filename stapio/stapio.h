/* stapio.h - declarations shared by stapio's files: options, control channel, relay merger, target command. */
#ifndef STAPIO_H
#define STAPIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "transport_msgs.h"

/* Where the script's output goes. */
struct stapio_output {
	const char *outfile;	/* -o: output file, NULL for stdout */
	unsigned long long rotate_size; /* -S SIZE: bytes per FILE.N, 0 for one file */
	unsigned long rotate_keep;	/* -S SIZE,N: files kept, 0 for all */
	bool bulk;		/* -b: one file per CPU, not merged */
	bool attach;		/* -A: the module ran before; its first records are gone */
};

/* The command line. */
struct stapio_options {
	const char *module;	/* module name (no directory, no .ko) */
	const char *outfile;	/* -o: output file, NULL for stdout */
	const char *command;	/* -c: command to run under /bin/sh -c */
	pid_t target_pid;	/* -x: target process, 0 if none */
	int verbose;		/* -v: count of -v flags */
	struct stapio_output output; /* -o, -S, -b, -A */
	bool detach;		/* -L: start the session, then leave it running */
	bool attach;		/* -A: the session was started by another stapio */
	bool no_warnings;	/* -w: drop the script's WARNING messages */
	const char *color;	/* -C WHEN: always, never or auto (the default) */
	long tick_ms;		/* -T MS: longest wait before reading the buffers again */
	int monitor_s;		/* -M SEC: monitor mode, seconds between status updates (0: off) */
};

extern int stapio_verbose;	/* copy of options.verbose for stapio_log */

/* Diagnostics on stderr, prefixed "stapio: ". */
void stapio_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void stapio_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- control.c: the .cmd file ---- */

/* What the module has told us so far. */
struct stapio_control {
	int fd;			/* .cmd, open read/write */
	bool started;		/* STARTED arrived */
	int start_status;	/* its status: 0 or -errno */
	bool exit_wanted;	/* REQUEST_EXIT or ERROR arrived: send EXIT */
	bool exited;		/* EXITED arrived: the module is done */
	struct _stp_msg_exited summary; /* EXITED's counters */
	char *text;		/* WARNING/ERROR lines not yet printed */
	size_t text_len;	/* bytes in text */
	size_t text_cap;	/* allocated size of text */
	bool no_warnings;	/* -w: WARNING messages are dropped */
	const char *warning_sgr; /* -C: the color of "WARNING" (SGR parameters), NULL for none */
	const char *error_sgr;	/* -C: the color of "ERROR", NULL for none */
};

/* Open <dir>/.cmd. Returns 0, or after a message -2 if another stapio has it open, else -1. */
int stapio_control_open(struct stapio_control *ctl, const char *dir);
void stapio_control_close(struct stapio_control *ctl);
/* Send a command with payload. Returns 0, or -1 after a message. */
int stapio_control_send(struct stapio_control *ctl, uint32_t type, const void *data,
			uint32_t len);
/* Read and act on every queued message (update ctl, keep WARNING/ERROR lines). */
int stapio_control_poll(struct stapio_control *ctl);
/* Print the WARNING/ERROR lines kept so far on stderr. */
void stapio_control_print(struct stapio_control *ctl);

/* ---- input.c: stdin to input.char/input.line probes ---- */

/* Whether the module has input probes, so stdin is the script's. */
bool stapio_input_wanted(const char *module);
/* On a terminal, put stdin in noncanonical mode until exit. */
void stapio_input_start(void);
/* Send what stdin has now as INPUT commands; at its end an empty one, and *done. -1 on failure. */
int stapio_input_poll(struct stapio_control *ctl, bool *done);

/* ---- monitor.c: -M, the module's status every interval and the monitor's keys ---- */

/* Start monitor mode: status every interval_s seconds; stdin gives the keys. */
void stapio_monitor_start(int interval_s);
/* Whether monitor mode is on (started, and the module was built with stap --monitor). */
bool stapio_monitor_on(void);
/* Read the keys, ask for the status when due; running: the session is started and not stopping. */
void stapio_monitor_poll(struct stapio_control *ctl, bool running);
/* A STATUS message's line; an empty one ends the block, which is then shown. */
void stapio_monitor_line(const char *text, uint32_t len);
/* On a terminal: output for stdout, kept for scrolling back and written (or held while scrolled back); false: not taken, write it. */
bool stapio_monitor_output(const char *data, size_t len);
/* Leave monitor mode: the terminal as it was. */
void stapio_monitor_stop(void);

/* ---- relay.c: trace<cpu> files merged by record seq ---- */

struct stapio_relay;

/* Open every trace<cpu> in dir and the output (see struct stapio_output). NULL after a message. */
struct stapio_relay *stapio_relay_open(const char *dir, const struct stapio_output *opt);
/*
 * Read what is available and write out the records that are next in seq
 * order. final: the module has stopped; read every file to its end and
 * write everything left, gaps or not.
 */
void stapio_relay_poll(struct stapio_relay *r, bool final);
/*
 * Sleep until a trace file has a burst to read (its ring a quarter full),
 * a signal comes, or timeout_ms pass: the main loop's tick.
 */
void stapio_relay_wait(struct stapio_relay *r, int timeout_ms);
void stapio_relay_close(struct stapio_relay *r);
/* The seq of the last record written out (or given up on). */
uint32_t stapio_relay_written(const struct stapio_relay *r);
/* SIGUSR2: with -o, go on in the next file (FILE.N), as switch_file() does. */
void stapio_relay_switch(struct stapio_relay *r);

/* ---- system.c: commands from the script's system() ---- */

/* Keep a SYSTEM message's command until the records up to after_seq are written. */
void stapio_system_queue(uint32_t after_seq, const char *text, uint32_t len);
/* Start (in the background, /bin/sh -c) the commands whose output before them is out; all: every one. */
void stapio_system_run(uint32_t written_seq, bool all);
/* Reap the commands that ended; wait_all: wait for every one (at exit) and free the queue. */
void stapio_system_reap(bool wait_all);

/*
 * When staprun runs setuid root, stapio runs as root for a user who is not:
 * the commands it starts (system(), -c) become that user for good, in a child
 * just before exec (exits 126 if it cannot). No-op when the ids agree.
 */
void stapio_become_user(void);
/* Open an output file as that user, not as root; as open(2). */
int stapio_open_as_user(const char *path, int flags, mode_t mode);
/* Remove a file as that user; as unlink(2). */
int stapio_unlink_as_user(const char *path);

/* ---- target.c: the -c command ---- */

/* Fork the command, held before exec. Returns its pid, or -1 after a message. */
pid_t stapio_target_spawn(const char *command);
/* Let it exec (go = true) or kill it (go = false). */
void stapio_target_release(bool go);
/* True once the command has exited (reaps it). */
bool stapio_target_exited(void);
/* End the command if it outlived the session: SIGTERM, then SIGKILL after a second. */
void stapio_target_stop(void);

#endif
