/* comm_impl: what a transport provides.  Private to engine/ and its tests. */
#ifndef DM_COMM_IMPL_H
#define DM_COMM_IMPL_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include "comm/comm.h"

struct comm_ops {
	const char *name;
	int (*send)(struct comm *c, struct comm_msg *msg, struct dm_err *err);
	int (*recv)(struct comm *c, int rank, int src, int step, int kind,
		    struct comm_msg *out, struct dm_err *err);
	void (*set_idle)(struct comm *c, int rank, int idle);
	void (*set_exited)(struct comm *c, int rank);
	void (*get_wait)(struct comm *c, int rank, struct comm_wait *out);
	size_t (*pending)(struct comm *c, int rank, struct comm_msg *first);
	void (*close)(struct comm *c);
	/* optional: the fixes' calls (see comm.h); NULL where a transport lacks them */
	int (*sendrecv)(struct comm *c, struct comm_msg *msg, int src, int step, int kind,
			struct comm_msg *out, struct dm_err *err);
	int (*bsend)(struct comm *c, struct comm_msg *msg, struct dm_err *err);
	void (*rx_arm)(struct comm *c, int rank);
	int (*rx_recv)(struct comm *c, int rank, int src, int step, int kind,
		       struct comm_msg *out, struct dm_err *err);
	int (*rx_join)(struct comm *c, int rank, int src, int step, int kind, struct dm_err *err);
	void (*get_rx_wait)(struct comm *c, int rank, struct comm_wait *out);
	void (*destroy)(struct comm *c);
};

/* Every transport's struct starts with this. */
struct comm {
	const struct comm_ops *ops;
	int n;
};

#endif
