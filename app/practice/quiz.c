/* quiz: questions, answers and their explanations (see quiz.h). */
#include "quiz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/schedule.h>
#include <distmm/split.h>

void quiz_init(struct quiz *z, int on, int level, uint64_t seed)
{
	memset(z, 0, sizeof *z);
	z->on = on;
	z->level = level < 1 ? 1 : level > 2 ? 2 : level;
	z->phase = -2;
	z->rng = seed ^ 0x6a09e667f3bcc909ull;
	z->last_rank = -1;
}

/* splitmix64: small, and the same draws on every machine. */
static uint64_t quiz_rand(struct quiz *z)
{
	uint64_t x = (z->rng += 0x9e3779b97f4a7c15ull);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* A rank for level 1: the next from a shuffled bag of every rank, refilled
 * when empty so that no rank is asked twice before all have been, nor
 * twice in a row where one bag ends and the next begins. */
static int quiz_pick(struct quiz *z, int n)
{
	if (n > QUIZ_MAX_RANKS)
		return (int)(quiz_rand(z) % (uint64_t)n);
	if (z->bag_n != n)
		z->bag_len = 0;
	if (z->bag_len == 0) {
		z->bag_n = n;
		for (int i = 0; i < n; i++)
			z->bag[i] = i;
		for (int i = n - 1; i > 0; i--) {
			int j = (int)(quiz_rand(z) % (uint64_t)(i + 1)), t = z->bag[i];
			z->bag[i] = z->bag[j];
			z->bag[j] = t;
		}
		/* drawn from the end: the last of the array goes first */
		if (n > 1 && z->bag[n - 1] == z->last_rank) {
			int t = z->bag[n - 1];
			z->bag[n - 1] = z->bag[0];
			z->bag[0] = t;
		}
		z->bag_len = n;
	}
	z->last_rank = z->bag[--z->bag_len];
	return z->last_rank;
}

static void quiz_add(struct quiz *z, int type, int rank, int step, int n, size_t M, size_t N)
{
	if (z->nq < QUIZ_MAX_QUESTIONS)
		z->q[z->nq++] = (struct quiz_question){ type, rank, step, n, M, N };
}

void quiz_prepare(struct quiz *z, int mode, int kind, int step, int phase, int n, size_t M,
		  size_t N)
{
	int first = 0, last = n - 1;
	z->nq = z->cur = 0;
	z->phase = phase;
	z->revealed = 0;
	z->input_len = 0;
	z->input[0] = '\0';
	if (z->level == 1)
		first = last = quiz_pick(z, n);
	for (int r = first; r <= last; r++) {
		if (kind == SCHED_REDUCE_SCATTER) { /* both modes: the same ring */
			quiz_add(z, QUIZ_RS_SEND, r, step, n, M, N);
			if (z->level == 1)
				quiz_add(z, QUIZ_RS_ADD, r, step, n, M, N);
		} else if (mode == DM_DP) {
			if (kind == SCHED_COMPUTE)
				quiz_add(z, QUIZ_DP_ROWS, r, step, n, M, N);
		} else if (kind == SCHED_COMPUTE) {
			quiz_add(z, QUIZ_SHARD, r, step, n, M, N);
			if (z->level == 1)
				quiz_add(z, QUIZ_COLS, r, step, n, M, N);
		} else if (kind == SCHED_TRANSFER) {
			quiz_add(z, QUIZ_SEND_TO, r, step, n, M, N);
			if (z->level == 1)
				quiz_add(z, QUIZ_RECV_FROM, r, step, n, M, N);
		}
	}
	if (mode == DM_DP && kind == SCHED_GATHER && n > 1)
		quiz_add(z, QUIZ_DP_GATHER, first == last ? first : 1, step, n, M, N);
}

int quiz_open(const struct quiz *z)
{
	return z->on && z->cur < z->nq;
}

int quiz_waiting(const struct quiz *z)
{
	return quiz_open(z) && !z->revealed;
}

void quiz_type(struct quiz *z, int ch)
{
	if (!quiz_waiting(z) || z->input_len + 1 >= QUIZ_INPUT_MAX)
		return;
	if ((ch >= '0' && ch <= '9') || ch == '-' || ch == ':') {
		z->input[z->input_len++] = (char)ch;
		z->input[z->input_len] = '\0';
	}
}

void quiz_backspace(struct quiz *z)
{
	if (quiz_waiting(z) && z->input_len > 0)
		z->input[--z->input_len] = '\0';
}

void quiz_submit(struct quiz *z)
{
	if (!quiz_waiting(z))
		return;
	int ok = quiz_check(&z->q[z->cur], z->input, z->reveal, sizeof z->reveal);
	if (ok < 0)
		return; /* the reveal says what to type; not counted */
	z->revealed = 1;
	z->correct = ok;
	z->asked++;
	z->right += ok;
}

int quiz_advance(struct quiz *z)
{
	if (!quiz_open(z))
		return 0;
	if (!z->revealed)
		return 1;
	z->cur++;
	z->revealed = 0;
	z->input_len = 0;
	z->input[0] = '\0';
	z->reveal[0] = '\0';
	return z->cur < z->nq;
}

void quiz_answer(const struct quiz_question *q, char *buf, size_t size)
{
	int n = q->n, r = q->rank, s = q->step, k = sched_shard(n, r, s);
	switch (q->type) {
	case QUIZ_SHARD:
		snprintf(buf, size, "%d", k);
		break;
	case QUIZ_COLS:
		snprintf(buf, size, "%zu:%zu", split_offset(q->N, n, k), split_offset(q->N, n, k + 1));
		break;
	case QUIZ_SEND_TO:
		snprintf(buf, size, "%d", sched_right(n, r));
		break;
	case QUIZ_RECV_FROM:
		snprintf(buf, size, "%d", sched_left(n, r));
		break;
	case QUIZ_DP_ROWS:
		snprintf(buf, size, "%zu:%zu", split_offset(q->M, n, r), split_offset(q->M, n, r + 1));
		break;
	case QUIZ_RS_SEND:
		snprintf(buf, size, "%d", sched_rs_send_chunk(n, r, s));
		break;
	case QUIZ_RS_ADD:
		snprintf(buf, size, "%d", sched_rs_recv_chunk(n, r, s));
		break;
	default:
		snprintf(buf, size, "0");
	}
}

void quiz_skip(struct quiz *z)
{
	char answer[QUIZ_INPUT_MAX], why[sizeof z->reveal];
	if (!quiz_waiting(z))
		return;
	quiz_answer(&z->q[z->cur], answer, sizeof answer);
	quiz_check(&z->q[z->cur], answer, why, sizeof why);
	/* "right: (1 - 3) mod 4 = 2" becomes the skip's explanation */
	const char *colon = strchr(why, ':');
	snprintf(z->reveal, sizeof z->reveal, "skipped, not counted. The answer is %s%s", answer,
		 colon ? colon : "");
	z->revealed = 1;
	z->correct = -1; /* neither right nor wrong */
	z->skipped++;
}

int quiz_hides(const struct quiz *z, int r)
{
	/* every rank while a question waits or more are to come: the rule on
	 * one rank's panel answers the question about another */
	(void)r;
	return quiz_open(z) && !(z->revealed && z->cur + 1 >= z->nq);
}

void quiz_text(const struct quiz_question *q, char *buf, size_t size)
{
	switch (q->type) {
	case QUIZ_SHARD:
		snprintf(buf, size, "step s=%d: which shard does rank %d hold?", q->step, q->rank);
		break;
	case QUIZ_COLS:
		snprintf(buf, size, "step s=%d: which columns of C will rank %d write? (a:b)", q->step,
			 q->rank);
		break;
	case QUIZ_SEND_TO:
		snprintf(buf, size, "transfer after s=%d: rank %d sends its shard to which rank?",
			 q->step, q->rank);
		break;
	case QUIZ_RECV_FROM:
		snprintf(buf, size, "transfer after s=%d: rank %d receives a shard from which rank?",
			 q->step, q->rank);
		break;
	case QUIZ_DP_ROWS:
		snprintf(buf, size, "DP: which rows of A does rank %d own? (a:b)", q->rank);
		break;
	case QUIZ_DP_GATHER:
		snprintf(buf, size, "DP gather: to which rank does rank %d send its rows of C?", q->rank);
		break;
	case QUIZ_RS_SEND:
		snprintf(buf, size, "reduce-scatter step s=%d: which chunk of dB does rank %d send to "
				    "rank %d?",
			 q->step, q->rank, sched_right(q->n, q->rank));
		break;
	case QUIZ_RS_ADD:
		snprintf(buf, size, "reduce-scatter step s=%d: which chunk does rank %d receive and add "
				    "its part into?",
			 q->step, q->rank);
		break;
	default:
		snprintf(buf, size, "?");
	}
}

/* A whole number, optionally negative, and nothing else. */
static int quiz_int(const char *s, long *out)
{
	char *end;
	if (!*s)
		return -1;
	long v = strtol(s, &end, 10);
	if (*end || end == s)
		return -1;
	*out = v;
	return 0;
}

/* "a:b" with whole numbers. */
static int quiz_range(const char *s, long *a, long *b)
{
	const char *colon = strchr(s, ':');
	char left[QUIZ_INPUT_MAX];
	if (!colon || (size_t)(colon - s) >= sizeof left)
		return -1;
	memcpy(left, s, (size_t)(colon - s));
	left[colon - s] = '\0';
	return quiz_int(left, a) || quiz_int(colon + 1, b) ? -1 : 0;
}

int quiz_check(const struct quiz_question *q, const char *answer, char *explain, size_t size)
{
	int n = q->n, r = q->rank, s = q->step;
	long got, a, b;

	switch (q->type) {
	case QUIZ_SHARD: {
		int k = sched_shard(n, r, s);
		if (quiz_int(answer, &got)) {
			snprintf(explain, size, "type the shard's index, a number from 0 to %d", n - 1);
			return -1;
		}
		if (got == k) {
			snprintf(explain, size, "right: (%d - %d) mod %d = %d", r, s, n, k);
			return 1;
		}
		if (got == (r - s) % n && got < 0)
			snprintf(explain, size, "wrong: (%d - %d) mod %d = %d. %ld is C's %%, which keeps "
						"the sign of r - s: add n (%ld + %d = %d)",
				 r, s, n, k, got, got, n, k);
		else
			snprintf(explain, size, "wrong: (%d - %d) mod %d = %d", r, s, n, k);
		return 0;
	}
	case QUIZ_COLS: {
		int k = sched_shard(n, r, s);
		size_t c0 = split_offset(q->N, n, k), c1 = split_offset(q->N, n, k + 1);
		if (quiz_range(answer, &a, &b)) {
			snprintf(explain, size, "type the columns as a:b, like C[:, a:b]");
			return -1;
		}
		int ok = a == (long)c0 && b == (long)c1;
		snprintf(explain, size, "%s: it holds shard (%d - %d) mod %d = %d, columns %zu:%zu of %zu",
			 ok ? "right" : "wrong", r, s, n, k, c0, c1, q->N);
		return ok;
	}
	case QUIZ_SEND_TO:
	case QUIZ_RECV_FROM: {
		int send = q->type == QUIZ_SEND_TO;
		int want = send ? sched_right(n, r) : sched_left(n, r);
		if (quiz_int(answer, &got)) {
			snprintf(explain, size, "type a rank, a number from 0 to %d", n - 1);
			return -1;
		}
		int ok = got == want;
		long raw = send ? (long)r + 1 : (long)r - 1;
		snprintf(explain, size, "%s: (%d %c 1) mod %d = %d%s", ok ? "right" : "wrong", r,
			 send ? '+' : '-', n, want,
			 !ok && got == raw ? (send ? ": the ring wraps round to rank 0"
						   : ": rank 0 gets its shard from the last rank")
					   : "");
		return ok;
	}
	case QUIZ_DP_ROWS: {
		size_t r0 = split_offset(q->M, n, r), r1 = split_offset(q->M, n, r + 1);
		if (quiz_range(answer, &a, &b)) {
			snprintf(explain, size, "type the rows as a:b, like A[a:b]");
			return -1;
		}
		int ok = a == (long)r0 && b == (long)r1;
		snprintf(explain, size, "%s: %zu rows split in %d parts, the first %zu one larger: rank %d "
					"owns %zu:%zu",
			 ok ? "right" : "wrong", q->M, n, q->M % (size_t)n, r, r0, r1);
		return ok;
	}
	case QUIZ_RS_SEND:
	case QUIZ_RS_ADD: {
		int send = q->type == QUIZ_RS_SEND, off = send ? 1 : 2;
		int want = send ? sched_rs_send_chunk(n, r, s) : sched_rs_recv_chunk(n, r, s);
		if (quiz_int(answer, &got)) {
			snprintf(explain, size, "type the chunk's index, a number from 0 to %d", n - 1);
			return -1;
		}
		int ok = got == want;
		snprintf(explain, size, "%s: (%d - %d - %d) mod %d = %d%s", ok ? "right" : "wrong", r, s,
			 off, n, want,
			 !ok && got == (long)(r - s - off) ? ": C's % keeps the sign, add n" : "");
		return ok;
	}
	case QUIZ_DP_GATHER:
		if (quiz_int(answer, &got)) {
			snprintf(explain, size, "type a rank");
			return -1;
		}
		snprintf(explain, size, "%s: every rank sends its rows to rank 0, which places them",
			 got == 0 ? "right" : "wrong");
		return got == 0;
	}
	snprintf(explain, size, "?");
	return -1;
}
