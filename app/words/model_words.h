/* model_words: the memory model's numbers in sentences, for batch mode's
 * tables and the interface's memory view: what FSDP saves against DP, and
 * a training step's ring bytes as their closed form with the numbers.  The
 * numbers are the engine's model's (<distmm/model.h>); only the words are
 * here. */
#ifndef APP_MODEL_WORDS_H
#define APP_MODEL_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/model.h>
#include <distmm/plan.h>

/* The sentence on what the numbers mean for n devices and this B: what
 * FSDP saves (and at n = 2 why nothing: 2*B/2 = B; at n = 1 there is
 * nothing to compare), into buf. */
void modelw_saving_line(const struct model_compare *c, char *buf, size_t size);

/* The closed form of rank's training-step ring bytes sent in p's mode,
 * written out with its numbers: "2*(B - w1) + (B - w0) = 2*(192 - 48) +
 * (192 - 48) = 432"; "one device: no ring, 0". */
void modelw_ring_formula(const struct dm_plan *p, size_t K, size_t N, int rank, char *buf,
			 size_t size);

/* "12 B", "1.5 KiB", "2.0 MiB", "1.2 GiB". */
void modelw_bytes(uint64_t bytes, char *buf, size_t size);

/* x as a share of whole: "3/4", with `parts` as its denominator when that
 * is exact (the n of an even split: "2/8", "9/4"), else reduced ("1/2");
 * "all" and "none" for the whole and nothing. */
void modelw_fraction(uint64_t x, uint64_t whole, int parts, char *buf, size_t size);

/* What n ranks' x[r] are of whole, named `of` ("B"): "3/4 of B" when
 * every rank's is the same ("2 x B" for a multiple), else "on average 2/3
 * of B (ranks 0-1 3/4, rank 2 1/2)", ranks of one share named as a run.
 * parts as above. */
void modelw_shares(const uint64_t *x, int n, uint64_t whole, int parts, const char *of,
		   char *buf, size_t size);

/* What each rank of p's forward sends round the ring, as a share of B
 * (modelw_shares, from the model's ring bytes): "3/4 of B". */
void modelw_ring_share(const struct dm_plan *p, size_t M, size_t K, size_t N, char *buf,
		       size_t size);

/* The same for p's mode's training step: its ring bytes (the all-gathers
 * of B and the reduce-scatter or all-reduce of dB) against B's size, named
 * `of`. */
void modelw_train_share(const struct dm_plan *p, size_t K, size_t N, const char *of, char *buf,
			size_t size);

#endif
