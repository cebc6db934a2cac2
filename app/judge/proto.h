/* proto: what distmm-tui and the judge's harness say to each other (the
 * format is written out at the top of proto.c and of jd_main.py). */
#ifndef APP_JUDGE_PROTO_H
#define APP_JUDGE_PROTO_H

#include <stddef.h>

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
	PROTO_CASE,      /* a case ended (*index) */
	PROTO_DONE,      /* every case ended */
	PROTO_BAD,       /* not the protocol: err says what */
};

/* One line (without its newline; it may be changed) into j.  Returns the
 * kind of record; *index is the case's index for BEGIN and CASE. */
int proto_record(struct judge *j, char *line, size_t len, size_t *index, struct dm_err *err);

/* After the session: each case's events parsed into its trace. */
void proto_parse_traces(struct judge *j);

void proto_case_free(struct judge_case *c);

#endif
