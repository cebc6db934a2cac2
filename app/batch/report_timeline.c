/* report_timeline: a run on the modelled clock, as text (see
 * report_timeline.h).  The lanes are lanes.c's, the interface's too: this
 * file only prints them, with their scale, the critical path and the
 * exposed communication.  Within a phase a rank computes, then sends,
 * then waits for the slowest rank: every second a rank on the critical
 * path spends sending is exposed; with --prefetch only the sending a
 * product does not cover is. */
#include "report_timeline.h"

#include <stdio.h>
#include <stdlib.h>

#include "timeline/lanes.h"
#include "words/clock_words.h"

void report_timeline(const struct cost_run *c, int width)
{
	char t[32], dt[32], ex[32];
	int joined = lanes_joined(c);
	if (c->total_s <= 0 || c->n < 1 || width < 1)
		return;
	char *line = malloc((size_t)width + 1);
	if (!line)
		return;
	clockw_time(c->total_s, t, sizeof t);
	clockw_time(c->total_s / width, dt, sizeof dt);
	printf("timeline on the modelled clock, 0 to %s, a column %s (C computing, = sending, %s"
	       ". waiting for the phase's slowest rank):\n", t, dt,
	       joined ? "# both at once, " : "");
	for (int r = 0; r < c->n; r++) {
		lanes_fill(c, r, width, line);
		printf("  rank %-4d |%s|\n", r, line);
	}
	lanes_fill(c, -1, width, line);
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
