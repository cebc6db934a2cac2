/* check_interview_state: the mock interview's progress (app/interview/
 * iv_state.c) without a terminal or a judge: a state written and read back
 * is the same state, field for field, for random states; every kind of
 * damage to the file is refused with one line naming the file and the
 * line, never half-read; no file means a fresh start; the starter is never
 * written over a file; the clock counts past zero. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "interview/interview.h"
#include "testutil.h"

/* A scratch folder of the test's own (fork mode: one a test). */
static char dir[64];

static void scratch(void)
{
	snprintf(dir, sizeof dir, "/tmp/check_iv.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void scratch_done(void)
{
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void random_state(struct iv_state *s, uint64_t *seed)
{
	iv_state_init(s, 600000, 1200000);
	s->part = (int)tu_range(seed, 0, IV_PART_DONE);
	s->used_ms[0] = tu_rand(seed) % 5000000;
	s->used_ms[1] = tu_rand(seed) % 5000000;
	s->paused = (int)tu_range(seed, 0, 1);
	for (int p = 0; p < IV_TIMED; p++) {
		s->saves[p] = (int)tu_range(seed, 0, 40);
		s->pass_save[p] = (int)tu_range(seed, 0, (size_t)s->saves[p]);
		s->hints[p] = (int)tu_range(seed, 0, 9);
		for (int v = 0; v < JUDGE_VERDICTS; v++)
			s->hint_level[p][v] = (int)tu_range(seed, 0, IV_HINT_LEVELS);
	}
	s->n_hist = (int)tu_range(seed, 0, IV_HISTORY_MAX);
	for (int i = 0; i < s->n_hist; i++)
		s->hist[i] = (struct iv_judged){ (int)tu_range(seed, 0, 1), (int)tu_range(seed, 1, 50),
						 tu_rand(seed) % 3000000,
						 (int)tu_range(seed, 0, JUDGE_VERDICTS) - 1,
						 (int)tu_range(seed, 0, 20), (int)tu_range(seed, 0, 20) };
	s->q_cur = (int)tu_range(seed, 0, IV_QUESTIONS_MAX);
	for (int q = 0; q < IV_QUESTIONS_MAX; q++) {
		s->q_outcome[q] = (int)tu_range(seed, IV_Q_PENDING, IV_Q_SHOWN);
		s->q_wrong[q] = (int)tu_range(seed, 0, 5);
	}
}

/* Field by field: a struct's padding is nobody's. */
static void check_same(const struct iv_state *a, const struct iv_state *b, int i)
{
	ck_assert_msg(a->part == b->part && a->paused == b->paused && a->n_hist == b->n_hist &&
			      a->q_cur == b->q_cur,
		      "state %d: part, paused, history or question differ", i);
	for (int p = 0; p < IV_TIMED; p++) {
		ck_assert_uint_eq(a->used_ms[p], b->used_ms[p]);
		ck_assert_int_eq(a->saves[p], b->saves[p]);
		ck_assert_int_eq(a->pass_save[p], b->pass_save[p]);
		ck_assert_int_eq(a->hints[p], b->hints[p]);
		for (int v = 0; v < JUDGE_VERDICTS; v++)
			ck_assert_int_eq(a->hint_level[p][v], b->hint_level[p][v]);
	}
	for (int k = 0; k < a->n_hist; k++) {
		const struct iv_judged *x = &a->hist[k], *y = &b->hist[k];
		ck_assert_msg(x->part == y->part && x->save == y->save && x->at_ms == y->at_ms &&
				      x->verdict == y->verdict && x->passed == y->passed &&
				      x->counted == y->counted,
			      "state %d: judged save %d differs", i, k);
	}
	for (int q = 0; q < IV_QUESTIONS_MAX; q++) {
		ck_assert_int_eq(a->q_outcome[q], b->q_outcome[q]);
		ck_assert_int_eq(a->q_wrong[q], b->q_wrong[q]);
	}
}

START_TEST(a_state_read_back_is_the_same_state)
{
	uint64_t seed = tu_test_seed(0x1e57a7e5);
	char path[128], msg[256];
	scratch();
	snprintf(path, sizeof path, "%s/sol.interview", dir);
	for (int i = 0; i < 200; i++) {
		struct iv_state s, t;
		random_state(&s, &seed);
		ck_assert_int_eq(iv_state_save(&s, path, msg, sizeof msg), 0);
		/* the limits are the command line's, never the file's */
		iv_state_init(&t, 1, 2);
		ck_assert_msg(iv_state_load(&t, path, msg, sizeof msg) == 0, "%s", msg);
		ck_assert_uint_eq(t.limit_ms[0], 1);
		ck_assert_uint_eq(t.limit_ms[1], 2);
		check_same(&s, &t, i);
	}
	scratch_done();
}
END_TEST

/* Writes text to path. */
static void put(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
}

START_TEST(a_damaged_state_is_refused_whole)
{
	static const struct {
		const char *text;
		int line;
	} bad[] = {
		{ "", 0 },
		{ "not an interview\npart 1\n", 1 },
		{ "distmm-interview 1\npart 9\n", 2 },
		{ "distmm-interview 1\npart 1\nused -1 0\n", 3 },
		{ "distmm-interview 1\npart 1 x\n", 2 },
		{ "distmm-interview 1\npaused 2\n", 2 },
		{ "distmm-interview 1\nlevel 0 0 4\n", 2 },
		{ "distmm-interview 1\nhist 0 0 5 0 1 1\n", 2 },
		{ "distmm-interview 1\nanswer 10 1 0\n", 2 },
		{ "distmm-interview 1\nsaves 1 2\nwhat is this\n", 3 },
	};
	char path[128], msg[256], want[200];
	scratch();
	snprintf(path, sizeof path, "%s/sol.interview", dir);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct iv_state s, before;
		iv_state_init(&s, 10, 20);
		s.saves[0] = 7; /* what the caller had: untouched by a refusal */
		before = s;
		put(path, bad[i].text);
		msg[0] = '\0';
		ck_assert_int_eq(iv_state_load(&s, path, msg, sizeof msg), -1);
		snprintf(want, sizeof want, "%s is not an interview's state (line %d)", path,
			 bad[i].line);
		ck_assert_msg(strstr(msg, want), "case %zu: %s", i, msg);
		ck_assert_msg(strstr(msg, "--interview-restart"), "case %zu: %s", i, msg);
		ck_assert_ptr_null(strchr(msg, '\n'));
		check_same(&s, &before, (int)i); /* not half read */
	}
	/* no file: a fresh start, s unchanged */
	struct iv_state s;
	iv_state_init(&s, 10, 20);
	snprintf(path, sizeof path, "%s/none.interview", dir);
	ck_assert_int_eq(iv_state_load(&s, path, msg, sizeof msg), 1);
	ck_assert_int_eq(s.part, IV_PART_DP);
	scratch_done();
}
END_TEST

START_TEST(the_starter_never_overwrites)
{
	char path[128], state[160], report[160], msg[256], buf[64];
	scratch();
	snprintf(path, sizeof path, "%s/sol.py", dir);
	ck_assert_int_eq(iv_starter_write(path, msg, sizeof msg), 0);
	FILE *fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	size_t got = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	ck_assert_uint_gt(got, 0);
	/* the candidate's own file stays as it is */
	put(path, "mine\n");
	ck_assert_int_eq(iv_starter_write(path, msg, sizeof msg), 1);
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	got = fread(buf, 1, sizeof buf - 1, fp);
	fclose(fp);
	buf[got] = '\0';
	ck_assert_str_eq(buf, "mine\n");
	/* a folder that is not there: one line, nothing written */
	snprintf(path, sizeof path, "%s/no/sol.py", dir);
	ck_assert_int_eq(iv_starter_write(path, msg, sizeof msg), -1);
	ck_assert_msg(strstr(msg, "cannot write") && !strchr(msg, '\n'), "%s", msg);
	/* the files beside FILE */
	ck_assert_int_eq(iv_path_state("a/sol.py", state, sizeof state), 0);
	ck_assert_str_eq(state, "a/sol.interview");
	ck_assert_int_eq(iv_path_report("a/sol.py", report, sizeof report), 0);
	ck_assert_str_eq(report, "a/sol-report.md");
	ck_assert_int_eq(iv_path_state("noext", state, sizeof state), 0);
	ck_assert_str_eq(state, "noext.interview");
	ck_assert_int_eq(iv_path_state("a/sol.py", state, 8), -1);
	scratch_done();
}
END_TEST

START_TEST(the_clock_counts_past_zero)
{
	struct iv_state s;
	iv_state_init(&s, 1000, 2000);
	ck_assert_int_eq(iv_left_ms(&s), 1000);
	s.used_ms[IV_PART_DP] = 1500;
	ck_assert_int_eq(iv_left_ms(&s), -500);
	s.part = IV_PART_FSDP;
	ck_assert_int_eq(iv_left_ms(&s), 2000);
	s.part = IV_PART_FOLLOW;
	ck_assert_int_eq(iv_left_ms(&s), 0);
}
END_TEST

static Suite *iv_suite(void)
{
	Suite *s = suite_create("interview state");
	TCase *tc = tcase_create("state");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, a_state_read_back_is_the_same_state);
	tcase_add_test(tc, a_damaged_state_is_refused_whole);
	tcase_add_test(tc, the_starter_never_overwrites);
	tcase_add_test(tc, the_clock_counts_past_zero);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(iv_suite());
}
