/* evlog: the event array and its JSON Lines form (see evlog.h). */
#include <distmm/evlog.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/afile.h"
#include "core/xalloc.h"

int evlog_push(struct evlog *log, const struct ev *e)
{
	if (log->len == log->cap) {
		size_t cap = log->cap ? log->cap * 2 : 64;
		if (cap > SIZE_MAX / sizeof *log->ev)
			return DM_ENOMEM;
		struct ev *p = xrealloc(log->ev, cap * sizeof *p);
		if (!p)
			return DM_ENOMEM;
		log->ev = p;
		log->cap = cap;
	}
	log->ev[log->len++] = *e;
	return 0;
}

void evlog_free(struct evlog *log)
{
	free(log->ev);
	log->ev = NULL;
	log->len = 0;
	log->cap = 0;
}

const char *ev_op_name(int op)
{
	switch (op) {
	case EV_COMPUTE: return "compute";
	case EV_SEND: return "send";
	case EV_RECV: return "recv";
	case EV_GATHER: return "gather";
	}
	return "?";
}

int ev_format_json(const struct ev *e, char *buf, size_t size)
{
	char peer[32] = "";
	if (e->op == EV_SEND)
		snprintf(peer, sizeof peer, ",\"dst\":%" PRId32, e->peer);
	else if (e->op == EV_RECV || e->op == EV_GATHER)
		snprintf(peer, sizeof peer, ",\"src\":%" PRId32, e->peer);
	return snprintf(buf, size,
			"{\"phase\":%" PRId32 ",\"step\":%" PRId32 ",\"op\":\"%s\",\"rank\":%" PRId32
			"%s,\"shard\":%" PRId32 ",\"row_begin\":%" PRIu32 ",\"row_end\":%" PRIu32
			",\"col_begin\":%" PRIu32 ",\"col_end\":%" PRIu32 ",\"bytes\":%" PRIu64
			",\"held_bytes\":%" PRIu64 ",\"peak_bytes\":%" PRIu64 "%s"
			",\"t_begin_ns\":%" PRIu64 ",\"t_end_ns\":%" PRIu64 "}",
			e->phase, e->step, ev_op_name(e->op), e->rank, peer, e->shard, e->row_begin,
			e->row_end, e->col_begin, e->col_end, e->bytes, e->held, e->peak,
			(e->flags & EV_FLAG_TRUNCATED) ? ",\"truncated\":true" : "", e->t_begin_ns,
			e->t_end_ns);
}

int ev_format_summary_json(const struct ev_summary *s, char *buf, size_t size)
{
	return snprintf(buf, size,
			"{\"op\":\"summary\",\"rank\":%d,\"peak_bytes\":%" PRIu64
			",\"sent_bytes\":%" PRIu64 ",\"recv_bytes\":%" PRIu64 "}",
			s->rank, s->peak_bytes, s->sent_bytes, s->recv_bytes);
}

int evlog_write_jsonl(const char *path, const struct ev *ev, size_t n_ev,
		      const struct ev_summary *sum, size_t n_sum, struct dm_err *err)
{
	struct afile af;
	char line[512];
	int rc = afile_open(&af, path, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < n_ev; i++) {
		ev_format_json(&ev[i], line, sizeof line);
		fprintf(af.fp, "%s\n", line);
	}
	for (size_t i = 0; i < n_sum; i++) {
		ev_format_summary_json(&sum[i], line, sizeof line);
		fprintf(af.fp, "%s\n", line);
	}
	return afile_commit(&af, err);
}
