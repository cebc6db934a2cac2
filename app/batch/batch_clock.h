/* batch_clock: the clock's own batch runs, which have no matrices:
 * -b --collective (one collective run on the devices, checked, timed by
 * the model) and -b --sweep (the model alone at every size). */
#ifndef APP_BATCH_CLOCK_H
#define APP_BATCH_CLOCK_H

#include "cli/cli.h"

/* Runs o's --collective or --sweep and prints it.  Returns the exit
 * status: 0 verified (a sweep: printed), 1 a result or a byte count that
 * differs, 2 bad input. */
int batch_clock_main(const struct cli_opts *o);

#endif
