/* iv_questions: the follow-up round's questions (see iv_questions.h).  An
 * expression is checked by the practice's checker over a list of cases
 * (derive_check_list, which names a missing factor); a number with an
 * optional unit, and a set of letters, are read here.  The truths are the
 * exercise notes' and the engine's model's figures, each computed here
 * from its formula, with the worked answer saying why. */
#include "interview/iv_questions.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "practice/derive.h"

enum ivq_kind { IVQ_DERIVE, IVQ_LIST, IVQ_NUMBER, IVQ_LETTERS };

struct ivq_row {
	int kind;
	const char *name, *text, *worked;
	int derive_q;               /* IVQ_DERIVE: the practice's question */
	const char *const *names;   /* IVQ_LIST: the variables */
	int count;
	derive_case_fn at;
	const char *pre, *post;
	const struct derive_factor *factors;
	int n_factors;
	double number;              /* IVQ_NUMBER: the value, in unit */
	const char *unit;           /* "GB", or "" for a count */
	const char *letters;        /* IVQ_LETTERS: the set that is right */
};

static const char *const ivq_sn[] = { "S", "n" };
static const char *const ivq_knt[] = { "K", "N", "t" };

/* all-reduce of S bytes on a ring: S = n, 2n, .. (n divides it), n = 1..8 */
static int ivq_allreduce_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	if (i < 0 || i >= 8 * 3)
		return 0;
	int64_t n = i / 3 + 1, S = (i % 3 + 1) * n * 8;
	v[0] = S;
	v[1] = n;
	*num = 2 * S * (n - 1) / n;
	*den = 1;
	return 1;
}

static void ivq_f2(const int64_t *v, int64_t *num, int64_t *den)
{
	(void)v;
	*num = 2;
	*den = 1;
}

static void ivq_fn1(const int64_t *v, int64_t *num, int64_t *den)
{
	*num = v[1] - 1;
	*den = 1;
}

static void ivq_f1n(const int64_t *v, int64_t *num, int64_t *den)
{
	*num = 1;
	*den = v[1];
}

static const struct derive_factor ivq_allreduce_factors[] = {
	{ "2 (a reduce-scatter and an all-gather)", ivq_f2 },
	{ "(n - 1) (the steps of each)", ivq_fn1 },
	{ "1/n (a chunk is S/n)", ivq_f1n },
};

/* tensor parallel: a K x N float64 weight split by columns on t GPUs */
static int ivq_tp_case(int i, int64_t *v, int64_t *num, int64_t *den)
{
	if (i < 0 || i >= 8 * 3 * 3)
		return 0;
	int64_t t = i / 9 + 1, K = (i / 3) % 3 + 1, N = (i % 3 + 1) * t;
	v[0] = K;
	v[1] = N;
	v[2] = t;
	*num = 8 * K * N / t;
	*den = 1;
	return 1;
}

static void ivq_f8(const int64_t *v, int64_t *num, int64_t *den)
{
	(void)v;
	*num = 8;
	*den = 1;
}

static void ivq_f1t(const int64_t *v, int64_t *num, int64_t *den)
{
	*num = 1;
	*den = v[2];
}

static const struct derive_factor ivq_tp_factors[] = {
	{ "8 (the bytes of a float64)", ivq_f8 },
	{ "1/t (each GPU holds N/t columns)", ivq_f1t },
};

static const struct ivq_row ivq_rows[] = {
	{ .kind = IVQ_DERIVE, .derive_q = DERIVE_BYTES, .name = "the bytes a rank sends in the ring",
	  .worked = "8*K*N*(n - 1)/n: a rank passes n - 1 shards of K x N/n float64s on, (n - 1)/n "
		    "of B whatever n is; DP sends no B at all." },
	{ .kind = IVQ_LIST, .name = "all-reduce as reduce-scatter + all-gather",
	  .text = "A ring all-reduce of S bytes is a reduce-scatter then an all-gather. How many "
		  "bytes does each rank send in all? Write it in S and n (n divides S)",
	  .names = ivq_sn, .count = 2, .at = ivq_allreduce_case, .pre = "a rank sends ",
	  .post = " bytes", .factors = ivq_allreduce_factors, .n_factors = 3,
	  .worked = "2*S*(n - 1)/n: the reduce-scatter sends n - 1 chunks of S/n (each rank ends "
		    "with one chunk summed), the all-gather n - 1 more (each rank ends with all "
		    "of them): DP's gradient sync, and FSDP's two halves." },
	{ .kind = IVQ_NUMBER, .name = "DP's memory for a 400 GB model",
	  .text = "A 400 GB model (parameters) trained with plain DP on n = 8 GPUs of 80 GB: how "
		  "many GB of parameters does each GPU hold? (a number, GB)",
	  .number = 400, .unit = "GB",
	  .worked = "400 GB: DP replicates the whole model on every device, O(model) memory, so "
		    "it cannot fit an 80 GB GPU at all." },
	{ .kind = IVQ_NUMBER, .name = "FSDP's memory for a 400 GB model",
	  .text = "The same 400 GB model with FSDP on n = 8 GPUs: how many GB of parameters does "
		  "each GPU hold at rest, between layers? (a number, GB)",
	  .number = 50, .unit = "GB",
	  .worked = "50 GB: FSDP shards it, O(model / n) = 400/8; a layer is all-gathered only "
		    "while it runs. That memory argument is the whole point of the technique." },
	{ .kind = IVQ_DERIVE, .derive_q = DERIVE_PEAK, .name = "the most of B a rank holds",
	  .worked = "2/n of B: the shard it computes with and the one arriving (at n = 2, all "
		    "of B, as DP holds)." },
	{ .kind = IVQ_NUMBER, .name = "ring against tree for a small message",
	  .text = "For a latency-bound (tiny) all-reduce on n = 64 ranks, how many message "
		  "latencies in sequence does a ring take? (a binary tree's reduce then broadcast "
		  "takes 2*log2(64) = 12) (a number)",
	  .number = 126, .unit = "",
	  .worked = "126 = 2(n - 1): the ring's reduce-scatter and all-gather are n - 1 steps "
		    "each, so a tree (2 log2 n) wins when latency dominates; the ring sends the "
		    "fewest bytes a rank, so it wins for large messages. NCCL picks between them "
		    "by size (distmm-tui -b --sweep allreduce shows where they cross)." },
	{ .kind = IVQ_LETTERS, .name = "what FULL_SHARD shards",
	  .text = "Which does FSDP's FULL_SHARD strategy shard across the ranks? Type the letters "
		  "of all that apply: p parameters, g gradients, o optimizer state, a activations",
	  .letters = "gop",
	  .worked = "p, g and o: FULL_SHARD shards parameters, gradients and optimizer state; "
		    "activations stay with the rank that computed them." },
	{ .kind = IVQ_LETTERS, .name = "the backward's collective",
	  .text = "FSDP's forward all-gathers each layer's parameters. Which collective shards "
		  "the gradients back in the backward? Type one letter: a all-reduce, g all-gather, "
		  "r reduce-scatter, b broadcast",
	  .letters = "r",
	  .worked = "r, reduce-scatter: each rank ends with its own shard of the summed "
		    "gradient (distmm-tui --train shows it). DP's gradient sync is an all-reduce." },
	{ .kind = IVQ_LIST, .name = "a weight under tensor parallel",
	  .text = "Tensor parallel splits one K x N float64 weight by columns across the t GPUs "
		  "of a node. How many bytes of it does each GPU hold? Write it in K, N and t",
	  .names = ivq_knt, .count = 3, .at = ivq_tp_case, .pre = "a GPU holds ", .post = " bytes",
	  .factors = ivq_tp_factors, .n_factors = 2,
	  .worked = "8*K*N/t: each GPU holds N/t columns and computes its slice of the output; "
		    "within a node over NVLink, with FSDP across nodes." },
};

#define IVQ_N ((int)(sizeof ivq_rows / sizeof ivq_rows[0]))

int ivq_count(void)
{
	return IVQ_N;
}

const char *ivq_text(int q)
{
	const struct ivq_row *r = &ivq_rows[q];
	return r->kind == IVQ_DERIVE ? derive_question_text(r->derive_q) : r->text;
}

const char *ivq_name(int q)
{
	return ivq_rows[q].name;
}

const char *ivq_worked(int q)
{
	return ivq_rows[q].worked;
}

/* "50", "50 GB", "50GB", "5e1 gb"; a unit of another size is converted. */
static int ivq_number(const struct ivq_row *r, const char *text, char *msg, size_t size)
{
	static const struct {
		const char *unit;
		double gb;
	} units[] = { { "tb", 1000 }, { "gb", 1 }, { "mb", 1e-3 }, { "kb", 1e-6 }, { "b", 1e-9 } };
	errno = 0;
	char *end;
	double v = strtod(text, &end);
	if (end == text || errno || !isfinite(v)) {
		snprintf(msg, size, "write a number%s%s", r->unit[0] ? ", in " : "", r->unit);
		return IVQ_SYNTAX;
	}
	while (isspace((unsigned char)*end))
		end++;
	double scale = 1;
	if (*end) {
		char u[8];
		size_t k = 0;
		for (; end[k] && k < sizeof u - 1; k++)
			u[k] = (char)tolower((unsigned char)end[k]);
		u[k] = '\0';
		size_t i = 0;
		for (; r->unit[0] && i < sizeof units / sizeof units[0]; i++)
			if (strcmp(u, units[i].unit) == 0)
				break;
		if (!r->unit[0] || i == sizeof units / sizeof units[0]) {
			snprintf(msg, size, "'%s' is not a unit here: write a number%s%s", end,
				 r->unit[0] ? ", in " : "", r->unit);
			return IVQ_SYNTAX;
		}
		scale = units[i].gb;
	}
	double got = v * scale;
	if (fabs(got - r->number) <= 1e-9 * fabs(r->number))
		return IVQ_RIGHT;
	snprintf(msg, size, "%g%s%s is not it%s", got, r->unit[0] ? " " : "", r->unit,
		 got > r->number ? ": that is more than the answer" : ": that is less than the answer");
	return IVQ_WRONG;
}

/* The letters of a set, in any order, each once. */
static int ivq_letters(const struct ivq_row *r, const char *text, char *msg, size_t size)
{
	char seen[26] = { 0 };
	int any = 0;
	for (const char *p = text; *p; p++) {
		int c = tolower((unsigned char)*p);
		if (c == ' ' || c == ',')
			continue;
		if (c < 'a' || c > 'z') {
			snprintf(msg, size, "type letters only");
			return IVQ_SYNTAX;
		}
		seen[c - 'a'] = 1;
		any = 1;
	}
	if (!any) {
		snprintf(msg, size, "type letters");
		return IVQ_SYNTAX;
	}
	char extra[27] = "";
	size_t nm = 0, ne = 0;
	for (int c = 0; c < 26; c++) {
		int want = strchr(r->letters, 'a' + c) != NULL;
		nm += want && !seen[c];
		if (!want && seen[c])
			extra[ne++] = (char)('a' + c);
	}
	if (!nm && !ne)
		return IVQ_RIGHT;
	snprintf(msg, size, "%s%s%s%s", nm ? "one or more is missing" : "",
		 nm && ne ? "; " : "", ne ? "not all of yours apply: " : "", extra);
	return IVQ_WRONG;
}

int ivq_check(int q, const char *text, char *msg, size_t size)
{
	const struct ivq_row *r = &ivq_rows[q];
	int pos = 0, v;
	msg[0] = '\0';
	switch (r->kind) {
	case IVQ_DERIVE:
		v = derive_check(r->derive_q, text, &pos, msg, size);
		break;
	case IVQ_LIST:
		v = derive_check_list(text, r->names, r->count, r->at, r->pre, r->post, r->factors,
				      r->n_factors, &pos, msg, size);
		break;
	case IVQ_NUMBER:
		return ivq_number(r, text, msg, size);
	default:
		return ivq_letters(r, text, msg, size);
	}
	if (v == DERIVE_V_RIGHT)
		return IVQ_RIGHT;
	if (v == DERIVE_V_SYNTAX) {
		char tmp[400];
		snprintf(tmp, sizeof tmp, "at column %d: %s", pos + 1, msg);
		snprintf(msg, size, "%s", tmp);
		return IVQ_SYNTAX;
	}
	return IVQ_WRONG;
}
