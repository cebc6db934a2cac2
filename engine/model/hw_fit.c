/* hw_fit: alpha and beta from measured message times (see hw.h).  Weighted
 * least squares of t = a + b S with weights 1 / t^2: the normal equations
 * of a straight line, in microseconds and mebibytes so that the sums stay
 * well scaled from 8 B to 64 MiB. */
#include <distmm/hw.h>

#include <math.h>

#define HW_FIT_MIB 1048576.0

/* The weighted line through the points; b alone (a = 0) when origin. */
static void hw_fit_line(const double *x, const double *y, int n, int origin, double *a,
			double *b)
{
	double w = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
	for (int i = 0; i < n; i++) {
		double wi = 1.0 / (y[i] * y[i]);
		w += wi;
		sx += wi * x[i];
		sy += wi * y[i];
		sxx += wi * x[i] * x[i];
		sxy += wi * x[i] * y[i];
	}
	if (origin) {
		*a = 0;
		*b = sxx > 0 ? sxy / sxx : 0;
		return;
	}
	double det = w * sxx - sx * sx;
	*b = det != 0 ? (w * sxy - sx * sy) / det : 0;
	*a = (sy - *b * sx) / w;
}

int hw_fit_alpha_beta(const double *bytes, const double *seconds, int count, struct hw_fit *out,
		      struct dm_err *err)
{
	enum { HW_FIT_MAX = 64 };
	double x[HW_FIT_MAX], y[HW_FIT_MAX], a, b;
	int distinct = 0;
	if (count < 2 || count > HW_FIT_MAX)
		return dm_err_set(err, DM_EINVAL, "a fit of alpha and beta takes 2 to %d sizes, not %d",
				  HW_FIT_MAX, count);
	for (int i = 0; i < count; i++) {
		if (!(bytes[i] > 0) || !(seconds[i] > 0) || !isfinite(bytes[i]) || !isfinite(seconds[i]))
			return dm_err_set(err, DM_EINVAL, "point %d: %g bytes in %g s: both must be above "
					  "0", i, bytes[i], seconds[i]);
		x[i] = bytes[i] / HW_FIT_MIB;
		y[i] = seconds[i] * 1e6;
		distinct |= bytes[i] != bytes[0];
	}
	if (!distinct)
		return dm_err_set(err, DM_EINVAL, "a fit of alpha and beta needs two sizes at least");
	hw_fit_line(x, y, count, 0, &a, &b);
	out->alpha_zero = a < 0;
	if (a < 0)
		hw_fit_line(x, y, count, 1, &a, &b);
	if (!(b > 0))
		return dm_err_set(err, DM_EINVAL, "the times do not grow with the size: no bandwidth "
				  "fits them");
	out->alpha_us = a;
	out->bw_gbps = HW_FIT_MIB / b * 1e6 / 1e9; /* b: us a MiB */
	out->rms_rel = out->max_rel = 0;
	out->worst = 0;
	for (int i = 0; i < count; i++) {
		double r = fabs(a + b * x[i] - y[i]) / y[i];
		out->rms_rel += r * r;
		if (r > out->max_rel) {
			out->max_rel = r;
			out->worst = i;
		}
	}
	out->rms_rel = sqrt(out->rms_rel / count);
	return 0;
}
