/* batch: -b.  Runs free to the end, then prints the schedule from the event
 * log (ordered by phase and rank, so the output is the same on every run),
 * then the accounting and the check against the sequential product. */
#include "batch.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bug.h"
#include "comm.h"
#include "compare.h"
#include "deadlock.h"
#include "evlog.h"
#include "inputs.h"
#include "matio.h"
#include "run.h"
#include "schedule.h"
#include "status.h"

/* The DP-vs-FSDP table runs the other mode too: only when that is cheap. */
#define BATCH_COMPARE_MAX (256ull << 20)
#define BATCH_COMPARE_DEVICES 64

static void batch_print_event(const struct ev *e, int mode, int n, int bug)
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

/* The memory argument in numbers: both modes, formula and measurement. */
static void batch_print_compare(const struct mat *a, const struct mat *b,
				const struct run_config *cfg)
{
	struct compare c;
	struct dm_err err;
	if (compare_build(&c, a, b, cfg, BATCH_COMPARE_MAX, &err))
		return;
	printf("DP vs FSDP (bytes; formula DP: A_r + B + C_r, FSDP: A_r + 2*B/n + C_r):\n");
	printf("  %-8s %12s %12s %12s %12s %12s %12s\n", "", "DP formula", "DP peak", "FSDP formula",
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
	printf("  rank 0's peaks include the gathered C (%" PRIu64 " bytes); DP holds B on all %d "
	       "devices, FSDP about 2/%d of it on each\n",
	       c.gathered, c.n, c.n);
	compare_free(&c);
}

static void batch_print_summary(const struct run *r, const struct run_snapshot *s)
{
	uint64_t peak = 0, dp = 0, sent = 0, recv = 0;
	printf("memory and traffic (bytes):\n");
	printf("  %-8s %12s %14s %12s %12s\n", "", "peak held", "DP would hold", "sent",
	       "received");
	for (int i = 0; i < s->n; i++) {
		const struct run_dev_view *v = &s->dev[i];
		char name[16];
		snprintf(name, sizeof name, "rank %d", i);
		printf("  %-8s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", name,
		       v->peak_bytes, v->dp_bytes, v->sent_bytes, v->recv_bytes);
		peak += v->peak_bytes;
		dp += v->dp_bytes;
		sent += v->sent_bytes;
		recv += v->recv_bytes;
	}
	printf("  %-8s %12" PRIu64 " %14" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", "total", peak,
	       dp, sent, recv);
	if (run_mode(r) == DM_FSDP && s->n > 1)
		printf("  the ring: each rank sends %d/%d of B; rank 0 also holds the gathered C\n",
		       s->n - 1, s->n);
	else if (s->n > 1)
		printf("  DP: every rank holds all of B; rank 0 also holds the gathered C\n");
}

static void batch_print_deadlock(const struct run_snapshot *s)
{
	char cycle[512];
	deadlock_cycle(s, cycle, sizeof cycle);
	printf("deadlock, the cycle of waits: %s\n", cycle);
	for (int i = 0; i < s->n; i++) {
		const struct run_dev_view *v = &s->dev[i];
		if (v->comm_state == COMM_WAIT_SEND)
			printf("  rank %d waits to send to rank %d\n", i, v->wait_peer);
		else if (v->comm_state == COMM_WAIT_RECV)
			printf("  rank %d waits to receive from rank %d\n", i, v->wait_peer);
	}
	printf("%s\n%s\n", deadlock_why(), deadlock_fix());
}

static int batch_write_outputs(const struct cli_opts *o, const struct run *r,
			       const struct mat *c)
{
	struct dm_err err;
	if (o->trace_file) {
		size_t n_ev;
		const struct ev *ev = run_events(r, &n_ev);
		struct ev_summary *sum = calloc((size_t)run_devices(r), sizeof *sum);
		if (!sum) {
			status_error("out of memory writing %s", o->trace_file);
			return STATUS_USAGE;
		}
		run_summaries(r, sum);
		int rc = evlog_write_jsonl(o->trace_file, ev, n_ev, sum, (size_t)run_devices(r), &err);
		free(sum);
		if (rc) {
			status_error("%s", err.msg);
			return STATUS_USAGE;
		}
	}
	if (o->out_file && c && matio_write(o->out_file, c, &err)) {
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}
	return STATUS_OK;
}

/* Refuses an output path that cannot be written before anything runs, so a
 * bad -o costs one line and no half-done run. */
static int batch_check_output(const char *path, int need_kind, struct dm_err *err)
{
	struct stat st;
	char dir[4096];
	if (need_kind && matio_kind_of(path) == MATIO_UNKNOWN)
		return dm_err_set(err, DM_EINVAL, "%s: unknown file type (use .npy or .csv)", path);
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return dm_err_set(err, DM_EIO, "cannot write %s: it is a directory", path);
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

int batch_main(const struct cli_opts *o)
{
	struct mat a, b, ref = { 0, 0, NULL };
	struct run_config cfg;
	struct run_snapshot snap = { 0 };
	struct run *r = NULL;
	struct dm_err err;
	int status, rc;

	if ((o->out_file && (rc = batch_check_output(o->out_file, 1, &err))) ||
	    (o->trace_file && (rc = batch_check_output(o->trace_file, 0, &err)))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if ((rc = inputs_load(o, &a, &b, &err))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	inputs_run_config(o, &a, &b, &cfg);
	if ((rc = run_new(&r, &cfg, &a, &b, &err)) ||
	    (rc = run_snapshot_init(&snap, cfg.devices, a.rows, b.cols, 0, &err)) ||
	    (rc = mat_matmul(&ref, &a, &b, &err))) {
		status_error("%s", err.msg);
		status = status_of(rc);
		goto out;
	}

	printf("distmm-tui batch: %s, %d device%s, A %zux%zu, B %zux%zu, values %s, seed %" PRIu64
	       "%s%s\n",
	       sched_mode_name(cfg.mode), cfg.devices, cfg.devices == 1 ? "" : "s", a.rows, a.cols,
	       b.rows, b.cols, o->a_file || o->b_file ? "from files"
			       : o->values == MAT_VALUES_INTS ? "ints" : "floats",
	       o->seed, cfg.bug ? ", bug " : "", cfg.bug ? bug_name(cfg.bug) : "");
	if (cfg.bug)
		printf("the bug: %s\n", bug_describe(cfg.bug));
	int run_rc = run_finish(r, &err);
	run_snapshot_take(r, &snap);
	if (!o->quiet) {
		size_t n_ev;
		const struct ev *ev = run_events(r, &n_ev);
		for (size_t i = 0; i < n_ev; i++)
			batch_print_event(&ev[i], cfg.mode, cfg.devices, cfg.bug);
	}
	if (run_rc) {
		fflush(stdout);
		status_error("%s", err.msg);
		if (run_rc == DM_EDEADLOCK)
			batch_print_deadlock(&snap);
		status = run_rc == DM_EDEADLOCK ? STATUS_DEADLOCK : STATUS_MISMATCH;
		batch_write_outputs(o, r, NULL);
		goto out;
	}
	batch_print_summary(r, &snap);
	if (cfg.devices <= BATCH_COMPARE_DEVICES)
		batch_print_compare(&a, &b, &cfg);

	const struct mat *c = run_result(r);
	double max_err;
	size_t n_bad;
	int ok = mat_allclose(c, &ref, &max_err, &n_bad);
	status = batch_write_outputs(o, r, c);
	if (status == STATUS_OK) {
		if (ok) {
			printf("verify: allclose ok, max |err| = %.3g\n", max_err);
		} else {
			printf("verify: MISMATCH, %zu of %zu elements differ from A @ B, "
			       "max |err| = %.3g\n",
			       n_bad, c->rows * c->cols, max_err);
			status = STATUS_MISMATCH;
		}
	}
out:
	run_snapshot_free(&snap);
	run_free(r);
	mat_free(&ref);
	mat_free(&a);
	mat_free(&b);
	return status;
}
