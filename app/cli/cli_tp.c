/* cli_tp: tensor parallel on the command line (docs/tensor-parallel.md):
 * -m tp-col, tp-row and tp-mlp, tp-row's --reduce-scatter, tp-mlp's -E, -P
 * and --act (refused without it, as --reduce-scatter is), tp-col's and
 * tp-row's --train (batch mode's, with the all-reduce), and what such a run
 * does not do yet (tp-mlp's --train among it), refused by name as cli.c's
 * rules refuse an option that would do nothing: a silently ignored option
 * makes a person believe it worked.  Read before cli.c's table, whose rules
 * then apply as to any run. */
#include "cli.h"
#include "cli_int.h"

#include <string.h>

#include <distmm/act.h>
#include <distmm/plan.h>

int cli_tp_act(const char *arg, struct cli_opts *o, char *err, size_t size)
{
	for (int a = 0; a < DM_ACT_COUNT; a++)
		if (strcmp(arg, act_name((enum dm_act)a)) == 0) {
			o->act = a;
			return 0;
		}
	return cli_fail(err, size, "unknown activation '%s' (use relu, gelu or none)", arg);
}

int cli_tp_mode(const char *arg, int *mode)
{
	if (strcmp(arg, "tp-col") == 0)
		*mode = DM_TP_COL;
	else if (strcmp(arg, "tp-row") == 0)
		*mode = DM_TP_ROW;
	else if (strcmp(arg, "tp-mlp") == 0)
		*mode = DM_TP_MLP;
	else
		return -1;
	return 0;
}

#define CLI_GIVEN_TRACES (CLI_GIVEN_TRACE | CLI_GIVEN_TRACE_FORMAT | CLI_GIVEN_REPLAY)

/* What a tensor-parallel run refuses, and why. */
static const struct cli_tp_rule {
	cli_given_t opts;
	const char *why;
} cli_tp_rules[] = {
	{ CLI_GIVEN_BUG, "has no effect with -m tp-col, tp-row or tp-mlp (the bugs are the FSDP and DP "
			 "rings' mistakes)" },
	{ CLI_GIVEN_ORDERS | CLI_GIVEN_CAPACITY,
	  "has no effect with -m tp-col, tp-row or tp-mlp (the deadlock lab is FSDP's ring; tensor "
	  "parallel orders its calls as the collectives do)" },
	{ CLI_GIVEN_MODEL | CLI_GIVEN_TIMELINE,
	  "has no effect with -m tp-col, tp-row or tp-mlp (the model of time does not time tensor "
	  "parallel yet)" },
	{ CLI_GIVEN_COMPARE, "has no effect with -m tp-col, tp-row or tp-mlp (their report always puts "
			     "DP, FSDP and tensor parallel side by side)" },
	{ CLI_GIVEN_LESSON,
	  "has no effect with -m tp-col, tp-row or tp-mlp (a lesson sets its parts' modes: "
	  "set: tp-col in the lesson, as tensor-parallel does)" },
	{ CLI_GIVEN_QUIZ,
	  "has no effect with -m tp-col, tp-row or tp-mlp (the quiz asks about FSDP's and DP's "
	  "rings; --quiz=tp drills tensor parallel)" },
};

int cli_tp_check(struct cli_opts *o, char *err, size_t size)
{
	const char *why = NULL;
	if (o->mode != DM_TP_MLP && (o->given & CLI_GIVEN_MLP)) {
		o->refused = cli_first_bit(o->given & CLI_GIVEN_MLP);
		why = "has no effect without -m tp-mlp (it is the MLP's second layer: Z = act(A @ B) @ "
		      "E)";
	} else if (o->mode == DM_TP_MLP && (o->given & CLI_GIVEN_REDUCE_SCATTER)) {
		o->refused = CLI_GIVEN_REDUCE_SCATTER;
		why = "has no effect with -m tp-mlp (every rank ends with Z: its sum is an all-reduce)";
	} else if (!plan_mode_tp((enum dm_mode)o->mode)) {
		if (o->given & CLI_GIVEN_REDUCE_SCATTER) {
			o->refused = CLI_GIVEN_REDUCE_SCATTER;
			why = "has no effect without -m tp-row (it ends tp-row's sum with a "
			      "reduce-scatter)";
		}
	} else if (o->mode == DM_TP_COL && (o->given & CLI_GIVEN_REDUCE_SCATTER)) {
		o->refused = CLI_GIVEN_REDUCE_SCATTER;
		why = "has no effect with -m tp-col (tp-col gathers its columns; the reduce-scatter "
		      "is tp-row's)";
	} else if (o->mode == DM_TP_MLP && (o->given & (CLI_GIVEN_TRAIN | CLI_GIVEN_GRAD_FILES))) {
		/* tp-col's and tp-row's training step runs; tp-mlp's is not written */
		o->refused = cli_first_bit(o->given & (CLI_GIVEN_TRAIN | CLI_GIVEN_GRAD_FILES));
		why = "has no effect with -m tp-mlp (its training step is not written yet: the "
		      "forward alone)";
	} else if (o->mode == DM_TP_MLP && (o->given & CLI_GIVEN_TRACES)) {
		/* tp-col's and tp-row's traces replay; tp-mlp's second layer has no rules yet */
		o->refused = cli_first_bit(o->given & CLI_GIVEN_TRACES);
		why = "has no effect with -m tp-mlp (the trace files and the replay know tp-col and "
		      "tp-row, not the MLP's second layer, yet)";
	} else if (o->mode == DM_TP_MLP && o->judge_file) {
		o->refused = CLI_GIVEN_JUDGE;
		why = "has no effect with -m tp-mlp (the judge knows tp_col_mat_mul and "
		      "tp_row_mat_mul; Megatron's MLP is not judged yet)";
	} else if (o->judge_file && (o->given & CLI_GIVEN_TRACES)) {
		/* the judge builds FSDP's and DP's logs alone (app/judge) */
		o->refused = cli_first_bit(o->given & CLI_GIVEN_TRACES);
		why = "has no effect with -m tp-col or tp-row and --judge (the judge builds no event "
		      "log of tensor parallel's functions yet: -b -m tp-row --trace traces the "
		      "engine's)";
	} else if (o->judge_file && (o->given & CLI_GIVEN_REDUCE_SCATTER)) {
		o->refused = CLI_GIVEN_REDUCE_SCATTER;
		why = "has no effect with --judge (tp_row_mat_mul's contract is the all-reduce: "
		      "every rank ends with C)";
	} else if (o->judge_file && !o->batch) {
		o->refused = CLI_GIVEN_MODE;
		why = "tp-col or tp-row has no effect with --judge without -b (the judged view "
		      "shows dp_mat_mul and fsdp_mat_mul; -b --judge judges tensor parallel's)";
	} else if ((o->given & CLI_GIVEN_TRAIN) && (o->given & CLI_GIVEN_REDUCE_SCATTER)) {
		/* the engine's rule too (plan_check), said before any file is read */
		o->refused = CLI_GIVEN_REDUCE_SCATTER;
		why = "has no effect with --train (tp-row's backward needs dC whole on every rank, "
		      "as the all-reduce leaves C, not the reduce-scatter's rows)";
	} else if ((o->given & CLI_GIVEN_TRAIN) && !o->batch) {
		o->refused = CLI_GIVEN_TRAIN;
		why = "has no effect with -m tp-col or tp-row in the interface yet (their training "
		      "step runs in batch mode: add -b)";
	} else {
		/* the judge's --capacity bounds its queues: the candidate's code runs */
		cli_given_t given = o->given & ~(o->judge_file ? CLI_GIVEN_CAPACITY : 0);
		for (size_t i = 0; i < sizeof cli_tp_rules / sizeof cli_tp_rules[0]; i++) {
			cli_given_t hit = given & cli_tp_rules[i].opts;
			if (hit) {
				o->refused = hit & -hit;
				why = cli_tp_rules[i].why;
				break;
			}
		}
	}
	if (!why)
		return CLI_RUN;
	return cli_fail(err, size, "%s %s", cli_option_name(o->refused), why);
}
