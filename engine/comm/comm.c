/* comm/: blocking point-to-point messages between ranks behind one interface (comm.h, comm_impl.h):
 * the in-process transport with exact deadlock detection (comm_inproc.c) and Open MPI (comm_mpi.c).
 *
 * comm: dispatch to the transport (see comm.h). */
#include "comm/comm_impl.h"

#include <stdlib.h>

/* A call the transport does not have: the payload is dropped as a failed
 * comm_send would drop it. */
static int comm_missing(struct comm *c, struct comm_msg *msg, const char *what,
			struct dm_err *err)
{
	if (msg) {
		free(msg->data);
		msg->data = NULL;
	}
	return dm_err_set(err, DM_EINVAL, "the %s transport has no %s", c->ops->name, what);
}

int comm_send(struct comm *c, struct comm_msg *msg, struct dm_err *err)
{
	return c->ops->send(c, msg, err);
}

int comm_recv(struct comm *c, int rank, int src, int step, int kind, struct comm_msg *out,
	      struct dm_err *err)
{
	return c->ops->recv(c, rank, src, step, kind, out, err);
}

void comm_set_idle(struct comm *c, int rank, int idle)
{
	if (c->ops->set_idle)
		c->ops->set_idle(c, rank, idle);
}

void comm_set_exited(struct comm *c, int rank)
{
	if (c->ops->set_exited)
		c->ops->set_exited(c, rank);
}

void comm_get_wait(struct comm *c, int rank, struct comm_wait *out)
{
	out->state = COMM_RUNNING;
	out->peer = -1;
	out->step = -1;
	out->kind = 0;
	out->index = -1;
	out->via_rx = 0;
	if (c->ops->get_wait)
		c->ops->get_wait(c, rank, out);
}

int comm_sendrecv(struct comm *c, struct comm_msg *msg, int src, int step, int kind,
		  struct comm_msg *out, struct dm_err *err)
{
	if (!c->ops->sendrecv)
		return comm_missing(c, msg, "sendrecv", err);
	return c->ops->sendrecv(c, msg, src, step, kind, out, err);
}

int comm_bsend(struct comm *c, struct comm_msg *msg, struct dm_err *err)
{
	if (!c->ops->bsend)
		return comm_missing(c, msg, "buffered send", err);
	return c->ops->bsend(c, msg, err);
}

void comm_rx_arm(struct comm *c, int rank)
{
	if (c->ops->rx_arm)
		c->ops->rx_arm(c, rank);
}

int comm_rx_recv(struct comm *c, int rank, int src, int step, int kind, struct comm_msg *out,
		 struct dm_err *err)
{
	if (!c->ops->rx_recv)
		return comm_missing(c, NULL, "receive thread", err);
	return c->ops->rx_recv(c, rank, src, step, kind, out, err);
}

int comm_rx_join(struct comm *c, int rank, int src, int step, int kind, struct dm_err *err)
{
	if (!c->ops->rx_join)
		return comm_missing(c, NULL, "receive thread", err);
	return c->ops->rx_join(c, rank, src, step, kind, err);
}

void comm_get_rx_wait(struct comm *c, int rank, struct comm_wait *out)
{
	*out = (struct comm_wait){ COMM_IDLE, -1, -1, 0, -1, 0 };
	if (c->ops->get_rx_wait)
		c->ops->get_rx_wait(c, rank, out);
}

size_t comm_pending(struct comm *c, int rank, struct comm_msg *first)
{
	return c->ops->pending ? c->ops->pending(c, rank, first) : 0;
}

void comm_close(struct comm *c)
{
	c->ops->close(c);
}

void comm_destroy(struct comm *c)
{
	if (c)
		c->ops->destroy(c);
}

int comm_size(const struct comm *c)
{
	return c->n;
}
