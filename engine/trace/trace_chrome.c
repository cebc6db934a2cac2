/* trace_chrome: the event log in the Chrome Trace Event Format (see
 * trace.h), for Perfetto and chrome://tracing: one track a device, a
 * complete event a compute, send, receive or gather at its measured time
 * (and a training step's adds and frees), named by the tensor it is about
 * (tensor parallel's by its phase too: A distributed, the ring's chunks). */
#include <distmm/trace.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <distmm/outfile.h>
#include <distmm/schedule.h>

/* ns as microseconds with three decimals. */
static int trace_put_us(FILE *fp, uint64_t ns)
{
	return fprintf(fp, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

/* A training step's gradient events: dA's rows, dB's chunks. */
static void trace_chrome_grad_name(const struct ev *e, char *buf, size_t size)
{
	int da = e->tensor == EV_TENSOR_DA;
	switch (e->op) {
	case EV_COMPUTE:
		if (!da)
			snprintf(buf, size, "compute dB partial");
		else if (e->shard >= 0)
			snprintf(buf, size, "compute dA with B[%d]", e->shard);
		else
			snprintf(buf, size, "compute dA with B");
		break;
	case EV_SEND:
	case EV_RECV:
	case EV_GATHER: {
		const char *verb = e->op == EV_SEND ? "send" : e->op == EV_RECV ? "recv" : "gather";
		const char *dir = e->op == EV_SEND ? "->" : "<-";
		if (da)
			snprintf(buf, size, "%s dA rows %u:%u %s %d", verb, e->row_begin, e->row_end,
				 dir, e->peer);
		else
			snprintf(buf, size, "%s dB[%d] %s %d", verb, e->shard, dir, e->peer);
		break;
	}
	case EV_ADD:
		snprintf(buf, size, "%s dB[%d]", (e->flags & EV_FLAG_OVERWRITE) ? "store over" : "add into",
			 e->shard);
		break;
	default: /* EV_FREE */
		snprintf(buf, size, "keep dB[%d], free the partial", e->shard);
		break;
	}
}

/* Tensor parallel's events: A distributed, blocks of C, dA and dB
 * computed and gathered, the ring's chunks of C's (or dA's) rows. */
static void trace_chrome_tp_name(const struct dm_plan *p, const struct ev *e, char *buf,
				 size_t size)
{
	const char *t = e->tensor == EV_TENSOR_FWD ? "C" : ev_tensor_name(e->tensor);
	const char *dir = e->op == EV_SEND ? "->" : "<-";
	int kind = sched_phase_kind(p, e->phase);
	int ring = kind == SCHED_CCL_RING_RS || kind == SCHED_CCL_RING_AG;
	if (e->op == EV_COMPUTE)
		snprintf(buf, size, "compute %s rows %u:%u cols %u:%u", t, e->row_begin, e->row_end,
			 e->col_begin, e->col_end);
	else if (e->op == EV_ADD)
		snprintf(buf, size, "add into %s chunk %d (rows %u:%u)", t, e->shard, e->row_begin,
			 e->row_end);
	else if (ring)
		snprintf(buf, size, "%s %s chunk %d (rows %u:%u) %s %d", ev_op_name(e->op), t,
			 e->shard, e->row_begin, e->row_end, dir, e->peer);
	else if (kind == SCHED_DISTRIBUTE)
		snprintf(buf, size, "%s A %s %d", ev_op_name(e->op), dir, e->peer);
	else
		snprintf(buf, size, "%s %s rows %u:%u cols %u:%u %s %d", ev_op_name(e->op), t,
			 e->row_begin, e->row_end, e->col_begin, e->col_end, dir, e->peer);
}

static void trace_chrome_name(const struct dm_plan *p, const struct ev *e, char *buf,
			      size_t size)
{
	if (plan_mode_tp(plan_mode(p))) {
		trace_chrome_tp_name(p, e, buf, size);
		return;
	}
	if (e->tensor != EV_TENSOR_FWD) {
		trace_chrome_grad_name(e, buf, size);
		return;
	}
	switch (e->op) {
	case EV_COMPUTE:
		if (e->shard >= 0)
			snprintf(buf, size, "compute B[%d]", e->shard);
		else
			snprintf(buf, size, "compute B");
		break;
	case EV_SEND:
		if (e->shard >= 0)
			snprintf(buf, size, "send B[%d] -> %d", e->shard, e->peer);
		else
			snprintf(buf, size, "send rows %u:%u -> %d", e->row_begin, e->row_end,
				 e->peer);
		break;
	case EV_RECV:
		snprintf(buf, size, "recv B[%d] <- %d", e->shard, e->peer);
		break;
	case EV_GATHER:
		snprintf(buf, size, "gather rows %u:%u <- %d", e->row_begin, e->row_end, e->peer);
		break;
	case EV_FREE:
		snprintf(buf, size, "free B[%d]", e->shard);
		break;
	default:
		snprintf(buf, size, "event %d", e->op);
		break;
	}
}

static int trace_chrome_event(FILE *fp, const struct dm_plan *p, const struct ev *e)
{
	char name[96];
	uint64_t dur = e->t_end_ns > e->t_begin_ns ? e->t_end_ns - e->t_begin_ns : 0;
	trace_chrome_name(p, e, name, sizeof name);
	if (fprintf(fp, ",\n{\"name\":\"%s\",\"cat\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"ts\":",
		    name, ev_op_name(e->op), e->rank) < 0 ||
	    trace_put_us(fp, e->t_begin_ns) < 0 || fputs(",\"dur\":", fp) == EOF ||
	    trace_put_us(fp, dur) < 0)
		return DM_EIO;
	if (fprintf(fp, ",\"args\":{\"phase\":%d,\"step\":%d,\"shard\":%d,\"rows\":\"%u:%u\","
		    "\"cols\":\"%u:%u\",\"bytes\":%" PRIu64 ",\"held_bytes\":%" PRIu64
		    ",\"peak_bytes\":%" PRIu64, e->phase, e->step, e->shard, e->row_begin,
		    e->row_end, e->col_begin, e->col_end, e->bytes, e->held, e->peak) < 0)
		return DM_EIO;
	if (e->op == EV_SEND && fprintf(fp, ",\"dst\":%d", e->peer) < 0)
		return DM_EIO;
	if ((e->op == EV_RECV || e->op == EV_GATHER) && fprintf(fp, ",\"src\":%d", e->peer) < 0)
		return DM_EIO;
	if ((e->flags & EV_FLAG_TRUNCATED) && fputs(",\"truncated\":true", fp) == EOF)
		return DM_EIO;
	if (e->tensor != EV_TENSOR_FWD &&
	    fprintf(fp, ",\"tensor\":\"%s\"", ev_tensor_name(e->tensor)) < 0)
		return DM_EIO;
	if ((e->flags & EV_FLAG_OVERWRITE) && fputs(",\"overwrite\":true", fp) == EOF)
		return DM_EIO;
	return fputs("}}", fp) == EOF ? DM_EIO : 0;
}

static int trace_chrome_body(FILE *fp, const struct dm_plan *p, const struct ev *ev,
			     size_t n_ev)
{
	int n = plan_devices(p), train = plan_pass(p) == DM_TRAIN;
	enum dm_mode mode = plan_mode(p);
	if (fprintf(fp, "{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,"
		    "\"tid\":0,\"ts\":0,\"args\":{\"name\":\"distmm-tui %s%s\"}}",
		    plan_mode_name(mode), train ? " training step" : "") < 0)
		return DM_EIO;
	for (int r = 0; r < n; r++)
		if (fprintf(fp, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
			    "\"ts\":0,\"args\":{\"name\":\"rank %d\"}}"
			    ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%d,"
			    "\"ts\":0,\"args\":{\"sort_index\":%d}}", r, r, r, r) < 0)
			return DM_EIO;
	for (size_t i = 0; i < n_ev; i++)
		if (trace_chrome_event(fp, p, &ev[i]))
			return DM_EIO;
	return fputs("\n],\"displayTimeUnit\":\"ns\"}\n", fp) == EOF ? DM_EIO : 0;
}

int trace_write_chrome(const char *path, const struct dm_plan *p, const struct ev *ev,
		       size_t n_ev, struct dm_err *err)
{
	struct outfile of;
	if (!path || !p || (!ev && n_ev > 0))
		return dm_err_set(err, DM_EINVAL, "trace_write_chrome: missing argument");
	int rc = outfile_open(&of, path, err);
	if (rc)
		return rc;
	errno = 0;
	if (trace_chrome_body(of.fp, p, ev, n_ev)) {
		int e = errno;
		outfile_abort(&of);
		return dm_err_set(err, DM_EIO, "cannot write %s: %s", path,
				  e ? strerror(e) : "write error");
	}
	return outfile_commit(&of, err);
}
