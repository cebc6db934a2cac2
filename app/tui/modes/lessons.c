/* lessons: a lesson's part on screen (--lesson; see mode.h): the lesson's
 * words for the moment over every other caption, the next part's name at
 * the end, and the part in the status bar.  The parts themselves follow one
 * another in the session (session_next_part), each a view of its own. */
#include "lessons.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/schedule.h>

#include "practice/lesson.h"
#include "tui/view.h"

struct lessons_part {
	const struct lesson *lesson; /* the session's */
	int part;                    /* its part on screen */
};

static void lessons_free(void *data)
{
	free(data);
}

/* The lesson's words for this moment, if the lesson has some. */
static int lessons_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct lessons_part *p = data;
	int when;
	if (v->failed && v->fail.code == DM_EDEADLOCK)
		when = LESSON_DEADLOCK;
	else if (v->finished)
		when = LESSON_DONE;
	else if (v->kind == VIEW_READY)
		when = LESSON_READY;
	else if (v->kind == SCHED_COMPUTE)
		when = LESSON_COMPUTE;
	else if (v->kind == SCHED_TRANSFER)
		when = LESSON_TRANSFER;
	else if (v->kind == SCHED_BWD_COMPUTE)
		when = LESSON_BACKWARD;
	else if (v->kind == SCHED_BWD_TRANSFER)
		when = LESSON_BACKWARD_TRANSFER;
	else if (v->kind == SCHED_DB_PARTIAL)
		when = LESSON_PARTIAL;
	else if (v->kind == SCHED_REDUCE_SCATTER || v->kind == SCHED_CCL_RING_RS)
		when = LESSON_REDUCE_SCATTER;
	else if (v->kind == SCHED_ALL_GATHER || v->kind == SCHED_CCL_RING_AG)
		when = LESSON_ALL_GATHER;
	else if (v->kind == SCHED_DISTRIBUTE)
		when = LESSON_DISTRIBUTE;
	else if (v->kind == SCHED_ACTIVATE)
		when = LESSON_ACTIVATION;
	else if (v->kind == SCHED_LAYER2)
		when = LESSON_SECOND_LAYER;
	else if (v->kind >= SCHED_CCL_FIRST && v->kind < SCHED_DISTRIBUTE)
		when = LESSON_COLLECTIVE;
	else
		when = LESSON_GATHER;
	struct lesson_at at = { v->step,    v->snap.n, v->plan,
				v->snap.M,  v->snap.K, v->snap.N,
				v->cfg.ccl ? &v->cfg.ccl->hw : NULL };
	int got = lesson_caption(p->lesson, p->part, when, &at, buf, size);
	if ((v->finished || v->failed) && p->part + 1 < p->lesson->nparts) {
		size_t len = got ? strlen(buf) : 0;
		snprintf(buf + len, size - len, "%sNext (n): %s.", got ? " " : "",
			 p->lesson->part[p->part + 1].name);
		got = 1;
	}
	return got;
}

static void lessons_status(const struct view *v, const void *data, char *buf, size_t size)
{
	const struct lessons_part *p = data;
	(void)v;
	snprintf(buf, size, "  part %d/%d", p->part + 1, p->lesson->nparts);
}

static int lessons_chapter(const struct view *v, const void *data)
{
	(void)v;
	return ((const struct lessons_part *)data)->part;
}

const struct view_mode mode_lessons = {
	.name = "a lesson",
	.layer = 20,
	.free = lessons_free,
	.caption = lessons_caption,
	.status = lessons_status,
	.chapter = lessons_chapter,
};

int mode_lessons_push(struct view *v, const struct lesson *lesson, int part, struct dm_err *err)
{
	struct lessons_part *p = malloc(sizeof *p);
	if (p)
		*p = (struct lessons_part){ lesson, part };
	if (!p || view_mode_push(v, &mode_lessons, p))
		return dm_err_set(err, DM_ENOMEM, "out of memory for the lesson");
	return 0;
}
