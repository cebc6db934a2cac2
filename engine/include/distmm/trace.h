/* trace: a run's JSON Lines trace (evlog_write_jsonl's output) read back,
 * checked against the matrices it claims to multiply, and written out in the
 * Chrome Trace Event Format for Perfetto and chrome://tracing.
 *
 * The reader takes any bytes (it is fuzzed): it never reads past the length
 * it is given, never overflows, and refuses what it does not understand with
 * a message naming the line.  The trace does not record the deliberate bug a
 * run made (bug.h); trace_check accepts a run of any of them. */
#ifndef DM_TRACE_H
#define DM_TRACE_H

#include <stddef.h>

#include "dm_err.h"
#include "evlog.h"

struct trace {
	struct ev *ev;
	size_t n_ev;           /* in file order */
	struct ev_summary *sum;
	int n;                 /* one summary per rank 0..n-1, indexed by rank */
	int mode;              /* DM_DP if the compute events use all of B (shard -1), else DM_FSDP */
};

/* Parses the text of a trace as evlog_write_jsonl writes it.
 *
 * Lines: one JSON object each, flat (string, integer, true and false values;
 * anything else, null, fractions and nested values included, is refused),
 * whitespace allowed, keys in any order, a known key at most once, unknown
 * keys ignored; blank lines ignored; the last newline optional.  Every event
 * line needs phase, step, op, rank, shard, row_begin, row_end, col_begin,
 * col_end, bytes, and dst for a send, src for a recv and a gather;
 * held_bytes, peak_bytes, t_begin_ns, t_end_ns (0) and truncated (false) are
 * optional.  Summary lines ("op":"summary") need rank, peak_bytes,
 * sent_bytes, recv_bytes; they come after the events, one for every rank
 * 0..n-1 (their number is n, at most RUN_MAX_DEVICES).  Numbers are
 * non-negative decimal integers that fit their fields; only shard may be -1.
 * Ranges must not end before they begin; ranks, peers and shards must be
 * below n; compute events must not mix shard -1 (DP) and shards (FSDP).
 *
 * A cut trace is refused unless the cut falls after the last line's '}': a
 * line cut short is not JSON, and a trace cut before its last summary has
 * fewer summaries than ranks in its events (or none).
 *
 * Returns 0 with t filled (free it with trace_free), or DM_EFORMAT with a
 * message "name:line: why" (name "(trace)" when NULL), or DM_ENOMEM; on
 * failure t holds nothing. */
int trace_parse(struct trace *t, const char *text, size_t len, const char *name,
		struct dm_err *err);

/* Reads path whole and parses it.  max_bytes bounds the file (0: no bound;
 * DM_ENOMEM beyond it).  DM_EIO when path is missing, unreadable or a
 * directory. */
int trace_read(const char *path, struct trace *t, size_t max_bytes, struct dm_err *err);

void trace_free(struct trace *t);

/* Whether the trace can be a run of A (M x K) @ B (K x N) on t->n devices in
 * t->mode, correct or with one of the deliberate bugs: events in phase order
 * and every phase of the schedule complete, except in the trace of a run that
 * failed (it stops short of the gather): from the first incomplete phase on,
 * where ranks stopped or ran ahead, events are checked one by one; steps and
 * ops the schedule's;
 * row ranges numpy.array_split's; columns inside N, a moving shard's its
 * split; bytes the size of the block; sends and receives paired; each
 * rank's held bytes within its peak, which never falls; the shards held,
 * sent and computed with, and the columns written, those of the correct ring
 * or of a run with one of the bugs; and, when the run finished, the
 * summaries the sums of the events.  K shows only in the shards moved, so a
 * DP trace and a one-device trace fit any K.  Held bytes and times are not
 * recomputed.  Returns 0, DM_EINVAL for bad shapes, or DM_EFORMAT with a
 * message ("the trace is for 8 rows, A has 10", ...). */
int trace_check(const struct trace *t, size_t M, size_t K, size_t N, struct dm_err *err);

/* Writes the Chrome Trace Event Format: {"traceEvents": [...]} with one track
 * (pid 1, tid = rank) per device named "rank R" (ph "M" thread_name
 * metadata; process_name "distmm-tui <MODE>"), and a complete event (ph "X",
 * ts and dur in microseconds as decimals, from t_begin_ns and t_end_ns) for
 * every compute, send, recv and gather, named "compute B[2]", "send B[2] ->
 * 3", "recv B[1] <- 0", "gather rows 2:4 <- 1" (and "compute B" for all of B,
 * "send rows 2:4 -> 0" for a block of C), cat = the op, args = the event's
 * fields (phase, step, shard, rows, cols, bytes, peer, held and peak bytes,
 * truncated).  Every event, metadata included, has ph, ts, pid and tid.  All
 * or nothing through afile.  Returns 0, DM_EINVAL (events NULL), DM_EIO or
 * DM_ENOMEM. */
int trace_write_chrome(const char *path, const struct ev *ev, size_t n_ev, int n, int mode,
		       struct dm_err *err);

#endif
