/* check_theme: every theme readable, computed from the theme tables
 * themselves (theme_def) and the colours an export gives them (palette.h):
 * each role's text on its background, and each shard's colour on the
 * screen's, at WCAG 2's contrast ratio of 4.5 for text (3 for the lines and
 * bars that are no text: borders, arrows, the memory bar), with dim text as
 * the SVG mixes it.  The xterm 256 colours the tables use are the same RGB
 * in every terminal that has them, so the figures hold in the interface
 * too; the 8-colour columns are the terminal's own palette and are not
 * measured.  And meaning off colour alone: every shard has its own symbol,
 * and no two shards of a theme share a colour. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "export/palette.h"
#include "tui/theme.h"

#define TEXT_RATIO 4.5
#define GRAPHIC_RATIO 3.0

/* The RGB a role's text shows in, on the RGB of its background. */
static void role_rgb(int id, int role, uint32_t *fg, uint32_t *bg)
{
	const struct theme_def *t = theme_def(id);
	const struct theme_paint *p = &t->role[role];
	struct palette pal = theme_palette(id);
	*fg = palette_rgb(&pal, p->fg >= 0 ? p->fg : t->fg, 1);
	*bg = palette_rgb(&pal, p->bg >= 0 ? p->bg : t->bg, 0);
	if (p->attr & A_DIM)
		*fg = palette_mix(*fg, *bg, PALETTE_DIM);
}

START_TEST(the_ratio_is_wcag_s)
{
	ck_assert_double_eq_tol(palette_contrast(0x000000, 0xffffff), 21.0, 1e-9);
	ck_assert_double_eq_tol(palette_contrast(0xffffff, 0x000000), 21.0, 1e-9);
	ck_assert_double_eq_tol(palette_contrast(0x777777, 0x777777), 1.0, 1e-9);
	/* #767676 is the lightest grey that passes 4.5 on white; #777777 fails */
	ck_assert(palette_contrast(0x767676, 0xffffff) >= 4.5);
	ck_assert(palette_contrast(0x777777, 0xffffff) < 4.5);
}
END_TEST

START_TEST(every_role_reads_on_its_background)
{
	int id = _i;
	for (int r = 0; r < ROLE_COUNT; r++) {
		uint32_t fg, bg;
		role_rgb(id, r, &fg, &bg);
		double want = r == ROLE_BORDER || r == ROLE_MEM ? GRAPHIC_RATIO : TEXT_RATIO;
		double got = palette_contrast(fg, bg);
		ck_assert_msg(got >= want, "theme %s, role %d: #%06x on #%06x is %.2f, under %.1f",
			      theme_def(id)->name, r, (unsigned)fg, (unsigned)bg, got, want);
	}
}
END_TEST

START_TEST(every_shard_reads_on_the_screen)
{
	int id = _i;
	const struct theme_def *t = theme_def(id);
	struct palette pal = theme_palette(id);
	for (int k = 0; k < THEME_SHARDS; k++) {
		uint32_t fg = palette_rgb(&pal, t->shard[k], 1);
		double got = palette_contrast(fg, pal.bg);
		/* reverse video (a moving token) swaps the two: the same ratio */
		ck_assert_msg(got >= TEXT_RATIO, "theme %s, shard %d: #%06x on #%06x is %.2f",
			      t->name, k, (unsigned)fg, (unsigned)pal.bg, got);
		for (int j = 0; j < k; j++)
			ck_assert_msg(t->shard[j] != t->shard[k], "theme %s: shards %d and %d share %d",
				      t->name, j, k, t->shard[k]);
	}
	for (int k = 0; k < THEME_SHARDS8; k++)
		for (int j = 0; j < k; j++)
			ck_assert_msg(t->shard8[j] != t->shard8[k], "theme %s, 8 colours: shards %d, %d",
				      t->name, j, k);
}
END_TEST

/* A theme that paints its own background paints it for every role: no
 * role's colours rest on the terminal's own. */
START_TEST(a_set_background_is_set_everywhere)
{
	int id = _i;
	const struct theme_def *t = theme_def(id);
	ck_assert((t->fg < 0) == (t->bg < 0));
	ck_assert((t->fg8 < 0) == (t->bg8 < 0));
	ck_assert((t->fg < 0) == (t->fg8 < 0));
	if (id != THEME_DEFAULT) {
		ck_assert_int_ge(t->bg, 16); /* the xterm 256's fixed colours, not a palette's */
		ck_assert_int_ge(t->fg, 16);
	}
	for (int k = 0; k < THEME_SHARDS; k++)
		ck_assert_int_ge(t->shard[k], 16);
	for (int r = 0; r < ROLE_COUNT; r++) {
		ck_assert(t->role[r].fg < 0 || t->role[r].fg >= 16);
		ck_assert(t->role[r].bg < 0 || t->role[r].bg >= 16);
	}
}
END_TEST

START_TEST(every_shard_has_its_own_symbol)
{
	for (int k = 0; k < 64; k++) {
		ck_assert(theme_shard_symbol(k) != '?');
		for (int j = 0; j < k; j++)
			ck_assert(theme_shard_symbol(j) != theme_shard_symbol(k));
	}
}
END_TEST

START_TEST(the_export_shows_the_theme_s_own_colours)
{
	struct palette p = theme_palette(THEME_DEFAULT);
	ck_assert_uint_eq(p.fg, PALETTE_FG);
	ck_assert_uint_eq(p.bg, PALETTE_BG);
	p = theme_palette(THEME_LIGHT);
	ck_assert_uint_eq(p.bg, 0xffffff);
	p = theme_palette(THEME_PROJECTOR);
	ck_assert_uint_eq(p.bg, 0x000000);
	ck_assert_str_eq(theme_def(THEME_COUNT)->name, "default");
}
END_TEST

static Suite *theme_suite(void)
{
	Suite *s = suite_create("theme");
	TCase *tc = tcase_create("contrast");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, the_ratio_is_wcag_s);
	tcase_add_loop_test(tc, every_role_reads_on_its_background, 0, THEME_COUNT);
	tcase_add_loop_test(tc, every_shard_reads_on_the_screen, 0, THEME_COUNT);
	tcase_add_loop_test(tc, a_set_background_is_set_everywhere, 0, THEME_COUNT);
	suite_add_tcase(s, tc);
	tc = tcase_create("meaning");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, every_shard_has_its_own_symbol);
	tcase_add_test(tc, the_export_shows_the_theme_s_own_colours);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(theme_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
