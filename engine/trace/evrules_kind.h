/* evrules_kind: what the forward's rules (evrules.c) and the training
 * step's (evrules_train.c) share: the row a kind of phase is, and the
 * forward's checks the training step's rows are made of (its forward and
 * its backward's all-gather are the forward's ring).  Private to the two. */
#ifndef DM_EVRULES_KIND_H
#define DM_EVRULES_KIND_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include "trace/evrules.h"

#define EVR_OP(op) (1u << (op))

/* One row per enum sched_kind: the ops it allows, the shape of one of its
 * events, how a candidate follows one (ring: only in FSDP, where shards
 * move), and what the whole phase must hold. */
struct evr_kind {
	unsigned ops;
	int (*shape)(const struct evr_run *run, size_t i, const struct ev *e, struct dm_err *err);
	void (*follow)(struct evr *x, int b, size_t i, const struct ev *e);
	int ring;
	int (*end)(struct evr *x, int phase, struct dm_err *err);
};

/* The training step's row for a kind (evrules_train.c). */
const struct evr_kind *evr_train_kind(int kind);

/* Tensor parallel's (evrules_tp.c): the row of phase (forward or backward),
 * whether an event's columns are K's (A's distributed, dA's) rather than
 * N's, and whether its slot is its peer's (rank 0's sends of A, one a
 * rank) rather than its rank's. */
const struct evr_kind *evr_tp_kind(const struct evr_run *run, int phase);
int evr_tp_cols_are_k(const struct evr_run *run, const struct ev *e);
int evr_tp_by_peer(const struct evr_run *run, const struct ev *e);

/* Pieces of one event's shape: 0 or DM_EFORMAT with err "event i: ...". */
uint64_t evr_block_bytes(uint64_t rows, uint64_t cols);
int evr_bytes(size_t i, const struct ev *e, uint64_t want, struct dm_err *err);
int evr_rows(const struct evr_run *run, size_t i, const struct ev *e, int rank, const char *what,
	     struct dm_err *err);
int evr_peer(const struct evr_run *run, size_t i, const struct ev *e, struct dm_err *err);
int evr_shard(const struct evr_run *run, size_t i, const struct ev *e, struct dm_err *err);

/* The forward's rows' functions. */
int evr_shape_compute(const struct evr_run *run, size_t i, const struct ev *e,
		      struct dm_err *err);
int evr_shape_transfer(const struct evr_run *run, size_t i, const struct ev *e,
		       struct dm_err *err);
int evr_shape_gather(const struct evr_run *run, size_t i, const struct ev *e,
		     struct dm_err *err);
void evr_follow_compute(struct evr *x, int b, size_t i, const struct ev *e);
void evr_follow_transfer(struct evr *x, int b, size_t i, const struct ev *e);
void evr_follow_gather(struct evr *x, int b, size_t i, const struct ev *e);
int evr_end_compute(struct evr *x, int phase, struct dm_err *err);
int evr_end_transfer(struct evr *x, int phase, struct dm_err *err);

/* The candidates: b drops out (its first reason kept when primary), its
 * name in messages, and what it holds. */
void evr_drop(struct evr *x, int b, const char *fmt, ...) DM_PRINTF(3, 4);
const char *evr_cand_name(const struct evr *x, int bug, char *buf, size_t size);
void evr_set(struct evr_ring *g, int rank, int phase, int shard);

/* Whether rank's slot s was taken in phase. */
int evr_took(const struct evr_slot *s, int rank, int phase);

#endif
