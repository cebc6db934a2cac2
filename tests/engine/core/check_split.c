/* check_split: numpy.array_split's rule and the mod that C's % is not.
 * The schedule built on them is check_schedule's. */
#include <check.h>

#include <distmm/split.h>
#include "testutil.h"

START_TEST(sizes_match_numpy)
{
	/* np.array_split(np.arange(len), n): the part sizes numpy prints */
	static const struct { size_t len; int n; size_t sizes[6]; } cases[] = {
		{ 8, 2, { 4, 4 } },       { 8, 4, { 2, 2, 2, 2 } }, { 7, 3, { 3, 2, 2 } },
		{ 5, 3, { 2, 2, 1 } },    { 10, 4, { 3, 3, 2, 2 } }, { 2, 4, { 1, 1, 0, 0 } },
		{ 0, 3, { 0, 0, 0 } },    { 4, 1, { 4 } },          { 6, 6, { 1, 1, 1, 1, 1, 1 } },
		{ 3, 5, { 1, 1, 1, 0, 0 } },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		size_t off = 0;
		for (int i = 0; i < cases[c].n; i++) {
			ck_assert_uint_eq(split_size(cases[c].len, cases[c].n, i), cases[c].sizes[i]);
			ck_assert_uint_eq(split_offset(cases[c].len, cases[c].n, i), off);
			off += cases[c].sizes[i];
		}
		ck_assert_uint_eq(split_offset(cases[c].len, cases[c].n, cases[c].n), cases[c].len);
		ck_assert_uint_eq(split_max(cases[c].len, cases[c].n), cases[c].sizes[0]);
	}
}
END_TEST

START_TEST(parts_cover_every_item_once)
{
	for (size_t len = 0; len <= 70; len++)
		for (int n = 1; n <= 67; n++) {
			size_t total = 0;
			for (int i = 0; i < n; i++) {
				size_t sz = split_size(len, n, i);
				ck_assert(i == 0 || sz <= split_size(len, n, i - 1));
				ck_assert(sz + 1 >= split_size(len, n, 0));
				for (size_t j = 0; j < sz; j++)
					ck_assert_int_eq(split_part_of(len, n, split_offset(len, n, i) + j), i);
				total += sz;
			}
			ck_assert_uint_eq(total, len);
		}
}
END_TEST

START_TEST(mod_is_never_negative)
{
	ck_assert_int_eq(-1 % 4, -1); /* the trap this function exists for */
	ck_assert_int_eq(split_mod(-1, 4), 3);
	ck_assert_int_eq(split_mod(0 - 3, 4), 1);
	ck_assert_int_eq(split_mod(-8, 4), 0);
	ck_assert_int_eq(split_mod(5, 4), 1);
	for (int n = 1; n <= 64; n++)
		for (long a = -200; a <= 200; a++) {
			int m = split_mod(a, n);
			ck_assert(m >= 0 && m < n);
			ck_assert_int_eq((a - m) % n, 0);
		}
}
END_TEST

static Suite *split_suite(void)
{
	Suite *s = suite_create("split");
	TCase *tc = tcase_create("array_split");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, sizes_match_numpy);
	tcase_add_test(tc, parts_cover_every_item_once);
	suite_add_tcase(s, tc);
	tc = tcase_create("ring arithmetic");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, mod_is_never_negative);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(split_suite());
}
