/* train_parts: the reduce-scatter's running sums as sets of ranks (see
 * train_parts.h).  Each step is worked out for every rank at once from the
 * sets before it, as the devices do it: a rank sends a chunk and receives
 * one in the same step, and adds (or, with no-sum, stores) only after both
 * calls, so what it sends is what it held before the step. */
#include "train_parts.h"

#include <stdio.h>
#include <string.h>

#include <distmm/schedule.h>

int tparts_after(int n, enum dm_bug bug, int rs, int ag, tparts_set *out)
{
	static tparts_set before[TPARTS_MAX * TPARTS_MAX]; /* the UI thread's alone */
	if (n < 1 || n > TPARTS_MAX || rs < 0 || rs > n - 1 || ag < 0 || ag > n - 1)
		return -1;
	for (int r = 0; r < n; r++)
		for (int c = 0; c < n; c++)
			out[r * n + c] = (tparts_set)1 << r; /* the partial: its own part everywhere */
	for (int s = 0; s < rs + ag; s++) {
		int scatter = s < rs, step = scatter ? s : s - rs;
		memcpy(before, out, (size_t)n * (size_t)n * sizeof *out);
		for (int r = 0; r < n; r++) {
			int left = sched_left(n, r);
			int sent = scatter ? bug_rs_send_chunk(bug, n, left, step)
					   : sched_ag_send_chunk(n, left, step);
			int into = scatter ? bug_rs_recv_chunk(bug, n, r, step)
					   : sched_ag_recv_chunk(n, r, step);
			tparts_set came = before[left * n + sent];
			out[r * n + into] = scatter && bug_rs_adds(bug) ? before[r * n + into] | came : came;
		}
	}
	return 0;
}

int tparts_count(tparts_set s)
{
	int k = 0;
	for (; s; s &= s - 1)
		k++;
	return k;
}

void tparts_words(tparts_set s, char *buf, size_t size)
{
	size_t len = 0;
	if (!size)
		return;
	buf[0] = '\0';
	if (!s) {
		snprintf(buf, size, "no part");
		return;
	}
	for (int p = 0; p < TPARTS_MAX && len < size; p++) {
		if (!(s >> p & 1))
			continue;
		int q = p;
		while (q + 1 < TPARTS_MAX && (s >> (q + 1) & 1))
			q++;
		const char *plus = len ? "+" : "";
		if (q - p >= 2)
			len += (size_t)snprintf(buf + len, size - len, "%sp%d..p%d", plus, p, q);
		else if (q == p + 1)
			len += (size_t)snprintf(buf + len, size - len, "%sp%d+p%d", plus, p, q);
		else
			len += (size_t)snprintf(buf + len, size - len, "%sp%d", plus, p);
		p = q;
	}
}
