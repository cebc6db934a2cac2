/* check_train_view: the training step's backward as the interface shows it,
 * without a terminal (issue 25, "The backward made visible").
 *  - train_parts: whose partials each chunk holds, said in words, and the
 *    sets' sizes the engine's own counts (db_fill) at every ring step, in
 *    both modes, with and without the backward's bugs;
 *  - real training views stepped through every backward stop and laid out
 *    as the screen lays them out (draw_prepare) at 120x40 and 200x60: the
 *    panels show dC's, dA's or dB's values, and in each view v cycles to;
 *    no label, line or formula is wider than its panel (nothing cut), at
 *    80x24 too;
 *  - the bugs: each backward stop's caption is the stop's own, the
 *    verification's overlay and the panels mark dB's wrong cells;
 *  - c's table agrees with the panels and the model; the dA formula's
 *    shape; the memory line's words; the first backward caption's bytes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/model.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "testutil.h"
#include "tui/draw_int.h"
#include "tui/layout.h"
#include "tui/modes/train.h"
#include "tui/modes/train_int.h"
#include "tui/modes/train_parts.h"
#include "practice/quiz.h"
#include "tui/view.h"

struct mats {
	struct mat a, b, dc;
};

static void mats_make(struct mats *m, size_t M, size_t K, size_t N)
{
	struct dm_err err;
	ck_assert_int_eq(mat_alloc(&m->a, M, K, &err), 0);
	ck_assert_int_eq(mat_alloc(&m->b, K, N, &err), 0);
	ck_assert_int_eq(mat_alloc(&m->dc, M, N, &err), 0);
	mat_fill(&m->a, MAT_VALUES_INTS, 1, 0);
	mat_fill(&m->b, MAT_VALUES_INTS, 1, 1);
	mat_fill(&m->dc, MAT_VALUES_INTS, 1, 2);
}

static void mats_free(struct mats *m)
{
	mat_free(&m->a);
	mat_free(&m->b);
	mat_free(&m->dc);
}

/* A training view of mode on n devices with bug, at ready. */
static void view_open(struct view *v, struct mats *m, int mode, int n, int bug)
{
	struct dm_err err;
	struct view_config cfg = { mode, n, RUN_UNBOUNDED, 0, bug, 0, 1, &m->dc, 0, 0, 0, NULL };
	ck_assert_msg(view_init(v, &m->a, &m->b, &cfg, 0, 0, &err) == 0, "%s", err.msg);
}

static int backward_stop(const struct view *v)
{
	return view_train_backward(v) || v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY;
}

/* --- train_parts */

START_TEST(sums_are_said_by_rank)
{
	char buf[256];
	tparts_words(0x0b, buf, sizeof buf);
	ck_assert_str_eq(buf, "p0+p1+p3");
	tparts_words(0x0f, buf, sizeof buf);
	ck_assert_str_eq(buf, "p0..p3");
	tparts_words(0x27, buf, sizeof buf);
	ck_assert_str_eq(buf, "p0..p2+p5");
	tparts_words(0x03, buf, sizeof buf);
	ck_assert_str_eq(buf, "p0+p1");
	tparts_words(0x10, buf, sizeof buf);
	ck_assert_str_eq(buf, "p4");
	tparts_words(0, buf, sizeof buf);
	ck_assert_str_eq(buf, "no part");
	tparts_words(~(tparts_set)0, buf, sizeof buf);
	ck_assert_str_eq(buf, "p0..p63");
	tparts_words((tparts_set)1 << 63 | 1, buf, sizeof buf);
	ck_assert_str_eq(buf, "p0+p63");
	ck_assert_int_eq(tparts_count(0x0b), 3);
	tparts_set out[4];
	ck_assert_int_eq(tparts_after(0, BUG_NONE, 0, 0, out), -1);
	ck_assert_int_eq(tparts_after(2, BUG_NONE, 2, 0, out), -1); /* one step too many */
	ck_assert_int_eq(tparts_after(TPARTS_MAX + 1, BUG_NONE, 0, 0, out), -1);
}
END_TEST

/* The rings' ends, as bug.h says them. */
START_TEST(the_rings_end_where_the_rules_say)
{
	static tparts_set s[TPARTS_MAX * TPARTS_MAX];
	for (int n = 2; n <= 9; n++) {
		tparts_set all = ((tparts_set)1 << n) - 1;
		ck_assert_int_eq(tparts_after(n, BUG_NONE, n - 1, 0, s), 0);
		for (int r = 0; r < n; r++)
			ck_assert_msg(s[r * n + r] == all, "n=%d: chunk %d on rank %d", n, r, r);
		ck_assert_int_eq(tparts_after(n, BUG_NONE, n - 1, n - 1, s), 0);
		for (int i = 0; i < n * n; i++)
			ck_assert(s[i] == all); /* the all-reduce: every chunk everywhere */
		/* rs-off-by-one: every chunk's sum on the rank to its left, rank r
		 * keeps its own part of chunk r alone */
		ck_assert_int_eq(tparts_after(n, BUG_RS_OFF_BY_ONE, n - 1, 0, s), 0);
		for (int r = 0; r < n; r++) {
			int left = (r + n - 1) % n;
			ck_assert(s[r * n + r] == (tparts_set)1 << r);
			ck_assert(s[left * n + r] == all);
		}
		/* no-sum: every chunk one rank's partial */
		ck_assert_int_eq(tparts_after(n, BUG_NO_SUM, n - 1, 0, s), 0);
		for (int r = 0; r < n; r++)
			ck_assert_int_eq(tparts_count(s[r * n + r]), 1);
	}
}
END_TEST

/* Every set's size is the engine's count of the parts, at every step of
 * the ring, both modes, each backward bug (the chunks a rank still holds:
 * FSDP's own once it keeps it). */
START_TEST(the_sets_are_the_engines_counts)
{
	static const int bugs[3] = { BUG_NONE, BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	struct mats m;
	mats_make(&m, 9, 5, 7);
	for (int mode = 0; mode < 2; mode++)
		for (int b = 0; b < 3; b++)
			for (int n = 2; n <= 6; n++) {
				struct view v;
				view_open(&v, &m, mode, n, bugs[b]);
				for (int stop = 0; stop < v.phase_count; stop++) {
					view_next(&v, 0);
					int rs = v.kind == SCHED_REDUCE_SCATTER, ag = v.kind == SCHED_ALL_GATHER;
					if (!rs && !ag && v.kind != SCHED_DB_PARTIAL)
						continue;
					static tparts_set s[TPARTS_MAX * TPARTS_MAX];
					ck_assert_int_eq(tparts_after(n, bugs[b], rs ? v.step + 1 : ag ? n - 1 : 0,
								      ag ? v.step + 1 : 0, s),
							 0);
					for (int r = 0; r < n; r++)
						for (int c = 0; c < n; c++) {
							int kept = v.snap.dev[r].db_chunk >= 0;
							int fill = view_train_chunk_fill(&v, r, c);
							if (fill < 0 || (kept && c != r))
								continue; /* empty, or let go */
							ck_assert_msg(tparts_count(s[r * n + c]) == fill,
								      "%s %s n=%d stop %d rank %d chunk %d: %d parts, "
								      "the engine %d",
								      plan_mode_name(mode), bug_name(bugs[b]), n, stop,
								      r, c, tparts_count(s[r * n + c]), fill);
						}
				}
				view_free(&v);
			}
	mats_free(&m);
}
END_TEST

/* --- the stops on screen */

/* Rank r's plan inside its panel at the stop, as draw_all makes it. */
static struct layout_plan stop_plan(const struct draw_ctx *d, int r)
{
	struct layout_plan pl = d->l.plan[r];
	if (d->replan)
		layout_plan_panel(&d->req_now, pl.level, d->l.panel[r].w - 2, d->l.panel[r].h - 2,
				  &pl);
	return pl;
}

static const struct layout_sect *sect_of(const struct layout_plan *pl, int slot)
{
	return slot == 0 ? &pl->c : slot == 1 ? &pl->a : &pl->b;
}

/* The stop's panels: nothing wider than its panel, and values of dC, dA
 * or dB (a block the mode says, held, with columns) on every FULL one. */
static void check_stop(struct view *v, int cols, int rows, const char *what, int want_values)
{
	struct draw_ctx d;
	draw_prepare(&d, v, cols, rows, 0);
	ck_assert_msg(d.l.ok, "%s: %dx%d does not fit", what, cols, rows);
	for (int r = 0; r < v->snap.n; r++) {
		if (d.l.panel[r].w <= 0)
			continue;
		struct layout_plan pl = stop_plan(&d, r);
		int w = d.l.panel[r].w - 2, values = 0, any = 0;
		char buf[512];
		view_panel_line(v, r, w, buf, sizeof buf);
		ck_assert_msg((int)strlen(buf) <= w, "%s rank %d: line '%s' in %d", what, r, buf, w);
		if (pl.level != LAYOUT_FULL)
			continue;
		view_formula(v, r, 0, buf, sizeof buf);
		if ((int)strlen(buf) > w)
			view_formula(v, r, 1, buf, sizeof buf);
		ck_assert_msg((int)strlen(buf) <= w, "%s rank %d: formula '%s' in %d", what, r, buf,
			      w);
		for (int slot = 0; slot < 3; slot++) {
			struct view_block b;
			const struct layout_sect *sc = sect_of(&pl, slot);
			if (!sc->on || !view_block(v, r, slot, &b))
				continue;
			any = 1;
			ck_assert_msg((int)strlen(b.brief) <= w ||
					      (int)strlen(b.label) <= w,
				      "%s rank %d: '%s' ('%s') in %d", what, r, b.label, b.brief, w);
			int shown = sc->cell > 0 && sc->rows > 0 && sc->cols > 0;
			/* v: the one block shown has its values, whatever it is */
			if (want_values && v->show != LAYOUT_SHOW_ALL && b.data && b.rows && b.cols)
				ck_assert_msg(shown, "%s rank %d at %dx%d: %s without values", what, r,
					      cols, rows, b.label);
			if (b.data && b.rows && b.cols && shown && b.name[0] == 'd')
				values = 1; /* dA's, dB's or dC's */
		}
		if (want_values && any && v->show == LAYOUT_SHOW_ALL)
			ck_assert_msg(values, "%s rank %d at %dx%d: no values of dC, dA or dB", what, r,
				      cols, rows);
	}
}

static const int shapes[][4] = { { 4, 8, 6, 4 }, { 3, 8, 6, 4 }, { 1, 8, 6, 4 }, { 8, 16, 8, 16 },
				 { 3, 7, 5, 9 } };
#define NSHAPES ((int)(sizeof shapes / sizeof shapes[0]))

START_TEST(every_backward_stop_shows_values_and_cuts_nothing)
{
	static const int sizes[3][2] = { { 120, 40 }, { 200, 60 }, { 80, 24 } };
	const int *sh = shapes[_i / 2];
	int mode = _i % 2, n = sh[0];
	struct mats m;
	mats_make(&m, (size_t)sh[1], (size_t)sh[2], (size_t)sh[3]);
	for (int bug = 0; bug < 3; bug++) {
		static const int bugs[3] = { BUG_NONE, BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
		struct view v;
		if (bug && n < 2)
			continue;
		view_open(&v, &m, mode, n, bugs[bug]);
		for (int stop = 0; stop <= v.phase_count; stop++) {
			view_next(&v, 0);
			if (!backward_stop(&v))
				continue;
			for (int show = 0; show < LAYOUT_SHOWS; show++) {
				char what[96];
				v.show = show;
				snprintf(what, sizeof what, "%s d=%d %s stop %d (%s) v=%d",
					 plan_mode_name(mode), n, bug_name(bugs[bug]), stop,
					 view_phase_name(&v), show);
				/* values wherever a rank has its rows (8 devices at 120x40
				 * are MEDIUM panels: no values there to ask for) */
				for (int s = 0; s < 3; s++)
					check_stop(&v, sizes[s][0], sizes[s][1], what,
						   s < 2 && (size_t)n <= m.a.rows && (n <= 4 || s == 1));
			}
			v.show = 0;
		}
		view_free(&v);
	}
	mats_free(&m);
}
END_TEST

/* With a backward bug, every stop between ready and the end says what
 * the stop is, word for word as the correct run's; at the end dB's wrong
 * cells are counted and marked, dA and C verified. */
START_TEST(the_bugs_are_shown_where_they_are)
{
	static const int bugs[2] = { BUG_RS_OFF_BY_ONE, BUG_NO_SUM };
	int mode = _i % 2, bug = bugs[_i / 2], n = 4;
	struct mats m;
	struct view ok, bad;
	struct mat ref;
	struct dm_err err;
	mats_make(&m, 8, 6, 4);
	ck_assert_int_eq(mat_matmul_tn(&ref, &m.a, &m.dc, &err), 0);
	view_open(&ok, &m, mode, n, BUG_NONE);
	view_open(&bad, &m, mode, n, bug);
	for (int stop = 0; stop < ok.phase_count; stop++) {
		char a[1024], b[1024];
		view_next(&ok, 0);
		view_next(&bad, 0);
		view_caption(&ok, a, sizeof a);
		view_caption(&bad, b, sizeof b);
		ck_assert_msg(strcmp(a, b) == 0, "stop %d (%s): '%s', not '%s'", stop,
			      view_phase_name(&bad), b, a);
	}
	view_next(&bad, 0);
	ck_assert(bad.finished);
	ck_assert_int_eq(bad.verdict, VIEW_MISMATCH);
	/* the overlay: dB with its wrong cells, dA and C verified */
	struct view_block res;
	size_t wrong = 0;
	for (size_t i = 0; i < ref.rows * ref.cols; i++)
		wrong += !mat_close(bad.snap.db_result[i], ref.data[i]);
	ck_assert(wrong > 0);
	ck_assert(view_result(&bad, 0, &res));
	char want[96];
	snprintf(want, sizeof want, "MISMATCH, %zu of %zu differ", wrong, ref.rows * ref.cols);
	ck_assert_msg(strstr(res.label, "dB = A^T @ dC") && strstr(res.label, want), "'%s'",
		      res.label);
	ck_assert_ptr_nonnull(res.ref);
	ck_assert(view_result(&bad, 1, &res) && strstr(res.label, "dA = dC @ B^T on rank 0: verified"));
	ck_assert(view_result(&bad, 2, &res) && strstr(res.label, "C = A @ B on rank 0: verified"));
	/* the panels: every rank's dB held to A^T @ dC, the marks counted */
	size_t marked = 0;
	for (int r = 0; r < n; r++) {
		struct view_block b;
		ck_assert(view_block(&bad, r, 0, &b));
		ck_assert_ptr_nonnull(b.ref);
		for (size_t i = 0; i < b.rows; i++)
			for (size_t j = 0; j < b.cols; j++)
				marked += !mat_close(b.data[i * b.ld + j], b.ref[i * b.ref_ld + j]);
	}
	ck_assert(marked > 0);
	char line[512];
	view_verify_line(&bad, line, sizeof line);
	ck_assert_msg(strstr(line, "MISMATCH in dB") && strstr(line, "marked !"), "'%s'", line);
	view_caption(&bad, line, sizeof line);
	ck_assert_msg(strstr(line, "marked ! differ from A^T @ dC"), "'%s'", line);
	view_free(&ok);
	view_free(&bad);
	mat_free(&ref);
	mats_free(&m);
}
END_TEST

/* c in a training step: each rank's figures now are its panel's, and at
 * the end the model's for the run's mode. */
START_TEST(the_memory_table_agrees_with_the_panels)
{
	int mode = _i % 2, n = 3 + _i / 2;
	struct mats m;
	struct view v;
	static struct view_memtab t;
	struct dm_plan *p = tu_plan(mode, n, DM_TRAIN);
	mats_make(&m, 8, 6, 4);
	view_open(&v, &m, mode, n, BUG_NONE);
	view_goto(&v, v.phase_count, 0);
	ck_assert(v.finished);
	ck_assert(view_memory_table(&v, &t));
	ck_assert_int_eq(t.n_rows, n + 1);
	for (int r = 0; r < n; r++) {
		struct model_train mt;
		char peak[24], sent[24];
		model_train_rank(p, 8, 6, 4, r, &mt);
		view_bytes(v.snap.dev[r].peak_bytes, peak, sizeof peak);
		view_bytes(v.snap.dev[r].sent_bytes, sent, sizeof sent);
		ck_assert_str_eq(t.cell[r][1], peak);
		ck_assert_str_eq(t.cell[r][2], sent);
		ck_assert_uint_eq(v.snap.dev[r].peak_bytes, mt.peak);
		ck_assert_uint_eq(v.snap.dev[r].sent_bytes, mt.ring_sent + mt.gather_sent);
		view_bytes(mt.fwd_peak, peak, sizeof peak);
		view_bytes(mt.ring_sent + mt.gather_sent, sent, sizeof sent);
		ck_assert_str_eq(t.cell[r][3], peak); /* the run's own mode first */
		ck_assert_str_eq(t.cell[r][5], sent);
	}
	plan_free(p);
	view_free(&v);
	mats_free(&m);
}
END_TEST

/* The formula's shape, the memory line's words, the first backward
 * caption's bytes against the memory line's. */
START_TEST(the_words_say_what_the_numbers_are)
{
	struct mats m;
	struct view v;
	char buf[1024], want[256];
	mats_make(&m, 8, 6, 4);
	view_open(&v, &m, DM_FSDP, 4, BUG_NONE);
	int b0 = sched_first_phase(v.plan, SCHED_BWD_COMPUTE);
	view_goto(&v, b0, 0);
	/* t=0: what rank 1 let go and what came, in the model's bytes, and the
	 * memory line's peak is what it holds now */
	int count = sched_phase_count(v.plan);
	uint64_t *held = calloc((size_t)count, sizeof *held);
	char h0[24], h1[24], h2[24], add[24];
	ck_assert_int_eq(model_train_phases(v.plan, 8, 6, 4, 1, NULL, held), count);
	view_bytes(held[b0 - 2], h0, sizeof h0);
	view_bytes(held[b0 - 1], h1, sizeof h1);
	view_bytes(held[b0], h2, sizeof h2);
	view_bytes(held[b0] - held[b0 - 1], add, sizeof add);
	ck_assert(held[b0 - 1] < held[b0 - 2] && held[b0] > held[b0 - 1]);
	ck_assert_uint_eq(v.snap.dev[1].held_bytes, held[b0]);
	view_caption(&v, buf, sizeof buf);
	snprintf(want, sizeof want, "dropped from %s to %s", h0, h1);
	ck_assert_msg(strstr(buf, want), "'%s' lacks '%s'", buf, want);
	snprintf(want, sizeof want, "+%s: %s held", add, h2);
	ck_assert_msg(strstr(buf, want), "'%s' lacks '%s'", buf, want);
	view_mem_text(&v, 1, 80, buf, sizeof buf);
	ck_assert_msg(strncmp(buf, h2, strlen(h2)) == 0, "'%s' is not %s", buf, h2);
	free(held);
	/* t=1: rank 1 holds B[0] and adds dC's rows 2:4, columns 0:1 */
	view_goto(&v, b0 + 2, 0);
	view_formula(&v, 1, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "(1-1) mod 4 = 0 -> dA[2:4] += dC[2:4, 0:1] @ B0^T");
	/* the reduce-scatter: the other mode's peak by its own step, in words */
	view_goto(&v, sched_first_phase(v.plan, SCHED_REDUCE_SCATTER), 0);
	view_mem_text(&v, 1, 80, buf, sizeof buf);
	ck_assert_msg(strstr(buf, "by its reduce-scatter s=0") && !strstr(buf, "rs s="), "'%s'", buf);
	view_panel_line(&v, 1, 80, buf, sizeof buf);
	ck_assert_str_eq(buf, "dB[3] = p0+p1, 2 of 4; sent dB[0] = p1");
	view_panel_line(&v, 1, 12, buf, sizeof buf);
	ck_assert_str_eq(buf, "dB3=p0+p1"); /* 80x24's: the chunk still named */
	view_goto(&v, sched_first_phase(v.plan, SCHED_DB_PARTIAL), 0);
	view_panel_line(&v, 0, 80, buf, sizeof buf);
	ck_assert_str_eq(buf, "partial dB_0 = p0: 1 of 4 parts in every chunk");
	view_free(&v);
	mats_free(&m);
}
END_TEST

/* With the quiz's question open on the next reduce-scatter step, the
 * blocks say no chunk and no sum: the chunk that came is the one sent next. */
START_TEST(a_question_hides_the_chunks)
{
	struct mats m;
	struct view v;
	mats_make(&m, 8, 6, 4);
	view_open(&v, &m, DM_FSDP, 4, BUG_NONE);
	view_goto(&v, sched_first_phase(v.plan, SCHED_REDUCE_SCATTER), 0);
	view_toggle_quiz(&v);
	view_next(&v, 0); /* asks about the next step instead of going there */
	ck_assert(quiz_open(&v.quiz));
	ck_assert_int_eq(v.kind, SCHED_REDUCE_SCATTER);
	for (int r = 0; r < 4; r++)
		for (int slot = 0; slot < 3; slot++) {
			struct view_block b;
			ck_assert(view_block(&v, r, slot, &b));
			ck_assert_msg(!strchr(b.label, 'p') || slot == 2, "'%s'", b.label);
			ck_assert_msg(slot == 2 || strstr(b.label, "dB[:, ?]"), "'%s'", b.label);
			ck_assert_msg(!strstr(b.label, "chunks") && b.hot0 == b.hot1, "'%s'", b.label);
		}
	view_free(&v);
	mats_free(&m);
}
END_TEST

static Suite *train_view_suite(void)
{
	Suite *s = suite_create("train_view");
	TCase *tc = tcase_create("parts");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sums_are_said_by_rank);
	tcase_add_test(tc, the_rings_end_where_the_rules_say);
	tcase_add_test(tc, the_sets_are_the_engines_counts);
	suite_add_tcase(s, tc);
	tc = tcase_create("screen");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, every_backward_stop_shows_values_and_cuts_nothing, 0, 2 * NSHAPES);
	tcase_add_loop_test(tc, the_bugs_are_shown_where_they_are, 0, 4);
	tcase_add_loop_test(tc, the_memory_table_agrees_with_the_panels, 0, 4);
	tcase_add_test(tc, the_words_say_what_the_numbers_are);
	tcase_add_test(tc, a_question_hides_the_chunks);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(train_view_suite());
}
