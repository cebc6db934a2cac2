/* deadlock: words for a deadlock, shared by batch mode and the interface:
 * the cycle of waits read off a snapshot, and what fixes it. */
#ifndef APP_DEADLOCK_H
#define APP_DEADLOCK_H

#include <stddef.h>

#include <distmm/run.h>

/* "0 -> 1 -> 2 -> 3 -> 0", following who waits on whom from the lowest
 * blocked rank until a rank repeats (or the chain ends). */
void deadlock_cycle(const struct run_snapshot *s, char *buf, size_t size);

/* One line on why it happened and one on the fixes. */
const char *deadlock_why(void);
const char *deadlock_fix(void);

#endif
