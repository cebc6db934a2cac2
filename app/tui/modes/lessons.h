/* lessons: a lesson's part on screen, --lesson (lessons.c). */
#ifndef TUI_MODES_LESSONS_H
#define TUI_MODES_LESSONS_H

#include "tui/mode.h"

struct dm_err;
struct lesson;
struct view;

extern const struct view_mode mode_lessons;

/* Shows part `part` of lesson (the caller's, kept) on v.  Returns 0 or
 * DM_ENOMEM with err filled. */
int mode_lessons_push(struct view *v, const struct lesson *lesson, int part, struct dm_err *err);

#endif
