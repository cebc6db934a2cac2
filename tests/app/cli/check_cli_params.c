/* check_cli_params: --params and --gpu-mem (app/cli/cli_params.c): the
 * counts people write (7.5e9, 70B, 400B, 1.5T), the strict values, the
 * defaults, and every refusal of a --params line, one line each, whatever
 * the order of the options; and the words zero_words gives the table. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "words/zero_words.h"
#include "cli_util.h"




START_TEST(test_counts)
{
	static const struct {
		const char *arg;
		uint64_t want;
	} good[] = { { "7.5e9", 7500000000u },      { "70B", 70000000000u },
		     { "400B", 400000000000u },     { "1.5T", 1500000000000u },
		     { "350M", 350000000u },        { "1", 1 },
		     { "125K", 125000 },            { "1e15", 1000000000000000u },
		     { "0.5K", 500 } };
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		ck_assert_int_eq(parse("-b", "--params", good[i].arg, NULL), CLI_RUN);
		ck_assert_uint_eq(opts.params, good[i].want);
		ck_assert(opts.gpu_mem_gb == CLI_DEFAULT_GPU_MEM_GB);
	}
	static const char *const bad[] = { "0", "7.5", "1.5e15", "2e15", "70b", "70G", "B", "",
					   " 7", "-7e9", "inf", "nan", "0x10", "7e9x", "1e", "0.0001K" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char want[160];
		snprintf(want, sizeof want, "--params must be a count of parameters from 1 to 1e15 "
			 "(7.5e9, 70B, 400B; K, M, B, T), not '%s'", bad[i]);
		REFUSED_AS(want, "-b", "--params", bad[i]);
	}
	ck_assert_int_eq(parse("-b", "--params", "70B", "--gpu-mem", "40", "-d", "16", "--json",
			       NULL), CLI_RUN);
	ck_assert(opts.gpu_mem_gb == 40 && opts.devices == 16 && opts.json);
	ck_assert_int_eq(parse("--json", "--gpu-mem", "141.5", "--params", "70B", "-b", NULL),
			 CLI_RUN);
	ck_assert(opts.gpu_mem_gb == 141.5);
	REFUSED_AS("--gpu-mem must be GB above 0 up to 1e6, not '0'", "-b", "--params", "7e9",
		   "--gpu-mem", "0");
	REFUSED_AS("--gpu-mem must be GB above 0 up to 1e6, not '80GB'", "-b", "--params", "7e9",
		   "--gpu-mem", "80GB");
	ck_assert_int_eq(parse("-b", NULL), CLI_RUN);
	ck_assert_uint_eq(opts.params, 0);
}
END_TEST

START_TEST(test_refusals)
{
	/* the interface runs, and c's second page is the model's */
	ck_assert_int_eq(parse("--params", "70B", "-d", "8", "--gpu-mem", "141", NULL), CLI_RUN);
	ck_assert_uint_eq(opts.params, UINT64_C(70000000000));
	REFUSED_AS("--params has no effect with --export (the stills show the panels; c's table "
		   "at real scale is the interface's)", "--params", "70B", "--export", "x.svg");
	REFUSED_AS("--gpu-mem has no effect without --params (it is the memory a device has for "
		   "the model's states)", "-b", "--gpu-mem", "40");
	REFUSED_AS("--gpu-mem has no effect without --params (it is the memory a device has for "
		   "the model's states)", "--gpu-mem", "40", "-m", "dp");
	static const char *const others[][3] = {
		{ "-m", "dp", "-m" },          { "-M", "4", "-M" },
		{ "--seed", "3", "--seed" },   { "--train", NULL, "--train" },
		{ "--sweep", "allreduce", "--sweep" }, { "--collective", "allreduce", "--collective" },
		{ "--hw", "ib-ndr", "--hw" },  { "-q", NULL, "-q" },
		{ "--timeline", NULL, "--timeline" }, { "--trace", "t.jsonl", "--trace" },
	};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		char want[256];
		snprintf(want, sizeof want, "%s has no effect with --params (the memory table is the "
			 "closed forms alone: nothing runs; it takes -d, --gpu-mem and --json)",
			 others[i][2]);
		if (others[i][1])
			REFUSED_AS(want, others[i][0], others[i][1], "-b", "--params", "7.5e9");
		else
			REFUSED_AS(want, "-b", others[i][0], "--params", "7.5e9");
		ck_assert_str_eq(cli_option_name(opts.refused), others[i][2]);
	}
	/* --json still needs --sweep or --params */
	ck_assert_int_eq(parse("-b", "--json", NULL), CLI_ERROR);
	ck_assert(strstr(msg, "--json has no effect without --sweep") == msg);
}
END_TEST

START_TEST(test_words)
{
	char buf[64];
	ck_assert_str_eq(zerow_name(MODEL_ZERO_3), "ZeRO-3 / FSDP");
	ck_assert_str_eq(zerow_key(MODEL_ZERO_1), "zero-1");
	ck_assert_str_eq(zerow_formula(MODEL_ZERO_2), "2\xce\xa8 + 14\xce\xa8/N");
	ck_assert_str_eq(zerow_name(MODEL_ZERO_COUNT), "?");
	zerow_params(7500000000u, buf, sizeof buf);
	ck_assert_str_eq(buf, "7500000000 (7.5 B)");
	zerow_params(999, buf, sizeof buf);
	ck_assert_str_eq(buf, "999");
	zerow_gb(31406250000.0, buf, sizeof buf);
	ck_assert_str_eq(buf, "31.4 GB");
	ck_assert(strstr(zerow_convention(), "GB = 10^9 bytes"));
	ck_assert(strstr(zerow_left_out(), "activations"));
}
END_TEST

static Suite *cli_params_suite(void)
{
	Suite *s = suite_create("cli_params");
	TCase *tc = tcase_create("--params");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_words);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_params_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
