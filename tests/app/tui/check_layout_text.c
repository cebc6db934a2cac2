/* check_layout_text: the layout's text arithmetic (app/tui/layout_text.c)
 * that a small terminal meets: the "too small" message keeps the size to
 * reach readable down to the smallest screens, and the help splits into
 * pages that cover every line once when the screen is too short for it. */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "tui/keys.h"
#include "tui/layout.h"
#include "testutil.h"

/* Every size from 1x1 to 90x30: the lines fit the width (or there is one
 * line, "need WxH", cut only below its own length), never more lines than
 * rows unless the last resort, and "need 51x12" is whole wherever it fits. */
START_TEST(too_small_keeps_the_size_to_reach)
{
	char line[LAYOUT_SMALL_LINES][40];
	for (int cols = 1; cols <= 90; cols++)
		for (int rows = 1; rows <= 30; rows++) {
			int n = layout_too_small(cols, rows, 51, 12, line);
			ck_assert_int_ge(n, 1);
			int whole = 0;
			for (int i = 0; i < n; i++) {
				if (strstr(line[i], "need 51x12"))
					whole = 1;
				if (n > 1)
					ck_assert_msg((int)strlen(line[i]) <= cols, "%dx%d: '%s'", cols,
						      rows, line[i]);
			}
			ck_assert_msg(whole, "%dx%d: no 'need 51x12'", cols, rows);
			if (n > 1)
				ck_assert_int_le(n, rows);
			/* the smallest: 20x5 still says what it is and how to quit */
			if (cols >= 20 && rows >= 5) {
				int quits = 0, now = 0;
				char size[16];
				snprintf(size, sizeof size, "%dx%d", cols, rows);
				for (int i = 0; i < n; i++) {
					quits |= strstr(line[i], "q quits") != NULL;
					now |= strstr(line[i], size) != NULL;
				}
				ck_assert_msg(quits && now, "%dx%d: '%s' ...", cols, rows, line[0]);
			}
		}
	/* where it fits, the one-line sentence as before */
	ck_assert_int_eq(layout_too_small(80, 24, 120, 40, line), 2);
	ck_assert_str_eq(line[0], "terminal too small: need 120x40");
	ck_assert_str_eq(line[1], "(now 80x24)  q quits");
}
END_TEST

/* The pages cover the key table's lines exactly once, each no taller than
 * the screen's box (rows - 2 with its borders), one page when it fits. */
START_TEST(help_pages_cover_every_line_once)
{
	int n = keys_count();
	for (int rows = 1; rows <= 80; rows++) {
		int per = layout_help_per_page(rows, n), pages = layout_help_pages(rows, n);
		ck_assert_int_ge(per, 1);
		ck_assert_int_ge(pages * per, n);
		ck_assert_int_lt((pages - 1) * per, n);
		if (rows >= n + 2)
			ck_assert_int_eq(pages, 1);
		else if (rows >= 5)
			ck_assert_msg(per + 2 <= rows - 2, "rows %d: %d a page", rows, per);
	}
	/* the 52x14: more than one page, "q quit" on the last */
	ck_assert_int_gt(layout_help_pages(14, n), 1);
}
END_TEST

static Suite *text_suite(void)
{
	Suite *s = suite_create("layout text");
	TCase *tc = tcase_create("small terminals");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, too_small_keeps_the_size_to_reach);
	tcase_add_test(tc, help_pages_cover_every_line_once);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(text_suite());
}
