/* main.c - the stap command line: options into a session (options.c), then the pass table. */
#include "build_as.h"
#include "cache.h"
#include "diag.h"
#include "options.h"
#include "passes.h"
#include "dump.h"
#include "lsp.h"
#include "run.h"
#include "privilege.h"
#include "session.h"

int main(int argc, char **argv)
{
	struct session *s = ast_alloc(sizeof(*s));
	s->diag = diag_new();
	diag_use(s->diag);
	int rc = options_parse(s, argc, argv);
	if (rc >= 0)
		return rc;
	diag_configure(&(struct diag_options){
		.suppress_warnings = s->suppress_warnings,
		.warnings_as_errors = s->warnings_as_errors,
		.library_warnings = s->verbose > 0,
		.colors = s->colors,
	});
	if (!privilege_configure(s) || !build_as_check(s))
		return STAP_EXIT_USAGE;
	if (s->clean_cache)
		return cache_clean(s);
	if (s->dump)
		return dump_run(s);
	if (s->language_server)
		return lsp_serve(s);	/* each analysis runs passes 1-2 in a child (lsp/) */
	if (s->remotes.n && !s->remote && s->last_pass >= 4)
		return remote_fleet_run(s);	/* ssh, direct:// or several targets (remote_ssh.c) */
	return passes_run(s);
}
