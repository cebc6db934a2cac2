/* iv_questions: the follow-up round's questions (see iv_questions.h), rows
 * of the practice's question bank (app/practice/qbank.h) checked there.  The
 * truths are the exercise notes' and the engine's model's figures; the
 * questions the drills ask too (the ring all-reduce's bytes, ring against
 * tree, a weight under tensor parallel) are theirs (drills.c), one home. */
#include "interview/iv_questions.h"

#include <stdio.h>

#include "practice/drills.h"
#include "practice/qbank.h"

static const struct qbank_row ivq_ring_bytes = {
	.kind = QBANK_DERIVE, .derive_q = DERIVE_BYTES, .name = "the bytes a rank sends in the ring",
	.worked = "8*K*N*(n - 1)/n: a rank passes n - 1 shards of K x N/n float64s on, (n - 1)/n "
		  "of B whatever n is; DP sends no B at all.",
};

static const struct qbank_row ivq_ring_peak = {
	.kind = QBANK_DERIVE, .derive_q = DERIVE_PEAK, .name = "the most of B a rank holds",
	.worked = "2/n of B: the shard it computes with and the one arriving (at n = 2, all "
		  "of B, as DP holds).",
};

static const struct qbank_row ivq_dp_memory = {
	.kind = QBANK_NUMBER, .name = "DP's memory for a 400 GB model",
	.text = "A 400 GB model (parameters) trained with plain DP on n = 8 GPUs of 80 GB: how "
		"many GB of parameters does each GPU hold? (a number, GB)",
	.number = 400, .unit = QBANK_GB,
	.worked = "400 GB: DP replicates the whole model on every device, O(model) memory, so "
		  "it cannot fit an 80 GB GPU at all.",
};

static const struct qbank_row ivq_fsdp_memory = {
	.kind = QBANK_NUMBER, .name = "FSDP's memory for a 400 GB model",
	.text = "The same 400 GB model with FSDP on n = 8 GPUs: how many GB of parameters does "
		"each GPU hold at rest, between layers? (a number, GB)",
	.number = 50, .unit = QBANK_GB,
	.worked = "50 GB: FSDP shards it, O(model / n) = 400/8; a layer is all-gathered only "
		  "while it runs. That memory argument is the whole point of the technique.",
};

static const struct qbank_row ivq_full_shard = {
	.kind = QBANK_LETTERS, .name = "what FULL_SHARD shards",
	.text = "Which does FSDP's FULL_SHARD strategy shard across the ranks? Type the letters "
		"of all that apply: p parameters, g gradients, o optimizer state, a activations",
	.letters = "gop",
	.worked = "p, g and o: FULL_SHARD shards parameters, gradients and optimizer state; "
		  "activations stay with the rank that computed them.",
};

static const struct qbank_row ivq_backward = {
	.kind = QBANK_LETTERS, .name = "the backward's collective",
	.text = "FSDP's forward all-gathers each layer's parameters. Which collective shards "
		"the gradients back in the backward? Type one letter: a all-reduce, g all-gather, "
		"r reduce-scatter, b broadcast",
	.letters = "r",
	.worked = "r, reduce-scatter: each rank ends with its own shard of the summed "
		  "gradient (distmm-tui --train shows it). DP's gradient sync is an all-reduce.",
};

static const struct qbank_row *const ivq_rows[] = {
	&ivq_ring_bytes, &drill_q_allreduce_bytes, &ivq_dp_memory, &ivq_fsdp_memory,
	&ivq_ring_peak, &drill_q_ring_latency, &ivq_full_shard, &ivq_backward,
	&drill_q_tp_weight,
};

#define IVQ_N ((int)(sizeof ivq_rows / sizeof ivq_rows[0]))

int ivq_count(void)
{
	return IVQ_N;
}

/* The round's rows say their words without a context: none is timed. */
const char *ivq_text(int q)
{
	return qbank_text(ivq_rows[q], NULL, NULL, 0);
}

const char *ivq_name(int q)
{
	return ivq_rows[q]->name;
}

const char *ivq_worked(int q)
{
	return qbank_worked(ivq_rows[q], NULL, NULL, 0);
}

_Static_assert((int)IVQ_RIGHT == (int)QBANK_RIGHT && (int)IVQ_WRONG == (int)QBANK_WRONG &&
		       (int)IVQ_SYNTAX == (int)QBANK_SYNTAX,
	       "the round's verdicts are the bank's");

int ivq_check(int q, const char *text, char *msg, size_t size)
{
	return qbank_check(ivq_rows[q], NULL, text, msg, size);
}
