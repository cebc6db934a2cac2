/* lanes: a run's timeline as lanes of glyphs (see lanes.h).  A lane is
 * written phase by phase from the cost_run's own figures: the columns of a
 * rank's compute and sends are rounded the same way as the phases' ends,
 * so a bar never crosses into the next phase. */
#include "lanes.h"

int lanes_col(double t, double total, int width)
{
	if (total <= 0 || width < 1)
		return 0;
	double x = t / total * width + 0.5;
	if (!(x >= 0)) /* negative, or NaN */
		return 0;
	return x >= width ? width : (int)x;
}

void lanes_phase_cols(const struct cost_run *c, int ph, int width, int *c0, int *c1)
{
	const struct cost_phase *x = &c->phase[ph];
	*c0 = lanes_col(x->start_s, c->total_s, width);
	*c1 = lanes_col(x->start_s + x->time_s, c->total_s, width);
	if (*c1 < *c0)
		*c1 = *c0;
}

int lanes_joined(const struct cost_run *c)
{
	for (int ph = 0; ph < c->phases; ph++)
		if (c->phase[ph].joined)
			return 1;
	return 0;
}

void lanes_fill(const struct cost_run *c, int r, int width, char *line)
{
	if (width < 0)
		return;
	for (int j = 0; j < width; j++)
		line[j] = LANES_WAIT;
	line[width] = '\0';
	for (int ph = 0; ph < c->phases; ph++) {
		const struct cost_phase *x = &c->phase[ph];
		int c0, c1;
		if (x->joined)
			continue; /* timed in the phase before, which drew the pair */
		lanes_phase_cols(c, ph, width, &c0, &c1);
		if (r < 0) {
			for (int j = c0; j < c1; j++)
				line[j] = x->critical >= 0 ? (char)('0' + x->critical % 10) : LANES_UNTIMED;
			continue;
		}
		const struct cost_lane *l = &c->lane[(size_t)ph * (size_t)c->n + (size_t)r];
		int ec = lanes_col(x->start_s + l->compute_s, c->total_s, width);
		if (ph + 1 < c->phases && c->phase[ph + 1].joined) {
			const struct cost_lane *m = &c->lane[(size_t)(ph + 1) * (size_t)c->n + (size_t)r];
			int em = lanes_col(x->start_s + m->comm_s, c->total_s, width);
			for (int j = c0; j < c1; j++)
				line[j] = j < ec && j < em ? LANES_BOTH
					  : j < ec	   ? LANES_COMPUTE
					  : j < em	   ? LANES_SEND
							   : LANES_WAIT;
			continue;
		}
		int es = lanes_col(x->start_s + l->compute_s + l->comm_s, c->total_s, width);
		for (int j = c0; j < c1; j++)
			line[j] = j < ec ? LANES_COMPUTE : j < es ? LANES_SEND : LANES_WAIT;
	}
}

void lanes_window(int n, int rows, int keep, int *first, int *count)
{
	*first = 0;
	*count = 0;
	if (n < 1 || rows < 1)
		return;
	if (rows >= n) {
		*count = n;
		return;
	}
	*count = rows;
	if (keep < 0 || keep >= n)
		return;
	int f = keep - rows / 2;
	f = f + rows > n ? n - rows : f;
	*first = f < 0 ? 0 : f;
}
