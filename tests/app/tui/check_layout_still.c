/* check_layout_still: the screen holds still, on real runs, without a
 * terminal.  For every size the issue names and 1, 3, 4, 8 and 16 devices,
 * a view of FSDP, DP, each one's training step and the deadlock lab is
 * stepped through every stop of its run (the verification too) and laid
 * out as the screen lays it out (draw_prepare: the real request, the real
 * words): every panel, its plan and the table are where they were at ready,
 * at every stop; so they are with the worked cell open at 80x24, which
 * must not shrink them to marks.  check_layout holds the layout's side of
 * it (what a run keeps, whatever a stop says). */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "tui/draw_int.h"
#include "tui/layout.h"
#include "tui/view.h"
#include <distmm/order.h>
#include "testutil.h"

static const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 200, 60 } };
static const int counts[] = { 1, 3, 4, 8, 16 };
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

/* The runs stepped: mode, training step, order, capacity, the lab. */
static const struct {
	const char *name;
	int mode, train, order, lab;
	size_t capacity;
} runs[] = {
	{ "FSDP", DM_FSDP, 0, ORDER_PARITY, 0, RUN_UNBOUNDED },
	{ "DP", DM_DP, 0, ORDER_PARITY, 0, RUN_UNBOUNDED },
	{ "FSDP --train", DM_FSDP, 1, ORDER_PARITY, 0, RUN_UNBOUNDED },
	{ "DP --train", DM_DP, 1, ORDER_PARITY, 0, RUN_UNBOUNDED },
	{ "--naive --capacity 0", DM_FSDP, 0, ORDER_SEND_FIRST, 1, 0 },
};
#define NRUNS ((int)(sizeof runs / sizeof runs[0]))

static struct draw_ctx at_ready, now; /* large: not on the stack */

static void same_place(const char *what, int stop)
{
	const struct layout *a = &at_ready.l, *b = &now.l;
	ck_assert_msg(a->ok == b->ok, "%s, stop %d: fits %d at ready, %d here", what, stop, a->ok,
		      b->ok);
	if (!a->ok)
		return;
	for (int r = 0; r < a->n; r++)
		ck_assert_msg(memcmp(&a->panel[r], &b->panel[r], sizeof a->panel[r]) == 0 &&
				      memcmp(&a->plan[r], &b->plan[r], sizeof a->plan[r]) == 0,
			      "%s, stop %d: rank %d's panel %dx%d at (%d,%d) at ready, %dx%d at (%d,%d) "
			      "here (levels %d, %d)", what, stop, r, a->panel[r].w, a->panel[r].h,
			      a->panel[r].x, a->panel[r].y, b->panel[r].w, b->panel[r].h, b->panel[r].x,
			      b->panel[r].y, a->plan[r].level, b->plan[r].level);
	ck_assert_msg(memcmp(&a->table, &b->table, sizeof a->table) == 0, "%s, stop %d: the table",
		      what, stop);
}

START_TEST(the_panels_hold_still_at_every_stop)
{
	int s = _i / NCOUNTS, n = counts[_i % NCOUNTS], cols = sizes[s][0], rows = sizes[s][1];
	struct mat a, b, dc;
	tu_matrix(&a, 8, 6, 0, 1, 0);
	tu_matrix(&b, 6, 4, 0, 1, 1);
	tu_matrix(&dc, 8, 4, 0, 1, 2);
	for (int k = 0; k < NRUNS; k++) {
		static struct view v;
		struct dm_err err;
		char what[96];
		struct view_config cfg = { runs[k].mode, n, runs[k].capacity, runs[k].order, 0,
					   runs[k].lab, runs[k].train, &dc, 0, 0, 0, NULL };
		snprintf(what, sizeof what, "%s on %d at %dx%d", runs[k].name, n, cols, rows);
		ck_assert_msg(view_init(&v, &a, &b, &cfg, 0, 0, &err) == 0, "%s: %s", what, err.msg);
		draw_prepare(&at_ready, &v, cols, rows, 0);
		int stops = 0;
		for (int stop = 0; stop <= v.phase_count; stop++) {
			view_goto(&v, stop, 0);
			if (v.stop != stop && !v.failed)
				break;
			draw_prepare(&now, &v, cols, rows, 0);
			same_place(what, stop);
			stops++;
			/* the worked cell opened over a compute: the panels stay */
			if (v.kind == SCHED_COMPUTE && !v.cell_on) {
				view_cell_toggle(&v);
				draw_prepare(&now, &v, cols, rows, 0);
				same_place(what, stop);
				view_cell_toggle(&v);
			}
			if (v.failed)
				break;
		}
		/* every stop was seen (the lab's run ends at its deadlock) */
		ck_assert_msg(stops >= (runs[k].lab && n > 1 ? 1 : v.phase_count + 1), "%s: %d stops",
			      what, stops);
		view_free(&v);
	}
	mat_free(&a);
	mat_free(&b);
	mat_free(&dc);
}
END_TEST

/* The worked cell at 80x24 keeps the panels as they are, values and all:
 * its words take the caption's lines, not the panels'. */
START_TEST(the_worked_cell_at_80x24_keeps_the_values)
{
	struct mat a, b;
	static struct view v;
	struct dm_err err;
	tu_matrix(&a, 8, 6, 0, 1, 0);
	tu_matrix(&b, 6, 4, 0, 1, 1);
	struct view_config cfg = { DM_FSDP, 4, RUN_UNBOUNDED, ORDER_PARITY, 0, 0, 0, NULL, 0, 0, 0, NULL };
	ck_assert_int_eq(view_init(&v, &a, &b, &cfg, 0, 0, &err), 0);
	view_goto(&v, 0, 0);
	view_cell_toggle(&v);
	draw_prepare(&now, &v, 80, 24, 0);
	ck_assert(now.l.ok);
	ck_assert_int_eq(now.l.plan[0].level, LAYOUT_FULL);
	ck_assert_int_gt(now.l.plan[0].c.cell, 0); /* values, not marks */
	/* and the cell's sum is on screen whole, ending with the step it names */
	ck_assert_int_ge(now.cell_para, 0);
	ck_assert(now.para_shown[now.cell_para]);
	ck_assert_msg(strstr(now.para[now.cell_para], "mod 4 = 0."), "%s", now.para[now.cell_para]);
	view_free(&v);
	mat_free(&a);
	mat_free(&b);
}
END_TEST

static Suite *still_suite(void)
{
	Suite *s = suite_create("layout still");
	TCase *tc = tcase_create("every stop of a run");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, the_panels_hold_still_at_every_stop, 0, NSIZES * NCOUNTS);
	tcase_add_test(tc, the_worked_cell_at_80x24_keeps_the_values);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(still_suite());
}
