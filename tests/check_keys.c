/* check_keys: the key table and the dispatch over it, with no terminal.
 * The map every key had before the table existed, restated here as the
 * specification; the context rules (an overlay takes any key, an answer
 * being typed takes digits, '-' and ':'); and the table's own promises that
 * the help and the footer rely on (each code once, every action a key asks
 * for found by keys_find, names that fit the help's key column). */
#include <check.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "keys.h"

/* The map, written from the help's words, not from keys.c. */
static const struct {
	int code, action;
} spec[] = {
	{ ' ', ACT_NEXT },       { 'n', ACT_NEXT },       { KEY_RIGHT, ACT_NEXT },
	{ 'b', ACT_BACK },       { KEY_LEFT, ACT_BACK },  { 'p', ACT_PLAY },
	{ 'm', ACT_MODE },       { 'r', ACT_RESTART },    { '+', ACT_FASTER },
	{ '=', ACT_FASTER },     { '-', ACT_SLOWER },     { '_', ACT_SLOWER },
	{ '[', ACT_FEWER },      { ']', ACT_MORE },       { 'x', ACT_QUIZ },
	{ 'c', ACT_MEMORY },     { 'f', ACT_FIX },        { '\n', ACT_ENTER },
	{ '\r', ACT_ENTER },     { KEY_ENTER, ACT_ENTER }, { '?', ACT_HELP },
	{ 'h', ACT_HELP },       { KEY_F(1), ACT_HELP },  { 12 /* Ctrl-L */, ACT_REDRAW },
	{ 'q', ACT_QUIT },       { 27 /* Esc */, ACT_QUIT },
};
enum { NSPEC = sizeof spec / sizeof spec[0] };

/* The help draws a binding's names in a column this wide. */
#define HELP_KEY_COLUMN 14

static int in_spec(int code)
{
	for (int i = 0; i < NSPEC; i++)
		if (spec[i].code == code)
			return 1;
	return 0;
}

START_TEST(every_key_means_what_the_help_says)
{
	for (int i = 0; i < NSPEC; i++)
		ck_assert_msg(keys_action(spec[i].code, 0, 0) == spec[i].action,
			      "key %d: action %d, want %d", spec[i].code,
			      keys_action(spec[i].code, 0, 0), spec[i].action);
}
END_TEST

START_TEST(other_keys_do_nothing)
{
	for (int ch = 0; ch < KEY_MAX; ch++)
		if (!in_spec(ch) && ch != KEY_RESIZE)
			ck_assert_msg(keys_action(ch, 0, 0) == ACT_NONE, "key %d does %d", ch,
				      keys_action(ch, 0, 0));
	ck_assert_int_eq(keys_action(ERR, 0, 0), ACT_NONE);
	ck_assert_int_eq(keys_action(ERR, 1, 1), ACT_NONE);
}
END_TEST

START_TEST(an_overlay_takes_any_key_but_a_resize)
{
	for (int i = 0; i < NSPEC; i++)
		ck_assert_int_eq(keys_action(spec[i].code, 1, 0), ACT_CLOSE_OVERLAY);
	ck_assert_int_eq(keys_action('z', 1, 1), ACT_CLOSE_OVERLAY);
	ck_assert_int_eq(keys_action(KEY_RESIZE, 1, 0), ACT_RESIZE);
	ck_assert_int_eq(keys_action(KEY_RESIZE, 0, 0), ACT_RESIZE);
}
END_TEST

START_TEST(typing_an_answer_takes_digits_minus_and_colon)
{
	for (int ch = '0'; ch <= '9'; ch++) {
		ck_assert_int_eq(keys_action(ch, 0, 1), ACT_QUIZ_TYPE);
		ck_assert_int_eq(keys_action(ch, 0, 0), ACT_NONE);
	}
	ck_assert_int_eq(keys_action('-', 0, 1), ACT_QUIZ_TYPE);
	ck_assert_int_eq(keys_action('-', 0, 0), ACT_SLOWER);
	ck_assert_int_eq(keys_action(':', 0, 1), ACT_QUIZ_TYPE);
	ck_assert_int_eq(keys_action(':', 0, 0), ACT_NONE);
	int backspaces[] = { KEY_BACKSPACE, 127, 8 };
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(keys_action(backspaces[i], 0, 1), ACT_QUIZ_BACK);
		ck_assert_int_eq(keys_action(backspaces[i], 0, 0), ACT_NONE);
	}
	/* the rest keep their meaning while typing: Enter answers, n steps */
	ck_assert_int_eq(keys_action('\n', 0, 1), ACT_ENTER);
	ck_assert_int_eq(keys_action('n', 0, 1), ACT_NEXT);
	ck_assert_int_eq(keys_action('q', 0, 1), ACT_QUIT);
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
	/* one help line for both halves of a pair */
	ck_assert_ptr_eq(keys_find(ACT_FASTER), keys_find(ACT_SLOWER));
	ck_assert_ptr_eq(keys_find(ACT_FEWER), keys_find(ACT_MORE));
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
	suite_add_tcase(s, tc);
	tc = tcase_create("table");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, each_code_is_bound_once);
	tcase_add_test(tc, bindings_read_well_in_the_help_and_the_footer);
	tcase_add_test(tc, find_gives_the_binding_of_every_action_a_key_asks_for);
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
