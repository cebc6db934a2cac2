/* proto: the judge's protocol, both directions (see proto.h), and each
 * run's verdict decided from its records.
 *
 * To the harness (its standard input), after the modules ("<count>\n", then
 * "<name> <bytes>\n<source>" for each, read by HARNESS_BOOT):
 *   job <TAB> path <TAB> display name <TAB> time limit in ms <TAB> schedule
 *       (-1: each case under seeds 0, 1, 2; else that seed alone) <TAB> cases
 *   case <TAB> id <TAB> dp_mat_mul|fsdp_mat_mul <TAB> n <TAB> M <TAB> K <TAB> N
 *        <TAB> capacity ("u" unbounded, or a number) <TAB> ints|floats
 *   then A (M*K) and B (K*N), row-major, as little-endian IEEE doubles.
 *
 * From the harness (its standard output), one record a line, fields split
 * by tabs, the last one free text; a run's records ride in a frame:
 *   boot (from HARNESS_BOOT, before it reads the modules)
 *   nonumpy <TAB> why          | hello <TAB> 2 <TAB> python version
 *   load <TAB> ok <TAB> dp 0|1 <TAB> fsdp 0|1 <TAB> tp-col 0|1 <TAB> tp-row 0|1
 *                              | load <TAB> error <TAB> line
 *   begin <TAB> id             | end <TAB> id     | done
 *   run <TAB> id <TAB> seed <TAB> status <TAB> bytes, then that many bytes:
 *       one run's records, as its process wrote them; status says how the
 *       process ended: exit:N, signal:N, late (killed after its time limit
 *       and a grace), big (it wrote more than 256 MiB and was stopped).
 * The harness frames a run's records and nothing else: a run never holds the
 * harness's descriptor, so nothing a run writes can pass for a frame, a
 * case's end or a verdict (there is no verdict record at all).
 *
 * A run's records (jd_run.py writes them; rec.c reads them): each is a header
 * line "TAG INT... LEN...\n" (fields split by one space, at most 1024 bytes)
 * followed by as many bytes as each LEN says, a string each, raw (binary
 * safe: lengths, never delimiters).  The first is "hi 1"; the last "end".
 *   hi V                          the format's version (1)
 *   thr TID PARENT HINT CALLER | NAME
 *                                 a thread of the candidate's, TID 0, 1, ...
 *                                 in the order they started (0: the one that
 *                                 calls the function); HINT the rank its
 *                                 arguments name, -1
 *   snd MID TID T CSRC CDST FIRST QID QIDX CAP CRC NARR
 *                                 a put: message MID (0, 1, ...) by thread
 *                                 TID at clock T; send(src, dst)'s arguments
 *                                 (-1 none); the int a tuple item starts with
 *                                 (-1); the queue, its inbox index (-1) and
 *                                 capacity (-1 unbounded); the payload's
 *                                 checksum; then NARR arr records
 *   sent MID T OK                 the put ended at T (OK 0: withdrawn)
 *   rcv MID TID T0 T1 CDST QID QIDX CRC NARR
 *                                 a get took MID; recv(dst)'s argument (-1);
 *                                 the checksum then; the arrays again (NARR)
 *                                 when it changed since the put
 *   fin MID CRC NARR              after the run: MID changed since then
 *   arr TAG NDIM D0 D1 D2 D3 | DTYPE DATA
 *                                 an array of the record before: the int
 *                                 before it in its tuple (-1), its shape,
 *                                 numpy's dtype.str, and a 2-D array of
 *                                 numbers' values as little-endian doubles,
 *                                 D0*D1*8 bytes (or none: not numbers, or
 *                                 beyond the run's budget of raw bytes)
 *   exc TID LINE LOAD | TYPE MESSAGE FILE FUNC SOURCE
 *                                 a thread raised (LOAD 1: while loading);
 *                                 where: its innermost frame in the solution
 *                                 file (LINE 0: none was)
 *   wait TID STATE MID TARGET QID CAP LINE | FILE FUNC SOURCE
 *                                 a live thread at a deadlock or the time
 *                                 limit: its state (rec.h's enum rec_state),
 *                                 the message it sends, the thread it joins,
 *                                 the queue it reads, where it is
 *   live TID STATE                a thread not ended when the function returned
 *   ret KIND ITEMS ALLARR NARR | TYPE
 *                                 what it returned: 0 None, 1 an array, 2 a
 *                                 list or tuple (ITEMS of them, ALLARR all
 *                                 arrays), 3 anything else; NARR (0 or 1) arr
 *                                 records: the array, or what it converts to
 *   item I                        item I (0, 1, ... in order) of a returned list or
 *                                 tuple (ret KIND 2): one arr record
 *   inp WHICH                     A (0) or B (1) as the function left them:
 *                                 one arr record
 *   hold TID                      an array of B's shape a rank's function had
 *                                 as a local when it returned: one arr record
 *   out CUT | TEXT                what it printed (CUT 1: more than was kept)
 *   end OUTCOME CLOCK             0 returned, 1 raised, 2 deadlock, 3 time
 *                                 limit, 4 loading failed
 * Lines are the harness's; a record this reader does not know is refused,
 * so that the two cannot drift apart silently. */
#include "judge/proto.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/battery.h"
#include "judge/decide.h"
#include "judge/harness.h"
#include "judge/rec.h"
#include <distmm/mat.h>
#include <distmm/run.h>

#define PROTO_VERSION 2
#define PROTO_MAX_FIELDS 6

static int proto_put(struct proto_buf *b, const void *p, size_t n)
{
	if (n > SIZE_MAX - b->len - 1)
		return -1;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < b->len + n + 1)
			cap = cap > SIZE_MAX / 2 ? SIZE_MAX : cap * 2;
		char *d = realloc(b->data, cap);
		if (!d)
			return -1;
		b->data = d;
		b->cap = cap;
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
	b->data[b->len] = '\0';
	return 0;
}

static int proto_printf(struct proto_buf *b, const char *fmt, ...) DM_PRINTF(2, 3);

static int proto_printf(struct proto_buf *b, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof line)
		return -1;
	return proto_put(b, line, (size_t)n);
}

/* A matrix as little-endian doubles, whatever this machine's order. */
static int proto_matrix(struct proto_buf *b, const struct mat *m)
{
	unsigned char chunk[8 * 512];
	size_t total = m->rows * m->cols, k = 0;
	const double *d = m->data;
	while (k < total) {
		size_t c = 0;
		for (; c < 512 && k < total; c++, k++) {
			uint64_t u;
			memcpy(&u, &d[k], sizeof u);
			for (int i = 0; i < 8; i++)
				chunk[8 * c + (size_t)i] = (unsigned char)(u >> (8 * i));
		}
		if (proto_put(b, chunk, 8 * c))
			return -1;
	}
	return 0;
}

int proto_job(struct proto_buf *out, struct judge *j, struct dm_err *err)
{
	memset(out, 0, sizeof *out);
	int bad = proto_printf(out, "%zu\n", harness_module_count);
	for (size_t i = 0; i < harness_module_count && !bad; i++)
		bad = proto_printf(out, "%s %zu\n", harness_modules[i].name,
				   harness_modules[i].len) ||
		      proto_put(out, harness_modules[i].src, harness_modules[i].len);
	if (!bad)
		bad = proto_put(out, "job\t", 4) || proto_put(out, j->inside, strlen(j->inside)) ||
		      proto_put(out, "\t", 1) || proto_put(out, j->path, strlen(j->path)) ||
		      proto_printf(out, "\t%u\t%d\t%zu\n", j->timeout_ms, j->schedule, j->n_cases);
	for (size_t i = 0; i < j->n_cases && !bad; i++) {
		struct judge_case *c = &j->cases[i];
		struct mat a, b;
		char cap[32];
		if (battery_inputs(c, &a, &b, err)) {
			proto_buf_free(out);
			return DM_ENOMEM;
		}
		if (c->capacity == RUN_UNBOUNDED)
			strcpy(cap, "u");
		else
			snprintf(cap, sizeof cap, "%zu", c->capacity);
		bad = proto_printf(out, "case\t%d\t%s\t%d\t%zu\t%zu\t%zu\t%s\t%s\n", c->id,
				   judge_fn(c->mode), c->n, c->M, c->K,
				   c->N, cap, c->values == MAT_VALUES_INTS ? "ints" : "floats") ||
		      proto_matrix(out, &a) || proto_matrix(out, &b);
		mat_free(&a);
		mat_free(&b);
	}
	if (bad) {
		proto_buf_free(out);
		return dm_err_set(err, DM_ENOMEM, "out of memory for the judge's job");
	}
	return 0;
}

void proto_buf_free(struct proto_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

/* Splits line at tabs into at most max fields (the last keeps its tabs). */
static size_t proto_fields(char *line, char **f, size_t *flen, size_t max)
{
	size_t n = 0;
	char *p = line;
	while (n < max) {
		char *tab = n + 1 < max ? strchr(p, '\t') : NULL;
		f[n] = p;
		flen[n] = tab ? (size_t)(tab - p) : strlen(p);
		n++;
		if (!tab)
			break;
		*tab = '\0';
		p = tab + 1;
	}
	return n;
}

static int proto_bad(struct dm_err *err, const char *what)
{
	dm_err_set(err, DM_EFORMAT, "the judge's harness said something unexpected (%s)", what);
	return PROTO_BAD;
}

/* A number that is all of field f, within [lo, hi]; else lo - 1. */
static long long proto_int(const char *f, long long lo, long long hi)
{
	char *end;
	long long v = strtoll(f, &end, 10);
	return *f && *end == '\0' && v >= lo && v <= hi ? v : lo - 1;
}

static int proto_case(struct judge *j, const char *id, size_t *index)
{
	long long v = proto_int(id, 0, INT32_MAX);
	for (size_t i = 0; v >= 0 && i < j->n_cases; i++)
		if (j->cases[i].id == v) {
			*index = i;
			return 0;
		}
	return -1;
}

int proto_record(struct judge *j, char *line, size_t len, size_t *index,
		 struct proto_frame *frame, struct dm_err *err)
{
	char *f[PROTO_MAX_FIELDS];
	size_t fl[PROTO_MAX_FIELDS];
	(void)len;
	size_t nf = proto_fields(line, f, fl, strncmp(line, "load\t", 5) == 0 ? 2 + JUDGE_FNS : PROTO_MAX_FIELDS);
	const char *rec = f[0];
	if (strcmp(rec, "boot") == 0 && nf == 1)
		return PROTO_BOOT;
	if (strcmp(rec, "nonumpy") == 0)
		return PROTO_NONUMPY;
	if (strcmp(rec, "done") == 0 && nf == 1)
		return PROTO_DONE;
	if (strcmp(rec, "hello") == 0) {
		if (nf != 3 || proto_int(f[1], 0, 99) != PROTO_VERSION)
			return proto_bad(err, "hello");
		snprintf(j->version, sizeof j->version, "%s", f[2]);
		return PROTO_HELLO;
	}
	if (strcmp(rec, "load") == 0) {
		if (nf >= 3 && strcmp(f[1], "error") == 0) {
			snprintf(j->load_error, sizeof j->load_error, "%s", f[2]);
			for (size_t k = 3; k < nf; k++)  /* the line had tabs of its own */
				snprintf(j->load_error + strlen(j->load_error),
					 sizeof j->load_error - strlen(j->load_error), "\t%s", f[k]);
			return PROTO_LOADED;
		}
		if (nf != 2 + JUDGE_FNS || strcmp(f[1], "ok") != 0)
			return proto_bad(err, "load");
		for (int k = 0; k < JUDGE_FNS; k++) {
			if (proto_int(f[2 + k], 0, 1) < 0)
				return proto_bad(err, "load");
			j->has[k] = f[2 + k][0] == '1';
		}
		return PROTO_LOADED;
	}
	if (nf < 2 || proto_case(j, f[1], index))
		return proto_bad(err, "a record without a case of the job");
	if (strcmp(rec, "begin") == 0 && nf == 2)
		return PROTO_BEGIN;
	if (strcmp(rec, "end") == 0 && nf == 2)
		return PROTO_CASE;
	if (strcmp(rec, "run") == 0 && nf == 5) {
		long long seed = proto_int(f[2], 0, INT32_MAX);
		long long bytes = proto_int(f[4], 0, PROTO_FRAME_MAX);
		if (seed < 0 || bytes < 0 || fl[3] == 0 || fl[3] >= sizeof frame->status)
			return proto_bad(err, "a run's frame");
		frame->index = *index;
		frame->seed = (int)seed;
		frame->len = (size_t)bytes;
		memcpy(frame->status, f[3], fl[3] + 1);
		return PROTO_RUN;
	}
	return proto_bad(err, rec);
}

/* The case's matrices and product, once for all its runs. */
static int proto_inputs(struct judge *j, struct proto_session *ps, size_t index,
			struct dm_err *err)
{
	if (ps->ready && ps->index == index)
		return 0;
	proto_session_end(ps);
	struct judge_case c = j->cases[index];
	int rc = battery_inputs(&c, &ps->a, &ps->b, err);
	if (!rc && (rc = content_init(&ps->ct, &ps->a, &ps->b, c.n, err))) {
		mat_free(&ps->a);
		mat_free(&ps->b);
	}
	ps->ready = rc == 0;
	ps->index = index;
	ps->runs = 0;
	return rc;
}

void proto_session_end(struct proto_session *ps)
{
	if (!ps->ready)
		return;
	content_free(&ps->ct);
	mat_free(&ps->a);
	mat_free(&ps->b);
	ps->ready = 0;
}

/* The verdict's contents move from o into c (c's own go). */
static void proto_keep(struct judge_case *c, struct decide_out *o, const struct rec_run *r,
		       int seed)
{
	proto_case_free(c);
	c->verdict = o->verdict;
	c->headline = strdup(o->head);
	c->notes = o->notes;
	c->n_notes = o->n_notes;
	c->waits = o->waits;
	c->n_waits = o->n_waits;
	c->first_wrong = o->first_wrong;
	c->trace = o->trace;
	c->has_trace = o->has_trace;
	c->held_all_b = o->held_all_b;
	c->sched_seed = seed;
	if (seed == 0)
		snprintf(c->schedule, sizeof c->schedule, "reversed");
	else
		snprintf(c->schedule, sizeof c->schedule, "seed %d", seed);
	if (r->out && (c->output = malloc(r->out_len + 1))) {
		memcpy(c->output, r->out, r->out_len + 1);
		c->output_len = r->out_len;
		c->output_cut = r->out_cut;
	}
	memset(o, 0, sizeof *o);
}

int proto_run(struct judge *j, struct proto_session *ps, const struct proto_frame *frame,
	      const char *body, struct dm_err *err)
{
	struct judge_case *c = &j->cases[frame->index];
	struct rec_run r;
	struct dm_err perr = { 0, "" };
	struct decide_out o;
	int rc = proto_inputs(j, ps, frame->index, err);
	if (rc)
		return rc;
	int prc = rec_parse(&r, body, frame->len, c->n, &perr);
	if (prc == DM_ENOMEM) {
		rec_free(&r);
		return dm_err_set(err, DM_ENOMEM, "%s", perr.msg);
	}
	struct decide_in in = { j->path, c, &ps->ct, &r, prc ? perr.msg : "", frame->status,
				j->timeout_ms };
	rc = decide_run(&o, &in, err);
	ps->runs++;
	if (!rc && (c->verdict == JUDGE_NOT_RUN ||
		    (c->verdict == JUDGE_PASS && o.verdict != JUDGE_PASS))) {
		/* found under a seed whose default run passed: timing-dependent */
		int timing = c->verdict == JUDGE_PASS && frame->seed != 0;
		proto_keep(c, &o, &r, frame->seed);
		c->timing = timing;
		c->runs = ps->runs;
	}
	decide_out_free(&o);
	rec_free(&r);
	return rc;
}

void proto_case_free(struct judge_case *c)
{
	free(c->headline);
	for (size_t i = 0; i < c->n_notes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->waits);
	free(c->output);
	if (c->has_trace)
		trace_free(&c->trace);
	c->waits = NULL;
	c->n_waits = 0;
	c->headline = NULL;
	c->notes = NULL;
	c->n_notes = 0;
	c->output = NULL;
	c->output_len = 0;
	c->has_trace = 0;
}
