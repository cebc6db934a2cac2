/* clock: the model of time on screen (clock.c), on when --hw, --alpha,
 * --bw or --flops was given. */
#ifndef TUI_MODES_CLOCK_H
#define TUI_MODES_CLOCK_H

#include <distmm/dm_err.h>
#include <distmm/hw.h>

#include "tui/mode.h"

extern const struct view_mode mode_clock;

/* Turns the clock on in v with the model hw (copied); given: the
 * CLOCKW_* bits of the values the command line set over the preset.
 * Returns 0, or DM_ENOMEM with err filled. */
int mode_clock_push(struct view *v, const struct dm_hw *hw, unsigned given,
		    struct dm_err *err);

#endif
