/* mpi_main: distmm-mpi, the batch run of distmm-tui over MPI: one device per
 * rank, the same per-rank algorithms (<distmm/mpi_rank.h>), and rank 0
 * printing exactly what `distmm-tui -b -d N` prints for the same inputs.
 *
 * Who does what: every rank parses the same command line (cli_parse is
 * deterministic), so a bad option ends every rank at once with no message
 * exchanged, rank 0 alone printing it.  Only rank 0 touches files: it checks
 * the outputs, loads or generates A and B and checks the shapes, then
 * broadcasts go or no-go with the exit status, so that bad input ends every
 * rank with that status and one message instead of a hang.  After the run
 * rank 0 reports and writes the outputs, and broadcasts the exit status,
 * which every rank returns (mpirun then reports nothing of its own for a
 * successful run).  Each rank then checks its own stdout (status.h): a
 * write that failed is an error there too.
 *
 * --step (distmm-mpi's own option, taken out before cli_parse sees the
 * line): the ranks meet at a barrier before every phase, each printing what
 * it holds, and rank 0 waits for Enter on its standard input (mpirun
 * forwards its own to rank 0); at end of input it stops waiting. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch/batch.h"
#include "cli/cli.h"
#include "cli/files.h"
#include "cli/inputs.h"
#include <distmm/mpi_rank.h>
#include "batch/report.h"
#include "batch/report_clock.h"
#include "batch/report_mlp.h"
#include "batch/report_tp.h"
#include "batch/report_train.h"
#include <distmm/run.h>
#include <distmm/schedule.h>
#include "cli/status.h"
#include "cli/version.h"
#include "mpi_calibrate.h"
#include "words/bug_words.h"
#include "words/clock_words.h"

/* What --step needs: rank 0 stops waiting once its input has ended. */
struct mm_step {
	int eof;
};

static int mm_rank, mm_size;

/* The command line as batch mode sees it: -b in front, --step taken out.
 * The device count is the job's size: a -d of the user's is only checked
 * against it (mm_refuse), so cli_parse sees -d exactly when it was given
 * (--replay refuses one).  Returns cli_parse's action. */
static int mm_parse(int argc, char **argv, struct cli_opts *o, int *step, int *calibrate,
		    char *err, size_t size)
{
	static char name[] = "distmm-mpi", opt_b[] = "-b";
	enum { MM_MAX_ARGS = 256 };
	char *args[MM_MAX_ARGS + 2];
	int n = 0;

	*step = *calibrate = 0;
	memset(o, 0, sizeof *o); /* read after an error too (o->refused) */
	if (argc > MM_MAX_ARGS) {
		snprintf(err, size, "too many arguments (%d)", argc);
		return CLI_ERROR;
	}
	args[n++] = argc > 0 ? argv[0] : name;
	args[n++] = opt_b;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) { /* what follows is no option */
			while (i < argc)
				args[n++] = argv[i++];
			break;
		}
		if (strcmp(argv[i], "--step") == 0)
			*step = 1;
		else if (strcmp(argv[i], "--calibrate") == 0)
			*calibrate = 1;
		else
			args[n++] = argv[i];
	}
	args[n] = NULL;
	return cli_parse(n, args, o, err, size);
}

/* Whether every rank was given the same command line (mpirun's MPMD form,
 * "-np 1 distmm-mpi -q : -np 3 distmm-mpi -M 0", can give each its own):
 * each rank hashes its arguments (the program's name aside) and rank 0,
 * which gathers the hashes, names the first rank that differs and tells
 * every rank to stop.  Before any other exchange, so that ranks that parsed
 * differently never wait in different collectives (they would spin at 100%
 * CPU until killed).  Returns STATUS_OK, or STATUS_USAGE on every rank. */
static int mm_agree(int argc, char **argv)
{
	uint64_t h = 1469598103934665603ull, *all = NULL; /* FNV-1a */
	for (int i = 1; i < argc; i++)
		for (const unsigned char *c = (const unsigned char *)argv[i];; c++) {
			h = (h ^ *c) * 1099511628211ull;
			if (!*c)
				break;
		}
	int status = STATUS_OK;
	if (mm_rank == 0 && !(all = malloc((size_t)mm_size * sizeof *all)))
		status = STATUS_USAGE;
	MPI_Gather(&h, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (mm_rank == 0 && status != STATUS_OK) {
		status_error("out of memory");
	} else if (mm_rank == 0) {
		for (int r = 1; r < mm_size; r++)
			if (all[r] != all[0]) {
				status_error("rank %d was given other options than rank 0: distmm-mpi "
					     "takes one command line for every rank (check the parts of the "
					     "mpirun line between ':')", r);
				status = STATUS_USAGE;
				break;
			}
	}
	free(all);
	MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return status;
}

static void mm_usage(void)
{
	status_put_stdout("distmm-mpi: the batch run of distmm-tui over MPI, one device per rank:\n"
			  "  mpirun -np N ./distmm-mpi [options]\n"
			  "Only rank 0 reads -A/-B/-E and writes -o/--trace; -d, when given, must be N.\n"
			  "  --step  before every phase the ranks meet at a barrier, each prints what it\n"
			  "          holds, and rank 0 waits for Enter\n"
			  "  --calibrate  ranks 0 and 1 ping-pong 8 B to 64 MiB; alpha and beta fitted\n"
			  "          to the medians, printed with the fit's error and written as a\n"
			  "          preset file for --hw (-o FILE, default " MPI_CALIBRATE_FILE ")\n"
			  "  --hw, --alpha, --bw, --flops: each phase's modelled time beside the\n"
			  "          measured one (its slowest rank's span, on each rank's own clock)\n"
			  "--naive, --order, --fix and --capacity (the in-process transport's, which\n"
			  "detects deadlocks), --collective, --sweep, --prefetch and the interface's\n"
			  "options belong to distmm-tui.\n\n");
	status_put_stdout(cli_usage());
}

/* distmm-tui's batch options distmm-mpi does not run yet (the model of
 * time it takes: --hw and the rest time the MPI run, beside its own
 * measured times). */
#define MM_TUI_ONLY (CLI_GIVEN_COLLECTIVE | CLI_GIVEN_SWEEP | CLI_GIVEN_PREFETCH)

/* --calibrate takes -o and -q alone (and not --step).  Returns 0 or
 * STATUS_USAGE (rank 0 printed why). */
static int mm_refuse_calibrate(const struct cli_opts *o, int step)
{
	cli_given_t other = o->given & ~(CLI_GIVEN_BATCH | CLI_GIVEN_OUT | CLI_GIVEN_QUIET);
	if (!step && !other)
		return 0;
	if (mm_rank == 0)
		status_error("%s has no effect with --calibrate (it measures messages between ranks "
			     "0 and 1: -o FILE names the preset file, -q shortens the report)",
			     step ? "--step" : cli_option_name(other & -other));
	return STATUS_USAGE;
}

/* Options distmm-mpi cannot honour, refused the same way on every rank;
 * then the device count becomes the job's size.  Returns 0 or STATUS_USAGE
 * (rank 0 printed why). */
static int mm_refuse(struct cli_opts *o, int step)
{
	const char *why = NULL;
	char buf[256];
	if ((o->given & CLI_GIVEN_DEVICES) && o->devices != mm_size) {
		snprintf(buf, sizeof buf,
			 "-d %d, but the job has %d rank%s: distmm-mpi runs one device per rank "
			 "(leave out -d, or run mpirun -np %d)",
			 o->devices, mm_size, mm_size == 1 ? "" : "s", o->devices);
		why = buf;
	} else if (o->order_opt[0]) {
		snprintf(buf, sizeof buf,
			 "%s is the deadlock lab of the in-process transport, which detects a "
			 "deadlock; MPI cannot (the job would hang): see it with ./distmm-tui",
			 o->order_opt);
		why = buf;
	} else if (o->capacity != RUN_UNBOUNDED) {
		why = "--capacity sets the inboxes of the in-process transport; over MPI the "
		      "channel is MPI's: leave it out (or use ./distmm-tui)";
	} else if (o->given & MM_TUI_ONLY) {
		snprintf(buf, sizeof buf,
			 "%s belongs to ./distmm-tui -b for now: distmm-mpi neither runs the "
			 "collectives family nor overlaps a ring step yet",
			 cli_option_name(o->given & MM_TUI_ONLY & -(o->given & MM_TUI_ONLY)));
		why = buf;
	} else if (step && plan_mode_tp(o->mode)) {
		why = "--step has no effect with -m tp-col, tp-row or tp-mlp yet (its lines say what "
		      "an FSDP or DP rank holds): run it without --step";
	} else if (o->params) {
		why = "--params belongs to ./distmm-tui -b: the memory table runs nothing, so "
		      "there is nothing to spread over MPI ranks";
	} else if (step && o->replay_file) {
		why = "--step has no effect with --replay (the ranks run nothing to step through)";
	}
	o->devices = mm_size;
	if (!why)
		return 0;
	if (mm_rank == 0)
		status_error("%s", why);
	return STATUS_USAGE;
}

/* --step, every rank: one line of what it holds before phase v->phase. */
static void mm_show(void *ctx, const struct mpi_rank_view *v)
{
	char where[96], b[64], moved[96] = "", c[64];
	(void)ctx;
	if (v->phase < v->phase_count)
		snprintf(where, sizeof where, "before phase %d/%d (%s, s=%d)", v->phase + 1,
			 v->phase_count,
			 sched_kind_name(v->kind), v->step);
	else
		snprintf(where, sizeof where, "at the end");
	if (v->holds_full_b)
		snprintf(b, sizeof b, "all of B");
	else if (v->shard >= 0)
		snprintf(b, sizeof b, "B shard %d = B[:, %zu:%zu]", v->shard, v->shard_col_begin,
			 v->shard_col_end);
	else
		snprintf(b, sizeof b, "no B");
	if (v->gathered)
		snprintf(c, sizeof c, "the gathered C");
	else if (v->c_sent)
		snprintf(c, sizeof c, "C rows sent to rank 0");
	else
		snprintf(c, sizeof c, "C %zu of %zu columns done", v->cols_done, v->N);
	if (v->sent_shard >= 0)
		snprintf(moved, sizeof moved, ", sent B[%d] -> rank %d", v->sent_shard, v->sent_to);
	if (v->recv_shard >= 0)
		snprintf(moved + strlen(moved), sizeof moved - strlen(moved), ", got B[%d] <- rank %d",
			 v->recv_shard, v->recv_from);
	if (v->pass == DM_TRAIN && v->db_sent >= 0)
		snprintf(moved + strlen(moved), sizeof moved - strlen(moved), ", sent dB[%d] -> rank %d",
			 v->db_sent, v->sent_to);
	if (v->pass == DM_TRAIN && v->db_recv >= 0)
		snprintf(moved + strlen(moved), sizeof moved - strlen(moved), ", got dB[%d] <- rank %d",
			 v->db_recv, v->recv_from);
	if (v->pass == DM_TRAIN && v->da_parts > 0)
		snprintf(moved + strlen(moved), sizeof moved - strlen(moved), ", dA from %d of %d shards",
			 v->da_parts, v->n);
	printf("rank %d %s: A rows %zu:%zu, %s, %s%s, holds %llu B\n", v->rank, where,
	       v->row_begin, v->row_end, b, c, moved, (unsigned long long)v->held_bytes);
	status_flush_stdout();
}

/* --step, rank 0, once every rank has arrived: Enter starts the phase. */
static int mm_pause(void *ctx, int phase)
{
	struct mm_step *s = ctx;
	char line[256];
	if (s->eof)
		return 0;
	printf("-- every rank is before phase %d: press Enter to run it\n", phase + 1);
	status_flush_stdout();
	do {
		if (!fgets(line, sizeof line, stdin)) {
			s->eof = 1; /* no more input: run on */
			break;
		}
	} while (!strchr(line, '\n'));
	return 0;
}

/* What rank 0 holds beside A and B: the run's plan, a training step's dC,
 * tp-mlp's E (the checks need them after the run). */
struct mm_refs {
	struct dm_plan *plan;
	struct mat dc, e;
};

static void mm_refs_free(struct mm_refs *r)
{
	plan_free(r->plan);
	r->plan = NULL;
	mat_free(&r->dc);
	mat_free(&r->e);
}

/* Rank 0, before anything runs: the outputs, the inputs, a training step's dC and
 * the checks run_new() makes.  Returns the exit status (STATUS_OK: go). */
static int mm_prepare(const struct cli_opts *o, struct mat *a, struct mat *b, struct mm_refs *ref)
{
	struct dm_err err;
	char why[1024];
	int rc;
	if (files_check_distinct(o, why, sizeof why)) {
		status_error("%s", why);
		return STATUS_USAGE;
	}
	if ((rc = report_train_check_outputs(o, &err))) { /* the forward's outputs too */
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if ((rc = inputs_load(o, a, b, &err)) ||
	    (o->train && (rc = inputs_load_dc(o, a->rows, b->cols, &ref->dc, &err)))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	if ((rc = inputs_plan(o, &ref->plan, &err)) ||
	    (o->mode == DM_TP_MLP && (rc = inputs_load_e(o, b, ref->plan, &ref->e, &err))) ||
	    (rc = mpi_rank_check(ref->plan, a, b, o->train ? &ref->dc : NULL, &ref->e, &err))) {
		status_error("%s", err.msg);
		return status_of(rc);
	}
	struct dm_hw hw; /* a bad --hw costs no run */
	if (report_clock_asked(o))
		return report_clock_model(o, 1, &hw);
	return STATUS_OK;
}

/* Rank 0, after a training step: what batch_train_main prints after the run. */
static int mm_report_train(const struct cli_opts *o, const struct mat *a, const struct mat *b,
			   const struct mm_refs *ref, const struct mpi_rank_result *res, int rc,
			   const struct dm_err *err)
{
	int status;
	if (!o->quiet)
		report_train_events(res->ev, res->n_ev, ref->plan);
	if (rc) {
		status_flush_stdout();
		status_error("%s", err->msg);
		report_clock_none(o, 0);
		report_train_write(o, res->ev, res->n_ev, res->sum, ref->plan, NULL, NULL, NULL);
		return STATUS_MISMATCH;
	}
	report_train_summary(res->sum, res->ev, res->n_ev, ref->plan, a->rows, a->cols, b->cols);
	report_train_compare(ref->plan, a->rows, a->cols, b->cols);
	report_clock_beside(o, ref->plan, a->cols, res->ev, res->n_ev);
	status = report_train_write(o, res->ev, res->n_ev, res->sum, ref->plan, &res->c, &res->da,
				    &res->db);
	if (status == STATUS_OK)
		status = report_train_verify(o, a, b, &ref->dc, &res->c, &res->da, &res->db);
	return status;
}

/* Rank 0, after the run: what batch_main prints after run_finish. */
static int mm_report(const struct cli_opts *o, const struct mat *a, const struct mat *b,
		     const struct mm_refs *ref, const struct mpi_rank_result *res, int rc,
		     const struct dm_err *err)
{
	struct run_config cfg;
	int status;
	if (!res->ran) { /* refused before it started, like run_new */
		status_flush_stdout();
		status_error("%s", err->msg);
		return status_of(rc);
	}
	if (o->train)
		return mm_report_train(o, a, b, ref, res, rc, err);
	if (!o->quiet)
		report_events(res->ev, res->n_ev, ref->plan);
	if (rc) {
		status_flush_stdout();
		status_error("%s", err->msg);
		report_clock_none(o, 0);
		/* the trace of what happened, which is whole; never a result */
		report_write_outputs(o, res->ev, res->n_ev, res->sum, ref->plan, NULL);
		return STATUS_MISMATCH;
	}
	if (plan_mode_tp(plan_mode(ref->plan))) { /* batch_main's: its own table, the modes */
		report_tp_summary(res->sum, ref->plan, a->rows, a->cols, b->cols);
		report_tp_modes(res->sum, ref->plan, a->rows, a->cols, b->cols);
		if (o->mode == DM_TP_MLP)
			report_mlp_orders(ref->plan, a->rows, a->cols, b->cols);
	} else {
		report_summary(res->sum, ref->plan, a->rows, a->cols, b->cols);
		inputs_run_config(o, a, b, &cfg);
		report_compare(a, b, ref->plan, &cfg, res->sum, o->compare);
	}
	report_clock_beside(o, ref->plan, a->cols, res->ev, res->n_ev);
	status = report_write_outputs(o, res->ev, res->n_ev, res->sum, ref->plan, &res->c);
	if (status == STATUS_OK)
		status = o->mode == DM_TP_MLP
				 ? report_mlp_verify(o, a, b, &ref->e, ref->plan, &res->c)
				 : report_verify(o, a, b, &res->c);
	return status;
}

static int mm_main(int argc, char **argv)
{
	struct cli_opts o;
	struct mat a = { 0, 0, NULL }, b = { 0, 0, NULL };
	struct mm_refs ref;
	struct mpi_rank_result res;
	struct mm_step step_state = { 0 };
	struct dm_err err = { DM_OK, "" };
	char msg[256];
	int step, calibrate, status = STATUS_OK;

	memset(&ref, 0, sizeof ref);
	if (mm_size > RUN_MAX_DEVICES) {
		if (mm_rank == 0)
			status_error("distmm-mpi runs one device per rank, up to %d; this job has %d ranks",
				     RUN_MAX_DEVICES, mm_size);
		return STATUS_USAGE;
	}
	if ((status = mm_agree(argc, argv)))
		return status;
	switch (mm_parse(argc, argv, &o, &step, &calibrate, msg, sizeof msg)) {
	case CLI_HELP:
		if (mm_rank == 0)
			mm_usage();
		return STATUS_OK;
	case CLI_VERSION:
		if (mm_rank == 0)
			printf("distmm-mpi %s\n", DISTMM_VERSION);
		return STATUS_OK;
	case CLI_BUG_LIST:
		if (mm_rank == 0)
			bugw_print_list();
		return STATUS_OK;
	case CLI_HW_LIST:
		if (mm_rank == 0)
			clockw_print_presets();
		return STATUS_OK;
	case CLI_ERROR:
		if (mm_rank == 0) {
			if (o.refused & CLI_GIVEN_INTERFACE) /* cli's words say "with -b": not given here */
				status_error("%s belongs to the interface of ./distmm-tui; distmm-mpi "
					     "has no interface", cli_option_name(o.refused));
			else
				status_error("%s", msg);
		}
		return STATUS_USAGE;
	}
	if (calibrate)
		return (status = mm_refuse_calibrate(&o, step)) ? status
								 : mpi_calibrate(&o, mm_rank, mm_size);
	if ((status = mm_refuse(&o, step)))
		return status;
	if (o.replay_file) { /* a recorded run: nothing to distribute */
		if (mm_rank == 0)
			status = batch_main(&o);
		MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
		return status;
	}

	if (mm_rank == 0 && (status = mm_prepare(&o, &a, &b, &ref)) == STATUS_OK) {
		/* before the go: with --step the ranks' lines come after it */
		report_header("distmm-tui batch", &o, ref.plan, a.rows, a.cols, b.cols);
		if (o.mode == DM_TP_MLP)
			report_mlp_header(&o, ref.plan, b.cols);
		if (o.train)
			report_train_intro(&o, ref.plan);
		status_flush_stdout();
	}
	MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD); /* go, or every rank ends with it */
	if (status != STATUS_OK)
		goto out;

	struct mpi_rank_config cfg = { .plan = mm_rank == 0 ? ref.plan : NULL,
				       .dc = mm_rank == 0 && o.train ? &ref.dc : NULL,
				       .e = mm_rank == 0 && o.mode == DM_TP_MLP ? &ref.e : NULL };
	if (step) {
		cfg.show = mm_show;
		cfg.pause = mm_pause;
		cfg.ctx = &step_state;
	}
	int rc = mpi_rank_run(MPI_COMM_WORLD, &cfg, mm_rank == 0 ? &a : NULL,
			      mm_rank == 0 ? &b : NULL, &res, &err);
	if (mm_rank == 0) {
		/* rank 0 writes the files: a signal during the write (mpirun
		 * passes Ctrl-C and SIGTERM on) leaves no temporary file */
		report_catch_signals();
		status = mm_report(&o, &a, &b, &ref, &res, rc, &err);
	}
	mpi_rank_result_free(&res);
	status_flush_stdout();
	MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
out:
	mm_refs_free(&ref);
	mat_free(&a);
	mat_free(&b);
	return status;
}

int main(int argc, char **argv)
{
	/* funneled: only this thread calls MPI, but there are others (OpenBLAS's,
	 * and report_compare's in-process devices on rank 0) */
	int provided = MPI_THREAD_SINGLE, status;
	status_set_program("distmm-mpi");
	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &mm_rank);
	MPI_Comm_size(MPI_COMM_WORLD, &mm_size);
	if (provided < MPI_THREAD_FUNNELED) { /* the same answer on every rank */
		if (mm_rank == 0)
			status_error("this MPI library does not allow threads beside the one calling "
				     "MPI (MPI_THREAD_FUNNELED), and distmm-mpi has them");
		status = STATUS_USAGE;
	} else {
		status = mm_main(argc, argv);
	}
	MPI_Finalize();
	/* every rank's own stdout: rank 0's report, any rank's --step lines */
	return status_close_stdout(status);
}
