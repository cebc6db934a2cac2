/* timeline: the run on the clock in the panels' area (the l key, or
 * --timeline), and what --prefetch hides, in a transfer's caption and the
 * status bar (timeline.c).  On from the start with --timeline or
 * --prefetch, else from the first l (session_timeline), in a session of a
 * matrix multiply but a judged one (the judged file's runs are not
 * modelled; a collective's timeline is batch mode's). */
#ifndef TUI_MODES_TIMELINE_H
#define TUI_MODES_TIMELINE_H

#include <distmm/dm_err.h>
#include <distmm/hw.h>

#include "tui/mode.h"

extern const struct view_mode mode_timeline;

/* Puts the timeline's mode in v with the model hw (copied: --hw's, or
 * the default the clock names); given: the CLOCKW_* bits the command line
 * set; on: the view opens with the timeline shown (--timeline).  Returns
 * 0, or DM_ENOMEM with err filled. */
int mode_timeline_push(struct view *v, const struct dm_hw *hw, unsigned given, int on,
		       struct dm_err *err);

#endif
