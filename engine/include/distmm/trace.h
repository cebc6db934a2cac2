/* trace: a run's event log as a file: written as JSON Lines (--trace) and
 * read back, checked against the matrices it claims to multiply, and written
 * in the Chrome Trace Event Format for Perfetto and chrome://tracing.
 *
 * The reader takes any bytes (it is fuzzed): it never reads past the length
 * it is given, never overflows, and refuses what it does not understand with
 * a message naming the line.  The trace does not record the deliberate bug a
 * run made (bug.h); trace_check accepts a run of any of them. */
#ifndef DM_TRACE_H
#define DM_TRACE_H

#include <stddef.h>

#include "bug.h"
#include "dm_err.h"
#include "evlog.h"
#include "plan.h"

struct trace {
	struct ev *ev;
	size_t n_ev;           /* in file order */
	struct ev_summary *sum;
	int n;                 /* one summary per rank 0..n-1, indexed by rank */
	enum dm_mode mode;     /* DM_DP if the compute events use all of B (shard -1), else
				  DM_FSDP; tensor parallel's as its first line says */
	enum dm_pass pass;     /* DM_TRAIN: a training step's, its first line is
				  {"op":"run","train":true} */
	int reduce_scatter;    /* tp-row's sum ends with a reduce-scatter (its header's
				  "reduce_scatter":true) */
};

/* Formats e as one JSON object (no newline) into buf; returns the length
 * (snprintf's rule: >= size means it was cut).  Keys in this order: phase,
 * step, op, rank, dst (send) or src (recv, gather), shard, row_begin,
 * row_end, col_begin, col_end, bytes, held_bytes, peak_bytes, truncated
 * (only when true), t_begin_ns, t_end_ns.  The training step's events
 * have "tensor":"dA" or "dB" after dst/src (none for the forward's B and
 * C), ops "add" and "free", and "overwrite":true after truncated on an add
 * that stored instead of adding (--bug no-sum). */
int trace_format_event(const struct ev *e, char *buf, size_t size);
/* The first line of a training step's trace, {"op":"run","train":true}
 * (an FSDP or DP forward trace has none, and means "train":false), and of
 * every tensor-parallel trace, which names its mode (the events alone do
 * not say it): {"op":"run","mode":"tp-row","reduce_scatter":false,
 * "train":false}.  Returns the length as trace_format_event, 0 (nothing
 * written) when p's trace has no such line. */
int trace_format_header(const struct dm_plan *p, char *buf, size_t size);
/* {"op":"summary","rank":R,"peak_bytes":P,"sent_bytes":S,"recv_bytes":V} */
int trace_format_summary(const struct ev_summary *s, char *buf, size_t size);

/* Writes the events of a run of p then its summaries (one a device of p,
 * by rank; NULL for none) as JSON Lines to path, through a temporary file
 * renamed into place so that no half-written trace is left; a training
 * plan's trace starts with the header line.  Returns 0 or DM_EIO. */
int trace_write_jsonl(const char *path, const struct dm_plan *p, const struct ev *ev, size_t n_ev,
		      const struct ev_summary *sum, struct dm_err *err);

/* Parses the text of a trace as trace_write_jsonl writes it.
 *
 * Lines: one JSON object each, flat (string, integer, true and false values;
 * anything else, null, fractions and nested values included, is refused),
 * whitespace allowed, keys in any order, each at most once; blank lines
 * ignored; the last newline optional.  Only the keys trace_write_jsonl
 * writes for that kind of line are taken: an unknown key, or one of another
 * kind of line ("dst" on a recv, "sent_bytes" on an event), is refused with
 * its name, never skipped (a trace is never half understood).  Every event
 * line needs phase, step, op, rank, shard, row_begin, row_end, col_begin,
 * col_end, bytes, and dst for a send, src for a recv and a gather;
 * held_bytes, peak_bytes, t_begin_ns, t_end_ns (0) and truncated (false) are
 * optional; so are tensor (the forward's) and overwrite (false, on an add).
 * A "run" line, {"op":"run","train":B}, may come first (only there), with
 * "mode" ("tp-col" or "tp-row") and "reduce_scatter" (tp-row's, optional)
 * for a tensor-parallel trace; a training step's events (a tensor, add,
 * free) need it to say true, but for tensor parallel's ring, which adds.  Summary lines ("op":"summary") need rank, peak_bytes,
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

/* The plan t implies (its mode, its devices, the forward or the training
 * step) with bug, which a trace does not record.  Returns as plan_make. */
int trace_plan(const struct trace *t, enum dm_bug bug, struct dm_plan **out, struct dm_err *err);

/* Whether the trace can be a run of A (M x K) @ B (K x N) on t->n devices in
 * t->mode, correct or with one of the deliberate bugs.  The rules are those
 * replay_snapshot holds a log to (engine/trace/evrules.c), and more:
 *  - the shapes run_check_shapes allows, and those the events imply (A's
 *    rows, B's columns and, through the shards moved, B's rows);
 *  - every event: ranks, peers and shards in range, phases and steps of the
 *    schedule, the op its phase allows, rows per numpy.array_split, columns
 *    inside N (a moving shard's its split, a compute's no wider than its
 *    shard), bytes the size of the block, known flags, truncated only on an
 *    FSDP compute, held bytes within the peak;
 *  - events in phase order, one op of a kind per rank and phase, a peak that
 *    never falls, and the shards held, sent, received and computed with, and
 *    the columns written, those of the correct ring or of a run with one of
 *    the bugs (a candidate drops out at its first disagreement);
 *  - every phase complete (each rank computes; each message sent is
 *    received; rank 0 gathers every block) and the summaries the sums of the
 *    events, except in the trace of a run that failed (rank 0 did not
 *    gather every block, though ranks that went on may have sent theirs):
 *    there phases are held whole until the first that is not, and the
 *    summaries are not compared.
 * A training step's trace (t->train) is held to its own schedule and rules
 * (evrules_train.c: the backward's computes and all-gather, every chunk of
 * the reduce-scatter and DP's all-gather as the correct run or one with a
 * backward bug moves it, the frees, the gather's C, dA and dB); there K
 * also shows in dB's chunks and dA's blocks.
 * K shows only in the shards moved, so a DP trace and a one-device trace fit
 * any K.  Held bytes and times are not recomputed.  Returns 0, DM_EINVAL for
 * bad shapes, or DM_EFORMAT with a message ("the trace is for 8 rows, A has
 * 10", ...). */
int trace_check(const struct trace *t, size_t M, size_t K, size_t N, struct dm_err *err);

/* Writes the events of a run of p in the Chrome Trace Event Format:
 * {"traceEvents": [...]} with one track (pid 1, tid = rank) per device of p
 * named "rank R" (ph "M" thread_name metadata; process_name "distmm-tui
 * <MODE>"), and a complete event (ph "X",
 * ts and dur in microseconds as decimals, from t_begin_ns and t_end_ns) for
 * every compute, send, recv and gather, named "compute B[2]", "send B[2] ->
 * 3", "recv B[1] <- 0", "gather rows 2:4 <- 1" (and "compute B" for all of B,
 * "send rows 2:4 -> 0" for a block of C), cat = the op, args = the event's
 * fields (phase, step, shard, rows, cols, bytes, peer, held and peak bytes,
 * truncated).  A training plan's: process_name "distmm-tui <MODE> training
 * step", and its events named by tensor: "compute dA with B[2]", "compute
 * dB partial", "send dB[1] -> 2", "add into dB[0]" ("store over dB[0]"
 * with --bug no-sum), "free B[3]", "keep dB[1], free the partial", "gather
 * dA rows 2:4 <- 1"; args add "tensor" and "overwrite".  Every event,
 * metadata included, has ph, ts, pid and tid.  All or nothing through
 * outfile.h.  Returns 0, DM_EINVAL (events or the plan NULL), DM_EIO or
 * DM_ENOMEM. */
int trace_write_chrome(const char *path, const struct dm_plan *p, const struct ev *ev,
		       size_t n_ev, struct dm_err *err);

#endif
