/* tp: tensor parallel's mode (tp.c, tp_blocks.c): -m tp-col and -m tp-row
 * in the interface. */
#ifndef TUI_MODES_TP_H
#define TUI_MODES_TP_H

#include <stdint.h>

#include "tui/mode.h"

struct dm_err;
struct view;

extern const struct view_mode mode_tp;

/* Turns tensor parallel's mode on for v (v->cfg.mode tp-col, tp-row or tp-mlp;
 * v->cfg.reduce_scatter: tp-row ends in a reduce-scatter).  Returns 0 or
 * DM_ENOMEM with err filled. */
int mode_tp_push(struct view *v, struct dm_err *err);

/* m from DP: tp-col on the same matrices, the run restarted, when nothing
 * but the base run is on (tensor parallel has no training step, lab,
 * practice or lesson yet); else FSDP, v->msg saying why. */
void mode_tp_enter(struct view *v, uint64_t now);

#endif
