/* relay.c - read the per-CPU trace files and write their records out merged in seq order. */

/*
 * Each trace<cpu> file is a stream of records (struct _stp_record_hdr +
 * text); within one CPU the seqs increase. Bytes read are appended to a
 * per-CPU buffer, so a record that arrives in pieces is simply completed
 * later. Merging is a k-way merge on the head record of each CPU:
 *
 *  - the head whose seq is the next one expected is written at once;
 *  - if the smallest head is further ahead, the missing record may still
 *    be in the middle of its copy on another CPU (the module consumes a
 *    seq only for a record it really writes), so it waits a little;
 *  - a gap older than STAPIO_GAP_MS, or with more than
 *    STAPIO_GAP_MAX_BYTES piled up behind it, is given up on, so a bug or
 *    an unexpected loss can neither stall the output nor eat the memory;
 *  - at the end (final) every file is read to its end and what is left is
 *    written in seq order; so is what was there when stapio attached (-A).
 *
 * Output is collected per round and written with write(2) at its end, so
 * it reaches a pipe or file promptly and always in whole records.
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "stapio.h"

#define STAPIO_GAP_MS 250		/* how long a missing seq is waited for */
#define STAPIO_GAP_MAX_BYTES (64u << 20) /* ... and how much output may pile up meanwhile */
#define STAPIO_READ_CHUNK 65536		/* bytes per read(2) of a trace file */
#define STAPIO_ROUND_MAX (4u << 20)	/* bytes read from one file per polling round */
#define STAPIO_POLL_MAX 1024		/* CPUs whose files the tick polls (more: a plain sleep) */
#define STAPIO_BACKLOG_MAX ((1024ull << 20) + STAPIO_ROUND_MAX) /* ... in the first round after -A: a whole buffer (-s 1024 at most) */

/* An output file being written: with -S, the current FILE.N of a rotation. */
struct stapio_outfile {
	int fd;			/* the open file, -1 if none */
	char *base;		/* -o FILE (or FILE_CPU in bulk mode); NULL for stdout */
	unsigned long index;	/* -S: the N of the FILE.N being written */
	unsigned long long bytes; /* -S: bytes in it so far */
};

/* One trace<cpu> file and its unparsed bytes. */
struct stapio_cpu {
	int cpu;		/* the N of traceN */
	int fd;			/* the open trace file */
	struct stapio_outfile out; /* bulk mode (-b): this CPU's own output file, else fd -1 */
	char *buf;		/* bytes read, not yet written out */
	size_t start;		/* offset of the first unconsumed byte */
	size_t len;		/* offset just past the last byte read */
	size_t cap;		/* allocated size of buf */
};

struct stapio_relay {
	struct stapio_cpu *cpus;	/* one per trace file */
	size_t ncpus;			/* number of trace files */
	int out_fd;			/* where records go */
	bool own_out;			/* out_fd was opened here (-o) */
	bool out_failed;		/* a write failed: discard from now on */
	uint32_t next_seq;		/* the seq expected next */
	bool gap;			/* waiting for next_seq since gap_since */
	struct timespec gap_since;	/* when the current gap was first seen */
	char *out;			/* output collected in this round */
	size_t out_len;			/* bytes in out */
	size_t out_cap;			/* allocated size of out */
	unsigned long long gaps_skipped; /* seqs never seen */
	bool resync;			/* attached to a running module (-A): next_seq is the first seen */
	bool backlog;			/* -A: the first round, of what was written while detached */
	struct stapio_output opt;	/* -o, -S, -b */
	struct stapio_outfile file;	/* -o FILE, not in bulk mode (out_fd is its fd) */
};

static void *stapio_xrealloc(void *p, size_t size)
{
	p = realloc(p, size);
	if (!p) {
		stapio_err("out of memory");
		exit(1);
	}
	return p;
}

static int stapio_trace_number(const char *name)
{
	size_t base = strlen(STP_RELAY_BASENAME);
	char *end;
	long cpu;

	if (strncmp(name, STP_RELAY_BASENAME, base) != 0 || !name[base])
		return -1;
	cpu = strtol(name + base, &end, 10);
	return *end || cpu < 0 || cpu > 65535 ? -1 : (int)cpu;
}

/* Create (truncate) an output file; -1 after a message. */
static int stapio_out_open(const char *path)
{
	int fd = stapio_open_as_user(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		stapio_err("cannot open output file %s: %s", path, strerror(errno));
	return fd;
}

/* -S: open BASE.index, removing BASE.(index-keep) so that at most keep files remain. */
static int stapio_out_open_rotated(const struct stapio_relay *r, struct stapio_outfile *f)
{
	char path[4096];

	if (r->opt.rotate_keep && f->index >= r->opt.rotate_keep) {
		snprintf(path, sizeof(path), "%s.%lu", f->base, f->index - r->opt.rotate_keep);
		stapio_unlink_as_user(path);
	}
	snprintf(path, sizeof(path), "%s.%lu", f->base, f->index);
	f->bytes = 0;
	f->fd = stapio_out_open(path);
	return f->fd;
}

/* Open the output file base: BASE, or BASE.0 with -S. -1 after a message. */
static int stapio_outfile_open(const struct stapio_relay *r, struct stapio_outfile *f, const char *base)
{
	f->base = strdup(base);
	if (!f->base) {
		stapio_err("out of memory");
		return -1;
	}
	if (r->opt.rotate_size)
		return stapio_out_open_rotated(r, f);
	f->fd = stapio_out_open(base);
	return f->fd;
}

/* Go on in the next file of the rotation, BASE.N+1; false if it cannot be opened. */
static bool stapio_outfile_next(const struct stapio_relay *r, struct stapio_outfile *f)
{
	close(f->fd);
	f->index++;
	return stapio_out_open_rotated(r, f) >= 0;
}

struct stapio_relay *stapio_relay_open(const char *dir, const struct stapio_output *opt)
{
	struct stapio_relay *r = calloc(1, sizeof(*r));
	struct dirent *de;
	DIR *d;

	if (!r) {
		stapio_err("out of memory");
		return NULL;
	}
	r->opt = *opt;
	r->next_seq = 1;
	r->resync = opt->attach;
	r->backlog = opt->attach;
	r->out_fd = STDOUT_FILENO;
	r->file.fd = -1;
	d = opendir(dir);
	if (!d) {
		stapio_err("cannot open %s: %s", dir, strerror(errno));
		free(r);
		return NULL;
	}
	while ((de = readdir(d)) != NULL) {
		char path[4096];
		int fd, cpu = stapio_trace_number(de->d_name);

		if (cpu < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			stapio_err("cannot open %s: %s", path, strerror(errno));
			continue;
		}
		r->cpus = stapio_xrealloc(r->cpus, (r->ncpus + 1) * sizeof(*r->cpus));
		memset(&r->cpus[r->ncpus], 0, sizeof(r->cpus[0]));
		r->cpus[r->ncpus].cpu = cpu;
		r->cpus[r->ncpus].out.fd = -1;
		r->cpus[r->ncpus++].fd = fd;
	}
	closedir(d);
	if (r->ncpus == 0) {
		stapio_err("no %s* files in %s", STP_RELAY_BASENAME, dir);
		stapio_relay_close(r);
		return NULL;
	}
	if (opt->bulk) {
		/* -b: FILE_CPU with -o (FILE_CPU.N with -S), else stpd_cpuCPU, in the current directory */
		for (size_t i = 0; i < r->ncpus; i++) {
			char path[4096];

			if (opt->outfile)
				snprintf(path, sizeof(path), "%s_%d", opt->outfile, r->cpus[i].cpu);
			else
				snprintf(path, sizeof(path), "stpd_cpu%d", r->cpus[i].cpu);
			if (stapio_outfile_open(r, &r->cpus[i].out, path) < 0) {
				stapio_relay_close(r);
				return NULL;
			}
		}
	} else if (opt->outfile) {
		r->out_fd = stapio_outfile_open(r, &r->file, opt->outfile);
		if (r->out_fd < 0) {
			stapio_relay_close(r);
			return NULL;
		}
		r->own_out = true;
	}
	stapio_log(2, "reading %zu trace files", r->ncpus);
	return r;
}

void stapio_relay_close(struct stapio_relay *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->ncpus; i++) {
		close(r->cpus[i].fd);
		if (r->cpus[i].out.fd >= 0)
			close(r->cpus[i].out.fd);
		free(r->cpus[i].out.base);
		free(r->cpus[i].buf);
	}
	if (r->own_out && r->out_fd >= 0)
		close(r->out_fd);
	free(r->file.base);
	if (r->gaps_skipped)
		stapio_log(1, "%llu record numbers never arrived", r->gaps_skipped);
	free(r->cpus);
	free(r->out);
	free(r);
}

/*
 * Read what one file has now. While the session runs, a round stops at
 * the first short read or after limit bytes: stapio's own reads may be
 * probed (vfs_read), and each would bring a new record, so "until empty"
 * could go on forever. At the end (final) probes are gone and the file is
 * read until it is empty.
 */
static void stapio_cpu_read(struct stapio_cpu *c, bool final, unsigned long long limit)
{
	unsigned long long round = 0;

	for (;;) {
		ssize_t n;

		if (c->start > 0 && c->start == c->len)
			c->start = c->len = 0;
		if (c->cap - c->len < STAPIO_READ_CHUNK) {
			if (c->start > 0) {
				memmove(c->buf, c->buf + c->start, c->len - c->start);
				c->len -= c->start;
				c->start = 0;
			}
			if (c->cap - c->len < STAPIO_READ_CHUNK) {
				c->cap = c->cap ? c->cap * 2 : 4 * STAPIO_READ_CHUNK;
				c->buf = stapio_xrealloc(c->buf, c->cap);
			}
		}
		n = read(c->fd, c->buf + c->len, STAPIO_READ_CHUNK);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		c->len += n;
		round += n;
		if (!final && (n < STAPIO_READ_CHUNK || round >= limit))
			return;
	}
}

/* A record's header, decoded. */
struct stapio_record {
	uint32_t seq;		/* its seq (0 for a filler) */
	uint32_t text_len;	/* bytes of output after the header */
	size_t size;		/* bytes it takes in the stream, header and padding included */
	bool switch_file;	/* a switch_file() marker: no text */
};

/*
 * The head record of a CPU, if complete; fillers (flight recorder mode)
 * are skipped here. A corrupt stream is reported and dropped.
 */
static bool stapio_cpu_head(struct stapio_cpu *c, struct stapio_record *rec)
{
	for (;;) {
		struct _stp_record_hdr hdr;
		uint32_t flags;

		if (c->len - c->start < sizeof(hdr))
			return false;
		memcpy(&hdr, c->buf + c->start, sizeof(hdr));
		flags = hdr.len & (STP_RECORD_SWITCH_FILE | STP_RECORD_PADDED | STP_RECORD_FILL);
		rec->seq = hdr.seq;
		rec->text_len = hdr.len & ~flags;
		rec->switch_file = flags & STP_RECORD_SWITCH_FILE;
		rec->size = sizeof(hdr) + rec->text_len;
		if (flags & (STP_RECORD_PADDED | STP_RECORD_FILL))
			rec->size = (rec->size + 7) & ~(size_t)7;
		if (rec->text_len > STP_RECORD_MAX || (rec->switch_file && rec->text_len)) {
			stapio_err("corrupt record (length %#x) in %s%d; dropping %zu buffered bytes",
				   hdr.len, STP_RELAY_BASENAME, c->cpu, c->len - c->start);
			c->start = c->len;
			return false;
		}
		if (c->len - c->start < rec->size)
			return false;
		if (!(flags & STP_RECORD_FILL))
			return true;
		c->start += rec->size;	/* a filler: the rest of its sub-buffer */
	}
}

/* Bytes read but not yet written out, over all CPUs. */
static size_t stapio_relay_buffered(const struct stapio_relay *r)
{
	size_t i, total = 0;

	for (i = 0; i < r->ncpus; i++)
		total += r->cpus[i].len - r->cpus[i].start;
	return total;
}

static void stapio_out_append(struct stapio_relay *r, const char *data, size_t len)
{
	if (r->out_len + len > r->out_cap) {
		r->out_cap = (r->out_len + len) * 2;
		r->out = stapio_xrealloc(r->out, r->out_cap);
	}
	memcpy(r->out + r->out_len, data, len);
	r->out_len += len;
}

/* Write all of data to fd; false after a message. */
static bool stapio_write_all(int fd, const char *data, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, data + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			stapio_err("cannot write output: %s", strerror(errno));
			return false;
		}
		done += n;
	}
	return true;
}

static void stapio_out_flush(struct stapio_relay *r)
{
	if (!r->out_len || r->out_failed) {
		r->out_len = 0;
		return;
	}
	/* -M on a terminal: the monitor writes stdout's output (or holds it while scrolled back) */
	if (!(r->out_fd == STDOUT_FILENO && stapio_monitor_output(r->out, r->out_len)) &&
	    !stapio_write_all(r->out_fd, r->out, r->out_len))
		r->out_failed = true;
	r->out_len = 0;
}

/* -S: whether a record of len bytes takes the file past SIZE, so the next file starts first. */
static bool stapio_out_full(const struct stapio_relay *r, const struct stapio_outfile *f, size_t len)
{
	return r->opt.rotate_size && f->bytes && f->bytes + len > r->opt.rotate_size;
}

/* Flush the output file and go on in the next one; false (output failed) if it cannot be opened. */
static bool stapio_out_next(struct stapio_relay *r)
{
	stapio_out_flush(r);
	r->out_fd = -1;
	if (!stapio_outfile_next(r, &r->file)) {
		r->out_failed = true;
		return false;
	}
	r->out_fd = r->file.fd;
	return true;
}

/*
 * One record's text goes out: to its CPU's file in bulk mode, else into
 * this round's output; with -S, a record that would take the file past
 * SIZE starts the next file (a record is never split between two), in
 * bulk mode each CPU's file on its own (FILE_CPU.N).
 */
static void stapio_out_record(struct stapio_relay *r, struct stapio_cpu *c, const char *data, size_t len)
{
	if (r->out_failed)
		return;
	if (c->out.fd >= 0) {
		if ((stapio_out_full(r, &c->out, len) && !stapio_outfile_next(r, &c->out)) ||
		    !stapio_write_all(c->out.fd, data, len))
			r->out_failed = true;
		c->out.bytes += len;
		return;
	}
	if (stapio_out_full(r, &r->file, len) && !stapio_out_next(r))
		return;
	r->file.bytes += len;
	stapio_out_append(r, data, len);
}

/*
 * switch_file(): with -o, close the output file and go on in the next
 * one, FILE.N+1 (with -S) or, after FILE, FILE.1, FILE.2... (without -S;
 * nothing is deleted then). Ignored on stdout and in bulk mode.
 */
static void stapio_out_switch(struct stapio_relay *r)
{
	if (r->out_failed || !r->own_out || r->opt.bulk || !stapio_out_next(r))
		return;
	stapio_log(1, "switch_file(): now writing %s.%lu", r->opt.outfile, r->file.index);
}

void stapio_relay_switch(struct stapio_relay *r)
{
	stapio_out_switch(r);
}

static long stapio_ms_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - t->tv_sec) * 1000 + (now.tv_nsec - t->tv_nsec) / 1000000;
}

/* Write out records in seq order for as long as that is safe. */
static void stapio_relay_merge(struct stapio_relay *r, bool final)
{
	for (;;) {
		struct stapio_record hdr, best_hdr = { 0 };
		struct stapio_cpu *best = NULL;
		size_t i;

		for (i = 0; i < r->ncpus; i++) {
			if (!stapio_cpu_head(&r->cpus[i], &hdr))
				continue;
			/* Wrap-safe: the smallest distance from next_seq wins. */
			if (!best || (int32_t)(hdr.seq - best_hdr.seq) < 0) {
				best = &r->cpus[i];
				best_hdr = hdr;
			}
		}
		if (!best)
			break;
		if (r->resync) {
			/* attached: what was read before is gone; start at the oldest record there is */
			r->next_seq = best_hdr.seq;
			r->resync = false;
		}
		if (best_hdr.seq != r->next_seq && (int32_t)(best_hdr.seq - r->next_seq) > 0 &&
		    !final) {
			if (!r->gap) {
				r->gap = true;
				clock_gettime(CLOCK_MONOTONIC, &r->gap_since);
			}
			if (stapio_ms_since(&r->gap_since) < STAPIO_GAP_MS &&
			    stapio_relay_buffered(r) < STAPIO_GAP_MAX_BYTES)
				break;
		}
		if ((int32_t)(best_hdr.seq - r->next_seq) >= 0) {
			r->gaps_skipped += best_hdr.seq - r->next_seq;
			r->next_seq = best_hdr.seq + 1;
		}
		/* else: a record whose gap was already given up on, written late */
		r->gap = false;
		if (best_hdr.switch_file)
			stapio_out_switch(r);
		else
			stapio_out_record(r, best, best->buf + best->start + sizeof(struct _stp_record_hdr),
					  best_hdr.text_len);
		best->start += best_hdr.size;
	}
	stapio_out_flush(r);
}

/*
 * Between rounds stapio sleeps in poll(2) on the trace files, the tick as
 * its timeout. In the normal mode the module reports a file readable, and
 * wakes stapio, once its ring is a quarter full, so a burst is read while
 * it is written instead of filling the ring (and losing records) while
 * stapio sleeps out its tick; the module's rings hand a reader only
 * whole, written bytes, however closely it follows the writer. Flight
 * recorder mode's relay files never report readable: they are read once
 * a tick. A file that reports anything but "readable" (the module going
 * away) would wake poll at once, again and again: the tick is then slept
 * whole.
 */
void stapio_relay_wait(struct stapio_relay *r, int timeout_ms)
{
	struct pollfd fds[STAPIO_POLL_MAX];
	struct timespec ts = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000L };
	size_t i;

	if (r->ncpus <= STAPIO_POLL_MAX) {
		for (i = 0; i < r->ncpus; i++)
			fds[i] = (struct pollfd){ .fd = r->cpus[i].fd, .events = POLLIN };
		if (poll(fds, r->ncpus, timeout_ms) <= 0)
			return;	/* the tick passed, or a signal came */
		for (i = 0; i < r->ncpus && !(fds[i].revents & ~POLLIN); i++)
			;
		if (i == r->ncpus)
			return;	/* output to read */
	}
	nanosleep(&ts, NULL);	/* a signal cuts it short, which is fine */
}

void stapio_relay_poll(struct stapio_relay *r, bool final)
{
	size_t i;

	/*
	 * Attached (-A): the first round reads what was written while detached
	 * whole (up to a short read), so the merge sees every CPU's backlog. Its
	 * records are all complete, and the gaps among them (a CPU's oldest
	 * records overwritten in flight recorder mode, or read by the stapio
	 * that detached) are for good: waiting on each would only stall.
	 */
	for (i = 0; i < r->ncpus; i++)
		stapio_cpu_read(&r->cpus[i], final, r->backlog ? STAPIO_BACKLOG_MAX : STAPIO_ROUND_MAX);
	stapio_relay_merge(r, final || r->backlog);
	r->backlog = false;
	if (final) {
		for (i = 0; i < r->ncpus; i++) {
			struct stapio_cpu *c = &r->cpus[i];

			if (c->len != c->start)
				stapio_err("%zu bytes of an incomplete record in %s%d discarded",
					   c->len - c->start, STP_RELAY_BASENAME, c->cpu);
		}
	}
}

uint32_t stapio_relay_written(const struct stapio_relay *r)
{
	return r->next_seq - 1;
}
