/* gemm: CBLAS dgemm behind one function (see gemm.h), and the gate that
 * bounds how many products run at once. */
/* OpenBLAS's cblas.h declares affinity calls with cpu_set_t, a GNU type. */
#define _GNU_SOURCE
#include "core/gemm.h"

#include <cblas.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <unistd.h>

/* At most this many products run at once: the simulated devices share the
 * machine's cores anyway, and OpenBLAS keeps a fixed table of per-thread
 * buffers (64 in Debian's build) that hundreds of concurrent callers overflow
 * (it then warns on stderr).  The gate is a counting semaphore: taking and
 * giving a free slot is one atomic operation each, with no lock, and a caller
 * sleeps in the kernel only when every slot is taken.  (It was a mutex and a
 * condition variable: four lock operations a product, and with hundreds of
 * devices computing tiny blocks on two cores a slot holder preempted inside
 * the mutex put the others to sleep on it.) */
#define GEMM_MAX_CONCURRENT 32

static sem_t gemm_gate;
static pthread_once_t gemm_once = PTHREAD_ONCE_INIT;

/* OpenBLAS (pthread build) starts its worker threads when it loads, and an
 * idle worker spins on sched_yield for some 10^8 cycles before it sleeps:
 * about 0.1 s of a core taken from the devices at every start of the
 * program, a whole 1024^3 job's worth.  Its own blas_thread_shutdown_ (what
 * it calls before a fork) ends them; they come back if a caller asks for
 * more threads.  Weak: a BLAS without it simply keeps its threads. */
int blas_thread_shutdown_(void) __attribute__((weak));

static void gemm_init_once(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	openblas_set_num_threads(1);
	if (blas_thread_shutdown_)
		blas_thread_shutdown_();
	sem_init(&gemm_gate, 0,
		 cpus < 1 ? 1 : cpus > GEMM_MAX_CONCURRENT ? GEMM_MAX_CONCURRENT : (unsigned)cpus);
}

void gemm_init(void)
{
	pthread_once(&gemm_once, gemm_init_once);
}

/* Every product goes through the gate. */
static void gemm_gated(enum CBLAS_TRANSPOSE ta, enum CBLAS_TRANSPOSE tb, size_t m, size_t n,
		       size_t k, const double *a, size_t lda, const double *b, size_t ldb,
		       double *c, size_t ldc)
{
	if (m == 0 || n == 0 || k == 0)
		return;
	gemm_init();
	/* ends: every slot holder gives its slot back when its product is done */
	while (sem_wait(&gemm_gate) != 0 && errno == EINTR)
		;
	cblas_dgemm(CblasRowMajor, ta, tb, (int)m, (int)n, (int)k, 1.0, a, (int)lda, b, (int)ldb,
		    1.0, c, (int)ldc);
	sem_post(&gemm_gate);
}

void gemm_acc(size_t m, size_t n, size_t k, const double *a, size_t lda,
	      const double *b, size_t ldb, double *c, size_t ldc)
{
	gemm_gated(CblasNoTrans, CblasNoTrans, m, n, k, a, lda, b, ldb, c, ldc);
}

void gemm_acc_nt(size_t m, size_t n, size_t k, const double *a, size_t lda,
		 const double *b, size_t ldb, double *c, size_t ldc)
{
	gemm_gated(CblasNoTrans, CblasTrans, m, n, k, a, lda, b, ldb, c, ldc);
}

void gemm_acc_tn(size_t m, size_t n, size_t k, const double *a, size_t lda,
		 const double *b, size_t ldb, double *c, size_t ldc)
{
	gemm_gated(CblasTrans, CblasNoTrans, m, n, k, a, lda, b, ldb, c, ldc);
}

void gemm_acc_op(int ta, int tb, size_t m, size_t n, size_t k, const double *a, size_t lda,
		 const double *b, size_t ldb, double *c, size_t ldc)
{
	gemm_gated(ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, m, n, k, a, lda,
		   b, ldb, c, ldc);
}
