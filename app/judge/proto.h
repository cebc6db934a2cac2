/* proto: what distmm-tui and the judge's harness say to each other (both
 * formats, the harness's and a run's, are written out at the top of
 * proto.c), and the runs' records turned into each case's verdict. */
#ifndef APP_JUDGE_PROTO_H
#define APP_JUDGE_PROTO_H

#include <stddef.h>

#include "judge/content.h"
#include "judge/judge.h"

struct proto_buf {
	char *data;
	size_t len, cap;
};

/* The harness's standard input: its modules, the job, every case with its
 * matrices.  Returns 0 or DM_ENOMEM. */
int proto_job(struct proto_buf *out, struct judge *j, struct dm_err *err);

void proto_buf_free(struct proto_buf *b);

enum proto_rec {
	PROTO_OTHER = 0, /* a record that changes nothing of the session's state */
	PROTO_BOOT,      /* a Python 3 runs the bootstrap */
	PROTO_HELLO,     /* the harness runs, with numpy */
	PROTO_NONUMPY,   /* this python has no numpy */
	PROTO_LOADED,    /* the file loaded (or j->load_error says why not) */
	PROTO_BEGIN,     /* a case started (*index) */
	PROTO_RUN,       /* a run's frame: its records follow (frame->len bytes) */
	PROTO_CASE,      /* a case ended (*index) */
	PROTO_DONE,      /* every case ended */
	PROTO_BAD,       /* not the protocol: err says what */
};

/* The largest run frame taken (jd_main.py's RUN_MAX_BYTES, and a read's
 * worth more). */
#define PROTO_FRAME_MAX ((256u << 20) + (1u << 20))

/* A run frame's header: whose run, under which seed, how its process ended,
 * and how many bytes of records follow. */
struct proto_frame {
	size_t index;
	int seed;
	char status[24];
	size_t len;
};

/* The case whose runs are coming: its matrices and product, made once. */
struct proto_session {
	size_t index;
	int ready;
	int runs;        /* the case's runs so far */
	struct mat a, b;
	struct content ct;
};

/* One line (without its newline; it may be changed) into j.  Returns the
 * kind of record; *index is the case's index for BEGIN, RUN and CASE;
 * frame is filled for RUN. */
int proto_record(struct judge *j, char *line, size_t len, size_t *index,
		 struct proto_frame *frame, struct dm_err *err);

/* A run's records (frame->len bytes at body): its verdict decided, and the
 * case's kept as the first run that fails (else the first run's pass).
 * Returns 0, or DM_ENOMEM (the session cannot go on). */
int proto_run(struct judge *j, struct proto_session *ps, const struct proto_frame *frame,
	      const char *body, struct dm_err *err);

/* The case's matrices go (at its end, or the session's). */
void proto_session_end(struct proto_session *ps);

void proto_case_free(struct judge_case *c);

#endif
