/* check_cli_tp: -m tp-col, -m tp-row, --reduce-scatter, -m tp-mlp's -E, -P, --act
 * (app/cli/cli_tp.c): the fields they set, the plan inputs_plan makes of
 * them, and each refusal of what tensor parallel does not do yet, one
 * line each, whatever the order of the options. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/inputs.h"
#include <distmm/plan.h>
#include "cli_util.h"




START_TEST(test_fields)
{
	struct dm_plan *p;
	struct dm_err err;
	ck_assert_int_eq(parse("-b", "-m", "tp-col", NULL), CLI_RUN);
	ck_assert_int_eq(opts.mode, DM_TP_COL);
	ck_assert_int_eq(opts.reduce_scatter, 0);
	ck_assert_int_eq(parse("--reduce-scatter", "-m", "tp-row", "-b", "-d", "5", NULL), CLI_RUN);
	ck_assert_int_eq(opts.mode, DM_TP_ROW);
	ck_assert_int_eq(opts.reduce_scatter, 1);
	ck_assert_int_eq(inputs_plan(&opts, &p, &err), 0);
	ck_assert_int_eq(plan_mode(p), DM_TP_ROW);
	ck_assert_int_eq(plan_ccl_kind(p), CCL_REDUCESCATTER);
	ck_assert_int_eq(plan_devices(p), 5);
	plan_free(p);
	ck_assert_int_eq(parse("-b", "-m", "tp-row", "-o", "c.npy", "--values", "floats", "-q",
			       "--verify", "freivalds", NULL), CLI_RUN);
	ck_assert_int_eq(inputs_plan(&opts, &p, &err), 0);
	ck_assert_int_eq(plan_ccl_kind(p), CCL_ALLREDUCE);
	plan_free(p);
	REFUSED_AS("unknown mode 'TP-COL' (use fsdp, dp, tp-col, tp-row or tp-mlp)", "-m", "TP-COL");
}
END_TEST

START_TEST(test_refusals)
{
	/* the interface shows them (app/tui/modes/tp.c) */
	ck_assert_int_eq(parse("-m", "tp-row", "--reduce-scatter", "-d", "3", NULL), CLI_RUN);
	ck_assert_int_eq(parse("-m", "tp-col", NULL), CLI_RUN);
	REFUSED_AS("--quiz has no effect with -m tp-col, tp-row or tp-mlp (the quiz asks about "
		   "FSDP's and DP's rings; --quiz=tp drills tensor parallel)", "-m", "tp-col", "--quiz");
	REFUSED_AS("--lesson has no effect with -m tp-col, tp-row or tp-mlp (a lesson sets its parts' "
		   "modes: set: tp-col in the lesson, as tensor-parallel does)", "-m", "tp-mlp",
		   "--lesson", "x.lesson");
	REFUSED_AS("--judge has no effect with -m tp-mlp (the judge knows tp_col_mat_mul and "
		   "tp_row_mat_mul; Megatron's MLP is not judged yet)", "-b", "-m", "tp-mlp", "--judge",
		   "s.py");
	REFUSED_AS("--reduce-scatter has no effect without -m tp-row (it ends tp-row's sum with a "
		   "reduce-scatter)", "--reduce-scatter", "-b", "-m", "dp");
	REFUSED_AS("--reduce-scatter has no effect with -m tp-col (tp-col gathers its columns; the "
		   "reduce-scatter is tp-row's)", "--reduce-scatter", "-b", "-m", "tp-col");
	/* the trace files and the replay (the mode is the trace's) */
	ck_assert_int_eq(parse("-b", "-m", "tp-row", "--reduce-scatter", "--trace", "t.jsonl",
			       NULL), CLI_RUN);
	ck_assert_int_eq(parse("-b", "-m", "tp-col", "--train", "--trace", "t.json",
			       "--trace-format", "chrome", NULL), CLI_RUN);
	ck_assert_int_eq(parse("-m", "tp-col", "--trace", "t.jsonl", NULL), CLI_ERROR); /* -b's */
	/* the training step: batch mode's, with the all-reduce */
	ck_assert_int_eq(parse("-m", "tp-col", "--train", "-b", NULL), CLI_RUN);
	ck_assert_int_eq(parse("-m", "tp-row", "--train", "-b", "--dB-out", "db.npy", NULL), CLI_RUN);
	REFUSED_AS("--reduce-scatter has no effect with --train (tp-row's backward needs dC whole "
		   "on every rank, as the all-reduce leaves C, not the reduce-scatter's rows)", "-b",
		   "-m", "tp-row", "--train", "--reduce-scatter");
	REFUSED_AS("--train has no effect with -m tp-col or tp-row in the interface yet (their "
		   "training step runs in batch mode: add -b)", "-m", "tp-col", "--train");
	static const char *const opts_[][3] = {
		{ "--bug", "r-plus-s", "--bug" },
		{ "--naive", NULL, "--naive" },       { "--capacity", "0", "--capacity" },
		{ "--hw", "ib-ndr", "--hw" },
		{ "--timeline", NULL, "--timeline" }, { "--compare", NULL, "--compare" },
	};
	for (size_t i = 0; i < sizeof opts_ / sizeof opts_[0]; i++) {
		if (opts_[i][1])
			ck_assert_int_eq(parse(opts_[i][0], opts_[i][1], "-b", "-m", "tp-row", NULL),
					 CLI_ERROR);
		else
			ck_assert_int_eq(parse("-m", "tp-col", opts_[i][0], "-b", NULL), CLI_ERROR);
		ck_assert_msg(strstr(msg, " has no effect with -m tp-col, tp-row or tp-mlp (") != NULL &&
				      strncmp(msg, opts_[i][2], strlen(opts_[i][2])) == 0, "%s", msg);
		ck_assert_str_eq(cli_option_name(opts.refused), opts_[i][2]);
	}
}
END_TEST

/* tp-mlp's -E, -P and --act: the fields, E loaded or made into the plan,
 * and each refusal (docs/tensor-parallel.md). */
START_TEST(test_mlp)
{
	struct dm_plan *p;
	struct dm_err err;
	struct mat b = { 0 }, e;
	ck_assert_int_eq(parse("-b", "-m", "tp-mlp", "-P", "3", "--act", "gelu", NULL), CLI_RUN);
	ck_assert_int_eq(opts.mode, DM_TP_MLP);
	ck_assert_int_eq(opts.act, DM_ACT_GELU);
	ck_assert_uint_eq(opts.P, 3);
	ck_assert_int_eq(inputs_plan(&opts, &p, &err), 0);
	ck_assert_int_eq(mat_alloc(&b, 6, 5, &err), 0);
	ck_assert_int_eq(inputs_load_e(&opts, &b, p, &e, &err), 0);
	ck_assert(e.rows == 5 && e.cols == 3 && plan_tp_width(p) == 3);
	ck_assert_int_eq(plan_tp_act(p), DM_ACT_GELU);
	mat_free(&e);
	plan_free(p);
	mat_free(&b);
	REFUSED_AS("unknown activation 'bogus' (use relu, gelu or none)", "-m", "tp-mlp", "--act",
		   "bogus");
	REFUSED_AS("-P (columns of E and of Z) must be a whole number from 1 to 1000000000, not '0'",
		   "-m", "tp-mlp", "-P", "0");
	REFUSED_AS("-E has no effect without -m tp-mlp (it is the MLP's second layer: Z = act(A @ "
		   "B) @ E)", "-E", "e.npy", "-b", "-m", "tp-col");
	REFUSED_AS("--act has no effect without -m tp-mlp (it is the MLP's second layer: Z = act(A "
		   "@ B) @ E)", "--act", "none");
	REFUSED_AS("--reduce-scatter has no effect with -m tp-mlp (every rank ends with Z: its sum "
		   "is an all-reduce)", "-m", "tp-mlp", "--reduce-scatter");
	ck_assert_int_eq(parse("-m", "tp-mlp", "--train", NULL), CLI_ERROR);
	ck_assert_str_eq(cli_option_name(opts.refused), "--train");
	/* in batch mode too, where tp-col's and tp-row's --train runs */
	REFUSED_AS("--train has no effect with -m tp-mlp (its training step is not written yet: "
		   "the forward alone)", "-b", "-m", "tp-mlp", "--train");
	REFUSED_AS("--dC has no effect with -m tp-mlp (its training step is not written yet: the "
		   "forward alone)", "-b", "-m", "tp-mlp", "--dC", "dc.npy");
}
END_TEST

/* The judge runs tp_col_mat_mul and tp_row_mat_mul in batch mode, with
 * its queues' --capacity; the contract is the all-reduce, and the judged
 * view replays DP and FSDP alone (docs/judge.md). */
START_TEST(test_judge)
{
	ck_assert_int_eq(parse("-b", "--judge", "s.py", "-m", "tp-col", "-d", "3", NULL), CLI_RUN);
	ck_assert_int_eq(parse("-b", "--judge", "s.py", "-m", "tp-row", "--capacity", "0", NULL),
			 CLI_RUN);
	REFUSED_AS("--reduce-scatter has no effect with --judge (tp_row_mat_mul's contract is the "
		   "all-reduce: every rank ends with C)", "-b", "--judge", "s.py", "-m", "tp-row",
		   "--reduce-scatter");
	REFUSED_AS("-m tp-col or tp-row has no effect with --judge without -b (the judged view "
		   "shows dp_mat_mul and fsdp_mat_mul; -b --judge judges tensor parallel's)",
		   "--judge", "s.py", "-m", "tp-row");
	REFUSED_AS("--trace has no effect with -m tp-col or tp-row and --judge (the judge builds no "
		   "event log of tensor parallel's functions yet: -b -m tp-row --trace traces the "
		   "engine's)", "-b", "--judge", "s.py", "-m", "tp-col", "--trace", "t.jsonl");
	/* without --judge, --capacity is still the deadlock lab's */
	ck_assert_int_eq(parse("-b", "-m", "tp-row", "--capacity", "0", NULL), CLI_ERROR);
}
END_TEST

static Suite *cli_tp_suite(void)
{
	Suite *s = suite_create("cli_tp");
	TCase *tc = tcase_create("tensor parallel");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_fields);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_mlp);
	tcase_add_test(tc, test_judge);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_tp_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
