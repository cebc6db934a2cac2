/* check_drills: --quiz=clock's and --quiz=tp's questions (app/practice/
 * drills.c) and their checks (qbank.c): a right answer of every question
 * passes and a wrong one fails; the crossover is right exactly between the
 * sweep's sizes around it, on every preset; the all-gather's time within
 * 5% and no further, in any unit; the interview's round still asks its
 * nine; the drill's keys and lines (app/tui/tui_drill.c) as a candidate
 * types them. */
#include <check.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include <distmm/cost.h>
#include <distmm/hw.h>
#include "interview/iv_questions.h"
#include "practice/drills.h"
#include "tui/tui_drill.h"
#include "testutil.h"

static struct qbank_ctx ctx_of(const char *preset, int n)
{
	struct qbank_ctx c = { .n = n };
	ck_assert_int_eq(hw_preset_find(preset, &c.hw, NULL), 0);
	return c;
}

static int check(int set, const char *name, const struct qbank_ctx *c, const char *answer,
		 char *msg, size_t size)
{
	for (int q = 0; q < drill_count(set); q++)
		if (strcmp(drill_row(set, q)->name, name) == 0)
			return qbank_check(drill_row(set, q), c, answer, msg, size);
	ck_abort_msg("no question '%s'", name);
	return -1;
}

/* every question of both sets: one right answer and one wrong, by name */
static const struct {
	int set;
	const char *name, *right, *wrong;
} answers[] = {
	{ DRILL_CLOCK, "all-reduce as reduce-scatter + all-gather", "2*S*(n-1)/n", "S*(n-1)/n" },
	{ DRILL_CLOCK, "all-reduce's bus bandwidth factor", "2*(n - 1)/n", "(n-1)/n" },
	{ DRILL_CLOCK, "ring against tree for a small message", "126", "12" },
	{ DRILL_CLOCK, "where the ring overtakes the tree", "3 MB", "64 KiB" },
	{ DRILL_CLOCK, "an all-gather's time", "89 us", "65 us" },
	{ DRILL_CLOCK, "what prefetch hides", "a", "b" },
	{ DRILL_TP, "tp-col: the columns rank r writes", "r * N // n", "r * n" },
	{ DRILL_TP, "tp-row: the rows of B rank r holds", "K/n*r", "r" },
	{ DRILL_TP, "tp-row: the bytes of its all-reduce", "16*M*N*(n-1)/n", "8*M*N*(n-1)/n" },
	{ DRILL_TP, "why the activation needs no message", "a", "b" },
	{ DRILL_TP, "tp-col's backward collective", "a", "g" },
	{ DRILL_TP, "a weight under tensor parallel", "8*K*N/t", "K*N/t" },
};

START_TEST(every_question_right_and_wrong)
{
	struct qbank_ctx c = ctx_of("h100-nvlink", 8);
	char msg[512];
	int asked[DRILL_SET_COUNT] = { 0 };
	for (size_t i = 0; i < sizeof answers / sizeof answers[0]; i++) {
		ck_assert_msg(check(answers[i].set, answers[i].name, &c, answers[i].right, msg,
				    sizeof msg) == QBANK_RIGHT,
			      "%s: %s: %s", answers[i].name, answers[i].right, msg);
		ck_assert_msg(check(answers[i].set, answers[i].name, &c, answers[i].wrong, msg,
				    sizeof msg) == QBANK_WRONG,
			      "%s: %s passed", answers[i].name, answers[i].wrong);
		ck_assert_msg(msg[0], "%s: a wrong answer says why", answers[i].name);
		asked[answers[i].set]++;
	}
	/* the table above holds every question a set asks */
	for (int s = 0; s < DRILL_SET_COUNT; s++)
		ck_assert_int_eq(asked[s], drill_count(s));
	ck_assert_ptr_null(drill_row(DRILL_TP, drill_count(DRILL_TP)));
	ck_assert_int_eq(drill_set_find("clock"), DRILL_CLOCK);
	ck_assert_int_eq(drill_set_find("tp"), DRILL_TP);
	ck_assert_int_eq(drill_set_find("derive"), -1);
}
END_TEST

START_TEST(factors_and_syntax_are_named)
{
	struct qbank_ctx c = ctx_of("h100-nvlink", 8);
	char msg[512];
	ck_assert_int_eq(check(DRILL_TP, "tp-row: the bytes of its all-reduce", &c, "M*N", msg,
			       sizeof msg),
			 QBANK_WRONG);
	ck_assert_msg(strstr(msg, "8 (the bytes of a float64)"), "%s", msg);
	ck_assert_int_eq(check(DRILL_CLOCK, "all-reduce's bus bandwidth factor", &c, "2*(n-1", msg,
			       sizeof msg),
			 QBANK_SYNTAX);
	ck_assert_msg(strstr(msg, "at column"), "%s", msg);
	ck_assert_int_eq(check(DRILL_CLOCK, "an all-gather's time", &c, "fast", msg, sizeof msg),
			 QBANK_SYNTAX);
	ck_assert_int_eq(check(DRILL_CLOCK, "an all-gather's time", &c, "89 GB", msg, sizeof msg),
			 QBANK_SYNTAX);
	ck_assert_msg(strstr(msg, "not a unit"), "%s", msg);
	ck_assert_int_eq(check(DRILL_TP, "why the activation needs no message", &c, "a1", msg,
			       sizeof msg),
			 QBANK_SYNTAX);
}
END_TEST

/* The crossover on every preset and several n: right from the sweep's size
 * below it to its own, wrong a step outside either side. */
START_TEST(the_crossover_within_the_sweeps_resolution)
{
	char msg[512], ans[64];
	for (int i = 0; i < hw_preset_count(); i++) {
		for (int n = 3; n <= 16; n += 5) {
			struct qbank_ctx c = { .n = n };
			ck_assert_int_eq(hw_preset_at(i, &c.hw), 0);
			int x = cost_crossover(&c.hw, CCL_ALLREDUCE, n);
			ck_assert_msg(x >= 0, "%s n=%d: the ring wins by 1 GiB", c.hw.name, n);
			double lo = x > 0 ? cost_sweep_size(x - 1) : 0, hi = cost_sweep_size(x);
			/* the two sides are the engine's: ring slower at lo, faster at hi */
			ck_assert(cost_ccl_s(&c.hw, CCL_ALLREDUCE, CCL_RING, n, hi) <
				  cost_ccl_s(&c.hw, CCL_ALLREDUCE, CCL_TREE, n, hi));
			if (x > 0)
				ck_assert(cost_ccl_s(&c.hw, CCL_ALLREDUCE, CCL_RING, n, lo) >=
					  cost_ccl_s(&c.hw, CCL_ALLREDUCE, CCL_TREE, n, lo));
			const char *name = "where the ring overtakes the tree";
			snprintf(ans, sizeof ans, "%.17g B", hi);
			ck_assert_int_eq(check(DRILL_CLOCK, name, &c, ans, msg, sizeof msg), QBANK_RIGHT);
			snprintf(ans, sizeof ans, "%.17g", (lo + hi) / 2);
			ck_assert_int_eq(check(DRILL_CLOCK, name, &c, ans, msg, sizeof msg), QBANK_RIGHT);
			snprintf(ans, sizeof ans, "%.17g kib", hi * 2.01 / 1024);
			ck_assert_int_eq(check(DRILL_CLOCK, name, &c, ans, msg, sizeof msg), QBANK_WRONG);
			ck_assert_msg(strstr(msg, "more than"), "%s", msg);
			if (x > 0) {
				snprintf(ans, sizeof ans, "%.17g", lo * 0.99);
				ck_assert_int_eq(check(DRILL_CLOCK, name, &c, ans, msg, sizeof msg),
						 QBANK_WRONG);
				ck_assert_msg(strstr(msg, "less than"), "%s", msg);
			}
		}
	}
}
END_TEST

START_TEST(the_allgather_within_five_percent)
{
	char msg[512], ans[64];
	const char *name = "an all-gather's time";
	for (int i = 0; i < hw_preset_count(); i++) {
		struct qbank_ctx c = { .n = 8 };
		ck_assert_int_eq(hw_preset_at(i, &c.hw), 0);
		double t = cost_ccl_s(&c.hw, CCL_ALLGATHER, CCL_RING, 8, 32.0 * 1024 * 1024) * 1e6;
		snprintf(ans, sizeof ans, "%.17g us", t * 1.049);
		ck_assert_int_eq(check(DRILL_CLOCK, name, &c, ans, msg, sizeof msg), QBANK_RIGHT);
		snprintf(ans, sizeof ans, "%.17g ms", t * 0.951 / 1000);
		ck_assert_int_eq(check(DRILL_CLOCK, name, &c, ans, msg, sizeof msg), QBANK_RIGHT);
		snprintf(ans, sizeof ans, "%.17g", t * 1.06);
		ck_assert_int_eq(check(DRILL_CLOCK, name, &c, ans, msg, sizeof msg), QBANK_WRONG);
		snprintf(ans, sizeof ans, "%.17g ns", t * 1000 * 0.94);
		ck_assert_int_eq(check(DRILL_CLOCK, name, &c, ans, msg, sizeof msg), QBANK_WRONG);
	}
	/* the scaling book's: alpha 0, 450 GB/s, 8 ranks: 65 us */
	struct qbank_ctx c = ctx_of("h100-nvlink", 8);
	c.hw.alpha_us = 0;
	ck_assert_int_eq(check(DRILL_CLOCK, name, &c, "65 us", msg, sizeof msg), QBANK_RIGHT);
}
END_TEST

START_TEST(the_interview_round_asks_its_nine)
{
	char msg[512];
	ck_assert_int_eq(ivq_count(), 9);
	ck_assert_int_eq(ivq_check(1, "2*S*(n-1)/n", msg, sizeof msg), IVQ_RIGHT);
	ck_assert_int_eq(ivq_check(3, "50000 MB", msg, sizeof msg), IVQ_RIGHT);
	ck_assert_int_eq(ivq_check(3, "40", msg, sizeof msg), IVQ_WRONG);
	ck_assert_str_eq(msg, "40 GB is not it: that is less than the answer");
	ck_assert_int_eq(ivq_check(5, "126", msg, sizeof msg), IVQ_RIGHT);
	ck_assert_int_eq(ivq_check(6, "pog", msg, sizeof msg), IVQ_RIGHT);
	ck_assert_int_eq(ivq_check(8, "8*K*N/t", msg, sizeof msg), IVQ_RIGHT);
	ck_assert_msg(strstr(ivq_text(8), "t GPUs"), "%s", ivq_text(8));
	ck_assert_msg(strstr(ivq_worked(1), "reduce-scatter"), "%s", ivq_worked(1));
}
END_TEST

static void type(struct drill *d, const char *s)
{
	for (; *s; s++)
		ck_assert_int_eq(drill_key(d, (unsigned char)*s), 0);
}

static int lines_have(const struct drill *d, int w, int h, const char *what)
{
	static struct iv_line l[96];
	int n = drill_lines(d, w, h, l, 96);
	ck_assert_int_le(n, h);
	for (int i = 0; i < n; i++) {
		ck_assert_int_le((int)strlen(l[i].text), w);
		if (strstr(l[i].text, what))
			return 1;
	}
	return 0;
}

START_TEST(the_drill_as_typed)
{
	struct qbank_ctx c = ctx_of("a100-nvlink", 8);
	struct drill d;
	drill_init(&d, DRILL_CLOCK, &c);
	ck_assert(lines_have(&d, 80, 24, "question 1 of 6"));
	ck_assert(lines_have(&d, 80, 24, "on a100-nvlink, n = 8"));
	type(&d, "S*(n-1)/n\n");
	ck_assert(!d.answered);
	ck_assert(lines_have(&d, 80, 24, "not yet:"));
	for (int i = 0; i < 9; i++)
		drill_key(&d, KEY_BACKSPACE);
	type(&d, "2*S*(n-1)/n\n");
	ck_assert(d.answered);
	ck_assert_int_eq(d.outcome[0], DRILL_RIGHT);
	ck_assert_int_eq(d.wrong[0], 1);
	ck_assert(lines_have(&d, 80, 24, "right."));
	type(&d, "\n"); /* on */
	ck_assert_int_eq(d.cur, 1);
	ck_assert_int_eq(drill_key(&d, '\t'), 0); /* shown */
	ck_assert_int_eq(d.outcome[1], DRILL_SHOWN);
	ck_assert(lines_have(&d, 80, 24, "counted as missed"));
	type(&d, "\n");
	while (d.cur < drill_count(DRILL_CLOCK)) {
		drill_key(&d, '\t');
		drill_key(&d, '\n');
	}
	ck_assert(lines_have(&d, 80, 24, "1 of 6 right"));
	char sum[512];
	drill_summary(&d, sum, sizeof sum);
	ck_assert_msg(strstr(sum, "--quiz=clock: 1 of 6 right; to practise: all-reduce's bus "
				  "bandwidth factor (shown)"), "%s", sum);
	ck_assert_int_eq(drill_key(&d, 'q'), 1);
	/* small screens: the lines stay inside */
	drill_init(&d, DRILL_TP, &c);
	for (int w = 20; w <= 200; w += 30)
		for (int h = 3; h <= 60; h += 19)
			(void)lines_have(&d, w, h, "");
}
END_TEST

static Suite *drills_suite(void)
{
	Suite *s = suite_create("drills");
	TCase *tc = tcase_create("questions");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, every_question_right_and_wrong);
	tcase_add_test(tc, factors_and_syntax_are_named);
	tcase_add_test(tc, the_crossover_within_the_sweeps_resolution);
	tcase_add_test(tc, the_allgather_within_five_percent);
	tcase_add_test(tc, the_interview_round_asks_its_nine);
	tcase_add_test(tc, the_drill_as_typed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(drills_suite());
}
