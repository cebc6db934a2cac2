/* check_trace_chrome: the Chrome Trace Event Format writer (engine/trace):
 * its file parsed back by a small strict JSON reader here (itself tested
 * first) and held to the run's events (names, times to the nanosecond,
 * threads and the process), large times, no events, and write errors
 * leaving nothing behind. */
#include <check.h>
#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/bug.h>
#include <distmm/evlog.h>
#include <distmm/schedule.h>
#include "testutil.h"
#include <distmm/trace.h>
#include "trace_util.h"

/* ---- a small JSON reader, to check the Chrome file --------------------- */

enum { J_OBJ, J_ARR, J_STR, J_NUM, J_LIT };

struct jv {
	int type;
	char *str;          /* J_STR */
	double num;         /* J_NUM */
	size_t n;           /* J_OBJ, J_ARR */
	char **keys;        /* J_OBJ */
	struct jv *kids;
};

struct jp {
	const char *p, *end;
};

static void jws(struct jp *j)
{
	while (j->p < j->end && *j->p && strchr(" \t\r\n", *j->p))
		j->p++;
}

static int jstring(struct jp *j, char **out)
{
	size_t cap = 16, len = 0;
	char *s = malloc(cap);
	if (j->p >= j->end || *j->p != '"')
		return free(s), -1;
	for (j->p++;; j->p++) {
		if (j->p >= j->end || (unsigned char)*j->p < 0x20)
			return free(s), -1;
		char c = *j->p;
		if (c == '"')
			break;
		if (c == '\\') {
			if (++j->p >= j->end || !*j->p || !strchr("\"\\/bfnrtu", *j->p))
				return free(s), -1;
			if (*j->p == 'u') {
				for (int k = 1; k <= 4; k++)
					if (j->p + k >= j->end ||
					    !j->p[k] || !strchr("0123456789abcdefABCDEF", j->p[k]))
						return free(s), -1;
				j->p += 4;
				c = '?';
			} else {
				c = *j->p;
			}
		}
		if (len + 2 > cap)
			s = realloc(s, cap *= 2);
		s[len++] = c;
	}
	j->p++;
	s[len] = '\0';
	*out = s;
	return 0;
}

static int jvalue(struct jp *j, struct jv *v, int depth);

static int jcontainer(struct jp *j, struct jv *v, int depth, char close)
{
	size_t cap = 0;
	v->n = 0;
	v->kids = NULL;
	v->keys = NULL;
	j->p++;
	jws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? cap * 2 : 8;
			v->kids = realloc(v->kids, cap * sizeof *v->kids);
			if (close == '}')
				v->keys = realloc(v->keys, cap * sizeof *v->keys);
		}
		jws(j);
		if (close == '}') {
			if (jstring(j, &v->keys[v->n]))
				return -1;
			jws(j);
			if (j->p >= j->end || *j->p != ':')
				return free(v->keys[v->n]), -1;
			j->p++;
		}
		if (jvalue(j, &v->kids[v->n], depth + 1)) {
			if (close == '}')
				free(v->keys[v->n]);
			return -1;
		}
		v->n++;
		jws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 0;
		}
		return -1;
	}
}

static int jvalue(struct jp *j, struct jv *v, int depth)
{
	memset(v, 0, sizeof *v);
	jws(j);
	if (j->p >= j->end || depth > 16)
		return -1;
	char c = *j->p;
	if (c == '{') {
		v->type = J_OBJ;
		return jcontainer(j, v, depth, '}');
	}
	if (c == '[') {
		v->type = J_ARR;
		return jcontainer(j, v, depth, ']');
	}
	if (c == '"') {
		v->type = J_STR;
		return jstring(j, &v->str);
	}
	static const char *const lits[] = { "true", "false", "null" };
	for (int k = 0; k < 3; k++) {
		size_t len = strlen(lits[k]);
		if ((size_t)(j->end - j->p) >= len && memcmp(j->p, lits[k], len) == 0) {
			j->p += len;
			v->type = J_LIT;
			return 0;
		}
	}
	/* a JSON number, strictly */
	const char *s = j->p;
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9')
		return -1;
	if (*j->p == '0' && j->p + 1 < j->end && j->p[1] >= '0' && j->p[1] <= '9')
		return -1;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (j->p >= j->end || *j->p < '0' || *j->p > '9')
			return -1;
		while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
			j->p++;
	}
	v->type = J_NUM;
	v->num = strtod(s, NULL);
	return 0;
}

static void jfree(struct jv *v)
{
	for (size_t i = 0; i < v->n; i++) {
		jfree(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
}

static const struct jv *jget(const struct jv *o, const char *key)
{
	if (o->type != J_OBJ)
		return NULL;
	for (size_t i = 0; i < o->n; i++)
		if (strcmp(o->keys[i], key) == 0)
			return &o->kids[i];
	return NULL;
}

/* Parses the whole file as exactly one JSON value. */
static int jparse_file(const char *text, size_t len, struct jv *root)
{
	struct jp j = { text, text + len };
	if (jvalue(&j, root, 0)) {
		jfree(root);
		return -1;
	}
	jws(&j);
	if (j.p != j.end) {
		jfree(root);
		return -1;
	}
	return 0;
}

START_TEST(json_reader_works)
{
	static const char *const good[] = { "{}", "[]", "{\"a\":[1,-2.5,\"x\\n\",true,null]}",
					    " {\"a\" : {\"b\":0}} \n" };
	static const char *const bad[] = { "{", "{\"a\"}", "{\"a\":1,}", "[1 2]", "01", "{} {}",
					   "\"a\x01\"", "[1.]", "{a:1}" };
	struct jv v;
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		ck_assert_msg(jparse_file(good[i], strlen(good[i]), &v) == 0, "%s", good[i]);
		jfree(&v);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(jparse_file(bad[i], strlen(bad[i]), &v) != 0, "%s", bad[i]);
}
END_TEST

/* ---- the Chrome writer ---------------------------------------------------- */

static void check_chrome(const char *path, const struct tt_logged *l)
{
	size_t len;
	char *text = tt_slurp(path, &len);
	struct jv root;
	ck_assert_msg(jparse_file(text, len, &root) == 0, "not one JSON value: %s", path);
	ck_assert_int_eq(root.type, J_OBJ);
	const struct jv *arr = jget(&root, "traceEvents");
	ck_assert_ptr_nonnull(arr);
	ck_assert_int_eq(arr->type, J_ARR);
	int *names = calloc((size_t)l->n, sizeof *names);
	size_t complete = 0, process = 0;
	ck_assert_ptr_nonnull(names);
	for (size_t i = 0; i < arr->n; i++) {
		const struct jv *e = &arr->kids[i];
		ck_assert_int_eq(e->type, J_OBJ);
		const struct jv *ph = jget(e, "ph"), *ts = jget(e, "ts"), *pid = jget(e, "pid"),
				*tid = jget(e, "tid"), *name = jget(e, "name");
		ck_assert_msg(ph && ts && pid && tid && name, "event %zu lacks ph, ts, pid or tid", i);
		ck_assert(ph->type == J_STR && ts->type == J_NUM && pid->type == J_NUM &&
			  tid->type == J_NUM && name->type == J_STR);
		if (strcmp(ph->str, "M") == 0) {
			const struct jv *args = jget(e, "args");
			ck_assert_ptr_nonnull(args);
			if (strcmp(name->str, "thread_name") == 0) {
				int r = (int)tid->num;
				char want[32];
				ck_assert(r >= 0 && r < l->n);
				names[r]++;
				snprintf(want, sizeof want, "rank %d", r);
				ck_assert_str_eq(jget(args, "name")->str, want);
			} else if (strcmp(name->str, "process_name") == 0) {
				char want[32];
				snprintf(want, sizeof want, "distmm-tui %s", plan_mode_name(l->mode));
				ck_assert_str_eq(jget(args, "name")->str, want);
				process++;
			}
			continue;
		}
		ck_assert_str_eq(ph->str, "X");
		ck_assert(complete < l->n_ev);
		const struct ev *ev = &l->ev[complete++];
		const struct jv *dur = jget(e, "dur"), *cat = jget(e, "cat"), *args = jget(e, "args");
		ck_assert(dur && dur->type == J_NUM && cat && cat->type == J_STR && args);
		ck_assert_str_eq(cat->str, ev_op_name(ev->op));
		ck_assert_int_eq((int)tid->num, ev->rank);
		/* microseconds, to the nanosecond */
		ck_assert(fabs(ts->num * 1000.0 - (double)ev->t_begin_ns) < 0.5);
		ck_assert(fabs(dur->num * 1000.0 - (double)(ev->t_end_ns - ev->t_begin_ns)) < 0.5);
		ck_assert_int_eq((int)jget(args, "phase")->num, ev->phase);
		ck_assert_int_eq((int)jget(args, "step")->num, ev->step);
		ck_assert_int_eq((int)jget(args, "shard")->num, ev->shard);
		ck_assert((uint64_t)jget(args, "bytes")->num == ev->bytes);
		char want[64];
		snprintf(want, sizeof want, "%u:%u", ev->row_begin, ev->row_end);
		ck_assert_str_eq(jget(args, "rows")->str, want);
		snprintf(want, sizeof want, "%u:%u", ev->col_begin, ev->col_end);
		ck_assert_str_eq(jget(args, "cols")->str, want);
		if (ev->op == EV_COMPUTE && ev->shard >= 0)
			snprintf(want, sizeof want, "compute B[%d]", ev->shard);
		else if (ev->op == EV_COMPUTE)
			snprintf(want, sizeof want, "compute B");
		else if (ev->op == EV_SEND && ev->shard >= 0)
			snprintf(want, sizeof want, "send B[%d] -> %d", ev->shard, ev->peer);
		else if (ev->op == EV_SEND)
			snprintf(want, sizeof want, "send rows %u:%u -> %d", ev->row_begin,
				 ev->row_end, ev->peer);
		else if (ev->op == EV_RECV)
			snprintf(want, sizeof want, "recv B[%d] <- %d", ev->shard, ev->peer);
		else
			snprintf(want, sizeof want, "gather rows %u:%u <- %d", ev->row_begin,
				 ev->row_end, ev->peer);
		ck_assert_str_eq(name->str, want);
	}
	ck_assert_uint_eq(complete, l->n_ev);
	ck_assert_uint_eq(process, 1);
	for (int r = 0; r < l->n; r++)
		ck_assert_msg(names[r] == 1, "rank %d has %d thread_name events", r, names[r]);
	free(names);
	jfree(&root);
	free(text);
}

START_TEST(chrome_writer)
{
	static const struct { int mode, n, bug; } cs[] = {
		{ DM_FSDP, 4, 0 }, { DM_FSDP, 1, 0 }, { DM_FSDP, 3, BUG_INT_ACC }, { DM_DP, 3, 0 },
	};
	char path[600];
	struct dm_err err;
	tt_setup_dir();
	tt_in_dir(path, sizeof path, "t.json");
	for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
		struct tt_logged l;
		tt_logged_run(&l, cs[k].mode, cs[k].n, cs[k].bug, 7, 3, 6, 1, NULL);
		ck_assert_msg(trace_write_chrome(path, l.plan, l.ev, l.n_ev, &err) == 0, "%s", err.msg);
		check_chrome(path, &l);
		if (cs[k].bug == BUG_INT_ACC) {
			size_t len;
			char *text = tt_slurp(path, &len);
			ck_assert(strstr(text, "\"truncated\":true"));
			free(text);
		}
		tt_logged_free(&l);
	}
	/* large times keep every digit */
	struct ev e = { .phase = 0, .op = EV_COMPUTE, .rank = 0, .peer = -1, .shard = 0,
			.row_end = 1, .col_end = 1, .bytes = 8, .t_begin_ns = UINT64_MAX - 5,
			.t_end_ns = UINT64_MAX };
	struct dm_plan *one = tu_plan(DM_FSDP, 1, DM_FORWARD), *dp2 = tu_plan(DM_DP, 2, DM_FORWARD);
	ck_assert_int_eq(trace_write_chrome(path, one, &e, 1, &err), 0);
	size_t len;
	char *text = tt_slurp(path, &len);
	ck_assert(strstr(text, "\"ts\":18446744073709551.610,\"dur\":0.005"));
	free(text);
	/* no events: still a valid file */
	ck_assert_int_eq(trace_write_chrome(path, dp2, NULL, 0, &err), 0);
	struct tt_logged none = { .n = 2, .mode = DM_DP };
	check_chrome(path, &none);
	/* errors: nothing is left behind */
	ck_assert_int_eq(trace_write_chrome(tt_tmpdir, one, &e, 1, &err), DM_EIO);
	char bad[700];
	snprintf(bad, sizeof bad, "%s/missing/t.json", tt_tmpdir);
	ck_assert_int_eq(trace_write_chrome(bad, one, &e, 1, &err), DM_EIO);
	ck_assert_int_eq(trace_write_chrome(path, one, NULL, 1, &err), DM_EINVAL);
	plan_free(one);
	plan_free(dp2);
	DIR *dir = opendir(tt_tmpdir);
	struct dirent *de;
	int files = 0;
	while ((de = readdir(dir)))
		files += de->d_name[0] != '.';
	closedir(dir);
	ck_assert_int_eq(files, 1);
	tt_remove_dir();
}
END_TEST

static Suite *trace_chrome_suite(void)
{
	Suite *s = suite_create("trace_chrome");
	TCase *tc = tcase_create("chrome");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, json_reader_works);
	tcase_add_test(tc, chrome_writer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return tu_main(trace_chrome_suite());
}
