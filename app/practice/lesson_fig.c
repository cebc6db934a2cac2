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
	FIG_TP_SENT, FIG_COUNT
};

static const char *const lesson_fig_names[FIG_COUNT] = {
	[FIG_STEP] = "s", [FIG_DEVICES] = "n", [FIG_SENT] = "sent", [FIG_TRAIN_SENT] = "train_sent",
	[FIG_HELD] = "held", [FIG_B] = "B", [FIG_ROWS] = "rows", [FIG_COLS] = "cols",
	[FIG_TP_SENT] = "tp_sent",
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

/* What each rank of a tensor-parallel run sends (model_tp_rank's, the real
 * splits): "96 B each", or rank by rank when they differ ("rank 0 288 B,
 * the others 16 B" reads worse than a list when three differ). */
static void lesson_fig_tp_sent(const struct lesson_at *at, char *buf, size_t size)
{
	uint64_t first = 0, others = 0;
	int same = 1, n = at->n;
	size_t o = 0;
	char b[32];
	buf[0] = '\0';
	for (int r = 0; r < n; r++) {
		struct model_tp m;
		model_tp_rank(at->plan, r, at->M, at->K, at->N, &m);
		if (r == 0)
			first = m.sent;
		else if (r == 1)
			others = m.sent;
		else
			same &= m.sent == others;
	}
	if (n == 1 || (same && first == others)) {
		modelw_bytes(first, b, sizeof b);
		snprintf(buf, size, "%s each", b);
		return;
	}
	if (same) {
		modelw_bytes(first, b, sizeof b);
		o = (size_t)snprintf(buf, size, "rank 0 %s, ", b);
		modelw_bytes(others, b, sizeof b);
		snprintf(buf + (o < size ? o : size), o < size ? size - o : 0, "the others %s each", b);
		return;
	}
	for (int r = 0; r < n && o < size; r++) {
		struct model_tp m;
		model_tp_rank(at->plan, r, at->M, at->K, at->N, &m);
		modelw_bytes(m.sent, b, sizeof b);
		o += (size_t)snprintf(buf + o, size - o, "%srank %d %s", r ? ", " : "", r, b);
	}
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
	case FIG_TP_SENT: lesson_fig_tp_sent(at, buf, size); break;
	}
	return 0;
}
