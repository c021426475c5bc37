/*
 * notices.c - what the analysis says on stderr of the files as it reads them: a
 * symbolic link the walk skips, a file read as binary data, the files the whole-tree
 * facts add.  One place, so that a cached run which reads nothing (cmd_migrate.c) says
 * the same lines as the run it replays.
 */
#include <stdio.h>
#include <string.h>

#include "site.h"

bool bm_file_is_binary(const struct bm_file *f)
{
	return f->status == BM_PARSE_FAILED && f->reason &&
	       !strncmp(f->reason, BM_BINARY_REASON, strlen(BM_BINARY_REASON));
}

void bm_say_file_notice(const struct bm_file *f)
{
	if (f->link)
		fprintf(stderr, "blkmig: %s: %s\n", f->path, f->reason);
	else if (bm_file_is_binary(f)) /* with no call names in it, nothing more is done */
		fprintf(stderr, "blkmig: %s: %s%s\n", f->path, f->reason,
			strcmp(f->reason, BM_BINARY_REASON) ? "" : "; skipped");
}

void bm_say_facts_added(size_t round, size_t n)
{
	if (!n)
		return;
	if (!round)
		fprintf(stderr, "blkmig: whole-tree facts: %zu file(s) register a queue\n", n);
	else
		fprintf(stderr,
			"blkmig: whole-tree facts, round %zu: %zu more file(s) name callers that "
			"matter\n",
			round, n);
}
