/* check_derive: the practice's questions (--quiz=derive).  For each one,
 * equivalent forms pass, and a wrong form gets the first counterexample,
 * which this test finds itself (its own loop over the cases, in the order
 * the question promises, with the truth written again here); an answer
 * right only for n = 2 is flagged; bad syntax gives its position.  Then
 * the flow: when a run counts as watched, what Enter and Tab do, when the
 * screen stops hiding, the score and the summary. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "practice/derive.h"

static char msg[DERIVE_MSG_MAX];
static int pos;

static int check(int q, const char *text)
{
	return derive_check(q, text, &pos, msg, sizeof msg);
}

START_TEST(the_shard_rule)
{
	static const char *const right[] = { "(r - s) % n", "(r - s + n) % n", "(r + n - s) mod n",
					     "(r-s)%n", "((r - s) % n + n) % n" };
	for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
		ck_assert_msg(check(DERIVE_SHARD, right[i]) == DERIVE_V_RIGHT, "%s: %s", right[i], msg);
	/* the issue's own example: r + s passes at n = 2 only */
	ck_assert_int_eq(check(DERIVE_SHARD, "(r + s) % n"), DERIVE_V_ONLY_N2);
	ck_assert_msg(strstr(msg, "works only for n = 2") &&
			      strstr(msg, "r = 0, s = 1, n = 3: yours gives 1, the ring gives 2"),
		      "%s", msg);
	/* no mod: the first case where r - s is negative, n = 2 */
	ck_assert_int_eq(check(DERIVE_SHARD, "r - s"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "r = 0, s = 1, n = 2: yours gives -1, the ring gives 1"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_SHARD, "(r - s % n"), DERIVE_V_SYNTAX);
	ck_assert_int_eq(pos, 0); /* the ( never closed */
	ck_assert_msg(strstr(msg, "never closed"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_SHARD, "(r - t) % n"), DERIVE_V_SYNTAX);
	ck_assert_int_eq(pos, 5);
}
END_TEST

START_TEST(the_transfers)
{
	static const char *const right[] = { "n - 1", "n-1", "(n * n - n) / n", "-1 + n" };
	for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
		ck_assert_msg(check(DERIVE_TRANSFERS, right[i]) == DERIVE_V_RIGHT, "%s: %s", right[i],
			      msg);
	ck_assert_int_eq(check(DERIVE_TRANSFERS, "n"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "n = 1: yours gives 1, the ring gives 0"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_TRANSFERS, "r"), DERIVE_V_SYNTAX); /* only n here */
}
END_TEST

/* The bytes a rank sends, written again: n - 1 shards of K x N/n doubles. */
static int64_t bytes_truth(int64_t K, int64_t N, int64_t n)
{
	return 8 * K * N / n * (n - 1);
}

/* The first case, in the promised order (n, then K, then N = n, 2n, 3n),
 * where f differs from the truth. */
static int first_bytes_miss(int64_t (*f)(int64_t, int64_t, int64_t), int64_t *K_, int64_t *N_,
			    int64_t *n_)
{
	for (int64_t n = 1; n <= 8; n++)
		for (int64_t K = 1; K <= 3; K++)
			for (int64_t m = 1; m <= 3; m++)
				if (f(K, m * n, n) != bytes_truth(K, m * n, n)) {
					*K_ = K;
					*N_ = m * n;
					*n_ = n;
					return 1;
				}
	return 0;
}

static int64_t b_values(int64_t K, int64_t N, int64_t n) { return K * N * (n - 1) / n; }
static int64_t b_all(int64_t K, int64_t N, int64_t n) { return 8 * K * N * (n - 1); }

START_TEST(the_bytes_sent)
{
	static const char *const right[] = { "8*K*N*(n-1)/n", "8 * K * (N // n) * (n - 1)",
					     "8*K*N - 8*K*N/n", "(n - 1) * K * N * 8 / n" };
	for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
		ck_assert_msg(check(DERIVE_BYTES, right[i]) == DERIVE_V_RIGHT, "%s: %s", right[i], msg);
	static const struct {
		const char *text;
		int64_t (*f)(int64_t, int64_t, int64_t);
	} wrong[] = { { "K*N*(n-1)/n", b_values }, { "8*K*N*(n-1)", b_all } };
	for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
		int64_t K, N, n;
		char want[128];
		ck_assert(first_bytes_miss(wrong[i].f, &K, &N, &n));
		snprintf(want, sizeof want,
			 "K = %" PRId64 ", N = %" PRId64 ", n = %" PRId64 ": yours gives %" PRId64
			 ", a rank sends %" PRId64 " bytes",
			 K, N, n, wrong[i].f(K, N, n), bytes_truth(K, N, n));
		ck_assert_int_eq(check(DERIVE_BYTES, wrong[i].text), DERIVE_V_WRONG);
		ck_assert_msg(strstr(msg, want), "%s: '%s', want '%s'", wrong[i].text, msg, want);
	}
	/* a count of values where bytes were asked: said so */
	check(DERIVE_BYTES, "K*N*(n-1)/n");
	ck_assert_msg(strstr(msg, "8 bytes"), "%s", msg);
	check(DERIVE_BYTES, "8*K*N");
	ck_assert_msg(!strstr(msg, "8 bytes"), "%s", msg);
	/* off by factors of the truth: the first case where each shows, and
	 * the factors named (at n = 1 every answer's truth is 0; at n = 2, n - 1
	 * is 1) */
	ck_assert_int_eq(check(DERIVE_BYTES, "K * N"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "K = 1, N = 3, n = 3: yours gives 3, a rank sends 16 bytes; yours "
			     "lacks the factors 8 (the bytes of a float64), (n - 1) (the transfers) "
			     "and 1/n"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_BYTES, "K * N / n"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "K = 1, N = 3, n = 3: yours gives 1, a rank sends 16 bytes; yours "
			     "lacks the factors 8 (the bytes of a float64) and (n - 1)"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_BYTES, "8*K*N"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "n = 3: yours gives 24, a rank sends 16 bytes; yours lacks the "
			     "factors (n - 1) (the transfers) and 1/n"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_BYTES, "K*N*(n-1)/n"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "yours lacks the factor 8 (the bytes of a float64)"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_BYTES, "8*K*N*(n-1)"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "yours lacks the factor 1/n"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_BYTES, "8*K*N/(n-1)"), DERIVE_V_WRONG);
	/* the first case with something to send, not n = 1's division */
	ck_assert_msg(strstr(msg, "K = 1, N = 2, n = 2: yours gives 16, a rank sends 8 bytes"), "%s",
		      msg);
	ck_assert_int_eq(check(DERIVE_BYTES, "8 * k"), DERIVE_V_SYNTAX); /* K, not k */
}
END_TEST

START_TEST(the_most_of_b_held)
{
	static const char *const right[] = { "2/n", "2 * (1 / n)", "1/n*2", "(n + n) / (n * n)" };
	for (size_t i = 0; i < sizeof right / sizeof right[0]; i++)
		ck_assert_msg(check(DERIVE_PEAK, right[i]) == DERIVE_V_RIGHT, "%s: %s", right[i], msg);
	ck_assert_int_eq(check(DERIVE_PEAK, "1/n"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "n = 2: yours gives 1/2, a rank holds at most 1 of B"), "%s", msg);
	/* floor division: right at n = 2, then 0 */
	ck_assert_int_eq(check(DERIVE_PEAK, "2 // n"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "n = 3: yours gives 0, a rank holds at most 2/3 of B"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_PEAK, "2 / 0"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "yours divides by zero"), "%s", msg);
}
END_TEST

START_TEST(who_holds_shard_k)
{
	ck_assert_int_eq(check(DERIVE_HOLDER, "(k + s) % n"), DERIVE_V_RIGHT);
	ck_assert_int_eq(check(DERIVE_HOLDER, "(s + k) mod n"), DERIVE_V_RIGHT);
	ck_assert_int_eq(check(DERIVE_HOLDER, "(k - s) % n"), DERIVE_V_ONLY_N2);
	ck_assert_msg(strstr(msg, "k = 0, s = 1, n = 3: yours gives 2, the ring gives 1"), "%s", msg);
	ck_assert_int_eq(check(DERIVE_HOLDER, "k + s"), DERIVE_V_WRONG);
	ck_assert_msg(strstr(msg, "k = 1, s = 1, n = 2: yours gives 2, the ring gives 0"), "%s", msg);
}
END_TEST

START_TEST(every_question_has_words_and_a_right_answer)
{
	for (int q = 0; q < DERIVE_COUNT; q++) {
		ck_assert(strlen(derive_question_text(q)) > 10);
		ck_assert(strlen(derive_question_name(q)) > 3);
		ck_assert_msg(check(q, derive_answer(q)) == DERIVE_V_RIGHT, "%d: %s", q, msg);
	}
	ck_assert_str_eq(derive_question_text(DERIVE_COUNT), "");
}
END_TEST

static void type(struct derive *d, const char *s)
{
	while (*s)
		derive_type(d, *s++);
}

START_TEST(a_run_is_watched_whole_before_the_questions)
{
	struct derive d;
	char buf[64];
	derive_init(&d, 1);
	derive_new_run(&d, 4);
	ck_assert_int_eq(derive_unseen(&d, buf, sizeof buf), 4);
	ck_assert_int_eq(derive_saw_compute(&d, 0), 0);
	ck_assert_int_eq(derive_saw_compute(&d, 3), 0); /* steps 1 and 2 were jumped over */
	ck_assert_int_eq(derive_unseen(&d, buf, sizeof buf), 2);
	ck_assert_str_eq(buf, "s=1, s=2");
	ck_assert_int_eq(derive_saw_compute(&d, 1), 0);
	ck_assert_int_eq(derive_saw_compute(&d, 2), 0);
	ck_assert_int_eq(derive_saw_compute(&d, 3), 1);
	ck_assert_int_eq(derive_saw_compute(&d, 9), 0);
	derive_new_run(&d, 3); /* another run: watched afresh */
	ck_assert_int_eq(derive_saw_compute(&d, 2), 0);
	/* locked: a does nothing yet */
	derive_open(&d);
	ck_assert(!d.open);
}
END_TEST

START_TEST(the_flow_score_and_summary)
{
	struct derive d;
	char sum[1024];
	derive_init(&d, 1);
	ck_assert(derive_hiding(&d));
	d.unlocked = 1;
	derive_open(&d);
	ck_assert(d.open);
	derive_type(&d, '\t'); /* not printable: not typed */
	type(&d, "(r + s) % n");
	ck_assert_str_eq(d.input, "(r + s) % n");
	derive_enter(&d);
	ck_assert_int_eq(d.verdict, DERIVE_V_ONLY_N2);
	ck_assert_int_eq(d.wrong[DERIVE_SHARD], 1);
	ck_assert(derive_hiding(&d)); /* a wrong answer reveals nothing */
	while (d.len)
		derive_backspace(&d);
	type(&d, "(r - s % n");
	derive_enter(&d);
	ck_assert_int_eq(d.verdict, DERIVE_V_SYNTAX); /* "(r - s % n": ( never closed */
	ck_assert_int_eq(d.wrong[DERIVE_SHARD], 1);  /* not counted */
	ck_assert_int_eq(d.pos, 0);
	derive_backspace(&d);
	derive_backspace(&d);
	derive_backspace(&d);
	derive_backspace(&d);
	type(&d, ") % n");
	ck_assert_int_eq(d.verdict, DERIVE_V_NONE); /* typing clears the caret */
	derive_enter(&d);
	ck_assert_int_eq(d.verdict, DERIVE_V_RIGHT);
	ck_assert(!derive_hiding(&d));
	ck_assert_msg(strstr(d.msg, "(r - s) mod n"), "%s", d.msg);
	type(&d, "x"); /* answered: the line takes no more */
	ck_assert_str_eq(d.input, "(r - s) % n");
	derive_enter(&d);
	ck_assert_int_eq(d.cur, DERIVE_TRANSFERS);
	ck_assert_str_eq(d.input, "");
	/* Esc closes the line; a opens it again on the same question */
	derive_close(&d);
	ck_assert(!d.open);
	type(&d, "n");
	ck_assert_str_eq(d.input, "");
	derive_open(&d);
	type(&d, "n - 1");
	derive_enter(&d);
	ck_assert_int_eq(d.outcome[DERIVE_TRANSFERS], DERIVE_RIGHT);
	derive_enter(&d);
	derive_skip(&d); /* the bytes: shown */
	ck_assert_int_eq(d.outcome[DERIVE_BYTES], DERIVE_SKIPPED);
	ck_assert_msg(strstr(d.msg, "skipped: the answer is 8 * K * N * (n - 1) / n"), "%s", d.msg);
	derive_enter(&d);
	type(&d, "2/n");
	derive_enter(&d);
	derive_enter(&d);
	int right, done;
	derive_score(&d, &right, &done);
	ck_assert_int_eq(right, 3);
	ck_assert_int_eq(done, 4);
	ck_assert(derive_pending(&d));
	type(&d, "(k + s) % n");
	derive_enter(&d);
	derive_enter(&d);
	ck_assert(!derive_pending(&d));
	ck_assert(!d.open);
	derive_summary(&d, sum, sizeof sum);
	ck_assert_msg(strstr(sum, "practice: 4 of 5 right (3 at the first try), 1 shown, 1 wrong "
				  "answer in all."),
		      "%s", sum);
	ck_assert_msg(strstr(sum, "the shard: right after 1 wrong, (r - s) % n;"), "%s", sum);
	ck_assert_msg(strstr(sum, "the bytes sent: shown, 8 * K * N * (n - 1) / n;"), "%s", sum);
	/* off: nothing hidden, nothing opens */
	derive_init(&d, 1);
	d.on = 0;
	d.unlocked = 1;
	ck_assert(!derive_hiding(&d));
	derive_open(&d);
	ck_assert(!d.open);
	derive_init(&d, 0);
	ck_assert(!derive_hiding(&d) && !derive_pending(&d));
}
END_TEST

START_TEST(turning_the_practice_off_ends_it)
{
	struct derive d;
	char sum[1024];
	int right, done;
	derive_init(&d, 1);
	d.unlocked = 1;
	derive_open(&d);
	type(&d, "(r - s) % n");
	derive_enter(&d); /* right, the outcome on screen, Enter not yet pressed */
	ck_assert_int_eq(derive_stop(&d), DERIVE_COUNT - 1);
	ck_assert(!derive_pending(&d) && !derive_hiding(&d) && !d.open);
	derive_score(&d, &right, &done);
	ck_assert_int_eq(right, 1); /* the one answered keeps its outcome */
	ck_assert_int_eq(done, DERIVE_COUNT);
	derive_summary(&d, sum, sizeof sum);
	ck_assert_msg(strstr(sum, "practice: 1 of 5 right (1 at the first try), 4 shown"), "%s", sum);
	ck_assert_msg(strstr(sum, "who holds shard k: shown, (k + s) % n."), "%s", sum);
	ck_assert_int_eq(derive_stop(&d), 0); /* over: nothing left */
	/* before any question: every one counts as shown */
	derive_init(&d, 1);
	ck_assert_int_eq(derive_stop(&d), DERIVE_COUNT);
	derive_score(&d, &right, &done);
	ck_assert_int_eq(right, 0);
	ck_assert_int_eq(done, DERIVE_COUNT);
}
END_TEST

START_TEST(an_answer_is_as_long_as_a_line_allows)
{
	struct derive d;
	derive_init(&d, 1);
	d.unlocked = 1;
	derive_open(&d);
	for (int i = 0; i < DERIVE_INPUT_MAX + 10; i++)
		derive_type(&d, 'r');
	ck_assert_int_eq(d.len, DERIVE_INPUT_MAX);
	ck_assert_int_eq((int)strlen(d.input), DERIVE_INPUT_MAX);
	derive_enter(&d); /* rrrr...: one name, not r: unknown */
	ck_assert_int_eq(d.verdict, DERIVE_V_SYNTAX);
}
END_TEST

static Suite *derive_suite(void)
{
	Suite *s = suite_create("derive");
	TCase *tc = tcase_create("questions");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, the_shard_rule);
	tcase_add_test(tc, the_transfers);
	tcase_add_test(tc, the_bytes_sent);
	tcase_add_test(tc, the_most_of_b_held);
	tcase_add_test(tc, who_holds_shard_k);
	tcase_add_test(tc, every_question_has_words_and_a_right_answer);
	suite_add_tcase(s, tc);
	tc = tcase_create("flow");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, a_run_is_watched_whole_before_the_questions);
	tcase_add_test(tc, the_flow_score_and_summary);
	tcase_add_test(tc, turning_the_practice_off_ends_it);
	tcase_add_test(tc, an_answer_is_as_long_as_a_line_allows);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(derive_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
