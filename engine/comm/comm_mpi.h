/* comm_mpi: the communicator interface (comm.h) over MPI, one process per
 * rank.  Rank r of the MPI communicator is device r; dp.c and fsdp.c run over
 * it unchanged.  MPI-only: compiled into distmm-mpi, never into the engine
 * library, so that the engine builds where MPI is not installed.
 *
 * A message is a header (src, dst, step, kind, index, rows, cols) then its
 * payload, as MPI messages on a communicator of the transport's own (a
 * duplicate, so the program's messages never meet these).  Payloads move as
 * comm.h says: a send takes ownership of msg->data, a receive hands over a
 * malloc'd buffer.
 *
 * Stopping: MPI cannot be asked to end another process's blocking call, and
 * it cannot see a deadlock.  So every wait here is a nonblocking operation
 * completed together with a standing receive of an "abort" note: comm_close()
 * sends that note to every other rank, and whatever a rank is waiting for
 * (a message, a send, the step barrier) then ends with DM_ESTOPPED instead of
 * waiting for a rank that failed.  comm_destroy() is collective (every rank
 * calls it, at the end): it completes what an abort left in flight, so that
 * the program ends cleanly and never hangs in MPI_Finalize. */
#ifndef DM_COMM_MPI_H
#define DM_COMM_MPI_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <mpi.h>

#include "comm/comm.h"
#include <distmm/dm_err.h>

/* Collective over mc: every rank of mc calls it.  The transport for this
 * process's rank of mc (comm_size() is mc's size).  Returns 0, or with err
 * filled DM_ENOMEM, DM_EIO (an MPI call failed: its name and MPI's own
 * words) or DM_ESTOPPED (this rank is fine, another could not start). */
int comm_mpi_new(struct comm **out, MPI_Comm mc, struct dm_err *err);

/* This process's rank. */
int comm_mpi_rank(const struct comm *c);

/* 0, or DM_ESTOPPED (err filled) once some rank has closed the transport:
 * for the phase boundaries of a run that does not meet at a barrier. */
int comm_mpi_check(struct comm *c, struct dm_err *err);

/* The step barrier, before `phase`: every rank tells rank 0 it has arrived,
 * rank 0 waits for all of them, calls pause(ctx, phase) (when not NULL: the
 * teacher's Enter; a non-zero return stops the run with it), then releases
 * them.  Ends with DM_ESTOPPED when some rank closes the transport meanwhile,
 * DM_EPROTO when ranks disagree on the phase.  Waiting for the release
 * sleeps between polls (a person may take minutes to press Enter). */
int comm_mpi_barrier(struct comm *c, int phase, int (*pause)(void *ctx, int phase), void *ctx,
		     struct dm_err *err);

#endif
