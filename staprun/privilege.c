/* privilege.c - who may load what when staprun runs setuid root (docs/install.md#privileges). */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "staprun.h"

/*
 * The gid of group NAME from /etc/group, or -1. Read by hand: staprun is
 * linked statically, where getgrnam() would need glibc's NSS libraries at run
 * time; the package's postinst creates stapusr and stapdev as local groups.
 */
static long staprun_group_id(const char *name)
{
	FILE *f = fopen("/etc/group", "re");
	char line[4096];
	size_t len = strlen(name);
	long gid = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *colon;

		if (strncmp(line, name, len) || line[len] != ':')
			continue;
		colon = strchr(line + len + 1, ':');	/* past the password field */
		if (colon)
			gid = strtol(colon + 1, NULL, 10);
		break;
	}
	fclose(f);
	return gid;
}

/* Is the real user in group NAME (as its primary or a supplementary group)? */
static bool staprun_in_group(const char *name)
{
	long gid = staprun_group_id(name);
	gid_t groups[NGROUPS_MAX];
	int n;

	if (gid < 0)
		return false;
	if (getgid() == (gid_t)gid)
		return true;
	n = getgroups(NGROUPS_MAX, groups);
	for (int i = 0; i < n; i++)
		if (groups[i] == (gid_t)gid)
			return true;
	return false;
}

/*
 * Root may do anything; so may stapdev, whose members are trusted with any
 * module. stapusr may load only modules root installed under
 * /lib/modules/RELEASE/systemtap/ (the path is resolved, and the resolved path
 * is what gets loaded, so a link cannot swap the file), may attach (-A), and
 * may not unload (-d). Anyone else may do nothing.
 */
int staprun_check_privilege(const char **module_path, bool load, bool unload)
{
	static char resolved[PATH_MAX];
	char dir[PATH_MAX], real_dir[PATH_MAX];
	struct utsname u;
	struct stat st;
	size_t len;

	if (getuid() == 0 || staprun_in_group("stapdev"))
		return 0;
	if (!staprun_in_group("stapusr")) {
		fprintf(stderr, "staprun: only root and the members of the groups stapusr and "
			"stapdev may run modules (see man staprun)\n");
		return -1;
	}
	if (unload) {
		fprintf(stderr, "staprun: -d needs root or the group stapdev\n");
		return -1;
	}
	if (!load)
		return 0;
	uname(&u);
	snprintf(dir, sizeof(dir), "/lib/modules/%s/systemtap/", u.release);
	/* Both resolved: /lib is a link to /usr/lib on a merged-/usr system. */
	if (!realpath(dir, real_dir))
		real_dir[0] = '\0';
	len = strlen(real_dir);
	if (!len || !realpath(*module_path, resolved) || strncmp(resolved, real_dir, len) ||
	    resolved[len] != '/' ||
	    stat(resolved, &st) < 0 || st.st_uid != 0) {
		fprintf(stderr, "staprun: members of stapusr may load only modules root installed "
			"in %s; '%s' is not one (see man staprun)\n", dir, *module_path);
		return -1;
	}
	*module_path = resolved;
	return 0;
}
