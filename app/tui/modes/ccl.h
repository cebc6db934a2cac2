/* ccl: one collective in the interface (ccl.c): --collective without -b. */
#ifndef TUI_MODES_CCL_H
#define TUI_MODES_CCL_H

#include "tui/mode.h"

struct dm_err;
struct view;

extern const struct view_mode mode_ccl;

/* Turns the collective's mode on for v (v->cfg.ccl says which, v->cfg.mode
 * DM_COLL).  Returns 0 or DM_ENOMEM with err filled. */
int mode_ccl_push(struct view *v, struct dm_err *err);

#endif
