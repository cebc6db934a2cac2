/* judge_report: -b --judge FILE.py: the judge's report in batch mode (the table of
 * cases, the details of each failing one, a summary line) and its exit
 * status: 0 every case passed; 2 the file cannot be loaded (one line, with
 * Python's line number) or no python with numpy; 3 a case deadlocked;
 * else 1 a case failed.  Cases beyond the exercise's contract (uneven
 * splits) are reported and do not count, unless picked on their own. */
#ifndef APP_JUDGE_JUDGE_REPORT_H
#define APP_JUDGE_JUDGE_REPORT_H

#include <stdio.h>

#include "cli/cli.h"

struct judge;
struct judge_case;

int judge_report_main(const struct cli_opts *o);

/* One failing case's details as the report words them (its settings, the
 * verdict's headline and notes, the first wrong event, with show_output
 * what it printed, the command for this case alone), to out: what
 * --interview shows under its table. */
void judge_report_case(FILE *out, const struct judge *j, const struct judge_case *c,
		       int show_output);

#endif
