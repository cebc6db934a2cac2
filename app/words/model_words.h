/* model_words: the memory model's numbers in sentences, for batch mode's
 * tables and the interface's memory view: what FSDP saves against DP, and
 * a training step's ring bytes as their closed form with the numbers.  The
 * numbers are the engine's model's (<distmm/model.h>); only the words are
 * here. */
#ifndef APP_MODEL_WORDS_H
#define APP_MODEL_WORDS_H

#include <stddef.h>

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

#endif
