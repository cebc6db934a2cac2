/* split: numpy.array_split arithmetic (see split.h). */
#include <distmm/split.h>

size_t split_size(size_t len, int n, int i)
{
	size_t q = len / (size_t)n, r = len % (size_t)n;
	return q + ((size_t)i < r ? 1 : 0);
}

size_t split_offset(size_t len, int n, int i)
{
	size_t q = len / (size_t)n, r = len % (size_t)n, k = (size_t)i;
	return k * q + (k < r ? k : r);
}

size_t split_max(size_t len, int n)
{
	return split_size(len, n, 0);
}

int split_part_of(size_t len, int n, size_t j)
{
	size_t q = len / (size_t)n, r = len % (size_t)n;
	size_t big = r * (q + 1); /* items in the larger parts */
	if (j < big)
		return (int)(j / (q + 1));
	return (int)(r + (j - big) / q);
}

int split_mod(long a, int n)
{
	long m = a % n;
	return (int)(m < 0 ? m + n : m);
}
