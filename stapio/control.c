/* control.c - stapio's side of the .cmd control channel: send commands, read and act on messages. */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stapio.h"
#include "sdt_note.h"

int stapio_control_open(struct stapio_control *ctl, const char *dir)
{
	char path[4096];

	memset(ctl, 0, sizeof(*ctl));
	snprintf(path, sizeof(path), "%s/%s", dir, STP_CTL_FILE);
	ctl->fd = open(path, O_RDWR | O_CLOEXEC);
	if (ctl->fd < 0) {
		int err = errno;

		stapio_err("cannot open control file %s: %s%s", path, strerror(err),
			   err == EBUSY ? " (another stapio is attached to this module)" : "");
		return err == EBUSY ? -2 : -1;
	}
	return 0;
}

void stapio_control_close(struct stapio_control *ctl)
{
	stapio_control_print(ctl);
	free(ctl->text);
	ctl->text = NULL;
	ctl->text_cap = 0;
	if (ctl->fd >= 0)
		close(ctl->fd);
	ctl->fd = -1;
}

int stapio_control_send(struct stapio_control *ctl, uint32_t type, const void *data,
			uint32_t len)
{
	char buf[STP_MSG_MAX];
	struct _stp_msg_hdr hdr = { .type = type, .len = len };
	ssize_t n;

	/* staprun.send_control_message: in stapc stapio is the one that sends */
	STAPC_MARK3(stapio, send_control_message, type, data, len);
	if (sizeof(hdr) + len > sizeof(buf))
		return -1;
	memcpy(buf, &hdr, sizeof(hdr));
	if (len)
		memcpy(buf + sizeof(hdr), data, len);
	do {
		n = write(ctl->fd, buf, sizeof(hdr) + len);
	} while (n < 0 && errno == EINTR);
	if (n != (ssize_t)(sizeof(hdr) + len)) {
		stapio_err("cannot send command %u to the module: %s", type,
			   n < 0 ? strerror(errno) : "short write");
		return -1;
	}
	return 0;
}

/*
 * Keep a WARNING or ERROR line for stapio_control_print: it is printed
 * only after the output read in the same round, since any output a probe
 * produced before the message is already in the relay files by then.
 */
static void stapio_queue_text(struct stapio_control *ctl, const char *prefix,
			      const char *text, uint32_t len)
{
	size_t need;

	const char *sgr = strcmp(prefix, "ERROR") ? ctl->warning_sgr : ctl->error_sgr;

	if (ctl->no_warnings && !strcmp(prefix, "WARNING"))
		return;
	while (len > 0 && text[len - 1] == '\n')
		len--;
	need = strlen(prefix) + 2 + len + 1 + (sgr ? strlen(sgr) + 8 : 0);
	if (ctl->text_len + need > ctl->text_cap) {
		size_t cap = (ctl->text_len + need) * 2;
		char *p = realloc(ctl->text, cap);

		if (!p) {
			fprintf(stderr, "%s: %.*s\n", prefix, (int)len, text);
			return;
		}
		ctl->text = p;
		ctl->text_cap = cap;
	}
	if (sgr)
		ctl->text_len += sprintf(ctl->text + ctl->text_len, "\033[%sm%s\033[m: ", sgr, prefix);
	else
		ctl->text_len += sprintf(ctl->text + ctl->text_len, "%s: ", prefix);
	memcpy(ctl->text + ctl->text_len, text, len);
	ctl->text_len += len;
	ctl->text[ctl->text_len++] = '\n';
}

void stapio_control_print(struct stapio_control *ctl)
{
	if (ctl->text_len)
		fwrite(ctl->text, 1, ctl->text_len, stderr);
	ctl->text_len = 0;
}

static void stapio_control_handle(struct stapio_control *ctl, const struct _stp_msg_hdr *hdr,
				  const char *payload)
{
	switch (hdr->type) {
	case STP_MSG_STARTED: {
		struct _stp_msg_started started = { 0 };

		memcpy(&started, payload,
		       hdr->len < sizeof(started) ? hdr->len : sizeof(started));
		ctl->started = true;
		ctl->start_status = started.status;
		if (started.status == -EPROTO)
			stapio_err("module speaks protocol version %u, stapio %u",
				   started.version, STP_PROTOCOL_VERSION);
		stapio_log(1, "module started (status %d)", started.status);
		break;
	}
	case STP_MSG_WARNING:
		stapio_queue_text(ctl, "WARNING", payload, hdr->len);
		break;
	case STP_MSG_ERROR:
		stapio_queue_text(ctl, "ERROR", payload, hdr->len);
		ctl->exit_wanted = true;
		break;
	case STP_MSG_REQUEST_EXIT:
		stapio_log(1, "module requests exit");
		ctl->exit_wanted = true;
		break;
	case STP_MSG_SYSTEM: {
		struct _stp_msg_system head;

		if (hdr->len < sizeof(head)) {
			stapio_log(1, "ignoring a short SYSTEM message");
			break;
		}
		memcpy(&head, payload, sizeof(head));
		stapio_system_queue(head.after_seq, payload + sizeof(head), hdr->len - sizeof(head));
		break;
	}
	case STP_MSG_STATUS:
		stapio_monitor_line(payload, hdr->len);
		break;
	case STP_MSG_EXITED:
		memcpy(&ctl->summary, payload,
		       hdr->len < sizeof(ctl->summary) ? hdr->len : sizeof(ctl->summary));
		ctl->exited = true;
		stapio_log(1, "module exited");
		break;
	default:
		stapio_log(1, "ignoring unknown message type %u", hdr->type);
		break;
	}
}

int stapio_control_poll(struct stapio_control *ctl)
{
	char buf[4096];

	for (;;) {
		ssize_t n = read(ctl->fd, buf, sizeof(buf));
		size_t at = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			stapio_err("cannot read the control file: %s", strerror(errno));
			return -1;
		}
		if (n == 0)
			return 0;
		while (at + sizeof(struct _stp_msg_hdr) <= (size_t)n) {
			struct _stp_msg_hdr hdr;

			memcpy(&hdr, buf + at, sizeof(hdr));
			at += sizeof(hdr);
			if (hdr.len > (size_t)n - at) {
				stapio_err("truncated control message (type %u)", hdr.type);
				return -1;
			}
			STAPC_MARK3(stapio, receive_control_message, hdr.type, buf + at, hdr.len);
			stapio_control_handle(ctl, &hdr, buf + at);
			at += hdr.len;
		}
	}
}
