/* verify: is C the product A @ B?  Two ways to tell, one rule.
 *
 * Exact: the sequential product R = A @ B (one dgemm) and numpy.allclose's
 * rule on every element, |C - R| <= atol + rtol*|R| (mat_allclose; for
 * values not finite see below).
 *
 * Freivalds: k random vectors x of +-1 and, row by row, Cx against A(Bx):
 * O(k(MK + KN + MN)) instead of O(MKN).  The bound is allclose's rule carried
 * through x: if every element passes allclose, then for any x
 *     |(Cx - A(Bx))_i| <= (atol*sum|x| + rtol*(|C||x|)_i) / (1 - rtol) + rounding_i
 * (|R| <= (|C| + atol)/(1 - rtol) when allclose holds; rounding_i bounds the
 * floating-point error of the reference and of the check's own products,
 * 2(K + N)u((|C||x|)_i + 2(|A||B||x|)_i)).  So the check never rejects what
 * the exact path accepts.  The other way round: if some element of row i is
 * off by more than that row's bound, each vector passes row i with
 * probability at most 1/2 (of x_j = +1 and x_j = -1 at most one can pass),
 * so k vectors miss it with probability at most 2^-k.  An element off by
 * less than its row's bound (the sum of a row's allclose tolerances) can
 * pass: the price of a check instead of a second product.
 *
 * Non-finite values: the exact rule is numpy's allclose with equal_nan
 * (mat_close): a NaN, or an infinity, in C exactly where A @ B has the same
 * passes (inputs that hold one give it to the product in the same places,
 * whatever the order of the sums); one where A @ B has a number, or a
 * number where it has one, fails.  Freivalds cannot apply that rule
 * through sums, so when a projection or a bound is not finite it does not
 * decide, and the caller runs the exact path, which does. */
#ifndef DM_VERIFY_H
#define DM_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "dm_err.h"
#include "mat.h"

#define VERIFY_ATOL 1e-8 /* numpy.allclose's defaults */
#define VERIFY_RTOL 1e-5
#define VERIFY_VECTORS 16 /* Freivalds' k: a miss is at most 2^-16, about 1.5e-5 */

/* From this many multiply-adds (M*K*N) on, the automatic choice is
 * Freivalds: below it the exact product costs a few milliseconds. */
#define VERIFY_AUTO_MIN ((uint64_t)1 << 24)

enum verify_method { VERIFY_EXACT = 0, VERIFY_FREIVALDS };

struct verify_result {
	enum verify_method method;
	int ok;             /* C passed */
	int decided;        /* Freivalds: 0 when a value was not finite (see above) */
	int vectors;        /* Freivalds: k */
	size_t checked;     /* elements (exact) or rows (Freivalds) checked */
	size_t n_bad;       /* elements (exact) or rows (Freivalds) that failed */
	size_t n_nonfinite; /* exact: elements that passed as the same NaN or infinity */
	size_t first_bad;   /* Freivalds: the first row that failed */
	double max_abs_err; /* exact: max |C - R|; Freivalds: max |Cx - A(Bx)| */
	double worst_ratio; /* Freivalds: max |Cx - A(Bx)| / bound over rows and vectors */
	double bound_min, bound_max; /* Freivalds: the rows' bounds */
};

/* An operand of the product as stored, used as it is or transposed: the
 * training step's products are dA = dC @ Bᵀ and dB = Aᵀ @ dC. */
struct verify_op {
	const struct mat *m;
	int trans; /* 1: the operand is mᵀ */
};

/* The method for M x K @ K x N when none is asked for. */
enum verify_method verify_auto_method(size_t M, size_t K, size_t N);

/* The exact check: allocates the product, compares, frees it.  Returns 0
 * (the verdict in *out) or DM_EINVAL (shapes) / DM_ENOMEM with err filled. */
int verify_exact(const struct mat *a, const struct mat *b, const struct mat *c,
		 struct verify_result *out, struct dm_err *err);

/* Freivalds' check with k vectors drawn from seed.  Returns 0 (the verdict in
 * *out; out->decided 0 means: run verify_exact) or DM_EINVAL / DM_ENOMEM. */
int verify_freivalds(const struct mat *a, const struct mat *b, const struct mat *c, int k,
		     uint64_t seed, struct verify_result *out, struct dm_err *err);

/* The same two checks of C = op(a) @ op(b) (the bound above with op(a) as A
 * and op(b) as B); verify_exact and verify_freivalds are these with neither
 * transposed. */
int verify_exact_op(struct verify_op a, struct verify_op b, const struct mat *c,
		    struct verify_result *out, struct dm_err *err);
int verify_freivalds_op(struct verify_op a, struct verify_op b, const struct mat *c, int k,
			uint64_t seed, struct verify_result *out, struct dm_err *err);

#endif
