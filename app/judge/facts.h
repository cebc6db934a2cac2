/* facts: what a finished run did, read off its records (rec.h) by content
 * (content.h): each message named and classified (a shard on the move, a
 * block of C for the gather, an input), each rank's transfers in order, the
 * shard it held at each step (its own at step 0, then the one it received
 * last), the result checked against A @ B by the engine's rule (verify.h,
 * mat.h: allclose with equal_nan, Freivalds from VERIFY_AUTO_MIN on), and
 * where each product landed in the result.
 *
 * Precision: a write is known by its content in the final C and is put at
 * the step at which the rank held that shard; a write a later one covered is
 * not seen (the later one is), and a rank that held one shard at two steps
 * is said to have written it at the first. */
#ifndef APP_JUDGE_FACTS_H
#define APP_JUDGE_FACTS_H

#include <stddef.h>
#include <stdint.h>

#include "judge/content.h"
#include "judge/rec.h"

/* A message is a shard on the move, a block of C for the gather, an input
 * (rows of A, B in DP), or other: no array at all (an executor's work item,
 * a sentinel), which is no part of the ring. */
enum facts_kind { FK_TRANSFER = 0, FK_GATHER, FK_INPUT, FK_OTHER };

struct facts_msg {
	const struct rec_msg *m;
	size_t id;                     /* its index in the run's messages */
	struct content_label label;    /* what it carried when sent */
	int owner;                     /* the tag that came with it, -1 */
	int kind;                      /* enum facts_kind */
	uint64_t bytes;
	int mutated;                   /* it changed between its send and its receive */
	struct content_label rlabel;   /* what it held when received */
	int late;                      /* it changed after its receive */
	struct content_label elabel;   /* what it ended as */
	int src, dst;                  /* dst: who received it, else whom it was for */
};

struct facts_list {
	size_t *ix;                    /* indices into facts.msg */
	size_t n;
};

struct facts_write {
	size_t col, pcol;              /* column of the result, column of A @ B it holds */
	int cut;                       /* cut to whole numbers */
};

struct facts_writes {
	struct facts_write *w;
	size_t n;
};

#define FACTS_ALL_B (-2)           /* held: all of B */

struct facts {
	const struct rec_run *run;
	const struct content *ct;
	int mode, n;
	struct facts_msg *msg;
	size_t n_msg;
	struct facts_list *sends, *recvs, *gsends; /* per rank: transfers sent, received; gather sends */
	struct facts_list gathered;    /* gather messages received, in the order they came */
	int **held;                    /* per rank: the shard at each step, -1 none, FACTS_ALL_B */
	size_t *n_held;
	int complete;                  /* the function returned, nothing raised or hung */
	const struct mat *R;           /* the result, when an M x N array of numbers */
	int int_result;                /* an array of integers (or booleans) */
	int ok;                        /* R is allclose to A @ B */
	size_t n_bad;                  /* elements (or rows, Freivalds) that are not */
	long *rmap;                    /* per row of R: the row of A @ B it is, -1 (or NULL) */
	struct content_col **cmap;     /* per rank: its columns (NULL when unknown) */
	struct facts_writes *writes;   /* per rank and shard (n * n): where that product went */
};

/* The facts of run r of a case (mode, n) with content ct.  Returns 0 or
 * DM_ENOMEM (f is freed either way by facts_free). */
int facts_build(struct facts *f, const struct rec_run *r, const struct content *ct, int mode,
		int n, uint64_t seed, struct dm_err *err);
void facts_free(struct facts *f);

const struct facts_msg *facts_at(const struct facts *f, const struct facts_list *l, size_t i);

/* Whether R (M x N) is A @ B by the engine's rule: allclose (equal_nan),
 * or Freivalds from VERIFY_AUTO_MIN multiply-adds on, as batch mode checks
 * a run; *n_bad the elements (or rows) that are not.  Returns 0 or an
 * engine error. */
int facts_is_c(const struct content *ct, const struct mat *R, uint64_t seed, int *ok,
	       size_t *n_bad, struct dm_err *err);

/* The shard rank r held at step s (-1 unknown, FACTS_ALL_B). */
int facts_held_at(const struct facts *f, int r, int s);
/* The steps rank r reached, as far as its events go. */
int facts_steps_reached(const struct facts *f, int r);
/* What rank r wrote at step s when it held shard k (a shard held at two
 * steps: its own columns at the first, the rest at the second), into out
 * (at most N); returns how many. */
size_t facts_placed_at(const struct facts *f, int r, int s, int k, struct facts_write *out);

/* A run of the result's rows p0:p1 that are rows q0:q0 + (p1 - p0) of
 * A @ B, or (q0 -1) none of its. */
struct facts_block {
	size_t p0, p1;
	long q0;
};

/* The result's rows in such runs.  Returns how many (out: M at most). */
size_t facts_row_blocks(const struct facts *f, struct facts_block *out);
/* Whether rank r's rows of the result are all zero. */
int facts_zero_rows(const struct facts *f, int r);

#endif
