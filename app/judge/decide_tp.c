/* decide_tp: the verdict of a tensor-parallel run that returned
 * (tp_col_mat_mul, tp_row_mat_mul; docs/judge.md has their contract), from
 * the run's facts alone, after stuck.c found it neither raised nor hung.
 *
 * The engine's replay and trace rules know FSDP and DP alone, so a TP run
 * is held to its contract here rather than rebuilt as an event log: the
 * weights (B) never move, tp-col's one array is C, tp-row's list holds C on
 * every rank.  A wrong one is named by what it holds (a sum of column
 * blocks, one rank's block, a rank's own partial), each compared by the
 * engine's element rule (mat_close); bytes are model_tp_rank's, compared,
 * never worked out here.  Checks, the most telling first: a payload or
 * input changed in place, weights moved, the result, messages left. */
#include "judge/decide.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/model.h>
#include <distmm/plan.h>
#include <distmm/split.h>

/* x's block at (xr, xc) against y's at (yr, yc), rows x cols, by the
 * engine's element rule. */
static int decide_tp_same(const struct mat *x, size_t xr, size_t xc, const struct mat *y,
			  size_t yr, size_t yc, size_t rows, size_t cols)
{
	for (size_t i = 0; i < rows; i++)
		for (size_t j = 0; j < cols; j++)
			if (!mat_close(MAT_AT(x, xr + i, xc + j), MAT_AT(y, yr + i, yc + j)))
				return 0;
	return 1;
}

/* Element (i, j) of rank r's partial A[:, k_r] @ B[k_r, :]. */
static double decide_tp_pval(const struct content *ct, int r, size_t i, size_t j)
{
	size_t k0 = split_offset(ct->K, ct->n, r), k1 = k0 + split_size(ct->K, ct->n, r);
	double s = 0;
	for (size_t t = k0; t < k1; t++)
		s += MAT_AT(ct->a, i, t) * MAT_AT(ct->b, t, j);
	return s;
}

/* Whether x is a row chunk of one rank's partial: what tp-row's ring sends,
 * which small inputs can make equal to rows of B (a column of A all ones). */
static int decide_tp_partial_rows(const struct content *ct, const struct mat *x)
{
	if (x->cols != ct->N)
		return 0;
	for (int c = 0; c < ct->n; c++) {
		size_t i0 = split_offset(ct->M, ct->n, c);
		if (split_size(ct->M, ct->n, c) != x->rows || !x->rows)
			continue;
		for (int r = 0; r < ct->n; r++) {
			int same = 1;
			for (size_t i = 0; i < x->rows && same; i++)
				for (size_t j = 0; j < x->cols && same; j++)
					same = mat_close(MAT_AT(x, i, j), decide_tp_pval(ct, r, i0 + i, j));
			if (same)
				return 1;
		}
	}
	return 0;
}

/* ---- the weights stay -------------------------------------------------- */

static int decide_tp_weights(struct decide_out *o, const struct decide_in *in,
			     const struct facts *f)
{
	const struct rec_run *r = in->run;
	const struct content *ct = in->ct;
	int n = ct->n, col = in->c->mode == DM_TP_COL;
	for (size_t i = 0; i < f->n_msg; i++) {
		const struct facts_msg *m = &f->msg[i];
		struct content_label lab = { .kind = CT_NONE };
		const struct content_label *l = &lab;
		int st = m->m->stid;
		if (st >= 0 && (size_t)st < r->n_th && r->th[st].caller)
			continue;  /* the caller handing each rank its part: the start, not a move */
		for (size_t k = 0; k < m->m->n_arr && l->kind == CT_NONE; k++) {
			const struct rec_arr *x = &m->m->arr[k];
			content_identify(ct, x, &lab);
			if ((lab.kind != CT_B && lab.kind != CT_B_ALL && lab.kind != CT_BROWS) ||
			    (!col && x->has_data && decide_tp_partial_rows(ct, &x->m)))
				lab.kind = CT_NONE;
		}
		if (l->kind == CT_NONE)
			continue;
		char what[160], who[160], to[32] = "another rank";
		size_t k0 = split_offset(l->kind == CT_B ? ct->N : ct->K, n, l->k);
		size_t k1 = k0 + split_size(l->kind == CT_B ? ct->N : ct->K, n, l->k);
		if (l->kind == CT_B)
			snprintf(what, sizeof what, "B's columns %zu:%zu (rank %d's shard)", k0, k1, l->k);
		else if (l->kind == CT_BROWS)
			snprintf(what, sizeof what, "B's rows %zu:%zu (rank %d's part of K)", k0, k1, l->k);
		else
			snprintf(what, sizeof what, "all of B");
		if (m->dst >= 0)
			snprintf(to, sizeof to, "rank %d", m->dst);
		decide_thread(r, st, who, sizeof who);
		decide_head(o, JUDGE_WEIGHTS_MOVED, "%s sent %s to %s: tensor parallel keeps the "
			    "weights where they are and moves activations (%s)", who, what, to,
			    col ? "tp-col: rank r keeps B's columns r, multiplies all of A by them, "
				  "and sends its block of C to rank 0"
				: "tp-row: rank r keeps B's rows r along K, and the ranks sum their "
				  "partials A[:, k_r] @ B[k_r, :]");
		return 1;
	}
	return 0;
}

/* ---- tp-col: one array, C, at rank 0 ------------------------------------ */

/* A result that is not M x N, named by what tp-col's mistakes make of the
 * column blocks: their sum, one rank's block, the blocks stacked as rows. */
static int decide_tp_col_shape(struct decide_out *o, const struct decide_in *in)
{
	const struct rec_run *r = in->run;
	const struct content *ct = in->ct;
	const struct mat *P = &ct->p;
	size_t M = ct->M, N = ct->N;
	int n = ct->n, even = N % (size_t)n == 0;
	if (!ct->has_p || !r->has_ret || r->ret_kind != REC_RET_ARRAY || !r->has_ret_arr ||
	    !r->ret.has_data || r->ret.ndim != 2)
		return 0;
	const struct mat *x = &r->ret.m;
	size_t w = N / (size_t)n;
	if (even && w && x->rows == M && x->cols == w) {
		int sum = 1;
		for (size_t i = 0; i < M && sum; i++)
			for (size_t j = 0; j < w && sum; j++) {
				double s = 0;
				for (int k = 0; k < n; k++)
					s += MAT_AT(P, i, (size_t)k * w + j);
				sum = mat_close(MAT_AT(x, i, j), s);
			}
		if (sum && n > 1) {
			decide_head(o, JUDGE_WRONG_SHAPE, "returned the sum of the %d column blocks "
				    "(%zux%zu), not C (%zux%zu): tp-col's blocks A @ B_r are different "
				    "columns of C, so rank 0 concatenates them (np.hstack), it does not "
				    "add them: a gather, not an all-reduce", n, M, w, M, N);
			return 1;
		}
	}
	for (int k = 0; k < n; k++) {
		size_t c0 = split_offset(N, n, k), wk = split_size(N, n, k);
		if (wk && x->rows == M && x->cols == wk && decide_tp_same(x, 0, 0, P, 0, c0, M, wk)) {
			decide_head(o, JUDGE_WRONG_SHAPE, "returned only rank %d's columns (%zux%zu = "
				    "C[:, %zu:%zu]), not C (%zux%zu): the gather of every rank's block "
				    "to rank 0 is missing", k, M, wk, c0, c0 + wk, M, N);
			return 1;
		}
	}
	if (even && w && n > 1 && x->rows == M * (size_t)n && x->cols == w) {
		int rows = 1;
		for (int k = 0; k < n && rows; k++)
			rows = decide_tp_same(x, (size_t)k * M, 0, P, 0, (size_t)k * w, M, w);
		if (rows) {
			decide_head(o, JUDGE_WRONG_SHAPE, "stacked the column blocks as rows (%zux%zu), "
				    "not C (%zux%zu): each block A @ B_r is columns of C; join them "
				    "side by side (np.hstack)", x->rows, w, M, N);
			return 1;
		}
	}
	return 0;
}

/* An M x N result that is not C: the first rank whose columns are wrong,
 * and what they hold. */
static void decide_tp_col_wrong(struct decide_out *o, const struct decide_in *in,
				const struct facts *f)
{
	const struct content *ct = in->ct;
	const struct mat *R = f->R, *P = &ct->p;
	size_t M = ct->M, N = ct->N;
	int n = ct->n, bad = 0;
	for (int r = 0; r < n && ct->has_p; r++) {
		size_t c0 = split_offset(N, n, r), w = split_size(N, n, r);
		if (!w || decide_tp_same(R, 0, c0, P, 0, c0, M, w))
			continue;
		if (bad++)
			continue;
		int zero = 1, other = -1;
		for (size_t i = 0; i < M; i++)
			for (size_t j = 0; j < w; j++)
				zero &= MAT_AT(R, i, c0 + j) == 0;
		for (int k = 0; k < n && other < 0; k++)
			if (k != r && split_size(N, n, k) == w &&
			    decide_tp_same(R, 0, c0, P, 0, split_offset(N, n, k), M, w))
				other = k;
		if (other >= 0)
			decide_head(o, JUDGE_WRONG_RESULT, "C[:, %zu:%zu], rank %d's columns, hold rank "
				    "%d's block (A @ B[:, %zu:%zu]): the blocks were placed in the order "
				    "they arrived at rank 0; place each by the rank that sent it", c0,
				    c0 + w, r, other, split_offset(N, n, other),
				    split_offset(N, n, other) + w);
		else if (zero)
			decide_head(o, JUDGE_WRONG_RESULT, "C[:, %zu:%zu], rank %d's columns, are zeros: "
				    "rank %d's block A @ B[:, %zu:%zu] never reached the result", c0,
				    c0 + w, r, r, c0, c0 + w);
		else
			decide_head(o, JUDGE_WRONG_RESULT, "C[:, %zu:%zu], rank %d's columns, are not "
				    "A @ B[:, %zu:%zu] (rank %d's block)", c0, c0 + w, r, c0, c0 + w, r);
	}
	if (bad > 1)
		decide_note(o, "the columns of %d of the %d ranks are wrong", bad, n);
	if (!bad)
		decide_head(o, JUDGE_WRONG_RESULT, "the result differs from A @ B in %zu element%s",
			    f->n_bad, f->n_bad == 1 ? "" : "s");
}

/* ---- tp-row: every rank's C --------------------------------------------- */

/* Whether x is rank r's partial A[:, k_r] @ B[k_r, :]. */
static int decide_tp_partial(const struct content *ct, const struct mat *x, int r)
{
	for (size_t i = 0; i < ct->M; i++)
		for (size_t j = 0; j < ct->N; j++)
			if (!mat_close(MAT_AT(x, i, j), decide_tp_pval(ct, r, i, j)))
				return 0;
	return 1;
}

/* Rank r's item of the list is not C: in words, as the headline. */
static void decide_tp_row_rank(struct decide_out *o, const struct decide_in *in,
			       const struct mat *x, int r, size_t n_bad)
{
	const struct content *ct = in->ct;
	size_t k0 = split_offset(ct->K, ct->n, r), k1 = k0 + split_size(ct->K, ct->n, r);
	size_t rows = 0, r0 = 0;
	if (ct->n > 1 && decide_tp_partial(ct, x, r)) {
		decide_head(o, JUDGE_WRONG_RESULT, "rank %d's result is its own partial, A[:, %zu:%zu] "
			    "@ B[%zu:%zu, :]: the all-reduce is missing (every rank must end with the "
			    "sum of all %d partials, which is C)", r, k0, k1, k0, k1, ct->n);
		return;
	}
	for (size_t i = 0; i < ct->M && ct->has_p; i++)
		if (decide_tp_same(x, i, 0, &ct->p, i, 0, 1, ct->N) && !rows++)
			r0 = i;
	if (rows)
		decide_head(o, JUDGE_WRONG_RESULT, "rank %d's result has %zu of C's %zu rows right "
			    "(the first is row %zu), the others not: the all-reduce stopped before "
			    "every chunk was summed and shared", r, rows, ct->M, r0);
	else
		decide_head(o, JUDGE_WRONG_RESULT, "rank %d's result differs from A @ B in %zu "
			    "element%s: it is neither C nor its own partial", r, n_bad,
			    n_bad == 1 ? "" : "s");
}

/* The list's shape: n arrays, each M x N numbers; 1 when it is not (o
 * decided). */
static int decide_tp_row_shape(struct decide_out *o, const struct decide_in *in)
{
	const struct rec_run *r = in->run;
	const struct content *ct = in->ct;
	int n = ct->n;
	char kind[160];
	const char *want = "tp_row_mat_mul returns every rank's C, a list of n arrays (results[r] "
			   "rank r's): the all-reduce leaves C on every rank";
	decide_esc(kind, sizeof kind, r->ret_type ? r->ret_type : "?", 60);
	if (!r->has_ret || r->ret_kind == REC_RET_NONE) {
		decide_head(o, JUDGE_WRONG_SHAPE, "returned None; %s", want);
		return 1;
	}
	if (r->ret_kind == REC_RET_ARRAY) {
		const struct rec_arr *x = &r->ret;
		int is_c = 0;
		size_t bad;
		struct dm_err e;
		if (x->has_data && x->ndim == 2 && x->dim[0] == ct->M && x->dim[1] == ct->N &&
		    facts_is_c(ct, &x->m, in->c->seed, &is_c, &bad, &e))
			is_c = 0;
		decide_head(o, JUDGE_WRONG_SHAPE, "returned one array%s, not a list of n = %d; %s",
			    is_c ? " (C, as one rank holds it)" : "", n, want);
		return 1;
	}
	if (r->ret_kind != REC_RET_SEQ) {
		decide_head(o, JUDGE_WRONG_SHAPE, "returned a %s; %s", kind, want);
		return 1;
	}
	if (r->ret_items != n || r->n_items != (size_t)n) {
		decide_head(o, JUDGE_WRONG_SHAPE, "returned a %s of %ld items, not n = %d; %s", kind,
			    r->ret_items, n, want);
		return 1;
	}
	for (int k = 0; k < n; k++) {
		const struct rec_arr *x = &r->items[k];
		struct content_label l;
		char words[256];
		if (x->ndim == 2 && x->dim[0] == ct->M && x->dim[1] == ct->N && x->has_data)
			continue;
		content_identify(ct, x, &l);
		if (l.kind == CT_C) {
			decide_head(o, JUDGE_WRONG_SHAPE, "rank %d's result is its rows of C alone "
				    "(C[%zu:%zu]): a reduce-scatter without the all-gather; every rank "
				    "must end with all of C", k, split_offset(ct->M, n, l.i),
				    split_offset(ct->M, n, l.i) + split_size(ct->M, n, l.i));
			return 1;
		}
		if (x->ndim != 2) {
			decide_head(o, JUDGE_WRONG_SHAPE, "rank %d's result is not a 2-D array (None, "
				    "or never set?): %s", k, want);
			return 1;
		}
		content_words(ct, &l, -1, words, sizeof words);
		decide_head(o, JUDGE_WRONG_SHAPE, "rank %d's result is %s, not C (%zux%zu)", k, words,
			    ct->M, ct->N);
		return 1;
	}
	return 0;
}

/* Each rank's C by the engine's rule; 1 when one is wrong (o decided). */
static int decide_tp_row_values(struct decide_out *o, const struct decide_in *in,
				struct dm_err *err, int *rc)
{
	const struct rec_run *r = in->run;
	int n = in->ct->n, bad = 0;
	for (int k = 0; k < n && !*rc; k++) {
		int ok = 0;
		size_t n_bad = 0;
		*rc = facts_is_c(in->ct, &r->items[k].m, in->c->seed ^ (uint64_t)k, &ok, &n_bad, err);
		if (*rc || ok)
			continue;
		if (!bad++)
			decide_tp_row_rank(o, in, &r->items[k].m, k, n_bad);
	}
	if (bad > 1)
		decide_note(o, "the results of %d of the %d ranks are wrong", bad, n);
	return bad > 0;
}

/* A pass whose ranks sent more than the ring all-reduce would: a note. */
static int decide_tp_bytes(struct decide_out *o, const struct decide_in *in,
			   const struct facts *f, struct dm_err *err)
{
	const struct content *ct = in->ct;
	int n = ct->n, most = -1;
	uint64_t most_sent = 0, model_most = 0;
	struct dm_plan *p;
	int rc = plan_make(&p, DM_TP_ROW, n, DM_FORWARD, err);
	if (rc)
		return rc;
	for (int k = 0; k < n; k++) {
		struct model_tp m;
		uint64_t sent = 0;
		model_tp_rank(p, k, ct->M, ct->K, ct->N, &m);
		model_most = m.sent > model_most ? m.sent : model_most;
		for (size_t i = 0; i < f->n_msg; i++)
			sent += f->msg[i].src == k ? f->msg[i].bytes : 0;
		if (sent > most_sent) {
			most_sent = sent;
			most = k;
		}
	}
	plan_free(p);
	if (most >= 0 && most_sent > model_most)
		decide_note(o, "rank %d sent %" PRIu64 " bytes; a ring all-reduce sends at most %" PRIu64
			    " a rank (the engine's model, -b -m tp-row): right, but more traffic "
			    "than the ring", most, most_sent, model_most);
	return 0;
}

int decide_tp(struct decide_out *o, const struct decide_in *in, const struct facts *f,
	      struct dm_err *err)
{
	int rc = 0;
	if (decide_mutation(o, in, f)) {
		o->first_wrong = -1;
		return 0;
	}
	if (decide_tp_weights(o, in, f))
		return 0;
	if (in->c->mode == DM_TP_COL) {
		if (!f->R) {
			if (!decide_tp_col_shape(o, in))
				decide_shape(o, in);
			return 0;
		}
		if (!f->ok) {
			decide_tp_col_wrong(o, in, f);
			return 0;
		}
	} else {
		if (decide_tp_row_shape(o, in) || decide_tp_row_values(o, in, err, &rc))
			return rc;
	}
	if (decide_left(o, in, f))
		return 0;
	decide_head(o, JUDGE_PASS, "pass");
	if (in->c->mode == DM_TP_ROW && in->ct->n > 1)
		rc = decide_tp_bytes(o, in, f, err);
	return rc;
}

void decide_tp_stuck(struct decide_out *o, const struct decide_in *in)
{
	const struct rec_run *r = in->run;
	if (o->verdict != JUDGE_EXCEPTION || !r->n_exc || !r->exc[0].msg ||
	    (!strstr(r->exc[0].msg, "matmul") && !strstr(r->exc[0].msg, "not aligned")))
		return;
	/* numpy's words for operands that do not meet: a split on the wrong axis */
	if (in->c->mode == DM_TP_COL)
		decide_note(o, "the shapes do not meet: tp-col splits B by columns "
			    "(np.array_split(b, n, axis=1)) and gives every rank all of A");
	else
		decide_note(o, "the shapes do not meet: tp-row splits both along K, A by columns "
			    "(np.array_split(a, n, axis=1)) and B by rows (axis=0)");
}
