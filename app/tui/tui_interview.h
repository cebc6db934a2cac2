/* tui_interview: --interview FILE.py, the mock interview's loop
 * (docs/interview.md). */
#ifndef TUI_TUI_INTERVIEW_H
#define TUI_TUI_INTERVIEW_H

#include "cli/cli.h"

/* Runs the interview until q.  Returns the exit status: 0, or 2 when it
 * cannot start (one line on stderr: not a terminal, the state file beside
 * FILE unreadable, the starter not writable). */
int tui_interview_main(const struct cli_opts *o);

#endif
