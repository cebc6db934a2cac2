/* session_judge: --judge without -b.  The judge runs before anything is
 * drawn (its errors are batch mode's one line and exit 2; its Python
 * processes are all gone when it returns), then the interface opens on one
 * case, picked as --trace picks it (judge_pick): the candidate's recorded
 * run, replayed as recorded, or, after j, the correct ring run live by the
 * engine on the same matrices, n, mode and capacity.  Both views are made
 * afresh at each switch; the stop and the screen's modes carry over. */
#include "session.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "judge/battery.h"
#include "judge/judge.h"
#include "layout.h"
#include "cli/status.h"
#include "view_judge.h"
#include <distmm/bug.h>
#include <distmm/order.h>
#include <distmm/run.h>

struct session_judge {
	struct judge j;
	const struct judge_case *c; /* the case on screen */
	struct view_judge vj;
};

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
	if (j->failure[0] && !j->has_dp && !j->has_fsdp) {
		status_error("--judge: %s", j->failure);
		return STATUS_USAGE;
	}
	if (j->load_error[0]) {
		status_error("%s", j->load_error);
		return STATUS_USAGE;
	}
	if ((o->given & CLI_GIVEN_MODE) && !(o->mode == DM_DP ? j->has_dp : j->has_fsdp)) {
		status_error("%s defines no %s (-m %s)", j->path,
			     o->mode == DM_DP ? "dp_mat_mul" : "fsdp_mat_mul",
			     o->mode == DM_DP ? "dp" : "fsdp");
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
	t->judge = sj;
	return STATUS_OK;
}

void session_judge_close(struct session *t)
{
	if (!t->judge)
		return;
	judge_free(&t->judge->j);
	free(t->judge);
	t->judge = NULL;
}

const struct judge_case *session_judge_case(const struct session *t)
{
	return t->judge ? t->judge->c : NULL;
}

/* The candidate's log: its trace's events, or none when it sent none that
 * could be read. */
static void sj_log(const struct judge_case *c, const struct ev **ev, size_t *n_ev)
{
	*ev = c->has_trace ? c->trace.ev : NULL;
	*n_ev = c->has_trace ? c->trace.n_ev : 0;
}

/* The view for vj.ring: the correct ring live, or the candidate's run. */
static int sj_view(struct session *t, uint64_t now, struct dm_err *err)
{
	struct session_judge *sj = t->judge;
	const struct judge_case *c = sj->c;
	const struct ev *ev;
	size_t n_ev;
	int rc;
	sj_log(c, &ev, &n_ev);
	if (sj->vj.ring) {
		struct view_config cfg = { c->mode, c->n, c->capacity, ORDER_PARITY, BUG_NONE, 0, 0, NULL };
		rc = view_init(&t->v, &t->a, &t->b, &cfg, 0, now, err);
	} else {
		rc = view_init_recorded(&t->v, &t->a, &t->b, ev, n_ev, c->mode, c->n, sj->vj.over,
					&sj->vj, now, err);
	}
	if (rc)
		return rc;
	t->v.judge = &sj->vj;
	return 0;
}

int session_judge_start(struct session *t, uint64_t now, struct dm_err *err)
{
	struct session_judge *sj = t->judge;
	struct judge_case inputs = *sj->c; /* battery_inputs settles the seed: the one used */
	const struct ev *ev;
	size_t n_ev;
	int rc;
	if ((rc = battery_inputs(&inputs, &t->a, &t->b, err)))
		return rc;
	sj_log(sj->c, &ev, &n_ev);
	int ring = sj->vj.ring; /* a lesson-less restart keeps the view it was on */
	rc = view_judge_init(&sj->vj, &sj->j, sj->c, ev, n_ev, err);
	sj->vj.ring = ring;
	if (!rc)
		rc = sj_view(t, now, err);
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
	if (!t->judge)
		return 0;
	/* what carries over: where it is and how the screen looks */
	int stop = v->failed ? v->live_phase : v->stop;
	int focus = v->focus, show = v->show, table = v->table, cell_on = v->cell_on;
	int speed = v->speed, utf8 = v->utf8, closed = v->result_closed;
	size_t ci = v->cell_i, cj = v->cell_j;
	view_free(v);
	t->judge->vj.ring = !t->judge->vj.ring;
	int rc = sj_view(t, now, err);
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
	if (!t->judge->vj.ring && v->stop < stop)
		snprintf(v->msg, sizeof v->msg, "j: your run, as far as it got");
	return 0;
}
