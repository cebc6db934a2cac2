/* report: what batch mode prints (see report.h).  Every line is derived from
 * the event log and the per-rank totals, so the in-process run and the MPI
 * run print the same account of the same schedule. */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <distmm/bug.h>
#include "compare.h"
#include "deadlock.h"
#include <distmm/matio.h>
#include <distmm/schedule.h>
#include <distmm/split.h>
#include "status.h"
#include <distmm/trace.h>

/* The DP-vs-FSDP table runs the other mode too: only when that is cheap. */
#define REPORT_COMPARE_MAX (256ull << 20)
#define REPORT_COMPARE_DEVICES 64

void report_header(const char *who, const struct cli_opts *o, int mode, int n, int bug,
		   size_t M, size_t K, size_t N)
{
	printf("%s: %s, %d device%s, A %zux%zu, B %zux%zu, values %s, seed %" PRIu64 "%s%s\n", who,
	       sched_mode_name(mode), n, n == 1 ? "" : "s", M, K, K, N,
	       o->a_file || o->b_file ? "from files"
	       : o->values == MAT_VALUES_INTS ? "ints" : "floats",
	       o->seed, bug ? ", bug " : "", bug ? bug_name(bug) : "");
	if (bug)
		printf("the bug: %s\n", bug_describe(bug));
}

static void report_event(const struct ev *e, int mode, int n, int bug)
{
	char f[64];
	switch (e->op) {
	case EV_COMPUTE:
		if (mode == DM_FSDP && bug != BUG_NONE) {
			/* the mistake at work: what it holds, and where its formula puts it */
			bug_formula(bug, n, e->rank, e->step, f, sizeof f);
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
	default: /* receives and placements mirror the sends above */
		break;
	}
}

void report_events(const struct ev *ev, size_t n_ev, int mode, int n, int bug)
{
	for (size_t i = 0; i < n_ev; i++)
		report_event(&ev[i], mode, n, bug);
}

/* The memory argument in numbers: both modes, formula and measurement. */
void report_compare(const struct mat *a, const struct mat *b, const struct run_config *cfg,
		    const struct ev_summary *sum)
{
	struct compare c;
	struct dm_err err;
	if (cfg->devices > REPORT_COMPARE_DEVICES || compare_build(&c, a, b, cfg, REPORT_COMPARE_MAX, sum, &err))
		return;
	printf("DP vs FSDP (bytes; the model: the engine's accounting with the real shard sizes):\n");
	printf("  %-8s %12s %12s %12s %12s %12s %12s\n", "", "DP model", "DP peak", "FSDP model",
	       "FSDP peak", "DP sent", "FSDP sent");
	for (int i = 0; i <= c.n; i++) {
		char name[16], m[4][24];
		const uint64_t *f = i < c.n ? c.dev[i].formula : c.total_formula;
		const uint64_t *p = i < c.n ? c.dev[i].measured : c.total_measured;
		const uint64_t *snt = i < c.n ? c.dev[i].sent : c.total_sent;
		snprintf(name, sizeof name, i < c.n ? "rank %d" : "total", i);
		for (int k = 0; k < 2; k++) {
			int mode = k ? DM_FSDP : DM_DP;
			if (c.measured[mode]) {
				snprintf(m[k], sizeof m[k], "%" PRIu64, p[mode]);
				snprintf(m[2 + k], sizeof m[2 + k], "%" PRIu64, snt[mode]);
			} else {
				snprintf(m[k], sizeof m[k], "not run");
				snprintf(m[2 + k], sizeof m[2 + k], "-");
			}
		}
		printf("  %-8s %12" PRIu64 " %12s %12" PRIu64 " %12s %12s %12s\n", name, f[DM_DP], m[0],
		       f[DM_FSDP], m[1], m[2], m[3]);
	}
	char saving[320];
	compare_saving_line(&c, saving, sizeof saving);
	printf("  rank 0's figures include the gathered C (%" PRIu64 " bytes) in both modes\n",
	       c.gathered);
	printf("  %s\n", saving);
	if (!c.even && c.n > 1)
		printf("  N does not split evenly: the textbook A_r + 2*B/n + C_r gives %" PRIu64
		       " for rank 0 (without C); the model uses the real shard sizes\n",
		       c.dev[0].textbook[DM_FSDP]);
	compare_free(&c);
}

void report_summary(const struct ev_summary *sum, int n, int mode, size_t M, size_t K, size_t N)
{
	uint64_t peak = 0, dp = 0, sent = 0, recv = 0;
	printf("memory and traffic (bytes):\n");
	printf("  %-8s %12s %14s %12s %12s\n", "", "peak held", "DP would hold", "sent",
	       "received");
	for (int i = 0; i < n; i++) {
		struct compare_model dpm; /* like with like: rank 0 with the gathered C */
		compare_model_rank(DM_DP, n, i, M, K, N, &dpm);
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
	if (mode == DM_FSDP && n > 1)
		printf("  the ring: each rank sends %d/%d of B; rank 0's figures include the gathered C "
		       "in both columns\n",
		       n - 1, n);
	else if (n > 1)
		printf("  DP: every rank holds all of B; rank 0's figures include the gathered C; the "
		       "sends are the gather's (giving each device its B is not counted)\n");
	else
		printf("  one device: it holds all of A, B and C (and C again, gathered), in either "
		       "mode\n");
}

void report_deadlock(const struct run_snapshot *s)
{
	char cycle[512];
	deadlock_cycle(s, cycle, sizeof cycle);
	printf("deadlock, the cycle of waits: %s\n", cycle);
	for (int i = 0; i < s->n; i++) {
		const struct run_dev_view *v = &s->dev[i];
		if (v->wait_state == RUN_WAIT_SEND)
			printf("  rank %d waits to send to rank %d\n", i, v->wait_peer);
		else if (v->wait_state == RUN_WAIT_RECV)
			printf("  rank %d waits to receive from rank %d\n", i, v->wait_peer);
	}
	printf("%s\n%s\n", deadlock_why(), deadlock_fix());
}

int report_verify(const struct mat *c, const struct mat *ref)
{
	double max_err;
	size_t n_bad;
	if (mat_allclose(c, ref, &max_err, &n_bad)) {
		printf("verify: allclose ok, max |err| = %.3g\n", max_err);
		return STATUS_OK;
	}
	printf("verify: MISMATCH, %zu of %zu elements differ from A @ B, max |err| = %.3g\n", n_bad,
	       c->rows * c->cols, max_err);
	return STATUS_MISMATCH;
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
		return 0; /* a device, FIFO or link, written in place (afile.h): nothing made beside it */
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
			 const struct ev_summary *sum, int n, int mode, const struct mat *c)
{
	struct dm_err err;
	int rc = 0;
	if (o->trace_file) {
		if (o->trace_format == CLI_TRACE_CHROME)
			rc = trace_write_chrome(o->trace_file, ev, n_ev, n, mode, &err);
		else
			rc = evlog_write_jsonl(o->trace_file, ev, n_ev, sum, (size_t)n, &err);
	}
	if (!rc && o->out_file && c)
		rc = matio_write(o->out_file, c, &err);
	if (rc) {
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}
	return STATUS_OK;
}
