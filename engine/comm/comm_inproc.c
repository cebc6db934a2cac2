/* comm_inproc: the in-process transport, one inbox per rank.
 * One mutex guards every inbox and every rank's wait state, so that deadlock
 * detection sees one consistent picture.  The invariant that makes detection
 * exact (no timeout guess): a rank marks itself WAIT_* before it sleeps, and
 * whoever makes its wait satisfiable marks it RUNNING again, under the same
 * lock, before the sleeper wakes.  So "no rank RUNNING and some rank waiting"
 * means nothing can ever change: a deadlock, or a message that never came.
 * The step barrier's release follows the same rule in one call: every idle
 * rank is marked running (comm_set_idle with COMM_ANY) before any wakes.
 *
 * The waits are kept per agent: agent r < n is rank r's own thread, agent
 * n + r its receive thread under the recv-thread fix (idle, so not counted,
 * while it has no receive to make).  A rank joining its receive thread is
 * itself waiting (via_rx), and the receive thread marks it running when its
 * receive ends: the same rule, so the detection stays exact with two
 * threads a rank. */
#include "comm/comm_impl.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/fault.h"
#include "core/xalloc.h"

struct inproc_node {
	struct comm_msg msg;
	struct inproc_node *next;
	int taken;          /* the receiver has it */
	int sender_waiting; /* the sender still looks at this node: it frees it */
};

struct inproc_box {
	struct inproc_node *head, *tail;
	struct inproc_node *held; /* FAULT_REORDER: waits for the sender's next message */
	pthread_cond_t recv_cv; /* the owner waits here for a message */
	pthread_cond_t send_cv; /* senders to this inbox wait here */
	pthread_cond_t rx_cv;   /* the owner waits here for its receive thread */
	int rx_done;            /* the receive thread's receive is over */
};

struct inproc {
	struct comm base;
	pthread_mutex_t mu;
	struct inproc_box *box;
	struct comm_wait *wait;    /* 2n agents (see the top) */
	struct comm_wait *dl_wait; /* every agent's wait when the deadlock was found */
	size_t capacity;
	unsigned timeout_ms;
	int closed;
	int deadlocked;
	int running; /* agents in COMM_RUNNING */
	char deadlock_msg[DM_ERR_MSG_MAX];
};

static struct inproc *inproc_of(struct comm *c)
{
	return (struct inproc *)c;
}

static void inproc_set_state(struct inproc *ip, int rank, int state)
{
	struct comm_wait *w = &ip->wait[rank];
	if (w->state == COMM_RUNNING)
		ip->running--;
	if (state == COMM_RUNNING)
		ip->running++;
	w->state = state;
}

static void inproc_wake_everyone(struct inproc *ip)
{
	for (int r = 0; r < ip->base.n; r++) {
		pthread_cond_broadcast(&ip->box[r].recv_cv);
		pthread_cond_broadcast(&ip->box[r].send_cv);
		pthread_cond_broadcast(&ip->box[r].rx_cv);
	}
}

static const char *inproc_kind_name(int kind)
{
	switch (kind) {
	case COMM_SHARD: return "shard";
	case COMM_BLOCK: return "row block";
	case COMM_DB_CHUNK: return "dB chunk";
	case COMM_DA_BLOCK: return "dA block";
	case COMM_CCL: return "collective's chunks";
	}
	return "message";
}

static const char *inproc_peer_name(int rank, char *buf, size_t size)
{
	if (rank == COMM_ANY)
		snprintf(buf, size, "any rank");
	else
		snprintf(buf, size, "rank %d", rank);
	return buf;
}

/* Called with the lock held after a rank starts waiting or goes idle. */
static void inproc_check_deadlock(struct inproc *ip)
{
	int waiting = 0, n = ip->base.n;
	if (ip->deadlocked || ip->closed || ip->running > 0)
		return;
	for (int r = 0; r < 2 * n; r++)
		if (ip->wait[r].state == COMM_WAIT_SEND || ip->wait[r].state == COMM_WAIT_RECV)
			waiting++;
	if (waiting == 0)
		return;

	ip->deadlocked = 1;
	memcpy(ip->dl_wait, ip->wait, 2 * (size_t)n * sizeof *ip->wait);
	size_t len = (size_t)snprintf(ip->deadlock_msg, sizeof ip->deadlock_msg,
				      "deadlock: every device is blocked:");
	for (int a = 0; a < 2 * n && len < sizeof ip->deadlock_msg; a++) {
		const struct comm_wait *w = &ip->wait[a];
		char peer[24], who[40];
		inproc_peer_name(w->peer, peer, sizeof peer);
		if (a < n)
			snprintf(who, sizeof who, "rank %d", a);
		else
			snprintf(who, sizeof who, "rank %d's receive thread", a - n);
		if (w->state == COMM_WAIT_SEND)
			len += (size_t)snprintf(ip->deadlock_msg + len, sizeof ip->deadlock_msg - len,
						" %s sends %s (step %d) to %s;", who,
						inproc_kind_name(w->kind), w->step, peer);
		else if (w->state == COMM_WAIT_RECV && w->via_rx)
			len += (size_t)snprintf(ip->deadlock_msg + len, sizeof ip->deadlock_msg - len,
						" %s waits for its receive thread;", who);
		else if (w->state == COMM_WAIT_RECV)
			len += (size_t)snprintf(ip->deadlock_msg + len, sizeof ip->deadlock_msg - len,
						" %s waits for %s (step %d) from %s;", who,
						inproc_kind_name(w->kind), w->step, peer);
	}
	if (len >= sizeof ip->deadlock_msg)
		memcpy(ip->deadlock_msg + sizeof ip->deadlock_msg - 4, "...", 4);
	else if (len > 0 && ip->deadlock_msg[len - 1] == ';')
		ip->deadlock_msg[len - 1] = '\0';
	inproc_wake_everyone(ip);
}

static size_t inproc_position(const struct inproc_box *b, const struct inproc_node *node)
{
	size_t pos = 0;
	for (const struct inproc_node *p = b->head; p && p != node; p = p->next)
		pos++;
	return pos;
}

/* Waits on cv until woken, the deadline passes (returns ETIMEDOUT) or never
 * when there is no deadline. */
static int inproc_wait(struct inproc *ip, pthread_cond_t *cv, const struct timespec *deadline)
{
	if (!deadline)
		return pthread_cond_wait(cv, &ip->mu);
	return pthread_cond_timedwait(cv, &ip->mu, deadline);
}

static struct timespec *inproc_deadline(const struct inproc *ip, struct timespec *ts)
{
	if (ip->timeout_ms == 0)
		return NULL;
	clock_gettime(CLOCK_MONOTONIC, ts);
	ts->tv_sec += ip->timeout_ms / 1000;
	ts->tv_nsec += (long)(ip->timeout_ms % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
	return ts;
}

/* Called with the lock held when a message leaves box b: the senders whose
 * message now fits in the capacity can go on, and so can the one whose
 * message was taken (taken_waiter; the receiver marked it running).  Only
 * the first `capacity` messages can have become admissible, so the walk stops
 * there: an unbounded inbox has no waiting sender at all, and walking a long
 * queue on every receive made a stream of n messages cost O(n^2). */
static void inproc_release_senders(struct inproc *ip, struct inproc_box *b, int taken_waiter)
{
	int wake = taken_waiter;
	if (ip->capacity != COMM_UNBOUNDED) {
		size_t pos = 0;
		for (struct inproc_node *p = b->head; p && pos < ip->capacity; p = p->next, pos++)
			if (p->sender_waiting && ip->wait[p->msg.src].state == COMM_WAIT_SEND) {
				inproc_set_state(ip, p->msg.src, COMM_RUNNING);
				wake = 1;
			}
	}
	if (wake)
		pthread_cond_broadcast(&b->send_cv);
}

static int inproc_stopped(struct inproc *ip, struct dm_err *err)
{
	if (ip->deadlocked)
		return dm_err_set(err, DM_EDEADLOCK, "%s", ip->deadlock_msg);
	if (ip->closed)
		return dm_err_set(err, DM_ESTOPPED, "the run was stopped");
	return 0;
}

static void inproc_append(struct inproc_box *b, struct inproc_node *node)
{
	node->next = NULL;
	if (b->tail)
		b->tail->next = node;
	else
		b->head = node;
	b->tail = node;
}

/* A copy of node's message, for FAULT_DUPLICATE; NULL when out of memory. */
static struct inproc_node *inproc_clone(const struct inproc_node *node)
{
	struct inproc_node *copy = xcalloc(1, sizeof *copy);
	size_t bytes = node->msg.rows * node->msg.cols * sizeof(double);
	if (!copy)
		return NULL;
	copy->msg = node->msg;
	copy->msg.data = bytes ? xmalloc(bytes) : NULL;
	if (bytes && !copy->msg.data) {
		free(copy);
		return NULL;
	}
	if (bytes)
		memcpy(copy->msg.data, node->msg.data, bytes);
	return copy;
}

/* The agent waiting in a receive on rank's inbox that a message from src
 * satisfies, or -1.  A rank joining its receive thread waits elsewhere. */
static int inproc_receiver_of(const struct inproc *ip, int rank, int src)
{
	for (int k = 0; k < 2; k++) {
		const struct comm_wait *w = &ip->wait[rank + k * ip->base.n];
		if (w->state == COMM_WAIT_RECV && !w->via_rx && (w->peer == COMM_ANY || w->peer == src))
			return rank + k * ip->base.n;
	}
	return -1;
}

/* The part of a send before the lock: checks, injected faults, the node.
 * Returns 0 (with *node, NULL when out of memory: refused under the lock),
 * 1 when the fault injector dropped the message, or an error.  The payload
 * is freed whenever the message goes no further. */
static int inproc_prepare(struct comm *c, struct comm_msg *msg, struct inproc_node **node,
			  int *fault, struct dm_err *err)
{
	int src = msg->src, dst = msg->dst;
	*node = NULL;
	if (src < 0 || src >= c->n || dst < 0 || dst >= c->n) {
		free(msg->data);
		msg->data = NULL;
		return dm_err_set(err, DM_EINVAL, "send from rank %d to rank %d: no such rank",
				  src, dst);
	}
	unsigned delay_ms = 0;
	*fault = fault_message(src, dst, msg->step, msg->kind, &delay_ms);
	if (*fault == FAULT_DROP) {
		free(msg->data); /* lost on the way: the sender never knows */
		msg->data = NULL;
		return 1;
	}
	if (*fault == FAULT_DELAY) {
		struct timespec ts = { delay_ms / 1000, (long)(delay_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	*node = xcalloc(1, sizeof **node);
	return 0;
}

/* With the lock held: puts node (msg) into dst's inbox and marks the
 * receiver waiting for it running.  Returns 0 with *queued set when node is
 * in the inbox (not held back by FAULT_REORDER) and *woken the receiving
 * agent or -1; or an error, the node and payload freed. */
static int inproc_enqueue(struct inproc *ip, struct comm_msg *msg, struct inproc_node *node,
			  int fault, int *queued, int *woken, struct dm_err *err)
{
	int src = msg->src, dst = msg->dst;
	int rc = inproc_stopped(ip, err);
	*queued = 0;
	*woken = -1;
	if (!rc && !node)
		rc = dm_err_set(err, DM_ENOMEM, "out of memory sending from rank %d", src);
	if (rc) {
		free(node);
		free(msg->data);
		msg->data = NULL;
		return rc;
	}
	struct inproc_box *b = &ip->box[dst];
	node->msg = *msg;
	msg->data = NULL;
	if (fault == FAULT_REORDER && !b->held) {
		b->held = node; /* out of sight until the sender's next message here */
		return 0;
	}
	inproc_append(b, node);
	if (b->held && b->held->msg.src == src) {
		inproc_append(b, b->held);
		b->held = NULL;
	}
	if (fault == FAULT_DUPLICATE) {
		struct inproc_node *copy = inproc_clone(node);
		if (copy)
			inproc_append(b, copy);
	}
	*queued = 1;
	/* The receiver may be waiting for exactly this: it is running again
	 * (marked here, under the lock), and only then woken.  Nobody else is
	 * woken: a receiver waiting for another rank would find nothing. */
	*woken = inproc_receiver_of(ip, dst, src);
	if (*woken >= 0)
		inproc_set_state(ip, *woken, COMM_RUNNING);
	return 0;
}

/* With the lock held: the sender of node waits until its message fits the
 * capacity or is taken; then frees the node if the receiver left it. */
static int inproc_await_room(struct inproc *ip, struct inproc_node *node, struct dm_err *err)
{
	int src = node->msg.src, dst = node->msg.dst, rc = 0;
	struct inproc_box *b = &ip->box[dst];
	struct timespec ts, *deadline = inproc_deadline(ip, &ts);
	while (!node->taken && inproc_position(b, node) >= ip->capacity) {
		rc = inproc_stopped(ip, err);
		if (rc)
			break;
		ip->wait[src] = (struct comm_wait){ ip->wait[src].state, dst, node->msg.step,
						    node->msg.kind, node->msg.index, 0 };
		inproc_set_state(ip, src, COMM_WAIT_SEND);
		inproc_check_deadlock(ip);
		if (ip->deadlocked)
			continue;
		if (inproc_wait(ip, &b->send_cv, deadline) == ETIMEDOUT && !node->taken &&
		    inproc_position(b, node) >= ip->capacity) {
			rc = dm_err_set(err, DM_ETIMEOUT,
					"rank %d timed out sending %s (step %d) to rank %d", src,
					inproc_kind_name(node->msg.kind), node->msg.step, dst);
			break;
		}
	}
	if (ip->wait[src].state == COMM_WAIT_SEND)
		inproc_set_state(ip, src, COMM_RUNNING);
	node->sender_waiting = 0;
	if (node->taken)
		free(node); /* the receiver left it for us; otherwise the inbox owns it */
	return rc;
}

static int inproc_send_as(struct comm *c, struct comm_msg *msg, int buffered,
			  struct dm_err *err)
{
	struct inproc *ip = inproc_of(c);
	struct inproc_node *node;
	int fault, queued, woken;
	int rc = inproc_prepare(c, msg, &node, &fault, err);
	if (rc)
		return rc > 0 ? 0 : rc;
	int dst = msg->dst;
	pthread_mutex_lock(&ip->mu);
	rc = inproc_enqueue(ip, msg, node, fault, &queued, &woken, err);
	if (rc || !queued || buffered || ip->capacity == COMM_UNBOUNDED) {
		/* nothing to wait for.  The wake comes after the unlock: woken
		 * inside it, the receiver would run only to sleep again on the
		 * lock this sender still holds, two trips through the scheduler
		 * instead of one (a ring transfer of many devices on two cores
		 * took twice as long). */
		pthread_mutex_unlock(&ip->mu);
		if (woken >= 0)
			pthread_cond_signal(&ip->box[dst].recv_cv);
		return rc;
	}
	if (woken >= 0)
		pthread_cond_signal(&ip->box[dst].recv_cv);
	node->sender_waiting = 1;
	rc = inproc_await_room(ip, node, err);
	pthread_mutex_unlock(&ip->mu);
	return rc;
}

static int inproc_send(struct comm *c, struct comm_msg *msg, struct dm_err *err)
{
	return inproc_send_as(c, msg, 0, err);
}

/* MPI_Bsend's contract: the message is queued and the call returns, however
 * full the inbox; the caller copied the payload into its own buffer. */
static int inproc_bsend(struct comm *c, struct comm_msg *msg, struct dm_err *err)
{
	return inproc_send_as(c, msg, 1, err);
}

/* With the lock held: agent (rank itself, or n + rank for its receive
 * thread) takes the oldest message for rank from src into *out. */
static int inproc_recv_locked(struct inproc *ip, int agent, int rank, int src, int step,
			      int kind, struct comm_msg *out, struct dm_err *err)
{
	struct inproc_box *b = &ip->box[rank];
	struct timespec ts, *deadline = inproc_deadline(ip, &ts);
	int timed_out = 0, rc = 0;
	for (;;) {
		struct inproc_node *prev = NULL, *p = b->head;
		while (p && src != COMM_ANY && p->msg.src != src) {
			prev = p;
			p = p->next;
		}
		if (p) {
			if (prev)
				prev->next = p->next;
			else
				b->head = p->next;
			if (b->tail == p)
				b->tail = prev;
			*out = p->msg;
			p->taken = 1;
			p->next = NULL;
			int waiter = p->sender_waiting;
			if (waiter) {
				if (ip->wait[p->msg.src].state == COMM_WAIT_SEND)
					inproc_set_state(ip, p->msg.src, COMM_RUNNING);
			} else {
				free(p);
			}
			inproc_release_senders(ip, b, waiter);
			break;
		}
		rc = inproc_stopped(ip, err);
		if (rc)
			break;
		if (timed_out) {
			char peer[24];
			rc = dm_err_set(err, DM_ETIMEOUT, "rank %d timed out waiting for %s (step %d) from %s",
					rank, inproc_kind_name(kind), step,
					inproc_peer_name(src, peer, sizeof peer));
			break;
		}
		ip->wait[agent] = (struct comm_wait){ ip->wait[agent].state, src, step, kind, -1, 0 };
		inproc_set_state(ip, agent, COMM_WAIT_RECV);
		inproc_check_deadlock(ip);
		if (ip->deadlocked)
			continue;
		if (inproc_wait(ip, &b->recv_cv, deadline) == ETIMEDOUT)
			timed_out = 1;
	}
	if (ip->wait[agent].state == COMM_WAIT_RECV)
		inproc_set_state(ip, agent, COMM_RUNNING);
	return rc;
}

static int inproc_check_recv(const struct comm *c, int rank, int src, struct dm_err *err)
{
	if (rank < 0 || rank >= c->n || (src != COMM_ANY && (src < 0 || src >= c->n)))
		return dm_err_set(err, DM_EINVAL, "receive at rank %d from rank %d: no such rank",
				  rank, src);
	return 0;
}

static int inproc_recv(struct comm *c, int rank, int src, int step, int kind,
		       struct comm_msg *out, struct dm_err *err)
{
	struct inproc *ip = inproc_of(c);
	int rc = inproc_check_recv(c, rank, src, err);
	if (rc)
		return rc;
	pthread_mutex_lock(&ip->mu);
	rc = inproc_recv_locked(ip, rank, rank, src, step, kind, out, err);
	pthread_mutex_unlock(&ip->mu);
	return rc;
}

/* Post the send, receive, then wait for the send: under one lock, so that
 * no receiver can see the ring half posted. */
static int inproc_sendrecv(struct comm *c, struct comm_msg *msg, int src, int step, int kind,
			   struct comm_msg *out, struct dm_err *err)
{
	struct inproc *ip = inproc_of(c);
	struct inproc_node *node;
	int fault, queued = 0, woken = -1, rank = msg->src;
	int rc = inproc_check_recv(c, rank, src, err);
	if (rc) {
		free(msg->data);
		msg->data = NULL;
		return rc;
	}
	int prep = inproc_prepare(c, msg, &node, &fault, err);
	if (prep < 0)
		return prep;
	pthread_mutex_lock(&ip->mu);
	if (prep == 0 && (rc = inproc_enqueue(ip, msg, node, fault, &queued, &woken, err))) {
		pthread_mutex_unlock(&ip->mu);
		return rc;
	}
	int waits = queued && ip->capacity != COMM_UNBOUNDED;
	if (waits)
		node->sender_waiting = 1; /* the receiver leaves the node to us */
	if (woken >= 0)
		pthread_cond_signal(&ip->box[msg->dst].recv_cv);
	rc = inproc_recv_locked(ip, rank, rank, src, step, kind, out, err);
	if (waits && rc) {
		/* the receive failed: the run is over, the send is not waited for */
		node->sender_waiting = 0;
		if (node->taken)
			free(node);
	} else if (waits && (rc = inproc_await_room(ip, node, err))) {
		free(out->data); /* received, but the call as a whole failed */
		out->data = NULL;
	}
	pthread_mutex_unlock(&ip->mu);
	return rc;
}

static void inproc_rx_arm(struct comm *c, int rank)
{
	struct inproc *ip = inproc_of(c);
	pthread_mutex_lock(&ip->mu);
	ip->box[rank].rx_done = 0;
	inproc_set_state(ip, c->n + rank, COMM_RUNNING);
	pthread_mutex_unlock(&ip->mu);
}

static int inproc_rx_recv(struct comm *c, int rank, int src, int step, int kind,
			  struct comm_msg *out, struct dm_err *err)
{
	struct inproc *ip = inproc_of(c);
	int rc = inproc_check_recv(c, rank, src, err);
	if (rc)
		return rc;
	pthread_mutex_lock(&ip->mu);
	rc = inproc_recv_locked(ip, c->n + rank, rank, src, step, kind, out, err);
	/* over, either way: idle again, and the rank joining it runs on */
	inproc_set_state(ip, c->n + rank, COMM_IDLE);
	ip->box[rank].rx_done = 1;
	struct comm_wait *w = &ip->wait[rank];
	if (w->state == COMM_WAIT_RECV && w->via_rx)
		inproc_set_state(ip, rank, COMM_RUNNING);
	pthread_cond_signal(&ip->box[rank].rx_cv);
	inproc_check_deadlock(ip);
	pthread_mutex_unlock(&ip->mu);
	return rc;
}

static int inproc_rx_join(struct comm *c, int rank, int src, int step, int kind,
			  struct dm_err *err)
{
	struct inproc *ip = inproc_of(c);
	struct inproc_box *b = &ip->box[rank];
	struct timespec ts, *deadline = inproc_deadline(ip, &ts);
	int rc = 0;
	pthread_mutex_lock(&ip->mu);
	while (!b->rx_done) {
		if ((rc = inproc_stopped(ip, err)))
			break;
		ip->wait[rank] = (struct comm_wait){ ip->wait[rank].state, src, step, kind, -1, 1 };
		inproc_set_state(ip, rank, COMM_WAIT_RECV);
		inproc_check_deadlock(ip);
		if (ip->deadlocked)
			continue;
		if (inproc_wait(ip, &b->rx_cv, deadline) == ETIMEDOUT && !b->rx_done) {
			rc = dm_err_set(err, DM_ETIMEOUT, "rank %d timed out waiting for its receive "
					"thread", rank);
			break;
		}
	}
	if (ip->wait[rank].state == COMM_WAIT_RECV)
		inproc_set_state(ip, rank, COMM_RUNNING);
	ip->wait[rank].via_rx = 0;
	pthread_mutex_unlock(&ip->mu);
	return rc;
}

/* rank COMM_ANY with idle == 0 is the step barrier's release: every idle
 * rank runs again, in one lock acquisition instead of one per rank (idle is
 * only ever the barrier's parking).  All of them are running before any
 * wakes, which the exactness of the detection needs. */
static void inproc_set_idle(struct comm *c, int rank, int idle)
{
	struct inproc *ip = inproc_of(c);
	if (rank == COMM_ANY) {
		if (idle)
			return;
		pthread_mutex_lock(&ip->mu);
		for (int r = 0; r < c->n; r++)
			if (ip->wait[r].state == COMM_IDLE)
				inproc_set_state(ip, r, COMM_RUNNING);
		pthread_mutex_unlock(&ip->mu);
		return;
	}
	pthread_mutex_lock(&ip->mu);
	if (ip->wait[rank].state != COMM_EXITED) {
		inproc_set_state(ip, rank, idle ? COMM_IDLE : COMM_RUNNING);
		if (idle)
			inproc_check_deadlock(ip);
	}
	pthread_mutex_unlock(&ip->mu);
}

static void inproc_set_exited(struct comm *c, int rank)
{
	struct inproc *ip = inproc_of(c);
	pthread_mutex_lock(&ip->mu);
	inproc_set_state(ip, rank, COMM_EXITED);
	inproc_check_deadlock(ip);
	pthread_mutex_unlock(&ip->mu);
}

static void inproc_get_wait(struct comm *c, int rank, struct comm_wait *out)
{
	struct inproc *ip = inproc_of(c);
	pthread_mutex_lock(&ip->mu);
	*out = ip->deadlocked ? ip->dl_wait[rank] : ip->wait[rank];
	if (out->state != COMM_WAIT_SEND && out->state != COMM_WAIT_RECV)
		*out = (struct comm_wait){ out->state, -1, -1, 0, -1, 0 };
	pthread_mutex_unlock(&ip->mu);
}

static void inproc_get_rx_wait(struct comm *c, int rank, struct comm_wait *out)
{
	inproc_get_wait(c, c->n + rank, out);
}

static size_t inproc_pending(struct comm *c, int rank, struct comm_msg *first)
{
	struct inproc *ip = inproc_of(c);
	size_t count = 0;
	pthread_mutex_lock(&ip->mu);
	const struct inproc_node *p = ip->box[rank].head ? ip->box[rank].head : ip->box[rank].held;
	if (p && first) {
		*first = p->msg;
		first->data = NULL;
	}
	for (p = ip->box[rank].head; p; p = p->next)
		count++;
	count += ip->box[rank].held != NULL;
	pthread_mutex_unlock(&ip->mu);
	return count;
}

static void inproc_close(struct comm *c)
{
	struct inproc *ip = inproc_of(c);
	pthread_mutex_lock(&ip->mu);
	ip->closed = 1;
	inproc_wake_everyone(ip);
	pthread_mutex_unlock(&ip->mu);
}

static void inproc_destroy(struct comm *c)
{
	struct inproc *ip = inproc_of(c);
	for (int r = 0; r < c->n; r++) {
		struct inproc_node *p = ip->box[r].head;
		if (ip->box[r].held) {
			free(ip->box[r].held->msg.data);
			free(ip->box[r].held);
		}
		while (p) {
			struct inproc_node *next = p->next;
			free(p->msg.data);
			free(p);
			p = next;
		}
		pthread_cond_destroy(&ip->box[r].recv_cv);
		pthread_cond_destroy(&ip->box[r].send_cv);
		pthread_cond_destroy(&ip->box[r].rx_cv);
	}
	pthread_mutex_destroy(&ip->mu);
	free(ip->box);
	free(ip->wait);
	free(ip->dl_wait);
	free(ip);
}

static const struct comm_ops inproc_ops = {
	.name = "in-process",
	.send = inproc_send,
	.recv = inproc_recv,
	.set_idle = inproc_set_idle,
	.set_exited = inproc_set_exited,
	.get_wait = inproc_get_wait,
	.pending = inproc_pending,
	.close = inproc_close,
	.destroy = inproc_destroy,
	.sendrecv = inproc_sendrecv,
	.bsend = inproc_bsend,
	.rx_arm = inproc_rx_arm,
	.rx_recv = inproc_rx_recv,
	.rx_join = inproc_rx_join,
	.get_rx_wait = inproc_get_rx_wait,
};

int comm_inproc_new(struct comm **out, int n, size_t capacity, unsigned timeout_ms,
		    struct dm_err *err)
{
	*out = NULL;
	if (n < 1)
		return dm_err_set(err, DM_EINVAL, "a communicator needs at least one rank, not %d", n);
	struct inproc *ip = xcalloc(1, sizeof *ip);
	if (!ip)
		return dm_err_set(err, DM_ENOMEM, "out of memory creating a communicator");
	ip->box = xcalloc((size_t)n, sizeof *ip->box);
	ip->wait = xcalloc(2 * (size_t)n, sizeof *ip->wait);
	ip->dl_wait = xcalloc(2 * (size_t)n, sizeof *ip->dl_wait);
	if (!ip->box || !ip->wait || !ip->dl_wait) {
		free(ip->box);
		free(ip->wait);
		free(ip->dl_wait);
		free(ip);
		return dm_err_set(err, DM_ENOMEM, "out of memory creating %d inboxes", n);
	}
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&ip->mu, NULL);
	for (int r = 0; r < n; r++) {
		pthread_cond_init(&ip->box[r].recv_cv, &ca);
		pthread_cond_init(&ip->box[r].send_cv, &ca);
		pthread_cond_init(&ip->box[r].rx_cv, &ca);
		ip->wait[r] = (struct comm_wait){ COMM_RUNNING, -1, -1, 0, -1, 0 };
		ip->wait[n + r] = (struct comm_wait){ COMM_IDLE, -1, -1, 0, -1, 0 };
	}
	pthread_condattr_destroy(&ca);
	ip->base.ops = &inproc_ops;
	ip->base.n = n;
	ip->capacity = capacity;
	ip->timeout_ms = timeout_ms;
	ip->running = n;
	*out = &ip->base;
	return 0;
}
