/* judge_report: the judge in batch mode (see judge_report.h).  A signal that stops the
 * judge is raised again once its processes are gone, so that distmm-tui
 * ends as the signal says. */
#include "judge/judge_report.h"

#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "judge/judge.h"
#include "batch/report.h"
#include "cli/status.h"
#include <distmm/mat.h>
#include <distmm/run.h>
#include <distmm/schedule.h>

static void judge_report_capacity(size_t cap, char *buf, size_t size)
{
	if (cap == RUN_UNBOUNDED)
		snprintf(buf, size, "unbounded");
	else
		snprintf(buf, size, "%zu", cap);
}

static void judge_report_table(const struct judge *j)
{
	int beyond = 0;
	printf("case  function        n  A @ B            values  capacity   verdict\n");
	for (size_t i = 0; i < j->n_cases; i++) {
		const struct judge_case *c = &j->cases[i];
		char shape[64], cap[24];
		if (!judge_defines(j, c))
			continue;
		snprintf(shape, sizeof shape, "%zux%zu @ %zux%zu%s", c->M, c->K, c->K, c->N,
			 c->beyond && !c->counts ? " *" : "");
		judge_report_capacity(c->capacity, cap, sizeof cap);
		beyond |= c->beyond && !c->counts;
		printf("%4d  %-14s %2d  %-16s %-7s %-10s %s\n", c->id, judge_fn(c->mode), c->n,
		       shape, c->values == MAT_VALUES_INTS ? "ints" : "floats", cap,
		       judge_verdict_word(c->verdict));
	}
	if (beyond)
		printf("* beyond the exercise's contract (n does not divide M or N; tp-col: N, "
		       "tp-row: K): reported, not counted in the exit status\n");
}

static void judge_report_again(FILE *out, const struct judge *j, const struct judge_case *c)
{
	char cap[40] = "", sched[40] = "", path[1024];
	if (c->capacity != RUN_UNBOUNDED)
		snprintf(cap, sizeof cap, " --capacity %zu", c->capacity);
	if (c->sched_seed)
		snprintf(sched, sizeof sched, " --judge-schedule %d", c->sched_seed);
	status_escape(j->path, path, sizeof path);
	fprintf(out, "  this case alone: distmm-tui -b --judge %s -m %s -d %d -M %zu -K %zu -N %zu "
	       "--values %s --seed %" PRIu64 "%s%s\n", path, judge_mode_arg(c->mode),
	       c->n, c->M, c->K, c->N, c->values == MAT_VALUES_INTS ? "ints" : "floats", c->seed,
	       cap, sched);
}

/* What the candidate's code printed in the run reported, escaped, at most
 * JUDGE_REPORT_OUT_LINES lines (--show-output). */
#define JUDGE_REPORT_OUT_LINES 20
static void judge_report_output(FILE *out, const struct judge_case *c)
{
	if (!c->output_len) {
		fprintf(out, "  it printed nothing\n");
		return;
	}
	size_t lines = 0, shown = 0;
	for (size_t i = 0; i < c->output_len; i++)
		lines += c->output[i] == '\n' || i + 1 == c->output_len;
	fprintf(out, "  it printed (%zu line%s%s):\n", lines, lines == 1 ? "" : "s",
	       c->output_cut ? ", and more that was not kept" : "");
	const char *p = c->output, *end = c->output + c->output_len;
	while (p < end && shown < JUDGE_REPORT_OUT_LINES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char raw[512], esc[2048];
		snprintf(raw, sizeof raw, "%.*s", (int)(len < 500 ? len : 500), p);
		status_escape(raw, esc, sizeof esc);
		fprintf(out, "    | %s%s\n", esc, len > 500 ? "..." : "");
		shown++;
		p += len + (nl != NULL);
	}
	if (shown < lines)
		fprintf(out, "    | ... (%zu more lines)\n", lines - shown);
}

/* Whether two cases' notes are the same. */
static int judge_report_same_notes(const struct judge_case *a, const struct judge_case *b)
{
	if (a->n_notes != b->n_notes)
		return 0;
	for (size_t k = 0; k < a->n_notes; k++)
		if (strcmp(a->notes[k], b->notes[k]) != 0)
			return 0;
	return 1;
}

/* A pass with notes (the ring travels left, all of B held at once): said
 * once for every case that has the same ones; with --show-output, each
 * case with what it printed. */
static void judge_report_pass(const struct judge *j, const struct judge_case *c, int output)
{
	if (c->verdict != JUDGE_PASS || !judge_defines(j, c) || (!c->n_notes && !output))
		return;
	if (!output) {
		for (const struct judge_case *e = j->cases; e < c; e++)
			if (e->verdict == JUDGE_PASS && judge_defines(j, e) &&
			    judge_report_same_notes(e, c))
				return;  /* said with the first */
		char more[512] = "";
		for (const struct judge_case *e = c + 1; e < j->cases + j->n_cases; e++)
			if (e->verdict == JUDGE_PASS && judge_defines(j, e) &&
			    judge_report_same_notes(e, c) && strlen(more) + 16 < sizeof more)
				snprintf(more + strlen(more), sizeof more - strlen(more), ", %d", e->id);
		printf("\ncase%s %d%s", more[0] ? "s" : "", c->id, more);
		printf(": pass, and:\n");
	} else {
		printf("\ncase %d: %s, n = %d: pass%s\n", c->id, judge_fn(c->mode), c->n,
		       c->n_notes ? ", and:" : "");
	}
	for (size_t k = 0; k < c->n_notes; k++)
		printf("    %s\n", c->notes[k]);
	if (output)
		judge_report_output(stdout, c);
}

void judge_report_case(FILE *out, const struct judge *j, const struct judge_case *c,
		       int show_output)
{
	char cap[24];
	const char *word = judge_verdict_word(c->verdict);
	const char *head = c->headline ? c->headline : "no answer";
	judge_report_capacity(c->capacity, cap, sizeof cap);
	fprintf(out, "\ncase %d: %s, n = %d%s%s%s, A %zux%zu @ B %zux%zu, %s, seed %" PRIu64
	       ", capacity %s", c->id, judge_fn(c->mode), c->n, *c->what ? " (" : "", c->what,
	       *c->what ? ")" : "", c->M, c->K, c->K, c->N,
	       c->values == MAT_VALUES_INTS ? "ints" : "floats", c->seed, cap);
	int runs = j->schedule >= 0 || c->n < 2 ? 1 : 3;
	if (c->sched_seed == 0 && c->schedule[0])
		fprintf(out, ", the reversed schedule (run %d of %d)", c->runs, runs);
	else if (c->schedule[0])
		fprintf(out, ", schedule seed %d (run %d of %d)%s", c->sched_seed, c->runs, runs,
		       c->timing ? ", timing-dependent: the default schedule passes" : "");
	fprintf(out, ":\n");
	/* the headline says its kind itself when it starts with it */
	size_t wl = strlen(word);
	int says = strncmp(head, word, wl) == 0 ||
		   (c->verdict == JUDGE_NOT_A_RING && strncmp(head, "not a ring", 10) == 0);
	fprintf(out, "  %s%s%s\n", says ? "" : word, says ? "" : ": ", head);
	for (size_t i = 0; i < c->n_notes; i++)
		fprintf(out, "    %s\n", c->notes[i]);
	if (c->has_trace && c->first_wrong >= 0)
		fprintf(out, "  the first wrong event is event %ld of %zu in its trace (--trace FILE "
		       "writes it)\n", c->first_wrong, c->trace.n_ev);
	if (show_output)
		judge_report_output(out, c);
	judge_report_again(out, j, c);
}

static int judge_report_trace(const struct cli_opts *o, const struct judge *j)
{
	const struct judge_case *c = judge_pick(j);
	if (!c) {
		status_error("--trace: no case recorded a run to write");
		return STATUS_USAGE;
	}
	/* the case's mode (the trace's own is read off its events), a forward run */
	struct dm_plan *p;
	struct dm_err err;
	if (plan_make(&p, c->mode, c->trace.n, DM_FORWARD, &err)) {
		status_error("%s", err.msg);
		return STATUS_USAGE;
	}
	int st = report_write_outputs(o, c->trace.ev, c->trace.n_ev, c->trace.sum, p, NULL);
	plan_free(p);
	if (st == STATUS_OK)
		printf("\ntrace of case %d written to %s; replay it: distmm-tui -b --replay %s "
		       "-M %zu -K %zu -N %zu --values %s --seed %" PRIu64 "\n", c->id,
		       o->trace_file, o->trace_file, c->M, c->K, c->N,
		       c->values == MAT_VALUES_INTS ? "ints" : "floats", c->seed);
	return st;
}

static int judge_report_report(const struct cli_opts *o, const struct judge *j)
{
	size_t n = 0, pass = 0, counted = 0, counted_pass = 0;
	size_t by[JUDGE_VERDICTS] = { 0 };
	int deadlock = 0;
	char cap[24];
	judge_report_capacity(o->capacity, cap, sizeof cap);
	char path[1024];
	status_escape(j->path, path, sizeof path);
	static const int modes[JUDGE_FNS] = { DM_DP, DM_FSDP, DM_TP_COL, DM_TP_ROW };
	char fns[128] = "";
	int has = 0;
	for (int k = 0; k < JUDGE_FNS; k++)
		has += judge_has(j, modes[k]);
	for (int k = 0, said = 0; k < JUDGE_FNS; k++)
		if (judge_has(j, modes[k]))
			snprintf(fns + strlen(fns), sizeof fns - strlen(fns), "%s%s",
				 !said++ ? "" : said == has ? " and " : ", ", judge_fn(modes[k]));
	printf("distmm-tui judge: %s (%s), python %s, time limit %g s a run\n", path, fns,
	       j->version, j->timeout_ms / 1000.0);
	/* tensor parallel's functions are the exercise's sequel: not said when missing */
	if (judge_has(j, DM_DP) != judge_has(j, DM_FSDP))
		printf("it defines no %s: those cases are left out\n",
		       judge_has(j, DM_DP) ? "fsdp_mat_mul" : "dp_mat_mul");
	if (!o->quiet)
		judge_report_table(j);
	for (size_t i = 0; i < j->n_cases; i++) {
		const struct judge_case *c = &j->cases[i];
		if (!judge_defines(j, c))
			continue;
		n++;
		pass += c->verdict == JUDGE_PASS;
		if (c->counts) {
			counted++;
			counted_pass += c->verdict == JUDGE_PASS;
			by[c->verdict]++;
			deadlock |= c->verdict == JUDGE_DEADLOCK;
		}
		if (c->verdict != JUDGE_PASS && c->verdict != JUDGE_NOT_RUN)
			judge_report_case(stdout, j, c, o->show_output);
		else if (c->verdict == JUDGE_PASS && o->show_output)
			judge_report_pass(j, c, 1);
	}
	for (size_t i = 0; i < j->n_cases && !o->show_output; i++)
		judge_report_pass(j, &j->cases[i], 0);
	int status = counted_pass == counted ? STATUS_OK
		     : deadlock ? STATUS_DEADLOCK : STATUS_MISMATCH;
	if (j->failure[0]) {
		char shown[2048];
		status_escape(j->failure, shown, sizeof shown);
		printf("\nthe judge stopped early: %s\n", shown);
		if (status == STATUS_OK)
			status = STATUS_MISMATCH;
	}
	if (o->trace_file) {
		int st = judge_report_trace(o, j);
		if (st != STATUS_OK)
			return st;
	}
	if (counted == n)
		printf("%ssummary: %zu of %zu cases pass", o->trace_file ? "" : "\n", pass, n);
	else
		printf("%ssummary: %zu of %zu cases within the exercise's contract pass (and %zu of "
		       "%zu beyond it, not counted)", o->trace_file ? "" : "\n", counted_pass, counted,
		       pass - counted_pass, n - counted);
	const char *sep = "; ";
	for (int v = 1; v < JUDGE_VERDICTS; v++)
		if (by[v]) {
			printf("%s%zu %s", sep, by[v], judge_verdict_word(v));
			sep = ", ";
		}
	printf("\n");
	return status;
}

int judge_report_main(const struct cli_opts *o)
{
	struct judge j;
	struct dm_err err;
	int rc;
	report_catch_signals(); /* for --trace; judge_run has its own while it runs */
	if (o->trace_file && (rc = report_check_output(o->trace_file, 0, &err))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if ((rc = judge_prepare(&j, o, &err))) {
		status_error("%s", err.msg);
		judge_free(&j);
		return status_of(rc);
	}
	rc = judge_run(&j, &err);
	if (j.signal) {
		int sig = j.signal;
		judge_free(&j);
		fflush(stdout);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	int status;
	if (rc) {
		status_error("%s", err.msg);
		status = status_of(rc);
	} else if (j.failure[0] && !judge_has(&j, DM_DP) && !judge_has(&j, DM_FSDP) &&
		   !judge_has(&j, DM_TP_COL) && !judge_has(&j, DM_TP_ROW)) {
		status_error("--judge: %s", j.failure);  /* before the file was loaded */
		status = STATUS_USAGE;
	} else if (j.load_error[0]) {
		status_error("%s", j.load_error);
		status = STATUS_USAGE;
	} else if ((o->given & CLI_GIVEN_MODE) && !judge_has(&j, o->mode)) {
		status_error("%s defines no %s (-m %s)", j.path, judge_fn(o->mode),
			     judge_mode_arg(o->mode));
		status = STATUS_USAGE;
	} else {
		status = judge_report_report(o, &j);
	}
	judge_free(&j);
	return status;
}
