/* remote.h - --remote URLs: which forms stap accepts (remote_ssh.c runs them). */
#ifndef STAPC_REMOTE_H
#define STAPC_REMOTE_H

#include <stdbool.h>

/* NULL if url is a --remote form stap runs, else why not (for "invalid --remote 'URL': WHY"). */
const char *remote_url_check(const char *url);

/* Is url qemu or qemu:RELEASE (a disposable guest run by stapvm)? */
bool remote_url_is_qemu(const char *url);

#endif
