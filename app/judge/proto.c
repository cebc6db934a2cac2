/* proto: the judge's protocol, both directions (see proto.h).
 *
 * To the harness (its standard input), after the modules ("<count>\n", then
 * "<name> <bytes>\n<source>" for each, read by HARNESS_BOOT):
 *   job <TAB> path <TAB> display name <TAB> time limit in ms <TAB> cases
 *   case <TAB> id <TAB> dp_mat_mul|fsdp_mat_mul <TAB> n <TAB> M <TAB> K <TAB> N
 *        <TAB> capacity ("u" unbounded, or a number) <TAB> ints|floats
 *   then A (M*K) and B (K*N), row-major, as little-endian IEEE doubles.
 * From the harness (its standard output), one record a line, fields split by
 * tabs, the last one free text:
 *   boot (from HARNESS_BOOT, before it reads the modules)
 *   nonumpy <TAB> why          | hello <TAB> 1 <TAB> python version
 *   load <TAB> ok <TAB> dp 0|1 <TAB> fsdp 0|1 | load <TAB> error <TAB> line
 *   begin <TAB> id             | ev <TAB> id <TAB> one JSON Lines trace line
 *   note <TAB> id <TAB> text   | done
 *   wait <TAB> id <TAB> rank <TAB> send|recv <TAB> peer (-1) <TAB> shard (-1)
 *   case <TAB> id <TAB> verdict <TAB> first wrong event (-1) <TAB> schedule
 *        <TAB> runs <TAB> headline
 * Lines are the harness's; a record this reader does not know is refused,
 * so that the two cannot drift apart silently. */
#include "judge/proto.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/battery.h"
#include "judge/harness.h"
#include <distmm/mat.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

#define PROTO_VERSION 1
#define PROTO_MAX_FIELDS 8

static const char *const proto_verdicts[JUDGE_VERDICTS] = {
	[JUDGE_PASS] = "pass",
	[JUDGE_WRONG_RESULT] = "wrong-result",
	[JUDGE_WRONG_NEIGHBOUR] = "wrong-neighbour",
	[JUDGE_WRONG_SHAPE] = "wrong-shape",
	[JUDGE_NOT_A_RING] = "not-a-ring",
	[JUDGE_MUTATED_INPUT] = "mutated-input",
	[JUDGE_MUTATED_PAYLOAD] = "mutated-payload",
	[JUDGE_LEFT_MESSAGES] = "left-messages",
	[JUDGE_DEADLOCK] = "deadlock",
	[JUDGE_EXCEPTION] = "exception",
	[JUDGE_TIMEOUT] = "timeout",
	[JUDGE_ERROR] = "error",
	[JUDGE_NOT_RUN] = "not-run",
};

int judge_verdict_parse(const char *token, size_t len)
{
	for (int v = 0; v < JUDGE_VERDICTS; v++)
		if (strlen(proto_verdicts[v]) == len && memcmp(proto_verdicts[v], token, len) == 0)
			return v;
	return -1;
}

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
		      proto_printf(out, "\t%u\t%zu\n", j->timeout_ms, j->n_cases);
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
				   c->mode == DM_DP ? "dp_mat_mul" : "fsdp_mat_mul", c->n, c->M, c->K,
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

static struct judge_case *proto_case(struct judge *j, const char *id, size_t *index)
{
	char *end;
	long v = strtol(id, &end, 10);
	if (*end != '\0')
		return NULL;
	for (size_t i = 0; i < j->n_cases; i++)
		if (j->cases[i].id == v) {
			*index = i;
			return &j->cases[i];
		}
	return NULL;
}

static char *proto_dup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

static int proto_bad(struct dm_err *err, const char *what)
{
	dm_err_set(err, DM_EFORMAT, "the judge's harness said something unexpected (%s)", what);
	return PROTO_BAD;
}

/* A number that is all of field f, within [lo, hi]; else -2. */
static long proto_int(const char *f, long lo, long hi)
{
	char *end;
	long v = strtol(f, &end, 10);
	return *f && *end == '\0' && v >= lo && v <= hi ? v : -2;
}

/* wait <TAB> id <TAB> rank <TAB> send|recv <TAB> peer <TAB> shard */
static int proto_wait(struct judge_case *c, char **f, struct dm_err *err)
{
	struct judge_wait w;
	long rank = proto_int(f[2], 0, c->n - 1), peer = proto_int(f[4], -1, c->n - 1);
	long shard = proto_int(f[5], -1, c->n - 1);
	w.send = strcmp(f[3], "send") == 0;
	if (rank < 0 || peer < -1 || shard < -1 || (!w.send && strcmp(f[3], "recv") != 0))
		return proto_bad(err, "a wait");
	w.rank = (int)rank;
	w.peer = (int)peer;
	w.shard = (int)shard;
	struct judge_wait *d = realloc(c->waits, (c->n_waits + 1) * sizeof *d);
	if (!d)
		return proto_bad(err, "out of memory");
	c->waits = d;
	c->waits[c->n_waits++] = w;
	return PROTO_OTHER;
}

int proto_record(struct judge *j, char *line, size_t len, size_t *index, struct dm_err *err)
{
	char *f[PROTO_MAX_FIELDS];
	size_t fl[PROTO_MAX_FIELDS];
	(void)len;
	const char *rec = line;
	size_t nf;
	if (strncmp(line, "case\t", 5) == 0)
		nf = proto_fields(line, f, fl, 7);
	else if (strncmp(line, "ev\t", 3) == 0 || strncmp(line, "note\t", 5) == 0)
		nf = proto_fields(line, f, fl, 3);
	else if (strncmp(line, "wait\t", 5) == 0)
		nf = proto_fields(line, f, fl, 6);
	else
		nf = proto_fields(line, f, fl, 5);
	rec = f[0];
	if (strcmp(rec, "hello") == 0) {
		if (nf < 3 || atoi(f[1]) != PROTO_VERSION)
			return proto_bad(err, "hello");
		snprintf(j->version, sizeof j->version, "%s", f[2]);
		return PROTO_HELLO;
	}
	if (strcmp(rec, "boot") == 0)
		return PROTO_BOOT;
	if (strcmp(rec, "nonumpy") == 0)
		return PROTO_NONUMPY;
	if (strcmp(rec, "done") == 0)
		return PROTO_DONE;
	if (strcmp(rec, "load") == 0) {
		if (nf >= 3 && strcmp(f[1], "error") == 0) {
			snprintf(j->load_error, sizeof j->load_error, "%s", f[2]);
			return PROTO_LOADED;
		}
		if (nf < 4 || strcmp(f[1], "ok") != 0)
			return proto_bad(err, "load");
		j->has_dp = atoi(f[2]) != 0;
		j->has_fsdp = atoi(f[3]) != 0;
		return PROTO_LOADED;
	}
	if (nf < 2)
		return proto_bad(err, "a record without a case");
	struct judge_case *c = proto_case(j, f[1], index);
	if (!c)
		return proto_bad(err, "an unknown case");
	if (strcmp(rec, "begin") == 0)
		return PROTO_BEGIN;
	if (strcmp(rec, "ev") == 0 && nf == 3) {
		if (c->events_len + fl[2] + 2 > c->events_cap) {
			size_t cap = c->events_cap ? c->events_cap * 2 : 4096;
			while (cap < c->events_len + fl[2] + 2)
				cap *= 2;
			char *d = realloc(c->events, cap);
			if (!d)
				return proto_bad(err, "out of memory");
			c->events = d;
			c->events_cap = cap;
		}
		memcpy(c->events + c->events_len, f[2], fl[2]);
		c->events_len += fl[2];
		c->events[c->events_len++] = '\n';
		c->events[c->events_len] = '\0';
		return PROTO_OTHER;
	}
	if (strcmp(rec, "note") == 0 && nf == 3) {
		char **notes = realloc(c->notes, (c->n_notes + 1) * sizeof *notes);
		if (!notes)
			return proto_bad(err, "out of memory");
		c->notes = notes;
		if (!(notes[c->n_notes] = proto_dup(f[2], fl[2])))
			return proto_bad(err, "out of memory");
		c->n_notes++;
		return PROTO_OTHER;
	}
	if (strcmp(rec, "wait") == 0 && nf == 6)
		return proto_wait(c, f, err);
	if (strcmp(rec, "case") == 0 && nf == 7) {
		int v = judge_verdict_parse(f[2], fl[2]);
		if (v < 0)
			return proto_bad(err, "an unknown verdict");
		c->verdict = v;
		c->first_wrong = strtol(f[3], NULL, 10);
		snprintf(c->schedule, sizeof c->schedule, "%s", f[4]);
		c->runs = atoi(f[5]);
		free(c->headline);
		if (!(c->headline = proto_dup(f[6], fl[6])))
			return proto_bad(err, "out of memory");
		return PROTO_CASE;
	}
	return proto_bad(err, rec);
}

void proto_parse_traces(struct judge *j)
{
	for (size_t i = 0; i < j->n_cases; i++) {
		struct judge_case *c = &j->cases[i];
		struct dm_err err;
		if (!c->events_len || c->has_trace)
			continue;
		if (trace_parse(&c->trace, c->events, c->events_len, "(the judged run)", &err)) {
			snprintf(c->trace_error, sizeof c->trace_error, "%s", err.msg);
			continue;
		}
		c->has_trace = 1;
		if (c->first_wrong >= (long)c->trace.n_ev)
			c->first_wrong = -1;
	}
}

void proto_case_free(struct judge_case *c)
{
	free(c->headline);
	for (size_t i = 0; i < c->n_notes; i++)
		free(c->notes[i]);
	free(c->notes);
	free(c->events);
	free(c->waits);
	c->waits = NULL;
	c->n_waits = 0;
	if (c->has_trace)
		trace_free(&c->trace);
	c->headline = NULL;
	c->notes = NULL;
	c->n_notes = 0;
	c->events = NULL;
	c->has_trace = 0;
}
