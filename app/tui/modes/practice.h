/* practice: the derive practice's mode, --quiz=derive (practice.c). */
#ifndef TUI_MODES_PRACTICE_H
#define TUI_MODES_PRACTICE_H

#include "tui/mode.h"

struct dm_err;
struct view;

extern const struct view_mode mode_practice;

/* Turns the practice on for v's session: nothing watched, no question
 * answered.  Returns 0 or DM_ENOMEM with err filled. */
int mode_practice_push(struct view *v, struct dm_err *err);

#endif
