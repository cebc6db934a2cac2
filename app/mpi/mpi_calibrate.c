/* mpi_calibrate: --calibrate (see mpi_calibrate.h).  A ping-pong: rank 0
 * sends S bytes to rank 1, which sends them back; half the round trip is
 * one message's time, the quantity alpha + S / beta models.  Each size is
 * sent once to warm the path (the first touch of a buffer, a protocol's
 * setup), then MPI_CALIBRATE_REPS times, and the median taken: a stray
 * descheduling on a shared machine moves the mean, not the median.  The
 * fit and the file are the engine's (hw_fit_alpha_beta, hw_write_file); on
 * one machine this measures shared memory, across machines the network. */
#include "mpi_calibrate.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "batch/report.h"
#include "cli/status.h"
#include <distmm/hw.h>
#include <distmm/outfile.h>
#include "words/clock_words.h"

#define MPI_CALIBRATE_SIZES 24 /* 8 B = 2^3 ... 64 MiB = 2^26 */
#define MPI_CALIBRATE_REPS 7
#define MPI_CALIBRATE_TAG 26

static int cal_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return (a > b) - (a < b);
}

/* Ranks 0 and 1: the median one-way time of each size into secs (rank 0's
 * are the ones reported).  buf holds the largest size. */
static void cal_pingpong(int rank, char *buf, double *secs)
{
	int peer = 1 - rank;
	for (int i = 0; i < MPI_CALIBRATE_SIZES; i++) {
		int bytes = 8 << i;
		double t[MPI_CALIBRATE_REPS];
		for (int k = -1; k < MPI_CALIBRATE_REPS; k++) { /* k = -1: the warm-up */
			double t0 = MPI_Wtime();
			if (rank == 0) {
				MPI_Send(buf, bytes, MPI_BYTE, peer, MPI_CALIBRATE_TAG, MPI_COMM_WORLD);
				MPI_Recv(buf, bytes, MPI_BYTE, peer, MPI_CALIBRATE_TAG, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(buf, bytes, MPI_BYTE, peer, MPI_CALIBRATE_TAG, MPI_COMM_WORLD,
					 MPI_STATUS_IGNORE);
				MPI_Send(buf, bytes, MPI_BYTE, peer, MPI_CALIBRATE_TAG, MPI_COMM_WORLD);
			}
			if (k >= 0)
				t[k] = (MPI_Wtime() - t0) / 2;
		}
		qsort(t, MPI_CALIBRATE_REPS, sizeof t[0], cal_cmp);
		secs[i] = t[MPI_CALIBRATE_REPS / 2];
	}
}

/* "1.5 KiB"-like sizes for the table. */
static void cal_size(double bytes, char *buf, size_t size)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB" };
	int u = 0;
	while (bytes >= 1024 && u < 3) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, size, "%g %s", bytes, unit[u]);
}

/* Rank 0: the fit, the report and the file.  Returns the exit status. */
static int cal_report(const struct cli_opts *o, const double *secs, const char *host0,
		      const char *host1)
{
	double bytes[MPI_CALIBRATE_SIZES];
	struct hw_fit f;
	struct dm_hw hw;
	struct dm_err err;
	char a[32], b[32], s[32], stamp[32];
	const char *path = o->out_file ? o->out_file : MPI_CALIBRATE_FILE;
	for (int i = 0; i < MPI_CALIBRATE_SIZES; i++)
		bytes[i] = 8.0 * (double)(1u << i);
	if (hw_fit_alpha_beta(bytes, secs, MPI_CALIBRATE_SIZES, &f, &err)) {
		status_error("the ping-pong's times fit no model: %s", err.msg);
		return STATUS_MISMATCH;
	}
	printf("calibration: ping-pong between rank 0 (%s) and rank 1 (%s), 8 B to 64 MiB "
	       "doubling, the median of %d round trips a size, halved\n", host0, host1,
	       MPI_CALIBRATE_REPS);
	if (!o->quiet) {
		printf("  %10s %14s %14s %8s\n", "size", "measured", "alpha + S/beta", "error");
		for (int i = 0; i < MPI_CALIBRATE_SIZES; i++) {
			double model = f.alpha_us * 1e-6 + bytes[i] / (f.bw_gbps * 1e9);
			cal_size(bytes[i], s, sizeof s);
			clockw_time(secs[i], a, sizeof a);
			clockw_time(model, b, sizeof b);
			printf("  %10s %14s %14s %7.1f%%\n", s, a, b,
			       100.0 * (model - secs[i]) / secs[i]);
		}
	}
	cal_size(bytes[f.worst], s, sizeof s);
	printf("alpha = %.4g us, beta = %.4g GB/s (least squares of t = alpha + S/beta, each size "
	       "weighted by 1/t^2)\n", f.alpha_us, f.bw_gbps);
	printf("fit error: %.1f%% rms, at most %.1f%% (at %s), of the measured times%s\n",
	       100 * f.rms_rel, 100 * f.max_rel, s,
	       f.alpha_zero ? "; the line crossed below 0 at 0 B, so alpha is 0 and beta refitted"
			    : "");
	memset(&hw, 0, sizeof hw);
	snprintf(hw.name, sizeof hw.name, "calibrated");
	hw.alpha_us = f.alpha_us;
	hw.bw_gbps = f.bw_gbps;
	time_t now = time(NULL);
	struct tm tm;
	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof stamp, "%Y-%m-%d %H:%M UTC", &tm))
		snprintf(stamp, sizeof stamp, "undated");
	snprintf(hw.source, sizeof hw.source, "distmm-mpi --calibrate, ping-pong %.40s to %.40s, "
		 "8 B to 64 MiB, median of %d, %s", host0, host1, MPI_CALIBRATE_REPS, stamp);
	if (hw_check(&hw, &err))
		snprintf(hw.source, sizeof hw.source, "distmm-mpi --calibrate, %s", stamp);
	report_catch_signals(); /* a signal during the write leaves no temporary file */
	if (hw_write_file(path, &hw, &err)) {
		status_flush_stdout();
		status_error("%s", err.msg);
		return status_of(err.code);
	}
	printf("wrote %s: ./distmm-tui --hw %s times collectives with it (a preset file without F: "
	       "a multiply also needs --flops)\n", path, path);
	return STATUS_OK;
}

int mpi_calibrate(const struct cli_opts *o, int rank, int size)
{
	char host[MPI_MAX_PROCESSOR_NAME] = "", host1[MPI_MAX_PROCESSOR_NAME] = "";
	double secs[MPI_CALIBRATE_SIZES];
	int status = STATUS_OK, len = 0;
	if (size < 2) {
		if (rank == 0)
			status_error("--calibrate measures a message between two ranks: run it with "
				     "mpirun -np 2 ./distmm-mpi --calibrate");
		return STATUS_USAGE;
	}
	/* the file first: a path that cannot be written stops every rank before
	 * the measurement, not after it */
	if (rank == 0) {
		struct outfile f;
		struct dm_err err;
		if (outfile_open(&f, o->out_file ? o->out_file : MPI_CALIBRATE_FILE, &err)) {
			status_error("%s", err.msg);
			status = status_of(err.code);
		} else {
			outfile_abort(&f);
		}
	}
	MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (status != STATUS_OK)
		return status;
	/* both ranks' buffers first: an allocation that fails stops both */
	char *buf = rank < 2 ? malloc((size_t)8 << (MPI_CALIBRATE_SIZES - 1)) : NULL;
	int have = rank >= 2 || buf, all;
	MPI_Allreduce(&have, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (!all) {
		if (rank == 0)
			status_error("out of memory for the ping-pong's 64 MiB buffer");
		free(buf);
		return STATUS_USAGE;
	}
	if (rank < 2) {
		memset(buf, 0, (size_t)8 << (MPI_CALIBRATE_SIZES - 1));
		MPI_Get_processor_name(host, &len);
		if (rank == 1)
			MPI_Send(host, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_CALIBRATE_TAG,
				 MPI_COMM_WORLD);
		else
			MPI_Recv(host1, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 1, MPI_CALIBRATE_TAG,
				 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		host1[MPI_MAX_PROCESSOR_NAME - 1] = host[MPI_MAX_PROCESSOR_NAME - 1] = '\0';
		cal_pingpong(rank, buf, secs);
	}
	free(buf);
	if (rank == 0)
		status = cal_report(o, secs, host, host1);
	status_flush_stdout();
	MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
	return status;
}
