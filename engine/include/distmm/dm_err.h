/* dm_err: how the engine reports failure.
 * Every engine call that can fail returns one of the negative dm_status codes
 * and, when given a struct dm_err, fills it with one human-readable line.  The
 * engine never prints, exits or aborts: the program decides what to do. */
#ifndef DM_ERR_H
#define DM_ERR_H

enum dm_status {
	DM_OK = 0,
	DM_EINVAL = -1,    /* bad argument, size or shape */
	DM_ENOMEM = -2,    /* allocation failed or would exceed the memory limit */
	DM_ETHREAD = -3,   /* a thread could not be created */
	DM_EIO = -4,       /* a file could not be opened, read or written */
	DM_EFORMAT = -5,   /* a file's contents are malformed or unsupported */
	DM_EDEADLOCK = -6, /* every live device is blocked in a communication call */
	DM_ETIMEOUT = -7,  /* a wait passed its deadline (a message was lost) */
	DM_ESTOPPED = -8,  /* the run was stopped before it finished */
	DM_EPROTO = -9,    /* a message arrived that the algorithm did not expect */
};

#define DM_ERR_MSG_MAX 256

struct dm_err {
	int code;
	char msg[DM_ERR_MSG_MAX];
};

#if defined(__GNUC__)
#define DM_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DM_PRINTF(a, b)
#endif

/* Fills err (if not NULL) with code and the formatted message; returns code so
 * that callers can write `return dm_err_set(err, DM_EINVAL, ...)`. */
int dm_err_set(struct dm_err *err, int code, const char *fmt, ...) DM_PRINTF(3, 4);

/* Resets err to DM_OK with an empty message. */
void dm_err_clear(struct dm_err *err);

/* A short name for a status code ("invalid argument", ...). */
const char *dm_status_name(int code);

#endif
