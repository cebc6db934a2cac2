/* train_blocks: what a training step's panels hold at the backward's stops
 * (see train_int.h), in the three places the forward gives C, A's rows and
 * the B shard, so that v cycles them the same way:
 *   backward (and its transfer): dA's rows being summed, dC_r (the
 *     columns of the shard held), the shard of B held (DP: all of B);
 *   partial: the K x N partial dB_r, A_r, dC_r;
 *   a reduce-scatter (or all-gather) step: the chunk it received (and
 *     added into, or stored), the chunk it sent, its dB in place;
 *   gather and verification: dB (rank 0's gathered, a rank's chunk), dA's
 *     rows, C's rows, the verification's '!' where they differ.
 * Every running sum is named by whose partials it holds (train_parts),
 * worked out by the engine's rules with the run's bug, and the chunks
 * shown moving are the engine's (db_sent, db_recv): with a bug what the
 * run did.  Values are the snapshot's (the view's copy) or the inputs. */
#include "train_int.h"

#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/plan.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

enum dm_bug tblock_bug(const struct view *v)
{
	enum dm_bug bug = v->plan ? plan_bug(v->plan) : BUG_NONE;
	return v->plan && bug_applies(bug, v->plan) ? bug : BUG_NONE;
}

void tblock_shown(const struct view *v, struct train_state *t)
{
	int n = v->snap.n, last = n - 1, dp = v->snap.mode == DM_DP;
	int rs = 0, ag = 0, rs0 = 0, ag0 = 0; /* steps done at the stop, and before it */
	enum dm_bug bug = tblock_bug(v);
	switch (v->kind) {
	case SCHED_REDUCE_SCATTER:
		rs = v->step + 1;
		rs0 = v->step;
		break;
	case SCHED_ALL_GATHER:
		rs = rs0 = last;
		ag = v->step + 1;
		ag0 = v->step;
		break;
	case SCHED_GATHER:
	case VIEW_VERIFY:
		rs = rs0 = last;
		ag = ag0 = dp ? last : 0;
		break;
	}
	t->parts_ok = !tparts_after(n, bug, rs, ag, t->parts) &&
		      !tparts_after(n, bug, rs0, ag0, t->before);
}

#define TB_SUM 48 /* a sum's words, at most: longer ones are said as a count */

/* Whose parts chunk c of rank r holds at the stop (or before it), in
 * words; the count when the sets are not known (n > TPARTS_MAX) or their
 * words are too long to read in a panel. */
static void tb_sum(const struct view *v, const struct train_state *t, int r, int c, int before,
		   char buf[TB_SUM])
{
	int n = v->snap.n;
	tparts_set set = t->parts_ok && r >= 0 && c >= 0 ? (before ? t->before : t->parts)[r * n + c]
							  : 0;
	char words[4 * TPARTS_MAX];
	if (c >= 0 && split_size(v->snap.N, n, c) == 0) {
		snprintf(buf, TB_SUM, "empty"); /* no columns: nothing to sum */
		return;
	}
	tparts_words(set, words, sizeof words);
	if (set && strlen(words) < TB_SUM)
		snprintf(buf, TB_SUM, "%s", words);
	else
		snprintf(buf, TB_SUM, "%d of %d parts", set ? tparts_count(set)
							: view_train_chunk_fill(v, r, c),
			 n);
}

static void tb_put(struct view_block *b, const char *name, const double *data, size_t ld,
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

static void tb_hot(struct view_block *b, size_t c0, size_t c1, int shard)
{
	b->hot0 = c0;
	b->hot1 = c1;
	b->want0 = c0;
	b->want1 = c1;
	b->hot_shard = shard;
}

/* The elements of b that differ from its reference (numpy's allclose rule). */
static size_t tb_wrong(const struct view_block *b)
{
	size_t bad = 0;
	for (size_t i = 0; b->data && b->ref && i < b->rows; i++)
		for (size_t j = 0; j < b->cols; j++)
			bad += !mat_close(b->data[i * b->ld + j], b->ref[i * b->ref_ld + j]);
	return bad;
}

/* "dA[2:4, :]", "dB[:, 1:2]" */
static void tb_rows(const char *m, size_t r0, size_t r1, char *buf, size_t size)
{
	snprintf(buf, size, "%s[%zu:%zu, :]", m, r0, r1);
}

static void tb_cols(size_t N, int n, int c, char *buf, size_t size)
{
	snprintf(buf, size, "dB[:, %zu:%zu]", split_offset(N, n, c), split_offset(N, n, c + 1));
}

/* The backward's compute and its transfer: dA, dC_r, the B it uses. */
static void tb_backward(const struct view *v, const struct train_state *t, int r, int slot,
			struct view_block *b)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	int n = s->n, fsdp = s->mode == DM_FSDP, k = fsdp ? d->shard : -1;
	int computed = v->kind == SCHED_BWD_COMPUTE;
	size_t K = s->K, N = s->N, r0 = d->row_begin, r1 = d->row_end;
	size_t c0 = k >= 0 ? split_offset(N, n, k) : 0, c1 = k >= 0 ? split_offset(N, n, k + 1) : N;
	const double *dc = v->cfg.dc ? v->cfg.dc->data : NULL;
	char what[48];
	if (slot == 0) {
		tb_put(b, "dA", s->da ? s->da + r0 * K : NULL, K, r1 - r0, K, &t->fda, -1);
		tb_rows("dA", r0, r1, what, sizeof what);
		if (fsdp) {
			snprintf(b->label, sizeof b->label, "%s, %d of %d shards summed", what, d->da_parts,
				 n);
			snprintf(b->brief, sizeof b->brief, "dA %d/%d", d->da_parts, n);
		} else {
			snprintf(b->label, sizeof b->label, "%s = dC[%zu:%zu] @ B^T", what, r0, r1);
			snprintf(b->brief, sizeof b->brief, "dA rows");
		}
		if (computed)
			tb_hot(b, 0, K, k);
	} else if (slot == 1) {
		tb_put(b, "dC", dc ? dc + r0 * N : NULL, N, r1 - r0, N, &t->fdc, -1);
		tb_rows("dC", r0, r1, what, sizeof what);
		if (k >= 0) {
			snprintf(b->label, sizeof b->label, "%s, its columns %zu:%zu with B[%d]", what, c0,
				 c1, k);
			tb_hot(b, c0, c1, k);
			if (!computed)
				b->hot0 = b->hot1 = 0; /* kept in view, not written */
		} else {
			snprintf(b->label, sizeof b->label, "%s", what);
		}
		snprintf(b->brief, sizeof b->brief, "dC rows");
	} else if (fsdp && k < 0) {
		tb_put(b, "B", NULL, N, K, 0, &v->fb, -1);
		snprintf(b->label, sizeof b->label, "B: no shard held (in flight)");
		snprintf(b->brief, sizeof b->brief, "B: none");
	} else {
		tb_put(b, "B", v->b->data + c0, N, K, c1 - c0, &v->fb, k);
		if (fsdp)
			snprintf(b->label, sizeof b->label, "B[:, %zu:%zu] = shard B[%d]", c0, c1, k);
		else
			snprintf(b->label, sizeof b->label, "B (its own copy, all of it)");
		snprintf(b->brief, sizeof b->brief, fsdp ? "B[%d]" : "all of B", k);
	}
}

/* The partial: dB_r = A_r^T @ dC_r, from A_r and dC_r. */
static void tb_partial(const struct view *v, const struct train_state *t, int r, int slot,
		       struct view_block *b)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	size_t K = s->K, N = s->N, r0 = d->row_begin, r1 = d->row_end;
	const double *dc = v->cfg.dc ? v->cfg.dc->data : NULL;
	char what[48];
	if (slot == 0) {
		tb_put(b, "dB", s->db ? s->db + (size_t)r * K * N : NULL, N, K, N, &t->fdb, -1);
		snprintf(b->label, sizeof b->label, "partial dB_%d = p%d, %zux%zu (its largest buffer)", r,
			 r, K, N);
		snprintf(b->brief, sizeof b->brief, "dB_%d = p%d", r, r);
		tb_hot(b, 0, N, -1);
	} else if (slot == 1) {
		tb_put(b, "A", v->a->data + r0 * K, K, r1 - r0, K, &v->fa, -1);
		tb_rows("A", r0, r1, what, sizeof what);
		snprintf(b->label, sizeof b->label, "%s, A_%d (the product takes A_%d^T)", what, r, r);
		snprintf(b->brief, sizeof b->brief, "A rows");
	} else {
		tb_put(b, "dC", dc ? dc + r0 * N : NULL, N, r1 - r0, N, &t->fdc, -1);
		tb_rows("dC", r0, r1, what, sizeof what);
		snprintf(b->label, sizeof b->label, "%s, dC_%d", what, r);
		snprintf(b->brief, sizeof b->brief, "dC rows");
	}
}

/* "dB_1 in place: chunks 0=p1 1=p1 2=p0+p1+p3 3=p0+p1", or every chunk alike. */
static void tb_in_place(const struct view *v, const struct train_state *t, int r, char *buf,
			size_t size)
{
	int n = v->snap.n, same = t->parts_ok;
	char sum[TB_SUM];
	size_t len;
	for (int c = 1; same && c < n; c++)
		same = t->parts[r * n + c] == t->parts[r * n];
	tb_sum(v, t, r, 0, 0, sum);
	if (same) {
		snprintf(buf, size, "dB_%d in place: every chunk %s", r, sum);
		return;
	}
	len = (size_t)snprintf(buf, size, "dB_%d in place: chunks", r);
	for (int c = 0; c < n && len < size; c++) {
		tb_sum(v, t, r, c, 0, sum);
		len += (size_t)snprintf(buf + len, size - len, " %d=%s", c, sum);
	}
}

/* A ring step over dB (the reduce-scatter, DP's all-gather): the chunk
 * that came, the one sent, dB in place.  FSDP's last reduce-scatter step
 * keeps the rank's own chunk and lets the partial go: what it let go has
 * no values left to show. */
static void tb_ring(const struct view *v, const struct train_state *t, int r, int slot,
		    struct view_block *b)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	int n = s->n, rs = v->kind == SCHED_REDUCE_SCATTER;
	int kept = s->mode == DM_FSDP && d->db_chunk >= 0;
	size_t K = s->K, N = s->N;
	const double *g = s->db ? s->db + (size_t)r * K * N : NULL;
	char where[32], came[TB_SUM], own[TB_SUM], now[TB_SUM];
	int c = slot == 0 ? d->db_recv : slot == 1 ? d->db_sent : kept ? r : -1;
	size_t c0 = c >= 0 ? split_offset(N, n, c) : 0, w = c >= 0 ? split_size(N, n, c) : N;
	if (slot < 2 && c < 0) {
		tb_put(b, "dB", NULL, N, K, 0, &t->fdb, -1);
		snprintf(b->label, sizeof b->label, slot ? "dB: no chunk sent" : "dB: no chunk came");
		snprintf(b->brief, sizeof b->brief, "dB: none");
		return;
	}
	tb_cols(N, n, c < 0 ? 0 : c, where, sizeof where);
	if (view_hides(v, r)) {
		/* a question is open: which chunk moves is its answer (and the
		 * chunk that came is the next one sent), so no index, no sum:
		 * the values alone, as the forward shows C's */
		tb_put(b, "dB", g && (slot == 2 || !kept) ? g + (slot < 2 ? c0 : 0) : NULL, N, K,
		       slot < 2 ? w : N, &t->fdb, -1);
		if (slot == 2)
			snprintf(b->label, sizeof b->label, "dB_%d in place", r);
		else
			snprintf(b->label, sizeof b->label, slot ? "sent dB[:, ?] -> rank %d"
								 : "dB[:, ?] from rank %d",
				 slot ? d->sent_to : d->recv_from);
		snprintf(b->brief, sizeof b->brief, slot == 2 ? "dB in place" : "dB[?]");
		return;
	}
	if (slot < 2 && w == 0) { /* N < n: a chunk with no columns still makes its hop */
		tb_put(b, "dB", NULL, N, K, 0, &t->fdb, c);
		snprintf(b->label, sizeof b->label, slot ? "sent %s -> rank %d: an empty chunk"
							 : "%s from rank %d: an empty chunk",
			 where, slot ? d->sent_to : d->recv_from);
		snprintf(b->brief, sizeof b->brief, "dB[%d]: empty", c);
		return;
	}
	if (slot == 0) {
		tb_put(b, "dB", g && (!kept || c == r) ? g + c0 : NULL, N, K, w, &t->fdb, c);
		tb_hot(b, 0, w, c);
		tb_sum(v, t, sched_left(n, r), c, 1, came);
		tb_sum(v, t, r, c, 1, own);
		tb_sum(v, t, r, c, 0, now);
		if (!rs)
			snprintf(b->label, sizeof b->label, "%s = %s from rank %d, stored", where, came,
				 d->recv_from);
		else if (d->db_added == 1)
			snprintf(b->label, sizeof b->label, "%s = %s from rank %d + its %s = %s", where,
				 came, d->recv_from, own, now);
		else
			snprintf(b->label, sizeof b->label, "%s = %s from rank %d, stored over its %s",
				 where, came, d->recv_from, own);
		if (!b->data) {
			size_t len = strlen(b->label);
			snprintf(b->label + len, sizeof b->label - len, " (let go: it keeps chunk %d)", r);
		}
		snprintf(b->brief, sizeof b->brief, b->data ? "dB[%d] = %s" : "dB[%d] = %s, let go", c,
			 now);
	} else if (slot == 1) {
		tb_put(b, "dB", g && !kept ? g + c0 : NULL, N, K, w, &t->fdb, c);
		tb_sum(v, t, r, c, 1, came);
		snprintf(b->label, sizeof b->label, "sent %s = %s -> rank %d%s", where, came, d->sent_to,
			 b->data ? "" : " (let go)");
		snprintf(b->brief, sizeof b->brief, "sent dB[%d] = %s", c, came);
	} else if (kept) {
		tb_put(b, "dB", g ? g + c0 : NULL, N, K, w, &t->fdb, r);
		tb_sum(v, t, r, r, 0, now);
		snprintf(b->label, sizeof b->label, "kept %s = %s, its shard of dB (the partial let go)",
			 where, now);
		snprintf(b->brief, sizeof b->brief, "kept dB[%d] = %s", r, now);
	} else {
		tb_put(b, "dB", g, N, K, N, &t->fdb, -1);
		if (d->db_recv >= 0)
			tb_hot(b, split_offset(N, n, d->db_recv), split_offset(N, n, d->db_recv + 1),
			       d->db_recv);
		tb_in_place(v, t, r, b->label, sizeof b->label);
		snprintf(b->brief, sizeof b->brief, "dB_%d in place", r);
	}
}

/* A block held to its reference at the verification: the label says how
 * many of its elements differ (the '!' marks), else that it is right. */
static void tb_checked(struct view_block *b, const double *ref, size_t ref_ld, const char *what)
{
	size_t len = strlen(b->label), bad;
	b->ref = ref;
	b->ref_ld = ref_ld;
	bad = tb_wrong(b);
	if (bad)
		snprintf(b->label + len, sizeof b->label - len, ": %zu of %zu differ from %s (!)", bad,
			 b->rows * b->cols, what);
	else
		snprintf(b->label + len, sizeof b->label - len, ": allclose ok");
	snprintf(b->brief, sizeof b->brief, bad ? "%s: %zu of %zu differ (!)" : "%s: ok", b->name, bad,
		 b->rows * b->cols);
}

/* Rank r's rows of dA or C (m, cols wide) at the end, sent to rank 0 (or
 * placed there), held to ref at the verification (NULL: not yet). */
static void tb_end_rows(struct view_block *b, int r, const struct run_dev_view *d,
			const char *name, const double *m, size_t cols, const struct view_format *fmt,
			const double *ref, const char *what)
{
	char rows[48];
	tb_put(b, name, m ? m + d->row_begin * cols : NULL, cols, d->row_end - d->row_begin, cols, fmt,
	       -1);
	tb_rows(name, d->row_begin, d->row_end, rows, sizeof rows);
	snprintf(b->label, sizeof b->label, "%s%s", rows, r == 0 ? "" : " -> rank 0");
	snprintf(b->brief, sizeof b->brief, "%s rows", name);
	if (ref)
		tb_checked(b, ref + d->row_begin * cols, cols, what);
}

/* The gather and the verification: dB, dA's rows, C's rows. */
static void tb_end(const struct view *v, const struct train_state *t, int r, int slot,
		   struct view_block *b)
{
	const struct run_snapshot *s = &v->snap;
	const struct run_dev_view *d = &s->dev[r];
	int n = s->n, verify = v->kind == VIEW_VERIFY, whole = s->mode == DM_DP || r == 0 || n == 1;
	size_t K = s->K, N = s->N;
	size_t c0 = whole ? 0 : split_offset(N, n, r), w = whole ? N : split_size(N, n, r);
	char sum[TB_SUM];
	if (slot == 0) {
		/* DP: every rank's all-reduced dB; FSDP: rank 0's gathered, or the
		 * chunk a rank sent there (its values as rank 0 placed them) */
		const double *src = s->mode == DM_DP ? (s->db ? s->db + (size_t)r * K * N : NULL)
						     : s->db_result;
		tb_put(b, "dB", src ? src + c0 : NULL, N, K, w, &t->fdb, whole ? -1 : r);
		tb_sum(v, t, r, r, 0, sum);
		if (whole)
			snprintf(b->label, sizeof b->label, "dB on rank %d%s", r,
				 s->mode == DM_DP ? ", all-reduced" : n > 1 ? ", gathered" : "");
		else
			snprintf(b->label, sizeof b->label, "dB[:, %zu:%zu] = %s, sent to rank 0", c0,
				 c0 + w, sum);
		snprintf(b->brief, sizeof b->brief, whole ? "all of dB" : "dB[%d] -> 0", r);
		if (verify && t->ref_db.data)
			tb_checked(b, t->ref_db.data + c0, N, "A^T @ dC");
	} else if (slot == 1) {
		tb_end_rows(b, r, d, "dA", s->da, K, &t->fda, verify ? t->ref_da.data : NULL, "dC @ B^T");
	} else {
		tb_end_rows(b, r, d, "C", s->c, N, &v->fc, verify ? v->ref.data : NULL, "A @ B");
	}
}

static size_t tb_max(size_t a, size_t b)
{
	return a > b ? a : b;
}

/* The largest a place holds over the run, for the layout: its rows and
 * columns on any rank, the widest format of what it shows (fwide). */
static int tb_largest(const struct view *v, const struct train_state *t, int slot,
		      struct view_block *b)
{
	int n = v->cfg.devices;
	size_t K = v->a->cols, N = v->b->cols, m = split_max(v->a->rows, n);
	tb_put(b, "", NULL, 0, tb_max(m, K), tb_max(K, N), &t->fwide[slot], -1);
	return 1;
}

void tblock_formats(const struct view *v, struct train_state *t)
{
	/* what each place shows at some stop: dA, dB, C; A, dC, dA, dB; B, dC, dB, C */
	const struct view_format *f[3][4] = { { &t->fda, &t->fdb, &v->fc, &v->fc },
					      { &v->fa, &t->fdc, &t->fda, &t->fdb },
					      { &v->fb, &t->fdc, &t->fdb, &v->fc } };
	for (int slot = 0; slot < 3; slot++) {
		struct view_format *w = &t->fwide[slot];
		memset(w, 0, sizeof *w);
		for (int i = 0; i < 4; i++) {
			w->min_w = f[slot][i]->min_w > w->min_w ? f[slot][i]->min_w : w->min_w;
			w->ideal_w = f[slot][i]->ideal_w > w->ideal_w ? f[slot][i]->ideal_w : w->ideal_w;
		}
	}
}

int tblock_block(const struct view *v, const void *data, int r, int slot, struct view_block *b)
{
	const struct train_state *t = data;
	if (slot < 0 || slot > 2 || !v->snap.dev)
		return 0;
	if (r < 0)
		return tb_largest(v, t, slot, b);
	if (r >= v->snap.n || v->failed || !t->ref_da.data)
		return 0;
	switch (v->kind) {
	case SCHED_BWD_COMPUTE:
	case SCHED_BWD_TRANSFER:
		tb_backward(v, t, r, slot, b);
		return 1;
	case SCHED_DB_PARTIAL:
		tb_partial(v, t, r, slot, b);
		return 1;
	case SCHED_REDUCE_SCATTER:
	case SCHED_ALL_GATHER:
		tb_ring(v, t, r, slot, b);
		return 1;
	case SCHED_GATHER:
	case VIEW_VERIFY:
		tb_end(v, t, r, slot, b);
		return 1;
	}
	return 0;
}

int tblock_result(const struct view *v, const void *data, int i, struct view_block *b)
{
	const struct train_state *t = data;
	const struct run_snapshot *s = &v->snap;
	static const char *const title[3] = { "dB = A^T @ dC", "dA = dC @ B^T", "C = A @ B" };
	if (!v->finished || i < 0 || i > 2 || !t->ref_da.data || !s->da || !s->db_result)
		return 0;
	if (i == 0)
		tb_put(b, "dB", s->db_result, s->N, s->K, s->N, &t->fdb, -1);
	else if (i == 1)
		tb_put(b, "dA", s->da, s->K, s->M, s->K, &t->fda, -1);
	else
		tb_put(b, "C", s->c, s->N, s->M, s->N, &v->fc, -1);
	b->ref = i == 0 ? t->ref_db.data : i == 1 ? t->ref_da.data : v->ref.data;
	b->ref_ld = b->ld;
	size_t bad = tb_wrong(b);
	if (bad)
		snprintf(b->label, sizeof b->label, "%s on rank 0: MISMATCH, %zu of %zu differ", title[i],
			 bad, b->rows * b->cols);
	else
		snprintf(b->label, sizeof b->label, "%s on rank 0: verified", title[i]);
	snprintf(b->brief, sizeof b->brief, "%s%s", b->name, bad ? ": MISMATCH" : ": verified");
	return 1;
}

/* The first of the forms that fits in width (the last one whatever). */
static void tb_fit(char *buf, size_t size, int width, const char *const *forms, int n)
{
	for (int i = 0; i < n; i++) {
		snprintf(buf, size, "%s", forms[i]);
		if ((int)strlen(buf) <= width)
			return;
	}
}

/* A ring step's line: the chunk that came and its sum now, the one sent. */
static void tb_ring_line(const struct view *v, const struct train_state *t, int r, int width,
			 char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n, in = d->db_recv, out = d->db_sent, kept = v->snap.mode == DM_FSDP &&
									d->db_chunk >= 0;
	char now[TB_SUM], sent[TB_SUM], f[5][160];
	if (kept) {
		int fill = view_train_chunk_fill(v, r, r);
		tb_sum(v, t, r, r, 0, now);
		snprintf(f[0], sizeof f[0], fill < 0 ? "kept dB[%d], an empty chunk"
						     : "kept dB[%d] = %s, %d of %d parts",
			 r, now, fill, n);
		snprintf(f[1], sizeof f[1], "kept dB[%d] = %s", r, now);
		snprintf(f[2], sizeof f[2], "kept dB%d=%s", r, now);
		snprintf(f[3], sizeof f[3], "kept dB%d", r);
		tb_fit(buf, size, width, (const char *const[]){ f[0], f[1], f[2], f[3] }, 4);
		return;
	}
	if (in < 0 || out < 0) {
		snprintf(buf, size, "no chunk moved");
		return;
	}
	if (d->db_chunk == -2) { /* DP's all-reduce done: every chunk on every rank */
		tb_sum(v, t, r, in, 0, now);
		snprintf(f[0], sizeof f[0], "holds all of dB, every chunk %s", now);
		snprintf(f[1], sizeof f[1], "all of dB = %s", now);
		snprintf(f[2], sizeof f[2], "dB=%s", now);
		tb_fit(buf, size, width, (const char *const[]){ f[0], f[1], f[2] }, 3);
		return;
	}
	tb_sum(v, t, r, in, 0, now);
	tb_sum(v, t, r, out, 1, sent);
	int fill = view_train_chunk_fill(v, r, in);
	if (fill < 0) { /* an empty chunk: what moved, nothing summed */
		snprintf(f[0], sizeof f[0], "dB[%d] is empty; sent dB[%d] = %s", in, out, sent);
		snprintf(f[1], sizeof f[1], "dB[%d] is empty", in);
		snprintf(f[2], sizeof f[2], "dB%d empty", in);
		snprintf(f[3], sizeof f[3], "dB%d -", in); /* '-': no columns */
		tb_fit(buf, size, width, (const char *const[]){ f[0], f[1], f[2], f[3] }, 4);
		return;
	}
	snprintf(f[0], sizeof f[0], "dB[%d] = %s, %d of %d; sent dB[%d] = %s", in, now, fill, n,
		 out, sent);
	snprintf(f[1], sizeof f[1], "dB[%d] = %s; sent dB[%d] = %s", in, now, out, sent);
	snprintf(f[2], sizeof f[2], "dB[%d] = %s, %d of %d", in, now, fill, n);
	snprintf(f[3], sizeof f[3], "dB%d=%s", in, now);
	snprintf(f[4], sizeof f[4], "dB%d %d/%d", in, fill, n);
	tb_fit(buf, size, width, (const char *const[]){ f[0], f[1], f[2], f[3], f[4] }, 5);
}

int tblock_panel_line(const struct view *v, const void *data, int r, int width, char *buf,
		      size_t size)
{
	const struct train_state *t = data;
	const struct run_dev_view *d = &v->snap.dev[r];
	const struct run_snapshot *s = &v->snap;
	int n = s->n, fsdp = s->mode == DM_FSDP;
	char f[4][sizeof ((struct view_block *)0)->label];
	buf[0] = '\0';
	if (v->stop < 0 || v->failed)
		return 1;
	switch (v->kind) {
	case SCHED_COMPUTE:
	case SCHED_TRANSFER:
		snprintf(f[0], sizeof f[0], "dC[%zu:%zu] waits for the backward", d->row_begin,
			 d->row_end);
		snprintf(f[1], sizeof f[1], "dC waits");
		tb_fit(buf, size, width, (const char *const[]){ f[0], f[1] }, 2);
		break;
	case SCHED_BWD_COMPUTE:
	case SCHED_BWD_TRANSFER:
		snprintf(f[0], sizeof f[0], "dA[%zu:%zu, :] %d/%d shards summed", d->row_begin,
			 d->row_end, d->da_parts, n);
		snprintf(f[1], sizeof f[1], "dA %d/%d", d->da_parts, n);
		tb_fit(buf, size, width, (const char *const[]){ f[0], f[1] }, 2);
		break;
	case SCHED_DB_PARTIAL:
		snprintf(f[0], sizeof f[0], "partial dB_%d = p%d: 1 of %d parts in every chunk", r, r, n);
		snprintf(f[1], sizeof f[1], "partial dB_%d = p%d, 1/%d", r, r, n);
		snprintf(f[2], sizeof f[2], "dB_%d = p%d", r, r);
		tb_fit(buf, size, width, (const char *const[]){ f[0], f[1], f[2] }, 3);
		break;
	case SCHED_REDUCE_SCATTER:
	case SCHED_ALL_GATHER:
		tb_ring_line(v, t, r, width, buf, size);
		break;
	case SCHED_GATHER:
	case VIEW_VERIFY:
		if (v->kind == VIEW_VERIFY && t->bad) {
			/* the verification's count of this rank's dB, as its block marks it */
			struct view_block b;
			tb_end(v, t, r, 0, &b);
			if (b.ref && tb_wrong(&b)) {
				snprintf(f[0], sizeof f[0], "%s", b.label);
				snprintf(f[1], sizeof f[1], "%s", b.brief);
				snprintf(f[2], sizeof f[2], "dB: %zu wrong", tb_wrong(&b));
				tb_fit(buf, size, width, (const char *const[]){ f[0], f[1], f[2] }, 3);
				break;
			}
		}
		if (r == 0)
			snprintf(f[0], sizeof f[0], "holds C, dA, dB gathered");
		else if (fsdp)
			snprintf(f[0], sizeof f[0], "sent its dB[%d], dA and C rows to 0", r);
		else
			snprintf(f[0], sizeof f[0], "sent its dA and C rows to 0");
		snprintf(f[1], sizeof f[1], r == 0 ? "holds all" : "sent to 0");
		tb_fit(buf, size, width, (const char *const[]){ f[0], f[1] }, 2);
		break;
	}
	return 1;
}
