/* report_tp: tensor parallel in batch mode (see report_tp.h).  The figures
 * are the engine's: the run's summaries, and the model (<distmm/model.h>)
 * for every mode; only the layout and the words are here. */
#include "report_tp.h"
#include "report_mlp.h"

#include <inttypes.h>
#include <stdio.h>

#include <distmm/model.h>
#include <distmm/schedule.h>

void report_tp_event(const struct ev *e, const struct dm_plan *p)
{
	int col = plan_mode(p) == DM_TP_COL;
	if (plan_mode(p) == DM_TP_MLP && report_mlp_event(e, p))
		return;
	switch (e->op) {
	case EV_COMPUTE:
		if (col)
			printf("compute  rank %d  A @ B[:, %" PRIu32 ":%" PRIu32 "] (its shard, which "
			       "stays)  -> C[:, %" PRIu32 ":%" PRIu32 "]\n",
			       e->rank, e->col_begin, e->col_end, e->col_begin, e->col_end);
		else
			printf("compute  rank %d  A[:, k%d] @ B[k%d, :]  -> its partial, all of C "
			       "(%" PRIu32 "x%" PRIu32 ")\n",
			       e->rank, e->shard, e->shard, e->row_end, e->col_end);
		break;
	case EV_SEND: {
		enum sched_kind k = sched_phase_kind(p, e->phase);
		if (k == SCHED_DISTRIBUTE)
			printf("distribute  rank 0 -> rank %d  all of A  %" PRIu64 " B\n", e->peer,
			       e->bytes);
		else if (k == SCHED_GATHER)
			printf("gather  rank %d -> rank 0  C[%" PRIu32 ":%" PRIu32 ", %" PRIu32
			       ":%" PRIu32 "]  %" PRIu64 " B\n",
			       e->rank, e->row_begin, e->row_end, e->col_begin, e->col_end, e->bytes);
		else
			printf("%s %d  rank %d -> rank %d  chunk %d, rows %" PRIu32 ":%" PRIu32
			       " of the partials  %" PRIu64 " B%s\n",
			       sched_kind_name(k), e->step, e->rank, e->peer, e->shard, e->row_begin,
			       e->row_end, e->bytes, k == SCHED_CCL_RING_RS ? ", added" : "");
		break;
	}
	default: /* the receives, adds and placements mirror the sends */
		break;
	}
}

int report_tp_summary(const struct ev_summary *sum, const struct dm_plan *p, size_t M, size_t K,
		      size_t N)
{
	int n = plan_devices(p), off = 0;
	printf("memory and traffic (bytes; the model: the closed forms with the real splits):\n");
	printf("  %-8s %12s %12s %12s %12s %12s %12s\n", "", "peak held", "model", "sent", "model",
	       "received", "model");
	for (int i = 0; i < n; i++) {
		struct model_tp m;
		char name[16];
		model_tp_rank(p, i, M, K, N, &m);
		snprintf(name, sizeof name, "rank %d", i);
		int same = sum[i].peak_bytes == m.peak && sum[i].sent_bytes == m.sent &&
			   sum[i].recv_bytes == m.recv;
		off += !same;
		printf("  %-8s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64
		       " %12" PRIu64 "%s\n",
		       name, sum[i].peak_bytes, m.peak, sum[i].sent_bytes, m.sent, sum[i].recv_bytes,
		       m.recv, same ? "" : "  (differs)");
	}
	struct model_tp m0;
	model_tp_rank(p, 0, M, K, N, &m0);
	uint64_t C = 8 * (uint64_t)M * N;
	if (plan_mode(p) == DM_TP_MLP)
		report_mlp_traffic(p, M, K, N);
	else if (plan_mode(p) == DM_TP_COL)
		printf("  tp-col: B's shards never move; rank 0 sends all of A (%" PRIu64 " B) to "
		       "each of the %d other ranks, each sends its columns of C back\n",
		       8 * (uint64_t)M * K, n - 1);
	else if (n == 1)
		printf("  tp-row on one device: its partial is C; nothing is summed\n");
	else if (plan_ccl_kind(p) == CCL_REDUCESCATTER)
		printf("  tp-row's reduce-scatter: (n-1)/n x 8MN = %d/%d x %" PRIu64 " = %" PRIu64
		       " B a rank%s, then each slice to rank 0\n",
		       n - 1, n, C, m0.textbook, M % (size_t)n ? " when n divides M (here uneven)" : "");
	else
		printf("  tp-row's all-reduce: 2(n-1)/n x 8MN = 2x%d/%d x %" PRIu64 " = %" PRIu64
		       " B a rank%s\n",
		       n - 1, n, C, m0.textbook,
		       M % (size_t)n ? " when n divides M (here uneven: per rank 2x8MN - R_r - "
				       "R_r+1, R_c the bytes of row chunk c)" : "");
	if (off)
		printf("  %d rank%s differ from the model\n", off, off == 1 ? "" : "s");
	return off;
}

/* The peak and the sends of rank r in mode (p's own mode by p: tp-row's
 * collective, tp-mlp's P; another by its defaults). */
static void report_tp_model(const struct dm_plan *p, enum dm_mode mode, int r, size_t M,
			    size_t K, size_t N, uint64_t *peak, uint64_t *sent)
{
	struct dm_plan *q;
	*peak = *sent = 0;
	if (mode == plan_mode(p) ? plan_dup(&q, p, NULL)
				 : plan_make(&q, mode, plan_devices(p), DM_FORWARD, NULL))
		return;
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

void report_tp_modes(const struct ev_summary *sum, const struct dm_plan *p, size_t M, size_t K,
		     size_t N)
{
	static const enum dm_mode modes[] = { DM_DP, DM_FSDP, DM_TP_COL, DM_TP_ROW, DM_TP_MLP };
	int n = plan_devices(p);
	/* tp-mlp's job has a second layer: its column beside the others' A @ B */
	size_t count = plan_mode(p) == DM_TP_MLP ? 5 : 4;
	printf("DP, FSDP, tp-col and tp-row on this job%s (bytes a rank, the model; %s measured "
	       "by this run in [ ]):\n", count == 5 ? " (A @ B), tp-mlp on A, B and E" : "",
	       plan_mode_name(plan_mode(p)));
	printf("  %-8s", "");
	for (size_t k = 0; k < count; k++)
		printf(" %13s %13s", plan_mode_name(modes[k]), "sent");
	printf("\n");
	for (int r = 0; r < n; r++) {
		char name[16];
		snprintf(name, sizeof name, "rank %d", r);
		printf("  %-8s", name);
		for (size_t k = 0; k < count; k++) {
			uint64_t peak, sent;
			report_tp_model(p, modes[k], r, M, K, N, &peak, &sent);
			printf(" %13" PRIu64 " %13" PRIu64, peak, sent);
		}
		if (sum)
			printf("  [%" PRIu64 " %" PRIu64 "]", sum[r].peak_bytes, sum[r].sent_bytes);
		printf("\n");
	}
	printf("  what moves: DP none of B (each rank has it; not counted), FSDP B's shards round "
	       "the ring, tp-col all of A out from rank 0, tp-row the M x N partials summed%s; every "
	       "mode's C ends on rank 0 (its peak includes the gathered C)\n",
	       count == 5 ? ", tp-mlp A out from rank 0 and the M x P partials of Z summed" : "");
}
