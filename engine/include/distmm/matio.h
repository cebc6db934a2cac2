/* matio: matrix files, .npy and .csv, in and out.
 * The parsers take untrusted bytes (they are fuzzed): they never read past
 * the length they are given, never trust a length or a shape from the file
 * before checking it against what is there, and check every size product for
 * overflow.  A matrix they return is 2-d with both sizes in [1, INT_MAX]. */
#ifndef DM_MATIO_H
#define DM_MATIO_H

#include <stddef.h>
#include "dm_err.h"
#include "mat.h"

/* Parses a .npy image held in memory (format 1.0, 2.0 and 3.0 headers).  Accepts 2-d, little-endian
 * (or byte order '|'/'=' where meaningful on this little-endian machine) float64 '<f8', float32 '<f4', int64 '<i8', int32 '<i4',
 * in C order or in Fortran order (np.save(x.T) writes it; read into row order, as numpy reads it);
 * converts to double.  Returns 0, DM_EFORMAT (message says what is wrong: "not a .npy file (bad magic)",
 * "big-endian data is not supported", "dtype '<c16' is not supported
 * (float64, float32, int64 or int32)", "a 3-d array: a matrix must be 2-d", "data is shorter than the header declares
 * (N of M bytes)", "header is truncated", "malformed header: ..."), or DM_ENOMEM. `name` is used in messages (file name).
 * A shape with a zero is DM_EFORMAT "empty matrix (0x3)"; a dimension above INT_MAX is DM_EFORMAT "dimension too large".
 * Bytes after the data are ignored, as numpy does; int64 values beyond 2^53 are rounded to the nearest double.
 * On failure *out is left as an empty 0 x 0 matrix. */
int npy_parse(struct mat *out, const void *buf, size_t len, const char *name, struct dm_err *err);

/* Parses CSV text: comma-separated numbers, one row a line; optional trailing newline, \r\n accepted,
 * spaces/tabs around fields allowed, blank lines at the end ignored. Every row must have the same number of
 * fields (else DM_EFORMAT "ragged rows: line 3 has 2 fields, line 1 has 3"); a field that is not a finite-or-not number parseable
 * entirely by strtod is DM_EFORMAT naming line and field ("line 2, field 3: 'abc' is not a number"); empty fields are errors;
 * an empty file is DM_EFORMAT "no data". Accepts nan/inf as strtod does. No header row support (a header is just an error on line 1).
 * Out-of-range values follow strtod too: "1e400" reads as inf and "1e-400" as 0 (or a subnormal), without error.
 * Numbers are read in the "C" locale whatever the program's locale is.  A NUL byte anywhere is DM_EFORMAT; a blank
 * line followed by more data is DM_EFORMAT; a leading UTF-8 byte order mark is skipped.  Rows are counted before any
 * number is parsed, so a ragged row is reported before a bad number on an earlier line.  Returns 0, DM_EFORMAT or
 * DM_ENOMEM; on failure *out is left as an empty 0 x 0 matrix. */
int csv_parse(struct mat *out, const char *text, size_t len, const char *name, struct dm_err *err);

/* Reads a matrix file (refusing directories, missing or unreadable files with DM_EIO and strerror text, e.g.
 * "cannot read a.npy: No such file or directory", "cannot read dir: is a directory") and parses it by extension:
 * ".npy" -> npy_parse, ".csv" -> csv_parse (case-insensitive); any other extension -> DM_EFORMAT
 * A regular .npy file is read in two reads, its header and then its data straight into the matrix (no copy of the
 * file), with npy_parse's checks and messages for the same bytes; CSV and anything not a regular file are read whole.
 * "x.txt: unknown file type (use .npy or .csv)".  Files larger than max_bytes (0 = no limit) are refused with DM_ENOMEM before reading.
 * The extension is checked before the file is opened.  Returns 0, DM_EIO, DM_EFORMAT or DM_ENOMEM; on failure *out is
 * left as an empty 0 x 0 matrix. */
int matio_read(const char *path, struct mat *out, size_t max_bytes, struct dm_err *err);

/* Writes m as float64 .npy (format 1.0; header padded so data starts at a multiple of 64 bytes, as numpy does;
 * '<f8', fortran_order False, shape (r, c), ending with '\n') or as CSV with "%.17g" (round-trip exact) by extension;
 * all-or-nothing through outfile.h. Unknown extension: DM_EINVAL "c.txt: unknown file type (use .npy or .csv)". Returns 0 or DM_EIO/DM_EINVAL.
 * The .npy bytes are the ones numpy 1.24's np.save writes for the same array.  An empty matrix (a zero size) is refused
 * with DM_EINVAL, since neither reader accepts one back.  DM_ENOMEM is possible when memory runs out. */
int matio_write(const char *path, const struct mat *m, struct dm_err *err);

/* The type a path names by extension: MATIO_NPY, MATIO_CSV or MATIO_UNKNOWN. */
enum matio_kind { MATIO_UNKNOWN = 0, MATIO_NPY, MATIO_CSV };
enum matio_kind matio_kind_of(const char *path);

#endif
