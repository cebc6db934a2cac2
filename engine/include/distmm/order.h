/* order: how a ring transfer does its two calls, the send to the right and
 * the receive from the left.  Three orders of the plain calls (the deadlock
 * lab: --order) and three fixes that need more than reordering (--fix),
 * besides parity, which is both an order and the classic fix.  Which of
 * them deadlocks at which channel capacity is not written down anywhere in
 * the engine: the transport finds it out by running them. */
#ifndef DM_ORDER_H
#define DM_ORDER_H

enum dm_order {
	ORDER_PARITY = 0,  /* even ranks send first, odd ranks receive first (the default) */
	ORDER_SEND_FIRST,  /* every rank sends, then receives (--naive) */
	ORDER_RECV_FIRST,  /* every rank receives, then sends */
	ORDER_RECV_THREAD, /* fix: each rank's second thread receives while the first sends */
	ORDER_SENDRECV,    /* fix: one call posts both and completes both (MPI_Sendrecv) */
	ORDER_BUFFERED,    /* fix: the send copies the shard into a buffer of the rank's and
			      returns at once (MPI_Bsend); the receive follows */
	ORDER_COUNT
};

const char *order_name(enum dm_order order); /* "parity", "send-first", ...; "?" */

/* --order takes parity, send-first (naive is its other name) and
 * recv-first; --fix takes parity, recv-thread, sendrecv and buffered.
 * Each returns the order, or -1. */
int order_parse_order(const char *name);
int order_parse_fix(const char *name);
int order_is_fix(enum dm_order order); /* parity or one of the three fixes */

/* With a plain order (parity, send-first, recv-first, buffered): whether
 * rank makes its send before its receive. */
int order_sends_first(enum dm_order order, int rank);

#endif
