/*
 * lsp.c - stap --language-server: the protocol (JSON-RPC 2.0 messages framed
 * by Content-Length headers on stdin/stdout), the open documents, and the
 * children that analyse them.
 *
 * The server itself never runs the compiler: each analysis (diagnostics
 * after a change, a completion, hover or definition request) forks a child
 * that runs passes 1 and 2 on the document (lsp_worker.c) and writes its
 * answer, JSON, to a pipe. The child has an address-space and CPU limit and
 * a deadline; a child that crashes, runs out or overruns gives an empty
 * answer (and a diagnostic saying so), never a dead server. The server's
 * own memory is one message (its JSON tree in a json_region, freed after
 * the answer) plus the open documents, each bounded.
 *
 * Diagnostics are computed when the input goes quiet: a burst of changes
 * (typing) is analysed once, after its last message.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#include "json.h"
#include "lsp.h"

/* Limits: a message, the headers before it, an answer, the documents open. */
#define LSP_MAX_MESSAGE (32u << 20)
#define LSP_MAX_HEADERS 8192
#define LSP_MAX_ANSWER (16u << 20)
#define LSP_MAX_DOCUMENTS 128
/* A child's limits: seconds of wall time and of CPU, bytes of address space. */
#define LSP_CHILD_SECONDS 60
#define LSP_CHILD_ADDRESS_SPACE (4ull << 30)

/* JSON-RPC's error codes that the server answers with. */
enum {
	RPC_PARSE_ERROR = -32700,
	RPC_INVALID_REQUEST = -32600,
	RPC_METHOD_NOT_FOUND = -32601,
	RPC_INVALID_PARAMS = -32602,
	RPC_SERVER_NOT_INITIALIZED = -32002,
};

/* An open document. */
struct lsp_document {
	char *uri;                  /* as the client names it */
	char *path;                 /* the file it names, or the URI for another scheme */
	char *text;                 /* its current text, NUL-terminated */
	int version;                /* the client's version of it */
	bool dirty;                 /* changed since its diagnostics were published */
	struct lsp_document *next;  /* next open document */
};

/* The server's state: everything lives here, none at file scope. */
struct lsp_server {
	struct session *s;           /* the command line's session, which each child starts from */
	struct lsp_document *docs;   /* open documents */
	int ndocs;                   /* how many */
	char *in;                    /* bytes read from stdin not yet handled */
	size_t in_len, in_cap;       /* used and allocated */
	bool initialized;            /* initialize was answered */
	bool shutdown;               /* shutdown was answered: only exit is left */
	bool exit;                   /* exit arrived */
};

/* ---- input and output ---- */

/* Write all of buf to fd 1; false if stdout is gone. */
static bool write_all(const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(1, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

/* Send one message whose JSON is body[0..len). */
static void send_message(const char *body, size_t len)
{
	char head[64];
	int n = snprintf(head, sizeof(head), "Content-Length: %zu\r\n\r\n", len);
	if (!write_all(head, (size_t)n) || !write_all(body, len))
		_exit(1);	/* the client is gone: nothing left to serve */
}

/* A message under composition: an open_memstream. */
struct lsp_out {
	FILE *f;     /* the stream */
	char *buf;   /* its text */
	size_t len;  /* its length */
};

static FILE *out_open(struct lsp_out *o)
{
	o->f = open_memstream(&o->buf, &o->len);
	if (!o->f) {
		fputs("stap: out of memory\n", stderr);
		exit(1);
	}
	return o->f;
}

static void out_send(struct lsp_out *o)
{
	fclose(o->f);
	send_message(o->buf, o->len);
	free(o->buf);
}

/* Answer request id with result, JSON text (NULL: null). */
static void reply(const struct json *id, const char *result, size_t len)
{
	struct lsp_out o;
	FILE *f = out_open(&o);
	fputs("{\"jsonrpc\":\"2.0\",\"id\":", f);
	json_write(f, id);
	fputs(",\"result\":", f);
	if (result && len)
		fwrite(result, 1, len, f);
	else
		fputs("null", f);
	fputc('}', f);
	out_send(&o);
}

static void reply_error(const struct json *id, int code, const char *message)
{
	struct lsp_out o;
	FILE *f = out_open(&o);
	fputs("{\"jsonrpc\":\"2.0\",\"id\":", f);
	json_write(f, id);
	fprintf(f, ",\"error\":{\"code\":%d,\"message\":", code);
	json_write_string(f, message);
	fputs("}}", f);
	out_send(&o);
}

/* Read more of stdin into the buffer (blocking); false at end of input. */
static bool read_more(struct lsp_server *srv)
{
	if (srv->in_cap - srv->in_len < 65536) {
		size_t cap = srv->in_cap * 2 + 65536;
		char *in = realloc(srv->in, cap);
		if (!in) {
			fputs("stap: out of memory\n", stderr);
			exit(1);
		}
		srv->in = in;
		srv->in_cap = cap;
	}
	for (;;) {
		ssize_t n = read(0, srv->in + srv->in_len, srv->in_cap - srv->in_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		srv->in_len += (size_t)n;
		return true;
	}
}

/* Drop the first n bytes of the buffer. */
static void consume(struct lsp_server *srv, size_t n)
{
	memmove(srv->in, srv->in + n, srv->in_len - n);
	srv->in_len -= n;
	if (srv->in_cap > (1u << 20) && srv->in_len < (1u << 16)) {	/* give back a large message's room */
		char *in = realloc(srv->in, 65536);
		if (in) {
			srv->in = in;
			srv->in_cap = 65536;
		}
	}
}

/* The Content-Length of a header block (text, NUL-terminated), or -1. */
static long content_length(const char *headers)
{
	for (const char *p = headers; p && *p; p = strstr(p, "\r\n") ? strstr(p, "\r\n") + 2 : NULL)
		if (!strncasecmp(p, "Content-Length:", 15)) {
			char *end;
			long n = strtol(p + 15, &end, 10);
			while (*end == ' ' || *end == '\t')
				end++;
			return n >= 0 && (*end == '\r' || !*end) && end != p + 15 ? n : -1;
		}
	return -1;
}

/*
 * Skip n bytes of input (a message too large to keep); false at end of input.
 */
static bool skip_input(struct lsp_server *srv, size_t n)
{
	while (n) {
		if (!srv->in_len && !read_more(srv))
			return false;
		size_t k = n < srv->in_len ? n : srv->in_len;
		consume(srv, k);
		n -= k;
	}
	return true;
}

/*
 * The next message's body into *body (malloc'd, NUL-terminated) and *len:
 * 1, or 0 at end of input. Broken framing is reported on stderr and the
 * bytes up to the next header block are skipped.
 */
static int read_message(struct lsp_server *srv, char **body, size_t *len)
{
	for (;;) {
		char *end = srv->in_len ? memmem(srv->in, srv->in_len, "\r\n\r\n", 4) : NULL;
		if (!end) {
			if (srv->in_len > LSP_MAX_HEADERS) {
				fputs("stap: language server: a header block without an end; input skipped\n", stderr);
				srv->in_len = 0;
			}
			if (!read_more(srv))
				return 0;
			continue;
		}
		size_t hlen = (size_t)(end - srv->in) + 4;
		if (hlen > LSP_MAX_HEADERS) {
			fputs("stap: language server: a header block too long; skipped\n", stderr);
			consume(srv, hlen);
			continue;
		}
		char *headers = strndup(srv->in, hlen - 4);
		long n = headers ? content_length(headers) : -1;
		free(headers);
		consume(srv, hlen);
		if (n < 0) {
			fputs("stap: language server: a message without a Content-Length; skipped\n", stderr);
			continue;
		}
		if ((unsigned long)n > LSP_MAX_MESSAGE) {
			fprintf(stderr, "stap: language server: a message of %ld bytes (at most %u); skipped\n", n,
				LSP_MAX_MESSAGE);
			if (!skip_input(srv, (size_t)n))
				return 0;
			reply_error(NULL, RPC_INVALID_REQUEST, "message too large");
			continue;
		}
		while (srv->in_len < (size_t)n)
			if (!read_more(srv))
				return 0;
		*body = malloc((size_t)n + 1);
		if (!*body) {
			fputs("stap: out of memory\n", stderr);
			exit(1);
		}
		memcpy(*body, srv->in, (size_t)n);
		(*body)[n] = 0;
		*len = (size_t)n;
		consume(srv, (size_t)n);
		return 1;
	}
}

/* Is a message waiting (buffered whole, or readable now)? */
static bool input_pending(struct lsp_server *srv)
{
	if (srv->in_len)
		return true;
	struct pollfd p = {.fd = 0, .events = POLLIN};
	return poll(&p, 1, 0) > 0;
}

/* ---- the children ---- */

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* In the child: limits, stdout and stderr away from the protocol, the job; never returns. */
static _Noreturn void child_run(struct lsp_server *srv, const struct lsp_job *job, int fd)
{
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);	/* the compiler's own printed diagnostics: the answer carries them */
	}
	struct rlimit cpu = {LSP_CHILD_SECONDS, LSP_CHILD_SECONDS};
	setrlimit(RLIMIT_CPU, &cpu);
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LSP_UNDER_ASAN 1
#endif
#endif
#if !defined(__SANITIZE_ADDRESS__) && !defined(LSP_UNDER_ASAN)
	struct rlimit as = {LSP_CHILD_ADDRESS_SPACE, LSP_CHILD_ADDRESS_SPACE};
	setrlimit(RLIMIT_AS, &as);	/* ASan reserves far more address space than it uses */
#endif
	FILE *out = fdopen(fd, "w");
	if (!out)
		_exit(1);
	lsp_work(srv->s, job, out);
	_exit(fclose(out) == 0 ? 0 : 1);
}

/* Is text[0..len) one JSON value? */
static bool well_formed(const char *text, size_t len)
{
	struct json_region region = {0};
	const char *err;
	bool ok = json_parse(&region, text, len, &err) != NULL;
	json_region_free(&region);
	return ok;
}

/*
 * Run job in a child; its answer (malloc'd, *len bytes), or NULL with why
 * (why_size bytes) saying what became of the child.
 */
static char *run_job(struct lsp_server *srv, const struct lsp_job *job, size_t *len, char *why, size_t why_size)
{
	int fds[2];
	const char *failed = NULL;
	if (pipe2(fds, O_CLOEXEC) != 0) {
		snprintf(why, why_size, "could not start: no pipe (%s)", strerror(errno));
		return NULL;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child_run(srv, job, fds[1]);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		snprintf(why, why_size, "could not start: no fork (%s)", strerror(errno));
		return NULL;
	}
	char *buf = NULL;
	size_t used = 0, cap = 0;
	double deadline = now_s() + LSP_CHILD_SECONDS;
	for (;;) {
		struct pollfd p = {.fd = fds[0], .events = POLLIN};
		int left = (int)((deadline - now_s()) * 1000);
		if (left <= 0 || poll(&p, 1, left) == 0) {
			failed = "took too long";
			break;
		}
		if (cap - used < 65536) {
			cap = cap * 2 + 65536;
			char *grown = cap <= LSP_MAX_ANSWER + 65536 ? realloc(buf, cap) : NULL;
			if (!grown) {
				failed = "answered too much";
				break;
			}
			buf = grown;
		}
		ssize_t n = read(fds[0], buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
	}
	close(fds[0]);
	if (failed)
		kill(pid, SIGKILL);
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (failed) {
		snprintf(why, why_size, "%s", failed);
	} else if (WIFSIGNALED(status)) {
#ifdef STAPC_FUZZ_BUILD
		abort();	/* the fuzz configuration: a crash of the analysis is the finding */
#endif
		snprintf(why, why_size, "was killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
	} else if (!WIFEXITED(status) || !used) {	/* a pass may exit(1) after its answer was written */
		snprintf(why, why_size, "failed");
	} else if (!well_formed(buf, used)) {	/* it ended in the middle (a pass that exits) */
		snprintf(why, why_size, "gave a malformed answer");
	} else {
		*len = used;
		return buf;
	}
	free(buf);
	return NULL;
}

/* ---- documents ---- */

static struct lsp_document *find_document(struct lsp_server *srv, const char *uri)
{
	for (struct lsp_document *d = srv->docs; d; d = d->next)
		if (uri && !strcmp(d->uri, uri))
			return d;
	return NULL;
}

/* The document a request's params.textDocument.uri names, or NULL. */
static struct lsp_document *params_document(struct lsp_server *srv, const struct json *params)
{
	return find_document(srv, json_string(json_get(json_get(params, "textDocument"), "uri")));
}

static void publish(const char *uri, int version, const char *diagnostics, size_t len)
{
	struct lsp_out o;
	FILE *f = out_open(&o);
	fputs("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\",\"params\":{\"uri\":", f);
	json_write_string(f, uri);
	fprintf(f, ",\"version\":%d,\"diagnostics\":", version);
	if (diagnostics)
		fwrite(diagnostics, 1, len, f);
	else
		fputs("[]", f);
	fputs("}}", f);
	out_send(&o);
}

static struct lsp_job document_job(const struct lsp_document *d, enum lsp_job_kind kind)
{
	return (struct lsp_job){.kind = kind, .uri = d->uri, .path = d->path, .text = d->text};
}

/* Analyse a document and publish its diagnostics. */
static void diagnose(struct lsp_server *srv, struct lsp_document *d)
{
	struct lsp_job job = document_job(d, LSP_JOB_DIAGNOSE);
	size_t len = 0;
	char why[128];
	char *answer = run_job(srv, &job, &len, why, sizeof(why));
	d->dirty = false;
	if (answer) {
		publish(d->uri, d->version, answer, len);
		free(answer);
		return;
	}
	fprintf(stderr, "stap: language server: the analysis of %s %s\n", d->uri, why);
	struct lsp_out o;
	FILE *f = out_open(&o);
	fputs("[{\"range\":{\"start\":{\"line\":0,\"character\":0},\"end\":{\"line\":0,\"character\":0}},"
	      "\"severity\":1,\"source\":\"stap\",\"message\":", f);
	char message[192];
	snprintf(message, sizeof(message), "stap's analysis of this file %s", why);
	json_write_string(f, message);
	fputs("}]", f);
	fclose(f);
	publish(d->uri, d->version, o.buf, o.len);
	free(o.buf);
}

static void publish_dirty(struct lsp_server *srv)
{
	for (struct lsp_document *d = srv->docs; d; d = d->next)
		if (d->dirty)
			diagnose(srv, d);
}

static void free_document(struct lsp_document *d)
{
	free(d->uri);
	free(d->path);
	free(d->text);
	free(d);
}

static void did_open(struct lsp_server *srv, const struct json *params)
{
	const struct json *td = json_get(params, "textDocument");
	const char *uri = json_string(json_get(td, "uri"));
	const struct json *text = json_get(td, "text");
	int version = 0;
	json_int(json_get(td, "version"), &version);
	if (!uri || !text || text->kind != JSON_STRING) {
		fputs("stap: language server: didOpen without a uri or text; ignored\n", stderr);
		return;
	}
	struct lsp_document *d = find_document(srv, uri);
	if (!d) {
		if (srv->ndocs >= LSP_MAX_DOCUMENTS) {
			fprintf(stderr, "stap: language server: more than %d documents open; %s is not analysed\n",
				LSP_MAX_DOCUMENTS, uri);
			return;
		}
		d = calloc(1, sizeof(*d));
		char *path = lsp_uri_path(uri);
		if (!d || !(d->uri = strdup(uri)) || !(d->path = path ? path : strdup(uri))) {
			fputs("stap: out of memory\n", stderr);
			exit(1);
		}
		d->next = srv->docs;
		srv->docs = d;
		srv->ndocs++;
	}
	free(d->text);
	d->text = strndup(text->str, text->len);
	if (!d->text) {
		fputs("stap: out of memory\n", stderr);
		exit(1);
	}
	d->version = version;
	d->dirty = true;
}

/* Replace text's [start, end) by with[0..len) (in a new allocation). */
static char *text_splice(const char *text, size_t start, size_t end, const char *with, size_t len)
{
	size_t total = strlen(text);
	if (end > total)
		end = total;
	if (start > end)
		start = end;
	char *out = malloc(total - (end - start) + len + 1);
	if (!out) {
		fputs("stap: out of memory\n", stderr);
		exit(1);
	}
	memcpy(out, text, start);
	memcpy(out + start, with, len);
	memcpy(out + start + len, text + end, total - end + 1);
	return out;
}

/* One contentChanges entry: the whole text, or a range replaced. */
static void apply_change(struct lsp_document *d, const struct json *change)
{
	const struct json *text = json_get(change, "text");
	if (!text || text->kind != JSON_STRING)
		return;
	const struct json *range = json_get(change, "range");
	size_t start = 0, end = strlen(d->text);
	if (range) {
		int sl = 0, sc = 0, el = 0, ec = 0;
		const struct json *s = json_get(range, "start"), *e = json_get(range, "end");
		if (!json_int(json_get(s, "line"), &sl) || !json_int(json_get(s, "character"), &sc) ||
		    !json_int(json_get(e, "line"), &el) || !json_int(json_get(e, "character"), &ec))
			return;
		start = lsp_offset(d->text, sl, sc);
		end = lsp_offset(d->text, el, ec);
	}
	size_t len = strnlen(text->str, text->len);	/* a NUL ends the text, as in a file */
	char *next = text_splice(d->text, start, end, text->str, len);
	if (strlen(next) > LSP_MAX_MESSAGE) {
		fputs("stap: language server: a document grew past the message limit; change ignored\n", stderr);
		free(next);
		return;
	}
	free(d->text);
	d->text = next;
}

static void did_change(struct lsp_server *srv, const struct json *params)
{
	struct lsp_document *d = params_document(srv, params);
	const struct json *changes = json_get(params, "contentChanges");
	if (!d || !changes || changes->kind != JSON_ARRAY)
		return;
	for (int i = 0; i < changes->n; i++)
		apply_change(d, changes->items[i]);
	json_int(json_get(json_get(params, "textDocument"), "version"), &d->version);
	d->dirty = true;
}

static void did_close(struct lsp_server *srv, const struct json *params)
{
	struct lsp_document *d = params_document(srv, params);
	if (!d)
		return;
	for (struct lsp_document **p = &srv->docs; *p; p = &(*p)->next)
		if (*p == d) {
			*p = d->next;
			break;
		}
	srv->ndocs--;
	publish(d->uri, d->version, NULL, 0);	/* its diagnostics go with it */
	free_document(d);
}

static void initialize(struct lsp_server *srv, const struct json *id)
{
	static const char capabilities[] =
		"{\"capabilities\":{"
		"\"positionEncoding\":\"utf-16\","
		"\"textDocumentSync\":{\"openClose\":true,\"change\":2},"
		"\"completionProvider\":{\"triggerCharacters\":[\".\",\"$\",\"\\\"\",\"(\"]},"
		"\"hoverProvider\":true,"
		"\"definitionProvider\":true},"
		"\"serverInfo\":{\"name\":\"stap\",\"version\":\"" STAPC_VERSION "\"}}";
	srv->initialized = true;
	reply(id, capabilities, sizeof(capabilities) - 1);
}

/* completion, hover, definition: the child's answer at params' position. */
static void position_request(struct lsp_server *srv, const struct json *id, const struct json *params,
			     enum lsp_job_kind kind)
{
	struct lsp_document *d = params_document(srv, params);
	const struct json *pos = json_get(params, "position");
	struct lsp_job job = {0};
	if (!d || !json_int(json_get(pos, "line"), &job.line) || !json_int(json_get(pos, "character"), &job.character) ||
	    job.line < 0 || job.character < 0) {
		reply_error(id, RPC_INVALID_PARAMS, d ? "no position" : "not an open document");
		return;
	}
	job = (struct lsp_job){.kind = kind, .uri = d->uri, .path = d->path, .text = d->text,
			       .line = job.line, .character = job.character};
	size_t len = 0;
	char why[128];
	char *answer = run_job(srv, &job, &len, why, sizeof(why));
	if (!answer)
		fprintf(stderr, "stap: language server: the analysis %s\n", why);
	reply(id, answer, len);	/* null if it failed */
	free(answer);
}

static void request(struct lsp_server *srv, const char *method, const struct json *id, const struct json *params);

/* A request (id non-NULL) or notification. */
static void dispatch(struct lsp_server *srv, const char *method, const struct json *id, const struct json *params)
{
	if (!strcmp(method, "exit")) {
		srv->exit = true;
		return;
	}
	if (!id) {	/* notifications: none is answered, unknown ones ignored */
		if (srv->shutdown || !srv->initialized)
			return;
		if (!strcmp(method, "textDocument/didOpen"))
			did_open(srv, params);
		else if (!strcmp(method, "textDocument/didChange"))
			did_change(srv, params);
		else if (!strcmp(method, "textDocument/didClose"))
			did_close(srv, params);
		return;
	}
	if (srv->shutdown) {
		reply_error(id, RPC_INVALID_REQUEST, "the server is shutting down");
	} else if (!strcmp(method, "initialize")) {
		if (srv->initialized)
			reply_error(id, RPC_INVALID_REQUEST, "initialized already");
		else
			initialize(srv, id);
	} else if (!srv->initialized) {
		reply_error(id, RPC_SERVER_NOT_INITIALIZED, "initialize first");
	} else if (!strcmp(method, "shutdown")) {
		srv->shutdown = true;
		reply(id, NULL, 0);
	} else {
		request(srv, method, id, params);
	}
}

/* A request after initialize: one of the document requests, or not supported. */
static void request(struct lsp_server *srv, const char *method, const struct json *id, const struct json *params)
{
	static const struct {
		const char *method;     /* textDocument/... */
		enum lsp_job_kind kind; /* what the child does */
	} requests[] = {
		{"textDocument/completion", LSP_JOB_COMPLETE},
		{"textDocument/hover", LSP_JOB_HOVER},
		{"textDocument/definition", LSP_JOB_DEFINITION},
	};
	for (size_t i = 0; i < sizeof(requests) / sizeof(requests[0]); i++)
		if (!strcmp(method, requests[i].method)) {
			publish_dirty(srv);	/* the answer is about the text as it is now; so are the diagnostics */
			position_request(srv, id, params, requests[i].kind);
			return;
		}
	reply_error(id, RPC_METHOD_NOT_FOUND, "method not supported");
}

/* One message's body: parse it and hand it on; broken ones answered with an error. */
static void handle(struct lsp_server *srv, const char *body, size_t len)
{
	struct json_region region = {0};
	const char *err;
	const struct json *msg = json_parse(&region, body, len, &err);
	if (!msg) {
		reply_error(NULL, RPC_PARSE_ERROR, err);
	} else {
		const struct json *id = json_get(msg, "id"), *method = json_get(msg, "method");
		if (id && id->kind != JSON_NUMBER && id->kind != JSON_STRING)
			reply_error(NULL, RPC_INVALID_REQUEST, "an id must be a number or a string");
		else if (method && !json_string(method))
			reply_error(id, RPC_INVALID_REQUEST, "a method must be a string");
		else if (method)
			dispatch(srv, json_string(method), id, json_get(msg, "params"));
		else if (!id)	/* neither a request, a notification nor a response */
			reply_error(NULL, RPC_INVALID_REQUEST, "a message needs a method or an id");
		/* else a response to a request of ours: the server sends none, nothing to match */
	}
	json_region_free(&region);
}

int lsp_serve(struct session *s)
{
	struct lsp_server srv = {.s = s};
	signal(SIGPIPE, SIG_IGN);	/* a client gone: write fails and the server ends */
	for (;;) {
		if (!input_pending(&srv))
			publish_dirty(&srv);
		char *body;
		size_t len;
		if (!read_message(&srv, &body, &len))
			break;
		handle(&srv, body, len);
		free(body);
		if (srv.exit)
			break;
	}
	while (srv.docs) {
		struct lsp_document *next = srv.docs->next;
		free_document(srv.docs);
		srv.docs = next;
	}
	free(srv.in);
	/* LSP: exit after shutdown is success, without it failure; end of input is an editor gone: success */
	return srv.exit && !srv.shutdown ? STAP_EXIT_FAILURE : STAP_EXIT_OK;
}
