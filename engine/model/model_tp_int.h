/* model_tp_int: what tensor parallel's models share (model_tp.c, and
 * the training step's model_tp_train.c).  Private to engine/. */
#ifndef DM_MODEL_TP_INT_H
#define DM_MODEL_TP_INT_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>
#include <stdint.h>

#include <distmm/ccl.h>

/* A ring over an M x N buffer's row chunks (tp.c's), rank r of n: the most
 * it holds beside the buffer in a step (the rows sent and received), and
 * what it receives, over the collective kind. */
void model_tp_ring(enum ccl_kind kind, int n, int r, size_t M, size_t N, uint64_t *most,
		   uint64_t *recv);

#endif
