/* check_cli: the command line's parser (app/cli/cli.c) without running the
 * program: the defaults, every option's field, the strict numbers (no "4x",
 * "-3", " 4" or ""), --start-at's, --size's and --speed's forms, the one
 * setting --naive, --order and --fix say three ways, the rules that refuse
 * an option doing nothing (whatever the order of the options), and the
 * names messages use.  batch_test.sh holds the program's exit statuses and
 * lines; the fuzzer holds that no input crashes it. */
#include <check.h>
#include <stdarg.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/mat.h>
#include <distmm/order.h>
#include <distmm/run.h>

#include "cli/cli.h"
#include "practice/lesson.h"
#include "cli_util.h"



#define REFUSED(...)                                                  \
	do {                                                          \
		ck_assert_int_eq(parse(__VA_ARGS__, NULL), CLI_ERROR); \
		ck_assert_msg(msg[0] != '\0', "no message");           \
	} while (0)

START_TEST(test_defaults)
{
	ck_assert_int_eq(parse(NULL), CLI_RUN);
	ck_assert_int_eq(opts.devices, 4);
	ck_assert_int_eq(opts.mode, DM_FSDP);
	ck_assert_uint_eq(opts.seed, CLI_DEFAULT_SEED);
	ck_assert_int_eq(opts.values, MAT_VALUES_INTS);
	ck_assert(opts.capacity == RUN_UNBOUNDED);
	ck_assert_int_eq(opts.order, ORDER_PARITY);
	ck_assert_int_eq(opts.bug, BUG_NONE);
	ck_assert_uint_eq(opts.judge_ms, CLI_JUDGE_MS);
	ck_assert_int_eq(opts.judge_unconfined, 0);
	ck_assert_int_eq(opts.cols, CLI_DEFAULT_COLS);
	ck_assert_int_eq(opts.rows, CLI_DEFAULT_ROWS);
	ck_assert_uint_eq(opts.M + opts.K + opts.N, 0); /* not given: the inputs choose */
	ck_assert_uint_eq(opts.given, 0);
	ck_assert_int_eq(opts.start_kind, CLI_START_READY);
	ck_assert_str_eq(msg, "");
}
END_TEST

START_TEST(test_fields)
{
	ck_assert_int_eq(parse("-b", "-q", "-d", "16", "-m", "dp", "-M", "7", "-K", "5", "-N", "9",
			       "--seed", "18446744073709551615", "--values", "floats", "-o", "c.npy",
			       "--trace", "t.json", "--trace-format", "chrome", "--capacity", "0",
			       "--verify", "freivalds", "--compare", NULL),
			 CLI_RUN);
	ck_assert(opts.batch && opts.quiet && opts.compare);
	ck_assert_int_eq(opts.devices, 16);
	ck_assert_int_eq(opts.mode, DM_DP);
	ck_assert_uint_eq(opts.M, 7);
	ck_assert_uint_eq(opts.K, 5);
	ck_assert_uint_eq(opts.N, 9);
	ck_assert_uint_eq(opts.seed, UINT64_MAX);
	ck_assert_int_eq(opts.values, MAT_VALUES_FLOATS);
	ck_assert_str_eq(opts.out_file, "c.npy");
	ck_assert_str_eq(opts.trace_file, "t.json");
	ck_assert_int_eq(opts.trace_format, CLI_TRACE_CHROME);
	ck_assert_uint_eq(opts.capacity, 0);
	ck_assert_int_eq(opts.verify, CLI_VERIFY_FREIVALDS);
	ck_assert_uint_eq(opts.given, CLI_GIVEN_BATCH | CLI_GIVEN_QUIET | CLI_GIVEN_DEVICES |
					     CLI_GIVEN_MODE | CLI_GIVEN_M | CLI_GIVEN_K | CLI_GIVEN_N |
					     CLI_GIVEN_SEED | CLI_GIVEN_VALUES | CLI_GIVEN_OUT |
					     CLI_GIVEN_TRACE | CLI_GIVEN_TRACE_FORMAT |
					     CLI_GIVEN_CAPACITY | CLI_GIVEN_VERIFY | CLI_GIVEN_COMPARE);

	ck_assert_int_eq(parse("--train", "-b", "--dC", "dc.csv", "--dA-out", "a.npy", "--dB-out",
			       "b.npy", "--bug", "no-sum", NULL),
			 CLI_RUN);
	ck_assert(opts.train);
	ck_assert_str_eq(opts.dc_file, "dc.csv");
	ck_assert_str_eq(opts.da_out_file, "a.npy");
	ck_assert_str_eq(opts.db_out_file, "b.npy");
	ck_assert_int_eq(opts.bug, BUG_NO_SUM);

	ck_assert_int_eq(parse("--play", "--no-color", "--ascii", "--theme", "projector", "--speed",
			       "1/4x", "--quiz=2", "--record", "r.cast", NULL),
			 CLI_RUN);
	ck_assert(opts.play && opts.no_color && opts.ascii && opts.theme == CLI_THEME_PROJECTOR);
	ck_assert_int_eq(opts.speed_step, -2);
	ck_assert_int_eq(opts.quiz, 2);
	ck_assert_str_eq(opts.record_file, "r.cast");
	ck_assert_int_eq(parse("--theme", "light", NULL), CLI_RUN);
	ck_assert_int_eq(opts.theme, CLI_THEME_LIGHT);
	ck_assert_int_eq(parse("--export", "x.svg", "--export-chrome", "full", NULL), CLI_RUN);
	ck_assert_int_eq(opts.export_chrome, CLI_CHROME_FULL);
	ck_assert_int_eq(parse("--export", "x.svg", "--export-chrome", "none", NULL), CLI_RUN);
	ck_assert_int_eq(opts.export_chrome, CLI_CHROME_NONE);

	ck_assert_int_eq(parse("--judge", "s.py", "--judge-timeout", "0.25", NULL), CLI_RUN);
	ck_assert_str_eq(opts.judge_file, "s.py");
	ck_assert_uint_eq(opts.judge_ms, 250);
	ck_assert_int_eq(parse("--judge", "s.py", "--judge-unconfined", NULL), CLI_RUN);
	ck_assert_int_eq(opts.judge_unconfined, 1);

	/* int-accumulator's cut fractions show only with fractions */
	ck_assert_int_eq(parse("-b", "--bug", "int-accumulator", NULL), CLI_RUN);
	ck_assert_int_eq(opts.values, MAT_VALUES_FLOATS);
	ck_assert_int_eq(parse("-b", "--bug", "int-accumulator", "--values", "ints", NULL), CLI_RUN);
	ck_assert_int_eq(opts.values, MAT_VALUES_INTS);
}
END_TEST

/* The numbers strtol alone would take. */
START_TEST(test_strict_numbers)
{
	static const char *const bad[] = { "4x", "-3", " 4", "", "0", "4097", "+4", "0x10", "1e2",
					   "99999999999999999999" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		REFUSED("-d", bad[i]);
		ck_assert_msg(strstr(msg, "device count") != NULL, "-d '%s': %s", bad[i], msg);
		ck_assert_msg(strstr(msg, bad[i]) != NULL, "the value is named: %s", msg);
	}
	REFUSED("-M", "0");
	ck_assert(strstr(msg, "-M (rows of A)") != NULL);
	REFUSED("-K", "1000000001");
	REFUSED("-N", "3.5");
	REFUSED("--seed", "-1");
	REFUSED("--capacity", "1000001");
	REFUSED("--capacity", "Unbounded");
	REFUSED("--judge", "s.py", "--judge-timeout", "0.05");
	REFUSED("--judge", "s.py", "--judge-timeout", "601");
	REFUSED("--judge", "s.py", "--judge-timeout", ".5");
	ck_assert_int_eq(parse("-d", "4096", "-b", NULL), CLI_RUN);
	ck_assert_int_eq(parse("-d", "007", "-b", NULL), CLI_RUN);
	ck_assert_int_eq(opts.devices, 7);
}
END_TEST

START_TEST(test_start_at)
{
	static const struct {
		const char *arg;
		int kind, step;
	} good[] = {
		{ "ready", CLI_START_READY, 0 },	 { "gather", CLI_START_GATHER, 0 },
		{ "verify", CLI_START_VERIFY, 0 },	 { "partial", CLI_START_PARTIAL, 0 },
		{ "0", CLI_START_COMPUTE, 0 },		 { "2", CLI_START_COMPUTE, 2 },
		{ "2t", CLI_START_TRANSFER, 2 },	 { "b3", CLI_START_BWD_COMPUTE, 3 },
		{ "b3t", CLI_START_BWD_TRANSFER, 3 }, { "rs1", CLI_START_RS, 1 },
		{ "ag0", CLI_START_AG, 0 },		 { "4095", CLI_START_COMPUTE, 4095 },
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		ck_assert_msg(parse("--start-at", good[i].arg, NULL) == CLI_RUN, "%s: %s", good[i].arg,
			      msg);
		ck_assert_int_eq(opts.start_kind, good[i].kind);
		ck_assert_int_eq(opts.start_step, good[i].step);
	}
	static const char *const bad[] = { "t", "x", "2tt", "rs", "rs1t", "ag1t", "b", "bt", "-1",
					   "4096", "Ready", "2 ", "" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		REFUSED("--start-at", bad[i]);
		ck_assert_msg(strstr(msg, "--start-at takes") != NULL, "'%s': %s", bad[i], msg);
	}
}
END_TEST

START_TEST(test_size_speed)
{
	ck_assert_int_eq(parse("--export", "x.svg", "--size", "80x24", NULL), CLI_RUN);
	ck_assert_int_eq(opts.cols, 80);
	ck_assert_int_eq(opts.rows, 24);
	ck_assert_int_eq(parse("--export", "x.svg", "--size", "1000x1", NULL), CLI_RUN);
	static const char *const bad[] = { "80x", "x24", "0x24", "1001x24", "80X24", "80x24x2", "80",
					   "-80x24" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		REFUSED("--export", "x.svg", "--size", bad[i]);
	static const struct {
		const char *arg;
		int step;
	} speeds[] = { { "1/4", -2 }, { "0.25x", -2 }, { "1/2x", -1 }, { "1", 0 }, { "16x", 4 } };
	for (size_t i = 0; i < sizeof speeds / sizeof speeds[0]; i++) {
		ck_assert_int_eq(parse("--speed", speeds[i].arg, NULL), CLI_RUN);
		ck_assert_int_eq(opts.speed_step, speeds[i].step);
	}
	REFUSED("--speed", "3");
	REFUSED("--speed", "x");
	REFUSED("--speed", "32x");
}
END_TEST

/* --naive, --order and --fix: one setting; two answers are refused. */
START_TEST(test_orders)
{
	ck_assert_int_eq(parse("--naive", NULL), CLI_RUN);
	ck_assert_int_eq(opts.order, ORDER_SEND_FIRST);
	ck_assert_str_eq(opts.order_opt, "--naive");
	ck_assert_int_eq(parse("--naive", "--order", "send-first", NULL), CLI_RUN);
	ck_assert_int_eq(parse("--fix", "recv-thread", "--fix", "recv-thread", NULL), CLI_RUN);
	ck_assert_int_eq(opts.order, ORDER_RECV_THREAD);
	ck_assert_int_eq(parse("--order", "parity", "--fix", "parity", NULL), CLI_RUN);
	REFUSED("--naive", "--fix", "sendrecv");
	ck_assert(strstr(msg, "--naive and --fix sendrecv both say") != NULL);
	REFUSED("--order", "recv-first", "--naive");
	REFUSED("--order", "sideways");
	REFUSED("--fix", "send-first"); /* an order, not a fix */
	REFUSED("--order", "buffered"); /* a fix, not an order */
}
END_TEST

/* Options that would do nothing: refused naming the option, in either order. */
START_TEST(test_useless)
{
	static const struct {
		const char *a, *b, *c;
		cli_given_t refused;
	} cases[] = {
		{ "-q", NULL, NULL, CLI_GIVEN_QUIET },
		{ "-b", "--play", NULL, CLI_GIVEN_PLAY },
		{ "-b", "--trace-format=chrome", NULL, CLI_GIVEN_TRACE_FORMAT },
		{ "--train", "--replay=t.jsonl", NULL, CLI_GIVEN_TRAIN },
		{ "--bug=no-sum", "-b", NULL, CLI_GIVEN_BUG },
		{ "--bug=r-plus-s", "-b", "-mdp", CLI_GIVEN_BUG },
		{ "--bug=r-plus-s", "-b", "--train", CLI_GIVEN_BUG },
		{ "--dC=d.npy", "-b", NULL, CLI_GIVEN_DC },
		{ "--naive", "-b", "--train", CLI_GIVEN_NAIVE },
		{ "--naive", "-b", "-mdp", CLI_GIVEN_NAIVE },
		{ "--quiz=derive", "-mdp", NULL, CLI_GIVEN_DERIVE },
		{ "--judge=s.py", "-Aa.npy", NULL, CLI_GIVEN_A },
		{ "--judge-unconfined", "-b", NULL, CLI_GIVEN_JUDGE_UNCONFINED },
		{ "--size=80x24", NULL, NULL, CLI_GIVEN_SIZE },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = cases[i].c ? parse(cases[i].a, cases[i].b, cases[i].c, NULL)
				    : cases[i].b ? parse(cases[i].a, cases[i].b, NULL)
						 : parse(cases[i].a, NULL);
		ck_assert_msg(rc == CLI_ERROR, "case %zu ran", i);
		ck_assert_uint_eq(opts.refused, cases[i].refused);
		ck_assert_msg(strncmp(msg, cli_option_name(cases[i].refused),
				      strlen(cli_option_name(cases[i].refused))) == 0 &&
				      strstr(msg, "has no effect") != NULL,
			      "case %zu: %s", i, msg);
		/* the same options the other way round: the same refusal */
		rc = cases[i].c ? parse(cases[i].c, cases[i].b, cases[i].a, NULL)
		     : cases[i].b ? parse(cases[i].b, cases[i].a, NULL)
				  : parse(cases[i].a, NULL);
		ck_assert_int_eq(rc, CLI_ERROR);
		ck_assert_uint_eq(opts.refused, cases[i].refused);
	}
	REFUSED("-b", "--seed=3", "-Aa.npy", "-Bb.npy");
	ck_assert_uint_eq(opts.refused, CLI_GIVEN_SEED);
	/* ... but not when a training step may still make dC from the seed */
	ck_assert_int_eq(parse("-b", "--seed=3", "-Aa.npy", "-Bb.npy", "--train", NULL), CLI_RUN);
	ck_assert_int_eq(parse("-b", "-mdp", "--bug=arrival-order", NULL), CLI_RUN);
	ck_assert_uint_eq(opts.refused, 0);
}
END_TEST

START_TEST(test_quiz)
{
	ck_assert_int_eq(parse("--quiz", NULL), CLI_RUN);
	ck_assert_int_eq(opts.quiz, 1);
	ck_assert_int_eq(parse("--quiz=derive", NULL), CLI_RUN);
	ck_assert_int_eq(opts.quiz, CLI_QUIZ_DERIVE);
	ck_assert(opts.given & CLI_GIVEN_DERIVE);
	/* the last --quiz counts: derive's own refusals no longer apply */
	ck_assert_int_eq(parse("--quiz=derive", "--quiz=1", "-mdp", NULL), CLI_RUN);
	ck_assert_int_eq(opts.quiz, 1);
	ck_assert(!(opts.given & CLI_GIVEN_DERIVE));
	REFUSED("--quiz=3");
}
END_TEST

START_TEST(test_actions_and_words)
{
	ck_assert_int_eq(parse("-h", NULL), CLI_HELP);
	ck_assert_int_eq(parse("-V", "--help", NULL), CLI_HELP);
	ck_assert_int_eq(parse("--version", NULL), CLI_VERSION);
	ck_assert_int_eq(parse("--bug", "list", NULL), CLI_BUG_LIST);
	/* help wins over a useless option: nothing runs */
	ck_assert_int_eq(parse("-q", "--help", NULL), CLI_HELP);

	REFUSED("--colour");
	ck_assert_str_eq(msg, "unknown option '--colour' (see --help)");
	REFUSED("--ascii=0");
	ck_assert_str_eq(msg, "option '--ascii' takes no value");
	REFUSED("-Z");
	ck_assert_str_eq(msg, "unknown option '-Z' (see --help)");
	REFUSED("-d");
	ck_assert_str_eq(msg, "option '-d' needs a value");
	REFUSED("stray");
	ck_assert_str_eq(msg, "unexpected argument 'stray' (see --help)");
	REFUSED("-m", "tp");
	REFUSED("--values", "halves");
	REFUSED("--bug", "off-by-two");
	REFUSED("--theme", "dark");
	REFUSED("--export", "x.svg", "--export-chrome", "some");
	REFUSED("--export-chrome", "none");
	REFUSED("-b", "--verify", "maybe");
	REFUSED("-b", "--trace", "t", "--trace-format", "csv");
	/* getopt_long's unambiguous prefixes */
	ck_assert_int_eq(parse("--dev", "3", "--bat", NULL), CLI_RUN);
	ck_assert_int_eq(opts.devices, 3);
	ck_assert(opts.batch);
}
END_TEST

/* Every given bit has a name of its own; the caller's argv is left alone. */
START_TEST(test_names_and_argv)
{
	for (int i = 0; i < CLI_GIVEN_COUNT; i++) {
		const char *name = cli_option_name(UINT64_C(1) << i);
		ck_assert_msg(name[0] == '-', "bit %d: '%s'", i, name);
		for (int j = 0; j < i; j++)
			ck_assert_str_ne(name, cli_option_name(UINT64_C(1) << j));
	}
	ck_assert_str_eq(cli_option_name(0), "");

	char w0[] = "distmm-tui", w1[] = "stray", w2[] = "-b", w3[] = "-d", w4[] = "3";
	char *argv[] = { w0, w1, w2, w3, w4, NULL };
	char *copy[6];
	memcpy(copy, argv, sizeof argv);
	ck_assert_int_eq(cli_parse(5, argv, &opts, msg, sizeof msg), CLI_ERROR);
	for (int i = 0; i < 5; i++)
		ck_assert_ptr_eq(argv[i], copy[i]); /* getopt permuted a copy, not this */
}
END_TEST

START_TEST(test_lesson_check)
{
	ck_assert_int_eq(parse("-d", "3", "--lesson", "l.lesson", NULL), CLI_RUN);
	ck_assert_int_eq(cli_lesson_check(&opts, LESSON_SET_M | LESSON_SET_BUG, msg, sizeof msg), 0);
	ck_assert_int_eq(cli_lesson_check(&opts, LESSON_SET_DEVICES, msg, sizeof msg), -1);
	ck_assert_str_eq(msg, "-d has no effect with --lesson l.lesson: the lesson's first part sets "
			      "it (devices=)");
	ck_assert_int_eq(parse("--fix", "sendrecv", "--lesson", "l.lesson", NULL), CLI_RUN);
	ck_assert_int_eq(cli_lesson_check(&opts, LESSON_SET_ORDER, msg, sizeof msg), -1);
	ck_assert(strncmp(msg, "--fix has no effect", 19) == 0);
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("parse");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_strict_numbers);
	tcase_add_test(tc, test_start_at);
	tcase_add_test(tc, test_size_speed);
	tcase_add_test(tc, test_orders);
	tcase_add_test(tc, test_useless);
	tcase_add_test(tc, test_quiz);
	tcase_add_test(tc, test_actions_and_words);
	tcase_add_test(tc, test_names_and_argv);
	tcase_add_test(tc, test_lesson_check);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
