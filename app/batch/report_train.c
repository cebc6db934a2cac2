/* report_train: a training step's account (see report_train.h).  The
 * forward's lines are report.c's own (report_events, one event at a time);
 * the backward's are here, each with the formula the schedule follows and
 * its numbers, so that a reader can check the exact index by hand: the
 * reduce-scatter's (r - s - 1) mod n sent, (r - s - 2) mod n received and
 * added into. */
#include "report_train.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/matio.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include <distmm/trace.h>
#include "report.h"
#include "cli/status.h"
#include <distmm/model.h>
#include "report_tp_train.h"
#include "words/bug_words.h"
#include "words/model_words.h"

#define REPORT_TRAIN_COMPARE_DEVICES 64

/* Tensor parallel's training step has its own account (report_tp_train.c):
 * each function below hands it over, so that batch mode and distmm-mpi
 * call one set of functions for every mode. */

void report_train_intro(const struct cli_opts *o, const struct dm_plan *p)
{
	int mode = plan_mode(p), n = plan_devices(p);
	if (plan_mode_tp(mode)) {
		report_tp_train_intro(p);
		return;
	}
	printf("training step: the forward, then dA = dC @ B^T and dB = A^T @ dC, dC %s; %s\n",
	       o->dc_file ? "from a file" : "from the seed",
	       mode == DM_DP ? "DP all-reduces dB round the ring (a reduce-scatter, then an "
			       "all-gather): every rank ends with all of dB"
		       : n > 1 ? "FSDP gathers B again round the ring, then reduce-scatters dB: "
				 "rank r keeps chunk r, B's shard r's columns"
			       : "one device: the plain products");
}

static void report_train_compute(const struct ev *e, int mode, int n)
{
	if (e->tensor == EV_TENSOR_DB) {
		/* K x N, K read off its bytes: 8*K*N */
		uint64_t k = e->col_end ? e->bytes / 8 / e->col_end : 0;
		printf("partial  rank %d  dB_%d = A[%" PRIu32 ":%" PRIu32 "]^T @ dC[%" PRIu32 ":%" PRIu32
		       "]  (K x N = %" PRIu64 "x%" PRIu32 ", %" PRIu64 " B)\n", e->rank, e->rank,
		       e->row_begin, e->row_end, e->row_begin, e->row_end, k, e->col_end, e->bytes);
	} else if (mode == DM_DP) {
		printf("backward  rank %d  dA[%" PRIu32 ":%" PRIu32 "] = dC[%" PRIu32 ":%" PRIu32
		       "] @ B^T (all of B)\n", e->rank, e->row_begin, e->row_end, e->row_begin,
		       e->row_end);
	} else {
		printf("backward step %d  rank %d  holds shard (%d-%d) mod %d = %d  dA[%" PRIu32
		       ":%" PRIu32 "] += dC[%" PRIu32 ":%" PRIu32 ", %" PRIu32 ":%" PRIu32
		       "] @ B[:, %" PRIu32 ":%" PRIu32 "]^T\n", e->step, e->rank, e->rank, e->step,
		       n, e->shard, e->row_begin, e->row_end, e->row_begin, e->row_end,
		       e->col_begin, e->col_end, e->col_begin, e->col_end);
	}
}

static void report_train_send(const struct ev *e, int kind, int n, int bug)
{
	char f[64];
	if (kind == SCHED_BWD_TRANSFER) {
		printf("backward transfer %d  rank %d -> rank %d  shard %d  B[:, %" PRIu32 ":%" PRIu32
		       "]  %" PRIu64 " B\n", e->step, e->rank, e->peer, e->shard, e->col_begin,
		       e->col_end, e->bytes);
	} else if (kind == SCHED_REDUCE_SCATTER) {
		bugw_rs_formula(bug, n, e->rank, e->step, f, sizeof f);
		printf("reduce-scatter %d  rank %d -> rank %d  sends chunk %s  dB[:, %" PRIu32
		       ":%" PRIu32 "]  %" PRIu64 " B\n", e->step, e->rank, e->peer, f,
		       e->col_begin, e->col_end, e->bytes);
	} else if (kind == SCHED_ALL_GATHER) {
		printf("all-gather %d  rank %d -> rank %d  sends chunk (%d-%d) mod %d = %d  dB[:, "
		       "%" PRIu32 ":%" PRIu32 "]  %" PRIu64 " B\n", e->step, e->rank, e->peer,
		       e->rank, e->step, n, e->shard, e->col_begin, e->col_end, e->bytes);
	} else if (e->tensor == EV_TENSOR_DA) {
		printf("gather  rank %d -> rank 0  dA[%" PRIu32 ":%" PRIu32 ", 0:%" PRIu32 "]  %" PRIu64
		       " B\n", e->rank, e->row_begin, e->row_end, e->col_end, e->bytes);
	} else if (e->tensor == EV_TENSOR_DB) {
		printf("gather  rank %d -> rank 0  dB[:, %" PRIu32 ":%" PRIu32 "] (chunk %d)  %" PRIu64
		       " B\n", e->rank, e->col_begin, e->col_end, e->shard, e->bytes);
	} else {
		printf("gather  rank %d -> rank 0  C[%" PRIu32 ":%" PRIu32 ", %" PRIu32 ":%" PRIu32
		       "]  %" PRIu64 " B\n", e->rank, e->row_begin, e->row_end, e->col_begin,
		       e->col_end, e->bytes);
	}
}

/* fwd: the forward's plan (p's mode and devices, no bug), whose lines the
 * forward's events get, as without --train. */
static void report_train_event(const struct ev *e, const struct dm_plan *p,
			       const struct dm_plan *fwd)
{
	int mode = plan_mode(p), n = plan_devices(p), bug = plan_bug(p);
	enum sched_kind kind = sched_phase_kind(p, e->phase);
	char f[64];
	if ((kind == SCHED_COMPUTE || kind == SCHED_TRANSFER) && e->op != EV_FREE) {
		report_event(e, fwd);
		return;
	}
	switch (e->op) {
	case EV_COMPUTE:
		report_train_compute(e, mode, n);
		break;
	case EV_SEND:
		report_train_send(e, kind, n, bug);
		break;
	case EV_ADD:
		bugw_rs_recv_formula(bug, n, e->rank, e->step, f, sizeof f);
		if (e->flags & EV_FLAG_OVERWRITE)
			printf("reduce-scatter %d  rank %d  receives chunk %s from rank %d and stores "
			       "it over its own part: not summed\n", e->step, e->rank, f,
			       sched_left(n, e->rank));
		else
			printf("reduce-scatter %d  rank %d  receives chunk %s from rank %d, adds its "
			       "part: %d of %d parts\n", e->step, e->rank, f, sched_left(n, e->rank),
			       e->step + 2, n);
		break;
	case EV_FREE:
		if (e->tensor == EV_TENSOR_DB) {
			size_t c0 = split_offset(e->col_end, n, e->shard);
			printf("keep  rank %d  keeps chunk %d of dB, dB[:, %zu:%zu], summed over %d "
			       "ranks, and lets the partial go (%" PRIu64 " B)\n",
			       e->rank, e->shard, c0, c0 + split_size(e->col_end, n, e->shard), n,
			       e->bytes);
		} else
			printf("free  rank %d  lets B[%d] go, the gathered shard it used last (%" PRIu64
			       " B); it keeps its own, B[%d]\n", e->rank, e->shard, e->bytes, e->rank);
		break;
	default: /* receives and placements mirror the sends */
		break;
	}
}

void report_train_events(const struct ev *ev, size_t n_ev, const struct dm_plan *p)
{
	struct dm_plan *fwd;
	if (plan_mode_tp(plan_mode(p))) {
		report_tp_train_events(ev, n_ev, p);
		return;
	}
	if (plan_make(&fwd, plan_mode(p), plan_devices(p), DM_FORWARD, NULL)) {
		status_error("out of memory");
		return;
	}
	for (size_t i = 0; i < n_ev; i++)
		report_train_event(&ev[i], p, fwd);
	plan_free(fwd);
}

/* Bytes each rank sent in the ring phases (not the gather), from the log;
 * out has n entries. */
static void report_ring_sent(const struct ev *ev, size_t n_ev, const struct dm_plan *p,
			     uint64_t *out)
{
	for (size_t i = 0; i < n_ev; i++)
		if (ev[i].op == EV_SEND && sched_phase_kind(p, ev[i].phase) != SCHED_GATHER)
			out[ev[i].rank] += ev[i].bytes;
}

void report_train_summary(const struct ev_summary *sum, const struct ev *ev, size_t n_ev,
			  const struct dm_plan *p, size_t M, size_t K, size_t N)
{
	if (plan_mode_tp(plan_mode(p))) {
		report_tp_train_summary(sum, p, M, K, N);
		return;
	}
	int mode = plan_mode(p), n = plan_devices(p);
	uint64_t t_peak = 0, t_ring = 0, t_gather = 0, t_recv = 0;
	uint64_t *ring = calloc((size_t)n, sizeof *ring);
	struct model_train model, total;
	char f[160];
	int shown = n < 64 ? n : 64;
	if (!ring) {
		status_error("out of memory");
		return;
	}
	report_ring_sent(ev, n_ev, p, ring);
	printf("memory and traffic, training step (bytes; the model: docs/training.md):\n");
	printf("  %-8s %10s %10s %10s %10s %11s %11s %10s\n", "", "peak held", "model fwd",
	       "model bwd", "ring sent", "closed form", "gather sent", "received");
	for (int r = 0; r < n; r++) {
		model_train_rank(p, M, K, N, r, &model);
		t_peak += sum[r].peak_bytes;
		t_ring += ring[r];
		t_gather += sum[r].sent_bytes - ring[r];
		t_recv += sum[r].recv_bytes;
		if (r >= shown)
			continue;
		printf("  rank %-3d %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %11" PRIu64
		       " %11" PRIu64 " %10" PRIu64 "%s\n", r, sum[r].peak_bytes, model.fwd_peak,
		       model.bwd_peak, ring[r], model.ring_sent, sum[r].sent_bytes - ring[r],
		       sum[r].recv_bytes,
		       sum[r].peak_bytes != model.peak || ring[r] != model.ring_sent
			       ? "  (not the model's: a bug or a failure)" : "");
	}
	model_train_total(p, M, K, N, &total);
	printf("  %-8s %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %10" PRIu64 " %11" PRIu64
	       " %11" PRIu64 " %10" PRIu64 "\n", "total", t_peak, total.fwd_peak, total.bwd_peak,
	       t_ring, total.ring_sent, t_gather, t_recv);
	free(ring);
	if (n > shown)
		printf("  (ranks 64 and up are in the total only)\n");
	printf("  ring bytes sent by rank r, with B = 8*K*N = %" PRIu64 " and w_k = 8*K*|chunk k| "
	       "(chunk k: shard k's columns):\n", (uint64_t)8 * K * N);
	if (mode == DM_FSDP)
		printf("    FSDP: 2*(n-1) B shards (the forward's all-gather and the backward's) + "
		       "(n-1) dB chunks = 2*(B - w_{r+1}) + (B - w_r)\n");
	else
		printf("    DP: (n-1) dB chunks in the reduce-scatter + (n-1) in the all-gather = "
		       "(B - w_r) + (B - w_{r+1})\n");
	for (int r = 0; r < n && r < 8; r++) {
		modelw_ring_formula(p, K, N, r, f, sizeof f);
		printf("    rank %d: %s\n", r, f);
	}
	if (n > 8)
		printf("    ...\n");
	printf("  the gather to rank 0 (C's and dA's rows%s) is counted apart: rank 0 writes "
	       "the files\n", mode == DM_FSDP ? ", each rank's chunk of dB" : "");
}

void report_train_compare(const struct dm_plan *p, size_t M, size_t K, size_t N)
{
	int n = plan_devices(p);
	if (plan_mode_tp(plan_mode(p))) /* DP against FSDP: not tensor parallel's question */
		return;
	struct model_train m[2];
	struct dm_plan *q; /* p's devices, in one mode then the other */
	if (n > REPORT_TRAIN_COMPARE_DEVICES)
		return;
	if (plan_dup(&q, p, NULL)) {
		status_error("out of memory");
		return;
	}
	printf("DP vs FSDP, training step (bytes, the model):\n");
	printf("  %-8s %11s %11s %11s %13s %13s %13s\n", "", "DP fwd peak", "DP bwd peak",
	       "DP ring", "FSDP fwd peak", "FSDP bwd peak", "FSDP ring");
	for (int r = 0; r <= n; r++) {
		char name[16];
		for (int k = 0; k < 2; k++) {
			plan_set_mode(q, k ? DM_FSDP : DM_DP, NULL);
			if (r < n)
				model_train_rank(q, M, K, N, r, &m[k]);
			else
				model_train_total(q, M, K, N, &m[k]);
		}
		snprintf(name, sizeof name, r < n ? "rank %d" : "total", r);
		printf("  %-8s %11" PRIu64 " %11" PRIu64 " %11" PRIu64 " %13" PRIu64 " %13" PRIu64
		       " %13" PRIu64 "\n", name, m[0].fwd_peak, m[0].bwd_peak, m[0].ring_sent,
		       m[1].fwd_peak, m[1].bwd_peak, m[1].ring_sent);
	}
	/* each mode's share by the model: per rank when N does not split evenly */
	char share[2][512];
	for (int k = 0; k < 2; k++) {
		plan_set_mode(q, k ? DM_FSDP : DM_DP, NULL);
		modelw_train_share(q, K, N, "B's size", share[k], sizeof share[k]);
	}
	plan_free(q);
	printf("  a rank sends, per training step: in DP, for the all-reduce of dB, %s; in FSDP, "
	       "for two all-gathers and dB's reduce-scatter, %s; DP holds all of B and dB, FSDP "
	       "its shard of each\n", share[0], share[1]);
}

int report_train_verify(const struct cli_opts *o, const struct mat *a, const struct mat *b,
			const struct mat *dc, const struct mat *c, const struct mat *da,
			const struct mat *db)
{
	static const struct report_product prod[3] = {
		{ "verify C = A @ B", "C", "A @ B", "A(Bx)", "A, B or C" },
		{ "verify dA = dC @ B^T", "dA", "dC @ B^T", "dC(B^Tx)", "dC, B or dA" },
		{ "verify dB = A^T @ dC", "dB", "A^T @ dC", "A^T(dCx)", "A, dC or dB" },
	};
	const struct verify_op ops[3][2] = {
		{ { a, 0 }, { b, 0 } }, { { dc, 0 }, { b, 1 } }, { { a, 1 }, { dc, 0 } }
	};
	const struct mat *res[3] = { c, da, db };
	int status = STATUS_OK;
	for (int i = 0; i < 3; i++) {
		if (!res[i]) {
			printf("%s: MISMATCH, no result\n", prod[i].label);
			status = STATUS_MISMATCH;
			continue;
		}
		/* each its own vectors, from the run's seed as the forward's */
		if (report_verify_product(o, &prod[i], ops[i][0], ops[i][1], res[i],
					  o->seed ^ (0xf4e1a1d5ULL + (uint64_t)i)) != STATUS_OK)
			status = STATUS_MISMATCH;
	}
	return status;
}

int report_train_check_outputs(const struct cli_opts *o, struct dm_err *err)
{
	int rc = 0;
	if ((o->out_file && (rc = report_check_output(o->out_file, 1, err))) ||
	    (o->da_out_file && (rc = report_check_output(o->da_out_file, 1, err))) ||
	    (o->db_out_file && (rc = report_check_output(o->db_out_file, 1, err))) ||
	    (o->trace_file && (rc = report_check_output(o->trace_file, 0, err))))
		return rc;
	return 0;
}

int report_train_write(const struct cli_opts *o, const struct ev *ev, size_t n_ev,
		       const struct ev_summary *sum, const struct dm_plan *p, const struct mat *c,
		       const struct mat *da, const struct mat *db)
{
	struct dm_err err;
	int rc = 0;
	if (o->trace_file) { /* the plan's pass: a training step's header and names */
		if (o->trace_format == CLI_TRACE_CHROME)
			rc = trace_write_chrome(o->trace_file, p, ev, n_ev, &err);
		else
			rc = trace_write_jsonl(o->trace_file, p, ev, n_ev, sum, &err);
	}
	if (!rc && o->out_file && c)
		rc = matio_write(o->out_file, c, &err);
	if (!rc && o->da_out_file && da)
		rc = matio_write(o->da_out_file, da, &err);
	if (!rc && o->db_out_file && db)
		rc = matio_write(o->db_out_file, db, &err);
	if (rc) {
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}
	return STATUS_OK;
}
