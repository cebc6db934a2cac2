/* evlog: the event log.  Every compute, send, receive and gather of a run is
 * one event; the state after any phase can be rebuilt from A, B and the events
 * up to it, which is what stepping back and replaying rely on.  Its files
 * (JSON Lines, Chrome) are trace.h's. */
#ifndef DM_EVLOG_H
#define DM_EVLOG_H

#include <stddef.h>
#include <stdint.h>

#include "dm_err.h"

enum ev_op {
	EV_COMPUTE = 0, /* rank multiplied its A rows by shard into C columns */
	EV_SEND = 1,    /* rank sent shard (or its C rows) to peer */
	EV_RECV = 2,    /* rank received shard from peer */
	EV_GATHER = 3,  /* rank 0 placed peer's C rows into the gathered C */
};

/* Ranges are half-open [begin, end).  Sizes fit in 32 bits: the engine
 * refuses larger dimensions (BLAS takes int), and a million-event log of
 * d = 1024 stays small. */
struct ev {
	int32_t phase; /* index in the run's schedule */
	int32_t step;  /* ring step s */
	int32_t op;    /* enum ev_op */
	int32_t rank;  /* the device that did it */
	int32_t peer;  /* dst of a send; src of a recv or gather; -1 otherwise */
	int32_t shard; /* owner index of the B shard; -1 for all of B (DP) or a C block */
	uint32_t row_begin, row_end; /* rows of A / C involved */
	uint32_t col_begin, col_end; /* columns of B / C involved */
	uint32_t flags;              /* EV_FLAG_* */
	uint64_t bytes;              /* payload bytes moved; output bytes written for compute */
	uint64_t t_begin_ns, t_end_ns; /* since the run started, CLOCK_MONOTONIC */
	uint64_t held, peak;         /* the rank's bytes held, and its peak, after this */
};

/* A compute whose partial product was cut to whole numbers (--bug
 * int-accumulator): replaying it must cut them too. */
#define EV_FLAG_TRUNCATED 1u

/* A growable array of events. */
struct evlog {
	struct ev *ev;
	size_t len, cap;
};

/* Appends e; returns 0 or DM_ENOMEM. */
int evlog_push(struct evlog *log, const struct ev *e);
void evlog_free(struct evlog *log);

const char *ev_op_name(int op); /* "compute", "send", "recv", "gather" */

/* Per device totals written after the events. */
struct ev_summary {
	int rank;
	uint64_t peak_bytes, sent_bytes, recv_bytes;
};

#endif
