/* comm: blocking point-to-point messages between devices.
 * An interface (a table of functions behind an opaque handle) so that the
 * algorithms in dp.c and fsdp.c run unchanged over any transport: the
 * in-process one here (threads and inboxes), MPI later.
 *
 * A message's payload moves: comm_send() takes ownership of msg->data (even
 * when it fails) and comm_recv() hands it to the receiver, who frees it. */
#ifndef DM_COMM_H
#define DM_COMM_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>

#define COMM_ANY (-1)            /* comm_recv from any source */
#define COMM_UNBOUNDED SIZE_MAX  /* capacity: sends never block, like Queue() */

enum comm_kind {
	COMM_SHARD = 1, /* a column shard of B travelling round the ring */
	COMM_BLOCK = 2, /* a row block of C on its way to rank 0 */
	COMM_DB_CHUNK = 3, /* a chunk of dB: a running sum round the ring, or summed */
	COMM_DA_BLOCK = 4, /* a row block of dA on its way to rank 0 */
	COMM_CCL = 5,      /* a collective's range of chunks (index: its first chunk, parts: the
			      ranks' parts each of its chunks holds) */
};

struct comm_msg {
	int src, dst;
	int step;     /* the ring step it belongs to (transfer after step s) */
	int kind;     /* enum comm_kind */
	int index;    /* owner index of the B shard, the rank whose C or dA rows these
			 are, or the dB chunk */
	int parts;    /* a dB chunk: how many ranks' partials its sum holds; else 0 */
	size_t rows, cols;
	double *data; /* rows * cols doubles, malloc'd; NULL when empty */
};

/* What a rank is doing, as seen by the transport (for deadlock reports). */
enum comm_state {
	COMM_RUNNING = 0, /* computing, or between calls */
	COMM_IDLE,        /* parked at the step barrier or finished its work */
	COMM_WAIT_SEND,   /* blocked in comm_send until dst takes the message */
	COMM_WAIT_RECV,   /* blocked in comm_recv until src sends */
	COMM_EXITED,      /* its thread has ended */
};

struct comm_wait {
	int state; /* enum comm_state */
	int peer;  /* the rank it waits on (COMM_ANY for a receive from anyone) */
	int step;  /* the step of the message it waits for */
	int kind;  /* the kind of that message */
	int index; /* a send's message index (its shard), -1 for a receive */
	int via_rx; /* COMM_WAIT_RECV: it waits for its receive thread, which waits on peer */
};

struct comm;

/* Sends msg to msg->dst.  Returns 0 once the channel accepts it (at once when
 * unbounded; when dst takes it at capacity 0), or DM_ESTOPPED (closed),
 * DM_EDEADLOCK, DM_ETIMEOUT, DM_ENOMEM, DM_EINVAL with err filled. */
int comm_send(struct comm *c, struct comm_msg *msg, struct dm_err *err);

/* Receives into *out the oldest message for rank from src (or COMM_ANY);
 * messages from one source arrive in the order they were sent.  step and kind
 * say what the caller expects, for error reports only.  Returns 0 or the
 * errors of comm_send. */
int comm_recv(struct comm *c, int rank, int src, int step, int kind, struct comm_msg *out,
	      struct dm_err *err);

/* rank has parked at the step barrier (idle) or will run again (!idle).
 * The transport uses it to tell a deadlock from a device that is busy.
 * rank COMM_ANY with !idle marks every idle rank running in one call (the
 * barrier's release of all devices at once). */
void comm_set_idle(struct comm *c, int rank, int idle);

/* rank's thread has ended: it will never send again. */
void comm_set_exited(struct comm *c, int rank);

/* Copies what rank is blocked on now; once a deadlock was found, what it
 * was blocked on then (the cycle of waits stays readable after the run). */
void comm_get_wait(struct comm *c, int rank, struct comm_wait *out);

/* Messages sent to rank that it has not received; the first one's header
 * (its data left NULL) in *first when there is one.  A finished run must
 * leave none: one left over is a duplicate or a message sent by mistake. */
size_t comm_pending(struct comm *c, int rank, struct comm_msg *first);

/* Sends msg and receives one from src in one call, like MPI_Sendrecv: the
 * message is posted before the receive waits, and the send's own wait (for
 * room, or for its receiver at capacity 0) comes after it, so a ring of
 * these completes at any capacity.  msg's data moves as in comm_send; *out
 * is as from comm_recv.  Returns 0, an error of comm_send or comm_recv, or
 * DM_EINVAL from a transport without it. */
int comm_sendrecv(struct comm *c, struct comm_msg *msg, int src, int step, int kind,
		  struct comm_msg *out, struct dm_err *err);

/* A buffered send, like MPI_Bsend: queued at once whatever the capacity;
 * the caller has copied the payload into a buffer of its own (and counts
 * it).  Returns as comm_send, never waiting; DM_EINVAL without support. */
int comm_bsend(struct comm *c, struct comm_msg *msg, struct dm_err *err);

/* The receive-thread fix: each rank's second thread (its "rx" thread)
 * receives while the first sends.  The transport keeps the rx thread's wait
 * apart from the rank's own, so that the deadlock detection sees both.
 *
 * comm_rx_arm: the rank's first thread, before it hands a receive to its rx
 *   thread: from now on the rx thread counts as running (so there is no
 *   moment when it would look idle on its way to the receive).
 * comm_rx_recv: the rx thread's receive, as comm_recv; when it ends, either
 *   way, the rx thread is idle again and comm_rx_join returns.
 * comm_rx_join: the first thread waits until that receive is over, counting
 *   meanwhile as waiting for src's message (via_rx).  Returns 0, or
 *   DM_EDEADLOCK / DM_ESTOPPED / DM_ETIMEOUT for its own wait; the rx
 *   thread's result is the caller's to collect.
 * Transports without them: comm_rx_arm does nothing and the other two
 * return DM_EINVAL. */
void comm_rx_arm(struct comm *c, int rank);
int comm_rx_recv(struct comm *c, int rank, int src, int step, int kind, struct comm_msg *out,
		 struct dm_err *err);
int comm_rx_join(struct comm *c, int rank, int src, int step, int kind, struct dm_err *err);

/* What rank's rx thread is blocked on (state COMM_IDLE when it has none or
 * is between receives); after a deadlock, what it was blocked on then. */
void comm_get_rx_wait(struct comm *c, int rank, struct comm_wait *out);

/* Ends every wait with DM_ESTOPPED, now and later. */
void comm_close(struct comm *c);

/* Frees the transport and any messages still in it. */
void comm_destroy(struct comm *c);

/* Number of ranks. */
int comm_size(const struct comm *c);

/* The in-process transport: one inbox per rank, a mutex and condition
 * variables.  capacity is how many untaken messages an inbox holds before a
 * send blocks: COMM_UNBOUNDED, any bound, or 0 (rendezvous: a send completes
 * only when it is received).  It detects a deadlock itself, when every rank
 * that is not idle is blocked in send or recv.  timeout_ms bounds every wait
 * (0: no deadline).  Returns 0, DM_EINVAL or DM_ENOMEM. */
int comm_inproc_new(struct comm **out, int n, size_t capacity, unsigned timeout_ms,
		    struct dm_err *err);

#endif
