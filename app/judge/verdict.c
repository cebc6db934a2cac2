/* verdict: the verdicts' words (see judge.h), in a file of their own so that
 * what only words them (batch mode's report, the screen's modes/judged.c and
 * the suites that link the view) need not link the judge's process code. */
#include "judge/judge.h"

#include <distmm/plan.h>

static const char *const judge_words[JUDGE_VERDICTS] = {
	[JUDGE_PASS] = "pass",
	[JUDGE_WRONG_RESULT] = "wrong result",
	[JUDGE_WRONG_NEIGHBOUR] = "wrong neighbour",
	[JUDGE_WRONG_SHAPE] = "wrong shape",
	[JUDGE_NOT_A_RING] = "not a ring",
	[JUDGE_MUTATED_INPUT] = "mutated input",
	[JUDGE_MUTATED_PAYLOAD] = "mutated payload",
	[JUDGE_LEFT_MESSAGES] = "messages left",
	[JUDGE_UNJOINED] = "not joined",
	[JUDGE_DEADLOCK] = "deadlock",
	[JUDGE_EXCEPTION] = "exception",
	[JUDGE_TIMEOUT] = "timeout",
	[JUDGE_ERROR] = "judge error",
	[JUDGE_NOT_RUN] = "not run",
	[JUDGE_WEIGHTS_MOVED] = "weights moved",
};

static const struct judge_fn_word {
	int mode;
	const char *fn, *arg;
} judge_fn_words[JUDGE_FNS] = {
	{ DM_DP, "dp_mat_mul", "dp" },
	{ DM_FSDP, "fsdp_mat_mul", "fsdp" },
	{ DM_TP_COL, "tp_col_mat_mul", "tp-col" },
	{ DM_TP_ROW, "tp_row_mat_mul", "tp-row" },
};

int judge_fn_index(int mode)
{
	for (int k = 0; k < JUDGE_FNS; k++)
		if (judge_fn_words[k].mode == mode)
			return k;
	return -1;
}

const char *judge_fn(int mode)
{
	int k = judge_fn_index(mode);
	return k < 0 ? "?" : judge_fn_words[k].fn;
}

const char *judge_mode_arg(int mode)
{
	int k = judge_fn_index(mode);
	return k < 0 ? "?" : judge_fn_words[k].arg;
}

int judge_mode_tp(int mode)
{
	return mode == DM_TP_COL || mode == DM_TP_ROW;
}

const char *judge_verdict_word(int v)
{
	return v >= 0 && v < JUDGE_VERDICTS ? judge_words[v] : "?";
}
