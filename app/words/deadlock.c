/* deadlock: the cycle of waits and its explanation (see deadlock.h).  The
 * explanation is chosen by what ran (the order, the bug), never by what
 * the table in docs/practice.md says should happen: the engine found the
 * deadlock, these words only say why that order makes one. */
#include "deadlock.h"

#include <stdio.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/order.h>

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

int deadlock_wait_text(const struct run_snapshot *s, int r, char *buf, size_t size)
{
	const struct run_dev_view *v = &s->dev[r];
	buf[0] = '\0';
	if (v->wait_state == RUN_WAIT_SEND && v->wait_shard >= 0)
		snprintf(buf, size, "waits to send shard %d to rank %d", v->wait_shard, v->wait_peer);
	else if (v->wait_state == RUN_WAIT_SEND)
		snprintf(buf, size, "waits to send to rank %d", v->wait_peer);
	else if (v->wait_state == RUN_WAIT_RECV && v->wait_via_rx)
		snprintf(buf, size, "waits for its receive thread, which waits for rank %d",
			 v->wait_peer);
	else if (v->wait_state == RUN_WAIT_RECV)
		snprintf(buf, size, "waits to receive from rank %d", v->wait_peer);
	else
		return 0;
	return 1;
}

const char *deadlock_why(const struct run_snapshot *s)
{
	if (s->bug == BUG_EXTRA_ROTATION)
		return "after its last step every rank sends its shard once more and no rank "
		       "receives any more: at capacity 0 a send ends only when it is received.";
	switch (s->order) {
	case ORDER_RECV_FIRST:
		return "every rank waits to receive before it sends, so no shard is ever sent: "
		       "this hangs at any capacity, on Python's unbounded Queue() too.";
	case ORDER_SEND_FIRST:
		return "each rank waits to send to the next and none is receiving: with synchronous "
		       "sends (capacity 0) a send ends only when it is received.";
	default:
		return "every device that is not idle is blocked in a send or a receive.";
	}
}

const char *deadlock_fix(const struct run_snapshot *s)
{
	if (s->bug == BUG_EXTRA_ROTATION)
		return "fix: send only between steps (while s < n - 1), one send for every receive.";
	return "fixes: alternate by rank parity (even ranks send first, odd ranks receive first: "
	       "--fix parity), start a receive thread before the send (--fix recv-thread), send "
	       "and receive in one call (--fix sendrecv), or buffer the send (--fix buffered).";
}
