/* tp_blocks: what tensor parallel's panels hold (see tp_int.h), in the
 * three places the forward gives C, A's rows and the B shard, so that v
 * cycles them the same way:
 *   tp-col: its columns of C, A (rank 0's from the start, the others'
 *     from the distribute on), its column shard of B (which stays);
 *   tp-row: its partial (summed so far), its columns of A and rows of B;
 *     at a ring step the chunk that came (added or stored), the chunk
 *     sent, and the partial in place with the parts each chunk holds;
 *   gather and verification: C as the rank ends with it, held to A @ B.
 * And c's table: DP, FSDP, tp-col and tp-row on this job, rank by rank, by
 * the model (model_fwd_rank, model_tp_rank: batch mode's figures), beside
 * the run's own peak so far.  Values are the snapshot's (the view's copy:
 * C, and tp-row's partials in its ccl_buf) or the inputs. */
#include "tp_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <distmm/ccl.h>
#include <distmm/model.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

static void tpb_put(struct view_block *b, const char *name, const double *data, size_t ld,
		    size_t rows, size_t cols, const struct view_format *fmt, int shard)
{
	memset(b, 0, sizeof *b);
	snprintf(b->name, sizeof b->name, "%s", name);
	b->data = data;
	b->ld = ld;
	b->rows = rows;
	b->cols = cols;
	b->want1 = cols;
	b->fmt = fmt;
	b->shard = shard;
	b->hot_shard = -1;
}

static void tpb_hot(struct view_block *b, size_t c0, size_t c1, int shard)
{
	b->hot0 = c0;
	b->hot1 = c1;
	b->hot_shard = shard;
}

static void tpb_widen(struct view_format *w, const struct view_format *f)
{
	if (f->min_w > w->min_w)
		w->min_w = f->min_w;
	if (f->ideal_w > w->ideal_w)
		w->ideal_w = f->ideal_w;
}

/* How the partials are written: as wide as |A| @ |B|, which bounds every
 * partial and running sum, with a sign when a term can be negative. */
int tpb_formats(struct view *v, void *data, struct dm_err *err)
{
	struct tp_state *t = data;
	struct mat aa = { 0, 0, NULL }, ab = { 0, 0, NULL }, bound = { 0, 0, NULL };
	int neg = 0, rc;
	if (!(rc = mat_alloc_uninit(&aa, v->a->rows, v->a->cols, err)) &&
	    !(rc = mat_alloc_uninit(&ab, v->b->rows, v->b->cols, err))) {
		for (size_t i = 0; i < aa.rows * aa.cols; i++) {
			aa.data[i] = fabs(v->a->data[i]);
			neg |= v->a->data[i] < 0;
		}
		for (size_t i = 0; i < ab.rows * ab.cols; i++) {
			ab.data[i] = fabs(v->b->data[i]);
			neg |= v->b->data[i] < 0;
		}
		if (!(rc = mat_matmul(&bound, &aa, &ab, err))) {
			for (size_t i = 0; neg && i < bound.rows * bound.cols; i++)
				bound.data[i] = -bound.data[i];
			view_format_measure(&bound, &t->fpart);
			tpb_widen(&t->fpart, &v->fc);
		}
	}
	mat_free(&aa);
	mat_free(&ab);
	mat_free(&bound);
	return rc;
}

/* The elements of b that differ from ref (numpy's allclose rule), said in
 * its label; b->ref set so that the panel marks them. */
static void tpb_checked(struct view_block *b, const double *ref, size_t ref_ld)
{
	size_t bad = 0, len = strlen(b->label);
	b->ref = ref;
	b->ref_ld = ref_ld;
	for (size_t i = 0; b->data && i < b->rows; i++)
		for (size_t j = 0; j < b->cols; j++)
			bad += !mat_close(b->data[i * b->ld + j], ref[i * ref_ld + j]);
	if (bad)
		snprintf(b->label + len, sizeof b->label - len, ": %zu of %zu differ from A @ B (!)",
			 bad, b->rows * b->cols);
	else
		snprintf(b->label + len, sizeof b->label - len, ": allclose ok");
	snprintf(b->brief, sizeof b->brief, bad ? "C: %zu differ (!)" : "C: ok", bad);
}

static void tpb_col(const struct view *v, int r, int slot, struct view_block *b)
{
	const struct run_snapshot *s = &v->snap;
	int n = s->n, end = v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY;
	size_t M = s->M, K = s->K, N = s->N;
	size_t c0 = split_offset(N, n, r), w = split_size(N, n, r);
	if (slot == 0 && end && r == 0) {
		tpb_put(b, "C", s->c, N, M, N, &v->fc, -1);
		snprintf(b->label, sizeof b->label, "C, all columns, placed");
		snprintf(b->brief, sizeof b->brief, "all of C");
		if (v->kind == VIEW_VERIFY)
			tpb_checked(b, v->ref.data, N);
	} else if (slot == 0) {
		tpb_put(b, "C", s->c ? s->c + c0 : NULL, N, M, w, &v->fc, r);
		if (v->kind == SCHED_COMPUTE)
			tpb_hot(b, 0, w, r);
		snprintf(b->label, sizeof b->label, "C[:, %zu:%zu]%s", c0, c0 + w,
			 end			     ? " -> rank 0"
			 : v->kind == SCHED_COMPUTE ? " = A @ B[:, cols], whole columns"
			 : v->stop < 0 || v->kind == SCHED_DISTRIBUTE ? ", not computed yet"
								       : "");
		snprintf(b->brief, sizeof b->brief, "C[:, %zu:%zu]", c0, c0 + w);
	} else if (slot == 1) {
		int held = r == 0 || v->stop >= 0;
		tpb_put(b, "A", held ? v->a->data : NULL, K, M, K, &v->fa, -1);
		if (r == 0)
			snprintf(b->label, sizeof b->label, "A, all of it%s",
				 v->kind == SCHED_DISTRIBUTE && n > 1 ? ": sent to every rank" : "");
		else if (held)
			snprintf(b->label, sizeof b->label, "A, all of it, from rank 0");
		else
			snprintf(b->label, sizeof b->label, "A: not here yet (rank 0 sends it)");
		if (r > 0 && v->kind == SCHED_DISTRIBUTE)
			tpb_hot(b, 0, K, -1);
		snprintf(b->brief, sizeof b->brief, held ? "all of A" : "A: not yet");
	} else {
		tpb_put(b, "B", v->b->data + (w ? c0 : 0), N, K, w, &v->fb, r);
		snprintf(b->label, sizeof b->label, "B[:, %zu:%zu] = shard B[%d], stays", c0, c0 + w, r);
		snprintf(b->brief, sizeof b->brief, "B[%d] stays", r);
	}
}

/* "chunks 0=2/4 1=1/4 ...", or "every chunk 4/4". */
static void tpb_parts(const struct view *v, int r, char *buf, size_t size)
{
	const struct run_snapshot *s = &v->snap;
	int n = s->n, same = 1;
	size_t len;
	for (int c = 1; c < n && s->ccl_parts; c++)
		same &= s->ccl_parts[r * n + c] == s->ccl_parts[r * n];
	if (!s->ccl_parts || same) {
		snprintf(buf, size, "p%d in place: every chunk %d of %d parts", r,
			 s->ccl_parts ? s->ccl_parts[r * n] : 0, n);
		return;
	}
	len = (size_t)snprintf(buf, size, "p%d in place, parts: chunk", r);
	for (int c = 0; c < n && len < size; c++)
		len += (size_t)snprintf(buf + len, size - len, " %d=%d/%d", c,
					s->ccl_parts[r * n + c], n);
}

/* A ring step: the chunk that came, the chunk sent, the partial in place. */
static void tpb_ring(const struct view *v, const struct tp_state *t, int r, int slot,
		     struct view_block *b)
{
	const struct run_snapshot *s = &v->snap;
	int n = s->n;
	size_t M = s->M, N = s->N, r0, r1;
	const double *buf = s->ccl_buf ? s->ccl_buf + (size_t)r * M * N : NULL;
	struct ccl_xfer x;
	ccl_rank_phase(plan_ccl_kind(v->plan), CCL_RING, n, v->stop - 1, r, &x);
	if (slot == 2) {
		tpb_put(b, "p", buf, N, M, N, &t->fpart, -1);
		tpb_parts(v, r, b->label, sizeof b->label);
		snprintf(b->brief, sizeof b->brief, "p%d in place", r);
		return;
	}
	int c = slot == 0 ? x.recv_c0 : x.send_c0;
	int peer = slot == 0 ? x.recv_from : x.send_to;
	if (peer < 0) {
		tpb_put(b, "C", NULL, N, 0, N, &t->fpart, -1);
		snprintf(b->label, sizeof b->label, slot ? "no chunk sent" : "no chunk came");
		snprintf(b->brief, sizeof b->brief, "none");
		return;
	}
	tp_chunk_rows(v, c, &r0, &r1);
	tpb_put(b, "C", buf ? buf + r0 * N : NULL, N, r1 - r0, N, &t->fpart, c);
	int parts = s->ccl_parts ? s->ccl_parts[r * n + c] : 0;
	if (slot == 0) {
		tpb_hot(b, 0, N, c);
		snprintf(b->label, sizeof b->label, "C[%zu:%zu] %s rank %d's: %d of %d parts", r0, r1,
			 x.reduce ? "+=" : "=", peer, parts, n);
		snprintf(b->brief, sizeof b->brief, "c%d %s r%d: %d/%d", c, x.reduce ? "+=" : "=", peer,
			 parts, n);
	} else {
		snprintf(b->label, sizeof b->label, "sent C[%zu:%zu] -> rank %d (chunk %d)", r0, r1, peer,
			 c);
		snprintf(b->brief, sizeof b->brief, "sent c%d -> %d", c, peer);
	}
	if (r1 == r0) {
		size_t len = strlen(b->label);
		snprintf(b->label + len, sizeof b->label - len, ", an empty chunk");
	}
}

static void tpb_row(const struct view *v, const struct tp_state *t, int r, int slot,
		    struct view_block *b)
{
	const struct run_snapshot *s = &v->snap;
	int n = s->n, kind = v->kind;
	size_t M = s->M, K = s->K, N = s->N, r0, r1;
	size_t k0 = split_offset(K, n, r), kw = split_size(K, n, r);
	const double *buf = s->ccl_buf ? s->ccl_buf + (size_t)r * M * N : NULL;
	if (kind == SCHED_CCL_RING_RS || kind == SCHED_CCL_RING_AG) {
		tpb_ring(v, t, r, slot, b);
		return;
	}
	if (slot == 1) {
		tpb_put(b, "A", v->a->data + (kw ? k0 : 0), K, M, kw, &v->fa, r);
		snprintf(b->label, sizeof b->label, "A[:, %zu:%zu], its columns along K", k0, k0 + kw);
		snprintf(b->brief, sizeof b->brief, "A[:, k%d]", r);
		return;
	}
	if (slot == 2) {
		tpb_put(b, "B", v->b->data + k0 * N, N, kw, N, &v->fb, r);
		snprintf(b->label, sizeof b->label, "B[%zu:%zu, :], its rows along K", k0, k0 + kw);
		snprintf(b->brief, sizeof b->brief, "B[k%d, :]", r);
		return;
	}
	if (kind == VIEW_READY) {
		tpb_put(b, "p", buf, N, M, N, &t->fpart, -1);
		snprintf(b->label, sizeof b->label, "partial p%d (%zux%zu): not computed yet", r, M, N);
		snprintf(b->brief, sizeof b->brief, "p%d: not yet", r);
	} else if (kind == SCHED_COMPUTE) {
		tpb_put(b, "p", buf, N, M, N, &t->fpart, r);
		tpb_hot(b, 0, N, r);
		snprintf(b->label, sizeof b->label, "p%d = A[:, k%d] @ B[k%d, :], %zux%zu: C's shape", r,
			 r, r, M, N);
		snprintf(b->brief, sizeof b->brief, "p%d, %zux%zu", r, M, N);
	} else if (!tp_rs(v) || (r == 0 && n == 1)) {
		tpb_put(b, "C", buf, N, M, N, &v->fc, -1);
		snprintf(b->label, sizeof b->label, "C on rank %d%s", r, n > 1 ? ", all-reduced" : "");
		snprintf(b->brief, sizeof b->brief, "all of C");
		if (kind == VIEW_VERIFY)
			tpb_checked(b, v->ref.data, N);
	} else if (r == 0) {
		tpb_put(b, "C", s->c, N, M, N, &v->fc, -1);
		snprintf(b->label, sizeof b->label, "C, gathered: every rank's rows, placed");
		snprintf(b->brief, sizeof b->brief, "all of C");
		if (kind == VIEW_VERIFY)
			tpb_checked(b, v->ref.data, N);
	} else {
		tp_chunk_rows(v, r, &r0, &r1);
		tpb_put(b, "C", buf ? buf + r0 * N : NULL, N, r1 - r0, N, &v->fc, r);
		snprintf(b->label, sizeof b->label, "C[%zu:%zu], its rows (the partial let go) -> rank 0",
			 r0, r1);
		snprintf(b->brief, sizeof b->brief, "C rows -> 0");
	}
}

int tpb_block(const struct view *v, const void *data, int r, int slot, struct view_block *b)
{
	const struct tp_state *t = data;
	if (!v->snap.dev)
		return 0;
	if (r < 0) {
		/* the largest any rank holds at any stop: tp-col's rank 0 ends
		 * with all of C; tp-row's partial and chunks are M x N at most */
		size_t M = v->a->rows, K = v->a->cols, N = v->b->cols;
		size_t rows = slot == 2 ? K : M;
		size_t cols = slot == 1 ? K : N;
		if (tp_row(v)) {
			rows = M > K ? M : K;
			cols = N > K ? N : K;
		}
		tpb_put(b, "", NULL, 0, rows, cols, &t->fpart, -1);
		return 1;
	}
	if (r >= v->snap.n)
		return 0;
	if (tp_row(v))
		tpb_row(v, t, r, slot, b);
	else
		tpb_col(v, r, slot, b);
	return 1;
}

/* A mode's peak and sends on rank r by the model (tp-row's sum by the
 * run's collective). */
static void tpb_model(const struct view *v, enum dm_mode mode, int r, uint64_t *peak,
		      uint64_t *sent)
{
	struct dm_plan *q;
	size_t M = v->a->rows, K = v->a->cols, N = v->b->cols;
	*peak = *sent = 0;
	if (plan_make(&q, mode, v->cfg.devices, DM_FORWARD, NULL))
		return;
	if (mode == DM_TP_ROW)
		plan_set_tp_collective(q, tp_rs(v) ? CCL_REDUCESCATTER : CCL_ALLREDUCE, NULL);
	if (plan_mode_tp(mode)) {
		struct model_tp m;
		model_tp_rank(q, r, M, K, N, &m);
		*peak = m.peak;
		*sent = m.sent;
	} else {
		struct model_fwd m;
		model_fwd_rank(q, r, M, K, N, &m);
		*peak = m.peak;
		*sent = m.sent;
	}
	plan_free(q);
}

int tpb_memory(const struct view *v, const void *data, struct view_memtab *t)
{
	static const enum dm_mode modes[] = { DM_DP, DM_FSDP, DM_TP_COL, DM_TP_ROW };
	const struct run_snapshot *s = &v->snap;
	int n = v->cfg.devices, rows = n < VIEW_MEMTAB_ROWS - 1 ? n : VIEW_MEMTAB_ROWS - 1;
	uint64_t total[9] = { 0 };
	(void)data;
	memset(t, 0, sizeof *t);
	snprintf(t->title, sizeof t->title, "memory and traffic: DP, FSDP, tp-col, tp-row on this "
					    "job (bytes a rank)");
	t->n_cols = 10;
	t->n_rows = rows + 1;
	t->total = 1;
	snprintf(t->head[1], sizeof t->head[1], "peak now");
	for (size_t k = 0; k < 4; k++) {
		snprintf(t->group[2 + 2 * k], sizeof t->group[0], "%s", plan_mode_name(modes[k]));
		snprintf(t->head[2 + 2 * k], sizeof t->head[0], "peak");
		snprintf(t->head[3 + 2 * k], sizeof t->head[0], "sent");
	}
	for (int r = 0; r < rows; r++) {
		snprintf(t->cell[r][0], sizeof t->cell[r][0], "rank %d", r);
		if (s->dev && r < s->n) {
			view_bytes(s->dev[r].peak_bytes, t->cell[r][1], sizeof t->cell[r][1]);
			total[0] += s->dev[r].peak_bytes;
		}
		for (size_t k = 0; k < 4; k++) {
			uint64_t f[2];
			tpb_model(v, modes[k], r, &f[0], &f[1]);
			for (int i = 0; i < 2; i++) {
				view_bytes(f[i], t->cell[r][2 + 2 * k + (size_t)i], sizeof t->cell[r][0]);
				total[1 + 2 * k + (size_t)i] += f[i];
			}
		}
	}
	snprintf(t->cell[rows][0], sizeof t->cell[rows][0], "total");
	for (int k = 0; k < 9; k++)
		view_bytes(total[k], t->cell[rows][k + 1], sizeof t->cell[rows][k + 1]);
	snprintf(t->note[t->n_note++], sizeof t->note[0],
		 "the model's figures, batch mode's (-b -m %s): each mode's peak held over its "
		 "forward (rank 0's includes the gathered C) and its bytes sent; \"peak now\": this "
		 "run's peak so far at this stop, which at the end is the %s column's",
		 plan_mode_name(v->cfg.mode), plan_mode_name(v->cfg.mode));
	snprintf(t->note[t->n_note++], sizeof t->note[0],
		 "what moves: DP none of B (each rank has a copy), FSDP B's shards round the ring, "
		 "tp-col all of A out from rank 0, tp-row the M x N partials summed by the ring");
	snprintf(t->note[t->n_note++], sizeof t->note[0],
		 "tp-row's %s sends %s a rank when n divides M (8MN = %zu B); the weights (B) never "
		 "move in tensor parallel",
		 tp_rs(v) ? "reduce-scatter" : "all-reduce",
		 tp_rs(v) ? "(n-1)/n x 8MN" : "2(n-1)/n x 8MN", 8 * v->a->rows * v->b->cols);
	return 1;
}
