/* main: parse the command line and hand over to batch mode, the export or the UI.
 * Only app/ prints or exits; the engine returns errors to it.  Every way
 * out goes through status_close_stdout, so output that could not be
 * written is an error, not a silent exit 0. */
#include <stdio.h>

#include "batch/batch.h"
#include "cli/cli.h"
#include "cli/files.h"
#include "tui/headless.h"
#include "judge/judge_report.h"
#include "cli/status.h"
#include "tui/tui.h"
#include "tui/tui_drill.h"
#include "tui/tui_interview.h"
#include "cli/version.h"
#include "words/bug_words.h"
#include "words/clock_words.h"

static int main_run(int argc, char **argv)
{
	struct cli_opts o;
	char err[256], files_err[1024];

	switch (cli_parse(argc, argv, &o, err, sizeof err)) {
	case CLI_HELP:
		status_put_stdout(cli_usage());
		return STATUS_OK;
	case CLI_VERSION:
		printf("distmm-tui %s\n", DISTMM_VERSION);
		return STATUS_OK;
	case CLI_BUG_LIST:
		bugw_print_list();
		return STATUS_OK;
	case CLI_HW_LIST:
		clockw_print_presets();
		return STATUS_OK;
	case CLI_ERROR:
		status_error("%s", err);
		return STATUS_USAGE;
	}
	if (files_check_distinct(&o, files_err, sizeof files_err)) {
		status_error("%s", files_err); /* before anything is read or written */
		return STATUS_USAGE;
	}
	if (o.interview_file)
		return tui_interview_main(&o); /* cli_interview.c refused -b */
	if (o.drill >= 0)
		return tui_drill_main(&o); /* cli_drill.c refused -b */
	if (o.judge_file && o.batch)
		return judge_report_main(&o); /* without -b the interface judges first (session_judge.c) */
	if (o.batch)
		return batch_main(&o);
	return o.export_file ? headless_main(&o, argc, argv) : tui_main(&o, argc, argv);
}

int main(int argc, char **argv)
{
	return status_close_stdout(main_run(argc, argv));
}
