/* comm_mpi: the communicator interface over MPI (see comm_mpi.h).
 *
 * Invariants:
 * - Every wait is a nonblocking operation completed by cmpi_wait(), which
 *   also watches the standing receive of an abort note: no wait here can
 *   outlast a rank that failed and said so.
 * - Messages from one source arrive in the order they were sent: a header
 *   and its payload use two tags, and MPI does not let messages of one
 *   (source, tag) overtake each other, so the k-th payload from a rank is the
 *   k-th header's.  A receive from any rank takes the payload from the rank
 *   whose header came.
 * - A buffer an unfinished send may still read is never freed before that
 *   send completes: an abort leaves such sends "orphaned", and
 *   comm_destroy() completes them (it drains every message addressed to this
 *   rank until every rank's sends are done) before freeing anything.
 * - The communicator reports MPI errors (MPI_ERRORS_RETURN): they come back
 *   as DM_EIO with MPI's words, never as an abort from inside the engine.
 *
 * What MPI cannot give, and the in-process transport does: deadlock
 * detection (a rank blocked in MPI cannot tell a slow peer from one that
 * will never send), and the wait states and pending counts it rests on, so
 * set_idle, set_exited and get_wait are absent and pending reports nothing.
 * The programs using this transport refuse the orders that can deadlock
 * (--naive); the correct ring's order (even ranks send first, odd ranks
 * receive first) completes even when every send waits for its receiver. */
#include "comm/comm_mpi.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "comm/comm_impl.h"
#include <distmm/mat.h>
#include "core/xalloc.h"

enum {
	CMPI_TAG_HEADER = 1,  /* a message's header: CMPI_HDR long longs */
	CMPI_TAG_DATA = 2,    /* its payload, in pieces of CMPI_CHUNK doubles */
	CMPI_TAG_ABORT = 3,   /* a rank failed: stop waiting */
	CMPI_TAG_ARRIVE = 4,  /* step barrier: a rank is ready for a phase */
	CMPI_TAG_RELEASE = 5, /* step barrier: rank 0 lets the phase start */
};

enum { CMPI_SRC, CMPI_DST, CMPI_STEP, CMPI_KIND, CMPI_INDEX, CMPI_PARTS, CMPI_ROWS, CMPI_COLS,
       CMPI_HDR };

/* MPI counts are int: a payload goes in pieces of at most 2^27 doubles (1 GiB). */
#define CMPI_CHUNK ((size_t)1 << 27)

/* A send on its way: the header must live as long as the send does. */
struct cmpi_out {
	long long hdr[CMPI_HDR];
	double *data;
	size_t nreq;
	MPI_Request req[]; /* the header's, then one per piece */
};

struct cmpi {
	struct comm base;
	MPI_Comm mc;           /* the transport's own duplicate */
	int rank;
	int closed;            /* this rank sent the abort note, or one came */
	int stopper;           /* the rank whose note came, -1 when none came */
	int abort_note;        /* what this rank's note says: its rank */
	int abort_in;          /* where the standing receive puts a note */
	MPI_Request abort_req; /* the standing receive of an abort note */
	MPI_Request *abort_out; /* n: this rank's notes, once it closed */
	/* the step barrier's notes live here, not on a stack an abort unwinds */
	int arrive_note, arrived, release_note, released;
	MPI_Request arrive_req;
	MPI_Request *release_req; /* n: rank 0's releases */
	/* sends an abort cut short, and buffers they may still read */
	MPI_Request *orphan;
	size_t n_orphan, cap_orphan;
	void **kept;
	size_t n_kept, cap_kept;
};

static struct cmpi *cmpi_of(struct comm *c)
{
	return (struct cmpi *)c;
}

/* An MPI error as DM_EIO, with MPI's own words: "rank R: CALL failed: ..."
 * (rank < 0: not known yet).  MPI's string names the error class too. */
static int cmpi_mpi_error(int rc, const char *call, int rank, struct dm_err *err)
{
	char msg[MPI_MAX_ERROR_STRING];
	int len = 0;
	if (MPI_Error_string(rc, msg, &len) != MPI_SUCCESS || len <= 0)
		len = snprintf(msg, sizeof msg, "MPI error %d", rc);
	msg[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING - 1] = '\0';
	if (rank < 0)
		return dm_err_set(err, DM_EIO, "%s failed: %s", call, msg);
	return dm_err_set(err, DM_EIO, "rank %d: %s failed: %s", rank, call, msg);
}

static int cmpi_stopped(const struct cmpi *cm, struct dm_err *err)
{
	if (cm->stopper >= 0)
		return dm_err_set(err, DM_ESTOPPED, "rank %d stopped: rank %d failed", cm->rank,
				  cm->stopper);
	return dm_err_set(err, DM_ESTOPPED, "the run was stopped");
}

/* Completes *req, or returns DM_ESTOPPED as soon as an abort note is here
 * (then *req is still active: the caller cancels or orphans it).  patient:
 * poll with a short sleep instead of MPI's busy wait, for waits on a person. */
static int cmpi_wait(struct cmpi *cm, MPI_Request *req, MPI_Status *st, int patient,
		     struct dm_err *err)
{
	MPI_Status s;
	int idx = MPI_UNDEFINED, flag = 0, rc;
	if (*req == MPI_REQUEST_NULL)
		return 0;
	while (!flag) {
		if (cm->closed)
			return cmpi_stopped(cm, err);
		MPI_Request rq[2] = { *req, cm->abort_req };
		if (patient) {
			rc = MPI_Testany(2, rq, &idx, &flag, &s);
			if (rc == MPI_SUCCESS && !flag) {
				struct timespec ts = { 0, 2000000L };
				nanosleep(&ts, NULL);
			}
		} else {
			rc = MPI_Waitany(2, rq, &idx, &s);
			flag = 1;
		}
		if (rc != MPI_SUCCESS)
			return cmpi_mpi_error(rc, patient ? "MPI_Testany" : "MPI_Waitany", cm->rank,
					      err);
		*req = rq[0];
		cm->abort_req = rq[1];
	}
	if (idx == 1) {
		cm->closed = 1;
		cm->stopper = cm->abort_in;
		return cmpi_stopped(cm, err);
	}
	if (st)
		*st = s;
	return 0;
}

/* A receive an abort cut short: cancelling a receive always works, and the
 * wait after it returns whether it was cancelled or had just completed. */
static void cmpi_cancel(MPI_Request *req)
{
	if (*req == MPI_REQUEST_NULL)
		return;
	MPI_Cancel(req);
	MPI_Wait(req, MPI_STATUS_IGNORE);
}

/* A send an abort cut short: comm_destroy() completes it.  When even the
 * list cannot grow, MPI is told to forget the request (it completes on its
 * own) and its buffer is leaked rather than freed under MPI's feet. */
static void cmpi_orphan(struct cmpi *cm, MPI_Request *req)
{
	if (*req == MPI_REQUEST_NULL)
		return;
	if (cm->n_orphan == cm->cap_orphan) {
		size_t cap = cm->cap_orphan ? 2 * cm->cap_orphan : 8;
		MPI_Request *p = xrealloc(cm->orphan, cap * sizeof *p);
		if (!p) {
			MPI_Request_free(req);
			cm->n_kept = SIZE_MAX; /* leak every kept buffer: one may be in use */
			return;
		}
		cm->orphan = p;
		cm->cap_orphan = cap;
	}
	cm->orphan[cm->n_orphan++] = *req;
	*req = MPI_REQUEST_NULL;
}

/* Keeps p until comm_destroy() has completed every orphaned send. */
static void cmpi_keep(struct cmpi *cm, void *p)
{
	if (!p || cm->n_kept == SIZE_MAX)
		return;
	if (cm->n_kept == cm->cap_kept) {
		size_t cap = cm->cap_kept ? 2 * cm->cap_kept : 8;
		void **q = xrealloc(cm->kept, cap * sizeof *q);
		if (!q)
			return; /* leaked, never freed while MPI may read it */
		cm->kept = q;
		cm->cap_kept = cap;
	}
	cm->kept[cm->n_kept++] = p;
}

static int cmpi_send(struct comm *c, struct comm_msg *msg, struct dm_err *err)
{
	struct cmpi *cm = cmpi_of(c);
	double *data = msg->data;
	size_t count;
	int rc;

	msg->data = NULL; /* ours now, whatever happens */
	if (msg->src != cm->rank || msg->dst < 0 || msg->dst >= c->n) {
		free(data);
		return dm_err_set(err, DM_EINVAL, "send from rank %d to rank %d on rank %d: no such send",
				  msg->src, msg->dst, cm->rank);
	}
	if (mat_size_mul(msg->rows, msg->cols, &count) || count > SIZE_MAX / sizeof(double) ||
	    (count && !data)) {
		free(data);
		return dm_err_set(err, DM_EINVAL, "rank %d: a %zux%zu message without its data",
				  cm->rank, msg->rows, msg->cols);
	}
	if (cm->closed) {
		free(data);
		return cmpi_stopped(cm, err);
	}
	size_t pieces = (count + CMPI_CHUNK - 1) / CMPI_CHUNK;
	struct cmpi_out *o = xmalloc(sizeof *o + (1 + pieces) * sizeof(MPI_Request));
	if (!o) {
		free(data);
		return dm_err_set(err, DM_ENOMEM, "rank %d: out of memory sending to rank %d",
				  cm->rank, msg->dst);
	}
	o->hdr[CMPI_SRC] = msg->src;
	o->hdr[CMPI_DST] = msg->dst;
	o->hdr[CMPI_STEP] = msg->step;
	o->hdr[CMPI_KIND] = msg->kind;
	o->hdr[CMPI_INDEX] = msg->index;
	o->hdr[CMPI_PARTS] = msg->parts;
	o->hdr[CMPI_ROWS] = (long long)msg->rows;
	o->hdr[CMPI_COLS] = (long long)msg->cols;
	o->data = data;
	o->nreq = 1 + pieces;
	for (size_t i = 0; i < o->nreq; i++)
		o->req[i] = MPI_REQUEST_NULL;

	rc = MPI_Isend(o->hdr, CMPI_HDR, MPI_LONG_LONG, msg->dst, CMPI_TAG_HEADER, cm->mc,
		       &o->req[0]);
	for (size_t k = 0; rc == MPI_SUCCESS && k < pieces; k++) {
		size_t off = k * CMPI_CHUNK, len = count - off < CMPI_CHUNK ? count - off : CMPI_CHUNK;
		rc = MPI_Isend(data + off, (int)len, MPI_DOUBLE, msg->dst, CMPI_TAG_DATA, cm->mc,
			       &o->req[1 + k]);
	}
	if (rc != MPI_SUCCESS)
		rc = cmpi_mpi_error(rc, "MPI_Isend", cm->rank, err);
	for (size_t i = 0; rc == 0 && i < o->nreq; i++)
		rc = cmpi_wait(cm, &o->req[i], NULL, 0, err);
	if (rc) {
		/* what was posted may still be read: completed at comm_destroy() */
		for (size_t i = 0; i < o->nreq; i++)
			cmpi_orphan(cm, &o->req[i]);
		cmpi_keep(cm, o->data);
		cmpi_keep(cm, o);
		return rc;
	}
	free(data);
	free(o);
	return 0;
}

static const char *cmpi_kind_name(int kind)
{
	return kind == COMM_SHARD ? "a shard" : kind == COMM_BLOCK ? "a row block" : "a message";
}

static int cmpi_recv(struct comm *c, int rank, int src, int step, int kind,
		     struct comm_msg *out, struct dm_err *err)
{
	struct cmpi *cm = cmpi_of(c);
	long long hdr[CMPI_HDR];
	MPI_Request rq = MPI_REQUEST_NULL;
	MPI_Status st;
	int rc;

	if (rank != cm->rank || (src != COMM_ANY && (src < 0 || src >= c->n)))
		return dm_err_set(err, DM_EINVAL, "receive at rank %d from rank %d on rank %d: no such receive",
				  rank, src, cm->rank);
	if (cm->closed)
		return cmpi_stopped(cm, err);
	rc = MPI_Irecv(hdr, CMPI_HDR, MPI_LONG_LONG, src == COMM_ANY ? MPI_ANY_SOURCE : src,
		       CMPI_TAG_HEADER, cm->mc, &rq);
	if (rc != MPI_SUCCESS)
		return cmpi_mpi_error(rc, "MPI_Irecv", cm->rank, err);
	if ((rc = cmpi_wait(cm, &rq, &st, 0, err))) {
		cmpi_cancel(&rq);
		if (rc == DM_ESTOPPED && cm->stopper >= 0)
			dm_err_set(err, DM_ESTOPPED,
				   "rank %d stopped waiting for %s (step %d): rank %d failed", rank,
				   cmpi_kind_name(kind), step, cm->stopper);
		return rc;
	}
	int from = st.MPI_SOURCE;
	size_t count;
	/* a payload left unread here is taken by comm_destroy()'s drain: the
	 * rank fails with this error and the run ends anyway */
	if (hdr[CMPI_SRC] != from || hdr[CMPI_DST] != rank || hdr[CMPI_ROWS] < 0 ||
	    hdr[CMPI_COLS] < 0 ||
	    mat_size_mul((size_t)hdr[CMPI_ROWS], (size_t)hdr[CMPI_COLS], &count) ||
	    count > SIZE_MAX / sizeof(double))
		return dm_err_set(err, DM_EPROTO,
				  "rank %d got a malformed header from rank %d (it says %lld -> %lld, "
				  "%lldx%lld)",
				  rank, from, hdr[CMPI_SRC], hdr[CMPI_DST], hdr[CMPI_ROWS],
				  hdr[CMPI_COLS]);
	double *data = count ? xmalloc(count * sizeof(double)) : NULL;
	if (count && !data)
		return dm_err_set(err, DM_ENOMEM, "rank %d: out of memory for a %lldx%lld message",
				  rank, hdr[CMPI_ROWS], hdr[CMPI_COLS]);
	for (size_t off = 0; off < count; off += CMPI_CHUNK) {
		size_t len = count - off < CMPI_CHUNK ? count - off : CMPI_CHUNK;
		int got = 0;
		rc = MPI_Irecv(data + off, (int)len, MPI_DOUBLE, from, CMPI_TAG_DATA, cm->mc, &rq);
		if (rc != MPI_SUCCESS)
			rc = cmpi_mpi_error(rc, "MPI_Irecv", cm->rank, err);
		else if ((rc = cmpi_wait(cm, &rq, &st, 0, err)))
			cmpi_cancel(&rq);
		else if ((rc = MPI_Get_count(&st, MPI_DOUBLE, &got)) != MPI_SUCCESS)
			rc = cmpi_mpi_error(rc, "MPI_Get_count", cm->rank, err);
		else if ((size_t)got != len)
			rc = dm_err_set(err, DM_EPROTO,
					"rank %d: the payload from rank %d has %d values, not %zu",
					rank, from, got, len);
		if (rc) {
			free(data);
			return rc;
		}
	}
	*out = (struct comm_msg){ .src = from, .dst = rank, .step = (int)hdr[CMPI_STEP],
				  .kind = (int)hdr[CMPI_KIND], .index = (int)hdr[CMPI_INDEX],
				  .parts = (int)hdr[CMPI_PARTS],
				  .rows = (size_t)hdr[CMPI_ROWS], .cols = (size_t)hdr[CMPI_COLS],
				  .data = data };
	return 0;
}

/* No pending count over MPI: a message in flight cannot be seen reliably
 * (MPI_Iprobe may miss one that was sent).  A message left over by a
 * mistake is taken and dropped by comm_destroy(). */
static size_t cmpi_pending(struct comm *c, int rank, struct comm_msg *first)
{
	(void)c;
	(void)rank;
	(void)first;
	return 0;
}

/* The job-wide stop: every other rank's current or next wait ends.  Sent
 * once, and not at all when another rank's note already came (that rank
 * told everyone). */
static void cmpi_close(struct comm *c)
{
	struct cmpi *cm = cmpi_of(c);
	if (cm->closed)
		return;
	cm->closed = 1;
	for (int r = 0; r < c->n; r++)
		if (r != cm->rank)
			MPI_Isend(&cm->abort_note, 1, MPI_INT, r, CMPI_TAG_ABORT, cm->mc,
				  &cm->abort_out[r]);
}

static int cmpi_all_done(MPI_Request *req, size_t n)
{
	int flag = 1;
	if (n > 0 && MPI_Testall((int)n, req, &flag, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
		return 1; /* an error completes nothing more: stop waiting for it */
	return flag;
}

/* Every send of this rank has completed (the ones an abort cut short too). */
static int cmpi_sends_done(struct cmpi *cm)
{
	size_t n = (size_t)cm->base.n;
	return cmpi_all_done(cm->abort_out, n) && cmpi_all_done(cm->release_req, n) &&
	       cmpi_all_done(&cm->arrive_req, 1) && cmpi_all_done(cm->orphan, cm->n_orphan);
}

/* Takes one message nobody will receive now, so that its sender can finish. */
static void cmpi_discard(struct cmpi *cm, const MPI_Status *probed)
{
	static char scratch[4096];
	int bytes = 0;
	MPI_Get_count(probed, MPI_BYTE, &bytes);
	void *buf = bytes > (int)sizeof scratch ? malloc((size_t)bytes) : NULL;
	/* without memory it is taken into the scratch, cut short: MPI says so
	 * (ignored), and the message is gone all the same */
	MPI_Recv(buf ? buf : scratch, buf ? bytes : (int)sizeof scratch, MPI_BYTE,
		 probed->MPI_SOURCE, probed->MPI_TAG, cm->mc, MPI_STATUS_IGNORE);
	free(buf);
}

/* Collective: the end of the transport on every rank.  After an abort, sends
 * may wait for receivers that stopped receiving: every rank takes and drops
 * whatever comes to it until every rank's sends are done, which a
 * nonblocking barrier entered after its own sends tells (so nobody is left
 * sending to a rank that has gone).  Then nothing can touch the buffers. */
static void cmpi_destroy(struct comm *c)
{
	struct cmpi *cm = cmpi_of(c);
	MPI_Request bar = MPI_REQUEST_NULL;
	int entered = 0, done = 0;

	while (!done) {
		int flag = 0;
		MPI_Status st;
		if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, cm->mc, &flag, &st) != MPI_SUCCESS)
			break;
		if (flag) {
			cmpi_discard(cm, &st);
			continue;
		}
		if (!entered) {
			if (cmpi_sends_done(cm)) {
				if (MPI_Ibarrier(cm->mc, &bar) != MPI_SUCCESS)
					break;
				entered = 1;
			}
		} else if (MPI_Test(&bar, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
			break;
		}
		if (!done)
			sched_yield();
	}
	cmpi_cancel(&cm->abort_req);
	if (cm->n_kept != SIZE_MAX)
		for (size_t i = 0; i < cm->n_kept; i++)
			free(cm->kept[i]);
	MPI_Comm_free(&cm->mc);
	free(cm->kept);
	free(cm->orphan);
	free(cm->abort_out);
	free(cm->release_req);
	free(cm);
}

int comm_mpi_rank(const struct comm *c)
{
	return ((const struct cmpi *)c)->rank;
}

int comm_mpi_check(struct comm *c, struct dm_err *err)
{
	struct cmpi *cm = cmpi_of(c);
	int flag = 0;
	MPI_Status st;
	if (!cm->closed && cm->abort_req != MPI_REQUEST_NULL &&
	    MPI_Test(&cm->abort_req, &flag, &st) == MPI_SUCCESS && flag) {
		cm->closed = 1;
		cm->stopper = cm->abort_in;
	}
	return cm->closed ? cmpi_stopped(cm, err) : 0;
}

/* Rank 0's half of the barrier: every arrival, the pause, every release. */
static int cmpi_barrier_root(struct cmpi *cm, int phase, int (*pause)(void *, int), void *ctx,
			     struct dm_err *err)
{
	int rc;
	for (int r = 1; r < cm->base.n; r++) {
		MPI_Request rq = MPI_REQUEST_NULL;
		MPI_Status st;
		rc = MPI_Irecv(&cm->arrived, 1, MPI_INT, r, CMPI_TAG_ARRIVE, cm->mc, &rq);
		if (rc != MPI_SUCCESS)
			return cmpi_mpi_error(rc, "MPI_Irecv", cm->rank, err);
		if ((rc = cmpi_wait(cm, &rq, &st, 0, err))) {
			cmpi_cancel(&rq);
			return rc;
		}
		if (cm->arrived != phase)
			return dm_err_set(err, DM_EPROTO,
					  "step barrier: rank %d arrived before phase %d, rank 0 before %d",
					  r, cm->arrived, phase);
	}
	if (pause && (rc = pause(ctx, phase)))
		return dm_err_set(err, rc, "the run was stopped before phase %d", phase);
	cm->release_note = phase;
	for (int r = 1; r < cm->base.n; r++)
		if ((rc = MPI_Isend(&cm->release_note, 1, MPI_INT, r, CMPI_TAG_RELEASE, cm->mc,
				    &cm->release_req[r])) != MPI_SUCCESS)
			return cmpi_mpi_error(rc, "MPI_Isend", cm->rank, err);
	for (int r = 1; r < cm->base.n; r++)
		if ((rc = cmpi_wait(cm, &cm->release_req[r], NULL, 0, err)))
			return rc; /* the rest stay in release_req: comm_destroy() ends them */
	return 0;
}

int comm_mpi_barrier(struct comm *c, int phase, int (*pause)(void *ctx, int phase), void *ctx,
		     struct dm_err *err)
{
	struct cmpi *cm = cmpi_of(c);
	MPI_Request rq = MPI_REQUEST_NULL;
	int rc;

	if (cm->closed)
		return cmpi_stopped(cm, err);
	if (cm->rank == 0)
		return cmpi_barrier_root(cm, phase, pause, ctx, err);
	/* a previous arrival's send is complete: its wait returned 0 */
	cm->arrive_note = phase;
	rc = MPI_Isend(&cm->arrive_note, 1, MPI_INT, 0, CMPI_TAG_ARRIVE, cm->mc, &cm->arrive_req);
	if (rc != MPI_SUCCESS)
		return cmpi_mpi_error(rc, "MPI_Isend", cm->rank, err);
	if ((rc = cmpi_wait(cm, &cm->arrive_req, NULL, 0, err)))
		return rc; /* left in arrive_req for comm_destroy() */
	rc = MPI_Irecv(&cm->released, 1, MPI_INT, 0, CMPI_TAG_RELEASE, cm->mc, &rq);
	if (rc != MPI_SUCCESS)
		return cmpi_mpi_error(rc, "MPI_Irecv", cm->rank, err);
	if ((rc = cmpi_wait(cm, &rq, NULL, 1, err))) {
		cmpi_cancel(&rq);
		return rc;
	}
	if (cm->released != phase)
		return dm_err_set(err, DM_EPROTO, "step barrier: rank %d was released for phase %d, not %d",
				  cm->rank, cm->released, phase);
	return 0;
}

static const struct comm_ops cmpi_ops = {
	.name = "MPI",
	.send = cmpi_send,
	.recv = cmpi_recv,
	.pending = cmpi_pending,
	.close = cmpi_close,
	.destroy = cmpi_destroy,
};

/* This rank's half of comm_mpi_new after the duplicate: its memory, the
 * duplicate's error handler and the standing abort receive.  Returns 0, or
 * an error in err (MPI's words for an MPI call, with its name). */
static int cmpi_prepare(struct cmpi **cmp, MPI_Request **abort_out, MPI_Request **release_req,
			MPI_Request *abort_req, MPI_Comm dup, int rank, int n, struct dm_err *err)
{
	int rc;
	*cmp = xcalloc(1, sizeof **cmp);
	*abort_out = xmalloc((size_t)n * sizeof **abort_out);
	*release_req = xmalloc((size_t)n * sizeof **release_req);
	if (!*cmp || !*abort_out || !*release_req)
		return dm_err_set(err, DM_ENOMEM, "rank %d: out of memory for the transport", rank);
	if ((rc = MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN)) != MPI_SUCCESS)
		return cmpi_mpi_error(rc, "MPI_Comm_set_errhandler", rank, err);
	if ((rc = MPI_Irecv(&(*cmp)->abort_in, 1, MPI_INT, MPI_ANY_SOURCE, CMPI_TAG_ABORT, dup,
			    abort_req)) != MPI_SUCCESS)
		return cmpi_mpi_error(rc, "MPI_Irecv", rank, err);
	return 0;
}

/* Calls on mc follow mc's own error handler: the caller decides whether a
 * failed call on its communicator ends the job (mpi_rank.c's does, since a
 * collective failing on one rank would leave the others waiting).  When
 * they return instead, the error is MPI's, named after the call.  The
 * transport's own duplicate returns errors (MPI_ERRORS_RETURN), always. */
int comm_mpi_new(struct comm **out, MPI_Comm mc, struct dm_err *err)
{
	int rank = -1, n = 0, rc;
	*out = NULL;
	/* local calls, which fail alike on every rank (a bad communicator):
	 * every rank returns before the collectives below */
	if ((rc = MPI_Comm_rank(mc, &rank)) != MPI_SUCCESS)
		return cmpi_mpi_error(rc, "MPI_Comm_rank", -1, err);
	if ((rc = MPI_Comm_size(mc, &n)) != MPI_SUCCESS)
		return cmpi_mpi_error(rc, "MPI_Comm_size", rank, err);
	/* collective: every rank duplicates, and all of them keep the result or
	 * none does (a transport on some ranks only would leave the others'
	 * comm_destroy() waiting for ranks that have none) */
	MPI_Comm dup = MPI_COMM_NULL;
	struct cmpi *cm = NULL;
	MPI_Request *abort_out = NULL, *release_req = NULL;
	MPI_Request abort_req = MPI_REQUEST_NULL;
	struct dm_err mine = { DM_OK, "" };
	int ok = 0, all_ok = 0;
	if ((rc = MPI_Comm_dup(mc, &dup)) != MPI_SUCCESS)
		cmpi_mpi_error(rc, "MPI_Comm_dup", rank, &mine);
	else
		ok = cmpi_prepare(&cm, &abort_out, &release_req, &abort_req, dup, rank, n, &mine) == 0;
	if ((rc = MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, mc)) != MPI_SUCCESS) {
		if (ok)
			cmpi_mpi_error(rc, "MPI_Allreduce", rank, &mine);
		ok = all_ok = 0;
	}
	if (!all_ok) {
		cmpi_cancel(&abort_req); /* nothing was sent: nothing else to drain */
		if (dup != MPI_COMM_NULL)
			MPI_Comm_free(&dup);
		free(cm);
		free(abort_out);
		free(release_req);
		if (!ok) {
			if (err)
				*err = mine;
			return mine.code;
		}
		return dm_err_set(err, DM_ESTOPPED, "rank %d: another rank could not start its transport",
				  rank);
	}
	for (int r = 0; r < n; r++)
		abort_out[r] = release_req[r] = MPI_REQUEST_NULL;
	cm->base.ops = &cmpi_ops;
	cm->base.n = n;
	cm->mc = dup;
	cm->rank = rank;
	cm->stopper = -1;
	cm->abort_note = rank;
	cm->abort_req = abort_req;
	cm->abort_out = abort_out;
	cm->release_req = release_req;
	cm->arrive_req = MPI_REQUEST_NULL;
	*out = &cm->base;
	return 0;
}
