/* report: what batch mode prints (see report.h).  Every line is derived from
 * the event log and the per-rank totals, so the in-process run and the MPI
 * run print the same account of the same schedule. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <distmm/bug.h>
#include "words/deadlock.h"
#include <distmm/matio.h>
#include <distmm/model.h>
#include <distmm/order.h>
#include <distmm/outfile.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "cli/status.h"
#include <distmm/trace.h>
#include <distmm/verify.h>
#include "words/bug_words.h"
#include "words/model_words.h"
#include "report_tp.h"
#include "words/order_words.h"

/* The DP-vs-FSDP table has a line a device: up to this many. */
#define REPORT_COMPARE_DEVICES 64

/* How each rank makes its transfer: the order of its two calls, or the fix,
 * and for recv-thread the thread it adds. */
static void report_order(int order, int n)
{
	printf("transfers (%s): ", order_name(order));
	if (order == ORDER_RECV_THREAD) {
		printf("%s: %d threads for %d devices\n", orderw_describe(order), 2 * n, n);
		return;
	}
	if (order == ORDER_SENDRECV || order == ORDER_BUFFERED) {
		printf("%s\n", orderw_describe(order));
		return;
	}
	for (int r = 0; r < n && r < 6; r++)
		printf("%srank %d %s", r ? "; " : "", r,
		       order_sends_first(order, r) ? "sends, then receives"
						   : "receives, then sends");
	printf("%s\n", n > 6 ? ", ..." : "");
}

void report_header(const char *who, const struct cli_opts *o, const struct dm_plan *p, size_t M,
		   size_t K, size_t N)
{
	int mode = plan_mode(p), n = plan_devices(p), bug = plan_bug(p);
	printf("%s: %s, %d device%s, A %zux%zu, B %zux%zu, values %s, seed %" PRIu64 "%s%s\n", who,
	       plan_mode_name(mode), n, n == 1 ? "" : "s", M, K, K, N,
	       o->a_file || o->b_file ? "from files"
	       : o->values == MAT_VALUES_INTS ? "ints" : "floats",
	       o->seed, bug ? ", bug " : "", bug ? bug_name(bug) : "");
	if (bug)
		printf("the bug: %s\n", bugw_describe(bug));
	if (bug && bugw_note(bug, n))
		printf("  (%s)\n", bugw_note(bug, n));
	if (mode == DM_FSDP && n > 1)
		report_order(o->order, n);
}

void report_event(const struct ev *e, const struct dm_plan *p)
{
	int mode = plan_mode(p), n = plan_devices(p), bug = plan_bug(p);
	char f[64];
	if (plan_mode_tp(mode)) {
		report_tp_event(e, p);
		return;
	}
	switch (e->op) {
	case EV_COMPUTE:
		if (mode == DM_FSDP && bug != BUG_NONE) {
			/* the mistake at work: what it holds, and where its formula puts it */
			bugw_formula(bug, n, e->rank, e->step, f, sizeof f);
			printf("step %d  rank %d  holds shard %d, formula %s  -> C[%" PRIu32 ":%" PRIu32
			       ", %" PRIu32 ":%" PRIu32 "]%s\n",
			       e->step, e->rank, e->shard, f, e->row_begin, e->row_end, e->col_begin,
			       e->col_end, (e->flags & EV_FLAG_TRUNCATED) ? "  (cut to integers)" : "");
		} else if (mode == DM_DP)
			printf("step %d  rank %d  A[%" PRIu32 ":%" PRIu32 "] @ B (all of B)"
			       "  -> C[%" PRIu32 ":%" PRIu32 ", %" PRIu32 ":%" PRIu32 "]\n",
			       e->step, e->rank, e->row_begin, e->row_end, e->row_begin,
			       e->row_end, e->col_begin, e->col_end);
		else
			printf("step %d  rank %d  holds shard (%d-%d) mod %d = %d"
			       "  -> C[%" PRIu32 ":%" PRIu32 ", %" PRIu32 ":%" PRIu32 "]\n",
			       e->step, e->rank, e->rank, e->step, n, e->shard, e->row_begin,
			       e->row_end, e->col_begin, e->col_end);
		break;
	case EV_SEND:
		if (e->shard >= 0)
			printf("transfer %d  rank %d -> rank %d  shard %d  B[:, %" PRIu32 ":%" PRIu32
			       "]  %" PRIu64 " B\n",
			       e->step, e->rank, e->peer, e->shard, e->col_begin, e->col_end, e->bytes);
		else
			printf("gather  rank %d -> rank 0  C[%" PRIu32 ":%" PRIu32 ", %" PRIu32
			       ":%" PRIu32 "]  %" PRIu64 " B\n",
			       e->rank, e->row_begin, e->row_end, e->col_begin, e->col_end, e->bytes);
		break;
	case EV_GATHER:
		/* placements mirror the sends, unless rank 0 stacked the blocks
		 * elsewhere: then where each went is the point */
		if (bug == BUG_ARRIVAL_ORDER && e->peer != 0)
			printf("placed  rank 0 stacks rank %d's rows at C[%" PRIu32 ":%" PRIu32 "]\n",
			       e->peer, e->row_begin, e->row_end);
		else if (bug == BUG_ARRIVAL_ORDER)
			printf("placed  rank 0 stacks its own rows last, at C[%" PRIu32 ":%" PRIu32
			       "]\n", e->row_begin, e->row_end);
		break;
	default: /* receives mirror the sends above */
		break;
	}
}

void report_events(const struct ev *ev, size_t n_ev, const struct dm_plan *p)
{
	for (size_t i = 0; i < n_ev; i++)
		report_event(&ev[i], p);
}

/* Where a mode's peaks and sends came from, in words. */
static const char *report_source(const struct model_compare *c, int mode,
				 const struct dm_plan *p)
{
	if (c->model[mode])
		return mode == (int)plan_mode(p) && plan_bug(p)
			       ? "from the model of the correct ring (this run had a bug)"
			       : "from the model (the accounting a correct run makes, worked out)";
	if (c->ran[mode])
		return "measured in a run made for this table (--compare)";
	return "measured in this run";
}

/* The memory argument in numbers: both modes, the model and the peaks. */
void report_compare(const struct mat *a, const struct mat *b, const struct dm_plan *p,
		    const struct run_config *cfg, const struct ev_summary *sum, int run_other)
{
	struct model_compare c;
	struct dm_plan *other;
	struct dm_err err;
	uint64_t limit = cfg->mem_limit ? cfg->mem_limit : UINT64_MAX;
	if (plan_devices(p) > REPORT_COMPARE_DEVICES || plan_dup(&other, p, &err))
		return;
	if (model_compare_build(&c, p, a, b, cfg, run_other ? limit : 0, sum, &err)) {
		plan_free(other);
		return;
	}
	/* what no run measured comes from the model: the other mode, or both
	 * when this run had a bug (its figures are the bug's) */
	uint64_t need[2] = { 0, 0 };
	for (int m = 0; m < 2; m++)
		if (c.model[m] && !plan_set_mode(other, m, NULL))
			need[m] = run_estimate_bytes(other, a->rows, a->cols, b->cols, RUN_KEEP_NONE);
	plan_free(other);
	printf("DP vs FSDP (bytes; the model: the engine's accounting with the real shard sizes):\n");
	printf("  %-8s %12s %12s %12s %12s %12s %12s\n", "", "DP model", "DP peak", "FSDP model",
	       "FSDP peak", "DP sent", "FSDP sent");
	for (int i = 0; i <= c.n; i++) {
		char name[16];
		const uint64_t *f = i < c.n ? c.dev[i].formula : c.total_formula;
		const uint64_t *pk = i < c.n ? c.dev[i].measured : c.total_measured;
		const uint64_t *snt = i < c.n ? c.dev[i].sent : c.total_sent;
		snprintf(name, sizeof name, i < c.n ? "rank %d" : "total", i);
		printf("  %-8s %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64
		       " %12" PRIu64 "\n",
		       name, f[DM_DP], pk[DM_DP], f[DM_FSDP], pk[DM_FSDP], snt[DM_DP], snt[DM_FSDP]);
	}
	char saving[320];
	modelw_saving_line(&c, saving, sizeof saving);
	printf("  rank 0's figures include the gathered C (%" PRIu64 " bytes) in both modes\n",
	       c.gathered);
	for (int k = 0; k < 2; k++) {
		int m = k ? DM_DP : DM_FSDP;
		printf("  %s peaks and sends: %s", plan_mode_name(m), report_source(&c, m, p));
		if (c.model[m] && run_other && need[m] > limit)
			printf("; not run: it needs about %.1f MiB, more than the %.1f MiB available",
			       (double)need[m] / 1048576.0, (double)limit / 1048576.0);
		else if (c.model[m] && run_other)
			printf("; the run made for this table failed");
		else if (c.model[m])
			printf("; --compare runs it");
		printf("\n");
	}
	printf("  %s\n", saving);
	if (!c.even && c.n > 1)
		printf("  N does not split evenly: the textbook A_r + 2*B/n + C_r gives %" PRIu64
		       " for rank 0 (without C); the model uses the real shard sizes\n",
		       c.dev[0].textbook[DM_FSDP]);
	model_compare_free(&c);
}

void report_summary(const struct ev_summary *sum, const struct dm_plan *p, size_t M, size_t K,
		    size_t N)
{
	int mode = plan_mode(p), n = plan_devices(p);
	uint64_t peak = 0, dp = 0, sent = 0, recv = 0;
	struct dm_plan *dp_plan; /* like with like: rank 0 with the gathered C */
	if (plan_make(&dp_plan, DM_DP, n, DM_FORWARD, NULL)) {
		status_error("out of memory");
		return;
	}
	printf("memory and traffic (bytes):\n");
	printf("  %-8s %12s %14s %12s %12s\n", "", "peak held", "DP would hold", "sent",
	       "received");
	for (int i = 0; i < n; i++) {
		struct model_fwd dpm;
		model_fwd_rank(dp_plan, i, M, K, N, &dpm);
		uint64_t dpb = dpm.peak;
		char name[16];
		snprintf(name, sizeof name, "rank %d", i);
		printf("  %-8s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", name,
		       sum[i].peak_bytes, dpb, sum[i].sent_bytes, sum[i].recv_bytes);
		peak += sum[i].peak_bytes;
		dp += dpb;
		sent += sum[i].sent_bytes;
		recv += sum[i].recv_bytes;
	}
	printf("  %-8s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "total", peak,
	       dp, sent, recv);
	plan_free(dp_plan);
	if (mode == DM_FSDP && n > 1) {
		char share[512];
		modelw_ring_share(p, M, K, N, share, sizeof share);
		printf("  the ring: each rank sends %s; rank 0's figures include the gathered C in "
		       "both columns\n",
		       share);
	}
	else if (n > 1)
		printf("  DP: every rank holds all of B; rank 0's figures include the gathered C; the "
		       "sends are the gather's (giving each device its B is not counted)\n");
	else
		printf("  one device: it holds all of A, B and C (and C again, gathered), in either "
		       "mode\n");
}

void report_deadlock(const struct run_snapshot *s)
{
	char cycle[512], what[128];
	deadlock_cycle(s, cycle, sizeof cycle);
	printf("deadlock, the cycle of waits: %s\n", cycle);
	for (int i = 0; i < s->n; i++) {
		const struct run_dev_view *v = &s->dev[i];
		if (deadlock_wait_text(s, i, what, sizeof what))
			printf("  rank %d %s\n", i, what);
		if (v->rx_state == RUN_WAIT_RECV)
			printf("  rank %d's receive thread waits to receive from rank %d\n", i,
			       v->rx_peer);
	}
	printf("%s\n%s\n", deadlock_why(s), deadlock_fix(s));
}

void report_threads(const struct run_snapshot *s)
{
	int all = 0, extra = 0;
	for (int i = 0; i < s->n; i++) {
		all += s->dev[i].threads;
		extra += s->dev[i].threads > 1;
	}
	if (extra)
		printf("threads: %d for %d devices (%d with a receive thread beside the device's "
		       "own)\n", all, s->n, extra);
}

/* Freivalds' bound, as the verification line states it: |Cx - A(Bx)| for
 * the forward's C, |dAx - dC(B^Tx)| for dA... */
#define REPORT_BOUND_FMT "|%sx - %s| <= (1e-8*sum|x| + 1e-5*|%s||x|)/(1 - 1e-5)"

static int report_exact(const struct report_product *p, struct verify_op a, struct verify_op b,
			const struct mat *c)
{
	struct verify_result v;
	struct dm_err err;
	if (verify_exact_op(a, b, c, &v, &err)) {
		status_error("%s", err.msg);
		return STATUS_MISMATCH; /* unverified is not verified */
	}
	if (v.ok && v.n_nonfinite) {
		/* the rule is allclose with equal_nan: say when that is what passed */
		printf("%s: allclose ok, max |err| = %.3g; NaN-equal: the %zu NaN or infinite "
		       "elements of %s are the same in %s (the inputs hold a NaN or an infinity)\n",
		       p->label, v.max_abs_err, v.n_nonfinite, p->prod, p->c);
		return STATUS_OK;
	}
	if (v.ok) {
		printf("%s: allclose ok, max |err| = %.3g\n", p->label, v.max_abs_err);
		return STATUS_OK;
	}
	printf("%s: MISMATCH, %zu of %zu elements differ from %s, max |err| = %.3g\n", p->label,
	       v.n_bad, v.checked, p->prod, v.max_abs_err);
	return STATUS_MISMATCH;
}

int report_verify_product(const struct cli_opts *o, const struct report_product *p,
			  struct verify_op a, struct verify_op b, const struct mat *c,
			  uint64_t seed)
{
	struct verify_result v;
	struct dm_err err;
	size_t M = c->rows, K = a.trans ? a.m->rows : a.m->cols, N = c->cols;
	int method = o->verify == CLI_VERIFY_EXACT       ? VERIFY_EXACT
		     : o->verify == CLI_VERIFY_FREIVALDS ? VERIFY_FREIVALDS
							 : verify_auto_method(M, K, N);
	if (method == VERIFY_EXACT)
		return report_exact(p, a, b, c);
	if (verify_freivalds_op(a, b, c, VERIFY_VECTORS, seed, &v, &err)) {
		status_error("%s", err.msg);
		return STATUS_MISMATCH;
	}
	if (!v.decided) {
		printf("%s: Freivalds cannot decide (a value in %s, or a projection, is not "
		       "finite): the exact check instead\n", p->label, p->names);
		return report_exact(p, a, b, c);
	}
	if (v.ok) {
		printf("%s: Freivalds ok, %d random +-1 vectors x, " REPORT_BOUND_FMT " in all %zu "
		       "rows (bounds %.3g..%.3g, the worst at %.2g of its bound); an element off by "
		       "more than its row's bound passes with probability <= 2^-%d\n",
		       p->label, v.vectors, p->c, p->proj, p->c, v.checked, v.bound_min,
		       v.bound_max, v.worst_ratio, v.vectors);
		return STATUS_OK;
	}
	printf("%s: MISMATCH (Freivalds, %d random +-1 vectors x): %zu of %zu rows of %s differ "
	       "from %s beyond " REPORT_BOUND_FMT ", the first row %zu, the worst |%sx - %s| = "
	       "%.3g at %.3g times its bound\n",
	       p->label, v.vectors, v.n_bad, v.checked, p->c, p->prod, p->c, p->proj, p->c,
	       v.first_bad, p->c, p->proj, v.max_abs_err, v.worst_ratio);
	return STATUS_MISMATCH;
}

int report_verify(const struct cli_opts *o, const struct mat *a, const struct mat *b,
		  const struct mat *c)
{
	static const struct report_product fwd = { "verify", "C", "A @ B", "A(Bx)", "A, B or C" };
	/* the vectors from the run's seed: the same line for the same command */
	return report_verify_product(o, &fwd, (struct verify_op){ a, 0 },
				     (struct verify_op){ b, 0 }, c, o->seed ^ 0xf4e1a1d5ULL);
}

/* A bad -o costs one line and no half-done run. */
int report_check_output(const char *path, int need_kind, struct dm_err *err)
{
	struct stat st;
	char dir[4096];
	if (need_kind && matio_kind_of(path) == MATIO_UNKNOWN)
		return dm_err_set(err, DM_EINVAL, "%s: unknown file type (use .npy or .csv)", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return dm_err_set(err, DM_EIO, "cannot write %s: it is a directory", path);
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return 0; /* a device, FIFO or link, written in place (outfile.h): nothing beside it */
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 1;
	if (len >= sizeof dir)
		return dm_err_set(err, DM_EIO, "cannot write %s: path too long", path);
	memcpy(dir, slash ? path : ".", len);
	dir[len] = '\0';
	if (len == 0)
		strcpy(dir, "/");
	if (access(dir, W_OK) != 0)
		return dm_err_set(err, DM_EIO, "cannot write %s: %s", path, strerror(errno));
	return 0;
}

int report_write_outputs(const struct cli_opts *o, const struct ev *ev, size_t n_ev,
			 const struct ev_summary *sum, const struct dm_plan *p, const struct mat *c)
{
	struct dm_err err;
	int rc = 0;
	if (o->trace_file) {
		if (o->trace_format == CLI_TRACE_CHROME)
			rc = trace_write_chrome(o->trace_file, p, ev, n_ev, &err);
		else
			rc = trace_write_jsonl(o->trace_file, p, ev, n_ev, sum, &err);
	}
	if (!rc && o->out_file && c)
		rc = matio_write(o->out_file, c, &err);
	if (rc) {
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}
	return STATUS_OK;
}

/* Batch mode has no loop that could act on a flag: the output being written
 * is one long call into the engine.  So the handler itself removes the
 * temporary files (outfile_unlink_pending is async-signal-safe), then lets
 * the signal end the process as it would have. */
static void report_on_signal(int sig)
{
	outfile_unlink_pending();
	signal(sig, SIG_DFL);
	raise(sig);
}

void report_catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = report_on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaddset(&sa.sa_mask, sigs[i]); /* one clean-up at a time */
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction old;
		/* one ignored from the start stays so: nohup's SIGHUP, the SIGINT
		 * of a script's background job */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}
