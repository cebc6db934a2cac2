/* content: what an array the candidate's code moved or returned is, by its
 * values.  The battery's inputs make every block unique (battery.c picks a
 * seed where they are), so a message, or a column of the result, names the
 * block it holds: a row chunk of A, a column shard of B, a block of C or a
 * product of a rank's rows with a shard, or nothing known.
 *
 * Matching is allclose-like with a tight tolerance, not equality: a product
 * the candidate made (another block shape, another BLAS path) may differ
 * from this one in the last bits, while two different blocks differ by far
 * more.  The product A @ B is this program's own (mat_matmul). */
#ifndef APP_JUDGE_CONTENT_H
#define APP_JUDGE_CONTENT_H

#include <stddef.h>
#include <stdint.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>

#include "judge/rec.h"

enum content_kind {
	CT_B = 0,   /* shard k of B (the most telling kinds first) */
	CT_C,       /* rank i's rows of C */
	CT_P,       /* rank i's product with shard k */
	CT_CPART,   /* rank i's rows of C with only some shards filled in */
	CT_B_ALL,
	CT_C_ALL,
	CT_BROWS,   /* B's rows k (B split along the wrong axis) */
	CT_A,       /* rank i's rows of A */
	CT_A_ALL,
	CT_EMPTY,
	CT_UNKNOWN, /* an array none of the above (dim: its shape) */
	CT_NONE,    /* no array at all */
};

#define CONTENT_PARTS 8

struct content_label {
	int kind;            /* enum content_kind */
	int i, k;            /* the rank, the shard (as the kind says) */
	int n_parts;         /* CT_CPART: the shards filled in (the first CONTENT_PARTS) */
	int parts[CONTENT_PARTS];
	int ndim;            /* the array's shape */
	uint64_t dim[2];
};

/* What each column of a rank's rows of the result holds. */
enum content_col_kind { CC_PRODUCT, CC_CUT, CC_ZERO, CC_UNKNOWN };
struct content_col {
	int kind;            /* CC_PRODUCT: column j of A @ B; CC_CUT: the same cut to whole numbers */
	size_t j;
};

struct content {
	const struct mat *a, *b;
	struct mat p;        /* A @ B (rows x 0 when too large to make: then C is not named) */
	int has_p;
	int n;
	size_t M, K, N;
};

/* A, B (kept by reference) and their product for a case of n devices.
 * Returns 0 or DM_ENOMEM. */
int content_init(struct content *ct, const struct mat *a, const struct mat *b, int n,
		 struct dm_err *err);
void content_free(struct content *ct);

/* The label of one array as the run sent it. */
void content_identify(const struct content *ct, const struct rec_arr *x, struct content_label *l);

/* The label of a message's payload: its most telling array, *owner the tag
 * that came with it (an (owner, shard) pair's owner, -1); *bytes the
 * payload's size, all arrays; *shape whether the best one has one. */
void content_payload(const struct content *ct, const struct rec_arr *arr, size_t n_arr,
		     struct content_label *l, int *owner, uint64_t *bytes);

/* Words for a label ("shard 2 (B[:, 4:6])", "rank 1's rows of C (C[3:6])"),
 * owner the tag it came with (-1), into buf. */
void content_words(const struct content *ct, const struct content_label *l, int owner, char *buf,
		   size_t size);

/* For each row p of R (any number of rows, N columns): the row of A @ B it
 * equals (its own first), or -1.  Returns 0 or DM_ENOMEM (map: rows). */
int content_row_map(const struct content *ct, const struct mat *R, long *map);

/* For rank r's rows of R (M x N, R's rows moved where they belong
 * already): what each column holds (out: N).  prefer_cut: an integer
 * result, whose zeros are more likely fractions cut off. */
void content_col_map(const struct content *ct, const struct mat *R, int r, int prefer_cut,
		     struct content_col *out);

/* "C[0:3, 2:4]" */
void content_block(char *buf, size_t size, size_t r0, size_t r1, size_t c0, size_t c1);

/* The shard that holds column j, and the range words for columns c0:c1 of
 * the split ("shard 2", "part of shard 2's columns", "shards 2 and 3",
 * "parts of shards 1 to 3"). */
int content_shard_of(const struct content *ct, size_t j);
void content_cols_words(const struct content *ct, size_t c0, size_t c1, char *buf, size_t size);

#endif
