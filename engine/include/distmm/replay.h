/* replay: the state of a run after any phase, rebuilt from A, B and the event
 * log alone: no threads, no transport, no engine run.  Stepping back in the
 * interface and replaying a trace rest on it, so it reproduces exactly what
 * run_snapshot_take() shows after that phase of a live run, C bit for bit:
 * every product is redone through gemm_acc() with the shapes and leading
 * dimensions the devices used. */
#ifndef DM_REPLAY_H
#define DM_REPLAY_H

#include <stddef.h>

#include "dm_err.h"
#include "evlog.h"
#include "mat.h"
#include "plan.h"
#include "run.h"

/* Rebuilds into s (made with run_snapshot_init for p and A's and B's
 * shapes; with values, or without: then s->c is left alone) the snapshot a
 * live run of plan p (its mode, devices, pass and bug) takes after phase
 * `upto` (-1: before the first), from A, B, a training step's dC (M x N,
 * with values; NULL for a forward plan) and the events (in the order
 * run_events gives them: phase by phase; only those with phase <= upto are
 * used, and they must come first).  A training step's dA and every rank's
 * dB are rebuilt bit for bit as C is (with values; without, only the fills
 * and the view).
 *
 * Every event used is held to the rules trace_check holds a trace to
 * (engine/trace/evrules.c) before s is touched: ranks, peers and shards in
 * range, the rank's own rows, columns inside B, bytes of the block, held
 * bytes within a peak that never falls, phases and steps of the schedule,
 * the op a phase allows, one op of a kind per rank and phase, and the shards
 * sent, received and computed with, and the columns written, those of the
 * run with p's bug (where it applies: bug_applies; a training step's are
 * its schedule's and the backward's bugs).  Phases are not held to
 * completeness (a run that failed stops mid-phase).  The shapes are
 * run_check_shapes'.  A tensor-parallel plan's events are held to
 * evrules_tp.c's rules (each the one event its rank makes) and rebuilt by
 * replay_tp.c, the ring's partials and parts (the ccl_* fields) and, after
 * a training step's last phase, dA and dB too.  Returns 0; DM_EINVAL for
 * bad arguments (upto, shapes, dC, or s made for other shapes or without a
 * training step's fields); DM_EFORMAT when the events do not fit A and B (err names the
 * event and why); DM_ENOMEM.  On failure s is unchanged. */
int replay_snapshot(struct run_snapshot *s, const struct dm_plan *p, const struct mat *a,
		    const struct mat *b, const struct mat *dc, const struct ev *ev, size_t n_ev,
		    int upto, struct dm_err *err);

/* The same snapshot, rebuilt from the events as they are, whatever rules
 * they break: a candidate's own run (--judge), which need not follow the
 * ring.  Every event with phase <= upto is used, in the log's order:
 *  - a compute of rank r with shard k (-1: all of B) into columns c0:c1 of
 *    rows r0:r1 adds A[r0:r1, :] @ B's shard k columns into C[r0:r1, c0:],
 *    cut to the narrower of the two widths (as fsdp.c's bugs do), and rank r
 *    holds shard k from then on;
 *  - a receive of shard k gives its rank shard k; a send of the shard held
 *    moves it out, unless a receive replaced it in that phase already; both
 *    count their bytes, and the last phase's say what moved where;
 *  - a gather places rows r0:r1, columns c0:c1 of the gathered C from the
 *    peer's rows of C (as many as both have); after the gather phase (the
 *    last) the snapshot's C is the gathered one, zeros where nothing was
 *    placed (a run that returned without gathering has placed nothing).
 * Only what keeps memory safe is checked, over every event: ops, ranks,
 * phases, peers (every op but a compute), shards (-1 or a rank), ranges
 * that are ranges inside A's rows (K's for a shard on the move) and B's
 * columns.  The run is a forward of p's mode on p's devices (p's pass and
 * bug are not read).  For a log that replay_snapshot accepts the snapshot
 * is the same, C bit for bit.  Returns 0; DM_EINVAL for bad arguments (as
 * replay_snapshot's); DM_EFORMAT with one line naming the event; DM_ENOMEM.
 * On failure s is unchanged. */
int replay_recorded(struct run_snapshot *s, const struct dm_plan *p, const struct mat *a,
		    const struct mat *b, const struct ev *ev, size_t n_ev, int upto,
		    struct dm_err *err);

/* Where a recorded log first leaves the correct ring (or the correct DP run). */
struct replay_wrong {
	long event;     /* index in the log of the first event the rules reject, -1 none */
	int phase;      /* its phase, -1 none */
	char why[DM_ERR_MSG_MAX]; /* the rule's words ("event 9: ..."), "" none */
};

/* Holds the whole log, event by event, to the rules trace_check holds a
 * trace of the correct run to (evrules.c, its correct candidate alone): one
 * event alone, the events so far, and every phase that is over held whole:
 * a phase is over once a later one has begun, and the log's last phase is
 * over when `over` says the run ended (the candidate's function returned);
 * else a log cut short (a run that stopped, a deadlock) is not wrong for
 * what it lacks at its end.  The first event a rule rejects is w->event:
 * the event the rule names, or, for a phase found incomplete without one,
 * that phase's first event (the event after it when it has none).  The run
 * is the correct forward of p's mode on p's devices.  Returns 0 with w
 * filled (event -1 when every rule holds), DM_EINVAL (shapes the engine
 * refuses), DM_ENOMEM. */
int replay_first_wrong(const struct dm_plan *p, const struct ev *ev, size_t n_ev, size_t M,
		       size_t K, size_t N, int over, struct replay_wrong *w, struct dm_err *err);

/* Whether the events are those of a run of p that finished: rank 0
 * gathered every rank's block of C in p's last phase (tensor parallel's:
 * every block of its last phase, or, ending with an all-reduce, every
 * rank received its last chunk).  The last phase alone
 * does not say: in a run that failed, ranks that went on may have sent their
 * rows to a rank 0 that had stopped. */
int replay_finished(const struct dm_plan *p, const struct ev *ev, size_t n_ev);

#endif
