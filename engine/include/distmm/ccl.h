/* ccl: the collectives family as pure arithmetic: which collectives and
 * algorithms there are, what each rank sends and receives at each phase,
 * and the bytes each rank sends in closed form.  The one home of that
 * arithmetic: the devices (exec/ccl_device.c) run it, the model
 * (<distmm/cost.h>) times it, the tests and later the interface read it.
 *
 * A collective works on a buffer of `count` doubles per rank cut into n
 * chunks by numpy.array_split (split.h); every message carries a
 * contiguous range of chunks [c0, c1).  S, the size the model and the
 * reports speak of, is the total as nccl-tests counts it: 8 * count bytes
 * (for all-gather and reduce-scatter the whole output, n chunks).
 *
 *   allreduce      every rank ends with the sum of every rank's buffer
 *   allgather      rank r starts with chunk r; every rank ends with all n
 *   reducescatter  rank r ends with chunk r of the sum
 *   broadcast      every rank ends with rank 0's buffer
 *   reduce         rank 0 ends with the sum
 *
 * The algorithms, each a sequence of primitives (ccl_prim):
 *   ring  allreduce: a reduce-scatter (n - 1 steps: rank r sends chunk
 *         (r - s - 1) mod n right and adds chunk (r - s - 2) mod n from the
 *         left into its own) then an all-gather (n - 1 steps: it sends chunk
 *         (r - s) mod n, stores (r - s - 1) mod n), the training step's
 *         rings (schedule.h); allgather and reducescatter: one of the two;
 *         broadcast and reduce: a chain 0 -> 1 -> ... -> n-1 (reduce: the
 *         other way, towards 0) pipelined chunk by chunk, 2(n - 1) steps,
 *         hop h passing chunk t - h at step t.
 *   tree  a binomial tree rooted at rank 0, L = ceil(log2 n) levels: at
 *         level k rank r with r mod 2^(k+1) = 2^k and rank r - 2^k are a
 *         pair.  Reduce up (the upper one sends its partial sum, the lower
 *         adds it: a binary tree of additions, L deep), broadcast down
 *         (levels L-1 to 0), gather up (the upper one sends the chunks of its
 *         subtree, [r, r + 2^k)), scatter down.  allreduce = reduce +
 *         broadcast, allgather = gather + broadcast, reducescatter = reduce
 *         + scatter, reduce and broadcast alone.  Every rank is in at most
 *         one transfer a level, so each level costs one message.
 *   rhd   n a power of two, p = log2 n steps each way: recursive halving
 *         (step k: partner r xor n/2^(k+1); each keeps the half of its range
 *         its bit names, sends the other half and adds the partner's: rank r
 *         ends with chunk r) and recursive doubling (step k: partner r xor
 *         2^k; each sends the block of 2^k chunks it holds and stores the
 *         partner's).  allreduce = halving + doubling, reducescatter =
 *         halving, allgather = doubling; not broadcast nor reduce.
 *
 * In every phase each rank sends at most one range and receives at most
 * one; a rank that does both sends first when its send goes to a higher
 * rank (or it receives nothing), else receives first, so that every chain
 * of waits ends at the top of its pairs: the steps complete on synchronous
 * channels too.  What a received range is added into is never the range
 * the rank sends in that phase. */
#ifndef DM_CCL_H
#define DM_CCL_H

#include <stddef.h>
#include <stdint.h>

#include "dm_err.h"

enum ccl_kind {
	CCL_ALLREDUCE = 0,
	CCL_ALLGATHER,
	CCL_REDUCESCATTER,
	CCL_BROADCAST,
	CCL_REDUCE,
	CCL_KIND_COUNT
};

enum ccl_algo {
	CCL_RING = 0,
	CCL_TREE,
	CCL_RHD, /* recursive halving-doubling */
	CCL_ALGO_COUNT
};

/* The primitives an algorithm is made of: what one phase of it does. */
enum ccl_prim {
	CCL_P_NONE = -1,
	CCL_P_RING_RS = 0,  /* a ring reduce-scatter step */
	CCL_P_RING_AG,      /* a ring all-gather step */
	CCL_P_CHAIN_BCAST,  /* a step of the pipelined chain from rank 0 */
	CCL_P_CHAIN_REDUCE, /* a step of the pipelined chain towards rank 0 */
	CCL_P_TREE_REDUCE,  /* a level of the binomial tree, summing up */
	CCL_P_TREE_BCAST,   /* a level, copying down */
	CCL_P_TREE_GATHER,  /* a level, gathering chunks up */
	CCL_P_TREE_SCATTER, /* a level, scattering chunks down */
	CCL_P_HALVING,      /* a step of recursive halving (a reduce-scatter) */
	CCL_P_DOUBLING,     /* a step of recursive doubling (an all-gather) */
	CCL_PRIM_COUNT
};

/* "allreduce", "allgather", "reducescatter", "broadcast", "reduce" (the
 * command line's words and nccl-tests' names without "_perf"); "?" */
const char *ccl_kind_name(enum ccl_kind kind);
/* "all-reduce", "all-gather", "reduce-scatter", "broadcast", "reduce" */
const char *ccl_kind_title(enum ccl_kind kind);
/* "ring", "tree", "rhd"; "?" */
const char *ccl_algo_name(enum ccl_algo algo);
/* The kind or algorithm of that name, or -1. */
int ccl_parse_kind(const char *name);
int ccl_parse_algo(const char *name);

/* Whether algo runs kind on n ranks (rhd: allreduce, allgather and
 * reducescatter alone, n a power of two).  Returns 0, or DM_EINVAL with err
 * saying why in one line. */
int ccl_check(enum ccl_kind kind, enum ccl_algo algo, int n, struct dm_err *err);
/* ccl_check without the words: 1 when it applies. */
int ccl_applies(enum ccl_kind kind, enum ccl_algo algo, int n);

/* ceil(log2 n), the tree's levels (0 for n = 1). */
int ccl_levels(int n);

/* The phases of kind by algo on n ranks (0 on one rank).  Assumes
 * ccl_applies. */
int ccl_phase_count(enum ccl_kind kind, enum ccl_algo algo, int n);
/* The primitive phase belongs to and, in *step, its step or level index
 * within it (a tree's levels counted in the order they run); CCL_P_NONE
 * past the end. */
enum ccl_prim ccl_phase_prim(enum ccl_kind kind, enum ccl_algo algo, int n, int phase,
			     int *step);
/* "reduce-scatter", "all-gather", "chain broadcast", "chain reduce", "tree
 * reduce", "tree broadcast", "tree gather", "tree scatter", "halving",
 * "doubling"; "?" */
const char *ccl_prim_name(enum ccl_prim prim);

/* What one rank does in one phase.  A range is of chunks, [c0, c1). */
struct ccl_xfer {
	int send_to;        /* -1: sends nothing */
	int send_c0, send_c1;
	int recv_from;      /* -1: receives nothing */
	int recv_c0, recv_c1;
	int reduce;         /* the range received is added into the rank's own (1) or
			       stored over it (0) */
	int send_first;     /* with both: the send comes first */
};

/* What rank does in phase (past the end, or on one rank: nothing). */
void ccl_rank_phase(enum ccl_kind kind, enum ccl_algo algo, int n, int phase, int rank,
		    struct ccl_xfer *x);

/* The chunks rank starts with holding its own part (allgather: chunk rank;
 * broadcast: all on rank 0, none elsewhere; the reductions: all), and the
 * ones its result is checked on (allreduce, allgather, broadcast: all;
 * reducescatter: chunk rank; reduce: all on rank 0, none elsewhere), as
 * ranges [*c0, *c1) (empty: c0 == c1). */
void ccl_input_chunks(enum ccl_kind kind, int n, int rank, int *c0, int *c1);
void ccl_output_chunks(enum ccl_kind kind, int n, int rank, int *c0, int *c1);

/* The bytes of chunks [c0, c1) of a buffer of count doubles cut into n. */
uint64_t ccl_range_bytes(size_t count, int n, int c0, int c1);

/* The bytes rank sends over the whole collective, in closed form with the
 * real chunk sizes w_c = 8 |chunk c| and S = 8 count (even chunks: the
 * textbook's (n-1)/n S and 2(n-1)/n S):
 *   ring: allreduce 2S - w_r - w_{r+1}; allgather S - w_{r+1};
 *     reducescatter S - w_r; broadcast S from every rank but the last,
 *     which sends nothing; reduce S from every rank but rank 0;
 *   tree: reduce S but the root; broadcast S a child; gather W(subtree r)
 *     but the root; scatter W(subtree r) - w_r; the pairs add up;
 *   rhd: halving S - w_r; doubling the sum over k of W(the block of 2^k
 *     chunks that holds r).
 * Assumes ccl_applies. */
uint64_t ccl_sent_bytes(enum ccl_kind kind, enum ccl_algo algo, int n, size_t count, int rank);

/* The check of rank's result: out (its count doubles) against kind's
 * result worked out sequentially from in (n x count, row q rank q's
 * buffer): the sum of the rows in rank order, row c's chunk c, row 0, on
 * the chunks ccl_output_chunks names, by numpy's allclose rule (atol 1e-8,
 * rtol 1e-5, a NaN equal to a NaN).  Returns how many elements differ;
 * *checked gets how many were compared, *max_err the largest |out - want|
 * (0 when none differs at all: with small integers every sum is exact). */
size_t ccl_verify(enum ccl_kind kind, int n, size_t count, const double *in, int rank,
		  const double *out, size_t *checked, double *max_err);

#endif
