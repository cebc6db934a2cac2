/* session_judge: --judge without -b.  The judge runs before anything is
 * drawn (its errors are batch mode's one line and exit 2; its Python
 * processes are all gone when it returns), then the interface opens on one
 * case, picked as --trace picks it (judge_pick): the candidate's run, as
 * its log has it, or, after j, the correct ring run live by the engine on
 * the same matrices, n, mode and capacity (modes/judged.c shows both).  Both
 * views are made afresh at each switch; the stop and the screen's modes
 * carry over. */
#include "session.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/battery.h"
#include "judge/judge.h"
#include "layout.h"
#include "modes/judged.h"
#include "cli/status.h"

struct session_judge {
	struct judge j;
	int lent;                   /* j is the caller's (session_judge_lend): not freed here */
	const struct judge_case *c; /* the case on screen */
	struct mode_judged vj;      /* what its modes say of it (modes/judged.c) */
};

/* The session's judge, NULL without --judge: the session holds it, and only
 * this file reads or sets it, through these two. */
static struct session_judge *sj_of(const struct session *t)
{
	return t->judge; /* the one read of the session's judge */
}

static void sj_keep(struct session *t, struct session_judge *sj)
{
	t->judge = sj; /* the one write: set by open, cleared by close */
}

/* The one line of the judge's errors, as batch mode says them (judge_report.c);
 * STATUS_OK when the judge could run its cases. */
static int sj_errors(struct session_judge *sj, const struct cli_opts *o, int rc,
		     const struct dm_err *err)
{
	struct judge *j = &sj->j;
	if (rc) {
		status_error("%s", err->msg);
		return status_of(rc);
	}
	int has_tp = judge_has(j, DM_TP_COL) || judge_has(j, DM_TP_ROW);
	if (j->failure[0] && !judge_has(j, DM_DP) && !judge_has(j, DM_FSDP) && !has_tp) {
		status_error("--judge: %s", j->failure);
		return STATUS_USAGE;
	}
	if (j->load_error[0]) {
		status_error("%s", j->load_error);
		return STATUS_USAGE;
	}
	if ((o->given & CLI_GIVEN_MODE) && !judge_has(j, o->mode)) {
		status_error("%s defines no %s (-m %s)", j->path, judge_fn(o->mode),
			     judge_mode_arg(o->mode));
		return STATUS_USAGE;
	}
	/* the judged view replays a run as the engine's event log, which
	 * tensor parallel does not have yet: batch mode judges it */
	if (!judge_has(j, DM_DP) && !judge_has(j, DM_FSDP) && has_tp) {
		status_error("%s defines tensor parallel's functions alone: the judged view shows "
			     "dp_mat_mul and fsdp_mat_mul only (-b --judge %s judges them)", j->path,
			     j->path);
		return STATUS_USAGE;
	}
	return STATUS_OK;
}

/* The case to show: judge_pick's, else the first that ran at all. */
static const struct judge_case *sj_pick(const struct judge *j)
{
	const struct judge_case *c = judge_pick(j);
	for (size_t i = 0; !c && i < j->n_cases; i++)
		if (judge_defines(j, &j->cases[i]) && j->cases[i].verdict != JUDGE_NOT_RUN)
			c = &j->cases[i];
	return c;
}

int session_judge_open(struct session *t, const struct cli_opts *o)
{
	struct dm_err err;
	struct session_judge *sj = calloc(1, sizeof *sj);
	if (!sj) {
		status_error("out of memory");
		return STATUS_USAGE;
	}
	int rc = judge_prepare(&sj->j, o, &err);
	if (rc) {
		status_error("%s", err.msg);
		judge_free(&sj->j);
		free(sj);
		return status_of(rc);
	}
	/* a word while Python works (a battery takes a few seconds), on a
	 * terminal only, erased before anything else is said */
	int say = !o->export_file && isatty(STDERR_FILENO);
	int said = say ? fprintf(stderr, "judging %s: %zu case%s...", sj->j.path, sj->j.n_cases,
				 sj->j.n_cases == 1 ? "" : "s") : 0;
	rc = judge_run(&sj->j, &err);
	if (said > 0)
		fprintf(stderr, "\r%*s\r", said, "");
	if (sj->j.signal) {
		/* Ctrl-C while it ran: every process is gone; end as the signal says */
		int sig = sj->j.signal;
		judge_free(&sj->j);
		free(sj);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	int st = sj_errors(sj, o, rc, &err);
	if (st == STATUS_OK && !(sj->c = sj_pick(&sj->j))) {
		status_error("--judge: no case of %s ran%s%s", sj->j.path, sj->j.failure[0] ? ": " : "",
			     sj->j.failure);
		st = STATUS_MISMATCH;
	}
	if (st == STATUS_OK && sj->c->n > LAYOUT_MAX_DEVICES) {
		status_error("the interface shows up to %d devices, not %d (use -b for more)",
			     LAYOUT_MAX_DEVICES, sj->c->n);
		st = STATUS_USAGE;
	}
	if (st != STATUS_OK) {
		judge_free(&sj->j);
		free(sj);
		return st;
	}
	sj_keep(t, sj);
	return STATUS_OK;
}

int session_judge_lend(struct session *t, const struct cli_opts *o, const struct judge *j,
		       const struct judge_case *c)
{
	struct session_judge *sj;
	memset(t, 0, sizeof *t);
	t->opts = *o;
	if (c->n > LAYOUT_MAX_DEVICES || !(sj = calloc(1, sizeof *sj)))
		return -1;
	sj->j = *j; /* its cases stay the caller's: c points into them */
	sj->lent = 1;
	sj->c = c;
	sj_keep(t, sj);
	return 0;
}

void session_judge_close(struct session *t)
{
	struct session_judge *sj = sj_of(t);
	if (!sj)
		return;
	mode_judged_release(&sj->vj);
	if (!sj->lent)
		judge_free(&sj->j);
	free(sj);
	sj_keep(t, NULL);
}

int session_judge_start(struct session *t, uint64_t now, struct dm_err *err)
{
	struct session_judge *sj = sj_of(t);
	const struct judge_case *c = sj->c;
	struct judge_case inputs = *c; /* battery_inputs settles the seed: the one used */
	int rc;
	if ((rc = battery_inputs(&inputs, &t->a, &t->b, err)))
		return rc;
	int ring = sj->vj.ring; /* a lesson-less restart keeps the view it was on */
	/* the candidate's log: its trace's events, or none when it sent none
	 * that could be read */
	rc = mode_judged_init(&sj->vj, &sj->j, c, c->has_trace ? c->trace.ev : NULL,
			      c->has_trace ? c->trace.n_ev : 0, err);
	sj->vj.ring = ring;
	if (!rc)
		rc = mode_judged_show(&t->v, &t->a, &t->b, &sj->vj, now, err);
	if (rc) {
		mat_free(&t->a);
		mat_free(&t->b);
		return rc;
	}
	t->v.playing = t->opts.play;
	return 0;
}

int session_judge_switch(struct session *t, uint64_t now, struct dm_err *err)
{
	struct view *v = &t->v;
	struct session_judge *sj = sj_of(t);
	if (!sj)
		return 0;
	/* what carries over: where it is and how the screen looks */
	int stop = v->failed ? v->live_phase : v->stop;
	int focus = v->focus, show = v->show, table = v->table, cell_on = v->cell_on;
	int speed = v->speed, utf8 = v->utf8, closed = v->result_closed;
	size_t ci = v->cell_i, cj = v->cell_j;
	view_free(v);
	sj->vj.ring = !sj->vj.ring;
	int rc = mode_judged_show(v, &t->a, &t->b, &sj->vj, now, err);
	if (rc)
		return rc;
	v->focus = focus;
	v->show = show;
	v->table = table;
	v->cell_on = cell_on;
	v->cell_i = ci;
	v->cell_j = cj;
	v->speed = speed;
	v->utf8 = utf8;
	view_goto(v, stop, now);
	v->result_closed = closed;
	if (!sj->vj.ring && v->stop < stop)
		snprintf(v->msg, sizeof v->msg, "j: your run, as far as it got");
	return 0;
}
