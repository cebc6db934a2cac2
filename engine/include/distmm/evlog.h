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
	/* the training step's */
	EV_ADD = 4,     /* rank added its own part of dB chunk `shard` into the running
			   sum it received (the reduce-scatter) */
	EV_FREE = 5,    /* rank let go of what it no longer needs: FSDP's gathered B
			   shard after a pass (tensor B), the K x N partial once its
			   chunk is summed (tensor dB) */
	EV_OP_COUNT
};

/* Which tensor an event is about, besides its op: the forward's (B's shards
 * moving, C written and gathered) or a gradient's.  0 keeps every forward
 * event as it was. */
enum ev_tensor {
	EV_TENSOR_FWD = 0, /* B (a shard, or all of it) moving or freed; C written or gathered */
	EV_TENSOR_DA = 1,  /* dA: rows written (dA_r += dC_r[:, cols] @ B_kᵀ), or gathered */
	EV_TENSOR_DB = 2,  /* dB: the partial written, a chunk's running sum sent, received,
			      added into or gathered, the partial freed */
	EV_TENSOR_CCL = 3, /* a collective's buffer (mode DM_COLL): a range of its chunks */
	EV_TENSOR_COUNT
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
	int32_t tensor;              /* enum ev_tensor (in what was padding) */
	uint64_t bytes;              /* payload bytes moved; output bytes written for compute */
	uint64_t t_begin_ns, t_end_ns; /* since the run started, CLOCK_MONOTONIC */
	uint64_t held, peak;         /* the rank's bytes held, and its peak, after this */
};

/* A compute whose partial product was cut to whole numbers (--bug
 * int-accumulator): replaying it must cut them too. */
#define EV_FLAG_TRUNCATED 1u
/* An add that stored the running sum received over the rank's own part
 * instead of adding to it (--bug no-sum). */
#define EV_FLAG_OVERWRITE 2u

/* What each field means for the training step's events (tensor != 0, and
 * add and free):
 *  - compute, dA: rows of dA (the rank's), cols of dC and B's shard used
 *    (shard; -1 and 0:N in DP), bytes the rows x K written;
 *  - compute, dB (the partial): rows of A and dC used, cols 0:N, shard -1,
 *    bytes K x N;
 *  - send, recv, add, dB: rows 0:K, cols and shard the chunk, bytes its
 *    size; gather, dB: the same, peer the rank whose chunk it is;
 *  - send and gather, dA: a block of dA, rows and 0:K, shard -1;
 *  - free, B: the shard's columns and rows 0:K, bytes its size; free, dB
 *    (FSDP, once its chunk is summed): rows 0:K, cols 0:N, shard the chunk
 *    kept (in a buffer of its own), bytes the partial's, let go. */

/* A collective's events (tensor CCL: sends, receives and adds): rows the
 * range of chunks [c0, c1) (numpy.array_split of the buffer into n), cols
 * the range of the buffer's elements they are, shard c0, bytes 8 x the
 * elements; step the step or level within its primitive (schedule.h). */

/* A growable array of events. */
struct evlog {
	struct ev *ev;
	size_t len, cap;
};

/* Appends e; returns 0 or DM_ENOMEM. */
int evlog_push(struct evlog *log, const struct ev *e);
void evlog_free(struct evlog *log);

const char *ev_op_name(enum ev_op op); /* "compute", "send", "recv", "gather", "add", "free"; "?" */
const char *ev_tensor_name(enum ev_tensor tensor); /* "", "dA", "dB", "ccl" */

/* Per device totals written after the events. */
struct ev_summary {
	int rank;
	uint64_t peak_bytes, sent_bytes, recv_bytes;
};

#endif
