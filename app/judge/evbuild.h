/* evbuild: a candidate's run as the program's own event log (evlog.h), made
 * here from the run's facts, so that the engine's rules (replay.h's
 * replay_first_wrong) name its first wrong event, the interface replays it
 * as recorded (replay_recorded), and --trace writes it with trace.h's
 * writers.  A correct run's log replays with -b --replay.
 *
 * Phases are the schedule's: FSDP compute s = 2s, the transfer after it
 * 2s + 1, the gather 2n - 1; DP compute 0, gather 1.  A rank's k-th
 * transfer send and receive make transfer k, in the order it made them; its
 * compute at step s uses the shard it held then and writes where that
 * product was found in C (facts_placed_at).  Rank 0's gather is in the
 * order the blocks came, then by where they went.  What the schedule has no
 * place for goes where it fits best: transfers past n - 1 into the gather
 * phase; messages that scatter the inputs are left out (the program's run
 * starts with them in place); a gather through shared memory (threads
 * writing into a list the caller stacks) is written as the program's
 * gather.  Times are the run's clock (scheduling points) in microseconds;
 * held and peak bytes follow the engine's accounting model, not the
 * candidate's memory. */
#ifndef APP_JUDGE_EVBUILD_H
#define APP_JUDGE_EVBUILD_H

#include <stddef.h>

#include <distmm/evlog.h>

#include "judge/facts.h"

/* What an event is, for a verdict to point at it. */
enum evbuild_keykind {
	KEY_NONE = 0,
	KEY_COMPUTE,   /* (rank, step) */
	KEY_SEND,      /* (rank, k-th transfer) */
	KEY_RECV,
	KEY_SEND_MSG,  /* (message) */
	KEY_RECV_MSG,
	KEY_GATHER,    /* (whose rows) */
	KEY_GSEND,     /* (rank) */
};

struct evbuild_key {
	int kind;
	long a, b;
};

struct evbuild {
	struct ev *ev;
	size_t n_ev, cap;
	struct evbuild_key (*keys)[2];
	long *msg;            /* per event: the message it is (-1) */
	struct ev_summary *sum;
	int n;
};

/* The log of f's run.  Returns 0 or DM_ENOMEM. */
int evbuild_make(struct evbuild *b, const struct facts *f, struct dm_err *err);

/* The index of the event key names (a gather not made: the send that
 * should have made it), or -1. */
long evbuild_find(const struct evbuild *b, int kind, long a, long c);

/* Hands the events and summaries over (to a struct trace); b keeps none. */
void evbuild_take(struct evbuild *b, struct ev **ev, size_t *n_ev, struct ev_summary **sum);

void evbuild_free(struct evbuild *b);

#endif
