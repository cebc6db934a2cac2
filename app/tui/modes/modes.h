/* modes: the list of every mode the interface has (for what a key does when
 * its mode is off, and for the tests), and the modes a run's settings ask
 * for.  Each mode's table and entry points are in its own header. */
#ifndef TUI_MODES_MODES_H
#define TUI_MODES_MODES_H

#include "tui/mode.h"

struct view;
struct dm_err;

/* Every mode, and how many. */
extern const struct view_mode *const modes_all[];
int modes_count(void);

/* The modes of v->cfg: the base run always, the deadlock lab (cfg.lab),
 * tensor parallel's (cfg.mode tp-col, tp-row or tp-mlp) and the training step
 * (cfg.train) when asked.  Returns 0 or DM_ENOMEM with
 * err filled. */
int modes_request(struct view *v, struct dm_err *err);

/* Why action does nothing in v: the first mode off in v that alone takes
 * it says, or NULL when none does (view_mode_key asks it when no active
 * mode took the action). */
const char *modes_absent(const struct view *v, int action);

#endif
