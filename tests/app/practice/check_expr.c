/* check_expr: the formula checker the quiz gives a candidate.  Equivalent
 * forms pass; a wrong form gets the first counterexample, which this test
 * finds itself (its own loop over n, r, s and a C function written for each
 * expression, with Python's % and //); answers right only for n = 2 are
 * flagged; bad syntax gets a message and the position. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "practice/expr.h"
#include "testutil.h"

/* Python's % and // on integers, written out again here. */
static int64_t py_mod(int64_t a, int64_t b)
{
	int64_t m = a % b;
	return (m != 0 && ((m < 0) != (b < 0))) ? m + b : m;
}

static int64_t py_floordiv(int64_t a, int64_t b)
{
	return (a - py_mod(a, b)) / b;
}

static int64_t ring(int64_t r, int64_t s, int64_t n)
{
	return py_mod(r - s, n);
}

START_TEST(equivalent_forms_pass)
{
	static const char *const right[] = {
		"(r - s + n) % n",     "(r + n - s) % n",       "(r - s) % n",
		"(r - s) mod n",       "(n + r - s) mod n",     "((r - s) % n + n) % n",
		"(r + (n - 1) * s) % n", "-(s - r) % n",        "(r - s + 8 * n) % n",
		"(r-s)%n",             "  ( r - s )  %  n  ",   "(2 * ((r - s) % n)) / 2",
		"(r - s) % n // 1",    "+(r - s) % n",          "(r - s + n) % n * 1 + 0",
		"((r - s) % n) mod n", "(r - s) % n + n * 0",   "(r - s) % (n * 1)",
	};
	struct expr_result res;
	for (size_t i = 0; i < sizeof right / sizeof right[0]; i++) {
		ck_assert_msg(expr_check_shard(right[i], &res) == EXPR_RIGHT, "'%s': %s", right[i],
			      res.msg);
		ck_assert_msg(strncmp(res.msg, "right", 5) == 0, "%s", res.msg);
	}
}
END_TEST

/* Wrong forms, each with a C function that computes the same. */
static int64_t w_no_mod(int64_t r, int64_t s, int64_t n) { (void)n; return r - s; }
static int64_t w_plus_n(int64_t r, int64_t s, int64_t n) { return r - s + n; }
static int64_t w_plus_one(int64_t r, int64_t s, int64_t n) { (void)s; return py_mod(r + 1, n); }
static int64_t w_s_minus_r_3(int64_t r, int64_t s, int64_t n) { return py_mod(s - r + 1, n); }
static int64_t w_floordiv(int64_t r, int64_t s, int64_t n) { return py_floordiv(r - s, n) + r; }
static int64_t w_const(int64_t r, int64_t s, int64_t n) { (void)r; (void)s; (void)n; return 0; }
static int64_t w_mod_r(int64_t r, int64_t s, int64_t n) { return py_mod(r - s, n + 1); }

static const struct {
	const char *text;
	int64_t (*fn)(int64_t, int64_t, int64_t);
} wrong[] = {
	{ "r - s", w_no_mod },
	{ "r - s + n", w_plus_n },
	{ "(r + 1) % n", w_plus_one },
	{ "(s - r + 1) mod n", w_s_minus_r_3 },
	{ "(r - s) // n + r", w_floordiv },
	{ "0", w_const },
	{ "(r - s) % (n + 1)", w_mod_r },
};

START_TEST(wrong_forms_give_the_first_counterexample)
{
	for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
		int64_t fr = -1, fs = -1, fn = -1, theirs = 0;
		for (int64_t n = 1; n <= 8 && fn < 0; n++)
			for (int64_t r = 0; r < n && fn < 0; r++)
				for (int64_t s = 0; s < n && fn < 0; s++)
					if (wrong[i].fn(r, s, n) != ring(r, s, n)) {
						fr = r, fs = s, fn = n;
						theirs = wrong[i].fn(r, s, n);
					}
		ck_assert_msg(fn > 0, "the test's '%s' is right after all", wrong[i].text);
		struct expr_result res;
		ck_assert_int_eq(expr_check_shard(wrong[i].text, &res), EXPR_WRONG);
		ck_assert_msg(res.v[0] == fr && res.v[1] == fs && res.v[2] == fn,
			      "'%s': counterexample r=%lld s=%lld n=%lld, want r=%lld s=%lld n=%lld",
			      wrong[i].text, (long long)res.v[0], (long long)res.v[1],
			      (long long)res.v[2], (long long)fr, (long long)fs, (long long)fn);
		ck_assert(res.theirs.fail == EXPR_OK && res.theirs.num == theirs);
		ck_assert(res.truth == ring(fr, fs, fn));
		char want[128];
		snprintf(want, sizeof want, "r = %lld, s = %lld, n = %lld: yours gives %lld, the ring "
			 "gives %lld", (long long)fr, (long long)fs, (long long)fn, (long long)theirs,
			 (long long)ring(fr, fs, fn));
		ck_assert_msg(strncmp(res.msg, want, strlen(want)) == 0, "'%s': %s, want %s",
			      wrong[i].text, res.msg, want);
		/* the hint for an answer right but for a multiple of n (past n = 1) */
		int off_by_n = fn > 1 && (theirs - ring(fr, fs, fn)) % fn == 0;
		ck_assert_msg((strstr(res.msg, "multiple of n") != NULL) == off_by_n, "'%s': %s",
			      wrong[i].text, res.msg);
	}
	/* the issue's own example */
	struct expr_result res;
	ck_assert_int_eq(expr_check_shard("(r + s) % n + (n == 2)", &res), EXPR_SYNTAX);
	ck_assert_int_eq(expr_check_shard("(r + 2 * s) % n", &res), EXPR_WRONG);
	ck_assert_str_eq(res.msg, "r = 0, s = 1, n = 2: yours gives 0, the ring gives 1");
}
END_TEST

START_TEST(right_only_for_two_devices)
{
	static const char *const only2[] = { "(r + s) % n", "(s - r) % n", "(r + s) mod n",
					     "(r + s + 2 * n) % n" };
	for (size_t i = 0; i < sizeof only2 / sizeof only2[0]; i++) {
		struct expr_result res;
		ck_assert_msg(expr_check_shard(only2[i], &res) == EXPR_ONLY_N2, "'%s': %s", only2[i],
			      res.msg);
		/* its first counterexample is past n = 2, where (r + s) and (r - s) part */
		ck_assert_int_eq(res.v[2], 3);
		ck_assert_msg(strstr(res.msg, "works only for n = 2"), "%s", res.msg);
	}
	struct expr_result res;
	ck_assert_int_eq(expr_check_shard("(r + s) % n", &res), EXPR_ONLY_N2);
	ck_assert_str_eq(res.msg, "works only for n = 2: at r = 0, s = 1, n = 3: yours gives 1, the "
				  "ring gives 2");
	/* wrong at n = 2 already: not flagged as two-only */
	ck_assert_int_eq(expr_check_shard("r", &res), EXPR_WRONG);
}
END_TEST

START_TEST(failures_are_counterexamples)
{
	struct expr_result res;
	ck_assert_int_eq(expr_check_shard("(r - s) % (n - 1)", &res), EXPR_WRONG);
	ck_assert_int_eq(res.theirs.fail, EXPR_DIV_ZERO);
	ck_assert_str_eq(res.msg, "r = 0, s = 0, n = 1: yours divides by zero, the ring gives 0");
	ck_assert_int_eq(expr_check_shard("(r - s) % n // (r - r)", &res), EXPR_WRONG);
	ck_assert_int_eq(res.theirs.fail, EXPR_DIV_ZERO);
	/* true division: a fraction where the answer is not whole */
	ck_assert_int_eq(expr_check_shard("(r - s) % n / 2", &res), EXPR_WRONG);
	ck_assert_int_eq(res.theirs.fail, EXPR_FRACTION);
	ck_assert(res.v[0] == 0 && res.v[1] == 1 && res.v[2] == 2); /* (0 - 1) % 2 = 1 */
	ck_assert_msg(strstr(res.msg, "yours gives 1/2, not a whole number"), "%s", res.msg);
	/* 64 bits are exceeded at n = 5 (5^30), never wrapped */
	char big[EXPR_MAX_TEXT + 1] = "(r - s) % n + ";
	for (int i = 0; i < 30; i++)
		strcat(big, "n*");
	strcat(big, "0");
	ck_assert_int_eq(expr_check_shard(big, &res), EXPR_WRONG);
	ck_assert_int_eq(res.theirs.fail, EXPR_OVERFLOW);
	ck_assert_int_eq(res.v[2], 5);
	ck_assert_msg(strstr(res.msg, "too large"), "%s", res.msg);
}
END_TEST

static const struct {
	const char *text;
	int pos;
	const char *words;
} bad[] = {
	{ "", 0, "type an expression in r, s and n" },
	{ "   ", 0, "type an expression" },
	{ "r -", 3, "ends too soon" },
	{ "(r - s", 0, "'(' at column 1 is never closed" },
	{ "(r - s) % n)", 11, "')' at column 12 has no '('" },
	{ "2r", 1, "operator is missing before column 2" },
	{ "(2r - s) % n", 2, "operator is missing before column 3" },
	{ "r ** 2", 2, "powers are not part" },
	{ "r ^ s", 2, "'^' at column 3 is not part" },
	{ "x + 1", 0, "unknown name 'x' at column 1 (use r, s and n)" },
	{ "rank - s", 0, "unknown name 'rank'" },
	{ "(r - s) % 04", 10, "cannot start with 0" },
	{ "r % % n", 4, "'%' at column 5 needs a value" },
	{ "mod n", 0, "'mod' at column 1 needs a value" },
	{ "r mod", 5, "ends too soon" },
	{ "(r - s)modn", 7, "operator is missing" },
	{ "()", 1, "value is missing before the ')'" },
	{ "r - s.5", 5, "'.' at column 6" },
	{ "99999999999999999999 + r", 0, "too large" },
};

START_TEST(bad_syntax_says_where)
{
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct expr_result res;
		ck_assert_msg(expr_check_shard(bad[i].text, &res) == EXPR_SYNTAX, "'%s'",
			      bad[i].text);
		ck_assert_msg(res.pos == bad[i].pos, "'%s': position %d, want %d (%s)", bad[i].text,
			      res.pos, bad[i].pos, res.msg);
		ck_assert_msg(strstr(res.msg, bad[i].words), "'%s': %s", bad[i].text, res.msg);
	}
	/* limits: length, nesting, node count */
	char text[512];
	memset(text, 'r', 300);
	text[300] = '\0';
	struct expr_result res;
	ck_assert_int_eq(expr_check_shard(text, &res), EXPR_SYNTAX);
	ck_assert_int_eq(res.pos, EXPR_MAX_TEXT);
	ck_assert(strstr(res.msg, "too long"));
	memset(text, '(', 40);
	strcpy(text + 40, "r");
	memset(text + 41, ')', 40);
	text[81] = '\0';
	ck_assert_int_eq(expr_check_shard(text, &res), EXPR_SYNTAX);
	ck_assert_msg(strstr(res.msg, "nested too deeply"), "%s", res.msg);
	memset(text, '-', 100);
	strcpy(text + 100, "r");
	ck_assert_int_eq(expr_check_shard(text, &res), EXPR_SYNTAX);
	text[0] = '\0';
	for (int i = 0; i < 70; i++)
		strcat(text, "r+");
	strcat(text, "r");
	ck_assert_int_eq(expr_check_shard(text, &res), EXPR_SYNTAX);
	ck_assert_msg(strstr(res.msg, "too long"), "%s", res.msg);
}
END_TEST

static int64_t value_of(const char *text)
{
	static const char *const names[] = { "r", "s", "n" };
	struct expr e;
	int pos;
	char msg[EXPR_MSG_MAX];
	ck_assert_msg(expr_parse(text, names, 3, &e, &pos, msg, sizeof msg) == 0, "%s: %s", text,
		      msg);
	const int64_t v[3] = { 1, 3, 4 };
	struct expr_value x = expr_eval(&e, v);
	ck_assert_msg(x.fail == EXPR_OK, "%s: fail %d", text, x.fail);
	return x.num;
}

START_TEST(python_arithmetic)
{
	ck_assert_int_eq(value_of("-1 % 4"), 3);
	ck_assert_int_eq(value_of("(r - s) % n"), 2); /* C would say -2 */
	ck_assert_int_eq(value_of("7 % -3"), -2);
	ck_assert_int_eq(value_of("-7 // 2"), -4);
	ck_assert_int_eq(value_of("7 // -2"), -4);
	ck_assert_int_eq(value_of("7 mod 3"), 1);
	ck_assert_int_eq(value_of("- - r"), 1);
	ck_assert_int_eq(value_of("-r % n"), 3); /* unary minus binds first, as in Python */
	ck_assert_int_eq(value_of("2 + 3 * 4 - 10 / 5"), 12);
	ck_assert_int_eq(value_of("(1 / 3) * 3"), 1); /* exact: a fraction on the way is fine */
	ck_assert_int_eq(value_of("n * n % 5"), 1);
	ck_assert_int_eq(value_of("9223372036854775807 - 1 + 1"), INT64_MAX);
	static const char *const names[] = { "r", "s", "n" };
	struct expr e;
	int pos;
	char msg[EXPR_MSG_MAX];
	const int64_t v[3] = { 1, 3, 4 };
	ck_assert_int_eq(expr_parse("7 / 2", names, 3, &e, &pos, msg, sizeof msg), 0);
	struct expr_value x = expr_eval(&e, v);
	ck_assert(x.fail == EXPR_FRACTION && x.num == 7 && x.den == 2);
	ck_assert_int_eq(expr_parse("9223372036854775807 + 1", names, 3, &e, &pos, msg, sizeof msg),
			 0);
	ck_assert_int_eq(expr_eval(&e, v).fail, EXPR_OVERFLOW);
	ck_assert_int_eq(expr_parse("-9223372036854775807 - 1", names, 3, &e, &pos, msg, sizeof msg),
			 0);
	ck_assert_int_eq(expr_eval(&e, v).fail, EXPR_OVERFLOW);
	ck_assert_int_eq(expr_parse("r % 0", names, 3, &e, &pos, msg, sizeof msg), 0);
	ck_assert_int_eq(expr_eval(&e, v).fail, EXPR_DIV_ZERO);
}
END_TEST

/* Other questions over the same checker: who holds shard k at step s, and
 * how many transfers a ring makes. */
static int64_t holder(const int64_t *v, void *ctx)
{
	(void)ctx;
	return py_mod(v[0] + v[1], v[2]);
}

static int64_t transfers(const int64_t *v, void *ctx)
{
	(void)ctx;
	return v[0] - 1;
}

START_TEST(other_questions)
{
	static const char *const ksn[] = { "k", "s", "n" };
	static const char *const just_n[] = { "n" };
	const struct expr_spec who = { ksn, 3, 8, holder, NULL, "the ring", 1 };
	const struct expr_spec count = { just_n, 1, 8, transfers, NULL, "the ring", 0 };
	struct expr_result res;
	ck_assert_int_eq(expr_check("(k + s) % n", &who, &res), EXPR_RIGHT);
	ck_assert_int_eq(expr_check("(s + k) mod n", &who, &res), EXPR_RIGHT);
	ck_assert_int_eq(expr_check("(k - s) % n", &who, &res), EXPR_ONLY_N2);
	ck_assert_int_eq(expr_check("(r + s) % n", &who, &res), EXPR_SYNTAX);
	ck_assert_msg(strstr(res.msg, "use k, s and n"), "%s", res.msg);
	ck_assert_int_eq(expr_check("n - 1", &count, &res), EXPR_RIGHT);
	ck_assert_int_eq(expr_check("n", &count, &res), EXPR_WRONG);
	ck_assert_str_eq(res.msg, "n = 1: yours gives 1, the ring gives 0");
	ck_assert_int_eq(expr_check("2 * n - 3", &count, &res), EXPR_ONLY_N2);
}
END_TEST

static Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");
	TCase *tc = tcase_create("checker");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, equivalent_forms_pass);
	tcase_add_test(tc, wrong_forms_give_the_first_counterexample);
	tcase_add_test(tc, right_only_for_two_devices);
	tcase_add_test(tc, failures_are_counterexamples);
	tcase_add_test(tc, bad_syntax_says_where);
	tcase_add_test(tc, python_arithmetic);
	tcase_add_test(tc, other_questions);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(expr_suite());
}
