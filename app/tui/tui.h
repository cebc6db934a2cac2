/* tui: the interactive program (./distmm-tui without -b). */
#ifndef TUI_TUI_H
#define TUI_TUI_H

#include "cli/cli.h"

/* Runs the interface until q.  Returns the exit status (0, or 2 when it
 * cannot start: not a terminal, bad input; or when --record could not be
 * written).  argv is what --record puts in its header. */
int tui_main(const struct cli_opts *o, int argc, char *const argv[]);

#endif
