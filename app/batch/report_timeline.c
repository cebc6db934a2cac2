/* report_timeline: a run on the modelled clock, as text (see
 * report_timeline.h).  Column j of a lane stands for the time from j x dt
 * to (j + 1) x dt, dt = total / width; a phase takes the columns its start
 * and end fall in (rounded, so phases tile the line and a phase shorter
 * than a column may take none: the phase table above has every one).
 * Within a phase a rank computes, then sends (the model's order), then
 * waits for the slowest rank: every second a rank on the critical path
 * spends sending is exposed.  With --prefetch a step's transfer is joined
 * to its compute (cost.h): in the pair a rank computes and sends from the
 * same start, `#` while it does both, and only the sending the product
 * does not cover is exposed. */
#include "report_timeline.h"

#include <stdio.h>
#include <stdlib.h>

#include "words/clock_words.h"

/* The column a time falls at, 0..width. */
static int timeline_col(double t, double total, int width)
{
	if (total <= 0)
		return 0;
	int c = (int)(t / total * width + 0.5);
	return c < 0 ? 0 : c > width ? width : c;
}

/* Rank r's lane, or with r = -1 the critical path's (each phase's slowest
 * rank, its number's last digit), into line[width]. */
static void timeline_lane(const struct cost_run *c, int r, int width, char *line)
{
	for (int ph = 0; ph < c->phases; ph++) {
		const struct cost_phase *x = &c->phase[ph];
		int c0 = timeline_col(x->start_s, c->total_s, width);
		int c1 = timeline_col(x->start_s + x->time_s, c->total_s, width);
		if (r < 0) {
			for (int j = c0; j < c1; j++)
				line[j] = x->critical >= 0 ? (char)('0' + x->critical % 10) : '-';
			continue;
		}
		const struct cost_lane *l = &c->lane[(size_t)ph * (size_t)c->n + (size_t)r];
		if (ph + 1 < c->phases && c->phase[ph + 1].joined) {
			const struct cost_lane *m = &c->lane[(size_t)(ph + 1) * (size_t)c->n + (size_t)r];
			int ec = timeline_col(x->start_s + l->compute_s, c->total_s, width);
			int em = timeline_col(x->start_s + m->comm_s, c->total_s, width);
			for (int j = c0; j < c1; j++)
				line[j] = j < ec && j < em ? '#' : j < ec ? 'C' : j < em ? '=' : '.';
			continue;
		}
		int e0 = timeline_col(x->start_s + l->compute_s, c->total_s, width);
		int e1 = timeline_col(x->start_s + l->compute_s + l->comm_s, c->total_s, width);
		for (int j = c0; j < c1; j++)
			line[j] = j < e0 ? 'C' : j < e1 ? '=' : '.';
	}
	line[width] = '\0';
}

void report_timeline(const struct cost_run *c, int width)
{
	char t[32], dt[32], ex[32];
	int joined = 0;
	if (c->total_s <= 0 || c->n < 1 || width < 1)
		return;
	for (int ph = 0; ph < c->phases; ph++)
		joined |= c->phase[ph].joined;
	char *line = malloc((size_t)width + 1);
	if (!line)
		return;
	clockw_time(c->total_s, t, sizeof t);
	clockw_time(c->total_s / width, dt, sizeof dt);
	printf("timeline on the modelled clock, 0 to %s, a column %s (C computing, = sending, %s"
	       ". waiting for the phase's slowest rank):\n", t, dt,
	       joined ? "# both at once, " : "");
	for (int r = 0; r < c->n; r++) {
		timeline_lane(c, r, width, line);
		printf("  rank %-4d |%s|\n", r, line);
	}
	timeline_lane(c, -1, width, line);
	printf("  critical  |%s|  each phase's slowest rank (its last digit)\n", line);
	clockw_time(c->comm_s, ex, sizeof ex);
	if (joined)
		printf("exposed communication: %s of %s (%.1f%%): with --prefetch each transfer runs "
		       "beside its step's product, and only the sending a product does not cover is "
		       "exposed\n", ex, t, 100.0 * c->comm_s / c->total_s);
	else
		printf("exposed communication: %s of %s (%.1f%%): no transfer overlaps a product here, "
		       "so every send on the critical path is exposed\n", ex, t,
		       100.0 * c->comm_s / c->total_s);
	free(line);
}
