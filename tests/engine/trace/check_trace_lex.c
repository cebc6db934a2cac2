/* check_trace_lex: the JSON values the trace reader is built on
 * (engine/trace/trace_lex.c), one value at a time.  Each input is copied
 * to a heap block of exactly its length, with no NUL after it, so that a
 * read one byte past the end is a sanitizer's error and not luck: the
 * reader is fuzzed as a whole; this holds the lexer's own promises (what
 * each kind of value gives, where the cursor stops, every refusal, strings
 * kept to TRACE_STR_MAX bytes, integers that saturate, the messages'
 * escaping of what a person should not see raw). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace/trace_lex.h"

static struct trace_val val;
static size_t used; /* bytes the last value took */

/* The value at the start of text; NULL or why it is not JSON. */
static const char *lex(const char *text)
{
	size_t n = strlen(text);
	char *copy = malloc(n ? n : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, n);
	struct trace_lex lx = { copy, copy + n };
	memset(&val, 0x5a, sizeof val);
	const char *why = trace_lex_value(&lx, &val);
	ck_assert(lx.p >= copy && lx.p <= copy + n);
	used = (size_t)(lx.p - copy);
	free(copy);
	return why;
}

START_TEST(test_integers)
{
	ck_assert_ptr_null(lex("0"));
	ck_assert_int_eq(val.kind, TV_INT);
	ck_assert_uint_eq(val.u, 0);
	ck_assert_int_eq(val.neg, 0);
	ck_assert_ptr_null(lex("42,"));
	ck_assert_uint_eq(val.u, 42);
	ck_assert_uint_eq(used, 2); /* the comma is the object's */
	ck_assert_ptr_null(lex("-1}"));
	ck_assert_int_eq(val.neg, 1);
	ck_assert_uint_eq(val.u, 1);
	ck_assert_ptr_null(lex("18446744073709551615"));
	ck_assert_uint_eq(val.u, UINT64_MAX);
	ck_assert_int_eq(val.big, 0);
	ck_assert_ptr_null(lex("18446744073709551616"));
	ck_assert_int_eq(val.big, 1); /* saturated, flagged: never wrapped */
	ck_assert_ptr_null(lex("99999999999999999999999999999999999999"));
	ck_assert_int_eq(val.kind, TV_INT);
	ck_assert_int_eq(val.big, 1);
	ck_assert_uint_eq(used, 38);
}
END_TEST

/* Numbers a trace does not use are values still, of the kind it refuses. */
START_TEST(test_other_numbers)
{
	static const char *const other[] = { "1.5", "0.0", "1e3", "1E+3", "2e-7", "-0.5e2" };
	for (size_t i = 0; i < sizeof other / sizeof other[0]; i++) {
		ck_assert_msg(lex(other[i]) == NULL, "%s", other[i]);
		ck_assert_int_eq(val.kind, TV_OTHER);
		ck_assert_uint_eq(used, strlen(other[i]));
	}
	static const char *const bad[] = { "-", "-x", "01", "-01", "1.", "1.e3", "1e", "1e+", ".5" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(lex(bad[i]) != NULL, "'%s' was taken", bad[i]);
	ck_assert_str_eq(lex("01"), "a number with a leading zero");
	ck_assert_str_eq(lex("1."), "a bad number");
	/* a lone 0 at the very end: no byte after it is looked at */
	ck_assert_ptr_null(lex("0"));
}
END_TEST

START_TEST(test_literals)
{
	ck_assert_ptr_null(lex("true"));
	ck_assert_int_eq(val.kind, TV_BOOL);
	ck_assert_uint_eq(val.u, 1);
	ck_assert_ptr_null(lex("false}"));
	ck_assert_int_eq(val.kind, TV_BOOL);
	ck_assert_uint_eq(val.u, 0);
	ck_assert_uint_eq(used, 5);
	ck_assert_ptr_null(lex("null"));
	ck_assert_int_eq(val.kind, TV_OTHER);
	ck_assert_str_eq(lex("tru"), "a value is missing"); /* cut at the end of the text */
	ck_assert_str_eq(lex("nul"), "a value is missing");
	ck_assert_str_eq(lex("True"), "a value is missing");
	ck_assert_str_eq(lex(""), "a value is missing");
	ck_assert_str_eq(lex("{\"a\":1}"), "nested objects and arrays are not part of a trace");
	ck_assert_str_eq(lex("[1]"), "nested objects and arrays are not part of a trace");
}
END_TEST

START_TEST(test_strings)
{
	ck_assert_ptr_null(lex("\"compute\","));
	ck_assert_int_eq(val.kind, TV_STR);
	ck_assert_uint_eq(val.slen, 7);
	ck_assert(memcmp(val.s, "compute", 7) == 0);
	ck_assert_int_eq(val.cut, 0);
	ck_assert_uint_eq(used, 9);
	ck_assert_ptr_null(lex("\"\""));
	ck_assert_uint_eq(val.slen, 0);
	/* every escape JSON has, \u below 0x80 as its byte, above as 0x80 */
	ck_assert_ptr_null(lex("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\""));
	ck_assert_uint_eq(val.slen, 10);
	ck_assert(memcmp(val.s, "\"\\/\b\f\n\r\tA\x80", 10) == 0);
	/* kept to TRACE_STR_MAX bytes, the rest read and marked cut */
	char longs[TRACE_STR_MAX + 10];
	longs[0] = '"';
	memset(longs + 1, 'k', TRACE_STR_MAX + 5);
	longs[TRACE_STR_MAX + 6] = '"';
	longs[TRACE_STR_MAX + 7] = '\0';
	ck_assert_ptr_null(lex(longs));
	ck_assert_uint_eq(val.slen, TRACE_STR_MAX);
	ck_assert_int_eq(val.cut, 1);
	ck_assert_uint_eq(used, TRACE_STR_MAX + 7);
}
END_TEST

START_TEST(test_bad_strings)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "\"open", "a string does not end" },
		{ "\"ends in an escape\\", "a string does not end" },
		{ "\"tab\there\"", "a control character in a string" },
		{ "\"nl\nhere\"", "a control character in a string" },
		{ "\"\\x41\"", "a bad escape in a string" },
		{ "\"\\u12\"", "a bad \\u escape" },
		{ "\"\\u12", "a bad \\u escape" },
		{ "\"\\u12g4\"", "a bad \\u escape" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *why = lex(bad[i].text);
		ck_assert_msg(why && strcmp(why, bad[i].why) == 0, "case %zu: %s", i,
			      why ? why : "taken");
	}
}
END_TEST

START_TEST(test_whitespace)
{
	char text[] = " \t\r 7";
	struct trace_lex lx = { text, text + 5 };
	trace_lex_skip_ws(&lx);
	ck_assert_ptr_eq(lx.p, text + 4);
	ck_assert(trace_lex_is_ws(' ') && trace_lex_is_ws('\t') && trace_lex_is_ws('\r'));
	ck_assert(!trace_lex_is_ws('\n') && !trace_lex_is_ws('\0') && !trace_lex_is_ws('\v'));
	struct trace_lex empty = { text, text };
	trace_lex_skip_ws(&empty); /* nothing to read: stays */
	ck_assert_ptr_eq(empty.p, text);
}
END_TEST

/* What a message shows of bytes from a file: printable ASCII, the rest '?'
 * (no escape sequence reaches a terminal), cut with "..." to fit. */
START_TEST(test_show)
{
	char out[16];
	trace_lex_show(out, sizeof out, "op", 2, 0);
	ck_assert_str_eq(out, "op");
	trace_lex_show(out, sizeof out, "a\033[31mb\"\\", 9, 0);
	ck_assert_str_eq(out, "a?[31mb??");
	trace_lex_show(out, sizeof out, "a-very-long-key-name", 20, 0);
	ck_assert_str_eq(out, "a-very-long-...");
	ck_assert_uint_le(strlen(out), sizeof out - 1);
	trace_lex_show(out, sizeof out, "key", 3, 1); /* the lexer cut it: said */
	ck_assert_str_eq(out, "key...");
	trace_lex_show(out, 5, "abcdef", 6, 0);
	ck_assert_str_eq(out, "a...");
	trace_lex_show(out, sizeof out, "\xc3\xa9", 2, 0);
	ck_assert_str_eq(out, "??");
}
END_TEST

static Suite *lex_suite(void)
{
	Suite *s = suite_create("trace_lex");
	TCase *tc = tcase_create("values");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_integers);
	tcase_add_test(tc, test_other_numbers);
	tcase_add_test(tc, test_literals);
	tcase_add_test(tc, test_strings);
	tcase_add_test(tc, test_bad_strings);
	tcase_add_test(tc, test_whitespace);
	tcase_add_test(tc, test_show);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(lex_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
