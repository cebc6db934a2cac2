/* wrong: the words of a result that is not A @ B (see decide.h).  The
 * engine's rules name the first wrong event of the log (replay_first_wrong);
 * here each event that leaves the ring is said as the candidate can act on
 * it, with the formula the engine's schedule gives (sched_shard: rank r
 * holds (r - s) mod n at step s; sched_right: it passes to (r + 1) mod n;
 * split_offset: where a rank's rows go), and the headline is what the rules'
 * event says.  What the facts show beyond the events (a gather stacked in
 * arrival order, rows that never arrived, a rank that never computed) is
 * said at the event that carries it. */
#include "judge/decide.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "judge/evbuild.h"

#define WRONG_MAX 64

struct wrong_disc {
	int phase, order, rank;   /* where it is said, in this order */
	int verdict;
	long event;               /* the event it is about, -1 */
	char text[DECIDE_HEAD];
};

struct wrong {
	const struct decide_in *in;
	const struct facts *f;
	const struct evbuild *b;
	const struct content *ct;
	int n;
	struct wrong_disc d[WRONG_MAX];
	size_t n_d;
	char *bad;                /* ranks whose rows the gather misplaced */
};

static struct wrong_disc *wrong_add(struct wrong *w, int phase, int order, int rank, int verdict,
				    long event)
{
	if (w->n_d >= WRONG_MAX)
		return NULL;
	struct wrong_disc *d = &w->d[w->n_d++];
	*d = (struct wrong_disc){ phase, order, rank, verdict, event, "" };
	return d;
}

static size_t wrong_r0(const struct wrong *w, int r)
{
	return split_offset(w->ct->M, w->n, r);
}

static size_t wrong_r1(const struct wrong *w, int r)
{
	return wrong_r0(w, r) + split_size(w->ct->M, w->n, r);
}

static size_t wrong_c0(const struct wrong *w, int k)
{
	return split_offset(w->ct->N, w->n, k);
}

static size_t wrong_c1(const struct wrong *w, int k)
{
	return wrong_c0(w, k) + split_size(w->ct->N, w->n, k);
}

static int wrong_rank_of_row(const struct wrong *w, size_t q)
{
	return q < w->ct->M ? split_part_of(w->ct->M, w->n, q) : -1;
}

/* The gather: blocks of rows in the wrong place, or missing. */
static void wrong_gather(struct wrong *w, int phase)
{
	const struct facts *f = w->f;
	struct facts_block *bl = malloc((w->ct->M ? w->ct->M : 1) * sizeof *bl);
	int *order = malloc(((f->gathered.n ? f->gathered.n : 1) + 1) * sizeof *order);
	if (!bl || !order) {
		free(bl);
		free(order);
		return;
	}
	size_t nb = facts_row_blocks(f, bl), no = 0;
	for (size_t i = 0; i < f->gathered.n; i++) {
		const struct facts_msg *m = facts_at(f, &f->gathered, i);
		if (m->label.kind == CT_C)
			order[no++] = m->label.i;
	}
	/* stacked as they came: the blocks' ranks are the arrival order, or
	 * rank 0's own first and then the arrival order of the others */
	int arrival = 0;
	for (int with0 = 0; with0 < 2 && !arrival; with0++) {
		size_t k = 0, i = 0;
		int same = 1;
		if (with0 && nb)
			same = bl[i++].q0 >= 0 && wrong_rank_of_row(w, (size_t)bl[0].q0) == 0;
		for (; i < nb && same; i++) {
			while (with0 && k < no && order[k] == 0)
				k++;
			same = k < no && bl[i].q0 >= 0 &&
			       wrong_rank_of_row(w, (size_t)bl[i].q0) == order[k++];
		}
		while (with0 && k < no && order[k] == 0)
			k++;
		arrival = same && k == no;
	}
	int first = 1;
	for (size_t pass = 0; pass < nb; pass++) {
		/* the moved blocks in the order their ranks' blocks came */
		size_t best = nb;
		long best_t = 0;
		for (size_t i = 0; i < nb; i++) {
			if (bl[i].q0 < 0 || (size_t)bl[i].q0 == bl[i].p0)
				continue;
			int j = wrong_rank_of_row(w, (size_t)bl[i].q0);
			long t = (long)(no + bl[i].p0);
			for (size_t k = 0; k < no; k++)
				if (order[k] == j) {
					t = (long)k;
					break;
				}
			if (best == nb || t < best_t) {
				best = i;
				best_t = t;
			}
		}
		if (best == nb)
			break;
		struct facts_block x = bl[best];
		bl[best].q0 = (long)bl[best].p0;   /* taken */
		int j = wrong_rank_of_row(w, (size_t)x.q0);
		w->bad[wrong_rank_of_row(w, x.p0)] = 1;
		struct wrong_disc *d = wrong_add(w, phase, (int)best_t, 0, JUDGE_WRONG_RESULT,
						 evbuild_find(w->b, KEY_GATHER, j, 0));
		if (!d)
			break;
		int l = snprintf(d->text, sizeof d->text, "the gather: rank %d's rows (C[%ld:%zu]) "
				 "ended up at C[%zu:%zu]", j, x.q0, (size_t)x.q0 + x.p1 - x.p0, x.p0, x.p1);
		if (first && arrival && no > 1)
			snprintf(d->text + l, sizeof d->text - (size_t)l, "; the blocks were stacked in the "
				 "order they arrived at rank 0 (rank %d's came first), not by rank: place "
				 "each at its sender's rows (the src that recv returns)", order[0]);
		else if (first && !no)
			snprintf(d->text + l, sizeof d->text - (size_t)l, "; the rows were put together in "
				 "the order the threads finished, not by rank: place each rank's rows at "
				 "its own offset");
		first = 0;
	}
	/* rows that never arrived (n > 1: with one rank there is no gather, and
	 * zero rows are a compute's) */
	for (size_t i = 0; i < nb && w->n > 1; i++) {
		if (bl[i].q0 >= 0)
			continue;
		int j = wrong_rank_of_row(w, bl[i].p0);
		if (j < 0 || !facts_zero_rows(f, j) || wrong_r0(w, j) != bl[i].p0 ||
		    wrong_r1(w, j) != bl[i].p1)
			continue;
		w->bad[j] = 1;
		struct wrong_disc *d = wrong_add(w, phase, 100 + j, 0, JUDGE_WRONG_RESULT,
						 evbuild_find(w->b, KEY_GATHER, j, 0));
		if (d)
			snprintf(d->text, sizeof d->text, "C[%zu:%zu] is zero: rank %d's rows never reached "
				 "the result (the gather to rank 0 is missing them)", bl[i].p0, bl[i].p1, j);
	}
	free(bl);
	free(order);
}

/* "shard 2 = (0 - 1) mod 3", or what the ring has it hold. */
static void wrong_holds(const struct wrong *w, int r, int s, int k, char *buf, size_t size)
{
	int ring = sched_shard(w->n, r, s);
	if (k == ring)
		snprintf(buf, size, "shard %d = (%d - %d) mod %d", k, r, s, w->n);
	else
		snprintf(buf, size, "shard %d (the ring has it hold (%d - %d) mod %d = %d)", k, r, s, w->n,
			 ring);
}

/* Rank r's transfers: to the wrong neighbour, or not the shard it holds. */
static void wrong_sends(struct wrong *w, int r)
{
	const struct facts *f = w->f;
	int n = w->n;
	char what[256];
	for (size_t s = 0; s < f->sends[r].n && s + 1 < (size_t)n; s++) {
		const struct facts_msg *m = facts_at(f, &f->sends[r], s);
		int right = sched_right(n, r), h = facts_held_at(f, r, (int)s);
		long ev = evbuild_find(w->b, KEY_SEND, r, (long)s);
		struct wrong_disc *d;
		content_words(w->ct, &m->label, m->owner, what, sizeof what);
		if (m->dst != right) {
			if ((d = wrong_add(w, 2 * (int)s + 1, 0, r, JUDGE_WRONG_NEIGHBOUR, ev)))
				snprintf(d->text, sizeof d->text, "step %zu: rank %d sent %s to rank %d; the "
					 "ring passes it right, to (%d + 1) mod %d = %d (with (r - s) mod n "
					 "the shards must travel right)", s, r, what, m->dst, r, n, right);
		} else if (m->label.kind != CT_B) {
			if ((d = wrong_add(w, 2 * (int)s + 1, 1, r, JUDGE_WRONG_RESULT, ev)))
				snprintf(d->text, sizeof d->text, "step %zu: rank %d sent %s to rank %d; the "
					 "ring passes on the one shard it holds", s, r, what, m->dst);
		} else if (h >= 0 && m->label.k != h) {
			if ((d = wrong_add(w, 2 * (int)s + 1, 1, r, JUDGE_WRONG_RESULT, ev)))
				snprintf(d->text, sizeof d->text, "step %zu: rank %d sent shard %d but holds "
					 "shard %d then: the ring passes on the shard it holds (the one it "
					 "received last)", s, r, m->label.k, h);
		}
	}
	if (f->complete && f->sends[r].n + 1 < (size_t)n) {
		int s = (int)f->sends[r].n;
		struct wrong_disc *d = wrong_add(w, 2 * s + 1, 0, r, JUDGE_WRONG_RESULT,
						 evbuild_find(w->b, KEY_COMPUTE, r, s));
		if (d)
			snprintf(d->text, sizeof d->text, "step %d: rank %d sent nothing; the ring has "
				 "n - 1 = %d transfers", s, r, n - 1);
	}
}

/* Rank r's computes: the product of the shard it held, where it went. */
static void wrong_computes(struct wrong *w, int r)
{
	const struct facts *f = w->f;
	int n = w->n;
	size_t b = wrong_r0(w, r), e = wrong_r1(w, r), N = w->ct->N;
	char holds[160], blk[64], target[96];
	struct facts_write *W = malloc((N ? N : 1) * sizeof *W);
	if (!W || e == b || !f->cmap || !f->cmap[r]) {
		free(W);
		return;
	}
	int steps = facts_steps_reached(f, r);
	for (int s = 0; s < steps && s < n; s++) {
		int k = facts_held_at(f, r, s);
		if (k < 0 || wrong_c0(w, k) == wrong_c1(w, k))
			continue;
		size_t c0 = wrong_c0(w, k), c1 = wrong_c1(w, k);
		size_t m = facts_placed_at(f, r, s, k, W), w0 = N, w1 = 0;
		int first_held = 1, exact = m == c1 - c0, cut = 0;
		for (int t = 0; t < s; t++)
			first_held &= facts_held_at(f, r, t) != k;
		if (!first_held && !m)
			continue;
		for (size_t i = 0; i < m; i++) {
			w0 = W[i].col < w0 ? W[i].col : w0;
			w1 = W[i].col + 1 > w1 ? W[i].col + 1 : w1;
			exact &= W[i].col == W[i].pcol && W[i].col >= c0 && W[i].col < c1;
			cut |= W[i].cut;
		}
		if (exact && !cut)
			continue;
		wrong_holds(w, r, s, k, holds, sizeof holds);
		long ev = evbuild_find(w->b, KEY_COMPUTE, r, s);
		struct wrong_disc *d = wrong_add(w, 2 * s, m ? 0 : 2, r, JUDGE_WRONG_RESULT, ev);
		if (!d)
			break;
		if (m && cut && exact) {
			content_block(blk, sizeof blk, b, e, c0, c1);
			snprintf(d->text, sizeof d->text, "step %d, rank %d wrote its product with shard %d "
				 "into %s cut to whole numbers: an integer accumulator; accumulate in "
				 "float (np.zeros((rows, N)))", s, r, k, blk);
		} else if (m) {
			content_block(blk, sizeof blk, b, e, w0, w1);
			content_cols_words(w->ct, w0, w1, target, sizeof target);
			snprintf(d->text, sizeof d->text, "step %d, rank %d wrote %s (%s) but holds %s", s, r,
				 blk, target, holds);
		} else {
			int zero = 1, product = 0;
			for (size_t c = c0; c < c1; c++) {
				zero &= f->cmap[r][c].kind == CC_ZERO;
				product |= f->cmap[r][c].kind == CC_PRODUCT || f->cmap[r][c].kind == CC_CUT;
			}
			content_block(blk, sizeof blk, b, e, c0, c1);
			if (zero && facts_zero_rows(f, r))
				snprintf(d->text, sizeof d->text, "step %d, rank %d holds %s but never "
					 "computed: %s is zero, as are all its rows of C", s, r, holds, blk);
			else if (zero)
				snprintf(d->text, sizeof d->text, "step %d, rank %d holds %s but never wrote "
					 "its product: %s is zero", s, r, holds, blk);
			else if (!product)
				snprintf(d->text, sizeof d->text, "step %d, rank %d holds %s, but %s holds no "
					 "product of its rows with a shard of B", s, r, holds, blk);
			else
				snprintf(d->text, sizeof d->text, "step %d, rank %d holds %s, but its product "
					 "is not in the result: %s holds another column's product (a later "
					 "write went over it)", s, r, holds, blk);
		}
	}
	/* shards it never held, whose columns stayed zero */
	for (int k = 0; k < n; k++) {
		size_t c0 = wrong_c0(w, k), c1 = wrong_c1(w, k);
		int held = 0, zero = c1 > c0;
		for (size_t t = 0; t < f->n_held[r]; t++)
			held |= f->held[r][t] == k;
		for (size_t c = c0; c < c1; c++)
			zero &= f->cmap[r][c].kind == CC_ZERO;
		if (held || !zero)
			continue;
		int s = split_mod((long)r - k, n);
		size_t got = f->recvs[r].n;
		struct wrong_disc *d = wrong_add(w, 2 * s, 3, r, JUDGE_WRONG_RESULT,
						 evbuild_find(w->b, KEY_COMPUTE, r, s));
		content_block(blk, sizeof blk, b, e, c0, c1);
		if (d)
			snprintf(d->text, sizeof d->text, "rank %d never held shard %d (it received %zu "
				 "shard%s): %s is zero; at step %d the ring has it hold (%d - %d) mod %d = "
				 "%d", r, k, got, got == 1 ? "" : "s", blk, s, r, s, n, k);
	}
	free(W);
}

/* DP: a rank that sent another rank's rows, or something else. */
static void wrong_dp(struct wrong *w)
{
	const struct facts *f = w->f;
	char what[256];
	for (int r = 0; r < w->n; r++)
		for (size_t i = 0; i < f->gsends[r].n; i++) {
			const struct facts_msg *m = facts_at(f, &f->gsends[r], i);
			const struct content_label *l = &m->label;
			struct wrong_disc *d;
			if (l->kind == CT_C && l->i != r) {
				if ((d = wrong_add(w, 0, 0, r, JUDGE_WRONG_RESULT,
						   evbuild_find(w->b, KEY_GSEND, r, 0))))
					snprintf(d->text, sizeof d->text, "rank %d computed and sent rank %d's "
						 "rows (C[%zu:%zu]): its chunk of A is a_chunks[%d]", r, l->i,
						 wrong_r0(w, l->i), wrong_r1(w, l->i), r);
			} else if (l->kind != CT_C && l->kind != CT_C_ALL) {
				content_words(w->ct, l, m->owner, what, sizeof what);
				if ((d = wrong_add(w, 1, 0, r, JUDGE_WRONG_RESULT,
						   evbuild_find(w->b, KEY_GSEND, r, 0))))
					snprintf(d->text, sizeof d->text, "rank %d sent %s to rank %d, not its "
						 "rows of C", r, what, m->dst);
			}
		}
}

static int wrong_cmp(const void *pa, const void *pb)
{
	const struct wrong_disc *a = pa, *b = pb;
	if (a->phase != b->phase)
		return a->phase < b->phase ? -1 : 1;
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	return (a->rank > b->rank) - (a->rank < b->rank);
}

/* No event to say: the elements themselves. */
static void wrong_elements(struct decide_out *o, const struct wrong *w, const char *rules_why)
{
	const struct mat *R = w->f->R, *P = &w->ct->p;
	if (!R || !w->ct->has_p) {
		decide_head(o, JUDGE_WRONG_RESULT, "wrong result: %zu %s fail the check against A @ B%s%s",
			    w->f->n_bad, w->ct->has_p ? "elements" : "rows (Freivalds)",
			    *rules_why ? "; the rules: " : "", rules_why);
		return;
	}
	size_t bad = 0, fi = 0, fj = 0;
	for (size_t i = 0; i < R->rows; i++)
		for (size_t j = 0; j < R->cols; j++)
			if (!mat_close(MAT_AT(R, i, j), MAT_AT(P, i, j)) && !bad++) {
				fi = i;
				fj = j;
			}
	int floats = w->in->c->values == MAT_VALUES_FLOATS;
	decide_head(o, JUDGE_WRONG_RESULT, "wrong result: %zu of %zu elements differ from A @ B; the "
		    "first, C[%zu, %zu], is %.6g, not %.6g%s", bad, R->rows * R->cols, fi, fj,
		    MAT_AT(R, fi, fj), MAT_AT(P, fi, fj),
		    w->f->int_result && floats ? " (the result is an integer array: an integer "
						 "accumulator cuts off fractions)" : "");
}

void wrong_decide(struct decide_out *o, const struct decide_in *in, const struct facts *f,
		  const struct evbuild *b, long rules_event, const char *rules_why)
{
	struct wrong w = { in, f, b, in->ct, f->n, { { 0 } }, 0, calloc((size_t)f->n, 1) };
	if (!w.bad) {
		o->oom = 1;
		return;
	}
	if (f->R && f->rmap) {
		if (f->mode == DM_FSDP) {
			wrong_gather(&w, 2 * f->n - 1);
			for (int r = 0; r < f->n; r++)
				if (!w.bad[r]) {
					wrong_sends(&w, r);
					wrong_computes(&w, r);
				}
		} else {
			wrong_dp(&w);
			wrong_gather(&w, 1);
		}
	}
	free(w.bad);
	qsort(w.d, w.n_d, sizeof w.d[0], wrong_cmp);
	size_t head = 0;
	for (size_t i = 0; i < w.n_d && rules_event >= 0; i++)
		if (w.d[i].event == rules_event) {
			head = i;
			break;
		}
	if (!w.n_d) {
		wrong_elements(o, &w, rules_event >= 0 ? rules_why : "");
		o->first_wrong = rules_event;
		return;
	}
	const struct wrong_disc *d = &w.d[head];
	decide_head(o, d->verdict, "%s", d->text);
	o->first_wrong = rules_event >= 0 ? rules_event : d->event;
	size_t said = 0;
	for (size_t i = 0; i < w.n_d && said < 3; i++)
		if (i != head) {
			decide_note(o, "%s", w.d[i].text);
			said++;
		}
	if (w.n_d > 4)
		decide_note(o, "and %zu more", w.n_d - 4);
}
