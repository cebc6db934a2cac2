/* report_timeline: -b --timeline, a run on the modelled clock as text: one
 * lane a rank, its products and its sends as bars, each phase's slowest
 * rank (the critical path) marked, the exposed communication summed.  The
 * times are a cost_run's (<distmm/cost.h>), the run's own events timed. */
#ifndef APP_REPORT_TIMELINE_H
#define APP_REPORT_TIMELINE_H

#include <distmm/cost.h>

#define REPORT_TIMELINE_WIDTH 64 /* columns for the whole run */

/* Prints c's timeline, width columns for its total time.  Nothing for a
 * run with no time (one rank of a collective: nothing moves). */
void report_timeline(const struct cost_run *c, int width);

#endif
