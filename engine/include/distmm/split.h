/* split: numpy.array_split's rule for cutting len items into n parts.
 * The first len % n parts get one item more; parts may be empty when n > len.
 * Pure functions, so the UI, the algorithms and the tests agree on one rule. */
#ifndef DM_SPLIT_H
#define DM_SPLIT_H

#include <stddef.h>

/* Size of part i (0 <= i < n, n > 0) of len items. */
size_t split_size(size_t len, int n, int i);

/* First item of part i; split_offset(len, n, n) == len. */
size_t split_offset(size_t len, int n, int i);

/* The largest part: ceil(len / n). */
size_t split_max(size_t len, int n);

/* The part that holds item j (j < len). */
int split_part_of(size_t len, int n, size_t j);

/* (a mod n) in [0, n) for any a, unlike C's %, which keeps the sign of a:
 * (0 - 1) % 4 == -1 in C, but shard (0 - 1) mod 4 is 3. */
int split_mod(long a, int n);

#endif
