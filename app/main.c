/* main: parse the command line and hand over to batch mode or the UI.
 * Only app/ prints or exits; the engine returns errors to it. */
#include <stdio.h>

#include "batch.h"
#include <distmm/bug.h>
#include "cli.h"
#include "judge/jbatch.h"
#include "status.h"
#include "tui/tui.h"
#include "version.h"


int main(int argc, char **argv)
{
	struct cli_opts o;
	char err[256];

	switch (cli_parse(argc, argv, &o, err, sizeof err)) {
	case CLI_HELP:
		fputs(cli_usage(), stdout);
		return STATUS_OK;
	case CLI_VERSION:
		printf("distmm-tui %s\n", DISTMM_VERSION);
		return STATUS_OK;
	case CLI_BUG_LIST:
		printf("--bug KIND runs the ring with one classic mistake:\n");
		for (int b = 1; b < BUG_COUNT; b++)
			printf("  %-16s %s\n", bug_name(b), bug_describe(b));
		return STATUS_OK;
	case CLI_ERROR:
		status_error("%s", err);
		return STATUS_USAGE;
	}
	if (o.judge_file) /* --judge needs -b (cli refuses it without) */
		return jbatch_main(&o);
	return o.batch ? batch_main(&o) : tui_main(&o);
}
