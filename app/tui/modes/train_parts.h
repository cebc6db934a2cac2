/* train_parts: whose partials each chunk of dB holds, rank by rank, after
 * any step of the reduce-scatter and of DP's all-gather, and the words for
 * such a set ("p0+p1+p3").  The engine counts the parts (run_dev_view's
 * db_fill); this names them, by the engine's own rules with the run's bug
 * (<distmm/bug.h>: bug_rs_send_chunk, bug_rs_recv_chunk, bug_rs_adds; the
 * all-gather's sched_ag_*), so that a set's size is the engine's count.
 * Pure: no view, no curses. */
#ifndef TUI_MODES_TRAIN_PARTS_H
#define TUI_MODES_TRAIN_PARTS_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/bug.h>

#define TPARTS_MAX 64 /* ranks a set can name (the interface's most devices) */

/* A set of ranks' partials: bit p is rank p's part, p_p. */
typedef uint64_t tparts_set;

/* The sets on n devices after the partial, `rs` steps of the
 * reduce-scatter made by code with `bug` (0..n-1) and then `ag` steps of
 * the all-gather (0..n-1; DP's alone has one): out[r * n + c] is what chunk
 * c of rank r's dB holds.  A chunk a rank sent keeps what it held (the
 * rank's buffer keeps its copy).  Returns 0, or -1 when n is out of 1 ..
 * TPARTS_MAX or a step count out of range (out untouched). */
int tparts_after(int n, enum dm_bug bug, int rs, int ag, tparts_set *out);

/* The number of parts in s. */
int tparts_count(tparts_set s);

/* s in words, by rank: "p0+p1+p3", three or more in a row as a range
 * ("p0..p3", "p0..p2+p5"), "no part" for none. */
void tparts_words(tparts_set s, char *buf, size_t size);

#endif
