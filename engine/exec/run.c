/* exec/: running a multiply: the controller (run.c), the step barrier (barrier.c), a device's memory
 * and gather (device.c), the per-rank algorithms (dp.c, fsdp.c), deliberate bugs (bug.c), one MPI rank (mpi_rank.c).
 *
 * run: the in-process controller.  One thread per device runs the same
 * per-rank algorithm (dp.c, fsdp.c) an MPI process would; the step barrier
 * parks them between phases.  The first device to fail closes the transport,
 * so every other wait ends and the controller sees the whole run stop; the
 * error it reports is the first real one, not the "stopped" that follows. */
#include <distmm/run.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>
#include "comm/comm.h"
#include "exec/device.h"
#include "core/fault.h"
#include "core/gemm.h"
#include "core/plan_int.h"
#include <distmm/split.h>
#include "exec/barrier.h"
#include "exec/ccl_device.h"
#include "exec/run_int.h"
#include "exec/tp.h"
#include "core/xalloc.h"
#include "core/schedule_int.h"
#include "exec/bug_int.h"

_Static_assert(RUN_FILL_NONE == DEVICE_FILL_NONE, "fill markers agree");
_Static_assert(RUN_FILL_FULL_B == DEVICE_FILL_FULL_B, "fill markers agree");
_Static_assert(RUN_UNBOUNDED == COMM_UNBOUNDED, "capacities agree");

/* The transport's view of a rank in the run API's own words. */
static int run_wait_state_of(int comm_state)
{
	switch (comm_state) {
	case COMM_IDLE: return RUN_IDLE;
	case COMM_WAIT_SEND: return RUN_WAIT_SEND;
	case COMM_WAIT_RECV: return RUN_WAIT_RECV;
	case COMM_EXITED: return RUN_EXITED;
	default: return RUN_BUSY;
	}
}

struct run {
	struct dm_plan plan;  /* the caller's, copied */
	int train;            /* plan.pass is the training step */
	struct run_config cfg;
	size_t M, K, N;
	int n, phase, phase_count, finished, failed;
	struct comm *comm;
	struct barrier *bar;
	struct device *dev;
	pthread_t *thread;
	int started;          /* threads created */
	struct evlog log;     /* merged, phases 0..phase */
	size_t *cursor;       /* per device: its events already merged */
	struct dm_err err;    /* the run's failure, once it failed */
};

void run_config_default(struct run_config *cfg)
{
	cfg->wait_timeout_ms = 120000;
	cfg->keep = RUN_KEEP_ALL;
	cfg->mem_limit = 0;
	cfg->dc = NULL;
	cfg->e = NULL;
}

int run_phase(const struct run *r) { return r->phase; }
int run_phase_count(const struct run *r) { return r->phase_count; }
int run_devices(const struct run *r) { return r->n; }
const struct dm_plan *run_plan(const struct run *r) { return &r->plan; }

const struct mat *run_result(const struct run *r)
{
	return r->finished ? &r->dev[0].gathered : NULL;
}

const struct mat *run_ccl_output(const struct run *r, int rank)
{
	if (!r->finished || rank < 0 || rank >= r->n)
		return NULL;
	if (r->plan.mode == DM_TP_ROW && r->plan.ccl == CCL_ALLREDUCE) /* rank 0's is the result */
		return rank == 0 ? &r->dev[0].gathered : &r->dev[rank].c;
	if (r->plan.mode == DM_TP_MLP)
		return rank == 0 ? &r->dev[0].gathered : &r->dev[rank].z;
	return r->plan.mode == DM_COLL ? &r->dev[rank].c : NULL;
}

const struct mat *run_result_da(const struct run *r)
{
	return r->finished && r->train ? &r->dev[0].gathered_da : NULL;
}

const struct mat *run_result_db(const struct run *r)
{
	if (!r->finished || !r->train)
		return NULL;
	/* DP: rank 0 holds all of dB after the all-gather, and sends none */
	return r->plan.mode == DM_DP ? &r->dev[0].g : &r->dev[0].gathered_db;
}

const struct ev *run_events(const struct run *r, size_t *count)
{
	*count = r->log.len;
	return r->log.ev;
}

void run_summaries(const struct run *r, struct ev_summary *out)
{
	for (int i = 0; i < r->n; i++)
		out[i] = (struct ev_summary){ i, r->dev[i].peak, r->dev[i].sent, r->dev[i].recvd };
}

/* device_enter_fn for threads: meet the controller at the step barrier. */
static int run_enter(struct device *d, int phase)
{
	struct run *r = d->ctx;
	return barrier_enter(r->bar, d->rank, phase);
}

/* barrier_park_fn: a parked device is idle, not blocked, for deadlock detection.
 * A release (BARRIER_ALL) is one call: the transport marks every idle rank
 * running under one lock acquisition (comm_set_idle with COMM_ANY). */
static void run_park(void *ctx, int rank, int parked)
{
	struct run *r = ctx;
	comm_set_idle(r->comm, rank == BARRIER_ALL ? COMM_ANY : rank, parked);
}

static void *run_device_main(void *arg)
{
	struct device *d = arg;
	struct run *r = d->ctx;
	int rc = device_run(d);
	if (rc && rc != DM_ESTOPPED) {
		if (d->err.code == DM_OK) /* an error with no message: say what it was */
			dm_err_set(&d->err, rc, "rank %d: %s", d->rank, dm_status_name(rc));
		comm_close(r->comm); /* wake everyone: the run cannot finish */
	} else if (rc) {
		d->err.code = DM_ESTOPPED;
	}
	/* exited before leaving: once the controller sees every device gone,
	 * the transport already says so too */
	comm_set_exited(r->comm, d->rank);
	barrier_leave(r->bar, d->rank);
	return NULL;
}

/* Tensor parallel's device (tp-mlp's with its rows of E), and its part of
 * dC in a training step. */
static int run_setup_tp(const struct run *r, struct device *d, int i, const struct mat *a,
			const struct mat *b, struct dm_err *err)
{
	int rc = tp_setup(d, i, &r->plan, r->M, r->K, r->N, a, b, r->cfg.e, err);
	return rc || !r->train ? rc : tp_setup_train(d, r->cfg.dc, err);
}

/* Gives each device its rows of A and its part of B (device_setup: views
 * of a and b where they can be, copies where they must). */
static int run_setup_device(struct run *r, int i, const struct mat *a, const struct mat *b,
			    struct dm_err *err)
{
	struct device *d = &r->dev[i];
	int rc = r->plan.mode == DM_COLL ? ccldev_setup(d, i, &r->plan, a, err)
		 : plan_mode_tp(r->plan.mode) ? run_setup_tp(r, d, i, a, b, err)
		 : r->train
			 ? device_setup_train(d, i, r->n, r->plan.mode, r->plan.bug, r->M, r->K, r->N, a, b,
					      err)
			 : device_setup(d, i, r->n, r->plan.mode, r->plan.bug, r->M, r->K, r->N, a, b, err);
	if (rc)
		return rc;
	if (r->train && !plan_mode_tp(r->plan.mode)) /* tp_setup_train took its part */
		device_copy_block(&d->dc, r->cfg.dc, d->row_begin, 0);
	d->comm = r->comm;
	d->enter = run_enter;
	d->ctx = r;
	d->order = r->plan.mode == DM_FSDP ? r->plan.order : ORDER_PARITY; /* DP: no ring */
	d->prefetch = r->plan.mode == DM_FSDP && r->plan.prefetch;
	d->log_off = r->cfg.keep == RUN_KEEP_NONE;
	return 0;
}

/* The training step's input besides A and B: dC, with values, C's shape. */
static int run_check_dc(const struct mat *a, const struct mat *b, const struct mat *dc,
			struct dm_err *err)
{
	if (!dc)
		return dm_err_set(err, DM_EINVAL, "a training step needs dC, the gradient of C");
	if (dc->rows != a->rows || dc->cols != b->cols)
		return dm_err_set(err, DM_EINVAL, "dC is %zux%zu, but C = A @ B is %zux%zu: dC must "
				  "have C's shape", dc->rows, dc->cols, a->rows, b->cols);
	if (!dc->data)
		return dm_err_set(err, DM_EINVAL, "dC has no values");
	return 0;
}

int run_check_shapes(const struct dm_plan *p, const struct mat *a, const struct mat *b,
		     const struct mat *dc, struct dm_err *err)
{
	if (p->mode == DM_COLL)
		return ccldev_check_inputs(p, a, err);
	if (a->cols != b->rows)
		return dm_err_set(err, DM_EINVAL,
				  "shapes do not match: A is %zux%zu, B is %zux%zu "
				  "(A's columns must equal B's rows)",
				  a->rows, a->cols, b->rows, b->cols);
	if (a->rows == 0 || a->cols == 0 || b->cols == 0)
		return dm_err_set(err, DM_EINVAL, "empty matrices: A is %zux%zu, B is %zux%zu",
				  a->rows, a->cols, b->rows, b->cols);
	if (a->rows > RUN_MAX_DIM || a->cols > RUN_MAX_DIM || b->cols > RUN_MAX_DIM ||
	    mat_bytes(a->rows, a->cols) / sizeof(double) > INT_MAX ||
	    mat_bytes(b->rows, b->cols) / sizeof(double) > INT_MAX)
		return dm_err_set(err, DM_EINVAL, "matrices too large: A is %zux%zu, B is %zux%zu",
				  a->rows, a->cols, b->rows, b->cols);
	return p->pass != DM_FORWARD ? run_check_dc(a, b, dc, err) : 0;
}

/* The shapes, the plan's settings together (a training step's order and
 * bug), then the memory: in that order, as a refusal has always read. */
static int run_check(const struct dm_plan *p, const struct run_config *cfg, const struct mat *a,
		     const struct mat *b, struct dm_err *err)
{
	int rc;
	if ((rc = run_check_shapes(p, a, b, cfg->dc, err)) || (rc = plan_check(p, err)) ||
	    (p->mode == DM_TP_MLP && (rc = tp_check_e(p, b, cfg->e, err))))
		return rc;
	uint64_t need = run_estimate_bytes(p, a->rows, a->cols, b ? b->cols : a->cols, cfg->keep);
	if (cfg->mem_limit && need > cfg->mem_limit)
		return dm_err_set(err, DM_ENOMEM,
				  "this run needs about %.1f MiB, more than the %.1f MiB available",
				  (double)need / 1048576.0, (double)cfg->mem_limit / 1048576.0);
	return 0;
}

/* Starts the device threads with every signal blocked (they inherit the
 * mask), so that signals go to the controller thread. */
static int run_start_threads(struct run *r, struct dm_err *err)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc = 0;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, RUN_STACK_BYTES);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	for (int i = 0; i < r->n; i++) {
		int e = fault_thread_fails() ? EAGAIN
					      : pthread_create(&r->thread[i], &attr, run_device_main,
							       &r->dev[i]);
		if (e) {
			rc = dm_err_set(err, DM_ETHREAD, "cannot start the thread of rank %d: %s", i,
					strerror(e));
			break;
		}
		r->started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	return rc;
}

int run_new(struct run **out, const struct dm_plan *p, const struct run_config *cfg,
	    const struct mat *a, const struct mat *b, struct dm_err *err)
{
	struct run_config defaults;
	int rc;
	*out = NULL;
	if (!cfg) {
		run_config_default(&defaults);
		cfg = &defaults;
	}
	if ((rc = run_check(p, cfg, a, b, err)))
		return rc;

	struct run *r = xcalloc(1, sizeof *r);
	if (!r)
		return dm_err_set(err, DM_ENOMEM, "out of memory starting the run");
	r->plan = *p;
	r->train = p->pass != DM_FORWARD;
	r->cfg = *cfg;
	r->n = p->n;
	r->M = a->rows;
	r->K = a->cols;
	r->N = p->mode == DM_COLL ? a->cols : b->cols; /* a collective: its buffer */
	r->phase = -1;
	r->phase_count = sched_phase_count(p);
	r->dev = xcalloc((size_t)r->n, sizeof *r->dev);
	r->thread = xcalloc((size_t)r->n, sizeof *r->thread);
	r->cursor = xcalloc((size_t)r->n, sizeof *r->cursor);
	if (!r->dev || !r->thread || !r->cursor) {
		rc = dm_err_set(err, DM_ENOMEM, "out of memory for %d devices", r->n);
		goto fail;
	}
	if ((rc = comm_inproc_new(&r->comm, r->n, p->capacity, cfg->wait_timeout_ms, err)))
		goto fail;
	if ((rc = barrier_new(&r->bar, r->n, run_park, r, err)))
		goto fail;
	uint64_t t0 = device_now_ns();
	for (int i = 0; i < r->n; i++) {
		if ((rc = run_setup_device(r, i, a, b, err)))
			goto fail;
		r->dev[i].t0_ns = t0;
	}
	r->cfg.dc = NULL; /* the devices have their rows: the caller's dC is not read again */
	gemm_init();
	if ((rc = run_start_threads(r, err)))
		goto fail;
	*out = r;
	return 0;
fail:
	run_free(r);
	return rc;
}

/* After a phase (or the whole run): move the devices' new events into the
 * merged log, phase by phase and rank by rank, so that the order never
 * depends on thread timing. */
static int run_merge_events(struct run *r, int upto_phase)
{
	if (r->cfg.keep == RUN_KEEP_LATEST)
		r->log.len = 0;
	for (int p = r->phase + 1; p <= upto_phase; p++)
		for (int i = 0; i < r->n; i++) {
			struct evlog *dl = &r->dev[i].log;
			while (r->cursor[i] < dl->len && dl->ev[r->cursor[i]].phase == p) {
				if (evlog_push(&r->log, &dl->ev[r->cursor[i]]))
					return dm_err_set(&r->err, DM_ENOMEM,
							  "out of memory for the event log");
				r->cursor[i]++;
			}
			/* the devices are parked or gone: their logs are the
			 * controller's until the next phase starts */
			if (r->cfg.keep == RUN_KEEP_LATEST && r->cursor[i] == dl->len)
				dl->len = r->cursor[i] = 0;
		}
	return 0;
}

/* After the devices stopped at a barrier: the run's error, if any device
 * failed.  A real failure wins over the "stopped" it caused elsewhere. */
static int run_collect_error(struct run *r)
{
	const struct dm_err *first = NULL;
	for (int i = 0; i < r->n; i++) {
		const struct dm_err *e = &r->dev[i].err;
		if (e->code != DM_OK && (!first || (first->code == DM_ESTOPPED &&
						    e->code != DM_ESTOPPED)))
			first = e;
	}
	if (!first)
		return 0;
	r->err = *first;
	r->failed = 1;
	return r->err.code;
}

/* Once every phase ran: a message nobody received means something was sent
 * that should not have been (a duplicate, say), even if C came out right. */
static int run_check_leftovers(struct run *r)
{
	for (int i = 0; i < r->n; i++) {
		struct comm_msg m;
		size_t left = comm_pending(r->comm, i, &m);
		if (left) {
			r->failed = 1;
			return dm_err_set(&r->err, DM_EPROTO,
					  "rank %d was sent %zu message%s it never received (the "
					  "first: %s index %d for step %d from rank %d)",
					  i, left, left == 1 ? "" : "s",
					  m.kind == COMM_SHARD ? "shard" : "row block", m.index, m.step,
					  m.src);
		}
	}
	return 0;
}

/* A run that failed while stepping: ends every wait and returns once every
 * device has left.  Until then a woken device still writes (its error, its
 * exit), and the caller's next snapshot would read those fields meanwhile.
 * The transport is closed first so that no device can be waiting there. */
static void run_stop_devices(struct run *r)
{
	comm_close(r->comm);
	barrier_stop_and_wait(r->bar);
}

static int run_fail(struct run *r, struct dm_err *err)
{
	if (err)
		*err = r->err;
	return r->err.code;
}

/* Runs phases up to `p` (the devices park only after it) and waits.  A
 * phase joined to the next (--prefetch: a compute and the transfer it
 * overlaps) is one stop with it: the devices never park between the two. */
static int run_to(struct run *r, int p, struct dm_err *err)
{
	if (r->failed)
		return run_fail(r, err);
	if (r->finished)
		return 1;
	int rc;
	if (sched_joined(&r->plan, p + 1))
		p++;
	rc = barrier_run_phase(r->bar, p);
	if (run_collect_error(r)) {
		/* keep what the failed phase did: its trace is whole up to there */
		run_merge_events(r, p);
		r->failed = 1;
		run_stop_devices(r);
		return run_fail(r, err);
	}
	if (run_merge_events(r, p)) {
		r->failed = 1;
		run_stop_devices(r);
		return run_fail(r, err);
	}
	if (rc) {
		dm_err_set(&r->err, rc, "the run was stopped");
		r->failed = 1;
		run_stop_devices(r);
		return run_fail(r, err);
	}
	r->phase = p;
	if (p == r->phase_count - 1) {
		if (run_check_leftovers(r))
			return run_fail(r, err);
		r->finished = 1;
		return 1;
	}
	return 0;
}

int run_step(struct run *r, struct dm_err *err)
{
	return run_to(r, r->phase + 1, err);
}

/* A phase logs at most 2n events (see run_estimate_bytes). */
static int run_chunk_phases(const struct run *r)
{
	uint64_t per_phase = 2 * (uint64_t)r->n;
	uint64_t k = RUN_LATEST_EVENTS / per_phase;
	return k < 1 ? 1 : k > (uint64_t)r->phase_count ? r->phase_count : (int)k;
}

int run_advance(struct run *r, struct dm_err *err)
{
	int p = r->phase + run_chunk_phases(r);
	return run_to(r, p < r->phase_count ? p : r->phase_count - 1, err);
}

int run_finish(struct run *r, struct dm_err *err)
{
	if (r->failed)
		return run_fail(r, err);
	if (r->finished)
		return 0;
	/* this wait is for every device to leave, failed or not (a failure
	 * closes the transport, which ends every other wait): nothing writes
	 * a device's state once it returns, so no stop is needed here */
	int rc = barrier_run_free(r->bar);
	if (run_collect_error(r)) {
		/* keep every event the devices logged before they stopped */
		run_merge_events(r, r->phase_count - 1);
		r->failed = 1;
		return run_fail(r, err);
	}
	if (run_merge_events(r, r->phase_count - 1)) {
		r->failed = 1;
		return run_fail(r, err);
	}
	if (rc) {
		dm_err_set(&r->err, rc, "the run was stopped");
		r->failed = 1;
		return run_fail(r, err);
	}
	r->phase = r->phase_count - 1;
	if (run_check_leftovers(r))
		return run_fail(r, err);
	r->finished = 1;
	return 0;
}

void run_free(struct run *r)
{
	if (!r)
		return;
	if (r->started > 0) {
		barrier_stop(r->bar);
		comm_close(r->comm);
		for (int i = 0; i < r->started; i++)
			pthread_join(r->thread[i], NULL);
	}
	if (r->dev)
		for (int i = 0; i < r->n; i++)
			device_release(&r->dev[i]);
	barrier_free(r->bar);
	comm_destroy(r->comm);
	evlog_free(&r->log);
	free(r->dev);
	free(r->thread);
	free(r->cursor);
	free(r);
}

/* The forward's part of a snapshot: the devices' views, the fill of C and
 * with want_values C. */
static int run_snapshot_alloc(struct run_snapshot *s, int n, size_t M, size_t K, size_t N,
			      int want_values, struct dm_err *err)
{
	size_t cells;
	memset(s, 0, sizeof *s);
	s->n = n;
	s->M = M;
	s->K = K;
	s->N = N;
	s->dev = xcalloc((size_t)n, sizeof *s->dev);
	if (!mat_size_mul((size_t)n, N ? N : 1, &cells))
		s->col_fill = xcalloc(cells, sizeof *s->col_fill);
	if (want_values && mat_bytes(M, N) != SIZE_MAX)
		s->c = xcalloc(M * N > 0 ? M * N : 1, sizeof *s->c);
	if (!s->dev || !s->col_fill || (want_values && !s->c)) {
		run_snapshot_free(s);
		return dm_err_set(err, DM_ENOMEM, "out of memory for a snapshot");
	}
	return 0;
}

int run_snapshot_init(struct run_snapshot *s, const struct dm_plan *p, size_t M, size_t K,
		      size_t N, int want_values, struct dm_err *err)
{
	size_t cells, da_cells = 0, db_cells = 0;
	if (p->mode == DM_COLL) { /* no matrices: the devices and their chunks */
		memset(s, 0, sizeof *s);
		s->n = p->n;
		int rc = (s->dev = xcalloc((size_t)p->n, sizeof *s->dev))
				 ? ccldev_snapshot_alloc(s, p, want_values, err)
				 : dm_err_set(err, DM_ENOMEM, "out of memory for a snapshot");
		if (rc)
			run_snapshot_free(s);
		return rc;
	}
	int n = p->n, rc = run_snapshot_alloc(s, n, M, K, N, want_values, err);
	if (!rc)
		s->P = p->mode == DM_TP_MLP ? p->width : 0;
	if (!rc && (p->mode == DM_TP_ROW || p->mode == DM_TP_MLP) &&
	    (rc = tp_snapshot_alloc(s, want_values, err)))
		run_snapshot_free(s);
	if (rc || p->pass == DM_FORWARD)
		return rc;
	if (!mat_size_mul((size_t)n, N ? N : 1, &cells))
		s->db_fill = xcalloc(cells, sizeof *s->db_fill);
	int sized = !mat_size_mul(M, K, &da_cells) && !mat_size_mul(K, N, &db_cells) &&
		    !mat_size_mul(db_cells, (size_t)n, &cells) && mat_bytes(cells, 1) != SIZE_MAX;
	if (want_values && sized) {
		s->da = xcalloc(da_cells ? da_cells : 1, sizeof *s->da);
		s->db = xcalloc(cells ? cells : 1, sizeof *s->db);
		s->db_result = xcalloc(db_cells ? db_cells : 1, sizeof *s->db_result);
	}
	if (!s->db_fill || (want_values && (!s->da || !s->db || !s->db_result))) {
		run_snapshot_free(s);
		return dm_err_set(err, DM_ENOMEM, "out of memory for a snapshot");
	}
	return 0;
}

void run_snapshot_free(struct run_snapshot *s)
{
	free(s->dev);
	free(s->col_fill);
	free(s->c);
	free(s->db_fill);
	free(s->da);
	free(s->db);
	free(s->db_result);
	free(s->ccl_parts);
	free(s->ccl_buf);
	s->ccl_parts = NULL;
	s->ccl_buf = NULL;
	s->dev = NULL;
	s->col_fill = NULL;
	s->c = NULL;
	s->db_fill = NULL;
	s->da = NULL;
	s->db = NULL;
	s->db_result = NULL;
}

/* The training step's part of a device's view. */
static void run_train_view(const struct run *r, const struct device *d, struct run_dev_view *v)
{
	v->da_parts = d->da_parts;
	v->db_sent = d->db_sent;
	v->db_recv = d->db_recv;
	v->db_added = d->db_added;
	v->db_chunk = -1;
	if (r->plan.mode == DM_FSDP && d->db.rows > 0) /* kept (rows K even when its chunk is empty) */
		v->db_chunk = r->n == 1 ? -2 : d->rank;
	else if (r->plan.mode == DM_DP && d->g.data && r->phase >= r->phase_count - 2)
		v->db_chunk = -2; /* after the all-gather's last step (one device: the partial) */
}

/* The training step's values and fills, into a snapshot made for them. */
static void run_train_snapshot(const struct run *r, struct run_snapshot *s)
{
	size_t K = r->K, N = r->N;
	if (!s->db_fill)
		return;
	if (!r->train || plan_mode_tp(r->plan.mode)) {
		/* no gradients; tensor parallel's: rank 0's dA and dB once it has them
		 * (the end), the devices' blocks are not drawn yet */
		const struct device *d0 = &r->dev[0];
		memset(s->db_fill, 0, (size_t)r->n * N * sizeof *s->db_fill);
		if (s->db) {
			memset(s->da, 0, r->M * K * sizeof(double));
			memset(s->db, 0, (size_t)r->n * K * N * sizeof(double));
			memset(s->db_result, 0, K * N * sizeof(double));
		}
		if (s->db && r->train && d0->gathered_da.data && d0->gathered_db.data) {
			memcpy(s->da, d0->gathered_da.data, r->M * K * sizeof(double));
			memcpy(s->db_result, d0->gathered_db.data, K * N * sizeof(double));
		}
		return;
	}
	for (int i = 0; i < r->n; i++) {
		const struct device *d = &r->dev[i];
		if (d->db_fill)
			memcpy(&s->db_fill[(size_t)i * N], d->db_fill, N * sizeof(int));
		else
			memset(&s->db_fill[(size_t)i * N], 0, N * sizeof(int));
		if (!s->db)
			continue;
		double *out = &s->db[(size_t)i * K * N];
		size_t rows = d->row_end - d->row_begin;
		memset(out, 0, K * N * sizeof(double));
		if (d->g.data) {
			memcpy(out, d->g.data, K * N * sizeof(double));
		} else if (d->db.data) {
			size_t c0 = split_offset(N, r->n, i), w = d->db.cols;
			for (size_t k = 0; k < K; k++)
				memcpy(&out[k * N + c0], &d->db.data[k * w], w * sizeof(double));
		}
		if (d->da.data)
			memcpy(&s->da[d->row_begin * K], d->da.data, rows * K * sizeof(double));
		else
			memset(&s->da[d->row_begin * K], 0, rows * K * sizeof(double));
	}
	if (!s->db)
		return;
	const struct device *d0 = &r->dev[0];
	memset(s->db_result, 0, K * N * sizeof(double));
	if (d0->gather_done) {
		memcpy(s->da, d0->gathered_da.data, r->M * K * sizeof(double));
		const struct mat *db = r->plan.mode == DM_DP ? &d0->g : &d0->gathered_db;
		memcpy(s->db_result, db->data, K * N * sizeof(double));
	}
}

void run_snapshot_take(const struct run *r, struct run_snapshot *s)
{
	s->mode = r->plan.mode;
	s->bug = bug_applies_to(r->plan.bug, r->plan.mode, DM_FORWARD) ? r->plan.bug : 0;
	s->order = r->plan.mode == DM_FSDP ? r->plan.order : ORDER_PARITY;
	s->n = r->n;
	s->M = r->M;
	s->K = r->K;
	s->N = r->N;
	s->phase = r->phase;
	s->phase_count = r->phase_count;
	s->finished = r->finished;
	s->event_count = r->log.len;
	s->pass = r->plan.pass;
	s->kind = r->phase >= 0 ? sched_phase_kind(&r->plan, r->phase) : SCHED_NONE;
	uint64_t b_bytes = mat_bytes(r->K, r->N);
	int coll = r->plan.mode == DM_COLL; /* no B, no C: its chunks instead */
	for (int i = 0; i < r->n; i++) {
		const struct device *d = &r->dev[i];
		struct run_dev_view *v = &s->dev[i];
		struct comm_wait w, rx;
		size_t rows = d->row_end - d->row_begin;
		comm_get_wait(r->comm, i, &w);
		comm_get_rx_wait(r->comm, i, &rx);
		v->row_begin = d->row_begin;
		v->row_end = d->row_end;
		v->shard = r->plan.mode == DM_FSDP ? d->shard : -1;
		v->shard_col_begin = v->shard >= 0 ? split_offset(r->N, r->n, v->shard) : 0;
		v->shard_col_end = v->shard >= 0 ? v->shard_col_begin + d->b.cols : 0;
		v->holds_full_b = r->plan.mode == DM_DP && d->b.data != NULL;
		v->held_bytes = d->held;
		v->peak_bytes = d->peak;
		v->sent_bytes = d->sent;
		v->recv_bytes = d->recvd;
		v->dp_bytes = coll ? 0 : mat_bytes(rows, r->K) + b_bytes + mat_bytes(rows, r->N);
		v->sent_shard = d->sent_shard;
		v->sent_to = d->sent_to;
		v->recv_shard = d->recv_shard;
		v->recv_from = d->recv_from;
		v->wait_state = run_wait_state_of(w.state);
		v->wait_peer = w.peer;
		v->wait_shard = w.state == COMM_WAIT_SEND && w.kind == COMM_SHARD ? w.index : -1;
		v->wait_via_rx = w.state == COMM_WAIT_RECV && w.via_rx;
		/* the recv-thread fix's second thread lives as long as the ring */
		v->threads = s->order == ORDER_RECV_THREAD && r->n > 1 ? 2 : 1;
		v->rx_state = run_wait_state_of(rx.state);
		v->rx_peer = rx.peer;
		v->failed = d->err.code != DM_OK && d->err.code != DM_ESTOPPED;
		run_train_view(r, d, v);
		if (s->col_fill)
			memcpy(&s->col_fill[(size_t)i * r->N], d->col_fill, r->N * sizeof(int));
		if (s->c && plan_mode_tp(r->plan.mode))
			tp_snapshot_c(d, s->c); /* its own layout of C */
		else if (s->c && d->c.data)
			memcpy(&s->c[d->row_begin * r->N], d->c.data,
			       rows * r->N * sizeof(double));
	}
	/* tp-mlp's gathered is Z, M x P: c stays H, as the ranks hold it */
	if (s->c && r->dev[0].gather_done && r->plan.mode != DM_TP_MLP)
		memcpy(s->c, r->dev[0].gathered.data, r->M * r->N * sizeof(double));
	if (coll)
		ccldev_snapshot_take(r->dev, r->n, s);
	else if (r->plan.mode == DM_TP_ROW || r->plan.mode == DM_TP_MLP)
		tp_snapshot_partials(r->dev, r->n, s);
	run_train_snapshot(r, s);
}
