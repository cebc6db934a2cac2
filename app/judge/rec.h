/* rec: one run's records (the facts jd_run.py writes; their format is at
 * the top of proto.c), parsed strictly into a struct rec_run.  Nothing in
 * them is taken as a verdict: they say what the candidate's threads did,
 * and the arrays they moved and returned, as raw values.  A record that is
 * malformed, unknown or out of its place fails the whole run's parse (the
 * case's verdict is then a judge error, its words escaped).
 *
 * The parse also says, in the order things happened, whom each message was
 * from and for (rec_msg.src, .dst, .rank): the Communicator call's
 * arguments when there was one, else the inbox's index, else the rank the
 * thread acts for, as jd_queue.py sees them. */
#ifndef APP_JUDGE_REC_H
#define APP_JUDGE_REC_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>

/* A thread's state (jd_world.py's numbers). */
enum rec_state {
	REC_NEW = 0,   /* started, never had its turn */
	REC_READY,     /* could go on, waited for its turn */
	REC_RUNNING,   /* had the turn */
	REC_RECV,      /* in a queue's get */
	REC_SEND,      /* in a queue's put (a bounded or rendezvous queue) */
	REC_JOIN,      /* in a thread's join */
	REC_LOCK,      /* acquiring a held lock */
	REC_COND,      /* in a condition's wait (an Event, a Barrier, a Semaphore) */
	REC_SLEEP,     /* in a sleep */
	REC_DONE,
	REC_STATES
};

/* How the run ended (its end record). */
enum rec_outcome {
	REC_RETURNED = 0,
	REC_RAISED,      /* the function raised */
	REC_DEADLOCK,    /* no thread could go on */
	REC_TIMEOUT,     /* the time limit */
	REC_LOAD_FAILED, /* loading the module raised */
	REC_OUTCOMES
};

#define REC_DTYPE_MAX 16

struct rec_arr {
	int tag;                 /* the int before it in its tuple, -1 */
	int ndim;
	uint64_t dim[4];         /* the first four */
	char dtype[REC_DTYPE_MAX]; /* numpy's dtype.str ("<f8", "<i8", "|O") */
	int has_data;            /* 2-D numbers: m holds them as doubles */
	struct mat m;
};

/* Where the candidate's code was: its innermost frame in the solution
 * file; line 0 when none was. */
struct rec_where {
	long line;
	char *file, *func, *src;
};

struct rec_thread {
	int tid, parent, hint, caller;
	char *name;
	int rank;                /* the rank it acts for, as last seen; -1 */
};

struct rec_msg {
	int stid;                /* the thread that put it */
	long t_send, t_sent;     /* clock at its put, at its end (-1: never ended) */
	int sent;                /* 1 the put ended, 0 not, -1 withdrawn (a timeout) */
	int ctx_src, ctx_dst, first; /* send(src, dst, ...)'s, the int an item tuple starts with */
	int qid, qidx, cap;      /* the queue, its inbox index, its capacity (-1 unbounded) */
	uint32_t crc_send;
	struct rec_arr *arr;
	size_t n_arr;
	int received, rtid;
	long t_recv0, t_recv1;
	int rctx, rqidx;         /* recv(dst)'s dst; the queue's index when taken */
	uint32_t crc_recv;
	struct rec_arr *rarr;    /* when it changed between its send and its receive */
	size_t n_rarr;
	int changed_end;         /* it changed after its receive */
	struct rec_arr *earr;
	size_t n_earr;
	int src, dst, rank;      /* resolved; -1 unknown (rank: who received it) */
};

struct rec_exc {
	int tid, load;
	char *type, *msg;
	struct rec_where at;
};

struct rec_wait {
	int tid, state;
	long mid;                /* the message it sends (REC_SEND), -1 */
	int target, qid, cap;    /* the thread it joins; the queue it reads; its capacity */
	struct rec_where at;
};

enum rec_ret { REC_RET_NONE = 0, REC_RET_ARRAY, REC_RET_SEQ, REC_RET_OTHER };

struct rec_run {
	int seed;
	int ended, outcome;
	long clock;
	struct rec_thread *th;
	size_t n_th;
	struct rec_msg *msg;
	size_t n_msg;
	struct rec_exc *exc;
	size_t n_exc;
	struct rec_wait *wait;
	size_t n_wait;
	int *live_tid, *live_state; /* threads not done when the function returned */
	size_t n_live;
	struct rec_arr *held;       /* an array a thread kept as a local: all of B? */
	int *held_tid;
	size_t n_held;
	int has_ret, ret_kind, ret_allarr;
	long ret_items;
	char *ret_type;
	struct rec_arr ret;         /* the array returned (or the one it converts to) */
	struct rec_arr *items;      /* a returned list's items, the first n_items of them */
	size_t n_items;
	int has_ret_arr;
	int has_inp[2];
	struct rec_arr inp[2];      /* A and B as the function left them */
	char *out;                  /* what it printed */
	size_t out_len;
	int out_cut;
};

/* Parses len bytes of one run's records for a case of n devices.  Returns
 * 0; DM_EFORMAT with err's one line (what record, why), or DM_ENOMEM.  r
 * holds what was read either way (rec_free it). */
int rec_parse(struct rec_run *r, const char *data, size_t len, int n, struct dm_err *err);

void rec_free(struct rec_run *r);

/* The thread tid's rank for words: its resolved rank, else its hint; -1. */
int rec_rank(const struct rec_run *r, int tid);

#endif
