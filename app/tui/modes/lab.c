/* lab: the deadlock lab's mode (--order, --fix, a lesson's order; see
 * mode.h): what the order is at ready, each rank's calls at a transfer, a
 * sentence on what the order did, and f, the fixed order after a deadlock.
 * Between
 * phases every device is parked, so a transfer that completed leaves no
 * wait to show: what each device did is said from the order that ran (the
 * engine's own order_sends_first, the fix's calls) and what the snapshot
 * says moved, and during the transfer's motion its calls are shown one
 * after the other, as they happen: the first half of the motion is the
 * first call.  A transfer that could not end is the deadlock's, whose waits
 * draw_panel shows from the snapshot itself. */
#include "lab.h"

#include <stdio.h>
#include <string.h>

#include <distmm/order.h>
#include <distmm/run.h>
#include <distmm/schedule.h>
#include <distmm/split.h>

#include "tui/keys.h"
#include "tui/view.h"
#include "words/order_words.h"

/* Rank r's calls at the transfer on screen, in its order or fix; progress
 * 0..1 through the transfer's motion, or -1 at rest. */
static int lab_calls(const struct view *v, const void *data, int r, double progress, char *buf,
		     size_t size)
{
	const struct run_dev_view *d = &v->snap.dev[r];
	char out[16], in[16], bytes[24];
	int order = v->cfg.order, late = progress >= 0.5 || progress < 0;
	(void)data;
	buf[0] = '\0';
	if (v->snap.mode != DM_FSDP || v->kind != SCHED_TRANSFER || v->failed ||
	    d->sent_shard < 0 || d->recv_shard < 0)
		return 0;
	view_shard_name(v, r, d->sent_shard, out, sizeof out);
	view_shard_name(v, r, d->recv_shard, in, sizeof in);
	int to = d->sent_to, from = d->recv_from, at_rest = progress < 0 || progress >= 1;
	/* short enough for a panel of 30 columns (three to a 120-column screen) */
	switch (order) {
	case ORDER_RECV_THREAD:
		if (at_rest)
			snprintf(buf, size, "sent %s->%d; rx got %s<-%d", out, to, in, from);
		else if (!late)
			snprintf(buf, size, "rx <- %d while %s -> %d", from, out, to);
		else
			snprintf(buf, size, "rx thread got %s; joined", in);
		break;
	case ORDER_SENDRECV:
		snprintf(buf, size, "%s %s->%d, %s<-%d", at_rest ? "sendrecv" : "in sendrecv:", out, to,
			 in, from);
		break;
	case ORDER_BUFFERED:
		view_bytes((uint64_t)v->snap.K * split_size(v->snap.N, v->snap.n, d->sent_shard) * 8,
			   bytes, sizeof bytes);
		if (at_rest)
			snprintf(buf, size, "%s buffered->%d; got %s<-%d", out, to, in, from);
		else if (!late)
			snprintf(buf, size, "%s into send buffer (%s)", out, bytes);
		else
			snprintf(buf, size, "receiving %s from rank %d", in, from);
		break;
	default:
		if (order_sends_first(order, r)) {
			if (at_rest)
				snprintf(buf, size, "sent %s->%d, then got %s<-%d", out, to, in, from);
			else if (!late)
				snprintf(buf, size, "1. sending %s to rank %d", out, to);
			else
				snprintf(buf, size, "2. receiving %s from rank %d", in, from);
		} else {
			if (at_rest)
				snprintf(buf, size, "got %s<-%d, then sent %s->%d", in, from, out, to);
			else if (!late)
				snprintf(buf, size, "1. receiving %s from rank %d", in, from);
			else
				snprintf(buf, size, "2. sending %s to rank %d", out, to);
		}
	}
	return 1;
}

/* A sentence for the transfer's caption on what the order did. */
static int lab_transfer_note(const struct view *v, const void *data, char *buf, size_t size)
{
	int n = v->snap.n;
	char room[48];
	(void)data;
	buf[0] = '\0';
	if (v->snap.mode != DM_FSDP || n < 2)
		return 0;
	if (v->cfg.capacity == RUN_UNBOUNDED)
		snprintf(room, sizeof room, "unbounded, like Python's Queue()");
	else
		snprintf(room, sizeof room, "room for %zu message%s", v->cfg.capacity,
			 v->cfg.capacity == 1 ? "" : "s");
	switch (v->cfg.order) {
	case ORDER_SEND_FIRST:
		snprintf(buf, size, "send-first: each send waited in the next rank's inbox (%s), so "
				    "every rank got to its receive.",
			 room);
		break;
	case ORDER_RECV_FIRST:
		snprintf(buf, size, "recv-first: every rank waits to receive before it sends.");
		break;
	case ORDER_RECV_THREAD:
		snprintf(buf, size, "recv-thread: each rank's receive thread waited for its left "
				    "neighbour while the rank sent to the right: %d threads for %d "
				    "devices.",
			 2 * n, n);
		break;
	case ORDER_SENDRECV:
		snprintf(buf, size, "sendrecv: one call posted each rank's send and receive and ended "
				    "when both had (MPI_Sendrecv).");
		break;
	case ORDER_BUFFERED:
		snprintf(buf, size, "buffered: each rank copied its shard into a send buffer, went on "
				    "(MPI_Bsend) and received; the buffer is one shard more at the "
				    "peak.");
		break;
	default:
		snprintf(buf, size, "parity: even ranks sent while odd ranks received, then the other "
				    "way round: every send met its receive.");
	}	return 1;
}

/* At ready: the order (or the fixed one f ran) and the channels, the
 * question the lab asks.  The failure's words, a bug's and DP's own come
 * first, as the base run says them. */
static int lab_caption(const struct view *v, const void *data, char *buf, size_t size)
{
	int n = v->snap.n;
	char threads[64] = "";
	(void)data;
	if (v->kind != VIEW_READY || v->failed || v->snap.mode == DM_DP ||
	    view_bug_caption(v, v->snap.bug, NULL, 0))
		return 0;
	if (v->cfg.order == ORDER_RECV_THREAD && n > 1)
		snprintf(threads, sizeof threads, " Each device runs 2 threads: %d for %d.", 2 * n, n);
	if (v->cfg.order != ORDER_PARITY)
		snprintf(buf, size, "Ready: %s (%s), on channels of capacity %s.%s Will the ring "
				    "complete? Press n.",
			 orderw_describe(v->cfg.order), order_name(v->cfg.order),
			 v->cfg.capacity == RUN_UNBOUNDED ? "unbounded"
			 : v->cfg.capacity == 0		   ? "0 (synchronous sends)"
							   : "bounded",
			 threads);
	else if (v->fixed)
		snprintf(buf, size, "The fixed order: even ranks send first and odd ranks receive "
				    "first, so every send meets a receive. Press n for s=0.");
	else
		return 0;
	return 1;
}

/* A naive order that deadlocked: f can fix it. */
static int lab_fixable(const struct view *v)
{
	return (v->cfg.order == ORDER_SEND_FIRST || v->cfg.order == ORDER_RECV_FIRST) &&
	       v->failed && v->fail.code == DM_EDEADLOCK;
}

/* f: after a deadlock, the parity order (even ranks send first, odd
 * receive first) runs from the start, playing. */
static int lab_key(struct view *v, void *data, int action, int ch, uint64_t now)
{
	struct dm_err err;
	(void)data, (void)ch;
	if (action != ACT_FIX)
		return VIEW_KEY_PASS;
	if (lab_fixable(v)) {
		v->cfg.order = ORDER_PARITY;
		v->fixed = 1;
		view_restart(v, now, &err);
		view_toggle_play(v, now);
		snprintf(v->msg, sizeof v->msg, "f: the fixed order runs now: even ranks send "
						"first, odd ranks receive first.");
	} else if (v->cfg.order == ORDER_SEND_FIRST || v->cfg.order == ORDER_RECV_FIRST) {
		snprintf(v->msg, sizeof v->msg, "f: nothing to fix yet: f runs the fixed order once "
						"the ring deadlocks");
	} else if (order_is_fix(v->cfg.order)) {
		snprintf(v->msg, sizeof v->msg, "f: this ring runs the %s fix already: f is for a "
						"naive order's deadlock", order_name(v->cfg.order));
	} else {
		snprintf(v->msg, sizeof v->msg, "f: this ring runs the parity order already: every "
						"send meets a receive");
	}
	return VIEW_KEY_DONE;
}

static unsigned lab_needs(const struct view *v, const void *data, unsigned have)
{
	(void)data;
	return lab_fixable(v) ? have | KEYS_NEED_DEADLOCK : have; /* f: the parity order instead */
}

static const char *lab_absent(int action)
{
	return action == ACT_FIX ? "f fixes a naive order's deadlock (--naive, --order): this run "
				   "has none"
				 : NULL;
}

const struct view_mode mode_lab = {
	.name = "the deadlock lab",
	.layer = 60,
	.caption = lab_caption,
	.transfer_note = lab_transfer_note,
	.calls = lab_calls,
	.key = lab_key,
	.needs = lab_needs,
	.absent = lab_absent,
};
