/* lesson_fig: the figures a lesson's caption names by placeholder (see
 * lesson.h), each worked out from the engine's model of the part's run or
 * from split.h, never written into the lesson: a lesson that says "3/4 of
 * B" is true only for the split it was written for, one that says {sent}
 * for any.  The words are model_words'; tests/app/practice/check_lesson_fig.c
 * holds every shipped lesson's figures to a run of the engine. */
#include "lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/model.h>
#include <distmm/split.h>
#include "words/model_words.h"

enum lesson_fig {
	FIG_STEP, FIG_DEVICES, FIG_SENT, FIG_TRAIN_SENT, FIG_HELD, FIG_B, FIG_ROWS, FIG_COLS,
	FIG_COUNT
};

static const char *const lesson_fig_names[FIG_COUNT] = {
	[FIG_STEP] = "s", [FIG_DEVICES] = "n", [FIG_SENT] = "sent", [FIG_TRAIN_SENT] = "train_sent",
	[FIG_HELD] = "held", [FIG_B] = "B", [FIG_ROWS] = "rows", [FIG_COLS] = "cols",
};

static int lesson_fig_of(const char *name, size_t len)
{
	for (int i = 0; i < FIG_COUNT; i++)
		if (strlen(lesson_fig_names[i]) == len && memcmp(lesson_fig_names[i], name, len) == 0)
			return i;
	return -1;
}

int lesson_figure_known(const char *name, size_t len)
{
	return lesson_fig_of(name, len) >= 0;
}

/* "3, 2 and 2": the parts of len over n, numpy.array_split's. */
static void lesson_fig_split(size_t len, int n, char *buf, size_t size)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%zu",
				      i == 0 ? "" : i == n - 1 ? " and " : ", ", split_size(len, n, i));
}

/* The most of B each rank holds at once in FSDP's ring (the model's). */
static void lesson_fig_held(const struct lesson_at *at, char *buf, size_t size)
{
	struct dm_plan *p;
	int n = at->n;
	uint64_t *x = calloc((size_t)n, sizeof *x);
	if (!x || plan_make(&p, DM_FSDP, n, DM_FORWARD, NULL)) {
		free(x);
		snprintf(buf, size, "?");
		return;
	}
	for (int r = 0; r < n; r++) {
		struct model_fwd m;
		model_fwd_rank(p, r, at->M, at->K, at->N, &m);
		x[r] = m.b_peak;
	}
	modelw_shares(x, n, 8 * (uint64_t)at->K * at->N, model_even(p, at->N) ? n : 0, "B", buf,
		      size);
	plan_free(p);
	free(x);
}

int lesson_figure(const char *name, size_t len, const struct lesson_at *at, char *buf,
		  size_t size)
{
	int f = lesson_fig_of(name, len);
	if (f < 0 || (f > FIG_DEVICES && !at->plan))
		return -1;
	switch (f) {
	case FIG_STEP: snprintf(buf, size, "%d", at->step); break;
	case FIG_DEVICES: snprintf(buf, size, "%d", at->n); break;
	case FIG_SENT: modelw_ring_share(at->plan, at->M, at->K, at->N, buf, size); break;
	case FIG_TRAIN_SENT: modelw_train_share(at->plan, at->K, at->N, "B's size", buf, size); break;
	case FIG_HELD: lesson_fig_held(at, buf, size); break;
	case FIG_B: modelw_bytes(8 * (uint64_t)at->K * at->N, buf, size); break;
	case FIG_ROWS: lesson_fig_split(at->M, at->n, buf, size); break;
	case FIG_COLS: lesson_fig_split(at->N, at->n, buf, size); break;
	}
	return 0;
}
