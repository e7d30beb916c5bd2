/* use_server.h - stap --use-server, --trust-servers, --list-servers (use_server.c). */
#ifndef STAPC_USE_SERVER_H
#define STAPC_USE_SERVER_H

#include "session.h"

/* Passes 1-4 on the server s->use_server names, pass 5 here; the exit code. */
int use_server_run(struct session *s);
/* --trust-servers=[signer,]HOST:PORT: trust that server's certificate; the exit code. */
int use_server_trust(const char *spec);
/* --list-servers: the trusted servers and signers; the exit code. */
int use_server_list(void);

#endif
