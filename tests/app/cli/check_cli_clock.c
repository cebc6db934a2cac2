/* check_cli_clock: the clock's options (app/cli/cli_clock.c, their rules
 * in cli.c) and what the run makes of them (inputs_hw, inputs_collective
 * in inputs_clock.c): every field, the strict numbers, --bytes' units,
 * --hw list, each refusal whatever the order of the options, and the
 * model a preset, a file and the values over them give.  The words' latency
 * terms are held to the engine's phase counts (app/words/clock_words.c). */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <distmm/ccl.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

#include "cli/cli.h"
#include "cli/inputs.h"
#include "words/clock_words.h"
#include "cli_util.h"




START_TEST(test_fields_and_defaults)
{
	ck_assert_int_eq(parse(NULL), CLI_RUN);
	ck_assert_int_eq(opts.collective, -1);
	ck_assert_int_eq(opts.sweep, -1);
	ck_assert_int_eq(opts.algo, CCL_RING);
	ck_assert_uint_eq(opts.bytes, CLI_DEFAULT_BYTES);
	ck_assert_ptr_null(opts.hw);
	ck_assert_int_eq(parse("-b", "--collective", "reducescatter", "--algo", "rhd", "--bytes",
			       "3M", "-d", "8", "--hw", "ib-ndr", "--alpha", "0", "--bw", "12.5",
			       NULL), CLI_RUN);
	ck_assert_int_eq(opts.collective, CCL_REDUCESCATTER);
	ck_assert_int_eq(opts.algo, CCL_RHD);
	ck_assert_uint_eq(opts.bytes, 3u << 20);
	ck_assert_str_eq(opts.hw, "ib-ndr");
	ck_assert(opts.alpha_us == 0 && opts.bw_gbps == 12.5);
	ck_assert(opts.given & CLI_GIVEN_ALPHA);
	ck_assert(!(opts.given & CLI_GIVEN_FLOPS));
	ck_assert_int_eq(parse("-b", "--sweep", "broadcast", "--json", "--flops", "1e3", NULL),
			 CLI_ERROR); /* a sweep computes nothing */
	ck_assert_int_eq(parse("-b", "--sweep", "broadcast", "--json", "-d", "5", NULL), CLI_RUN);
	ck_assert_int_eq(opts.sweep, CCL_BROADCAST);
	ck_assert(opts.json);
	ck_assert_int_eq(parse("-b", "-d", "3", "--flops", ".5", "--train", NULL), CLI_RUN);
	ck_assert(opts.tflops == 0.5);
	ck_assert_int_eq(parse("--hw", "list", NULL), CLI_HW_LIST);
	ck_assert_int_eq(parse("--hw", "list", "--help", NULL), CLI_HELP);
}
END_TEST

START_TEST(test_strict_values)
{
	static const char *const bad_bytes[] = { "0", "7", "12", "8x", " 8", "-8", "1T", "K",
						 "17G", "16.5M", "" };
	for (size_t i = 0; i < sizeof bad_bytes / sizeof bad_bytes[0]; i++) {
		char want[160];
		snprintf(want, sizeof want, "--bytes must be a multiple of 8 from 8 to 16G (K, M and G "
			 "count 1024s), not '%s'", bad_bytes[i]);
		REFUSED_AS(want, "-b", "--collective", "allreduce", "--bytes", bad_bytes[i]);
	}
	ck_assert_int_eq(parse("-b", "--collective", "allreduce", "--bytes", "16G", NULL), CLI_RUN);
	ck_assert_uint_eq(opts.bytes, UINT64_C(16) << 30);
	ck_assert_int_eq(parse("-b", "--collective", "allreduce", "--bytes", "8", NULL), CLI_RUN);
	static const char *const bad_real[] = { "inf", "nan", "0x10", "4x", " 1", "1e", "--1", "" };
	for (size_t i = 0; i < sizeof bad_real / sizeof bad_real[0]; i++) {
		ck_assert_int_eq(parse("-b", "--alpha", bad_real[i], NULL), CLI_ERROR);
		ck_assert_int_eq(parse("-b", "--bw", bad_real[i], NULL), CLI_ERROR);
	}
	REFUSED_AS("--alpha must be microseconds from 0 to 1e+06, not '2e6'", "-b", "--alpha", "2e6");
	REFUSED_AS("--bw must be GB/s above 0 up to 1e+06, not '0'", "-b", "--bw", "0");
	REFUSED_AS("--flops must be TFLOPS above 0 up to 1e+06, not '-1'", "-b", "--flops", "-1");
	REFUSED_AS("unknown collective 'all-reduce' for --collective (use allreduce, allgather, "
		   "reducescatter, broadcast or reduce)", "-b", "--collective", "all-reduce");
	REFUSED_AS("unknown algorithm 'nccl' (use ring, tree or rhd)", "-b", "--collective",
		   "allreduce", "--algo", "nccl");
	REFUSED_AS("--hw takes a preset's name or a preset file (--hw list names the presets)",
		   "-b", "--hw", "");
}
END_TEST

/* Each rule, the option first or last: the same line. */
START_TEST(test_rules)
{
	static const struct {
		const char *w[6], *line;
	} rules[] = {
		{ { "--sweep", "allreduce" },
		  "--sweep has no effect without -b (batch mode prints the sweep; the interface "
		  "animates one --collective)" },
		{ { "--collective", "allreduce", "--quiz" },
		  "--quiz has no effect with --collective (the interface steps a collective with n, b "
		  "and g; its lessons, quiz and exports are matrices' runs)" },
		{ { "-b", "--algo", "tree" },
		  "--algo has no effect without --collective (it is the collective's algorithm)" },
		{ { "-b", "--bytes", "8" },
		  "--bytes has no effect without --collective (it is the collective's size)" },
		{ { "-b", "--json" },
		  "--json has no effect without --sweep (it prints the sweep as JSON Lines)" },
		{ { "-b", "--sweep", "reduce", "-q" },
		  "-q has no effect with --sweep (the sweep is the model alone: nothing runs)" },
		{ { "-b", "--collective", "reduce", "--train" },
		  "--train has no effect with --collective (it runs one collective on a buffer a "
		  "rank: no matrices, and no trace yet)" },
		{ { "-b", "--collective", "reduce", "-o", "c.npy" },
		  "-o has no effect with --collective (it runs one collective on a buffer a rank: "
		  "no matrices, and no trace yet)" },
		{ { "-b", "--judge", "x.py", "--hw", "h100-nvlink" },
		  "--hw has no effect with --judge (the judged file's runs are not modelled)" },
	};
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		const char *const *w = rules[i].w;
		ck_assert_int_eq(parse(w[0], w[1], w[2], w[3], w[4], w[5], NULL), CLI_ERROR);
		ck_assert_str_eq(msg, rules[i].line);
	}
	/* the order of the options changes nothing */
	REFUSED_AS("--sweep has no effect with --collective (give one: --collective runs one size, "
		   "--sweep models every size)", "--sweep", "reduce", "-b", "--collective", "reduce");
	REFUSED_AS("--sweep has no effect with --collective (give one: --collective runs one size, "
		   "--sweep models every size)", "-b", "--collective", "reduce", "--sweep", "reduce");
	/* the interface animates one (modes/ccl.c) */
	ck_assert_int_eq(parse("--collective", "allreduce", "--algo", "tree", "--bytes", "64", NULL),
			 CLI_RUN);
	/* what a collective does take: the seed, the values, the capacity, -q */
	ck_assert_int_eq(parse("-b", "-q", "--seed", "3", "--values", "floats", "--capacity", "0",
			       "--collective", "broadcast", NULL), CLI_RUN);
	/* the model with a multiply, its training step and a replay */
	ck_assert_int_eq(parse("-b", "--train", "--hw", "b200-nvlink-bf16", "--flops", "9", NULL),
			 CLI_RUN);
	ck_assert_int_eq(parse("-b", "--replay", "t.jsonl", "--bw", "9", NULL), CLI_RUN);
	/* and in the interface, which says the model on every stop */
	ck_assert_int_eq(parse("--hw", "a100-nvlink", "-d", "3", NULL), CLI_RUN);
	ck_assert_int_eq(parse("--train", "--alpha", "0", "--export", "x.svg", NULL), CLI_RUN);
}
END_TEST

/* What the run makes of --hw and the values over it. */
START_TEST(test_the_model_the_options_give)
{
	struct dm_hw hw;
	struct dm_err err;
	ck_assert_int_eq(parse("-b", NULL), CLI_RUN);
	ck_assert_int_eq(inputs_hw(&opts, &hw, &err), 0);
	ck_assert_str_eq(hw.name, "h100-nvlink");
	ck_assert_int_eq(parse("-b", "--hw", "a100-nvlink-bf16", "--bw", "1", NULL), CLI_RUN);
	ck_assert_int_eq(inputs_hw(&opts, &hw, &err), 0);
	ck_assert(hw.alpha_us == 2.4 && hw.bw_gbps == 1 && hw.tflops == 312);
	char dir[] = "/tmp/check_cli_clock.XXXXXX", path[64];
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/lab.hw", dir);
	FILE *f = fopen(path, "w");
	fputs("alpha_us = 7\nbw_gbps = 25\n", f);
	fclose(f);
	ck_assert_int_eq(parse("-b", "--hw", path, "--flops", "3", NULL), CLI_RUN);
	ck_assert_int_eq(inputs_hw(&opts, &hw, &err), 0);
	ck_assert_str_eq(hw.name, "lab");
	ck_assert(hw.alpha_us == 7 && hw.bw_gbps == 25 && hw.tflops == 3);
	unlink(path);
	rmdir(dir);
	ck_assert_int_eq(inputs_hw(&opts, &hw, &err), DM_EIO);
	ck_assert_int_eq(parse("-b", "--hw", "tpu-v5", NULL), CLI_RUN);
	ck_assert_int_eq(inputs_hw(&opts, &hw, &err), DM_EINVAL);
	ck_assert_str_eq(err.msg, "--hw tpu-v5: no such preset (--hw list names them) and no such "
				  "file");
	/* a collective's plan and buffers; rhd's refusal in the engine's words */
	struct dm_plan *p;
	struct mat in;
	struct run_config cfg;
	ck_assert_int_eq(parse("-b", "--collective", "allgather", "-d", "3", "--bytes", "48", NULL),
			 CLI_RUN);
	ck_assert_int_eq(inputs_collective(&opts, &p, &in, &cfg, &err), 0);
	ck_assert_int_eq(plan_mode(p), DM_COLL);
	ck_assert_uint_eq(plan_ccl_count(p), 6);
	ck_assert(in.rows == 3 && in.cols == 6);
	plan_free(p);
	mat_free(&in);
	ck_assert_int_eq(parse("-b", "--collective", "allreduce", "--algo", "rhd", "-d", "6", NULL),
			 CLI_RUN);
	ck_assert_int_eq(inputs_collective(&opts, &p, &in, &cfg, &err), DM_EINVAL);
	ck_assert_ptr_null(p);
	ck_assert_str_eq(err.msg, "rhd (recursive halving-doubling) needs a power of two ranks, "
				  "not 6 (use ring or tree)");
}
END_TEST

/* The latency term the words print is the engine's phase count: "2(n-1)
 * alpha" where the ring all-reduce has 2(n-1) phases, "2L" where the tree's
 * has 2 ceil(log2 n)... */
START_TEST(test_words_count_the_engines_phases)
{
	for (int kind = 0; kind < CCL_KIND_COUNT; kind++)
		for (int algo = 0; algo < CCL_ALGO_COUNT; algo++) {
			const char *f = clockw_time_formula(kind, algo);
			ck_assert_str_ne(clockw_bytes_formula(kind, algo), "?");
			for (int n = 2; n <= 16; n++) {
				if (!ccl_applies(kind, algo, n))
					continue;
				int L = ccl_levels(n), want = -1;
				if (strncmp(f, "2(n-1) alpha", 12) == 0)
					want = 2 * (n - 1);
				else if (strncmp(f, "(n-1) alpha", 11) == 0)
					want = n - 1;
				else if (strncmp(f, "2L ", 3) == 0 || strncmp(f, "2 log2(n) alpha", 15) == 0)
					want = 2 * L;
				else if (strncmp(f, "L (", 3) == 0 || strncmp(f, "log2(n) alpha", 13) == 0)
					want = L;
				ck_assert_msg(want == ccl_phase_count(kind, algo, n), "%s %s n=%d: '%s' "
					      "but %d phases", ccl_kind_name(kind), ccl_algo_name(algo), n,
					      f, ccl_phase_count(kind, algo, n));
			}
		}
	char buf[32];
	clockw_time(0, buf, sizeof buf);
	ck_assert_str_eq(buf, "0 us");
	clockw_time(65.2447e-6, buf, sizeof buf);
	ck_assert_str_eq(buf, "65.24 us");
	clockw_time(4.2233e-3, buf, sizeof buf);
	ck_assert_str_eq(buf, "4.223 ms");
	clockw_time(1.5e-9, buf, sizeof buf);
	ck_assert_str_eq(buf, "1.5 ns");
	clockw_size(8, buf, sizeof buf);
	ck_assert_str_eq(buf, "8 B");
	clockw_size(1073741824.0, buf, sizeof buf);
	ck_assert_str_eq(buf, "1 GiB");
	clockw_size(3072, buf, sizeof buf);
	ck_assert_str_eq(buf, "3 KiB");
	clockw_size(1000, buf, sizeof buf);
	ck_assert_str_eq(buf, "1000 B");
}
END_TEST

static Suite *cli_clock_suite(void)
{
	Suite *s = suite_create("cli_clock");
	TCase *tc = tcase_create("the clock's options");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_fields_and_defaults);
	tcase_add_test(tc, test_strict_values);
	tcase_add_test(tc, test_rules);
	tcase_add_test(tc, test_the_model_the_options_give);
	tcase_add_test(tc, test_words_count_the_engines_phases);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	Suite *s = cli_clock_suite();
	SRunner *sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
