/* monitor.c - stapio -M: the module's status every interval, drawn at the top of the terminal, and its keys. */

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "stapio.h"

/*
 * Every interval stapio sends MONITOR STATUS; the module answers with
 * STATUS lines (a header, "memory: ...", "globals:", one line per global,
 * "probes:", one line "INDEX on|off HITS POINT (LOCATION)" per probe) and
 * an empty STATUS that ends the block. A complete block is shown:
 *  - stdout a terminal: in a window over the terminal's top rows, with the
 *    rows below it made the scrolling region the script's output runs in;
 *  - otherwise: as a plain text block between "== monitor" and "==" lines
 *    on stdout, after the output written so far.
 * Keys come from stdin (noncanonical and without echo on a terminal): see
 * key(). With -M, stdin belongs to the monitor, not to the script's input
 * probes.
 *
 * On a terminal the script's output on stdout also passes through here
 * (stapio_monitor_output), so its window can be scrolled: Tab moves the
 * navigation keys between the status window and the output window. The
 * last STAPIO_MONITOR_OUTPUT_LINES lines written are kept; while the
 * output window is scrolled back, new output is held (not written) and
 * the rows show older lines; back at the bottom, the rows are drawn as
 * they were and the held output is written, so the terminal's own
 * scrollback misses nothing.
 */

#define STAPIO_MONITOR_MAX_LINES 4096	/* lines of one block kept at most */
#define STAPIO_MONITOR_OUTPUT_LINES 1000	/* lines of output kept for scrolling back */
#define STAPIO_MONITOR_HELD_MAX (4 << 20)	/* bytes held while scrolled back before going live */

enum { SORT_INDEX, SORT_HITS, SORT_POINT, SORT_COUNT };
static const char *const sort_names[SORT_COUNT] = { "index", "hits", "point" };

/* One block of STATUS lines. */
struct block {
	char **line;
	size_t n;
};

static struct {
	bool on;		/* -M given and the module answers */
	int interval_s;		/* seconds between requests */
	bool tty;		/* stdout is a terminal: the window */
	bool keys;		/* stdin still open */
	bool hidden;		/* x: no window (on a terminal) or no blocks */
	int sort;		/* s: how probes are ordered */
	bool prompting;		/* t: reading a probe index */
	char prompt[12];	/* the digits typed so far */
	int escape;		/* 0, or 1 after ESC, 2 after ESC [ (arrow keys) */
	size_t scroll;		/* first line of the block shown in the window */
	bool focus_output;	/* Tab: the navigation keys scroll the output, not the status */
	char *out_line[STAPIO_MONITOR_OUTPUT_LINES];	/* the last complete output lines, a ring */
	size_t out_lines;	/* complete lines written so far (the ring holds the last ones) */
	char *out_partial;	/* the last line, not ended yet (NULL: empty) */
	size_t out_back;	/* lines the output window is scrolled back (0: live) */
	char *held;		/* output received while scrolled back, not written yet */
	size_t held_len, held_cap;
	bool pending;		/* STATUS asked, its block not complete */
	struct timespec asked;	/* when it was asked */
	struct timespec due;	/* when to ask next */
	struct block incoming;	/* lines of the block being received */
	struct block shown;	/* the last complete block */
	int window;		/* rows the window takes (a terminal, 0: none yet) */
	int rows;		/* the terminal's rows when the window was set up */
	struct termios saved;	/* stdin's settings before */
	bool saved_tty;		/* saved holds them */
} mon;

static void draw(void);

static double seconds_since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

static void block_clear(struct block *b)
{
	for (size_t i = 0; i < b->n; i++)
		free(b->line[i]);
	free(b->line);
	b->line = NULL;
	b->n = 0;
}

static void restore_terminal(void)
{
	if (mon.saved_tty)
		tcsetattr(STDIN_FILENO, TCSANOW, &mon.saved);
	if (mon.tty && mon.window) {
		/* the whole screen scrolls again, the cursor where the output left it */
		static const char reset[] = "\0337\033[r\0338";

		if (write(STDOUT_FILENO, reset, sizeof(reset) - 1) < 0)
			return;
	}
}

void stapio_monitor_start(int interval_s)
{
	mon.on = true;
	mon.interval_s = interval_s;
	mon.tty = isatty(STDOUT_FILENO);
	mon.keys = true;
	clock_gettime(CLOCK_MONOTONIC, &mon.due);
	if (isatty(STDIN_FILENO) && tcgetattr(STDIN_FILENO, &mon.saved) == 0) {
		struct termios raw = mon.saved;

		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 1;
		raw.c_cc[VTIME] = 0;
		mon.saved_tty = tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0;
	}
	atexit(restore_terminal);
}

bool stapio_monitor_on(void)
{
	return mon.on;
}

/* A MONITOR command; false (monitor off, after a message) when the module has no monitor. */
static bool send_op(struct stapio_control *ctl, uint32_t op, uint32_t index)
{
	struct {
		struct _stp_msg_hdr hdr;
		struct _stp_cmd_monitor m;
	} cmd = { { STP_CMD_MONITOR, sizeof(cmd.m) }, { op, index } };
	ssize_t n;

	do {
		n = write(ctl->fd, &cmd, sizeof(cmd));
	} while (n < 0 && errno == EINTR);
	if (n == (ssize_t)sizeof(cmd))
		return true;
	if (n < 0 && errno == EOPNOTSUPP) {
		stapio_err("-M: the module was not built with stap --monitor: no status");
		mon.on = false;
	} else if (n < 0 && errno == EINVAL && op == STP_MONITOR_TOGGLE) {
		return true;	/* no probe of that index: nothing to toggle */
	} else {
		stapio_err("-M: cannot send a monitor command: %s", n < 0 ? strerror(errno) : "short write");
	}
	return false;
}

void stapio_monitor_line(const char *text, uint32_t len)
{
	struct block *b = &mon.incoming;
	char *line;

	if (len == 0) {	/* the end of the block */
		block_clear(&mon.shown);
		mon.shown = *b;
		b->line = NULL;
		b->n = 0;
		mon.pending = false;
		draw();
		return;
	}
	if (b->n >= STAPIO_MONITOR_MAX_LINES)
		return;
	line = malloc(len + 1);
	if (!line)
		return;
	memcpy(line, text, len);
	line[len] = '\0';
	char **grown = realloc(b->line, (b->n + 1) * sizeof(*grown));
	if (!grown) {
		free(line);
		return;
	}
	b->line = grown;
	b->line[b->n++] = line;
}

/* A probe line's hits ("INDEX STATE HITS POINT ...") and where its point starts. */
static unsigned long long probe_hits(const char *line)
{
	unsigned long long hits = 0;

	sscanf(line, "%*u %*s %llu", &hits);
	return hits;
}

static const char *probe_point(const char *line)
{
	for (int field = 0; field < 3 && line; field++) {
		line = strchr(line, ' ');
		if (line)
			line++;
	}
	return line ? line : "";
}

static int compare_probes(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;

	if (mon.sort == SORT_HITS) {
		unsigned long long hx = probe_hits(x), hy = probe_hits(y);

		if (hx != hy)
			return hx > hy ? -1 : 1;
	} else if (mon.sort == SORT_POINT) {
		int c = strcmp(probe_point(x), probe_point(y));

		if (c)
			return c;
	}
	return strtoul(x, NULL, 10) < strtoul(y, NULL, 10) ? -1 : 1;
}

/* The lines to show: the block with its probes sorted, the probe lines indented. Returns their count. */
static size_t view(char ***out)
{
	struct block *b = &mon.shown;
	char **v = calloc(b->n + 1, sizeof(*v));
	size_t probes = b->n, n = 0;

	*out = v;
	if (!v)
		return 0;
	for (size_t i = 0; i < b->n; i++) {
		v[n++] = b->line[i];
		if (!strcmp(b->line[i], "probes:"))
			probes = i + 1;
	}
	if (probes < b->n)
		qsort(v + probes, b->n - probes, sizeof(*v), compare_probes);
	return n;
}

static void put(char **buf, size_t *len, size_t *cap, const char *text, size_t n)
{
	if (*len + n + 1 > *cap) {
		size_t c = (*len + n + 1) * 2;
		char *p = realloc(*buf, c);

		if (!p)
			return;
		*buf = p;
		*cap = c;
	}
	memcpy(*buf + *len, text, n);
	*len += n;
}

static void putf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void putf(char **buf, size_t *len, size_t *cap, const char *fmt, ...)
{
	char text[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (n > 0)
		put(buf, len, cap, text, (size_t)n < sizeof(text) ? (size_t)n : sizeof(text) - 1);
}

static void write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(STDOUT_FILENO, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

static const char *indent(const char *line)
{
	return strchr(line, ':') && line[strlen(line) - 1] == ':' ? "" : "  ";
}

/* Not a terminal: the block as plain text. */
static void draw_text(char **v, size_t n)
{
	char *buf = NULL;
	size_t len = 0, cap = 0;

	putf(&buf, &len, &cap, "== monitor (probes by %s; keys: c s t r p x)\n", sort_names[mon.sort]);
	for (size_t i = 0; i < n; i++)
		putf(&buf, &len, &cap, "%s%s\n", indent(v[i]), v[i]);
	if (mon.prompting)
		putf(&buf, &len, &cap, "probe index to toggle: %s\n", mon.prompt);
	putf(&buf, &len, &cap, "==\n");
	write_all(buf, len);
	free(buf);
}

/* The terminal's rows and columns (24 by 80 when it does not say, or says less than 6 by 20). */
static void terminal_size(int *rows, int *cols)
{
	struct winsize ws = { 0 };

	*rows = 24;
	*cols = 80;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row >= 6 && ws.ws_col >= 20) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

/*
 * A terminal: the window over the top rows (at most half the screen),
 * the last row of it a bar with the sort order, the keys or the prompt;
 * the rows below scroll the script's output. The cursor is saved and
 * restored around drawing, so the output goes on where it was.
 */
static void draw_window(char **v, size_t n)
{
	int rows, cols, height;
	char *buf = NULL, bar[256], held[64];
	size_t len = 0, cap = 0;

	terminal_size(&rows, &cols);
	/* what the arrows scroll first, so a narrow terminal still shows it */
	if (mon.out_back)
		snprintf(held, sizeof(held), " (%zu lines back, output held)", mon.out_back);
	snprintf(bar, sizeof(bar), "Tab: arrows scroll the %s%s | by %s; keys: c reset globals, s sort, t toggle probe, "
		 "r resume, p pause, x hide", mon.focus_output ? "output" : "status",
		 mon.focus_output && mon.out_back ? held : "", sort_names[mon.sort]);
	height = (int)n + 1 < rows / 2 ? (int)n + 1 : rows / 2;
	if (mon.scroll + (size_t)height - 1 > n)
		mon.scroll = n > (size_t)height - 1 ? n - ((size_t)height - 1) : 0;
	if (height != mon.window || rows != mon.rows) {
		/* a new scrolling region: its top row free, the cursor in it */
		putf(&buf, &len, &cap, "\033[%d;%dr\033[%d;1H", height + 1, rows, rows);
		for (int r = 1; r <= height; r++)
			putf(&buf, &len, &cap, "\033[%d;1H\033[2K", r);
		putf(&buf, &len, &cap, "\033[%d;1H", rows);
		mon.window = height;
		mon.rows = rows;
	}
	putf(&buf, &len, &cap, "\0337");
	for (int r = 0; r < height - 1; r++) {
		size_t i = mon.scroll + (size_t)r;
		const char *line = i < n ? v[i] : "";

		putf(&buf, &len, &cap, "\033[%d;1H\033[2K%s%.*s", r + 1, indent(line), cols - 2, line);
	}
	if (mon.prompting)
		putf(&buf, &len, &cap, "\033[%d;1H\033[2K\033[7mprobe index to toggle: %s\033[m", height, mon.prompt);
	else
		putf(&buf, &len, &cap, "\033[%d;1H\033[2K\033[7m%.*s\033[m", height, cols, bar);
	putf(&buf, &len, &cap, "\0338");
	write_all(buf, len);
	free(buf);
}

static void hide_window(void)
{
	char text[64];
	int n;

	if (!mon.window)
		return;
	/* the whole screen scrolls again; the window's rows are left to the output */
	n = snprintf(text, sizeof(text), "\0337\033[r\0338");
	write_all(text, (size_t)n);
	mon.window = 0;
}

static void draw(void)
{
	char **v;
	size_t n;

	if (mon.hidden || !mon.shown.n)
		return;
	n = view(&v);
	if (mon.tty)
		draw_window(v, n);
	else
		draw_text(v, n);
	free(v);
}

/* Output entry i: a complete line (i < out_lines; "" once dropped from the ring) or, at out_lines, the unended one. */
static const char *output_entry(size_t i)
{
	if (i == mon.out_lines)
		return mon.out_partial ? mon.out_partial : "";
	if (i + STAPIO_MONITOR_OUTPUT_LINES < mon.out_lines || !mon.out_line[i % STAPIO_MONITOR_OUTPUT_LINES])
		return "";
	return mon.out_line[i % STAPIO_MONITOR_OUTPUT_LINES];
}

/* Keep output just written: its complete lines into the ring, the rest as the unended line. */
static void output_keep(const char *data, size_t len)
{
	while (len) {
		const char *nl = memchr(data, '\n', len);
		size_t n = nl ? (size_t)(nl - data) : len;
		size_t had = mon.out_partial ? strlen(mon.out_partial) : 0;
		size_t keep = had + n > 4096 ? (had < 4096 ? 4096 - had : 0) : n;	/* a line's first 4 KiB */
		char *line = realloc(mon.out_partial, had + keep + 1);

		if (!line)
			return;
		memcpy(line + had, data, keep);
		line[had + keep] = '\0';
		mon.out_partial = line;
		if (!nl)
			return;
		free(mon.out_line[mon.out_lines % STAPIO_MONITOR_OUTPUT_LINES]);
		mon.out_line[mon.out_lines % STAPIO_MONITOR_OUTPUT_LINES] = line;
		mon.out_partial = NULL;
		mon.out_lines++;
		data += n + 1;
		len -= n + 1;
	}
}

/* The output window: its first row (below the status window, if shown) and its height. */
static void output_rows(int *top, int *height, int *cols)
{
	int rows;

	terminal_size(&rows, cols);
	*top = mon.window && !mon.hidden ? mon.window + 1 : 1;
	*height = rows >= *top ? rows - *top + 1 : 1;
}

/* How far the output window can scroll back: the entries kept beyond one window. */
static size_t output_back_max(void)
{
	int top, height, cols;
	size_t entries = mon.out_lines + 1;
	size_t oldest = mon.out_lines > STAPIO_MONITOR_OUTPUT_LINES ? mon.out_lines - STAPIO_MONITOR_OUTPUT_LINES : 0;

	output_rows(&top, &height, &cols);
	return entries > oldest + (size_t)height ? entries - oldest - (size_t)height : 0;
}

/*
 * Draw the output window out_back lines back from its end. Live (0), the
 * cursor is left after the last entry, where the output goes on.
 */
static void draw_output(void)
{
	int top, height, cols;
	size_t end, first;
	char *buf = NULL;
	size_t len = 0, cap = 0;

	output_rows(&top, &height, &cols);
	end = mon.out_lines + 1 - mon.out_back;
	first = end > (size_t)height ? end - (size_t)height : 0;
	for (size_t i = first; i < first + (size_t)height; i++)
		putf(&buf, &len, &cap, "\033[%d;1H\033[2K%.*s", top + (int)(i - first), cols,
		     i < end ? output_entry(i) : "");
	if (!mon.out_back) {
		size_t col = strlen(output_entry(end - 1));

		putf(&buf, &len, &cap, "\033[%d;%dH", top + (int)(end - 1 - first),
		     (int)(col < (size_t)cols ? col : (size_t)cols - 1) + 1);
	}
	write_all(buf, len);
	free(buf);
}

/* Back at the bottom of the output: the rows as they were, then what was held. */
static void output_live(void)
{
	mon.out_back = 0;
	draw_output();
	if (mon.held_len) {
		output_keep(mon.held, mon.held_len);
		write_all(mon.held, mon.held_len);
		mon.held_len = 0;
	}
}

bool stapio_monitor_output(const char *data, size_t len)
{
	if (!mon.tty || (!mon.on && !mon.out_back))
		return false;
	if (!mon.out_back) {
		output_keep(data, len);
		write_all(data, len);
		return true;
	}
	if (mon.held_len + len > mon.held_cap) {
		size_t c = (mon.held_len + len) * 2;
		char *p = realloc(mon.held, c);

		if (!p) {
			output_live();
			write_all(data, len);
			return true;
		}
		mon.held = p;
		mon.held_cap = c;
	}
	memcpy(mon.held + mon.held_len, data, len);
	mon.held_len += len;
	if (mon.held_len > STAPIO_MONITOR_HELD_MAX) {
		output_live();	/* too much held: the output goes on */
		draw();
	}
	return true;
}

/* A navigation key: scroll the window that has the focus by delta lines (negative: back, up). */
static void scroll_by(long delta)
{
	if (!mon.focus_output) {
		if (delta < 0)
			mon.scroll = mon.scroll > (size_t)-delta ? mon.scroll - (size_t)-delta : 0;
		else
			mon.scroll += (size_t)delta;
		draw();
		return;
	}
	size_t back = mon.out_back, max = output_back_max();

	if (delta < 0)
		back = back + (size_t)-delta < max ? back + (size_t)-delta : max;
	else
		back = back > (size_t)delta ? back - (size_t)delta : 0;
	if (back == mon.out_back)
		return;
	if (!back) {
		output_live();
	} else {
		mon.out_back = back;
		draw_output();
	}
	draw();
}

/* Ask for the status again now (after a key changed something). */
static void refresh_soon(void)
{
	clock_gettime(CLOCK_MONOTONIC, &mon.due);
}

/*
 * One key: c reset globals, s next sort order, t prompt for a probe index
 * (digits, then Enter; anything else cancels), r all probes on, p all off,
 * x hide/show, up/down arrows and page up/down scroll the window that has
 * the focus, Tab moves the focus between the status and the output window.
 */
static void key(struct stapio_control *ctl, unsigned char k)
{
	if (mon.escape == 1) {
		mon.escape = k == '[' ? 2 : 0;
		return;
	}
	if (mon.escape == 2) {
		if (k >= '0' && k <= '9') {	/* 5~ page up, 6~ page down */
			mon.escape = k == '5' ? 3 : k == '6' ? 4 : 2;
			return;
		}
		mon.escape = 0;
		if (k == 'A' || k == 'B')
			scroll_by(k == 'A' ? -1 : 1);
		return;
	}
	if (mon.escape >= 3) {
		if (k == '~')
			scroll_by(mon.escape == 3 ? -10 : 10);
		mon.escape = 0;
		return;
	}
	if (mon.prompting) {
		size_t n = strlen(mon.prompt);

		if (k >= '0' && k <= '9' && n + 1 < sizeof(mon.prompt)) {
			mon.prompt[n] = (char)k;
			mon.prompt[n + 1] = '\0';
		} else if ((k == 0x7f || k == '\b') && n) {
			mon.prompt[n - 1] = '\0';
		} else {
			if ((k == '\n' || k == '\r') && n)
				send_op(ctl, STP_MONITOR_TOGGLE, (uint32_t)strtoul(mon.prompt, NULL, 10));
			mon.prompting = false;
			refresh_soon();
		}
		draw();
		return;
	}
	switch (k) {
	case 033:
		mon.escape = 1;
		break;
	case 'c':
		send_op(ctl, STP_MONITOR_RESET, 0);
		refresh_soon();
		break;
	case 's':
		mon.sort = (mon.sort + 1) % SORT_COUNT;
		draw();
		break;
	case 't':
		mon.prompting = true;
		mon.prompt[0] = '\0';
		draw();
		break;
	case 'r':
		send_op(ctl, STP_MONITOR_RESUME, 0);
		refresh_soon();
		break;
	case 'p':
		send_op(ctl, STP_MONITOR_PAUSE, 0);
		refresh_soon();
		break;
	case '\t':
		if (mon.tty) {	/* windows only on a terminal */
			mon.focus_output = !mon.focus_output;
			draw();
		}
		break;
	case 'x':
		mon.hidden = !mon.hidden;
		if (mon.hidden && mon.tty)
			hide_window();
		draw();
		break;
	default:
		break;
	}
}

/* Read the keys stdin has now, without blocking. */
static void read_keys(struct stapio_control *ctl)
{
	unsigned char buf[64];

	while (mon.keys && mon.on) {
		struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
		ssize_t n;

		if (poll(&pfd, 1, 0) <= 0 || !(pfd.revents & (POLLIN | POLLHUP | POLLERR)))
			return;
		n = read(STDIN_FILENO, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return;
		if (n <= 0) {
			mon.keys = false;	/* the end of stdin: no more keys */
			return;
		}
		for (ssize_t i = 0; i < n; i++)
			key(ctl, buf[i]);
	}
}

void stapio_monitor_poll(struct stapio_control *ctl, bool running)
{
	if (!mon.on || !running)
		return;
	read_keys(ctl);
	if (!mon.on)
		return;
	if (mon.pending && seconds_since(&mon.asked) > mon.interval_s + 5.0)
		mon.pending = false;	/* the answer was lost: ask again */
	if (!mon.pending && seconds_since(&mon.due) >= 0) {
		if (!send_op(ctl, STP_MONITOR_STATUS, 0))
			return;
		mon.pending = true;
		clock_gettime(CLOCK_MONOTONIC, &mon.asked);
		mon.due = mon.asked;
		mon.due.tv_sec += mon.interval_s;
	}
}

void stapio_monitor_stop(void)
{
	if (mon.out_back)
		output_live();	/* what was held is written before the session's last output */
	for (size_t i = 0; i < STAPIO_MONITOR_OUTPUT_LINES; i++) {
		free(mon.out_line[i]);
		mon.out_line[i] = NULL;
	}
	free(mon.out_partial);
	mon.out_partial = NULL;
	free(mon.held);
	mon.held = NULL;
	mon.held_len = mon.held_cap = 0;
	block_clear(&mon.incoming);
	block_clear(&mon.shown);
	restore_terminal();
	mon.window = 0;
	mon.on = false;
}
