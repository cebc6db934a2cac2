/* trace/: the event log (evlog.c) and what is made of it: its files (trace_jsonl.c,
 * trace_chrome.c), the rules a log follows (evrules.c, trace_check.c), the replay (replay.c).
 *
 * evlog: the event log in memory (see evlog.h): a growable array that each
 * device appends to, and the names of its ops. */
#include <distmm/evlog.h>

#include <stdint.h>
#include <stdlib.h>

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

const char *ev_op_name(enum ev_op op)
{
	switch (op) {
	case EV_COMPUTE: return "compute";
	case EV_SEND: return "send";
	case EV_RECV: return "recv";
	case EV_GATHER: return "gather";
	case EV_ADD: return "add";
	case EV_FREE: return "free";
	default: return "?"; /* a trace's own ops (trace_jsonl.c) and none */
	}
}

const char *ev_tensor_name(enum ev_tensor tensor)
{
	switch (tensor) {
	case EV_TENSOR_DA: return "dA";
	case EV_TENSOR_DB: return "dB";
	case EV_TENSOR_CCL: return "ccl";
	default: return ""; /* the forward's B and C */
	}
}
