/* mpi_fail: a shim that mpi_test.sh preloads (LD_PRELOAD) into distmm-mpi to
 * make one MPI call fail, as it would under MPI_ERRORS_RETURN, so that the
 * test can check what the program reports: the call's name and MPI's own
 * words, on every rank's exit.  MPI's profiling interface gives the real
 * call (PMPI_*) for everything else, so the shim changes nothing unarmed.
 *
 * MPI_FAIL (environment) names the call:
 *   irecv-abort  the transport's standing receive of an abort note
 *                (comm_mpi.c: MPI_Irecv from MPI_ANY_SOURCE, tag 3)
 *   comm-size    MPI_Comm_size on any communicator but MPI_COMM_WORLD (the
 *                transport's start, on the run's own duplicate)
 * MPI_FAIL_RANK: fail on that rank of MPI_COMM_WORLD only (default: all).
 * The error returned is MPI_ERR_INTERN.  A collective is never failed: the
 * other ranks would wait in it for good. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
	      MPI_Request *req);
int MPI_Comm_size(MPI_Comm comm, int *size);

enum { MF_TAG_ABORT = 3 }; /* comm_mpi.c's CMPI_TAG_ABORT */

/* Is the fault `name` armed for this rank? */
static int mf_armed(const char *name)
{
	const char *what = getenv("MPI_FAIL"), *only = getenv("MPI_FAIL_RANK");
	int rank = -1;
	if (!what || strcmp(what, name) != 0)
		return 0;
	if (!only || !*only)
		return 1;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	return rank == atoi(only);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int src, int tag, MPI_Comm comm,
	      MPI_Request *req)
{
	if (src == MPI_ANY_SOURCE && tag == MF_TAG_ABORT && mf_armed("irecv-abort")) {
		*req = MPI_REQUEST_NULL;
		return MPI_ERR_INTERN;
	}
	return PMPI_Irecv(buf, count, type, src, tag, comm, req);
}

int MPI_Comm_size(MPI_Comm comm, int *size)
{
	if (comm != MPI_COMM_WORLD && mf_armed("comm-size"))
		return MPI_ERR_INTERN;
	return PMPI_Comm_size(comm, size);
}
