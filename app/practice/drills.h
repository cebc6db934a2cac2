/* drills: the follow-up questions of the clock and of tensor parallel,
 * asked one after another in a screen of their own (--quiz=clock,
 * --quiz=tp; app/tui/tui_drill.c): each a row of the question bank
 * (qbank.h), its truth the engine's (cost.h for times and sizes, model.h
 * and split.h for tensor parallel's shards and bytes).  The interview's
 * follow-up round asks some of these rows too: they are declared here,
 * their one home.  Pure: no curses. */
#ifndef APP_PRACTICE_DRILLS_H
#define APP_PRACTICE_DRILLS_H

#include <string.h>

#include "qbank.h"

enum drill_set {
	DRILL_CLOCK = 0, /* --quiz=clock: the ring's bytes, busbw, ring against tree, a time */
	DRILL_TP,        /* --quiz=tp: tensor parallel's shards, bytes and why */
	DRILL_SET_COUNT
};

#define DRILL_MAX 8   /* the most questions a set asks */
#define DRILL_RANKS 8 /* the timed questions' n without -d: the scaling book's examples' */

/* "clock", "tp"; NULL past the last.  Inline: the option parser names
 * the sets without linking the questions (its fuzzer links app/cli alone). */
static inline const char *drill_set_name(int set)
{
	static const char *const names[DRILL_SET_COUNT] = { [DRILL_CLOCK] = "clock",
							    [DRILL_TP] = "tp" };
	return set >= 0 && set < DRILL_SET_COUNT ? names[set] : NULL;
}

/* The set of that name, or -1. */
static inline int drill_set_find(const char *name)
{
	for (int i = 0; i < DRILL_SET_COUNT; i++)
		if (strcmp(name, drill_set_name(i)) == 0)
			return i;
	return -1;
}

/* How many questions set asks, and its question q. */
int drill_count(int set);
const struct qbank_row *drill_row(int set, int q);

/* The rows the interview's follow-up round asks too. */
extern const struct qbank_row drill_q_allreduce_bytes; /* 2(n-1)/n S, RS + AG */
extern const struct qbank_row drill_q_ring_latency;    /* 2(n-1) latencies at n = 64 */
extern const struct qbank_row drill_q_tp_weight;       /* 8KN/t a GPU */

#endif
