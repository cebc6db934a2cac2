/* headless: the whole animation without a terminal (--export FILE.cast or FILE.svg). */
#ifndef TUI_HEADLESS_H
#define TUI_HEADLESS_H

#include "cli/cli.h"

/* Plays the run (every part of a lesson) on a curses screen of o->cols x
 * o->rows that goes nowhere, by a virtual clock, and writes o->export_file:
 * an asciicast, or a series of SVG stills.  argv is kept in the cast.
 * Returns the exit status: 0 written, 2 bad input or a failed write (one
 * line said, nothing left behind). */
int headless_main(const struct cli_opts *o, int argc, char *const argv[]);

/* Refuses a path --export or --record (record = 1: .cast only) cannot write,
 * before anything runs: STATUS_OK, or STATUS_USAGE with one line said. */
int headless_check_path(const char *path, int record);

#endif
