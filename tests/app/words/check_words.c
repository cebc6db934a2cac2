/* check_words: the engine's rules said in words (app/words/): each
 * mistake's line, the note where a mistake cannot show (held to bug_shows,
 * the rule it words), the index formulas with their numbers, and how each
 * order makes its calls.  An app-level suite: it links app/words/ and the
 * engine's library. */
#include <check.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include "testutil.h"
#include "words/bug_words.h"
#include "words/model_words.h"
#include "words/order_words.h"

START_TEST(each_bug_has_its_words)
{
	for (int b = 0; b < BUG_COUNT; b++)
		ck_assert(strlen(bugw_describe(b)) > 10);
	ck_assert_str_eq(bugw_describe(BUG_COUNT), "?");
	/* what the screen says where the mistake cannot show */
	ck_assert(strstr(bugw_note(BUG_R_PLUS_S, 2), "passes"));
	ck_assert_ptr_null(bugw_note(BUG_R_PLUS_S, 3));
	ck_assert_ptr_nonnull(bugw_note(BUG_RECV_OVERWRITE, 1));
	ck_assert_ptr_null(bugw_note(BUG_EXTRA_ROTATION, 1));
	/* a note exactly where the rules say the mistake cannot show */
	for (int b = 1; b < BUG_COUNT; b++)
		for (int n = 1; n <= 6; n++)
			ck_assert_msg((bugw_note(b, n) == NULL) == bug_shows(b, n), "%s at n = %d",
				      bug_name(b), n);
}
END_TEST

/* Rank 1 at step 3 (the shard's index) and step 0 (the reduce-scatter's
 * chunks) of 4 devices. */
START_TEST(formulas_with_their_numbers)
{
	typedef void (*formula_fn)(enum dm_bug, int, int, int, char *, size_t);
	static const struct {
		formula_fn fn;
		enum dm_bug bug;
		int step;
		const char *want;
	} cs[] = {
		{ bugw_formula, BUG_PY_NO_MOD, 3, "(1-3) = -2, no mod" },
		{ bugw_formula, BUG_NONE, 3, "(1-3) mod 4 = 2" },
		{ bugw_formula, BUG_R_PLUS_S, 3, "(1+3) mod 4 = 0" },
		{ bugw_formula, BUG_C_MOD, 3, "(1-3) % 4 = -2" },
		{ bugw_rs_formula, BUG_NONE, 0, "(1-0-1) mod 4 = 0" },
		{ bugw_rs_formula, BUG_RS_OFF_BY_ONE, 0, "(1-0) mod 4 = 1" },
		{ bugw_rs_recv_formula, BUG_NONE, 0, "(1-0-2) mod 4 = 3" },
		{ bugw_rs_recv_formula, BUG_RS_OFF_BY_ONE, 0, "(1-0-1) mod 4 = 0" },
	};
	for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
		char f[64];
		cs[i].fn(cs[i].bug, 4, 1, cs[i].step, f, sizeof f);
		ck_assert_str_eq(f, cs[i].want);
	}
}
END_TEST

START_TEST(each_order_has_its_words)
{
	for (int o = 0; o < ORDER_COUNT; o++)
		ck_assert(strlen(orderw_describe(o)) > 10);
	ck_assert(strstr(orderw_describe(ORDER_PARITY), "even ranks send first"));
	ck_assert_str_eq(orderw_describe(ORDER_COUNT), "?");
}
END_TEST

/* A share of B as the captions write it: the split's own n-ths when they
 * are exact, else reduced; per rank when the ranks differ. */
START_TEST(shares_as_fractions)
{
	char buf[256];
	modelw_fraction(144, 192, 4, buf, sizeof buf);
	ck_assert_str_eq(buf, "3/4");
	modelw_fraction(48, 192, 8, buf, sizeof buf); /* two shards of eight: 2/8, not 1/4 */
	ck_assert_str_eq(buf, "2/8");
	modelw_fraction(96, 192, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "1/2");
	modelw_fraction(192, 192, 3, buf, sizeof buf);
	ck_assert_str_eq(buf, "all");
	modelw_fraction(0, 192, 3, buf, sizeof buf);
	ck_assert_str_eq(buf, "none");
	const uint64_t even[4] = { 144, 144, 144, 144 }, uneven[3] = { 144, 144, 96 };
	modelw_shares(even, 4, 192, 4, "B", buf, sizeof buf);
	ck_assert_str_eq(buf, "3/4 of B");
	/* -d 3, N = 4: shards of 2, 1 and 1 columns; rank r never sends shard r + 1 */
	modelw_shares(uneven, 3, 192, 0, "B", buf, sizeof buf);
	ck_assert_str_eq(buf, "on average 2/3 of B (ranks 0-1 3/4, rank 2 1/2)");
	const uint64_t train[3] = { 384, 432, 336 };
	modelw_shares(train, 3, 192, 0, "B's size", buf, sizeof buf);
	ck_assert_str_eq(buf, "on average 2 x B's size (rank 0 2, rank 1 9/4, rank 2 7/4)");
}
END_TEST

static Suite *words_suite(void)
{
	Suite *s = suite_create("words");
	TCase *tc = tcase_create("bugs and orders");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, each_bug_has_its_words);
	tcase_add_test(tc, formulas_with_their_numbers);
	tcase_add_test(tc, each_order_has_its_words);
	tcase_add_test(tc, shares_as_fractions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(words_suite());
}
