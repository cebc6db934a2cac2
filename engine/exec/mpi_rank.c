/* mpi_rank: one rank's run over MPI (see mpi_rank.h).
 *
 * The order of a run, the same on every rank, so that every collective
 * meets: rank 0 checks and broadcasts the shapes (or its refusal); every
 * rank sets up its device and its transport and the ranks agree that all
 * did; rank 0 sends each rank its rows of A and its B; a barrier starts the
 * clock; the algorithm runs; the transport ends (collectively, completing
 * anything a failure left in flight); every rank's error, totals and events
 * go to rank 0, which merges the events phase by phase and rank by rank, as
 * run.c's run_merge_events() does.  So the event sequence equals the
 * in-process run's, times excepted, and C comes from rank 0's device exactly
 * as run_result() gives it.
 *
 * The collectives here use their own duplicate of the job's communicator,
 * with MPI's default handler: a collective that failed on one rank alone
 * would leave the others waiting, so MPI ending the job is the safe answer
 * to MPI failing.  Failures of the run itself are values, as everywhere. */
#include <distmm/mpi_rank.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include "comm/comm.h"
#include "comm/comm_mpi.h"
#include "exec/device.h"
#include "core/gemm.h"
#include "core/plan_int.h"
#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "core/xalloc.h"
#include "core/schedule_int.h"
#include "exec/bug_int.h"
#include "exec/tp.h"

enum { MR_TAG_A = 1, MR_TAG_B = 2, MR_TAG_ERR = 3, MR_TAG_DC = 4, MR_TAG_E = 5 };

/* What rank 0 tells every rank before anything is allocated (tp-mlp: the
 * activation and P, E's columns, too). */
enum { MR_CODE, MR_MODE, MR_BUG, MR_TRAIN, MR_CCL, MR_M, MR_K, MR_N, MR_ACT, MR_P, MR_HEAD };

/* One rank's outcome, gathered to rank 0 (plain bytes: every host runs the
 * same binary). */
struct mr_record {
	int32_t code;
	int32_t pad;
	uint64_t peak, sent, recvd, n_ev;
	char msg[DM_ERR_MSG_MAX];
};

struct mr_ctx {
	const struct mpi_rank_config *cfg;
	struct dm_plan plan; /* every rank's, from the head: the schedule's questions */
	int phase_count;
};

int mpi_rank_check(const struct dm_plan *p, const struct mat *a, const struct mat *b,
		   const struct mat *dc, const struct mat *e, struct dm_err *err)
{
	int rc;
	if (!p || !a || !b)
		return dm_err_set(err, DM_EINVAL, "rank 0 has no matrices to multiply");
	if (plan_mode(p) == DM_COLL)
		return dm_err_set(err, DM_EINVAL, "a collective runs on the in-process devices "
				  "(distmm-tui -b --collective), not over MPI yet");
	/* the modes mr_setup_device and mr_scatter know; any other is refused
	 * here, the one gate, rather than run with the wrong parts */
	if (plan_mode(p) != DM_FSDP && plan_mode(p) != DM_DP && plan_mode(p) != DM_TP_COL &&
	    plan_mode(p) != DM_TP_ROW && plan_mode(p) != DM_TP_MLP)
		return dm_err_set(err, DM_EINVAL, "-m %s runs on the in-process devices "
				  "(distmm-tui -b), not over MPI yet: distmm-mpi runs fsdp, dp, "
				  "tp-col, tp-row and tp-mlp", plan_mode_name(plan_mode(p)));
	/* the same as in-process; MPI's int counts hold what BLAS's ints hold */
	if ((rc = run_check_shapes(p, a, b, dc, err)) ||
	    (plan_mode(p) == DM_TP_MLP && (rc = tp_check_e(p, b, e, err))))
		return rc;
	return plan_check(p, err);
}

/* The view of d before `phase` (phase_count: after the last). */
static void mr_show(const struct mr_ctx *x, const struct device *d, int phase)
{
	struct mpi_rank_view v = {
		.rank = d->rank, .n = d->n, .mode = d->mode, .phase = phase,
		.phase_count = x->phase_count,
		.kind = phase < x->phase_count ? sched_phase_kind(&x->plan, phase) : SCHED_NONE,
		.step = phase < x->phase_count ? sched_phase_step(&x->plan, phase) : 0,
		.N = d->N, .row_begin = d->row_begin, .row_end = d->row_end,
		.shard = d->mode == DM_FSDP ? d->shard : -1,
		.holds_full_b = d->mode == DM_DP && d->b.data != NULL,
		.c_sent = d->rank != 0 && d->c.data == NULL && d->row_end > d->row_begin,
		.gathered = d->gathered.data != NULL,
		.sent_shard = d->sent_shard, .sent_to = d->sent_to,
		.recv_shard = d->recv_shard, .recv_from = d->recv_from,
		.held_bytes = d->held, .peak_bytes = d->peak, .sent_bytes = d->sent,
		.recv_bytes = d->recvd, .pass = d->train ? DM_TRAIN : DM_FORWARD,
		.da_parts = d->da_parts,
		.db_sent = d->db_sent, .db_recv = d->db_recv,
	};
	if (v.shard >= 0) {
		v.shard_col_begin = split_offset(d->N, d->n, v.shard);
		v.shard_col_end = v.shard_col_begin + d->b.cols;
	}
	for (size_t j = 0; j < d->N; j++)
		v.cols_done += d->col_fill[j] != DEVICE_FILL_NONE;
	x->cfg->show(x->cfg->ctx, &v);
}

/* device_enter_fn.  Running free, a phase boundary only notices that
 * another rank failed; stepping, it shows the rank and meets the others. */
static int mr_enter(struct device *d, int phase)
{
	const struct mr_ctx *x = d->ctx;
	if (!x->cfg->show)
		return comm_mpi_check(d->comm, &d->err);
	mr_show(x, d, phase);
	return comm_mpi_barrier(d->comm, phase, x->cfg->pause, x->cfg->ctx, &d->err);
}

/* Tensor parallel's device (tp_setup), and its part of dC in a training
 * step, its buffers to be filled by the scatter. */
static int mr_setup_tp(struct device *d, int rank, const long long *head, struct mr_ctx *x,
		       struct dm_err *err)
{
	int rc = tp_setup(d, rank, &x->plan, (size_t)head[MR_M], (size_t)head[MR_K],
			  (size_t)head[MR_N], NULL, NULL, NULL, err);
	return rc || !head[MR_TRAIN] ? rc : tp_setup_train(d, NULL, err);
}

/* A device as in-process (device_setup), its buffers to be filled by the
 * scatter. */
static int mr_setup_device(struct device *d, int rank, int n, const long long *head,
			   struct mr_ctx *x, struct dm_err *err)
{
	int rc = plan_mode_tp((int)head[MR_MODE]) ? mr_setup_tp(d, rank, head, x, err)
		 : head[MR_TRAIN]
			 ? device_setup_train(d, rank, n, (int)head[MR_MODE], (int)head[MR_BUG],
					      (size_t)head[MR_M], (size_t)head[MR_K],
					      (size_t)head[MR_N], NULL, NULL, err)
			 : device_setup(d, rank, n, (int)head[MR_MODE], (int)head[MR_BUG],
					(size_t)head[MR_M], (size_t)head[MR_K], (size_t)head[MR_N], NULL, NULL, err);
	d->enter = mr_enter;
	d->ctx = x;
	d->order = ORDER_PARITY;
	return rc;
}

/* Columns [c0, c0 + w) of the rows x ld matrix at src, sent to rank `to`
 * as one rows x w message: MPI reads them in place. */
static void mr_send_cols(const double *src, size_t rows, size_t ld, size_t c0, size_t w,
			 int to, int tag, MPI_Comm cc)
{
	MPI_Datatype cols;
	MPI_Type_vector((int)rows, (int)w, (int)ld, MPI_DOUBLE, &cols);
	MPI_Type_commit(&cols);
	MPI_Send(&src[c0], 1, cols, to, tag, cc);
	MPI_Type_free(&cols);
}

/* Tensor parallel's start (tp_setup's buffers): tp-col rank 0 all of A
 * (the others get it in the run's distribute phase) and every rank its
 * columns of B (tp-mlp: and E's rows matching them, contiguous); tp-row every rank its columns of A along K and its rows of
 * B.  Rank 0 copies its own part, the others receive theirs.  A training
 * step's dC: tp-col's columns cols_r to rank r, tp-row's whole to all. */
static void mr_scatter_tp(struct device *d, MPI_Comm cc, const struct mat *a,
			  const struct mat *b, const struct mat *dc, const struct mat *e)
{
	int n = d->n, col = d->mode != DM_TP_ROW, mlp = d->mode == DM_TP_MLP;
	size_t M = d->M, K = d->K, N = d->N;
	if (d->train && !col && M * N > 0) {
		if (d->rank == 0)
			memcpy(d->dc.data, dc->data, M * N * sizeof(double));
		MPI_Bcast(d->dc.data, (int)(M * N), MPI_DOUBLE, 0, cc);
	}
	if (d->rank != 0 && d->train && col && d->dc.rows * d->dc.cols > 0)
		MPI_Recv(d->dc.data, (int)(M * d->dc.cols), MPI_DOUBLE, 0, MR_TAG_DC, cc,
			 MPI_STATUS_IGNORE);
	if (d->rank == 0 && d->train && col) {
		device_copy_block(&d->dc, dc, 0, 0);
		for (int r = 1; r < n; r++) {
			size_t c0 = split_offset(N, n, r), w = split_size(N, n, r);
			if (M * w > 0)
				mr_send_cols(dc->data, M, N, c0, w, r, MR_TAG_DC, cc);
		}
	}
	if (d->rank != 0) {
		if (!col && d->a.data)
			MPI_Recv(d->a.data, (int)(M * d->a.cols), MPI_DOUBLE, 0, MR_TAG_A, cc,
				 MPI_STATUS_IGNORE);
		if (d->b.data)
			MPI_Recv(d->b.data, (int)(d->b.rows * d->b.cols), MPI_DOUBLE, 0, MR_TAG_B, cc,
				 MPI_STATUS_IGNORE);
		if (mlp && d->e.rows * d->P > 0)
			MPI_Recv(d->e.data, (int)(d->e.rows * d->P), MPI_DOUBLE, 0, MR_TAG_E, cc,
				 MPI_STATUS_IGNORE);
		return;
	}
	if (col) {
		if (M * K > 0)
			memcpy(d->a.data, a->data, M * K * sizeof(double));
		device_copy_block(&d->b, b, 0, 0);
		if (mlp)
			device_copy_block(&d->e, e, 0, 0);
	} else {
		device_copy_block(&d->a, a, 0, 0);
		if (d->b.rows * N > 0)
			memcpy(d->b.data, b->data, d->b.rows * N * sizeof(double));
	}
	for (int r = 1; r < n; r++) {
		size_t o = split_offset(col ? N : K, n, r), w = split_size(col ? N : K, n, r);
		if (!col && M * w > 0)
			mr_send_cols(a->data, M, K, o, w, r, MR_TAG_A, cc);
		if (col && K * w > 0)
			mr_send_cols(b->data, K, N, o, w, r, MR_TAG_B, cc);
		else if (!col && w * N > 0)
			MPI_Send(&b->data[o * N], (int)(w * N), MPI_DOUBLE, r, MR_TAG_B, cc);
		if (mlp && w * d->P > 0) /* E's rows o.. o + w: B's columns' */
			MPI_Send(&e->data[o * d->P], (int)(w * d->P), MPI_DOUBLE, r, MR_TAG_E, cc);
	}
}

/* Rank 0 sends every rank its rows of A and its B; each copies or receives
 * into the buffers it set up.  Sizes are known on both sides, so an empty
 * part (more ranks than rows or columns) is simply not sent. */
static void mr_scatter(struct device *d, MPI_Comm cc, const struct mat *a, const struct mat *b,
		       const struct mat *dc, const struct mat *e)
{
	int n = d->n;
	size_t K = d->K, N = d->N;
	if (plan_mode_tp(d->mode)) {
		mr_scatter_tp(d, cc, a, b, dc, e);
		return;
	}
	if (d->rank != 0) {
		if (d->a.rows * K > 0)
			MPI_Recv(d->a.data, (int)(d->a.rows * K), MPI_DOUBLE, 0, MR_TAG_A, cc,
				 MPI_STATUS_IGNORE);
		if (d->train && d->dc.rows * N > 0)
			MPI_Recv(d->dc.data, (int)(d->dc.rows * N), MPI_DOUBLE, 0, MR_TAG_DC, cc,
				 MPI_STATUS_IGNORE);
		if (d->mode == DM_DP)
			MPI_Bcast(d->b.data, (int)(K * N), MPI_DOUBLE, 0, cc);
		else if (d->b.cols > 0)
			MPI_Recv(d->b.data, (int)(K * d->b.cols), MPI_DOUBLE, 0, MR_TAG_B, cc,
				 MPI_STATUS_IGNORE);
		return;
	}
	if (d->a.rows * K > 0)
		memcpy(d->a.data, a->data, d->a.rows * K * sizeof(double));
	if (d->train && d->dc.rows * N > 0)
		memcpy(d->dc.data, dc->data, d->dc.rows * N * sizeof(double));
	for (int r = 1; r < n; r++) {
		size_t r0 = split_offset(d->M, n, r), rows = split_size(d->M, n, r);
		if (rows * K > 0)
			MPI_Send(&a->data[r0 * K], (int)(rows * K), MPI_DOUBLE, r, MR_TAG_A, cc);
		if (d->train && rows * N > 0)
			MPI_Send(&dc->data[r0 * N], (int)(rows * N), MPI_DOUBLE, r, MR_TAG_DC, cc);
	}
	if (d->mode == DM_DP) {
		memcpy(d->b.data, b->data, K * N * sizeof(double));
		MPI_Bcast(b->data, (int)(K * N), MPI_DOUBLE, 0, cc);
		return;
	}
	if (d->b.cols > 0) /* shard 0: the first columns */
		for (size_t i = 0; i < K; i++)
			memcpy(&d->b.data[i * d->b.cols], &b->data[i * N], d->b.cols * sizeof(double));
	for (int r = 1; r < n; r++) {
		size_t c0 = split_offset(N, n, r), w = split_size(N, n, r);
		if (w > 0) /* shard r is K rows of w values N apart */
			mr_send_cols(b->data, K, N, c0, w, r, MR_TAG_B, cc);
	}
}

/* Every rank learns whether every rank set up (rc is this rank's outcome,
 * mine its words).  Rank 0 gets the first real failure's words in err (by
 * rank; a rank that only stopped because another failed comes last). */
static int mr_agree(MPI_Comm cc, int rank, int n, int rc, const struct dm_err *mine,
		    struct dm_err *err)
{
	int key = rc == DM_OK ? INT_MAX : rc == DM_ESTOPPED ? n + rank : rank, first;
	MPI_Allreduce(&key, &first, 1, MPI_INT, MPI_MIN, cc);
	if (first == INT_MAX)
		return DM_OK;
	int who = first < n ? first : first - n;
	if (rank == who)
		*err = *mine;
	if (who != 0 && rank == who)
		MPI_Send(mine, (int)sizeof *mine, MPI_BYTE, 0, MR_TAG_ERR, cc);
	else if (who != 0 && rank == 0)
		MPI_Recv(err, (int)sizeof *err, MPI_BYTE, who, MR_TAG_ERR, cc, MPI_STATUS_IGNORE);
	if (rank == 0) {
		err->msg[sizeof err->msg - 1] = '\0';
		return err->code;
	}
	if (rank != who)
		*err = rc ? *mine : (struct dm_err){ DM_ESTOPPED, "another rank could not start" };
	return rc ? rc : DM_ESTOPPED;
}

/* After the run: every rank's outcome and events to rank 0, merged as
 * run_merge_events() merges them.  Returns the run's error on rank 0. */
static int mr_collect(MPI_Comm cc, struct device *d, int rc, struct mr_record *recs,
		      struct mpi_rank_result *res, struct dm_err *err)
{
	int n = d->n, ok = 1;
	struct mr_record me = { .code = rc ? (d->err.code ? d->err.code : rc) : DM_OK,
				.peak = d->peak, .sent = d->sent, .recvd = d->recvd,
				.n_ev = d->log.len };
	memcpy(me.msg, d->err.msg, sizeof me.msg);
	MPI_Gather(&me, (int)sizeof me, MPI_BYTE, recs, (int)sizeof me, MPI_BYTE, 0, cc);

	struct ev *all = NULL;
	int *counts = NULL, *displs = NULL;
	size_t total = 0, *cur = NULL;
	if (d->rank == 0) {
		for (int r = 0; r < n; r++)
			total += recs[r].n_ev;
		all = xmalloc((total ? total : 1) * sizeof *all);
		res->ev = xmalloc((total ? total : 1) * sizeof *res->ev);
		counts = xmalloc((size_t)n * sizeof *counts);
		displs = xmalloc((size_t)n * sizeof *displs);
		cur = xcalloc((size_t)n, sizeof *cur);
		ok = all && res->ev && counts && displs && cur && total <= INT_MAX;
		for (int r = 0, at = 0; ok && r < n; at += counts[r], r++) {
			counts[r] = (int)recs[r].n_ev;
			displs[r] = at;
		}
	}
	MPI_Bcast(&ok, 1, MPI_INT, 0, cc);
	if (ok) {
		MPI_Datatype evt;
		MPI_Type_contiguous((int)sizeof(struct ev), MPI_BYTE, &evt);
		MPI_Type_commit(&evt);
		MPI_Gatherv(d->log.ev, (int)d->log.len, evt, all, counts, displs, evt, 0, cc);
		MPI_Type_free(&evt);
	}
	if (d->rank != 0)
		return rc;

	if (ok) {
		/* phase by phase, rank by rank: the order never depends on timing */
		int phases = sched_phase_count(&((const struct mr_ctx *)d->ctx)->plan);
		for (int p = 0; p < phases; p++)
			for (int r = 0; r < n; r++)
				while (cur[r] < (size_t)counts[r] && all[(size_t)displs[r] + cur[r]].phase == p)
					res->ev[res->n_ev++] = all[(size_t)displs[r] + cur[r]++];
	}
	for (int r = 0; r < n; r++)
		res->sum[r] = (struct ev_summary){ r, recs[r].peak, recs[r].sent, recs[r].recvd };
	/* run_collect_error: the first real failure wins over the stops it caused */
	const struct mr_record *first = NULL;
	for (int r = 0; r < n; r++)
		if (recs[r].code != DM_OK &&
		    (!first || (first->code == DM_ESTOPPED && recs[r].code != DM_ESTOPPED)))
			first = &recs[r];
	int code = DM_OK;
	if (first) {
		code = first->code;
		err->code = first->code;
		memcpy(err->msg, first->msg, sizeof err->msg);
		err->msg[sizeof err->msg - 1] = '\0';
	} else if (!ok) {
		code = dm_err_set(err, DM_ENOMEM, "rank 0: out of memory for %zu events", total);
	}
	free(all);
	free(counts);
	free(displs);
	free(cur);
	return code;
}

int mpi_rank_run(MPI_Comm mc, const struct mpi_rank_config *cfg, const struct mat *a,
		 const struct mat *b, struct mpi_rank_result *res, struct dm_err *err)
{
	int rank, n, rc;
	long long head[MR_HEAD] = { 0 };
	struct device d;
	struct mr_ctx x = { .cfg = cfg };
	struct comm *comm = NULL;
	struct dm_err mine = { DM_OK, "" };
	struct mr_record *recs = NULL;
	MPI_Comm cc;

	memset(res, 0, sizeof *res);
	memset(&d, 0, sizeof d);
	MPI_Comm_rank(mc, &rank);
	MPI_Comm_size(mc, &n);
	MPI_Comm_dup(mc, &cc);

	/* rank 0's word on the shapes, before anyone allocates */
	if (rank == 0) {
		/* the plan on the job's devices, one a rank (the checks read
		 * none of its device count) */
		struct dm_plan p = plan_of(DM_FSDP, 1, DM_FORWARD);
		rc = mpi_rank_check(cfg->plan, a, b, cfg->dc, cfg->e, err);
		if (!rc) {
			p = *cfg->plan;
			rc = plan_set_devices(&p, n, err);
		}
		head[MR_CODE] = rc;
		head[MR_MODE] = p.mode;
		head[MR_BUG] = p.bug;
		head[MR_TRAIN] = p.pass != DM_FORWARD;
		head[MR_CCL] = p.ccl;
		head[MR_M] = rc ? 0 : (long long)a->rows;
		head[MR_K] = rc ? 0 : (long long)a->cols;
		head[MR_N] = rc ? 0 : (long long)b->cols;
		head[MR_ACT] = p.act;
		head[MR_P] = (long long)p.width;
	}
	MPI_Bcast(head, MR_HEAD, MPI_LONG_LONG, 0, cc);
	if (head[MR_CODE] != DM_OK) {
		rc = (int)head[MR_CODE];
		if (rank != 0)
			dm_err_set(err, rc, "rank 0 refused the run");
		MPI_Comm_free(&cc);
		return rc;
	}
	res->n = n;
	res->mode = (int)head[MR_MODE];
	res->pass = head[MR_TRAIN] ? DM_TRAIN : DM_FORWARD;
	/* the devices' own rule (device_setup): the bug where it applies */
	res->bug = bug_applies_to((int)head[MR_BUG], res->mode, res->pass) ? (int)head[MR_BUG] : 0;
	res->M = (size_t)head[MR_M];
	res->K = (size_t)head[MR_K];
	res->N = (size_t)head[MR_N];
	x.plan = plan_of(res->mode, n, res->pass);
	x.plan.bug = res->bug;
	x.plan.ccl = (enum ccl_kind)head[MR_CCL];
	x.plan.act = (enum dm_act)head[MR_ACT];
	x.plan.width = (size_t)head[MR_P];
	x.phase_count = sched_phase_count(&x.plan);

	/* every rank's buffers, its transport, and rank 0's for the outcome */
	rc = mr_setup_device(&d, rank, n, head, &x, &mine);
	if (rank == 0 && !rc) {
		recs = xcalloc((size_t)n, sizeof *recs);
		res->sum = xcalloc((size_t)n, sizeof *res->sum);
		if (!recs || !res->sum)
			rc = dm_err_set(&mine, DM_ENOMEM, "rank 0: out of memory for %d ranks", n);
	}
	struct dm_err comm_err;
	int crc = comm_mpi_new(&comm, cc, &comm_err); /* collective: on all ranks or none */
	if (crc && !rc) {
		mine = comm_err;
		rc = crc;
	}
	if ((rc = mr_agree(cc, rank, n, rc, &mine, err)))
		goto out;
	d.comm = comm;

	mr_scatter(&d, cc, a, b, cfg->dc, cfg->e);
	gemm_init();
	res->ran = 1;
	MPI_Barrier(cc); /* the common start of every rank's clock */
	d.t0_ns = device_now_ns();
	rc = device_run(&d);
	if (!rc && cfg->show) {
		/* the state at the end, and the ranks together once more */
		mr_show(&x, &d, x.phase_count);
		rc = comm_mpi_barrier(comm, x.phase_count, NULL, NULL, &d.err);
	}
	if (rc && rc != DM_ESTOPPED) {
		if (d.err.code == DM_OK) /* an error with no message: say what it was */
			dm_err_set(&d.err, rc, "rank %d: %s", rank, dm_status_name(rc));
		comm_close(comm); /* every other rank's wait ends */
	} else if (rc) {
		d.err.code = DM_ESTOPPED;
	}
	comm_destroy(comm); /* collective: whatever a failure left in flight ends */
	comm = NULL;
	rc = mr_collect(cc, &d, rc, recs, res, err);
	if (rank == 0 && rc == DM_OK) {
		res->c = d.gathered; /* moved out: rank 0's device gathered it */
		d.gathered = (struct mat){ 0, 0, NULL };
		if (res->pass == DM_TRAIN) { /* DP: rank 0's own dB, whole after the all-gather */
			struct mat *db = res->mode == DM_DP ? &d.g : &d.gathered_db;
			res->da = d.gathered_da;
			res->db = *db;
			d.gathered_da = (struct mat){ 0, 0, NULL };
			*db = (struct mat){ 0, 0, NULL };
		}
	} else if (rank != 0 && rc) {
		*err = d.err;
	}
out:
	if (comm)
		comm_destroy(comm);
	device_release(&d);
	free(recs);
	MPI_Comm_free(&cc);
	return rc;
}

void mpi_rank_result_free(struct mpi_rank_result *res)
{
	free(res->ev);
	free(res->sum);
	mat_free(&res->c);
	mat_free(&res->da);
	mat_free(&res->db);
	memset(res, 0, sizeof *res);
}
