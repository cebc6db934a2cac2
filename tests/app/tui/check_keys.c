/* check_keys: the key table and the dispatch over it, with no terminal.
 * The map, restated here as the specification from the help's words; the
 * context rules (an overlay takes any key, the practice's answer line every
 * printable one, an answer or a step being typed takes digits, the worked
 * cell takes the arrows, digits pick a rank otherwise); the key bar's choice by screen and condition; and the table's
 * own promises that the help and the bar rely on (each code once, every
 * action a key asks for found by keys_find, names that fit the help's key
 * column, a help that fits 80x24). */
#include <check.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "tui/keys.h"

/* The map, written from the help's words, not from keys.c. */
static const struct {
	int code, action;
} spec[] = {
	{ ' ', ACT_NEXT },        { 'n', ACT_NEXT },         { KEY_RIGHT, ACT_NEXT },
	{ 'b', ACT_BACK },        { KEY_LEFT, ACT_BACK },    { 'p', ACT_PLAY },
	{ KEY_HOME, ACT_HOME },   { KEY_END, ACT_END },      { 'g', ACT_GOTO },
	{ 'm', ACT_MODE },        { 'r', ACT_RESTART },      { '+', ACT_FASTER },
	{ '=', ACT_FASTER },      { '-', ACT_SLOWER },       { '_', ACT_SLOWER },
	{ '[', ACT_FEWER },       { ']', ACT_MORE },         { 9 /* Tab */, ACT_FOCUS_NEXT },
	{ KEY_BTAB, ACT_FOCUS_PREV }, { 'v', ACT_SHOW },     { 'w', ACT_CELL },
	{ 't', ACT_TABLE },       { 'x', ACT_QUIZ },         { 'c', ACT_MEMORY },
	{ 'f', ACT_FIX },         { 's', ACT_SHARE },        { 'T', ACT_THEME },
	{ 'j', ACT_JUDGE },       { 'd', ACT_TRAIN },        { 'l', ACT_TIMELINE },
	{ '\n', ACT_ENTER },      { '\r', ACT_ENTER },       { KEY_ENTER, ACT_ENTER },
	{ '?', ACT_HELP },        { 'h', ACT_HELP },         { KEY_F(1), ACT_HELP },
	{ 12 /* Ctrl-L */, ACT_REDRAW }, { 'q', ACT_QUIT },  { 27 /* Esc */, ACT_ESCAPE },
	{ 'a', ACT_DERIVE_OPEN },
};
enum { NSPEC = sizeof spec / sizeof spec[0] };

/* The help draws a binding's names in a column this wide. */
#define HELP_KEY_COLUMN 14

static const struct keys_ctx none = { 0, 0, 0, 0, 0 }, over = { 1, 0, 0, 0, 0 },
			      quiz = { 0, 1, 0, 0, 0 }, go = { 0, 0, 1, 0, 0 }, cell = { 0, 0, 0, 1, 0 },
			      text = { 0, 0, 0, 0, 1 };

static int in_spec(int code)
{
	for (int i = 0; i < NSPEC; i++)
		if (spec[i].code == code)
			return 1;
	return code >= '0' && code <= '9'; /* a rank */
}

START_TEST(every_key_means_what_the_help_says)
{
	for (int i = 0; i < NSPEC; i++)
		ck_assert_msg(keys_action(spec[i].code, &none) == spec[i].action,
			      "key %d: action %d, want %d", spec[i].code,
			      keys_action(spec[i].code, &none), spec[i].action);
	for (int ch = '0'; ch <= '9'; ch++)
		ck_assert_int_eq(keys_action(ch, &none), ACT_FOCUS_DIGIT);
}
END_TEST

START_TEST(other_keys_do_nothing)
{
	for (int ch = 0; ch < KEY_MAX; ch++)
		if (!in_spec(ch) && ch != KEY_RESIZE)
			ck_assert_msg(keys_action(ch, &none) == ACT_NONE, "key %d does %d", ch,
				      keys_action(ch, &none));
	ck_assert_int_eq(keys_action(ERR, &none), ACT_NONE);
	ck_assert_int_eq(keys_action(ERR, &over), ACT_NONE);
}
END_TEST

START_TEST(an_overlay_takes_any_key_but_a_resize)
{
	struct keys_ctx all = { 1, 1, 1, 1, 1 };
	for (int i = 0; i < NSPEC; i++) {
		ck_assert_int_eq(keys_action(spec[i].code, &over), ACT_CLOSE_OVERLAY);
		ck_assert_int_eq(keys_action(spec[i].code, &all), ACT_CLOSE_OVERLAY);
	}
	ck_assert_int_eq(keys_action('z', &over), ACT_CLOSE_OVERLAY);
	ck_assert_int_eq(keys_action(KEY_RESIZE, &over), ACT_RESIZE);
	ck_assert_int_eq(keys_action(KEY_RESIZE, &none), ACT_RESIZE);
}
END_TEST

START_TEST(typing_an_answer_takes_digits_minus_and_colon)
{
	for (int ch = '0'; ch <= '9'; ch++)
		ck_assert_int_eq(keys_action(ch, &quiz), ACT_QUIZ_TYPE);
	ck_assert_int_eq(keys_action('-', &quiz), ACT_QUIZ_TYPE);
	ck_assert_int_eq(keys_action('-', &none), ACT_SLOWER);
	ck_assert_int_eq(keys_action(':', &quiz), ACT_QUIZ_TYPE);
	ck_assert_int_eq(keys_action(':', &none), ACT_NONE);
	int backspaces[] = { KEY_BACKSPACE, 127, 8 };
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(keys_action(backspaces[i], &quiz), ACT_QUIZ_BACK);
		ck_assert_int_eq(keys_action(backspaces[i], &none), ACT_NONE);
	}
	/* the rest keep their meaning while typing: Enter answers, n skips */
	ck_assert_int_eq(keys_action('\n', &quiz), ACT_ENTER);
	ck_assert_int_eq(keys_action('n', &quiz), ACT_NEXT);
	ck_assert_int_eq(keys_action('q', &quiz), ACT_QUIT);
}
END_TEST

START_TEST(an_expression_takes_every_printable_key)
{
	/* letters are its names: n, r, s, k do not step, q does not quit */
	for (int ch = ' '; ch <= '~'; ch++)
		ck_assert_msg(keys_action(ch, &text) == ACT_TEXT_TYPE, "key %d", ch);
	int backspaces[] = { KEY_BACKSPACE, 127, 8 };
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(keys_action(backspaces[i], &text), ACT_TEXT_BACK);
	ck_assert_int_eq(keys_action(9 /* Tab */, &text), ACT_TEXT_SKIP);
	ck_assert_int_eq(keys_action('\n', &text), ACT_ENTER);
	ck_assert_int_eq(keys_action(KEY_ENTER, &text), ACT_ENTER);
	ck_assert_int_eq(keys_action(27, &text), ACT_ESCAPE);
	ck_assert_int_eq(keys_action(12, &text), ACT_REDRAW);
	ck_assert_int_eq(keys_action(KEY_F(1), &text), ACT_HELP);
	ck_assert_int_eq(keys_action(KEY_RESIZE, &text), ACT_RESIZE);
	/* nothing else moves the run under the question */
	int others[] = { KEY_RIGHT, KEY_LEFT, KEY_HOME, KEY_END, KEY_UP, KEY_BTAB };
	for (int i = 0; i < 6; i++)
		ck_assert_int_eq(keys_action(others[i], &text), ACT_NONE);
	/* an overlay still comes first */
	struct keys_ctx both = { 1, 0, 0, 0, 1 };
	ck_assert_int_eq(keys_action('n', &both), ACT_CLOSE_OVERLAY);
	/* a, outside the line, opens it; the bar offers it only when a question waits */
	ck_assert_int_eq(keys_action('a', &none), ACT_DERIVE_OPEN);
	ck_assert(keys_in_bar(keys_find(ACT_DERIVE_OPEN), KEYS_IN_MAIN, KEYS_NEED_DERIVE));
	ck_assert(!keys_in_bar(keys_find(ACT_DERIVE_OPEN), KEYS_IN_MAIN, 0));
	ck_assert(keys_in_bar(keys_find(ACT_ENTER), KEYS_IN_TEXT, 0));
	ck_assert(keys_in_bar(keys_find(ACT_ESCAPE), KEYS_IN_TEXT, KEYS_NEED_BACKOUT));
	ck_assert(!keys_in_bar(keys_find(ACT_QUIT), KEYS_IN_TEXT, KEYS_NEED_BACKOUT));
	ck_assert_ptr_null(keys_find(ACT_TEXT_TYPE));
	ck_assert_ptr_null(keys_find(ACT_TEXT_SKIP));
}
END_TEST

START_TEST(a_step_being_typed_takes_digits)
{
	for (int ch = '0'; ch <= '9'; ch++)
		ck_assert_int_eq(keys_action(ch, &go), ACT_GOTO_TYPE);
	ck_assert_int_eq(keys_action(127, &go), ACT_GOTO_BACK);
	ck_assert_int_eq(keys_action('\n', &go), ACT_ENTER);
	ck_assert_int_eq(keys_action(27, &go), ACT_ESCAPE);
	ck_assert_int_eq(keys_action('-', &go), ACT_SLOWER); /* a step has no sign */
}
END_TEST

START_TEST(the_worked_cell_takes_the_arrows)
{
	ck_assert_int_eq(keys_action(KEY_UP, &cell), ACT_CELL_UP);
	ck_assert_int_eq(keys_action(KEY_DOWN, &cell), ACT_CELL_DOWN);
	ck_assert_int_eq(keys_action(KEY_LEFT, &cell), ACT_CELL_LEFT);
	ck_assert_int_eq(keys_action(KEY_RIGHT, &cell), ACT_CELL_RIGHT);
	ck_assert_int_eq(keys_action(KEY_UP, &none), ACT_NONE);
	/* n and b still step: the cell's numbers follow the stop */
	ck_assert_int_eq(keys_action('n', &cell), ACT_NEXT);
	ck_assert_int_eq(keys_action('b', &cell), ACT_BACK);
	ck_assert_int_eq(keys_action('w', &cell), ACT_CELL);
}
END_TEST

START_TEST(the_key_bar_offers_what_applies)
{
	const unsigned all = KEYS_NEED_LIVE | KEYS_NEED_PLAYABLE | KEYS_NEED_DEADLOCK |
			     KEYS_NEED_BACKOUT | KEYS_NEED_RESULT | KEYS_NEED_JUDGE;
	/* a replay offers no m, [ ] or x; the end no p; f only after a deadlock */
	ck_assert(keys_in_bar(keys_find(ACT_MODE), KEYS_IN_MAIN, all));
	ck_assert(!keys_in_bar(keys_find(ACT_MODE), KEYS_IN_MAIN, all & ~KEYS_NEED_LIVE));
	ck_assert(!keys_in_bar(keys_find(ACT_MORE), KEYS_IN_MAIN, all & ~KEYS_NEED_LIVE));
	ck_assert(!keys_in_bar(keys_find(ACT_QUIZ), KEYS_IN_MAIN, all & ~KEYS_NEED_LIVE));
	ck_assert(!keys_in_bar(keys_find(ACT_PLAY), KEYS_IN_MAIN, all & ~KEYS_NEED_PLAYABLE));
	ck_assert(!keys_in_bar(keys_find(ACT_FIX), KEYS_IN_MAIN, all & ~KEYS_NEED_DEADLOCK));
	ck_assert(keys_in_bar(keys_find(ACT_FIX), KEYS_IN_MAIN, all));
	ck_assert(!keys_in_bar(keys_find(ACT_ESCAPE), KEYS_IN_MAIN, all & ~KEYS_NEED_BACKOUT));
	/* j only with --judge, on the candidate's run and on the ring it compares */
	ck_assert(keys_in_bar(keys_find(ACT_JUDGE), KEYS_IN_MAIN, all));
	ck_assert(keys_in_bar(keys_find(ACT_JUDGE), KEYS_IN_MAIN, all & ~KEYS_NEED_LIVE));
	ck_assert(!keys_in_bar(keys_find(ACT_JUDGE), KEYS_IN_MAIN, all & ~KEYS_NEED_JUDGE));
	/* a question: answer, help, quit and the quiz's switch; not the run's keys */
	ck_assert(keys_in_bar(keys_find(ACT_ENTER), KEYS_IN_QUIZ, all));
	ck_assert(keys_in_bar(keys_find(ACT_QUIT), KEYS_IN_QUIZ, all));
	ck_assert(!keys_in_bar(keys_find(ACT_MODE), KEYS_IN_QUIZ, all));
	/* an overlay: no hint of the table (the bar says any key closes it) */
	for (int i = 0; i < keys_count(); i++)
		ck_assert(!keys_in_bar(keys_binding(i), KEYS_IN_OVERLAY, all));
}
END_TEST

START_TEST(the_help_fits_80x24)
{
	/* a line a binding between the box's two borders */
	ck_assert_int_le(keys_count() + 2, 24);
	int names = 0, what = 0;
	for (int i = 0; i < keys_count(); i++) {
		if ((int)strlen(keys_binding(i)->names) > names)
			names = (int)strlen(keys_binding(i)->names);
		if ((int)strlen(keys_binding(i)->what) > what)
			what = (int)strlen(keys_binding(i)->what);
	}
	ck_assert_int_le(names + what + 7, 78);
}
END_TEST

START_TEST(each_code_is_bound_once)
{
	int seen = 0;
	for (int i = 0; i < keys_count(); i++) {
		const struct keys_binding *b = keys_binding(i);
		for (int k = 0; k < KEYS_MAX_CODES && b->key[k].action != ACT_NONE; k++) {
			seen++;
			for (int j = 0; j < keys_count(); j++)
				for (int m = 0; m < KEYS_MAX_CODES &&
						keys_binding(j)->key[m].action != ACT_NONE; m++)
					if (j != i || m != k)
						ck_assert_int_ne(keys_binding(j)->key[m].code,
								 b->key[k].code);
		}
	}
	ck_assert_int_eq(seen, NSPEC);
}
END_TEST

START_TEST(bindings_read_well_in_the_help_and_the_footer)
{
	ck_assert_ptr_null(keys_binding(-1));
	ck_assert_ptr_null(keys_binding(keys_count()));
	for (int i = 0; i < keys_count(); i++) {
		const struct keys_binding *b = keys_binding(i);
		ck_assert_ptr_nonnull(b);
		ck_assert(b->names && b->what && *b->names && *b->what);
		ck_assert_msg(strlen(b->names) <= HELP_KEY_COLUMN, "'%s' is cut in the help",
			      b->names);
		ck_assert_msg((b->bar_key == NULL) == (b->bar_what == NULL), "'%s'", b->names);
		ck_assert(b->key[0].action != ACT_NONE);
	}
}
END_TEST

START_TEST(find_gives_the_binding_of_every_action_a_key_asks_for)
{
	for (int i = 0; i < NSPEC; i++) {
		const struct keys_binding *b = keys_find(spec[i].action);
		int found = 0;
		ck_assert_ptr_nonnull(b);
		for (int k = 0; k < KEYS_MAX_CODES && b->key[k].action != ACT_NONE; k++)
			found |= b->key[k].code == spec[i].code;
		ck_assert_msg(found, "key %d is not in the binding of its action", spec[i].code);
	}
	ck_assert_ptr_null(keys_find(ACT_NONE));
	ck_assert_ptr_null(keys_find(ACT_CLOSE_OVERLAY));
	ck_assert_ptr_null(keys_find(ACT_RESIZE));
	ck_assert_ptr_null(keys_find(ACT_QUIZ_TYPE));
	ck_assert_ptr_null(keys_find(ACT_QUIZ_BACK));
	ck_assert_ptr_null(keys_find(ACT_GOTO_TYPE));
	ck_assert_ptr_null(keys_find(ACT_FOCUS_DIGIT));
	ck_assert_ptr_null(keys_find(ACT_CELL_UP));
	/* one help line for both halves of a pair */
	ck_assert_ptr_eq(keys_find(ACT_FASTER), keys_find(ACT_SLOWER));
	ck_assert_ptr_eq(keys_find(ACT_FEWER), keys_find(ACT_MORE));
	ck_assert_ptr_eq(keys_find(ACT_HOME), keys_find(ACT_GOTO));
}
END_TEST

static Suite *keys_suite(void)
{
	Suite *s = suite_create("keys");
	TCase *tc = tcase_create("dispatch");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, every_key_means_what_the_help_says);
	tcase_add_test(tc, other_keys_do_nothing);
	tcase_add_test(tc, an_overlay_takes_any_key_but_a_resize);
	tcase_add_test(tc, typing_an_answer_takes_digits_minus_and_colon);
	tcase_add_test(tc, an_expression_takes_every_printable_key);
	tcase_add_test(tc, a_step_being_typed_takes_digits);
	tcase_add_test(tc, the_worked_cell_takes_the_arrows);
	suite_add_tcase(s, tc);
	tc = tcase_create("table");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, each_code_is_bound_once);
	tcase_add_test(tc, bindings_read_well_in_the_help_and_the_footer);
	tcase_add_test(tc, find_gives_the_binding_of_every_action_a_key_asks_for);
	tcase_add_test(tc, the_key_bar_offers_what_applies);
	tcase_add_test(tc, the_help_fits_80x24);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(keys_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
