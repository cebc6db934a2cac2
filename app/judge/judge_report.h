/* judge_report: -b --judge FILE.py: the judge's report in batch mode (the table of
 * cases, the details of each failing one, a summary line) and its exit
 * status: 0 every case passed; 2 the file cannot be loaded (one line, with
 * Python's line number) or no python with numpy; 3 a case deadlocked;
 * else 1 a case failed.  Cases beyond the exercise's contract (uneven
 * splits) are reported and do not count, unless picked on their own. */
#ifndef APP_JUDGE_JUDGE_REPORT_H
#define APP_JUDGE_JUDGE_REPORT_H

#include "cli/cli.h"

int judge_report_main(const struct cli_opts *o);

#endif
