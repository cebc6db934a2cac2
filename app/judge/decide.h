/* decide: the verdict of one run of a case, decided here from the run's
 * facts alone (rec.h), never taken from the harness: the result checked
 * against this program's own product, the ring's first wrong event named by
 * the engine's rules (replay_first_wrong) on the log made from the facts
 * (evbuild.h), and the words a candidate can act on, with the formula and
 * the real numbers.  Verdicts, the most telling first: judge error (the
 * records do not parse), exception, deadlock, timeout, threads not joined,
 * wrong shape, mutated payload, mutated input, wrong neighbour, wrong
 * result, not a ring, messages left, pass.
 *
 * Every string of the candidate's (an exception's message, a thread's name,
 * a source line, what it printed) is escaped before it goes into the words:
 * the words reach a terminal. */
#ifndef APP_JUDGE_DECIDE_H
#define APP_JUDGE_DECIDE_H

#include <stddef.h>

#include <distmm/dm_err.h>
#include <distmm/trace.h>

#include "judge/content.h"
#include "judge/facts.h"
#include "judge/judge.h"
#include "judge/rec.h"

#define DECIDE_HEAD 1536

struct decide_out {
	int verdict;               /* enum judge_verdict */
	char head[DECIDE_HEAD];    /* the headline */
	char **notes;              /* detail lines */
	size_t n_notes;
	struct judge_wait *waits;  /* the ranks blocked at the end */
	size_t n_waits;
	long first_wrong;          /* in trace, -1 */
	struct trace trace;        /* the run as the program's event log */
	int has_trace;
	int held_all_b;            /* every rank held all of B at once */
	int oom;                   /* a note could not be kept */
};

/* What one run is judged on. */
struct decide_in {
	const char *path;          /* the solution, as the user named it */
	const struct judge_case *c;
	const struct content *ct;  /* the case's A, B and A @ B */
	const struct rec_run *run; /* its facts (parsed: parse_error is "") */
	const char *parse_error;   /* why its records did not parse, else "" */
	const char *status;        /* how its process ended (jd_main.py's word) */
	unsigned timeout_ms;
};

/* Decides into o (zeroed here; decide_out_free it).  Returns 0, or
 * DM_ENOMEM. */
int decide_run(struct decide_out *o, const struct decide_in *in, struct dm_err *err);
void decide_out_free(struct decide_out *o);

/* ---- shared by the deciding files (decide.c, stuck.c, wrong.c) ---- */

/* A detail line, printf-style. */
void decide_note(struct decide_out *o, const char *fmt, ...) DM_PRINTF(2, 3);
/* A headline, printf-style. */
void decide_head(struct decide_out *o, int verdict, const char *fmt, ...) DM_PRINTF(3, 4);

/* s (the candidate's) with its control characters escaped, cut to max
 * bytes of the original ("..." when cut), into out. */
void decide_esc(char *out, size_t size, const char *s, size_t max);

/* "rank 2's thread", "the caller", "thread <name>". */
void decide_thread(const struct rec_run *r, int tid, char *buf, size_t size);
/* " at FILE:LINE in FUNC(): `SRC`", or "" when the code was not the
 * candidate's. */
void decide_where(const char *path, const struct rec_where *w, char *buf, size_t size);

/* decide.c's checks that tensor parallel's verdicts share: a result that
 * is not an M x N array of numbers (wrong shape), the first payload or
 * input changed in place, messages never received; each 1 when it decided
 * o (decide_shape always does). */
void decide_shape(struct decide_out *o, const struct decide_in *in);
int decide_mutation(struct decide_out *o, const struct decide_in *in, const struct facts *f);
int decide_left(struct decide_out *o, const struct decide_in *in, const struct facts *f);

/* decide_tp.c: a tensor-parallel run that returned (stuck.c found nothing). */
int decide_tp(struct decide_out *o, const struct decide_in *in, const struct facts *f,
	      struct dm_err *err);
/* decide_tp.c: what a TP run that raised adds (the split its mode needs,
 * when numpy refused a product's shapes). */
void decide_tp_stuck(struct decide_out *o, const struct decide_in *in);

/* stuck.c: a run that raised, hung or ran out of time; 1 when it did (o
 * decided), else 0. */
int stuck_decide(struct decide_out *o, const struct decide_in *in, const struct facts *f);

/* wrong.c: a result that is not A @ B, from the first wrong event the rules
 * name (rules_event, -1 none: then what the facts show) and the log. */
struct evbuild;
void wrong_decide(struct decide_out *o, const struct decide_in *in, const struct facts *f,
		  const struct evbuild *b, long rules_event, const char *rules_why);

#endif
