/* train: the training step's mode (train.c). */
#ifndef TUI_MODES_TRAIN_H
#define TUI_MODES_TRAIN_H

#include <stdint.h>

#include "tui/mode.h"

struct dm_err;
struct view;

extern const struct view_mode mode_train;

/* Turns the training step's mode on for v (its state made).  Returns 0 or
 * DM_ENOMEM with err filled. */
int mode_train_push(struct view *v, struct dm_err *err);
/* d: the training step on or off on the same matrices, the run restarted;
 * v->msg says what runs now, or why it cannot. */
void mode_train_switch(struct view *v, uint64_t now);

#endif
