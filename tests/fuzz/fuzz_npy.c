/* fuzz_npy: libFuzzer target for npy_parse (engine/npy.c).
 * The input is the whole .npy image.  libFuzzer hands over a heap copy of
 * exactly `size` bytes, so AddressSanitizer catches any read past the end.
 * Checks the contract in matio.h: on success a 2-d matrix with both sizes in
 * [1, INT_MAX] whose data (rows * cols values, all of them readable) was in
 * the file; on failure DM_EFORMAT or DM_ENOMEM, the same code in err, a
 * non-empty terminated message, and *out left as an empty 0 x 0 matrix. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <distmm/dm_err.h>
#include <distmm/mat.h>
#include <distmm/matio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* assert() would vanish under -DNDEBUG; this never does. */
#define CHECK(cond)                                                              \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "fuzz_npy: check failed: %s (%s:%d)\n", \
				#cond, __FILE__, __LINE__);                      \
			abort();                                                 \
		}                                                                \
	} while (0)

/* Reads every value so that ASan sees a short allocation; the sum keeps
 * the loads from being optimised away. */
static volatile double sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mat m;
	struct dm_err err;
	int rc;

	/* Garbage in both, so that a field the parser forgot to set shows. */
	memset(&m, 0xa5, sizeof m);
	memset(&err, 'X', sizeof err);
	err.code = 12345;

	rc = npy_parse(&m, data, size, "fuzz.npy", &err);
	if (rc == 0) {
		size_t n;
		double s = 0;
		CHECK(m.rows >= 1 && m.rows <= (size_t)INT_MAX);
		CHECK(m.cols >= 1 && m.cols <= (size_t)INT_MAX);
		CHECK(mat_size_mul(m.rows, m.cols, &n) == 0);
		CHECK(n > 0);
		CHECK(m.data != NULL);
		/* Every value came from the file, at 4 or 8 bytes each. */
		CHECK(n <= size / 4);
		for (size_t i = 0; i < n; i++)
			s += m.data[i];
		sink = s;
		mat_free(&m);
		CHECK(m.data == NULL && m.rows == 0 && m.cols == 0);
	} else {
		CHECK(rc < 0);
		CHECK(rc == DM_EFORMAT || rc == DM_ENOMEM);
		CHECK(err.code == rc);
		CHECK(memchr(err.msg, '\0', sizeof err.msg) != NULL);
		CHECK(err.msg[0] != '\0');
		CHECK(m.rows == 0 && m.cols == 0 && m.data == NULL);
	}
	return 0;
}
