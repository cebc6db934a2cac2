/* deadlock: words for a deadlock, shared by batch mode and the interface:
 * the cycle of waits read off a snapshot, what each device waits on, why
 * it happened with the order (or bug) that ran, and what fixes it. */
#ifndef APP_DEADLOCK_H
#define APP_DEADLOCK_H

#include <stddef.h>

#include <distmm/run.h>

/* "0 -> 1 -> 2 -> 3 -> 0", following who waits on whom from the lowest
 * blocked rank until a rank repeats (or the chain ends). */
void deadlock_cycle(const struct run_snapshot *s, char *buf, size_t size);

/* What device r waits on, "waits to send shard 3 to rank 0", "waits for its
 * receive thread, which waits for a shard from rank 3"; "" when it is not
 * blocked.  Returns whether it is. */
int deadlock_wait_text(const struct run_snapshot *s, int r, char *buf, size_t size);

/* One line on why it happened (from s->order and s->bug) and one on the
 * fixes. */
const char *deadlock_why(const struct run_snapshot *s);
const char *deadlock_fix(const struct run_snapshot *s);

#endif
