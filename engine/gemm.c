/* gemm: CBLAS dgemm behind one function (see gemm.h). */
/* OpenBLAS's cblas.h declares affinity calls with cpu_set_t, a GNU type. */
#define _GNU_SOURCE
#include "gemm.h"

#include <cblas.h>
#include <pthread.h>
#include <unistd.h>

/* At most this many products run at once: the simulated devices share the
 * machine's cores anyway, and OpenBLAS keeps a fixed table of per-thread
 * buffers (64 in Debian's build) that hundreds of concurrent callers overflow
 * (it then warns on stderr).  A counting gate, not a spin. */
#define GEMM_MAX_CONCURRENT 32

static pthread_mutex_t gemm_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gemm_cv = PTHREAD_COND_INITIALIZER;
static int gemm_slots = 1; /* set by gemm_init */


void gemm_acc(size_t m, size_t n, size_t k, const double *a, size_t lda,
	      const double *b, size_t ldb, double *c, size_t ldc)
{
	if (m == 0 || n == 0 || k == 0)
		return;
	gemm_init();
	pthread_mutex_lock(&gemm_mu);
	while (gemm_slots == 0)
		pthread_cond_wait(&gemm_cv, &gemm_mu);
	gemm_slots--;
	pthread_mutex_unlock(&gemm_mu);
	cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0, a,
		    (int)lda, b, (int)ldb, 1.0, c, (int)ldc);
	pthread_mutex_lock(&gemm_mu);
	gemm_slots++;
	pthread_cond_signal(&gemm_cv);
	pthread_mutex_unlock(&gemm_mu);
}

static pthread_once_t gemm_once = PTHREAD_ONCE_INIT;

static void gemm_init_once(void)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	openblas_set_num_threads(1);
	pthread_mutex_lock(&gemm_mu);
	gemm_slots = cpus < 1 ? 1 : cpus > GEMM_MAX_CONCURRENT ? GEMM_MAX_CONCURRENT : (int)cpus;
	pthread_mutex_unlock(&gemm_mu);
}

void gemm_init(void)
{
	pthread_once(&gemm_once, gemm_init_once);
}
