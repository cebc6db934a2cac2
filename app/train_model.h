/* train_model: the training step's closed forms, one model that batch
 * mode's tables and the interface's memory view both read: for each rank,
 * the bytes it holds at every moment of the correct run (hence its peaks in
 * the forward and in the backward) and the bytes it sends and receives in
 * the ring phases and in the gather.  Pure arithmetic on the shapes, no
 * engine run; the tests hold the engine's accounting to it exactly.
 *
 * With w_k = 8·K·|chunk k| (chunk k: shard k's columns, numpy.array_split
 * of N into n), m_r rank r's rows, B = 8·K·N:
 *   held, FSDP: A_r + C_r + dC_r + w_r (its own shard, kept for the
 *     backward), plus during a ring step the shard it sends (from step 1 on:
 *     step 0 sends its own in place) and the one coming in; after each pass
 *     the gathered shard is let go; from the backward's first compute dA_r;
 *     from the partial the K x N partial dB (8·K·N), plus a chunk out and
 *     one in at each reduce-scatter step, the one in kept as the next
 *     step's send buffer (the same chunk); then its summed chunk w_r (in
 *     that buffer) instead of the partial; rank 0 the gathered C, dA and dB
 *     at the end.
 *   held, DP: A_r + C_r + dC_r + B, then dA_r, the partial, two chunks a
 *     ring step (reduce-scatter and all-gather, the one in kept for the
 *     next send until the last); rank 0 the gathered C, dA.
 *   ring bytes sent: FSDP 2·(B - w_{r+1}) + (B - w_r) (two all-gathers of
 *     B's shards, n - 1 each, and n - 1 chunks of the reduce-scatter); DP
 *     (B - w_r) + (B - w_{r+1}) (n - 1 chunks each way of the all-reduce).
 *     Received: FSDP 2·(B - w_r) + (B - w_{r-1}); DP (B - w_{r-1}) + (B - w_r).
 *   gather: rank r > 0 sends C_r + dA_r (+ w_r in FSDP), rank 0 receives
 *     the others'. */
#ifndef APP_TRAIN_MODEL_H
#define APP_TRAIN_MODEL_H

#include <stddef.h>
#include <stdint.h>

struct train_model_rank {
	uint64_t fwd_peak;    /* peak held bytes in the forward (its ring, or DP's compute) */
	uint64_t bwd_peak;    /* from the backward's first phase to the end, the gather included */
	uint64_t peak;        /* the larger */
	uint64_t ring_sent, ring_recv;     /* bytes in the ring phases (the closed forms) */
	uint64_t gather_sent, gather_recv; /* bytes in the gather to rank 0 */
	uint64_t end_held;    /* what it holds at the end */
};

/* Rank `rank` of n in mode (DM_FSDP, DM_DP) for A M x K, B K x N. */
void train_model_rank(int mode, int n, size_t M, size_t K, size_t N, int rank,
		      struct train_model_rank *out);

/* Rank `rank`'s bytes phase by phase: most[p] the most it holds during
 * phase p, held[p] what it holds at its end (either may be NULL; each has
 * sched_run_phase_count entries).  Returns that count. */
int train_model_phases(int mode, int n, size_t M, size_t K, size_t N, int rank, uint64_t *most,
		       uint64_t *held);

/* Every rank's bytes held together: the largest over the phases of the sum
 * of each rank's most in the phase (an upper bound: within a phase the
 * ranks need not peak at the same moment).  0 when out of memory. */
uint64_t train_model_together(int mode, int n, size_t M, size_t K, size_t N);

/* The same summed over every rank (peaks summed, as the tables' totals). */
void train_model_total(int mode, int n, size_t M, size_t K, size_t N,
		       struct train_model_rank *out);

/* The peak rank `rank` reaches by a point of the step given as a phase of
 * any mode's schedule (kind, step), for comparing the modes like with like:
 * through the same stage (the forward, the backward's dA, the partial, the
 * reduce-scatter, DP's all-gather, the gather), the forward and the dA
 * stage whole (their steps differ between the modes), the ring steps over
 * dB through the same step s.  *peak is the held bytes at the start when
 * nothing is counted; returns the last phase counted (-1 for none). */
int train_model_peak_by(int mode, int n, size_t M, size_t K, size_t N, int rank, int kind,
			int step, uint64_t *peak);

/* The closed form of rank r's ring bytes sent, written out with its
 * numbers: "2*(B - w1) + (B - w0) = 2*(192 - 48) + (192 - 48) = 432". */
void train_model_ring_formula(int mode, int n, size_t K, size_t N, int rank, char *buf,
			      size_t size);

#endif
