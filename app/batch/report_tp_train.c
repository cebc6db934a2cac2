/* report_tp_train: tensor parallel's training step in batch mode (see
 * report_tp_train.h).  The figures are the engine's (the run's summaries,
 * model_tp_train_rank); only the layout and the words are here. */
#include "report_tp_train.h"

#include <inttypes.h>
#include <stdio.h>

#include <distmm/model.h>
#include <distmm/schedule.h>
#include "report_tp.h"

void report_tp_train_intro(const struct dm_plan *p)
{
	if (plan_mode(p) == DM_TP_COL)
		printf("training step: the forward, then the backward given dC; rank r holds A, "
		       "B[:, cols_r] and dC[:, cols_r]: dB_r = A^T @ dC[:, cols_r] is local (A is "
		       "whole on every rank), but dA = sum_r dC[:, cols_r] @ B_r^T is a sum of every "
		       "rank's M x K partial: an all-reduce of dA round the ring, after which every "
		       "rank holds dA (the input gradient the layer below needs)\n");
	else
		printf("training step: the forward, then the backward given dC; the forward's "
		       "all-reduce leaves C, so dC, whole on every rank: dA[:, k_r] = dC @ B_r^T and "
		       "dB_r = A[:, k_r]^T @ dC are local, and the backward needs no collective "
		       "(the gather below only brings dA and dB to rank 0 to be checked)\n");
}

static const char *rtt_tensor(const struct ev *e)
{
	return e->tensor == EV_TENSOR_DA ? "dA" : "dB";
}

static void rtt_event(const struct ev *e, const struct dm_plan *p)
{
	enum sched_kind k = sched_phase_kind(p, e->phase);
	int col = plan_mode(p) == DM_TP_COL;
	switch (e->op) {
	case EV_COMPUTE:
		if (e->tensor == EV_TENSOR_DB)
			printf("backward  rank %d  dB[%" PRIu32 ":%" PRIu32 ", %" PRIu32 ":%" PRIu32
			       "] = %s  (local)\n",
			       e->rank, e->row_begin, e->row_end, e->col_begin, e->col_end,
			       col ? "A^T @ dC[:, its cols]" : "A[:, k_r]^T @ dC");
		else
			printf("backward  rank %d  %s  (%" PRIu32 "x%" PRIu32 ")\n", e->rank,
			       col ? "its partial dA = dC[:, its cols] @ B_r^T, all of dA's shape"
				   : "dA[:, k_r] = dC @ B_r^T, local",
			       e->row_end, e->col_end - e->col_begin);
		break;
	case EV_SEND:
		if (k == SCHED_GATHER)
			printf("gather  rank %d -> rank 0  %s[%" PRIu32 ":%" PRIu32 ", %" PRIu32
			       ":%" PRIu32 "]  %" PRIu64 " B\n",
			       e->rank, rtt_tensor(e), e->row_begin, e->row_end, e->col_begin,
			       e->col_end, e->bytes);
		else
			printf("%s %d (dA)  rank %d -> rank %d  chunk %d, rows %" PRIu32 ":%" PRIu32
			       " of the partial dA  %" PRIu64 " B%s\n",
			       sched_kind_name(k), e->step, e->rank, e->peer, e->shard, e->row_begin,
			       e->row_end, e->bytes, k == SCHED_CCL_RING_RS ? ", added" : "");
		break;
	default: /* the receives, adds and placements mirror the sends */
		break;
	}
}

void report_tp_train_events(const struct ev *ev, size_t n_ev, const struct dm_plan *p)
{
	for (size_t i = 0; i < n_ev; i++) {
		if (ev[i].tensor == EV_TENSOR_FWD)
			report_tp_event(&ev[i], p);
		else
			rtt_event(&ev[i], p);
	}
}

int report_tp_train_summary(const struct ev_summary *sum, const struct dm_plan *p, size_t M,
			    size_t K, size_t N)
{
	int n = plan_devices(p), off = 0;
	printf("memory and traffic, training step (bytes; the model: the closed forms with the "
	       "real splits):\n");
	printf("  %-8s %10s %10s %10s %10s %10s %10s %10s %11s\n", "", "peak held", "model", "sent",
	       "model", "received", "model", "bwd ring", "closed form");
	for (int i = 0; i < n; i++) {
		struct model_tp_train m;
		char name[16];
		model_tp_train_rank(p, i, M, K, N, &m);
		snprintf(name, sizeof name, "rank %d", i);
		int same = sum[i].peak_bytes == m.peak && sum[i].sent_bytes == m.sent &&
			   sum[i].recv_bytes == m.recv;
		off += !same;
		printf("  %-8s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64
		       " %10" PRIu64 " %10" PRIu64 " %11" PRIu64 "%s\n",
		       name, sum[i].peak_bytes, m.peak, sum[i].sent_bytes, m.sent, sum[i].recv_bytes,
		       m.recv, m.ring, m.ring_textbook, same ? "" : "  (differs)");
	}
	struct model_tp_train m0;
	model_tp_train_rank(p, 0, M, K, N, &m0);
	if (plan_mode(p) == DM_TP_COL && n > 1)
		printf("  tp-col's backward all-reduce of dA: 2(n-1)/n x 8MK = 2x%d/%d x %" PRIu64
		       " = %" PRIu64 " B a rank%s; each rank's dB columns then go to rank 0\n",
		       n - 1, n, 8 * (uint64_t)M * K, m0.ring_textbook,
		       M % (size_t)n ? " when n divides M (here uneven: per rank 2x8MK - S_r - S_r+1, "
				       "S_c the bytes of dA's row chunk c)" : "");
	else if (plan_mode(p) == DM_TP_COL)
		printf("  tp-col on one device: its partial dA is dA; nothing is summed\n");
	else
		printf("  tp-row's backward sends nothing round the ring: each rank's dA columns and "
		       "dB rows go to rank 0 to be checked\n");
	if (off)
		printf("  %d rank%s differ from the model\n", off, off == 1 ? "" : "s");
	return off;
}
