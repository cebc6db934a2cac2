/* stuck: the words of a run that did not return a result to check (see
 * decide.h): its process ended before its records did, it raised, it hung
 * (a deadlock: every thread waits and none can go on), it ran out of time,
 * or it returned while its threads still ran.  The waits are the
 * harness's facts (rec_wait); what they mean (a cycle of sends, a receive
 * nobody will answer) is worked out here. */
#include "judge/decide.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/run.h>

/* A wait's thread, as a deadlock names it: "rank 2", else its words. */
static void stuck_who(const struct rec_run *r, int tid, char *buf, size_t size)
{
	int rank = rec_rank(r, tid);
	if (rank >= 0 && !r->th[tid].caller)
		snprintf(buf, size, "rank %d", rank);
	else
		decide_thread(r, tid, buf, size);
}

/* Messages rank took (every kind), and whether it sent any. */
static size_t stuck_received(const struct rec_run *r, int rank)
{
	size_t k = 0;
	for (size_t i = 0; i < r->n_msg; i++)
		k += r->msg[i].received && r->msg[i].rank == rank;
	return k;
}

static int stuck_sent_any(const struct rec_run *r, int tid)
{
	for (size_t i = 0; i < r->n_msg; i++)
		if (r->msg[i].stid == tid)
			return 1;
	return 0;
}

/* Appends rank to list (a sentence's list: "1", "1 and 2", "1, 2 and 3"),
 * the count-th of total. */
static void stuck_list(char *list, size_t size, int rank, size_t count, size_t total)
{
	size_t l = strlen(list);
	if (l + 16 < size)
		snprintf(list + l, size - l, "%s%d", !count ? "" : count + 1 == total ? " and " : ", ",
			 rank);
}

static const char *stuck_ordinal(size_t k)
{
	return k % 100 / 10 == 1 ? "th" : k % 10 == 1 ? "st" : k % 10 == 2 ? "nd" : k % 10 == 3 ? "rd"
										: "th";
}

/* One wait in words ("rank 0 waits to send shard 0 (B[:, 0:2]) to rank 1
 * (capacity 0: until rank 1 receives it)"). */
static void stuck_wait(const struct decide_in *in, const struct facts *f,
		       const struct rec_wait *w, int at, char *buf, size_t size)
{
	const struct rec_run *r = in->run;
	char who[160], what[256], where[1024] = "";
	stuck_who(r, w->tid, who, sizeof who);
	if (at)
		decide_where(in->path, &w->at, where, sizeof where);
	int rank = rec_rank(r, w->tid);
	switch (w->state) {
	case REC_RECV: {
		size_t got = rank >= 0 && rank < f->n ? f->recvs[rank].n : 0;
		if (f->mode == DM_FSDP && (int)got + 1 < f->n)
			snprintf(buf, size, "%s waits to receive from anyone (the shard for step %zu)%s",
				 who, got + 1, where);
		else
			snprintf(buf, size, "%s waits to receive from anyone%s", who, where);
		return;
	}
	case REC_SEND: {
		const struct facts_msg *m = w->mid >= 0 ? &f->msg[w->mid] : NULL;
		char why[96] = "";
		int dst = m ? m->m->dst : -1;
		if (m)
			content_words(in->ct, &m->label, m->owner, what, sizeof what);
		else
			snprintf(what, sizeof what, "a message");
		if (w->cap == 0)
			snprintf(why, sizeof why, " (capacity 0: until rank %d receives it)", dst);
		else if (w->cap > 0)
			snprintf(why, sizeof why, " (rank %d's inbox is full: %d message%s)", dst, w->cap,
				 w->cap == 1 ? "" : "s");
		snprintf(buf, size, "%s waits to send %s to rank %d%s%s", who, what, dst, why, where);
		return;
	}
	case REC_LOCK:
		if (!at)
			decide_where(in->path, &w->at, where, sizeof where);
		decide_thread(r, w->tid, who, sizeof who);
		if (w->target == w->tid)
			snprintf(buf, size, "%s waits for a lock it holds itself%s (threading.Lock is not "
				 "reentrant: take it once, or use an RLock)", who, where);
		else if (w->target >= 0) {
			decide_thread(r, w->target, what, sizeof what);
			snprintf(buf, size, "%s waits for a lock %s holds%s", who, what, where);
		} else
			snprintf(buf, size, "%s waits for a lock%s", who, where);
		return;
	case REC_JOIN:
		decide_thread(r, w->target, what, sizeof what);
		snprintf(buf, size, "%s waits in join for %s%s", r->th[w->tid].caller ? "the caller" : who,
			 what, where);
		return;
	default: {
		static const char *const words[REC_STATES] = {
			[REC_NEW] = "has not started (one thread runs at a time)",
			[REC_READY] = "waits for its turn",
			[REC_RUNNING] = "runs",
			[REC_COND] = "waits on a condition (an Event, a Barrier, a Semaphore)",
			[REC_SLEEP] = "sleeps",
			[REC_DONE] = "has ended",
		};
		decide_thread(r, w->tid, who, sizeof who);
		snprintf(buf, size, "%s %s%s", who, words[w->state] ? words[w->state] : "waits", where);
	}
	}
}

/* The ranks blocked, for the screen's panels. */
static void stuck_waits(struct decide_out *o, const struct decide_in *in, const struct facts *f)
{
	const struct rec_run *r = in->run;
	o->waits = calloc(r->n_wait ? r->n_wait : 1, sizeof *o->waits);
	if (!o->waits) {
		o->oom = 1;
		return;
	}
	for (size_t i = 0; i < r->n_wait; i++) {
		const struct rec_wait *w = &r->wait[i];
		int rank = rec_rank(r, w->tid);
		if (rank < 0 || rank >= f->n || r->th[w->tid].caller ||
		    (w->state != REC_SEND && w->state != REC_RECV))
			continue;
		struct judge_wait *x = &o->waits[o->n_waits++];
		x->rank = rank;
		x->send = w->state == REC_SEND;
		x->peer = -1;
		x->shard = -1;
		if (x->send && w->mid >= 0) {
			const struct facts_msg *m = &f->msg[w->mid];
			x->peer = m->m->dst >= 0 && m->m->dst < f->n ? m->m->dst : -1;
			x->shard = m->label.kind == CT_B ? m->label.k : -1;
		}
	}
}

/* The order a deadlock's waits are said in: ranks, then the rest, the
 * caller last. */
static int stuck_key(const struct rec_run *r, const struct rec_wait *w)
{
	int rank = rec_rank(r, w->tid);
	return r->th[w->tid].caller ? 1 << 30 : rank < 0 ? (1 << 29) + w->tid : rank;
}

static void stuck_sorted(const struct rec_run *r, size_t *ix)
{
	for (size_t i = 0; i < r->n_wait; i++)
		ix[i] = i;
	for (size_t i = 1; i < r->n_wait; i++)
		for (size_t j = i; j > 0 && stuck_key(r, &r->wait[ix[j]]) < stuck_key(r, &r->wait[ix[j - 1]]);
		     j--) {
			size_t t = ix[j];
			ix[j] = ix[j - 1];
			ix[j - 1] = t;
		}
}

/* Receives nobody will answer: what each receiver got, and who is gone
 * ("rank 0 received 2 messages and waits for a 3rd that no rank will send:
 * ranks 1 and 2 sent and returned"). */
static void stuck_unanswered(struct decide_out *o, const struct rec_run *r)
{
	char line[1024] = "", gone[512] = "", silent[512] = "", tail[1100] = "";
	size_t len = 0, n_gone = 0, n_silent = 0, receivers = 0;
	for (size_t i = 0; i < r->n_wait; i++)
		receivers += r->wait[i].state == REC_RECV;
	/* several ranks and none sent at all: a ring that receives first */
	if (!r->n_msg && receivers > 1) {
		decide_note(o, "every rank waits to receive and no message is on the way: nobody sends "
			    "first (with the exercise's Queue() a send never blocks: send, then receive)");
		return;
	}
	for (size_t i = 0; i < r->n_wait && len < sizeof line - 200; i++) {
		const struct rec_wait *w = &r->wait[i];
		int rank = rec_rank(r, w->tid);
		if (w->state != REC_RECV || rank < 0)
			continue;
		size_t got = stuck_received(r, rank);
		char count[48] = "none";
		if (got)
			snprintf(count, sizeof count, "%zu message%s", got, got == 1 ? "" : "s");
		len += (size_t)snprintf(line + len, sizeof line - len, "%srank %d received %s and "
					"waits for a %zu%s that no rank will send", len ? "; " : "",
					rank, count, got + 1, stuck_ordinal(got + 1));
	}
	if (!len)
		return;
	size_t all_gone = 0, all_silent = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t t = 0; t < r->n_th; t++) {
			int rank = rec_rank(r, (int)t), waits = 0;
			for (size_t i = 0; i < r->n_wait; i++)
				waits |= r->wait[i].tid == (int)t;
			if (r->th[t].caller || rank < 0 || waits)
				continue;
			int sent = stuck_sent_any(r, (int)t);
			if (!pass) {
				all_gone += (size_t)sent;
				all_silent += (size_t)!sent;
			} else if (sent) {
				stuck_list(gone, sizeof gone, rank, n_gone++, all_gone);
			} else {
				stuck_list(silent, sizeof silent, rank, n_silent++, all_silent);
			}
		}
	if (n_gone)
		snprintf(tail, sizeof tail, ": rank%s %s sent and returned", n_gone == 1 ? "" : "s", gone);
	if (n_silent) {
		size_t l = strlen(tail);
		snprintf(tail + l, sizeof tail - l, "%srank%s %s returned without sending",
			 n_gone ? "; " : ": ", n_silent == 1 ? "" : "s", silent);
	}
	if (!n_gone && !n_silent)
		snprintf(tail, sizeof tail, "%s", receivers > 1 ? ": every other rank waits to receive too"
						: ": there is no other rank");
	decide_note(o, "%s%s", line, tail);
}

/* When every blocked thread sends: the cycle of their sends from the lowest
 * rank ("0 -> 1 -> 2 -> 0") into cycle, and a rank that sends to itself
 * (-1 none); whether every send is a rendezvous. */
static int stuck_cycle(const struct rec_run *r, int n, char *cycle, size_t size, int *cap0)
{
	int *next = malloc((size_t)n * sizeof *next), self = -1, start = n;
	char *seen = calloc((size_t)n, 1);
	*cap0 = 1;
	cycle[0] = '\0';
	if (!next || !seen) {
		free(next);
		free(seen);
		return -1;
	}
	for (int k = 0; k < n; k++)
		next[k] = -1;
	for (size_t i = 0; i < r->n_wait; i++) {
		const struct rec_wait *w = &r->wait[i];
		int rank = rec_rank(r, w->tid);
		if (w->state != REC_SEND || rank < 0 || rank >= n || w->mid < 0)
			continue;
		int dst = r->msg[w->mid].dst;
		next[rank] = dst >= 0 && dst < n ? dst : -1;
		start = rank < start ? rank : start;
		*cap0 &= w->cap == 0;
		if (dst == rank && self < 0)
			self = rank;
	}
	size_t len = 0;
	int k = start < n ? start : -1;
	while (k >= 0 && !seen[k] && len + 16 < size) {
		seen[k] = 1;
		len += (size_t)snprintf(cycle + len, size - len, "%s%d", len ? " -> " : "", k);
		k = next[k];
	}
	if (k >= 0 && len + 16 < size)
		snprintf(cycle + len, size - len, " -> %d", k);
	else
		cycle[0] = '\0';
	free(next);
	free(seen);
	return self;
}

/* A deadlock: the waits, the cycle of sends, and why.  As a note (after
 * an exception): the waits alone. */
static void stuck_deadlock(struct decide_out *o, const struct decide_in *in, const struct facts *f,
			   int as_note)
{
	const struct rec_run *r = in->run;
	size_t *ix = malloc((r->n_wait ? r->n_wait : 1) * sizeof *ix), shown = 0, len = 0;
	size_t sends = 0, recvs = 0;
	char all[DECIDE_HEAD] = "", one[1200], cycle[512];
	if (!ix) {
		o->oom = 1;
		return;
	}
	stuck_sorted(r, ix);
	for (size_t i = 0; i < r->n_wait; i++) {
		const struct rec_wait *w = &r->wait[ix[i]];
		sends += w->state == REC_SEND;
		recvs += w->state == REC_RECV;
		stuck_wait(in, f, w, 0, one, sizeof one);
		if (shown < 4 && len + strlen(one) + 8 < sizeof all) {
			len += (size_t)snprintf(all + len, sizeof all - len, "%s%s", shown ? "; " : "", one);
			shown++;
		}
	}
	if (shown < r->n_wait && len + 8 < sizeof all)
		snprintf(all + len, sizeof all - len, "; ...");
	if (as_note) {
		decide_note(o, "then the other threads deadlocked, waiting for it: %s", all);
		free(ix);
		return;
	}
	decide_head(o, JUDGE_DEADLOCK, "deadlock: %s", all);
	int cap0 = 0, self = sends && !recvs ? stuck_cycle(r, f->n, cycle, sizeof cycle, &cap0) : -1;
	if (sends && !recvs && self < 0 && cycle[0])
		decide_note(o, "the cycle of waits: %s", cycle);
	for (size_t i = 0; i < r->n_wait; i++) {
		stuck_wait(in, f, &r->wait[ix[i]], 0, one, sizeof one);
		decide_note(o, "%s", one);
	}
	free(ix);
	if (sends && !recvs && self >= 0)
		decide_note(o, "rank %d sends to itself and waits for that send to be received, which "
			    "only it could do%s: keep its own block instead of sending it", self,
			    cap0 ? " (capacity 0)" : " (its inbox is full)");
	else if (sends && !recvs)
		decide_note(o, "%s: alternate by rank parity (even ranks send first, odd ranks receive "
			    "first), or start the receive (a thread) before the send",
			    cap0 ? "every rank sends first and a send with capacity 0 ends only when it "
				   "is received, so none is receiving"
				 : "every rank sends into a full inbox and none is receiving");
	else if (recvs && !sends)
		stuck_unanswered(o, r);
	stuck_waits(o, in, f);
}

static void stuck_exception(struct decide_out *o, const struct decide_in *in, const struct facts *f)
{
	const struct rec_run *r = in->run;
	const struct rec_exc *e = &r->exc[0];
	char who[160], type[200], msg[800], where[1024];
	decide_esc(type, sizeof type, e->type, 100);
	decide_esc(msg, sizeof msg, e->msg, 160);
	decide_where(in->path, &e->at, where, sizeof where);
	if (e->load)
		snprintf(who, sizeof who, "loading the module");
	else if (r->th[e->tid].caller)
		snprintf(who, sizeof who, "the function");
	else
		decide_thread(r, e->tid, who, sizeof who);
	decide_head(o, JUDGE_EXCEPTION, "%s raised %s%s%s%s", who, type, *msg ? ": " : "", msg, where);
	for (size_t i = 1; i < r->n_exc && i < 4; i++) {
		decide_thread(r, r->exc[i].tid, who, sizeof who);
		decide_esc(type, sizeof type, r->exc[i].type, 100);
		decide_where(in->path, &r->exc[i].at, where, sizeof where);
		decide_note(o, "also: %s raised %s%s", who, type, where);
	}
	if (r->outcome == REC_DEADLOCK) {
		stuck_deadlock(o, in, f, 1);
		stuck_waits(o, in, f);
	} else if (r->outcome == REC_TIMEOUT) {
		decide_note(o, "then the other threads hung (they waited for it)");
	}
}

static void stuck_timeout(struct decide_out *o, const struct decide_in *in, const struct facts *f)
{
	const struct rec_run *r = in->run;
	char one[1600];
	decide_head(o, JUDGE_TIMEOUT, "timeout: no result after %g s, and no thread waits on "
		    "anything the judge sees: one runs without end (a loop that never ends, or one "
		    "that waits on a variable: wait on a queue, a lock or an Event instead)",
		    in->timeout_ms / 1000.0);
	for (size_t i = 0; i < r->n_wait; i++) {
		stuck_wait(in, f, &r->wait[i], 1, one, sizeof one);
		decide_note(o, "%s", one);
	}
}

static void stuck_unjoined(struct decide_out *o, const struct decide_in *in)
{
	const struct rec_run *r = in->run;
	char list[1024] = "", who[160];
	size_t len = 0;
	static const char *const words[REC_STATES] = {
		[REC_NEW] = "had not started", [REC_READY] = "was still running",
		[REC_RUNNING] = "was still running", [REC_RECV] = "waited to receive",
		[REC_SEND] = "waited to send", [REC_JOIN] = "waited in a join",
		[REC_LOCK] = "waited for a lock", [REC_COND] = "waited on a condition",
		[REC_SLEEP] = "slept",
	};
	for (size_t i = 0; i < r->n_live && len < sizeof list - 200; i++) {
		int st = r->live_state[i];
		decide_thread(r, r->live_tid[i], who, sizeof who);
		len += (size_t)snprintf(list + len, sizeof list - len, "%s%s %s", i ? ", " : "", who,
					st >= 0 && st < REC_STATES && words[st] ? words[st] : "ran");
	}
	decide_head(o, JUDGE_UNJOINED, "returned while rank threads were still running: join them "
		    "before reading the result");
	decide_note(o, "when it returned, %zu thread%s had not ended: %s", r->n_live,
		    r->n_live == 1 ? "" : "s", list);
}

int stuck_decide(struct decide_out *o, const struct decide_in *in, const struct facts *f)
{
	const struct rec_run *r = in->run;
	if (!r->ended) {
		if (strcmp(in->status, "late") == 0)
			decide_head(o, JUDGE_TIMEOUT, "the run did not answer 3 s after its time limit and "
				    "was killed (a loop that holds the interpreter?)");
		else if (strcmp(in->status, "big") == 0)
			decide_head(o, JUDGE_ERROR, "the run wrote more than 256 MiB of records and was "
				    "stopped");
		else
			decide_head(o, JUDGE_ERROR, "the run's process ended (%s) before its records "
				    "did: os._exit in the code, or a crash", in->status);
		return 1;
	}
	if (r->n_exc)
		stuck_exception(o, in, f);
	else if (r->outcome == REC_DEADLOCK)
		stuck_deadlock(o, in, f, 0);
	else if (r->outcome == REC_TIMEOUT)
		stuck_timeout(o, in, f);
	else if (r->n_live)
		stuck_unjoined(o, in);
	else if (r->outcome != REC_RETURNED)
		decide_head(o, JUDGE_ERROR, "the run ended (outcome %d) without saying why", r->outcome);
	else
		return 0;
	return 1;
}
