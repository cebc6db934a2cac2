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
#include "run.h"

/* Rebuilds into s (made with run_snapshot_init for n devices and A's rows x
 * B's cols; with values, or without: then s->c is left alone) the snapshot a
 * live run takes after phase `upto` (-1: before the first), from A, B, the
 * run's mode, device count and bug, and the events (in the order run_events
 * gives them: phase by phase; only those with phase <= upto are used, and
 * they must come first).
 *
 * Every event used is checked against the shapes and the schedule before s
 * is touched: ranks, peers and shards in range, the rank's own rows, columns
 * inside B, phases and steps of the schedule, the op a phase allows, and a
 * compute made with the shard the rank holds then.  Returns 0; DM_EINVAL for
 * bad arguments (mode, n, bug, upto, shapes, or s made for other shapes);
 * DM_EFORMAT when the events do not fit A and B (err names the event and
 * why); DM_ENOMEM.  On failure s is unchanged. */
int replay_snapshot(struct run_snapshot *s, const struct mat *a, const struct mat *b, int mode,
		    int n, int bug, const struct ev *ev, size_t n_ev, int upto,
		    struct dm_err *err);

#endif
