/* check_view_words: view_words_unkeyed, the captions an export writes:
 * what tells a person at the keys to press one goes, the rest stays as it
 * was, on the shipped lessons' own sentences. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tui/view.h"

static void unkeyed_is(const char *in, const char *want)
{
	char buf[512];
	strcpy(buf, in);
	view_words_unkeyed(buf);
	ck_assert_str_eq(buf, want);
}

START_TEST(sentences_that_say_press_go)
{
	unkeyed_is("Ready: rank r holds rows of A. Press n for s=0.", "Ready: rank r holds rows of A.");
	unkeyed_is("Press n.", "");
	unkeyed_is("Every rank waits. Press f for the fix, or n for the next part.",
		   "Every rank waits.");
	unkeyed_is("Capacity 0, like MPI_Ssend). Press n twice. Then it hangs.",
		   "Capacity 0, like MPI_Ssend). Then it hangs.");
	unkeyed_is("FSDP sent 3 x (n-1)/n of the weights. Press c: memory, forward and backward.",
		   "FSDP sent 3 x (n-1)/n of the weights.");
}
END_TEST

START_TEST(a_clause_that_says_press_goes_to_its_full_stop)
{
	unkeyed_is("Data parallel: every device holds B. Watch the memory bars, then press c for "
		   "the table.",
		   "Data parallel: every device holds B. Watch the memory bars.");
}
END_TEST

START_TEST(next_part_and_the_rest_stay)
{
	unkeyed_is("LESSON-DONE Next (n): DP on three.", "LESSON-DONE Next: DP on three.");
	unkeyed_is("step s=1: each rank multiplies (r - 1) mod 4.",
		   "step s=1: each rank multiplies (r - 1) mod 4.");
	unkeyed_is("compressed, expressed, pressure.", "compressed, expressed, pressure.");
	unkeyed_is("", "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("view_words");
	TCase *tc = tcase_create("unkeyed");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, sentences_that_say_press_go);
	tcase_add_test(tc, a_clause_that_says_press_goes_to_its_full_stop);
	tcase_add_test(tc, next_part_and_the_rest_stay);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
