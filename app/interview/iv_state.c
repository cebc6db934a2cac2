/* iv_state: the interview's progress and its state file (see interview.h).
 * The file is text, one fact a line ("part 1", "used 61234 0", "hist 1 2
 * 91000 1 3 7"), written all or nothing (outfile), read strictly: a line
 * it does not know, or a number out of its range, makes it "not a state
 * file" rather than a session resumed from half of one. */
#include "interview/interview.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <distmm/outfile.h>
#include <distmm/plan.h>

#include "interview/iv_words.h"

#define IV_STATE_MAGIC "distmm-interview 1"

void iv_state_init(struct iv_state *s, uint64_t dp_ms, uint64_t fsdp_ms)
{
	memset(s, 0, sizeof *s);
	s->part = IV_PART_DP;
	s->limit_ms[IV_PART_DP] = dp_ms;
	s->limit_ms[IV_PART_FSDP] = fsdp_ms;
}

/* FILE's name without ".py", then suffix. */
static int iv_path(const char *file, const char *suffix, char *buf, size_t size)
{
	size_t len = strlen(file);
	if (len > 3 && strcmp(file + len - 3, ".py") == 0)
		len -= 3;
	int w = snprintf(buf, size, "%.*s%s", (int)len, file, suffix);
	return w < 0 || (size_t)w >= size ? -1 : 0;
}

int iv_path_state(const char *file, char *buf, size_t size)
{
	return iv_path(file, ".interview", buf, size);
}

int iv_path_report(const char *file, char *buf, size_t size)
{
	return iv_path(file, "-report.md", buf, size);
}

int iv_starter_write(const char *file, char *msg, size_t size)
{
	/* O_EXCL: a file that is there (or appears meanwhile) is never written */
	int fd = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		if (errno == EEXIST)
			return 1;
		snprintf(msg, size, "--interview: cannot write %s: %s", file, strerror(errno));
		return -1;
	}
	const char *text = ivw_starter();
	size_t len = strlen(text), done = 0;
	while (done < len) {
		ssize_t w = write(fd, text + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			snprintf(msg, size, "--interview: cannot write %s: %s", file,
				 w < 0 ? strerror(errno) : "short write");
			close(fd);
			unlink(file);
			return -1;
		}
		done += (size_t)w;
	}
	if (close(fd)) {
		snprintf(msg, size, "--interview: cannot write %s: %s", file, strerror(errno));
		unlink(file);
		return -1;
	}
	return 0;
}

int iv_state_save(const struct iv_state *s, const char *path, char *msg, size_t size)
{
	struct outfile f;
	struct dm_err err;
	if (outfile_open(&f, path, &err)) {
		snprintf(msg, size, "%s", err.msg);
		return -1;
	}
	fprintf(f.fp, "%s\npart %d\nused %" PRIu64 " %" PRIu64 "\npaused %d\nsaves %d %d\n"
		"pass %d %d\nhints %d %d\nquestion %d\n", IV_STATE_MAGIC, s->part,
		s->used_ms[0], s->used_ms[1], s->paused, s->saves[0], s->saves[1], s->pass_save[0],
		s->pass_save[1], s->hints[0], s->hints[1], s->q_cur);
	for (int p = 0; p < IV_TIMED; p++)
		for (int v = 0; v < JUDGE_VERDICTS; v++)
			if (s->hint_level[p][v])
				fprintf(f.fp, "level %d %d %d\n", p, v, s->hint_level[p][v]);
	for (int i = 0; i < s->n_hist; i++) {
		const struct iv_judged *h = &s->hist[i];
		fprintf(f.fp, "hist %d %d %" PRIu64 " %d %d %d\n", h->part, h->save, h->at_ms,
			h->verdict, h->passed, h->counted);
	}
	for (int q = 0; q < IV_QUESTIONS_MAX; q++)
		if (s->q_outcome[q] || s->q_wrong[q])
			fprintf(f.fp, "answer %d %d %d\n", q, s->q_outcome[q], s->q_wrong[q]);
	if (outfile_commit(&f, &err)) {
		snprintf(msg, size, "%s", err.msg);
		return -1;
	}
	return 0;
}

/* Whether every value of a line is in its range. */
static int iv_in(long long v, long long lo, long long hi)
{
	return v >= lo && v <= hi;
}

/* One line of the state file into s; 0, or -1 when it is not one. */
static int iv_state_line(struct iv_state *s, const char *line)
{
	long long a, b, c, d, e, f;
	char tail;
	const long long big = (long long)1 << 50;
	if (sscanf(line, "part %lld %c", &a, &tail) == 1 && iv_in(a, 0, IV_PART_DONE))
		s->part = (int)a;
	else if (sscanf(line, "used %lld %lld %c", &a, &b, &tail) == 2 && iv_in(a, 0, big) &&
		 iv_in(b, 0, big)) {
		s->used_ms[0] = (uint64_t)a;
		s->used_ms[1] = (uint64_t)b;
	} else if (sscanf(line, "paused %lld %c", &a, &tail) == 1 && iv_in(a, 0, 1))
		s->paused = (int)a;
	else if (sscanf(line, "saves %lld %lld %c", &a, &b, &tail) == 2 && iv_in(a, 0, 1 << 30) &&
		 iv_in(b, 0, 1 << 30)) {
		s->saves[0] = (int)a;
		s->saves[1] = (int)b;
	} else if (sscanf(line, "pass %lld %lld %c", &a, &b, &tail) == 2 && iv_in(a, 0, 1 << 30) &&
		   iv_in(b, 0, 1 << 30)) {
		s->pass_save[0] = (int)a;
		s->pass_save[1] = (int)b;
	} else if (sscanf(line, "hints %lld %lld %c", &a, &b, &tail) == 2 && iv_in(a, 0, 1 << 30) &&
		   iv_in(b, 0, 1 << 30)) {
		s->hints[0] = (int)a;
		s->hints[1] = (int)b;
	} else if (sscanf(line, "question %lld %c", &a, &tail) == 1 && iv_in(a, 0, IV_QUESTIONS_MAX))
		s->q_cur = (int)a;
	else if (sscanf(line, "level %lld %lld %lld %c", &a, &b, &c, &tail) == 3 &&
		 iv_in(a, 0, IV_TIMED - 1) && iv_in(b, 0, JUDGE_VERDICTS - 1) &&
		 iv_in(c, 0, IV_HINT_LEVELS))
		s->hint_level[a][b] = (int)c;
	else if (sscanf(line, "hist %lld %lld %lld %lld %lld %lld %c", &a, &b, &c, &d, &e, &f,
			&tail) == 6 && iv_in(a, 0, IV_TIMED - 1) && iv_in(b, 1, 1 << 30) &&
		 iv_in(c, 0, big) && iv_in(d, -1, JUDGE_VERDICTS - 1) && iv_in(e, 0, 1000) &&
		 iv_in(f, 0, 1000) && s->n_hist < IV_HISTORY_MAX)
		s->hist[s->n_hist++] = (struct iv_judged){ (int)a, (int)b, (uint64_t)c, (int)d,
							   (int)e, (int)f };
	else if (sscanf(line, "answer %lld %lld %lld %c", &a, &b, &c, &tail) == 3 &&
		 iv_in(a, 0, IV_QUESTIONS_MAX - 1) && iv_in(b, 0, IV_Q_SHOWN) && iv_in(c, 0, 1 << 30)) {
		s->q_outcome[a] = (int)b;
		s->q_wrong[a] = (int)c;
	} else
		return -1;
	return 0;
}

int iv_state_load(struct iv_state *s, const char *path, char *msg, size_t size)
{
	FILE *fp = fopen(path, "r");
	if (!fp) {
		if (errno == ENOENT)
			return 1;
		snprintf(msg, size, "--interview: cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	struct iv_state t;
	char line[256];
	int n = 0, bad = 0;
	iv_state_init(&t, s->limit_ms[0], s->limit_ms[1]);
	while (!bad && fgets(line, sizeof line, fp)) {
		line[strcspn(line, "\n")] = '\0';
		if (n++ == 0)
			bad = strcmp(line, IV_STATE_MAGIC) != 0;
		else
			bad = iv_state_line(&t, line) != 0;
	}
	bad |= ferror(fp) || n == 0;
	fclose(fp);
	if (bad) {
		snprintf(msg, size, "--interview: %s is not an interview's state (line %d); remove "
			 "it or start again with --interview-restart", path, n);
		return -1;
	}
	*s = t;
	return 0;
}

void iv_part_score(const struct judge *j, int part, int *passed, int *counted)
{
	int mode = part == IV_PART_DP ? DM_DP : DM_FSDP;
	*passed = *counted = 0;
	for (size_t i = 0; i < j->n_cases; i++) {
		const struct judge_case *c = &j->cases[i];
		if (c->mode != mode || !c->counts)
			continue;
		++*counted;
		*passed += judge_defines(j, c) && c->verdict == JUDGE_PASS;
	}
}

const struct judge_case *iv_first_failing(const struct judge *j, int part, int *defined)
{
	int mode = part == IV_PART_DP ? DM_DP : DM_FSDP;
	*defined = !j->load_error[0] && judge_has(j, mode);
	if (!*defined)
		return NULL;
	for (size_t i = 0; i < j->n_cases; i++) {
		const struct judge_case *c = &j->cases[i];
		if (c->mode == mode && c->counts && c->verdict != JUDGE_PASS)
			return c;
	}
	return NULL;
}

int iv_state_judged(struct iv_state *s, const struct judge *j)
{
	if (s->part >= IV_TIMED)
		return 0;
	int p = s->part, defined, passed, counted;
	const struct judge_case *c = iv_first_failing(j, p, &defined);
	iv_part_score(j, p, &passed, &counted);
	s->saves[p]++;
	if (s->n_hist < IV_HISTORY_MAX)
		s->hist[s->n_hist++] = (struct iv_judged){ p, s->saves[p], s->used_ms[p],
							   !defined ? -1 : c ? c->verdict : JUDGE_PASS,
							   passed, counted };
	if (!defined || c || counted == 0)
		return 0;
	s->pass_save[p] = s->saves[p];
	s->part++;
	return 1;
}

int64_t iv_left_ms(const struct iv_state *s)
{
	if (s->part >= IV_TIMED)
		return 0;
	return (int64_t)s->limit_ms[s->part] - (int64_t)s->used_ms[s->part];
}
