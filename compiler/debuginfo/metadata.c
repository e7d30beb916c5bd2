/*
 * metadata.c - debuginfod metadata queries: libdebuginfod's
 * debuginfod_find_metadata(client, "glob", GLOB, &path) asks every server
 * of DEBUGINFOD_URLS and returns a file holding their merged answer, JSON:
 *   { "results": [ { "type": "executable", "buildid": "HEX",
 *                    "file": "/usr/bin/curl", "archive": "/x/curl.deb" }, ... ],
 *     "complete": true }
 * ("archive" only for a file inside a package). The library came with
 * elfutils 0.192, so it is looked up with dlsym: an older libdebuginfod is
 * a clear error, not a link failure. The parser reads just that shape: the
 * string members of each object of "results", other values skipped.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metadata.h"

/* Past blanks. */
static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* The string at *p (at its opening quote), decoded; *p moves past it. NULL if malformed. */
static const char *json_string(const char **p)
{
	const char *s = *p + 1;
	size_t cap = strlen(s) + 1, n = 0;
	char *out = ast_alloc(cap);
	while (*s && *s != '"') {
		if (*s != '\\') {
			out[n++] = *s++;
			continue;
		}
		s++;
		switch (*s) {
		case 'n': out[n++] = '\n'; break;
		case 't': out[n++] = '\t'; break;
		case 'r': out[n++] = '\r'; break;
		case 'b': out[n++] = '\b'; break;
		case 'f': out[n++] = '\f'; break;
		case 'u': {	/* paths and build-ids are ASCII: a wider code point becomes '?' */
			char hex[5] = {0};
			for (int i = 0; i < 4; i++)
				if (!(hex[i] = s[1 + i]))
					return NULL;
			long cp = strtol(hex, NULL, 16);
			out[n++] = cp > 0 && cp < 0x80 ? (char)cp : '?';
			s += 4;
			break;
		}
		case '\0': return NULL;
		default: out[n++] = *s; break;	/* \" \\ \/ */
		}
		s++;
	}
	if (*s != '"')
		return NULL;
	out[n] = 0;
	*p = s + 1;
	return out;
}

/* Past a value that is not a string (a number, true, false, null; nested values are not expected). */
static const char *skip_scalar(const char *p)
{
	while (*p && *p != ',' && *p != '}' && *p != ']')
		p++;
	return p;
}

/* One object of "results" at p ('{'); *end past it. NULL if malformed. */
static struct metadata_file *json_result(const char *p, const char **end)
{
	struct metadata_file *f = ast_alloc(sizeof(*f));
	p = skip_ws(p + 1);
	while (*p != '}') {
		if (*p != '"')
			return NULL;
		const char *key = json_string(&p), *value = NULL;
		if (!key)
			return NULL;
		p = skip_ws(p);
		if (*p != ':')
			return NULL;
		p = skip_ws(p + 1);
		if (*p == '"') {
			if (!(value = json_string(&p)))
				return NULL;
		} else {
			p = skip_scalar(p);
		}
		if (value && !strcmp(key, "type"))
			f->type = value;
		else if (value && !strcmp(key, "buildid"))
			f->buildid = value;
		else if (value && !strcmp(key, "file"))
			f->file = value;
		else if (value && !strcmp(key, "archive"))
			f->archive = value;
		p = skip_ws(p);
		if (*p == ',')
			p = skip_ws(p + 1);
		else if (*p != '}')
			return NULL;
	}
	*end = p + 1;
	return f;
}

bool metadata_parse(const char *json, struct vec *out)
{
	const char *p = strstr(json, "\"results\"");
	if (!p)
		return false;
	p = skip_ws(p + 9);
	if (*p != ':')
		return false;
	p = skip_ws(p + 1);
	if (*p != '[')
		return false;
	p = skip_ws(p + 1);
	while (*p != ']') {
		if (*p != '{')
			return false;
		struct metadata_file *f = json_result(p, &p);
		if (!f)
			return false;
		if (f->type && f->buildid)
			vec_push(out, f);
		p = skip_ws(p);
		if (*p == ',')
			p = skip_ws(p + 1);
		else if (*p != ']')
			return false;
	}
	return true;
}

/* The whole of fd as a string; NULL on a read error. */
static const char *read_all(int fd)
{
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	ssize_t got;
	while (buf && (got = read(fd, buf + n, cap - n - 1)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			return NULL;
		}
		n += (size_t)got;
		if (n + 1 == cap) {
			char *bigger = realloc(buf, cap * 2);
			if (!bigger)
				free(buf);
			buf = bigger;
			cap *= 2;
		}
	}
	if (!buf)
		return NULL;
	buf[n] = 0;
	const char *copy = ast_strdup(buf);
	free(buf);
	return copy;
}

/* libdebuginfod's calls (debuginfod.h), declared here: it is loaded only when used. */
typedef void *(*metadata_begin_fn)(void);
typedef int (*metadata_find_fn)(void *client, const char *key, const char *value, char **path);
typedef void (*metadata_end_fn)(void *client);

bool metadata_glob(const char *glob, struct vec *out, const char **why)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	if (!urls || !*urls) {
		*why = "it asks the debuginfod servers that DEBUGINFOD_URLS names, and DEBUGINFOD_URLS is not set";
		return false;
	}
	void *lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		*why = ast_printf("cannot load the debuginfod client library (%s)", dlerror());
		return false;
	}
	metadata_begin_fn begin = (metadata_begin_fn)dlsym(lib, "debuginfod_begin");
	metadata_find_fn find = (metadata_find_fn)dlsym(lib, "debuginfod_find_metadata");
	metadata_end_fn end = (metadata_end_fn)dlsym(lib, "debuginfod_end");
	if (!find) {
		*why = "this machine's debuginfod client library (libdebuginfod.so.1) has no metadata queries "
		       "(debuginfod_find_metadata, elfutils 0.192 and later)";
		dlclose(lib);
		return false;
	}
	void *client = begin && end ? begin() : NULL;
	bool ok = false;
	*why = "libdebuginfod has no client";
	if (client) {
		char *path = NULL;
		int fd = find(client, "glob", glob, &path);
		if (fd < 0) {
			*why = ast_printf("the servers of DEBUGINFOD_URLS (%s) did not answer the query: %s", urls,
					  strerror(-fd));
		} else {
			const char *json = read_all(fd);
			close(fd);
			ok = json && metadata_parse(json, out);
			if (!ok)
				*why = ast_printf("the answer of the servers of DEBUGINFOD_URLS (%s) is not the JSON "
						  "expected", urls);
		}
		free(path);
		end(client);
	}
	dlclose(lib);
	return ok;
}
