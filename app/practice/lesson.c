/* lesson: the lesson format's parser and captions (see lesson.h).  Strict:
 * an unknown key or setting is an error with its line, so a teacher finds a
 * typo before the class does. */
#include "lesson.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <distmm/bug.h>
#include <distmm/ccl.h>
#include <distmm/hw.h>
#include <distmm/order.h>
#include <distmm/mat.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

#define LESSON_MAX_BYTES (1 << 20)

static int lesson_fail(char *err, size_t size, const char *name, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int lesson_fail(char *err, size_t size, const char *name, int line, const char *fmt, ...)
{
	va_list ap;
	int len = snprintf(err, size, "%s:%d: ", name, line);
	va_start(ap, fmt);
	if (len >= 0 && (size_t)len < size)
		vsnprintf(err + len, size - (size_t)len, fmt, ap);
	va_end(ap);
	return -1;
}

static int lesson_number(const char *s, unsigned long long lo, unsigned long long hi,
			 unsigned long long *out)
{
	char *end;
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* One word of a set: line: "fsdp", "naive", or key=value.  A key it knows
 * with a value it does not take is named with the values it takes: a
 * teacher reads "devices must be 1 to 64", not "unknown setting". */
static int lesson_setting(struct lesson_set *st, char *word, const char *name, int line, char *err,
			  size_t size)
{
	char *eq = strchr(word, '=');
	const char *val = eq ? eq + 1 : "";
	unsigned long long v;
	if (eq)
		*eq = '\0';
#define LESSON_BAD(...) return lesson_fail(err, size, name, line, __VA_ARGS__)
	if (!eq && (strcmp(word, "fsdp") == 0 || strcmp(word, "dp") == 0 ||
		    strcmp(word, "tp-col") == 0 || strcmp(word, "tp-row") == 0 ||
		    strcmp(word, "tp-mlp") == 0)) {
		st->mode = strcmp(word, "dp") == 0	   ? DM_DP
			   : strcmp(word, "tp-col") == 0 ? DM_TP_COL
			   : strcmp(word, "tp-row") == 0 ? DM_TP_ROW
			   : strcmp(word, "tp-mlp") == 0 ? DM_TP_MLP
						       : DM_FSDP;
		st->has |= LESSON_SET_MODE;
	} else if (!eq && (strcmp(word, "prefetch") == 0 || strcmp(word, "no-prefetch") == 0)) {
		st->prefetch = word[0] == 'p';
		st->has |= LESSON_SET_PREFETCH;
	} else if (!eq && strcmp(word, "timeline") == 0) {
		st->timeline = 1;
		st->has |= LESSON_SET_TIMELINE;
	} else if (!eq && (strcmp(word, "train") == 0 || strcmp(word, "forward") == 0)) {
		st->train = word[0] == 't';
		st->has |= LESSON_SET_TRAIN;
	} else if (!eq && (strcmp(word, "naive") == 0 || strcmp(word, "ordered") == 0)) {
		st->order = word[0] == 'n' ? ORDER_SEND_FIRST : ORDER_PARITY;
		st->has |= LESSON_SET_ORDER;
	} else if (eq && strcmp(word, "order") == 0) {
		if (order_parse_order(val) < 0)
			LESSON_BAD("order=%s: order must be send-first, recv-first or parity%s", val,
				   order_parse_fix(val) >= 0 ? " (that one is a fix: fix=)" : "");
		st->order = order_parse_order(val);
		st->has |= LESSON_SET_ORDER;
	} else if (eq && strcmp(word, "fix") == 0) {
		if (order_parse_fix(val) < 0)
			LESSON_BAD("fix=%s: fix must be parity, recv-thread, sendrecv or buffered%s", val,
				   order_parse_order(val) >= 0 ? " (that one is an order: order=)" : "");
		st->order = order_parse_fix(val);
		st->has |= LESSON_SET_ORDER;
	} else if (eq && strcmp(word, "devices") == 0) {
		if (lesson_number(val, 1, LESSON_MAX_DEVICES, &v))
			LESSON_BAD("devices must be a whole number from 1 to %d (what the interface "
				   "shows), not '%s'", LESSON_MAX_DEVICES, val);
		st->devices = (int)v;
		st->has |= LESSON_SET_DEVICES;
	} else if (eq && (strcmp(word, "M") == 0 || strcmp(word, "K") == 0 || strcmp(word, "N") == 0)) {
		if (lesson_number(val, 1, 100000, &v))
			LESSON_BAD("%s must be a whole number from 1 to 100000, not '%s'", word, val);
		if (word[0] == 'M')
			st->M = (size_t)v, st->has |= LESSON_SET_M;
		else if (word[0] == 'K')
			st->K = (size_t)v, st->has |= LESSON_SET_K;
		else
			st->N = (size_t)v, st->has |= LESSON_SET_N;
	} else if (eq && strcmp(word, "values") == 0) {
		if (strcmp(val, "ints") != 0 && strcmp(val, "floats") != 0)
			LESSON_BAD("values must be ints or floats, not '%s'", val);
		st->values = strcmp(val, "ints") == 0 ? MAT_VALUES_INTS : MAT_VALUES_FLOATS;
		st->has |= LESSON_SET_VALUES;
	} else if (eq && strcmp(word, "seed") == 0) {
		if (lesson_number(val, 0, UINT64_MAX, &v))
			LESSON_BAD("seed must be a whole number, not '%s'", val);
		st->seed = v;
		st->has |= LESSON_SET_SEED;
	} else if (eq && strcmp(word, "capacity") == 0) {
		if (strcmp(val, "unbounded") != 0 && lesson_number(val, 0, 1000000, &v))
			LESSON_BAD("capacity must be unbounded or a number from 0 to 1000000, not '%s'",
				   val);
		st->capacity = strcmp(val, "unbounded") == 0 ? RUN_UNBOUNDED : (size_t)v;
		st->has |= LESSON_SET_CAPACITY;
	} else if (eq && strcmp(word, "bug") == 0) {
		if (bug_parse(val) < 0)
			LESSON_BAD("unknown bug '%s' (distmm-tui --bug list names them)", val);
		st->bug = bug_parse(val);
		st->has |= LESSON_SET_BUG;
	} else if (eq && strcmp(word, "collective") == 0) {
		if (strcmp(val, "none") != 0 && ccl_parse_kind(val) < 0)
			LESSON_BAD("collective must be allreduce, allgather, reducescatter, broadcast, "
				   "reduce or none, not '%s'", val);
		st->collective = strcmp(val, "none") == 0 ? -1 : ccl_parse_kind(val);
		st->has |= LESSON_SET_COLLECTIVE;
	} else if (eq && strcmp(word, "algo") == 0) {
		if (ccl_parse_algo(val) < 0)
			LESSON_BAD("algo must be ring, tree or rhd, not '%s'", val);
		st->algo = ccl_parse_algo(val);
		st->has |= LESSON_SET_ALGO;
	} else if (eq && strcmp(word, "bytes") == 0) {
		/* the interface's buffers: a double a value, at most a screenful */
		if (lesson_number(val, 8, 1 << 20, &v) || v % 8)
			LESSON_BAD("bytes must be a multiple of 8 from 8 to 1048576, not '%s'", val);
		st->bytes = v;
		st->has |= LESSON_SET_BYTES;
	} else if (eq && strcmp(word, "hw") == 0) {
		struct dm_hw hw;
		if (strlen(val) >= sizeof st->hw || hw_preset_find(val, &hw, NULL))
			LESSON_BAD("hw must be a preset's name (distmm-tui --hw list), not '%s'", val);
		snprintf(st->hw, sizeof st->hw, "%s", val);
		st->has |= LESSON_SET_HW;
	} else if (eq && strcmp(word, "quiz") == 0) {
		if (lesson_number(val, 0, 2, &v))
			LESSON_BAD("quiz must be 0 (off), 1 or 2, not '%s'", val);
		st->quiz = (int)v;
		st->has |= LESSON_SET_QUIZ;
	} else {
		LESSON_BAD("unknown setting '%s%s%s' (fsdp, dp, tp-col, tp-row, tp-mlp, train, forward, "
			   "prefetch, no-prefetch, timeline, collective=, algo=, bytes=, hw=, devices=, "
			   "M=, K=, N=, "
			   "values=, seed=, capacity=, naive, ordered, order=, fix=, bug=, quiz=)",
			   word, eq ? "=" : "", val);
	}
#undef LESSON_BAD
	return 0;
}

/* The captions' keys, by enum lesson_when. */
static const char *const lesson_when_names[] = { "ready", "compute", "transfer", "gather",
						 "done", "deadlock", "backward",
						 "backward-transfer", "partial", "reduce-scatter",
						 "all-gather", "distribute", "collective", "activation",
						 "second-layer" };
#define LESSON_WHENS ((int)(sizeof lesson_when_names / sizeof lesson_when_names[0]))

static int lesson_when_of(const char *key, int *when)
{
	for (int i = 0; i < LESSON_WHENS; i++)
		if (strcmp(key, lesson_when_names[i]) == 0) {
			*when = i;
			return 0;
		}
	return -1;
}

/* The length of a placeholder's name at s (after its '{'): letters and
 * '_' up to a '}', or 0 when s does not start one ("{r+1}" is prose). */
static size_t lesson_name_len(const char *s)
{
	size_t len = 0;
	while ((s[len] >= 'a' && s[len] <= 'z') || (s[len] >= 'A' && s[len] <= 'Z') || s[len] == '_')
		len++;
	return len > 0 && s[len] == '}' ? len : 0;
}

static char *lesson_trim(char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	size_t len = strlen(s);
	while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		s[--len] = '\0';
	return s;
}

/* One non-blank, non-comment line. */
static int lesson_line(struct lesson *l, char *text, const char *name, int line, char *err,
		       size_t size)
{
	char *colon = strchr(text, ':');
	if (!colon)
		return lesson_fail(err, size, name, line, "expected 'key: value'");
	*colon = '\0';
	char *key = lesson_trim(text), *val = lesson_trim(colon + 1);
	struct lesson_part *p = l->nparts ? &l->part[l->nparts - 1] : NULL;

	if (strcmp(key, "title") == 0) {
		snprintf(l->title, sizeof l->title, "%s", val);
		return 0;
	}
	if (strcmp(key, "part") == 0) {
		if (l->nparts == LESSON_MAX_PARTS)
			return lesson_fail(err, size, name, line, "more than %d parts",
					   LESSON_MAX_PARTS);
		struct lesson_part *np = &l->part[l->nparts++];
		snprintf(np->name, sizeof np->name, "%s", val);
		np->set = p ? p->set : np->set; /* cumulative: what came before stays */
		np->set.has = p ? p->set.has : 0;
		return 0;
	}
	if (!p)
		return lesson_fail(err, size, name, line, "'%s' before the first 'part:'", key);
	if (strcmp(key, "set") == 0) {
		for (char *save = NULL, *w = strtok_r(val, " \t", &save); w;
		     w = strtok_r(NULL, " \t", &save))
			if (lesson_setting(&p->set, w, name, line, err, size))
				return -1;
		return 0;
	}
	/* a caption: "compute", or "compute 2" for one step */
	char kind[32];
	int when, step = -1, used = 0;
	unsigned long long v;
	if (sscanf(key, "%31s%n", kind, &used) != 1 || lesson_when_of(kind, &when))
		return lesson_fail(err, size, name, line,
				   "unknown key '%s' (title, part, set, ready, compute, transfer, "
				   "gather, done, deadlock, backward, backward-transfer, partial, "
				   "reduce-scatter, all-gather, distribute, collective, activation, "
				   "second-layer)",
				   key);
	char *rest = lesson_trim(key + used);
	if (*rest) {
		int stepped = when == LESSON_COMPUTE || when == LESSON_TRANSFER ||
			      when == LESSON_BACKWARD || when == LESSON_BACKWARD_TRANSFER ||
			      when == LESSON_REDUCE_SCATTER || when == LESSON_ALL_GATHER;
		if (!stepped || lesson_number(rest, 0, 1000, &v))
			return lesson_fail(err, size, name, line, "'%s %s': a step number goes only "
								 "after compute, transfer, backward, "
								 "backward-transfer, reduce-scatter or "
								 "all-gather",
					   kind, rest);
		step = (int)v;
	}
	if (p->ncap == LESSON_MAX_CAPTIONS)
		return lesson_fail(err, size, name, line, "more than %d captions in a part",
				   LESSON_MAX_CAPTIONS);
	if (strlen(val) >= LESSON_TEXT_MAX)
		return lesson_fail(err, size, name, line, "caption longer than %d characters",
				   LESSON_TEXT_MAX - 1);
	if (!*val)
		return lesson_fail(err, size, name, line, "empty caption");
	for (const char *t = strchr(val, '{'); t; t = strchr(t + 1, '{')) {
		size_t len = lesson_name_len(t + 1);
		if (len && !lesson_figure_known(t + 1, len))
			return lesson_fail(err, size, name, line, "unknown placeholder {%.*s} (%s)",
					   (int)len, t + 1, LESSON_FIGURE_NAMES);
	}
	struct lesson_caption *c = &p->cap[p->ncap++];
	c->when = when;
	c->step = step;
	c->line = line;
	snprintf(c->text, sizeof c->text, "%s", val);
	return 0;
}

int lesson_parse(struct lesson *l, const char *text, size_t len, const char *name, char *err,
		 size_t size)
{
	char buf[LESSON_TEXT_MAX + 256];
	int line = 0;
	memset(l, 0, sizeof *l);
	snprintf(l->name, sizeof l->name, "%s", name);
	for (size_t i = 0; i < len;) {
		size_t j = i;
		while (j < len && text[j] != '\n')
			j++;
		line++;
		if (j - i >= sizeof buf)
			return lesson_fail(err, size, name, line, "line too long");
		memcpy(buf, text + i, j - i);
		buf[j - i] = '\0';
		if (memchr(buf, '\0', j - i))
			return lesson_fail(err, size, name, line, "a NUL byte: not a text file");
		i = j + 1;
		char *t = lesson_trim(buf);
		if (!*t || *t == '#')
			continue;
		if (lesson_line(l, t, name, line, err, size))
			return -1;
	}
	if (l->nparts == 0)
		return lesson_fail(err, size, name, line, "no 'part:': nothing to play");
	return 0;
}

/* The folder of shipped lessons i (0, 1): found by the program's own
 * place, so that a lesson is named the same from any directory: beside it
 * in the source tree (assets/lessons), or in the installation's share
 * folder (PREFIX/bin/../share/distmm-tui/lessons, make install's).
 * Returns 0 with the folder in buf, or -1. */
static int lesson_dir(int i, char *buf, size_t size)
{
	static const char *const rel[] = { "assets/lessons", "../share/distmm-tui/lessons" };
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (i < 0 || i >= 2 || n <= 0)
		return -1;
	exe[n] = '\0';
	char *slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	int len = snprintf(buf, size, "%s/%s", exe, rel[i]);
	return len > 0 && (size_t)len < size ? 0 : -1;
}

int lesson_find(const char *name, char *path, size_t size)
{
	char dir[PATH_MAX];
	if (!*name || strchr(name, '/') || strlen(name) > NAME_MAX - 8)
		return -1;
	for (int i = 0; lesson_dir(i, dir, sizeof dir) == 0; i++) {
		int len = snprintf(path, size, "%s/%s.lesson", dir, name);
		if (len > 0 && (size_t)len < size && access(path, R_OK) == 0)
			return 0;
	}
	return -1;
}

static int lesson_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shipped lessons' names, sorted, for the message that a name is none
 * of them ("" when none is found). */
static void lesson_names(char *buf, size_t size)
{
	char dir[PATH_MAX], *name[32];
	int count = 0;
	size_t len = 0;
	for (int i = 0; lesson_dir(i, dir, sizeof dir) == 0 && count == 0; i++) {
		DIR *d = opendir(dir);
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL && count < 32) {
			size_t n = strlen(e->d_name);
			if (n > 7 && strcmp(e->d_name + n - 7, ".lesson") == 0 &&
			    (name[count] = strndup(e->d_name, n - 7)) != NULL)
				count++;
		}
		if (d)
			closedir(d);
	}
	qsort(name, (size_t)count, sizeof name[0], lesson_cmp);
	buf[0] = '\0';
	for (int i = 0; i < count; i++) {
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", name[i]);
		free(name[i]);
	}
}

int lesson_load(struct lesson *l, const char *path, char *err, size_t size)
{
	char found[PATH_MAX];
	FILE *fp = fopen(path, "rb");
	if (!fp && errno == ENOENT && lesson_find(path, found, sizeof found) == 0) {
		path = found; /* a shipped lesson's name: --lesson the-exercise */
		fp = fopen(path, "rb");
	}
	if (!fp) {
		char names[256];
		int e = errno;
		lesson_names(names, sizeof names);
		if (e == ENOENT && !strchr(path, '/') && names[0])
			snprintf(err, size, "cannot read %s: no such file, nor a lesson of that name "
					    "(%s)", path, names);
		else
			snprintf(err, size, "cannot read %s: %s", path, strerror(e));
		return -1;
	}
	char *text = malloc(LESSON_MAX_BYTES);
	size_t len = text ? fread(text, 1, LESSON_MAX_BYTES, fp) : 0;
	int bad = !text || ferror(fp), rc;
	int more = !bad && fgetc(fp) != EOF;
	fclose(fp);
	if (bad) {
		snprintf(err, size, "cannot read %s: %s", path, text ? "read error" : "out of memory");
		rc = -1;
	} else if (more) {
		snprintf(err, size, "%s: larger than a lesson can be (1 MiB)", path);
		rc = -1;
	} else {
		rc = lesson_parse(l, text, len, path, err, size);
	}
	free(text);
	return rc;
}

/* The schedule's kind of phase a stepped caption is for, and the ring
 * all-reduce's half of the same name (tensor parallel's, a collective's):
 * the lesson's "reduce-scatter 0" is the first step of either. */
static int lesson_kind_of(int when, int *also)
{
	*also = -1;
	switch (when) {
	case LESSON_COMPUTE: return SCHED_COMPUTE;
	case LESSON_TRANSFER: return SCHED_TRANSFER;
	case LESSON_BACKWARD: return SCHED_BWD_COMPUTE;
	case LESSON_BACKWARD_TRANSFER: return SCHED_BWD_TRANSFER;
	case LESSON_REDUCE_SCATTER: *also = SCHED_CCL_RING_RS; return SCHED_REDUCE_SCATTER;
	case LESSON_ALL_GATHER: *also = SCHED_CCL_RING_AG; return SCHED_ALL_GATHER;
	}
	return -1;
}

static const char *lesson_when_name(int when)
{
	return when >= 0 && when < LESSON_WHENS ? lesson_when_names[when] : "?";
}

int lesson_check_steps(const struct lesson *l, int p, const struct dm_plan *plan, char *err,
		       size_t size)
{
	if (p < 0 || p >= l->nparts)
		return 0;
	const struct lesson_part *part = &l->part[p];
	int count = sched_phase_count(plan), n = plan_devices(plan);
	for (int i = 0; i < part->ncap; i++) {
		const struct lesson_caption *c = &part->cap[i];
		int also, kind = lesson_kind_of(c->when, &also), last = -1;
		if (c->step < 0 || kind < 0)
			continue;
		/* the steps the schedule has of that kind: the one rule, the engine's */
		for (int ph = 0; ph < count; ph++)
			if ((int)sched_phase_kind(plan, ph) == kind ||
			    (int)sched_phase_kind(plan, ph) == also) {
				int s = sched_phase_step(plan, ph);
				if (s == c->step)
					last = -2;
				else if (last != -2 && s > last)
					last = s;
			}
		if (last == -2)
			continue;
		char run[96];
		snprintf(run, sizeof run, "part '%s' runs %s%s on %d device%s", part->name,
			 plan_mode_name(plan_mode(plan)), plan_train(plan) ? "'s training step" : "", n,
			 n == 1 ? "" : "s");
		if (last < 0)
			return lesson_fail(err, size, l->name, c->line, "%s %d: %s, which has no %s",
					   lesson_when_name(c->when), c->step, run,
					   lesson_when_name(c->when));
		return lesson_fail(err, size, l->name, c->line, "%s %d: %s, whose %s steps are 0 to %d",
				   lesson_when_name(c->when), c->step, run, lesson_when_name(c->when),
				   last);
	}
	return 0;
}

int lesson_caption(const struct lesson *l, int p, int when, const struct lesson_at *at,
		   char *buf, size_t size)
{
	const struct lesson_caption *best = NULL;
	if (p < 0 || p >= l->nparts || size == 0)
		return 0;
	for (int i = 0; i < l->part[p].ncap; i++) {
		const struct lesson_caption *c = &l->part[p].cap[i];
		if (c->when == when && (c->step == at->step || (c->step < 0 && !best)))
			best = c;
		if (c->when == when && c->step == at->step)
			break;
	}
	if (!best)
		return 0;
	/* every placeholder becomes its figure; other braces stay ("w_{r+1}") */
	size_t o = 0;
	for (const char *t = best->text; *t && o + 1 < size; t++) {
		size_t len = t[0] == '{' ? lesson_name_len(t + 1) : 0;
		char fig[LESSON_TEXT_MAX];
		if (len && lesson_figure(t + 1, len, at, fig, sizeof fig) == 0) {
			int w = snprintf(buf + o, size - o, "%s", fig);
			o = w > 0 && (size_t)w < size - o ? o + (size_t)w : size - 1;
			t += len + 1;
		} else {
			buf[o++] = *t;
		}
	}
	buf[o] = '\0';
	return 1;
}
