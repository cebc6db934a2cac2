/* mpi_calibrate: distmm-mpi --calibrate, the model of time measured on the
 * job's own network (docs/clock.md, "Calibrating"). */
#ifndef APP_MPI_CALIBRATE_H
#define APP_MPI_CALIBRATE_H

#include "cli/cli.h"

/* The preset file --calibrate writes without -o. */
#define MPI_CALIBRATE_FILE "distmm-calibration.hw"

/* Every rank of the job: ranks 0 and 1 ping-pong every size from 8 B to
 * 64 MiB, doubling, several times; rank 0 fits alpha and beta to the
 * medians (hw_fit_alpha_beta), prints them with the fit's error (and,
 * unless -q, the table) and writes the preset file (o->out_file or
 * MPI_CALIBRATE_FILE, all or nothing).  The other ranks wait.  Returns the
 * exit status, the same on every rank. */
int mpi_calibrate(const struct cli_opts *o, int rank, int size);

#endif
