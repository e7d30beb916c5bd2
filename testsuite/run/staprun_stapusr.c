/*
 * staprun_stapusr.c - run PROG as UID:GID with exactly the supplementary
 * groups given ("-" for none), as a login whose groups came from a directory
 * such as LDAP would: /etc/group does not list the user. Usage:
 * staprun_stapusr UID GID GID,GID...|- PROG ARGS...
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	gid_t groups[32];
	int n = 0;

	if (argc < 5) {
		fprintf(stderr, "usage: %s UID GID GID,GID...|- PROG ARGS...\n", argv[0]);
		return 2;
	}
	for (char *g = strtok(argv[3], ","); g && strcmp(g, "-") && n < 32; g = strtok(NULL, ","))
		groups[n++] = (gid_t)atoi(g);
	if (setgroups(n, groups) < 0 || setresgid(atoi(argv[2]), atoi(argv[2]), atoi(argv[2])) < 0 ||
	    setresuid(atoi(argv[1]), atoi(argv[1]), atoi(argv[1])) < 0) {
		perror("staprun_stapusr: cannot change credentials");
		return 2;
	}
	execv(argv[4], argv + 4);
	fprintf(stderr, "cannot run %s: ", argv[4]);
	perror(NULL);
	return 126;
}
