/* tui: the interactive program (./distmm-tui without -b). */
#ifndef TUI_TUI_H
#define TUI_TUI_H

#include <curses.h>

#include "cli/cli.h"
#include <distmm/dm_err.h>

struct session;

/* Runs the interface until q.  Returns the exit status (0, or 2 when it
 * cannot start: not a terminal, bad input; or when --record could not be
 * written).  argv is what --record puts in its header. */
int tui_main(const struct cli_opts *o, int argc, char *const argv[]);

/* For another loop over the screen (--interview's, tui_interview.c), as
 * tui_main does it.  open: the locale, the signals caught (a flag, that
 * tui_signalled reads), the terminal checked; NULL after one line on
 * stderr.  modes: keys, no echo, no cursor, the theme for o, crashes
 * caught.  close: the terminal as it was.  tui_end_signal: after close,
 * the signal that came (if one did) ends the program as it would have. */
SCREEN *tui_screen_open(void);
void tui_screen_modes(const struct cli_opts *o);
void tui_screen_close(SCREEN *scr);
int tui_signalled(void);
void tui_end_signal(void);

/* The interface's loop on a started session t until q (0) or a signal (0,
 * tui_signalled says), or an error in err. */
int tui_view_loop(struct session *t, struct dm_err *err);

#endif
