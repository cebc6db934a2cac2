/* replay: the mode of a recorded trace, --replay (replay.c). */
#ifndef TUI_MODES_REPLAY_H
#define TUI_MODES_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/evlog.h>
#include <distmm/mat.h>
#include <distmm/trace.h>

#include "tui/mode.h"

struct view;

extern const struct view_mode mode_replay;

/* Starts v on a recorded run instead of the engine: the trace's events
 * and run (its mode, devices, tp-row's collective), on A and B (which
 * trace_check has found to fit), with the bug it was recorded with; dC
 * (the caller's, M x N) for a training step's trace, NULL for a
 * forward's.  Returns 0 or an error with err filled. */
int mode_replay_start(struct view *v, const struct mat *a, const struct mat *b,
		      const struct mat *dc, const struct trace *t, int bug, uint64_t now,
		      struct dm_err *err);

#endif
