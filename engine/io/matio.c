/* io/: matrix files (.npy in npy.c, .csv in csv.c, dispatched by matio.c), reading a whole file
 * (slurp.c) and all-or-nothing writes (outfile.c, <distmm/outfile.h>); nothing here knows about devices.
 *
 * matio: reading and writing matrix files by extension (see matio.h).
 * Reading hands the bytes to npy.c or csv.c, which own the formats' parsing
 * (a .npy file's data is read straight into the matrix, a CSV file whole); writing is here, through outfile so a failed write
 * never leaves a partial file.  The .npy writer reproduces np.save's bytes
 * exactly (numpy 1.24), so files written here and by numpy compare equal. */
#include <distmm/matio.h>

#include <errno.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/stat.h>
#include <unistd.h>

#include <distmm/outfile.h>
#include "io/npy.h"
#include "io/slurp.h"
#include "core/xalloc.h"

/* np.save's layout: the header is padded with spaces and a final '\n' so the
 * data starts on a multiple of NPY_ALIGN, after room for the first
 * dimension to grow to NPY_GROWTH_DIGITS digits in place. */
#define NPY_ALIGN 64
#define NPY_GROWTH_DIGITS 21
#define NPY_PREFIX 10 /* magic, version, 2-byte header length */

static char matio_lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c;
}

/* Compares an extension to a lower-case one without the locale's help. */
static int matio_ext_is(const char *ext, const char *want)
{
	for (; *ext && *want; ext++, want++)
		if (matio_lower(*ext) != *want)
			return 0;
	return *ext == '\0' && *want == '\0';
}

enum matio_kind matio_kind_of(const char *path)
{
	const char *base, *dot;
	if (!path)
		return MATIO_UNKNOWN;
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot)
		return MATIO_UNKNOWN;
	if (matio_ext_is(dot + 1, "npy"))
		return MATIO_NPY;
	if (matio_ext_is(dot + 1, "csv"))
		return MATIO_CSV;
	return MATIO_UNKNOWN;
}

int matio_read(const char *path, struct mat *out, size_t max_bytes, struct dm_err *err)
{
	enum matio_kind kind = matio_kind_of(path);
	char *buf = NULL;
	size_t len = 0;
	int rc;

	out->rows = 0;
	out->cols = 0;
	out->data = NULL;
	/* The extension first: no point opening a file we cannot parse. */
	if (kind == MATIO_UNKNOWN)
		return dm_err_set(err, DM_EFORMAT, "%s: unknown file type (use .npy or .csv)",
				  path ? path : "(null)");
	if (kind == MATIO_CSV) {
		if ((rc = slurp_file(path, max_bytes, &buf, &len, err)))
			return rc;
		rc = csv_parse(out, buf, len, path, err);
		free(buf);
		return rc;
	}
	/* .npy: a regular file's data is read straight into the matrix; a pipe
	 * or a device is read whole first, as its size is not known */
	int fd;
	struct stat st;
	if ((rc = slurp_open(path, max_bytes, &fd, &st, err)))
		return rc;
	if (S_ISREG(st.st_mode)) {
		rc = npy_read_fd(out, fd, &st, path, err);
	} else if (!(rc = slurp_fd(fd, &st, path, max_bytes, &buf, &len, err))) {
		rc = npy_parse(out, buf, len, path, err);
		free(buf);
	}
	close(fd);
	return rc;
}

static void matio_put_le64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = (unsigned char)(v & 0xff);
}

/* The header np.save writes for a C-order float64 rows x cols array, into
 * hdr (at least 256 bytes); returns its length, a multiple of NPY_ALIGN. */
static size_t matio_npy_header(unsigned char *hdr, size_t rows, size_t cols)
{
	char dict[160], dim0[32];
	int n = snprintf(dict, sizeof dict,
			 "{'descr': '<f8', 'fortran_order': False, 'shape': (%zu, %zu), }", rows,
			 cols);
	int d0 = snprintf(dim0, sizeof dim0, "%zu", rows);
	size_t dlen = (size_t)n, hlen, pad, total;

	/* numpy's spare room for growing the first axis in place. */
	if (d0 < NPY_GROWTH_DIGITS) {
		memset(dict + dlen, ' ', (size_t)(NPY_GROWTH_DIGITS - d0));
		dlen += (size_t)(NPY_GROWTH_DIGITS - d0);
	}
	/* numpy's rule, including a whole extra NPY_ALIGN of spaces when the
	 * header would otherwise end exactly on the boundary. */
	hlen = dlen + 1;
	pad = NPY_ALIGN - (NPY_PREFIX + hlen) % NPY_ALIGN;
	total = NPY_PREFIX + hlen + pad;

	memcpy(hdr, "\x93NUMPY\x01\x00", 8);
	hdr[8] = (unsigned char)((hlen + pad) & 0xff);
	hdr[9] = (unsigned char)((hlen + pad) >> 8);
	memcpy(hdr + NPY_PREFIX, dict, dlen);
	memset(hdr + NPY_PREFIX + dlen, ' ', pad);
	hdr[total - 1] = '\n';
	return total;
}

static int matio_write_npy(FILE *fp, const struct mat *m)
{
	unsigned char hdr[256], chunk[4096];
	size_t n = m->rows * m->cols, fill = 0;
	size_t hl = matio_npy_header(hdr, m->rows, m->cols);

	if (fwrite(hdr, 1, hl, fp) != hl)
		return DM_EIO;
	for (size_t i = 0; i < n; i++) {
		uint64_t u;
		memcpy(&u, &m->data[i], 8);
		matio_put_le64(chunk + fill, u);
		fill += 8;
		if (fill == sizeof chunk || i + 1 == n) {
			if (fwrite(chunk, 1, fill, fp) != fill)
				return DM_EIO;
			fill = 0;
		}
	}
	return 0;
}

/* "%.17g" in the "C" locale: 17 significant digits bring every double back
 * exactly through strtod, and a program's setlocale() must not turn the
 * decimal point into the field separator. */
static int matio_write_csv(FILE *fp, const struct mat *m)
{
	locale_t c_loc = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old;
	int bad = 0;

	if (c_loc == (locale_t)0)
		return DM_ENOMEM;
	old = uselocale(c_loc);
	for (size_t i = 0; i < m->rows && !bad; i++) {
		for (size_t j = 0; j < m->cols && !bad; j++)
			bad = fprintf(fp, j ? ",%.17g" : "%.17g", MAT_AT(m, i, j)) < 0;
		if (!bad)
			bad = putc('\n', fp) == EOF;
	}
	uselocale(old);
	freelocale(c_loc);
	return bad ? DM_EIO : 0;
}

int matio_write(const char *path, const struct mat *m, struct dm_err *err)
{
	enum matio_kind kind = matio_kind_of(path);
	struct outfile of;
	int rc;

	if (kind == MATIO_UNKNOWN)
		return dm_err_set(err, DM_EINVAL, "%s: unknown file type (use .npy or .csv)",
				  path ? path : "(null)");
	/* Neither reader accepts an empty matrix back, so do not make one. */
	if (m->rows == 0 || m->cols == 0)
		return dm_err_set(err, DM_EINVAL, "%s: refusing to write an empty matrix (%zux%zu)",
				  path, m->rows, m->cols);
	if (!m->data)
		return dm_err_set(err, DM_EINVAL, "%s: the %zux%zu matrix has no data", path,
				  m->rows, m->cols);
	rc = outfile_open(&of, path, err);
	if (rc)
		return rc;
	errno = 0;
	rc = kind == MATIO_NPY ? matio_write_npy(of.fp, m) : matio_write_csv(of.fp, m);
	if (rc) {
		int e = errno;
		outfile_abort(&of);
		if (rc == DM_ENOMEM)
			return dm_err_set(err, DM_ENOMEM, "cannot write %s: out of memory", path);
		return dm_err_set(err, DM_EIO, "cannot write %s: %s", path,
				  e ? strerror(e) : "write error");
	}
	return outfile_commit(&of, err);
}
