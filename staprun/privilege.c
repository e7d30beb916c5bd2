/*
 * privilege.c - staprun installed setuid root: who may load which module
 * (man staprun, SAFETY AND SECURITY; docs/security.md).
 *
 * Run by root, nothing here applies. Run setuid root by another user:
 *   - a user in no stapc group is refused;
 *   - a member of stapdev (and stapusr) may do what root does;
 *   - a member of stapusr (with or without stapsys) may only run
 *     `staprun [-v] [-s MB] [-L] [-c CMD] [-x PID] [-o FILE] NAME` (and
 *     stapio's display options, stapusr_options_ok): the
 *     module NAME.ko (or its full path there) that an
 *     administrator placed in /lib/modules/RELEASE/systemtap/, whose every
 *     path component is owned by root and writable by no one else (a root
 *     owned symlink on the way, such as Debian's /lib -> usr/lib, is followed
 *     by reading it; any other is refused). The file is opened once, with
 *     O_NOFOLLOW, checked through its descriptor and loaded from that
 *     descriptor (finit_module), so nothing can be swapped between the check
 *     and the load; `staprun -A NAME` and `staprun -d NAME` of a module
 *     staprun loaded for this same user (its _stp_uid). No module
 *     parameters or other options (-R, -N...): each would act as root on
 *     the user's behalf; -c's command and -o's file are stapio's, which runs
 *     and opens them as the user.
 * Group membership is the caller's credentials (getgroups: the groups set at
 * login, whatever their source); the groups' numbers come from /etc/group.
 * The environment is replaced by a fixed one in setuid mode (PATH and the
 * locale variables dropped or fixed), so nothing the user sets reaches
 * stapio or the module's load.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "staprun.h"
#include "transport_msgs.h"
#include "wire.h"

/* Symlinks followed on the way to the module directory, at most. */
#define TRUSTED_MAX_LINKS 8

/*
 * The gid of group name from /etc/group; false if absent. staprun is static
 * (it runs in a bare initramfs), so it asks no NSS service: a group that
 * exists only in LDAP or another directory is not found here (but see
 * exec_group). Lines longer than the buffer are skipped whole.
 */
static bool group_gid(const char *name, gid_t *gid)
{
	FILE *f = fopen("/etc/group", "re");
	char line[4096];
	size_t len = strlen(name);
	bool found = false, line_start = true;

	while (f && !found && fgets(line, sizeof(line), f)) {
		bool at_start = line_start;
		char *field, *end;
		unsigned long value;

		line_start = strchr(line, '\n') != NULL;
		if (!at_start || strncmp(line, name, len) || line[len] != ':')
			continue;
		field = strchr(line + len + 1, ':');	/* past the password field */
		if (!field || field[1] < '0' || field[1] > '9')
			continue;
		errno = 0;
		value = strtoul(field + 1, &end, 10);
		if (errno || *end != ':' || value != (gid_t)value)
			continue;
		*gid = (gid_t)value;
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/*
 * The group of this staprun's file when it is installed for one group only
 * (setuid root, group-executable, not executable by others, the group not
 * root's): the kernel let the caller execute it, so the caller is in that
 * group, wherever the group is defined (/etc/group, LDAP...). false if
 * staprun is not installed that way.
 */
static bool exec_group(gid_t *gid)
{
	struct stat st;

	if (stat("/proc/self/exe", &st) < 0 || st.st_uid != 0 || !(st.st_mode & S_ISUID) ||
	    !(st.st_mode & S_IXGRP) || (st.st_mode & S_IXOTH) || st.st_gid == 0)
		return false;
	*gid = st.st_gid;
	return true;
}

/* The caller has gid: as its real gid or a supplementary group, as the kernel holds them. */
static bool has_gid(gid_t gid)
{
	static gid_t groups[NGROUPS_MAX];
	int n, i;

	if (getgid() == gid)
		return true;
	n = getgroups(NGROUPS_MAX, groups);
	for (i = 0; i < n; i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/*
 * The caller is in group name. Membership is the process's credentials (the
 * groups set at login, from whatever source: /etc/group, LDAP, sg, newgrp);
 * the group's number comes from /etc/group. For stapusr, a group that
 * /etc/group does not define is the group staprun is installed for
 * (exec_group), if it is installed for one.
 */
static bool in_group(const char *name)
{
	gid_t gid;

	if (group_gid(name, &gid))
		return has_gid(gid);
	return !strcmp(name, "stapusr") && exec_group(&gid) && has_gid(gid);
}

/* Owned by root and writable by no one else. */
static bool trusted_stat(const struct stat *st)
{
	return st->st_uid == 0 && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/*
 * Open directory path, component by component from "/", each one trusted;
 * root-owned symlinks in trusted directories are read and followed. The
 * directory descriptor, or -1 with why set.
 */
static int open_trusted_dir(const char *path, char *why, size_t why_size)
{
	char todo[PATH_MAX * 2];
	int links = 0;
	int dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	struct stat st;
	char *p;

	if (dir < 0 || fstat(dir, &st) < 0 || !trusted_stat(&st)) {
		snprintf(why, why_size, "/ is not owned by root or is writable by others");
		goto fail;
	}
	if (strlen(path) >= sizeof(todo)) {
		snprintf(why, why_size, "path too long");
		goto fail;
	}
	strcpy(todo, path);
	p = todo;
	while (*p) {
		char comp[NAME_MAX + 1];
		size_t len;
		int next;

		while (*p == '/')
			p++;
		len = strcspn(p, "/");
		if (!len)
			break;
		if (len > NAME_MAX || (len <= 2 && p[0] == '.' && (len == 1 || p[1] == '.'))) {
			snprintf(why, why_size, "'%.*s' in %s is not a plain directory name", (int)len, p, path);
			goto fail;
		}
		memcpy(comp, p, len);
		comp[len] = '\0';
		p += len;
		if (fstatat(dir, comp, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			snprintf(why, why_size, "%s: %s", comp, strerror(errno));
			goto fail;
		}
		if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX], rest[PATH_MAX * 2];
			ssize_t n;

			if (st.st_uid != 0 || ++links > TRUSTED_MAX_LINKS) {
				snprintf(why, why_size, "symlink '%s' is not owned by root (or too many links)", comp);
				goto fail;
			}
			n = readlinkat(dir, comp, target, sizeof(target) - 1);
			if (n <= 0 || target[0] == '/') {
				snprintf(why, why_size, "symlink '%s' does not point to a relative path", comp);
				goto fail;
			}
			target[n] = '\0';
			/* splice: the link's target, then what was left */
			if (snprintf(rest, sizeof(rest), "%s/%s", target, p) >= (int)sizeof(rest)) {
				snprintf(why, why_size, "path too long");
				goto fail;
			}
			strcpy(todo, rest);
			p = todo;
			continue;
		}
		next = openat(dir, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 || fstat(next, &st) < 0 || !trusted_stat(&st)) {
			snprintf(why, why_size, "directory '%s' is not owned by root or is writable by others", comp);
			if (next >= 0)
				close(next);
			goto fail;
		}
		close(dir);
		dir = next;
	}
	return dir;
fail:
	if (dir >= 0)
		close(dir);
	return -1;
}

/* The module NAME in /lib/modules/RELEASE/systemtap, opened and checked; -1 after a message. */
static int open_admin_module(const char *arg, char *path, size_t path_size)
{
	struct utsname u;
	char dirpath[PATH_MAX], name[NAME_MAX + 1], why[PATH_MAX + 128];
	size_t len = strlen(arg);
	struct stat st;
	int dir, fd;

	if (strchr(arg, '/') || !len || len > NAME_MAX - 3) {
		staprun_err("members of stapusr load only modules an administrator placed in "
			    "/lib/modules/RELEASE/systemtap/, by name (staprun NAME), not '%s'", arg);
		return -1;
	}
	snprintf(name, sizeof(name), "%s%s", arg, len > 3 && !strcmp(arg + len - 3, ".ko") ? "" : ".ko");
	uname(&u);
	snprintf(dirpath, sizeof(dirpath), "/lib/modules/%s/systemtap", u.release);
	snprintf(path, path_size, "%s/%s", dirpath, name);
	dir = open_trusted_dir(dirpath, why, sizeof(why));
	if (dir < 0) {
		staprun_err("%s cannot be trusted: %s (it and every directory above it must be owned by root "
			    "and writable by no one else)", dirpath, why);
		return -1;
	}
	fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(dir);
	if (fd < 0) {
		staprun_err("cannot open %s: %s%s", path, strerror(errno),
			    errno == ELOOP ? " (a symlink: the module itself must be there)" : "");
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || !trusted_stat(&st)) {
		staprun_err("%s is not a regular file owned by root and writable by no one else", path);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The options a stapusr member may give: -L, -A, -d, -D, -s/-b MB (the
 * buffers), and those of stapio, which runs as the user: -v, -w, -u, -c CMD,
 * -x PID, -o FILE, -S SIZE[,N], -C WHEN, -T MS, -M SEC (stapio runs the
 * command and opens the files as the user). Not -R, -N, -r: each would act
 * on a module or a process that is not the user's. *loaded is set for -A and
 * -d, whose module is a loaded one (stapusr_owns_module).
 */
static bool stapusr_options_ok(int argc, char **argv, const char **module, bool *loaded)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-') {
			if (i != argc - 1) {
				staprun_err("members of stapusr may not pass module parameters ('%s')", argv[i + 1]);
				return false;
			}
			*module = a;
			return true;
		}
		if (a[1] && strchr("sbcxoSCTM", a[1]) && !a[2] && i + 1 < argc) {
			i++;
			continue;
		}
		if (strspn(a + 1, "vwuLAdD") == strlen(a + 1) && a[1]) {
			*loaded |= strpbrk(a, "Ad") != NULL;
			continue;
		}
		staprun_err("option '%s' is not permitted to members of stapusr (they may give -v, -w, -u, -L, -A, -d, "
			    "-D, -s, -b, -c, -x, -o, -S, -C, -T and -M; see man staprun)", a);
		return false;
	}
	staprun_err("no module named");
	return false;
}

/*
 * -A NAME or -d NAME by a member of stapusr: only a module staprun loaded for
 * this same user, that is one whose _stp_uid (which only staprun sets, to the
 * real uid of the user it runs for) is the caller's (man staprun, -d: "modules
 * the user has permission to access"). A module root or another user loaded
 * is theirs: attaching would show its output and end it. 0, or -1 after a
 * message.
 */
static int stapusr_owns_module(const char *arg)
{
	char name[NAME_MAX + 1], path[PATH_MAX], text[32], *end;
	size_t len = strlen(arg);
	unsigned long uid;
	ssize_t n;
	int fd;

	if (len > 3 && !strcmp(arg + len - 3, ".ko"))
		len -= 3;
	if (!len || len >= sizeof(name) || strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") < len) {
		staprun_err("-A and -d take the name of a loaded module, not '%s'", arg);
		return -1;
	}
	memcpy(name, arg, len);
	name[len] = '\0';
	snprintf(path, sizeof(path), "/sys/module/%s", name);
	if (access(path, F_OK) < 0) {
		staprun_err("module '%s' is not loaded", name);
		return -1;
	}
	snprintf(path, sizeof(path), "/sys/module/%s/parameters/" STP_UID_PARAM, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, text, sizeof(text) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		staprun_err("module '%s' is no stapc module: members of stapusr may attach to or unload only a module "
			    "staprun loaded for them (staprun -L)", name);
		return -1;
	}
	text[n] = '\0';
	uid = strtoul(text, &end, 10);
	if (end == text || (*end && *end != '\n') || uid != (unsigned long)getuid()) {
		staprun_err("module '%s' was loaded for %s (uid %.*s): members of stapusr may attach to or unload only a "
			    "module staprun loaded for them (staprun -L)", name, uid == 0 ? "root" : "another user",
			    (int)strcspn(text, "\n"), text);
		return -1;
	}
	return 0;
}

/*
 * A module by path, with its signature file beside it (PATH.sgn, from
 * stapc-server): read once, its signature checked against the trusted
 * signers' certificates (a directory checked as the module directory is),
 * and its level (modinfo stapc_privilege) one the user's groups allow. The
 * verified image is what gets loaded. 0, or -1 after a message.
 */
static int read_signed_module(const char *path, bool stapsys, unsigned char **image, size_t *len)
{
	char why_dir[PATH_MAX + 128], level[32];
	const char *why = NULL;
	struct stat st;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *sig = NULL;
	int dir = -1, rc = -1;

	*image = NULL;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > (64 << 20)) {
		staprun_err("cannot open module '%s'%s%s", path, fd < 0 ? ": " : " (not a regular file of at most 64 MB)",
			    fd < 0 ? strerror(errno) : "");
		goto out;
	}
	*len = (size_t)st.st_size;
	*image = malloc(*len ? *len : 1);
	if (!*image || pread(fd, *image, *len, 0) != (ssize_t)*len) {
		staprun_err("cannot read module '%s'", path);
		goto out;
	}
	char sgn[PATH_MAX + 8];
	snprintf(sgn, sizeof(sgn), "%s.sgn", path);
	FILE *f = fopen(sgn, "re");
	sig = f ? malloc(4096) : NULL;
	size_t n = sig ? fread(sig, 1, 4095, f) : 0;
	if (f)
		fclose(f);
	if (!sig) {
		staprun_err("members of stapusr load a module from elsewhere than /lib/modules/RELEASE/systemtap/ only "
			    "when a trusted compile server signed it: '%s' has no signature file %s", path, sgn);
		goto out;
	}
	sig[n] = '\0';
	dir = open_trusted_dir(WIRE_TRUSTED_SIGNERS, why_dir, sizeof(why_dir));
	if (dir < 0) {
		staprun_err("%s cannot be trusted: %s", WIRE_TRUSTED_SIGNERS, why_dir);
		goto out;
	}
	if (wire_verify(sig, *image, *len, dir, &why) < 0) {
		staprun_err("module '%s' refused: %s", path, why);
		goto out;
	}
	if (staprun_modinfo_get(*image, *len, "stapc_privilege", level, sizeof(level)) < 0 ||
	    (strcmp(level, "stapusr") && !(stapsys && !strcmp(level, "stapsys")))) {
		staprun_err("module '%s' was compiled at privilege level %s: members of %s may load modules compiled "
			    "with --privilege=%s", path, level[0] ? level : "stapdev", stapsys ? "stapsys" : "stapusr",
			    stapsys ? "stapusr or stapsys" : "stapusr");
		goto out;
	}
	rc = 0;
out:
	if (rc < 0) {
		free(*image);
		*image = NULL;
	}
	free(sig);
	if (dir >= 0)
		close(dir);
	if (fd >= 0)
		close(fd);
	return rc;
}

int staprun_privilege_check(int argc, char **argv, int *module_fd, char *module_path, size_t path_size,
			    unsigned char **image, size_t *image_len)
{
	const char *module = NULL;
	bool loaded = false;
	const char *term = getenv("TERM");
	char keep_term[64] = "";

	*module_fd = -1;
	*image = NULL;
	if (getuid() == 0 || geteuid() != 0)
		return 0;	/* root, or not setuid: the kernel decides */
	/* setuid: a fixed environment, whatever the caller set */
	if (term && strlen(term) < sizeof(keep_term) && strspn(term, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(term))
		strcpy(keep_term, term);
	clearenv();
	setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
	if (*keep_term)
		setenv("TERM", keep_term, 1);
	if (in_group("stapdev") && in_group("stapusr"))
		return 0;	/* stapdev: what root may do */
	if (!in_group("stapusr")) {
		gid_t gid;

		if (!group_gid("stapusr", &gid) && !exec_group(&gid))
			staprun_err("the group stapusr is not in /etc/group (staprun, static, reads no other group "
				    "database) and staprun is not installed for one group (chown root:GROUP staprun; "
				    "chmod 4750 staprun): ask an administrator (see man staprun)");
		else
			staprun_err("you are not a member of the group stapusr (or stapdev): ask an administrator "
				    "(usermod -aG stapusr USER; see man staprun)");
		return -1;
	}
	if (!stapusr_options_ok(argc, argv, &module, &loaded))
		return -1;
	if (loaded)
		return stapusr_owns_module(module);
	/* the administrator's directory named in full is the same as the name alone */
	char admin[PATH_MAX];
	struct utsname u;
	uname(&u);
	for (int merged = 0; merged < 2; merged++) {
		snprintf(admin, sizeof(admin), "%s/lib/modules/%s/systemtap/", merged ? "/usr" : "", u.release);
		if (!strncmp(module, admin, strlen(admin)) && !strchr(module + strlen(admin), '/'))
			module += strlen(admin);
	}
	if (strchr(module, '/')) {
		snprintf(module_path, path_size, "%s", module);
		return read_signed_module(module, in_group("stapsys"), image, image_len);
	}
	*module_fd = open_admin_module(module, module_path, path_size);
	return *module_fd < 0 ? -1 : 0;
}
