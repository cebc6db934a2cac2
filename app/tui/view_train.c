/* view_train: the training step in the interface (see view.h): the
 * references dA = dC @ B^T and dB = A^T @ dC and their verification, and the
 * backward's words: captions with the ring's index formulas worked out for
 * real ranks, each rank's formula, and the line a panel gives dA and dB.
 * Kept apart from view_words.c, the forward's words, which it leaves alone:
 * the forward of a training step reads as the forward alone does.  The
 * chunk indices said are the schedule's (sched_rs_*), the ones shown moving
 * are the engine's (db_sent, db_recv): with a bug they differ, and that is
 * the lesson. */
#include "view.h"

#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

int view_train_refs(struct view *v, struct dm_err *err)
{
	int rc;
	if (!v->cfg.train || v->ref_da.data)
		return 0;
	if (!v->cfg.dc)
		return dm_err_set(err, DM_EINVAL, "the training step needs dC");
	if ((rc = mat_matmul_nt(&v->ref_da, v->cfg.dc, v->b, err)))
		return rc;
	if ((rc = mat_matmul_tn(&v->ref_db, v->a, v->cfg.dc, err)))
		mat_free(&v->ref_da);
	return rc;
}

void view_train_verify(struct view *v, const struct mat *da, const struct mat *db)
{
	size_t bad, nan;
	v->train_bad = v->verdict == VIEW_MISMATCH ? VIEW_BAD_C : 0;
	if (!da || !mat_allclose(da, &v->ref_da, &v->max_err_da, &bad, &nan))
		v->train_bad |= VIEW_BAD_DA;
	if (!db || !mat_allclose(db, &v->ref_db, &v->max_err_db, &bad, &nan))
		v->train_bad |= VIEW_BAD_DB;
	if (v->train_bad)
		v->verdict = VIEW_MISMATCH;
}

int view_train_backward(const struct view *v)
{
	return v->cfg.train && v->kind >= SCHED_BWD_COMPUTE && v->kind < SCHED_KIND_COUNT;
}

/* "(1-0-1) mod 4 = 0". */
static void vt_index(int r, int s, int off, int n, int k, char *buf, size_t size)
{
	if (off)
		snprintf(buf, size, "(%d-%d-%d) mod %d = %d", r, s, off, n, k);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d", r, s, n, k);
}

/* The reduce-scatter's and the all-gather's step, rank 1's (or 0's) numbers. */
static void vt_ring_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n, s = v->step, r = n > 1 ? 1 : 0;
	char snd[48], rcv[48];
	if (v->kind == SCHED_REDUCE_SCATTER) {
		vt_index(r, s, 1, n, sched_rs_send_chunk(n, r, s), snd, sizeof snd);
		vt_index(r, s, 2, n, sched_rs_recv_chunk(n, r, s), rcv, sizeof rcv);
		int last = s == n - 2;
		snprintf(buf, size, "%sreduce-scatter step s=%d (%d of %d): rank r sends the running sum "
				    "of dB's chunk (r - %d - 1) mod %d to r + 1 and adds its own part "
				    "into chunk (r - %d - 2) mod %d it receives. Rank %d: sends %s, adds "
				    "into %s.%s",
			 v->snap.mode == DM_DP ? "DP's all-reduce, first half: " : "", s, s + 1, n - 1,
			 s, n, s, n, r, snd, rcv,
			 last ? " The last step: each rank receives its own chunk r, summed over every "
				"rank."
			      : " Each chunk gains one part a hop.");
	} else {
		vt_index(r, s, 0, n, sched_ag_send_chunk(n, r, s), snd, sizeof snd);
		vt_index(r, s, 1, n, sched_ag_recv_chunk(n, r, s), rcv, sizeof rcv);
		snprintf(buf, size, "DP's all-reduce, second half: all-gather step s=%d (%d of %d): rank "
				    "r sends its summed chunk (r - %d) mod %d to r + 1 and stores the "
				    "chunk (r - %d - 1) mod %d it receives. Rank %d: sends %s, stores %s.",
			 s, s + 1, n - 1, s, n, s, n, r, snd, rcv);
	}
}

int view_train_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n, t = v->step, fsdp = v->snap.mode == DM_FSDP;
	if (!v->cfg.train || v->failed)
		return 0;
	switch (v->kind) {
	case VIEW_READY:
		snprintf(buf, size, "Ready, a training step: the forward C = A @ B, then the backward dA "
				    "= dC @ B^T and dB = A^T @ dC (dB summed over every rank's rows%s). "
				    "Press n.",
			 fsdp ? ", reduce-scattered" : ", all-reduced");
		return 1;
	case SCHED_BWD_COMPUTE:
		if (!fsdp)
			snprintf(buf, size, "backward: each rank computes its rows of dA = dC_r @ B^T from "
					    "its own copy of B, at once: no message.");
		else if (t == 0 && n > 1)
			snprintf(buf, size, "backward step t=0: the forward let each gathered shard go (held "
					    "bytes dropped): rank r holds only its own B[r] and adds "
					    "dC_r[:, shard's columns] @ B[r]^T into its rows of dA.");
		else
			snprintf(buf, size, "backward step t=%d (%d of %d): rank r holds shard (r - %d) mod "
					    "%d (the second all-gather) and adds dC_r[:, its columns] @ "
					    "B_shard^T into its rows of dA.",
				 t, t + 1, n, t, n);
		return 1;
	case SCHED_BWD_TRANSFER:
		snprintf(buf, size, "backward transfer after t=%d: the second all-gather of B, the "
				    "forward's ring again: each rank passes its shard to (r + 1) mod %d "
				    "(held bytes rise again).",
			 t, n);
		return 1;
	case SCHED_DB_PARTIAL:
		snprintf(buf, size, "partial dB: each rank computes dB_r = A_r^T @ dC_r, a whole %zux%zu "
				    "matrix (its largest buffer); dB is the sum of the %d partials%s.",
			 v->snap.K, v->snap.N, n,
			 n == 1 ? ": one device, dB at once" : fsdp ? ", reduce-scattered next"
								    : ", all-reduced next");
		return 1;
	case SCHED_REDUCE_SCATTER:
	case SCHED_ALL_GATHER:
		vt_ring_caption(v, buf, size);
		return 1;
	case SCHED_GATHER:
		snprintf(buf, size, "gather: ranks send their rows of C and dA%s to rank 0 for the "
				    "files. Next: the verification of C, dA and dB.",
			 fsdp ? " and their summed chunk of dB" : "");
		return 1;
	}
	return 0;
}

void view_train_verify_line(const struct view *v, char *buf, size_t size)
{
	if (!v->train_bad) {
		snprintf(buf, size, "verify: allclose ok for C = A @ B, dA = dC @ B^T (max |err| %.3g) "
				    "and dB = A^T @ dC (max |err| %.3g), on rank 0",
			 v->max_err_da, v->max_err_db);
		return;
	}
	snprintf(buf, size, "verify: MISMATCH in%s%s%s (against the sequential products)",
		 v->train_bad & VIEW_BAD_C ? " C" : "", v->train_bad & VIEW_BAD_DA ? " dA" : "",
		 v->train_bad & VIEW_BAD_DB ? " dB" : "");
}

/* A ring step of dB on rank r: the schedule's formula when the run has no
 * bug, else what the engine moved. */
static void vt_ring_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n, s = v->step, rs = v->kind == SCHED_REDUCE_SCATTER;
	const char *add = !rs ? "stores" : d->db_added == 1 ? "adds into" : "stores";
	char snd[48], rcv[48];
	if (view_hides(v, r)) {
		snprintf(buf, size, shortform ? "dB? -> %d" : "sends dB[?] -> rank %d, %s dB[?]",
			 d->sent_to, add);
		return;
	}
	if (d->db_sent < 0) {
		snprintf(buf, size, "no chunk moved");
		return;
	}
	if (shortform) {
		snprintf(buf, size, "dB%d -> %d, %s%d", d->db_sent, d->sent_to, rs ? "+" : "=",
			 d->db_recv);
		return;
	}
	if (v->cfg.bug != BUG_NONE) {
		snprintf(buf, size, "sends dB[%d] -> rank %d, %s dB[%d] <- rank %d", d->db_sent,
			 d->sent_to, add, d->db_recv, d->recv_from);
		return;
	}
	vt_index(r, s, rs ? 1 : 0, n, d->db_sent, snd, sizeof snd);
	vt_index(r, s, rs ? 2 : 1, n, d->db_recv, rcv, sizeof rcv);
	snprintf(buf, size, "send %s -> %d, %s %s", snd, d->sent_to, rs ? "add into" : "store", rcv);
}

int view_train_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n, t = v->step;
	size_t r0 = d->row_begin, r1 = d->row_end;
	if (!view_train_backward(v))
		return 0;
	switch (v->kind) {
	case SCHED_BWD_COMPUTE:
		if (v->snap.mode == DM_DP || d->shard < 0) {
			snprintf(buf, size, shortform ? "dA = dC_r @ B^T" : "dA[%zu:%zu] = dC[%zu:%zu] @ B^T",
				 r0, r1, r0, r1);
		} else {
			size_t c0 = split_offset(v->snap.N, n, d->shard);
			size_t c1 = split_offset(v->snap.N, n, d->shard + 1);
			if (shortform)
				snprintf(buf, size, "(%d-%d) mod %d = %d", r, t, n, d->shard);
			else
				snprintf(buf, size, "(%d-%d) mod %d = %d -> dA[%zu:%zu] += dC[:, %zu:%zu] @ "
						    "B%d^T",
					 r, t, n, d->shard, r0, r1, c0, c1, d->shard);
		}
		return 1;
	case SCHED_BWD_TRANSFER:
		if (d->sent_shard < 0)
			snprintf(buf, size, "no shard moved");
		else
			snprintf(buf, size, shortform ? "B%d -> %d" : "B[%d] -> rank %d, B[%d] <- rank %d",
				 d->sent_shard, d->sent_to, d->recv_shard, d->recv_from);
		return 1;
	case SCHED_DB_PARTIAL:
		snprintf(buf, size, shortform ? "dB_%d = A_r^T @ dC_r" : "dB_%d = A[%zu:%zu]^T @ dC[%zu:%zu]",
			 r, r0, r1, r0, r1);
		return 1;
	case SCHED_REDUCE_SCATTER:
	case SCHED_ALL_GATHER:
		vt_ring_formula(v, r, shortform, buf, size);
		return 1;
	}
	return 0;
}

int view_train_chunk_fill(const struct view *v, int r, int c)
{
	const struct run_snapshot *s = &v->snap;
	if (!s->db_fill || c < 0 || c >= s->n || split_size(s->N, s->n, c) == 0)
		return -1;
	return s->db_fill[(size_t)r * s->N + split_offset(s->N, s->n, c)];
}

void view_train_line(const struct view *v, int r, int width, char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	const struct run_snapshot *s = &v->snap;
	int n = s->n, fsdp = s->mode == DM_FSDP;
	buf[0] = '\0';
	if (!v->cfg.train || v->stop < 0)
		return;
	if (v->kind == SCHED_COMPUTE || v->kind == SCHED_TRANSFER) {
		snprintf(buf, size, "dC[%zu:%zu] waits for the backward", d->row_begin, d->row_end);
	} else if (v->kind == SCHED_BWD_COMPUTE || v->kind == SCHED_BWD_TRANSFER) {
		snprintf(buf, size, "dA[%zu:%zu, :] %d/%d shards summed", d->row_begin, d->row_end,
			 d->da_parts, n);
		if ((int)strlen(buf) > width)
			snprintf(buf, size, "dA %d/%d", d->da_parts, n);
	} else if (d->db_chunk >= 0 || (fsdp && (v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY))) {
		int k = d->db_chunk >= 0 ? d->db_chunk : r;
		snprintf(buf, size, "kept dB[:, %zu:%zu] %d/%d summed", split_offset(s->N, n, k),
			 split_offset(s->N, n, k + 1), view_train_chunk_fill(v, r, k) < 0 ? 0
			 : view_train_chunk_fill(v, r, k), n);
		if (v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY)
			snprintf(buf, size, r == 0 ? "holds C, dA, dB gathered" : "sent its dB[%d] to 0", k);
	} else if (d->db_chunk == -2) {
		snprintf(buf, size, "holds all of dB, %d/%d summed", n, n);
		if ((int)strlen(buf) > width)
			snprintf(buf, size, "all of dB %d/%d", n, n);
	} else if (d->db_recv >= 0) {
		int k = d->db_recv;
		snprintf(buf, size, "dB[:, %zu:%zu] %d/%d summed", split_offset(s->N, n, k),
			 split_offset(s->N, n, k + 1), view_train_chunk_fill(v, r, k), n);
		if ((int)strlen(buf) > width)
			snprintf(buf, size, "dB%d %d/%d", k, view_train_chunk_fill(v, r, k), n);
	} else if (v->kind == SCHED_DB_PARTIAL) {
		snprintf(buf, size, "partial dB_%d: 1/%d in each chunk", r, n);
	}
}
