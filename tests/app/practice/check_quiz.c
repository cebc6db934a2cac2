/* check_quiz: the quiz's questions, answers and explanations; level 1's
 * ranks at random without repeats; skipping a question. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "practice/quiz.h"
#include <distmm/run.h>
#include <distmm/schedule.h>
#include "testutil.h"

static struct quiz z;

START_TEST(shard_answers_and_the_c_mod_hint)
{
	struct quiz_question q = { QUIZ_SHARD, 1, 3, 4, 8, 4 };
	char e[256];
	ck_assert_int_eq(quiz_check(&q, "2", e, sizeof e), 1);
	ck_assert_str_eq(e, "right: (1 - 3) mod 4 = 2");
	ck_assert_int_eq(quiz_check(&q, "-2", e, sizeof e), 0);
	ck_assert_msg(strstr(e, "wrong: (1 - 3) mod 4 = 2") && strstr(e, "C's %"), "%s", e);
	ck_assert_int_eq(quiz_check(&q, "3", e, sizeof e), 0);
	ck_assert_msg(!strstr(e, "C's %"), "%s", e);
	ck_assert_int_eq(quiz_check(&q, "", e, sizeof e), -1);
	ck_assert_int_eq(quiz_check(&q, "1:2", e, sizeof e), -1);
}
END_TEST

START_TEST(columns_neighbours_and_dp)
{
	char e[256];
	struct quiz_question cols = { QUIZ_COLS, 0, 1, 3, 7, 5 }; /* shard 2: columns 4:5 */
	ck_assert_int_eq(quiz_check(&cols, "4:5", e, sizeof e), 1);
	ck_assert_int_eq(quiz_check(&cols, "2:3", e, sizeof e), 0);
	ck_assert_msg(strstr(e, "columns 4:5"), "%s", e);
	ck_assert_int_eq(quiz_check(&cols, "4", e, sizeof e), -1);
	struct quiz_question to = { QUIZ_SEND_TO, 3, 0, 4, 8, 4 };
	ck_assert_int_eq(quiz_check(&to, "0", e, sizeof e), 1);
	ck_assert_int_eq(quiz_check(&to, "4", e, sizeof e), 0);
	ck_assert_msg(strstr(e, "wraps"), "%s", e);
	struct quiz_question from = { QUIZ_RECV_FROM, 0, 0, 4, 8, 4 };
	ck_assert_int_eq(quiz_check(&from, "3", e, sizeof e), 1);
	ck_assert_int_eq(quiz_check(&from, "-1", e, sizeof e), 0);
	ck_assert_msg(strstr(e, "last rank"), "%s", e);
	struct quiz_question rows = { QUIZ_DP_ROWS, 2, 0, 3, 7, 4 }; /* 3,2,2: rows 5:7 */
	ck_assert_int_eq(quiz_check(&rows, "5:7", e, sizeof e), 1);
	struct quiz_question g = { QUIZ_DP_GATHER, 2, 0, 3, 7, 4 };
	ck_assert_int_eq(quiz_check(&g, "0", e, sizeof e), 1);
}
END_TEST

START_TEST(flow_and_score)
{
	quiz_init(&z, 1, 1, 7);
	quiz_prepare(&z, DM_FSDP, SCHED_COMPUTE, 1, 2, 4, 8, 4);
	ck_assert_int_eq(z.nq, 2); /* shard, then columns, for one rank */
	ck_assert(quiz_waiting(&z));
	int r = z.q[0].rank;
	ck_assert(quiz_hides(&z, r));
	/* the ranks not asked about too: their formula is the answer's with another r */
	ck_assert(quiz_hides(&z, (r + 1) % 4));
	char answer[8];
	snprintf(answer, sizeof answer, "%d", sched_shard(4, r, 1));
	for (const char *c = answer; *c; c++)
		quiz_type(&z, *c);
	quiz_type(&z, 'x'); /* not part of an answer */
	ck_assert_str_eq(z.input, answer);
	quiz_submit(&z);
	ck_assert(z.revealed && z.correct);
	ck_assert_int_eq(quiz_advance(&z), 1);
	quiz_type(&z, '9');
	quiz_backspace(&z);
	quiz_type(&z, '0');
	quiz_type(&z, ':');
	quiz_type(&z, '0');
	quiz_submit(&z);
	ck_assert(z.revealed && !z.correct);
	for (int i = 0; i < 4; i++) /* the last one revealed: nothing left to hide */
		ck_assert(!quiz_hides(&z, i));
	ck_assert_int_eq(quiz_advance(&z), 0);
	ck_assert(!quiz_open(&z));
	ck_assert_int_eq(z.right, 1);
	ck_assert_int_eq(z.asked, 2);
	/* level 2 asks every rank; FSDP's gather asks nothing */
	quiz_init(&z, 1, 2, 7);
	quiz_prepare(&z, DM_FSDP, SCHED_TRANSFER, 0, 1, 8, 8, 8);
	ck_assert_int_eq(z.nq, 8);
	for (int i = 0; i < 8; i++)
		ck_assert(quiz_hides(&z, i));
	quiz_prepare(&z, DM_FSDP, SCHED_GATHER, 7, 15, 8, 8, 8);
	ck_assert_int_eq(z.nq, 0);
	quiz_prepare(&z, DM_DP, SCHED_GATHER, 0, 1, 8, 8, 8);
	ck_assert_int_eq(z.nq, 1);
}
END_TEST

/* The ranks level 1 asks about over `count` phases from seed. */
static void draws(uint64_t seed, int n, int count, int *out)
{
	quiz_init(&z, 1, 1, seed);
	for (int p = 0; p < count; p++) {
		quiz_prepare(&z, DM_FSDP, p % 2 ? SCHED_TRANSFER : SCHED_COMPUTE, p / 2, p, n, 8, 8);
		ck_assert_int_ge(z.nq, 1);
		out[p] = z.q[0].rank;
		for (int i = 1; i < z.nq; i++) /* one rank a phase */
			ck_assert_int_eq(z.q[i].rank, out[p]);
	}
}

START_TEST(level_1_picks_ranks_at_random_without_repeats)
{
	enum { COUNT = 120 };
	int got[COUNT], again[COUNT];
	for (int n = 1; n <= 9; n++) {
		draws(3, n, COUNT, got);
		for (int p = 0; p < COUNT; p++) {
			ck_assert(got[p] >= 0 && got[p] < n);
			if (p > 0 && n > 1)
				ck_assert_msg(got[p] != got[p - 1], "n=%d: rank %d twice in a row at %d",
					      n, got[p], p);
		}
		/* every n draws from the first are every rank once */
		for (int b = 0; b + n <= COUNT; b += n) {
			int seen[16] = { 0 };
			for (int p = b; p < b + n; p++)
				ck_assert_msg(!seen[got[p]]++, "n=%d: rank %d again before all", n, got[p]);
		}
		/* the same seed asks the same; another seed, another order */
		draws(3, n, COUNT, again);
		ck_assert(memcmp(got, again, sizeof got) == 0);
		if (n >= 4) {
			draws(4, n, COUNT, again);
			ck_assert(memcmp(got, again, sizeof got) != 0);
		}
	}
	/* not the old fixed walk: at n = 4 the first bag is not 0 1 2 3 for every seed */
	int differs = 0;
	for (uint64_t seed = 1; seed <= 8; seed++) {
		draws(seed, 4, 4, got);
		differs |= got[0] != 0 || got[1] != 1 || got[2] != 2;
	}
	ck_assert(differs);
}
END_TEST

START_TEST(skipping_reveals_and_is_not_counted)
{
	quiz_init(&z, 1, 1, 1);
	quiz_prepare(&z, DM_FSDP, SCHED_COMPUTE, 1, 2, 4, 8, 4);
	ck_assert(quiz_waiting(&z));
	int r = z.q[0].rank;
	quiz_skip(&z);
	ck_assert(z.revealed && !quiz_waiting(&z));
	ck_assert_int_eq(z.correct, -1);
	ck_assert_int_eq(z.asked, 0);
	ck_assert_int_eq(z.skipped, 1);
	char want[64];
	snprintf(want, sizeof want, "The answer is %d: (%d - 1) mod 4 = %d", sched_shard(4, r, 1), r,
		 sched_shard(4, r, 1));
	ck_assert_msg(strstr(z.reveal, "skipped") && strstr(z.reveal, want), "%s", z.reveal);
	ck_assert_int_eq(quiz_advance(&z), 1); /* the columns question next */
	char cols[16];
	quiz_answer(&z.q[z.cur], cols, sizeof cols);
	ck_assert_int_eq(z.q[z.cur].type, QUIZ_COLS);
	snprintf(want, sizeof want, "%d:%d", sched_shard(4, r, 1), sched_shard(4, r, 1) + 1);
	ck_assert_str_eq(cols, want); /* 4 columns, one a shard: (r - 1) mod 4 */
	for (const char *c = cols; *c; c++)
		quiz_type(&z, *c);
	quiz_submit(&z);
	ck_assert(z.correct == 1);
	ck_assert_int_eq(z.right, 1);
	ck_assert_int_eq(z.asked, 1);
	quiz_skip(&z); /* nothing waits: nothing happens */
	ck_assert_int_eq(z.skipped, 1);
}
END_TEST

/* The reduce-scatter's questions, asked before the step runs, answered as
 * the engine then moves the chunks: the chunk each rank sends (db_sent)
 * and the one it adds its part into (db_recv), in both modes, uneven and
 * empty chunks included. */
START_TEST(reduce_scatter_answers_are_the_engines)
{
	struct dm_err err;
	for (int mode = DM_FSDP; mode <= DM_DP; mode++)
		for (int n = 2; n <= 6; n++) {
			size_t M = (size_t)n + 1, K = 3, N = (size_t)n + (n > 3 ? -2 : 1);
			struct mat a, b, dc;
			ck_assert_int_eq(mat_alloc(&a, M, K, &err), 0);
			ck_assert_int_eq(mat_alloc(&b, K, N, &err), 0);
			ck_assert_int_eq(mat_alloc(&dc, M, N, &err), 0);
			mat_fill(&a, MAT_VALUES_INTS, 1, 0);
			mat_fill(&b, MAT_VALUES_INTS, 1, 1);
			mat_fill(&dc, MAT_VALUES_INTS, 1, 2);
			struct run_config cfg;
			struct dm_plan *plan = tu_plan(mode, n, DM_TRAIN);
			run_config_default(&cfg);
			cfg.dc = &dc;
			struct run *run = NULL;
			struct run_snapshot snap = { 0 };
			ck_assert_int_eq(run_new(&run, plan, &cfg, &a, &b, &err), 0);
			ck_assert_int_eq(run_snapshot_init(&snap, plan, M, K, N, 0, &err), 0);
			int asked = 0, done = 0;
			for (int p = 0; !done; p++) {
				int kind = sched_phase_kind(plan, p);
				int step = sched_phase_step(plan, p);
				quiz_init(&z, 1, 2, 1);
				quiz_prepare(&z, mode, kind, step, p, n, M, N);
				done = run_step(run, &err);
				ck_assert_int_ge(done, 0);
				run_snapshot_take(run, &snap);
				if (kind != SCHED_REDUCE_SCATTER)
					continue;
				ck_assert_int_eq(z.nq, n); /* level 2: every rank's send */
				for (int i = 0; i < z.nq; i++) {
					const struct quiz_question *q = &z.q[i];
					char got[16], want[16], why[128];
					ck_assert_int_eq(q->type, QUIZ_RS_SEND);
					quiz_answer(q, got, sizeof got);
					snprintf(want, sizeof want, "%d", snap.dev[q->rank].db_sent);
					ck_assert_str_eq(got, want);
					ck_assert_int_eq(quiz_check(q, want, why, sizeof why), 1);
					struct quiz_question add = *q;
					add.type = QUIZ_RS_ADD;
					quiz_answer(&add, got, sizeof got);
					snprintf(want, sizeof want, "%d", snap.dev[q->rank].db_recv);
					ck_assert_str_eq(got, want);
					ck_assert_int_eq(quiz_check(&add, want, why, sizeof why), 1);
					asked++;
				}
			}
			ck_assert_int_eq(asked, n * (n - 1));
			run_snapshot_free(&snap);
			plan_free(plan);
			run_free(run);
			mat_free(&a);
			mat_free(&b);
			mat_free(&dc);
		}
}
END_TEST

static Suite *quiz_suite(void)
{
	Suite *s = suite_create("quiz");
	TCase *tc = tcase_create("questions");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, shard_answers_and_the_c_mod_hint);
	tcase_add_test(tc, columns_neighbours_and_dp);
	tcase_add_test(tc, flow_and_score);
	tcase_add_test(tc, level_1_picks_ranks_at_random_without_repeats);
	tcase_add_test(tc, skipping_reveals_and_is_not_counted);
	tcase_add_test(tc, reduce_scatter_answers_are_the_engines);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(quiz_suite());
}
