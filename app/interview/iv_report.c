/* iv_report: the interview's report (see iv_report.h).  Markdown: a title,
 * a table of the parts, the verdicts over time, the hints, the follow-up's
 * questions, and three things to practise, from the verdicts that failed
 * most (each said once), then the questions missed. */
#include "interview/iv_report.h"

#include <inttypes.h>
#include <string.h>

#include <distmm/outfile.h>

#include "interview/iv_questions.h"
#include "interview/iv_words.h"

static void iv_report_clock(uint64_t ms, char *buf, size_t size)
{
	uint64_t s = ms / 1000;
	snprintf(buf, size, "%" PRIu64 ":%02" PRIu64, s / 60, s % 60);
}

static const char *iv_report_verdict(int v)
{
	return v < 0 ? "did not load" : judge_verdict_word(v);
}

void iv_report_print(FILE *out, const struct iv_state *s, const char *file)
{
	char used[32], limit[32];
	fprintf(out, "# Mock interview: %s\n\n## Parts\n\n", file);
	fprintf(out, "| part | function | result | time | limit | judged saves | hints |\n");
	fprintf(out, "|---|---|---|---|---|---|---|\n");
	for (int p = 0; p < IV_TIMED; p++) {
		iv_report_clock(s->used_ms[p], used, sizeof used);
		iv_report_clock(s->limit_ms[p], limit, sizeof limit);
		char res[48];
		if (s->pass_save[p])
			snprintf(res, sizeof res, "passed at save %d", s->pass_save[p]);
		else
			snprintf(res, sizeof res, "not passed");
		fprintf(out, "| %s | `%s` | %s | %s%s | %s | %d | %d |\n", ivw_part_name(p),
			ivw_part_function(p), res, used, s->used_ms[p] > s->limit_ms[p] ? " (over)" : "",
			limit, s->saves[p], s->hints[p]);
	}
	fprintf(out, "\n## Verdicts over time\n\n");
	if (!s->n_hist)
		fprintf(out, "No save was judged.\n");
	for (int i = 0; i < s->n_hist; i++) {
		const struct iv_judged *h = &s->hist[i];
		iv_report_clock(h->at_ms, used, sizeof used);
		fprintf(out, "- %s, save %d at %s: %s (%d of %d cases pass)%s\n", ivw_part_name(h->part),
			h->save, used, iv_report_verdict(h->verdict), h->passed, h->counted,
			h->verdict == JUDGE_PASS ? ": **first pass**" : "");
	}
	fprintf(out, "\n## Hints used\n\n");
	int any = 0;
	for (int p = 0; p < IV_TIMED; p++)
		for (int v = 0; v < JUDGE_VERDICTS; v++)
			if (s->hint_level[p][v]) {
				fprintf(out, "- %s, %s: %d of %d (up to %s)\n", ivw_part_name(p),
					v == JUDGE_NOT_RUN ? "did not load" :
					v == JUDGE_PASS ? "before any failure" : judge_verdict_word(v),
					s->hint_level[p][v], IV_HINT_LEVELS,
					ivw_hint_level(s->hint_level[p][v]));
				any = 1;
			}
	if (!any)
		fprintf(out, "None.\n");
	int n = ivq_count(), right = 0;
	for (int q = 0; q < n; q++)
		right += s->q_outcome[q] == IV_Q_RIGHT;
	fprintf(out, "\n## Follow-up round\n\nScore: %d of %d.\n\n", right, n);
	for (int q = 0; q < n; q++)
		fprintf(out, "- %s: %s%s\n", ivq_name(q),
			s->q_outcome[q] == IV_Q_RIGHT ? "right" :
			s->q_outcome[q] == IV_Q_SHOWN ? "shown (missed)" : "not answered",
			s->q_wrong[q] ? (s->q_wrong[q] == 1 ? ", after 1 wrong answer" : ", after wrong answers") : "");
	/* what went wrong most: each failing (part, verdict) counted once a save */
	fprintf(out, "\n## Practise next\n\n");
	int count[IV_TIMED][JUDGE_VERDICTS + 1];
	memset(count, 0, sizeof count);
	for (int i = 0; i < s->n_hist; i++) {
		const struct iv_judged *h = &s->hist[i];
		if (h->verdict != JUDGE_PASS)
			count[h->part][h->verdict < 0 ? JUDGE_VERDICTS : h->verdict]++;
	}
	int said = 0;
	const char *done[3] = { NULL, NULL, NULL };
	while (said < 3) {
		int bp = -1, bv = -1, best = 0;
		for (int p = 0; p < IV_TIMED; p++)
			for (int v = 0; v <= JUDGE_VERDICTS; v++)
				if (count[p][v] > best) {
					best = count[p][v];
					bp = p;
					bv = v;
				}
		if (bp < 0)
			break;
		count[bp][bv] = 0;
		const char *what = ivw_practise(bp, bv == JUDGE_VERDICTS ? -1 : bv);
		int dup = 0;
		for (int k = 0; k < said; k++)
			dup |= done[k] == what;
		if (dup)
			continue;
		done[said++] = what;
		fprintf(out, "%d. %s (%s: %s, %d save%s)\n", said, what, ivw_part_name(bp),
			iv_report_verdict(bv == JUDGE_VERDICTS ? -1 : bv), best, best == 1 ? "" : "s");
	}
	for (int q = 0; q < n && said < 3; q++)
		if (s->q_outcome[q] != IV_Q_RIGHT || s->q_wrong[q])
			fprintf(out, "%d. %s (the follow-up)\n", ++said, ivq_name(q));
	for (int p = 0; p < IV_TIMED && said < 3; p++)
		if (!s->pass_save[p] || s->used_ms[p] > s->limit_ms[p])
			fprintf(out, "%d. %s within its %s minutes, from the starter\n", ++said,
				ivw_part_function(p), p == IV_PART_DP ? "10" : "20");
	if (!said)
		fprintf(out, "Nothing went wrong: do it again with less time (--interview-time).\n");
}

int iv_report_write(const struct iv_state *s, const char *file, char *path, size_t path_size,
		    char *msg, size_t size)
{
	struct outfile f;
	struct dm_err err;
	if (iv_path_report(file, path, path_size)) {
		snprintf(msg, size, "--interview: the report's name is too long");
		return -1;
	}
	if (outfile_open(&f, path, &err)) {
		snprintf(msg, size, "%s", err.msg);
		return -1;
	}
	iv_report_print(f.fp, s, file);
	if (outfile_commit(&f, &err)) {
		snprintf(msg, size, "%s", err.msg);
		return -1;
	}
	return 0;
}
