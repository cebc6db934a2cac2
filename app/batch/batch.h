/* batch: the run without an interface (-b): the schedule, the memory and
 * traffic summary and the verification, printed as plain lines. */
#ifndef APP_BATCH_H
#define APP_BATCH_H

#include "cli/cli.h"

/* Runs o's configuration to the end and prints it.  Returns the exit status:
 * 0 verified, 1 mismatch or failed run, 2 bad input, 3 deadlock. */
int batch_main(const struct cli_opts *o);

#endif
