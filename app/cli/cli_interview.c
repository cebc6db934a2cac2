/* cli_interview: the mock interview's options (docs/interview.md).  The
 * interview is a session of the interface of its own: it takes the
 * screen's look (--no-color, --ascii, --theme) and the judge's limits
 * (--judge-timeout, --judge-unconfined), and refuses everything else with
 * one line, -b first (there is nothing to print: the candidate works in
 * their editor while the screen watches). */
#include "cli.h"
#include "cli_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Minutes, a decimal number above 0 up to a day, into ms. */
static int cli_interview_minutes(const char *s, size_t len, uint64_t *ms)
{
	char num[32];
	if (len == 0 || len >= sizeof num)
		return -1;
	memcpy(num, s, len);
	num[len] = '\0';
	for (const char *p = num; *p; p++)
		if (!strchr("0123456789.", *p))
			return -1;
	errno = 0;
	char *end;
	double v = strtod(num, &end);
	if (*end || errno || !isfinite(v) || v <= 0 || v > 24 * 60)
		return -1;
	*ms = (uint64_t)llround(v * 60000.0);
	return *ms ? 0 : -1;
}

int cli_interview_option(const char *opt, const char *arg, struct cli_opts *o, char *err,
			 size_t size)
{
	if (strcmp(opt, "--interview") == 0) {
		if (!arg[0])
			return cli_fail(err, size, "--interview takes your solution's file (FILE.py)");
		o->interview_file = arg;
	} else if (strcmp(opt, "--interview-time") == 0) {
		const char *comma = strchr(arg, ',');
		size_t first = comma ? (size_t)(comma - arg) : strlen(arg);
		if (cli_interview_minutes(arg, first, &o->interview_ms[0]) ||
		    (comma && cli_interview_minutes(comma + 1, strlen(comma + 1),
						    &o->interview_ms[1])))
			return cli_fail(err, size, "--interview-time must be minutes for DP, or DP,FSDP "
					"(above 0, at most 1440: 10,20 is the default), not '%s'", arg);
		if (!comma)
			o->interview_ms[1] = 2 * o->interview_ms[0];
	} else if (strcmp(opt, "--interview-restart") == 0) {
		o->interview_restart = 1;
	}
	return 0;
}

int cli_interview_check(struct cli_opts *o, char *err, size_t size)
{
	const cli_given_t own = CLI_GIVEN_INTERVIEW_TIME | CLI_GIVEN_INTERVIEW_RESTART;
	const cli_given_t takes = CLI_GIVEN_INTERVIEW | own | CLI_GIVEN_NO_COLOR | CLI_GIVEN_ASCII |
				  CLI_GIVEN_THEME | CLI_GIVEN_JUDGE_TIMEOUT |
				  CLI_GIVEN_JUDGE_UNCONFINED;
	if (!o->interview_file) {
		if (!(o->given & own))
			return 0;
		o->refused = (o->given & own) & -(o->given & own);
		cli_fail(err, size, "%s has no effect without --interview (it is the interview's)",
			 cli_option_name(o->refused));
		return -1;
	}
	if (o->batch) {
		o->refused = CLI_GIVEN_BATCH;
		cli_fail(err, size, "-b has no effect with --interview (it is a session in the "
			 "interface, which watches your file while you edit it)");
		return -1;
	}
	cli_given_t extra = o->given & ~takes;
	if (extra) {
		o->refused = extra & -extra;
		cli_fail(err, size, "%s has no effect with --interview (the interview judges your "
			 "file on the judge's own cases, in its own screen)",
			 cli_option_name(o->refused));
		return -1;
	}
	return 1;
}
