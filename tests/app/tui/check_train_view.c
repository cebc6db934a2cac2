/* check_train_view: the training step's backward as the interface shows it,
 * without a terminal (issue 25, "The backward made visible").
 *  - train_parts: whose partials each chunk holds, said in words, and the
 *    sets' sizes the engine's own counts (db_fill) at every ring step, in
 *    both modes, with and without the backward's bugs. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "testutil.h"
#include "tui/modes/train_parts.h"
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
	struct view_config cfg = { mode, n, RUN_UNBOUNDED, 0, bug, 0, 1, &m->dc };
	ck_assert_msg(view_init(v, &m->a, &m->b, &cfg, 0, 0, &err) == 0, "%s", err.msg);
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

static Suite *train_view_suite(void)
{
	Suite *s = suite_create("train_view");
	TCase *tc = tcase_create("parts");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, sums_are_said_by_rank);
	tcase_add_test(tc, the_rings_end_where_the_rules_say);
	tcase_add_test(tc, the_sets_are_the_engines_counts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(train_view_suite());
}
