/* deadlock: the cycle of waits and its explanation (see deadlock.h). */
#include "deadlock.h"

#include <stdio.h>
#include <string.h>


static int deadlock_blocked(const struct run_dev_view *d)
{
	return d->wait_state == RUN_WAIT_SEND || d->wait_state == RUN_WAIT_RECV;
}

void deadlock_cycle(const struct run_snapshot *s, char *buf, size_t size)
{
	unsigned char seen[RUN_MAX_DEVICES] = { 0 };
	size_t len = 0;
	int r = 0;
	buf[0] = '\0';
	while (r < s->n && !deadlock_blocked(&s->dev[r]))
		r++;
	if (r == s->n)
		return;
	for (int hops = 0; hops <= s->n && len < size; hops++) {
		len += (size_t)snprintf(buf + len, size - len, hops ? " -> %d" : "%d", r);
		if (len >= size || seen[r] || !deadlock_blocked(&s->dev[r]))
			break;
		seen[r] = 1;
		r = s->dev[r].wait_peer;
		if (r < 0 || r >= s->n)
			break;
	}
}

const char *deadlock_why(void)
{
	return "each rank waits to send to the next and none is receiving: with synchronous "
	       "sends (capacity 0) a send ends only when it is received.";
}

const char *deadlock_fix(void)
{
	return "fixes: alternate the order by rank parity (even ranks send first, odd ranks "
	       "receive first), or post the receive before the send.";
}
