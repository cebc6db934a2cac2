/* gemm: the local block product every device runs, through CBLAS dgemm.
 * One BLAS thread per device thread: the simulated devices already use the
 * cores, and OpenBLAS's own threads on top would oversubscribe them. */
#ifndef DM_GEMM_H
#define DM_GEMM_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>

/* C[m x n] += A[m x k] @ B[k x n], all row-major with leading dimensions
 * lda, ldb, ldc.  Empty products (m, n or k == 0) do nothing.  Dimensions must
 * fit in an int (the engine refuses larger sizes before it gets here). */
void gemm_acc(size_t m, size_t n, size_t k, const double *a, size_t lda,
	      const double *b, size_t ldb, double *c, size_t ldc);

/* The backward's products, the same way: C[m x n] += A[m x k] @ B[n x k]ᵀ
 * (nt: dA = dC @ Bᵀ) and C[m x n] += A[k x m]ᵀ @ B[k x n] (tn: dB = Aᵀ @ dC),
 * A and B as stored, row-major with their own leading dimensions. */
void gemm_acc_nt(size_t m, size_t n, size_t k, const double *a, size_t lda,
		 const double *b, size_t ldb, double *c, size_t ldc);
void gemm_acc_tn(size_t m, size_t n, size_t k, const double *a, size_t lda,
		 const double *b, size_t ldb, double *c, size_t ldc);

/* The same with either operand transposed as asked (ta, tb: 0 or 1): C[m x
 * n] += op(A)[m x k] @ op(B)[k x n], A and B as stored. */
void gemm_acc_op(int ta, int tb, size_t m, size_t n, size_t k, const double *a, size_t lda,
		 const double *b, size_t ldb, double *c, size_t ldc);

/* Sets OpenBLAS to one thread and ends its idle workers; called once before
 * any device thread starts (and before the generator's threads). */
void gemm_init(void);

#endif
