/* view_words: the interface's words (see view.h): the position, captions,
 * the verification, warnings, each rank's formula and memory line, the
 * worked cell, and how numbers are written.  Pure formatting of the view's
 * state: no curses, nothing changed. */
#include "view.h"
#include <distmm/model.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include "words/deadlock.h"
#include "view_judge.h"
#include "words/bug_words.h"
#include "words/order_words.h"
#include <distmm/schedule.h>
#include <distmm/split.h>

const char *view_phase_name(const struct view *v)
{
	if (v->failed)
		return v->fail.code == DM_EDEADLOCK ? "deadlock" : "failed";
	if (v->kind == VIEW_READY)
		return "ready";
	if (v->kind == VIEW_VERIFY)
		return "verify";
	return sched_kind_name(v->kind);
}

void view_position(const struct view *v, int shortform, char *buf, size_t size)
{
	int kind = v->kind, step = v->step, n = v->cfg.devices;
	const char *tail = "";
	if (v->failed && v->fail_phase >= 0 && v->fail_phase < v->phase_count) {
		/* the phase that failed, not the last one that worked */
		kind = sched_phase_kind(v->plan, v->fail_phase);
		step = sched_phase_step(v->plan, v->fail_phase);
		tail = v->fail.code == DM_EDEADLOCK ? " deadlock" : " failed";
	} else if (v->failed) {
		snprintf(buf, size, "%s", view_phase_name(v));
		return;
	}
	int ring = kind == SCHED_REDUCE_SCATTER || kind == SCHED_ALL_GATHER;
	int bwd = kind == SCHED_BWD_COMPUTE || kind == SCHED_BWD_TRANSFER;
	if (kind == VIEW_READY || kind == VIEW_VERIFY || kind == SCHED_GATHER ||
	    kind == SCHED_DB_PARTIAL || (v->cfg.mode == DM_DP && !ring)) {
		snprintf(buf, size, "%s%s", kind == VIEW_READY	  ? "ready"
					    : kind == VIEW_VERIFY ? "verify"
								  : sched_kind_name(kind),
			 tail);
		return;
	}
	/* a ring of dB's chunks has n - 1 steps; the backward's steps are t */
	int steps = ring ? n - 1 : n;
	const char *letter = bwd ? "t" : "s";
	if (shortform)
		snprintf(buf, size, "%s=%d %d/%d %s%s", letter, step, step + 1, steps,
			 sched_kind_name(kind), tail);
	else
		snprintf(buf, size, "step %s=%d (%d of %d)  %s%s", letter, step, step + 1, steps,
			 sched_kind_name(kind), tail);
}

static void view_gather_caption(int n, char *buf, size_t size)
{
	if (n == 1)
		snprintf(buf, size, "gather: one device, whose rows of C are all of C: rank 0 "
				    "places them as they are. Next: the verification.");
	else if (n == 2)
		snprintf(buf, size, "gather: rank 1 sends its rows of C to rank 0, which places them "
				    "by row offset. Next: the verification.");
	else
		snprintf(buf, size, "gather: ranks 1..%d send their rows of C to rank 0, which places "
				    "them by row offset. Next: the verification.",
			 n - 1);
}

/* The lesson's words for this moment, if the lesson has some. */
static int view_lesson_caption(const struct view *v, char *buf, size_t size)
{
	int when;
	if (!v->lesson)
		return 0;
	if (v->failed && v->fail.code == DM_EDEADLOCK)
		when = LESSON_DEADLOCK;
	else if (v->finished)
		when = LESSON_DONE;
	else if (v->kind == VIEW_READY)
		when = LESSON_READY;
	else if (v->kind == SCHED_COMPUTE)
		when = LESSON_COMPUTE;
	else if (v->kind == SCHED_TRANSFER)
		when = LESSON_TRANSFER;
	else if (v->kind == SCHED_BWD_COMPUTE)
		when = LESSON_BACKWARD;
	else if (v->kind == SCHED_BWD_TRANSFER)
		when = LESSON_BACKWARD_TRANSFER;
	else if (v->kind == SCHED_DB_PARTIAL)
		when = LESSON_PARTIAL;
	else if (v->kind == SCHED_REDUCE_SCATTER)
		when = LESSON_REDUCE_SCATTER;
	else if (v->kind == SCHED_ALL_GATHER)
		when = LESSON_ALL_GATHER;
	else
		when = LESSON_GATHER;
	int got = lesson_caption(v->lesson, v->part, when, v->step, v->snap.n, buf, size);
	if ((v->finished || v->failed) && v->part + 1 < v->lesson->nparts) {
		size_t len = got ? strlen(buf) : 0;
		snprintf(buf + len, size - len, "%sNext (n): %s.", got ? " " : "",
			 v->lesson->part[v->part + 1].name);
		got = 1;
	}
	return got;
}

static void view_fsdp_caption(const struct view *v, char *buf, size_t size)
{
	int n = v->snap.n, s = v->step;
	char lab[320], threads[64] = "";
	if (view_derive_caption(v, buf, size))
		return; /* the practice's words: no formula */
	view_lab_sentence(v, lab, sizeof lab);
	if (v->cfg.order == ORDER_RECV_THREAD && n > 1)
		snprintf(threads, sizeof threads, " Each device runs 2 threads: %d for %d.", 2 * n, n);
	if (v->kind == VIEW_READY && v->cfg.order != ORDER_PARITY)
		snprintf(buf, size, "Ready: %s (%s), on channels of capacity %s.%s Will the ring "
				    "complete? Press n.",
			 orderw_describe(v->cfg.order), order_name(v->cfg.order),
			 v->cfg.capacity == RUN_UNBOUNDED ? "unbounded"
			 : v->cfg.capacity == 0		   ? "0 (synchronous sends)"
							   : "bounded",
			 threads);
	else if (v->kind == VIEW_READY && v->fixed)
		snprintf(buf, size, "The fixed order: even ranks send first and odd ranks receive "
				    "first, so every send meets a receive. Press n for s=0.");
	else if (v->kind == VIEW_READY && n == 1)
		snprintf(buf, size, "Ready: one device holds all of A and all of B (its own shard "
				    "B[0] is every column): s=0 is plain A @ B. Press n.");
	else if (v->kind == VIEW_READY)
		snprintf(buf, size, "Ready: rank r holds rows of A and its own shard B[r]. At step s it "
				    "will hold shard (r - s) mod %d. Press n for s=0.",
			 n);
	else if (v->kind == SCHED_COMPUTE && n == 1)
		snprintf(buf, size, "step s=0: the one rank multiplies its rows of A (all of them) by "
				    "B[0], all of B: C = A @ B at once.");
	else if (v->kind == SCHED_COMPUTE)
		snprintf(buf, size, "step s=%d: each rank multiplies its rows of A by the shard it holds, "
				    "B[(r - %d) mod %d], into those columns of C.",
			 s, s, n);
	else if (v->kind == SCHED_TRANSFER && lab[0])
		snprintf(buf, size, "transfer after s=%d: each rank passes its shard to (r + 1) mod %d and "
				    "gets one from (r - 1) mod %d. %s",
			 s, n, n, lab);
	else if (v->kind == SCHED_TRANSFER)
		snprintf(buf, size, "transfer after s=%d: each rank passes its shard to (r + 1) mod %d and "
				    "gets one from (r - 1) mod %d. Each rank sends %d/%d of B in all.",
			 s, n, n, n - 1, n);
	else if (v->kind == SCHED_GATHER)
		view_gather_caption(n, buf, size);
	else
		snprintf(buf, size, "verify: C on rank 0, checked against the sequential A @ B by "
				    "numpy's allclose rule, element by element.");
}

void view_caption(const struct view *v, char *buf, size_t size)
{
	if (v->judge && view_judge_caption(v, buf, size))
		return; /* --judge: the verdict where the candidate's run went wrong */
	if (view_lesson_caption(v, buf, size))
		return;
	if (!v->run && !v->replaying && v->failed) {
		snprintf(buf, size, "cannot start: %s", v->fail.msg);
		return;
	}
	if (v->failed && v->fail.code == DM_EDEADLOCK) {
		char cycle[256];
		deadlock_cycle(&v->snap, cycle, sizeof cycle);
		snprintf(buf, size, "deadlock: %s. %s", cycle, deadlock_why(&v->snap));
		return;
	}
	if (v->failed) {
		snprintf(buf, size, "%s", v->fail.msg);
		return;
	}
	if (v->cfg.bug == BUG_NONE && view_train_caption(v, buf, size))
		return;
	/* the snapshot names a forward's bug alone; the backward's is the run's */
	int bug = v->cfg.train ? v->cfg.bug : (int)v->snap.bug;
	if (bug != BUG_NONE && (v->kind == VIEW_READY || v->finished)) {
		/* where the mistake cannot show (r-plus-s on two devices...), say so */
		const char *note = bugw_note(bug, v->snap.n);
		if (note && v->finished)
			snprintf(buf, size, "The run has the bug %s, but %s.", bug_name(bug), note);
		else
			snprintf(buf, size, "%s the run has a bug: spot it from where each rank "
					    "writes%s",
				 v->finished ? "Found it?" : "Spot the bug:",
				 v->finished ? ". The cells marked ! differ from A @ B (--bug list "
					       "tells)."
					     : ", before the verification fails.");
		return;
	}
	if (v->snap.mode == DM_DP) {
		if (v->kind == VIEW_READY)
			snprintf(buf, size, "DP: every rank holds its rows of A and its own full copy of "
					    "B. Next: each multiplies its rows by all of B.");
		else if (v->kind == SCHED_COMPUTE)
			snprintf(buf, size, "compute: each rank multiplies its rows of A by its own copy of "
					    "B, filling all the columns of its rows of C at once.");
		else if (v->kind == SCHED_GATHER)
			view_gather_caption(v->snap.n, buf, size);
		else
			view_fsdp_caption(v, buf, size);
		return;
	}
	view_fsdp_caption(v, buf, size);
}

void view_verify_line(const struct view *v, char *buf, size_t size)
{
	char err[32];
	buf[0] = '\0';
	if (!v->finished || (v->judge && view_judge_verify_line(v, buf, size)))
		return;
	if (v->cfg.train) {
		view_train_verify_line(v, buf, size);
		return;
	}
	snprintf(err, sizeof err, "%.3g", v->max_err);
	size_t M = v->snap.M, N = v->snap.N;
	if (v->verdict == VIEW_OK)
		snprintf(buf, size, "verify: allclose ok, max |err| = %s   C = A @ B (%zux%zu) is on rank 0",
			 err, M, N);
	else if (v->verdict == VIEW_NAN_EQUAL)
		snprintf(buf, size, "verify: NaN-equal: allclose ok on every finite element (max |err| = "
				    "%s), and the %zu NaN or infinite elements of A @ B are the same in C: "
				    "the inputs hold a NaN or an infinity, the product agrees",
			 err, v->n_nan);
	else
		snprintf(buf, size, "verify: MISMATCH, %zu of %zu elements differ from A @ B, max |err| "
				    "= %s (marked !)",
			 v->n_bad, M * N, err);
}

/* "ranks 5..7" or "rank 7". */
static void view_range(const char *what, int a, int b, char *buf, size_t size)
{
	if (a == b)
		snprintf(buf, size, "%s %d", what, a);
	else
		snprintf(buf, size, "%ss %d..%d", what, a, b);
}

void view_empty_warning(const struct view *v, char *buf, size_t size)
{
	int n = v->cfg.devices;
	size_t M = v->a->rows, N = v->b->cols;
	char who[48];
	size_t len = 0;
	buf[0] = '\0';
	if (M < (size_t)n) {
		view_range("rank", (int)M, n - 1, who, sizeof who);
		len += (size_t)snprintf(buf, size, "warning: %zu rows of A on %d devices: %s own no rows "
						   "and compute nothing.",
					M, n, who);
	}
	if (v->cfg.mode == DM_FSDP && N < (size_t)n && len < size) {
		view_range("shard", (int)N, n - 1, who, sizeof who);
		snprintf(buf + len, size - len, "%s%s%zu columns of B on %d devices: %s %s empty: a "
						"step that holds one writes no column.",
			 len ? " " : "", len ? "" : "warning: ", N, n, who, n - (int)N == 1 ? "is" : "are");
	}
}

void view_formula(const struct view *v, int r, int shortform, char *buf, size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	int n = v->snap.n;
	size_t N = v->snap.N;

	int gathered = v->kind == SCHED_GATHER || v->kind == VIEW_VERIFY;
	if (view_train_formula(v, r, shortform, buf, size))
		return; /* the backward's, its own hiding included */
	if (!gathered && view_hides(v, r)) {
		/* a question is open, or the practice asks for the rule: no
		 * formula and no index on any panel, since one rank's gives the
		 * others' away */
		int q = quiz_open(&v->quiz) ? v->quiz.q[v->quiz.cur].type : QUIZ_SHARD;
		if (v->snap.mode == DM_DP)
			snprintf(buf, size, "A[?] @ B -> C[?, 0:%zu]", N);
		else if (q == QUIZ_SEND_TO || q == QUIZ_RECV_FROM)
			snprintf(buf, size, "sends to ?, receives from ?");
		else if (v->kind == SCHED_TRANSFER && !shortform && d->sent_shard >= 0 &&
			 !view_lab_calls(v, r, -1, buf, size))
			snprintf(buf, size, "B[?] -> rank %d, B[?] <- rank %d", d->sent_to,
				 d->recv_from);
		else if (v->kind == SCHED_TRANSFER && !shortform && d->sent_shard >= 0)
			; /* the lab's calls, their shards hidden */
		else if (shortform || d->row_end == d->row_begin)
			snprintf(buf, size, "B[?]");
		else
			snprintf(buf, size, "B[?] -> C[%zu:%zu, ?]", d->row_begin, d->row_end);
		return;
	}
	if (v->judge && view_judge_formula(v, r, shortform, buf, size))
		return; /* what the candidate's events did, not the ring's formula */
	if (gathered && r == 0) {
		snprintf(buf, size, shortform ? "holds all of C" : "placed C[0:%zu, 0:%zu] (all of C)",
			 v->snap.M, N);
		return;
	}
	if (gathered) {
		snprintf(buf, size, shortform ? "sent C rows" : "sent C[%zu:%zu] -> rank 0", d->row_begin,
			 d->row_end);
		return;
	}
	if (v->snap.mode == DM_DP) {
		snprintf(buf, size, "A[%zu:%zu] @ B -> C[%zu:%zu, 0:%zu]", d->row_begin, d->row_end,
			 d->row_begin, d->row_end, N);
		return;
	}
	if (v->kind == SCHED_TRANSFER && !shortform && d->sent_shard >= 0) {
		if (!view_lab_calls(v, r, -1, buf, size)) /* the lab says the order of the calls */
			snprintf(buf, size, "B[%d] -> rank %d, B[%d] <- rank %d", d->sent_shard,
				 d->sent_to, d->recv_shard, d->recv_from);
		return;
	}
	/* the step whose shard the rank holds now: after a transfer, the next one */
	int s = v->kind == SCHED_TRANSFER ? v->step + 1 : v->step;
	int k = d->shard;
	if (v->snap.bug != BUG_NONE) {
		/* what the mistaken code computes, whatever the rank holds */
		char f[64], why[8];
		size_t c0, w, hw = k >= 0 ? split_size(N, n, k) : 0;
		int stops = bug_place(v->snap.bug, n, N, r, s, k, hw, &c0, &w, why, sizeof why);
		bugw_formula(v->snap.bug, n, r, s, f, sizeof f);
		if (shortform && !stops && w == 0)
			snprintf(buf, size, "%s: empty", f); /* the slice: the product lands nowhere */
		else if (shortform || stops)
			snprintf(buf, size, "%s%s", f,
				 !stops || shortform		  ? ""
				 : v->snap.bug == BUG_PY_NO_MOD ? ": numpy's shape error!"
								  : ": a negative index!");
		else if (w == 0)
			snprintf(buf, size, "%s -> C[%zu:%zu, %zu:%zu]: an empty slice", f, d->row_begin,
				 d->row_end, c0, c0);
		else
			snprintf(buf, size, "%s -> C[%zu:%zu, %zu:%zu]", f, d->row_begin, d->row_end,
				 c0, c0 + w);
		return;
	}
	if (k < 0) {
		snprintf(buf, size, "holds no shard");
		return;
	}
	size_t c0 = split_offset(N, n, k), c1 = split_offset(N, n, k + 1);
	if (shortform)
		snprintf(buf, size, "(%d-%d) mod %d = %d", r, s, n, k);
	else
		snprintf(buf, size, "(%d-%d) mod %d = %d -> C[%zu:%zu, %zu:%zu]%s", r, s, n, k,
			 d->row_begin, d->row_end, c0, c1, c0 == c1 ? " (empty)" : "");
}

/* The training step's other mode, by the training model (train_model.c):
 * its peak through the same stage of the step (the same ring step over
 * dB), and the last of its phases counted in label ("rs s=1"). */
static uint64_t view_other_train(const struct view *v, int r, char *label, size_t size)
{
	int other = v->cfg.mode == DM_FSDP ? DM_DP : DM_FSDP, n = v->cfg.devices;
	int kind = v->kind == VIEW_READY ? SCHED_COMPUTE : v->kind == VIEW_VERIFY ? SCHED_GATHER
										   : v->kind;
	uint64_t peak = 0;
	struct dm_plan *p = NULL;
	int last = -1, k = SCHED_COMPUTE, s = 0;
	if (!plan_make(&p, other, n, DM_TRAIN, NULL))
		last = model_train_peak_by(p, v->a->rows, v->a->cols, v->b->cols, r, kind, v->step,
					   &peak);
	if (last >= 0) {
		k = sched_phase_kind(p, last);
		s = sched_phase_step(p, last);
	}
	plan_free(p);
	if (k == SCHED_REDUCE_SCATTER || k == SCHED_ALL_GATHER)
		snprintf(label, size, "%s s=%d", k == SCHED_REDUCE_SCATTER ? "rs" : "ag", s);
	else
		snprintf(label, size, "%s", k == SCHED_COMPUTE || k == SCHED_TRANSFER ? "fwd"
					    : k == SCHED_DB_PARTIAL			  ? "partial"
					    : k == SCHED_GATHER			  ? "gather"
											  : "dA");
	return peak;
}

uint64_t view_other_by(const struct view *v, int r)
{
	int other = v->cfg.mode == DM_FSDP ? DM_DP : DM_FSDP, n = v->cfg.devices;
	int gathered = v->stop >= v->phase_count - 1;
	char label[16];
	struct dm_plan *p;
	uint64_t peak = 0;
	if (v->cfg.train)
		return view_other_train(v, r, label, sizeof label);
	if (!plan_make(&p, other, n, DM_FORWARD, NULL)) {
		int last = sched_phase_count(p) - 1;
		peak = model_fwd_peak_by(p, r, v->a->rows, v->a->cols, v->b->cols,
					 gathered ? last : last - 1);
		plan_free(p);
	}
	return peak;
}

void view_mem_text(const struct view *v, int r, int width, char *buf, size_t size)
{
	char held[24], other[24], label[16] = "";
	const char *name = v->cfg.mode == DM_FSDP ? "DP" : "FSDP";
	int with_c = r == 0 && v->stop >= v->phase_count - 1;
	view_bytes(v->snap.dev[r].peak_bytes, held, sizeof held);
	view_bytes(v->cfg.train ? view_other_train(v, r, label, sizeof label) : view_other_by(v, r),
		   other, sizeof other);
	for (int form = 0; form < 4; form++) {
		if (form == 0 && v->cfg.train && with_c)
			snprintf(buf, size, "%s vs %s %s, both with C, dA, dB", held, name, other);
		else if (form == 0 && v->cfg.train)
			snprintf(buf, size, "%s vs %s %s by %s", held, name, other, label);
		else if (form == 0 && with_c)
			snprintf(buf, size, "%s vs %s %s, both with C", held, name, other);
		else if (form <= 1)
			snprintf(buf, size, "%s vs %s %s", held, name, other);
		else if (form == 2)
			snprintf(buf, size, "%s %s %s", held, name, other);
		else
			snprintf(buf, size, "%s", held);
		if ((int)strlen(buf) <= width)
			return;
	}
}

/* A value in parentheses when negative, so that a sum of terms reads. */
static void view_term(const struct view_format *f, double x, char *buf, size_t size)
{
	char t[32];
	view_value(f, x, f->ideal_w, t, sizeof t);
	if (x < 0)
		snprintf(buf, size, "(%s)", t);
	else
		snprintf(buf, size, "%s", t);
}

double view_cell_value(const struct view *v)
{
	double s = 0;
	size_t K = v->a->cols;
	for (size_t k = 0; k < K; k++)
		s += MAT_AT(v->a, v->cell_i, k) * MAT_AT(v->b, k, v->cell_j);
	return s;
}

void view_cell_text(const struct view *v, char *buf, size_t size)
{
	size_t i = v->cell_i, j = v->cell_j, K = v->a->cols, len = 0;
	int n = v->cfg.devices, r = split_part_of(v->a->rows, n, i);
	const char *dot = v->utf8 ? "\xc2\xb7" : ".";
	char term[96], a[40], b[40];
	if (size < 64) {
		buf[0] = '\0';
		return;
	}
	len = (size_t)snprintf(buf, size, "C[%zu,%zu] = A[%zu,:] %s B[:,%zu] = ", i, j, i, dot, j);
	/* the tail is kept room for: the sum and who computes it */
	size_t budget = size > 200 ? size - 160 : size / 2;
	for (size_t k = 0; k < K; k++) {
		view_term(&v->fa, MAT_AT(v->a, i, k), a, sizeof a);
		view_term(&v->fb, MAT_AT(v->b, k, j), b, sizeof b);
		snprintf(term, sizeof term, "%s%s*%s", k ? " + " : "", a, b);
		if (len + strlen(term) > budget && k + 1 < K) {
			len += (size_t)snprintf(buf + len, size - len, " + ... (%zu terms in all)", K);
			break;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s", term);
		if (len >= size)
			return;
	}
	char sum[40];
	double s = view_cell_value(v);
	if (v->fc.ints && fabs(s) < 1e15)
		snprintf(sum, sizeof sum, "%.0f", s);
	else
		snprintf(sum, sizeof sum, "%.6g", s);
	if (v->cfg.mode == DM_DP)
		len += (size_t)snprintf(buf + len, size - len, " = %s. Rank %d computes it, with its own "
							       "copy of B, at the compute.",
					sum, r);
	else if (view_derive_hiding(v)) {
		/* the step would be the rule's answer, solved for s */
		len += (size_t)snprintf(buf + len, size - len, " = %s. Rank %d computes it at the step "
							       "when the shard with column %zu reaches it: "
							       "which step?",
					sum, r, j);
	} else {
		int k = split_part_of(v->b->cols, n, j), s_at = split_mod((long)r - k, n);
		len += (size_t)snprintf(buf + len, size - len, " = %s. Rank %d computes it at step s=%d, "
							       "when shard B[%d] arrives: (%d - %d) mod %d = %d.",
					sum, r, s_at, k, r, s_at, n, k);
	}
	if (len < size && v->snap.c && v->stop >= 0 &&
	    v->snap.col_fill[(size_t)r * v->snap.N + j] != RUN_FILL_NONE) {
		double got = v->snap.c[i * v->snap.N + j];
		if (got != s && !(isnan(got) && isnan(s))) {
			view_value(&v->fc, got, v->fc.ideal_w, sum, sizeof sum);
			snprintf(buf + len, size - len, " The run wrote %s there%s.", sum,
				 view_cell_wrong(v, i, j) ? ": wrong" : " (rounding)");
		}
	}
}

int view_cell_wrong(const struct view *v, size_t row, size_t col)
{
	if (!v->finished || v->verdict == VIEW_OK || !v->snap.c || row >= v->ref.rows ||
	    col >= v->ref.cols)
		return 0;
	return !mat_close(v->snap.c[row * v->snap.N + col], MAT_AT(&v->ref, row, col));
}

int view_fresh(const struct view *v, int r, size_t j)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	if (v->kind != SCHED_COMPUTE || d->row_end == d->row_begin)
		return 0;
	if (v->judge && !v->judge->ring)
		return view_judge_fresh(v, r, j); /* where its compute wrote, as recorded */
	if (v->snap.mode == DM_DP)
		return 1;
	int f = v->snap.col_fill[(size_t)r * v->snap.N + j];
	/* written this step: by the shard held (or, with a bug, where it wrote) */
	if (v->snap.bug == BUG_NONE)
		return j >= d->shard_col_begin && j < d->shard_col_end && f != RUN_FILL_NONE;
	char why[8];
	size_t c0, w, hw = d->shard >= 0 ? split_size(v->snap.N, v->snap.n, d->shard) : 0;
	if (bug_place(v->snap.bug, v->snap.n, v->snap.N, r, v->step, d->shard, hw, &c0, &w, why,
		      sizeof why))
		return 0; /* the mistaken code stopped before it wrote */
	return j >= c0 && j < c0 + w && f != RUN_FILL_NONE;
}

void view_bytes(uint64_t bytes, char *buf, size_t size)
{
	if (bytes < 1024)
		snprintf(buf, size, "%" PRIu64 " B", bytes);
	else if (bytes < 1024ull * 1024)
		snprintf(buf, size, "%.1f KiB", (double)bytes / 1024.0);
	else if (bytes < 1024ull * 1024 * 1024)
		snprintf(buf, size, "%.1f MiB", (double)bytes / 1048576.0);
	else
		snprintf(buf, size, "%.1f GiB", (double)bytes / 1073741824.0);
}

void view_value(const struct view_format *f, double x, int width, char *buf, size_t size)
{
	if (isnan(x)) {
		snprintf(buf, size, "nan");
		return;
	}
	if (isinf(x)) {
		snprintf(buf, size, x < 0 ? "-inf" : "inf");
		return;
	}
	if (f->ints && fabs(x) < 1e15 && x == floor(x)) {
		snprintf(buf, size, "%.0f", x);
		return;
	}
	/* the most decimals that fit, down to none */
	for (int p = f->prec_ideal > 0 ? f->prec_ideal : 2; p >= 0; p--) {
		if (f->sci || fabs(x) >= 1e5)
			snprintf(buf, size, "%.*e", p, x);
		else
			snprintf(buf, size, "%.*f", p, x);
		if ((int)strlen(buf) <= width)
			return;
	}
	snprintf(buf, size, "%.0e", x);
}

int view_table_shard(const struct view *v, int r, int s)
{
	if (v->cfg.mode != DM_FSDP || r < 0 || s < 0 || s >= v->cfg.devices)
		return -1;
	return sched_shard(v->cfg.devices, r, s);
}
