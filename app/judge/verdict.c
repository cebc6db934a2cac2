/* verdict: the verdicts' words (see judge.h), in a file of their own so that
 * what only words them (batch mode's report, the screen's modes/judged.c and
 * the suites that link the view) need not link the judge's process code. */
#include "judge/judge.h"

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
};

const char *judge_verdict_word(int v)
{
	return v >= 0 && v < JUDGE_VERDICTS ? judge_words[v] : "?";
}
