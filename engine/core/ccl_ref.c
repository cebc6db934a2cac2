/* ccl_ref: a collective's result worked out sequentially, and a rank's
 * held to it (see ccl.h): the trusted side of a collective's run, as
 * verify.c is a product's.  The sum runs in rank order, one element at a
 * time, whatever order the algorithm added in. */
#include <distmm/ccl.h>

#include <math.h>

#include <distmm/split.h>
#include <distmm/verify.h>

size_t ccl_verify(enum ccl_kind kind, int n, size_t count, const double *in, int rank,
		  const double *out, size_t *checked, double *max_err)
{
	int c0, c1;
	size_t bad = 0;
	*checked = 0;
	*max_err = 0;
	ccl_output_chunks(kind, n, rank, &c0, &c1);
	if (c1 <= c0)
		return 0;
	for (size_t j = split_offset(count, n, c0); j < split_offset(count, n, c1); j++) {
		double want = 0;
		if (kind == CCL_ALLGATHER)
			want = in[(size_t)split_part_of(count, n, j) * count + j];
		else if (kind == CCL_BROADCAST)
			want = in[j];
		else
			for (int q = 0; q < n; q++)
				want += in[(size_t)q * count + j];
		double got = out[j], err = fabs(got - want);
		int same = isnan(want) ? isnan(got)
			   : isinf(want) ? got == want
					 : err <= VERIFY_ATOL + VERIFY_RTOL * fabs(want);
		if (!same)
			bad++;
		if (err > *max_err || (isnan(err) && !same))
			*max_err = err;
		(*checked)++;
	}
	return bad;
}
