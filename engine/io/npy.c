/* npy: the .npy reader (see matio.h).
 * The file is untrusted: every read is bounds-checked against len before it
 * happens, and the header's lengths and shape are believed only after they
 * are checked against the bytes actually present.  The header is parsed as
 * the small subset of Python literal syntax numpy writes (a dict of exactly
 * the keys 'descr', 'fortran_order' and 'shape'), never evaluated; anything
 * outside that subset is refused with a message rather than guessed at. */
#include <distmm/matio.h>

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "io/npy.h"
#include "io/slurp.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_SUPPORTED "(float64, float32, int64 or int32)"

/* The longest descr worth quoting in a message; longer ones are cut. */
#define NPY_DESCR_SHOW 32

enum npy_type { NPY_F8, NPY_F4, NPY_I8, NPY_I4 };

/* The header parser's cursor and what it has found so far. */
struct npy_hdr {
	const unsigned char *p, *end;
	int allow_long;      /* Python 2's "3L" ints, in format 1.0 and 2.0 headers */
	int seen_descr, seen_fortran, seen_shape;
	const unsigned char *descr; /* points into the header, not terminated */
	size_t descr_len;
	int structured;      /* descr was a list: a record dtype */
	int fortran;
	size_t ndim;
	uint64_t dims[2];    /* the first two dimensions, capped at INT_MAX + 1 */
	int dim_big;         /* some dimension is above INT_MAX */
	int dim_zero;        /* some dimension is 0 */
	char why[160];       /* what is malformed, when parsing fails */
};

static const char *npy_name(const char *name)
{
	return name ? name : "(npy data)";
}

static int npy_why(struct npy_hdr *h, const char *fmt, ...) DM_PRINTF(2, 3);

/* Records why the header is malformed; returns -1 so parse steps can
 * `return npy_why(...)`. */
static int npy_why(struct npy_hdr *h, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(h->why, sizeof h->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* Copies s[0, n) into dst for a message: non-printing bytes become '?' and
 * long text is cut, so a hostile header cannot put control codes on the
 * user's terminal. */
static void npy_show(char *dst, size_t cap, const unsigned char *s, size_t n)
{
	size_t i, o = 0;
	for (i = 0; i < n && o + 4 < cap; i++)
		dst[o++] = (s[i] >= 0x20 && s[i] < 0x7f) ? (char)s[i] : '?';
	if (i < n) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
}

static void npy_skip_ws(struct npy_hdr *h)
{
	while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' || *h->p == '\n' ||
				 *h->p == '\r' || *h->p == '\f'))
		h->p++;
}

static int npy_is_ident(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* The next character, or -1 at the end of the header. */
static int npy_peek(const struct npy_hdr *h)
{
	return h->p < h->end ? *h->p : -1;
}

/* A quoted string, either quote style.  Escapes are refused rather than
 * decoded: numpy never writes them and every accepted value is plain ASCII. */
static int npy_string(struct npy_hdr *h, const unsigned char **s, size_t *n)
{
	unsigned char q = *h->p++;
	const unsigned char *start = h->p;
	while (h->p < h->end && *h->p != q) {
		if (*h->p == '\\')
			return npy_why(h, "escapes in strings are not supported");
		if (*h->p == '\n' || *h->p == '\r' || *h->p == '\0')
			return npy_why(h, "unterminated string");
		h->p++;
	}
	if (h->p == h->end)
		return npy_why(h, "unterminated string");
	*s = start;
	*n = (size_t)(h->p - start);
	h->p++;
	return 0;
}

/* Matches the word w not followed by more identifier characters. */
static int npy_word(struct npy_hdr *h, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(h->end - h->p) < n || memcmp(h->p, w, n) != 0)
		return 0;
	if ((size_t)(h->end - h->p) > n && npy_is_ident(h->p[n]))
		return 0;
	h->p += n;
	return 1;
}

static int npy_value_descr(struct npy_hdr *h)
{
	int c = npy_peek(h);
	if (c == '[') {
		/* A record dtype: valid numpy, but never a matrix of numbers. */
		h->structured = 1;
		return 0;
	}
	if (c != '\'' && c != '"')
		return npy_why(h, "'descr' is not a string");
	return npy_string(h, &h->descr, &h->descr_len);
}

static int npy_value_fortran(struct npy_hdr *h)
{
	if (npy_word(h, "True"))
		h->fortran = 1;
	else if (npy_word(h, "False"))
		h->fortran = 0;
	else
		return npy_why(h, "'fortran_order' is not True or False");
	return 0;
}

/* One dimension: a non-negative Python int literal (no leading zeros, as in
 * Python 3), kept exactly up to INT_MAX and capped above it. */
static int npy_dim(struct npy_hdr *h)
{
	uint64_t v = 0;
	const unsigned char *start = h->p;
	int c = npy_peek(h);

	if (c == '-')
		return npy_why(h, "shape has a negative dimension");
	if (c < '0' || c > '9')
		return npy_why(h, "shape is not a tuple of integers");
	while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
		if (v <= (uint64_t)INT_MAX)
			v = v * 10 + (uint64_t)(*h->p - '0');
		h->p++;
	}
	if (*start == '0' && h->p - start > 1)
		return npy_why(h, "shape has an integer with leading zeros");
	if (h->allow_long && npy_peek(h) == 'L')
		h->p++;
	if (h->p < h->end && npy_is_ident(*h->p))
		return npy_why(h, "shape is not a tuple of integers");
	if (v > (uint64_t)INT_MAX) {
		v = (uint64_t)INT_MAX + 1;
		h->dim_big = 1;
	}
	if (v == 0)
		h->dim_zero = 1;
	if (h->ndim < 2)
		h->dims[h->ndim] = v;
	h->ndim++;
	return 0;
}

/* A tuple: "()", "(3,)", "(3, 2)", "(3,2,)".  "(3)" is just 3 in Python,
 * not a tuple, and numpy refuses it too. */
static int npy_value_shape(struct npy_hdr *h)
{
	int comma = 0;

	if (npy_peek(h) != '(')
		return npy_why(h, "'shape' is not a tuple");
	h->p++;
	npy_skip_ws(h);
	if (npy_peek(h) == ')') {
		h->p++;
		return 0;
	}
	for (;;) {
		if (npy_dim(h))
			return -1;
		npy_skip_ws(h);
		comma = 0;
		if (npy_peek(h) == ',') {
			comma = 1;
			h->p++;
			npy_skip_ws(h);
		}
		if (npy_peek(h) == ')') {
			h->p++;
			break;
		}
		if (!comma)
			return npy_why(h, "'shape' is not a tuple of integers");
	}
	if (h->ndim == 1 && !comma)
		return npy_why(h, "'shape' is not a tuple (a 1-tuple needs a comma)");
	return 0;
}

static int npy_entry(struct npy_hdr *h)
{
	const unsigned char *key = NULL;
	size_t klen = 0;
	int *seen;
	int (*value)(struct npy_hdr *);
	char shown[NPY_DESCR_SHOW + 4];

	if (npy_peek(h) != '\'' && npy_peek(h) != '"')
		return npy_why(h, "a key is not a string");
	if (npy_string(h, &key, &klen))
		return -1;
	if (klen == 5 && memcmp(key, "descr", 5) == 0) {
		seen = &h->seen_descr;
		value = npy_value_descr;
	} else if (klen == 13 && memcmp(key, "fortran_order", 13) == 0) {
		seen = &h->seen_fortran;
		value = npy_value_fortran;
	} else if (klen == 5 && memcmp(key, "shape", 5) == 0) {
		seen = &h->seen_shape;
		value = npy_value_shape;
	} else {
		npy_show(shown, sizeof shown, key, klen);
		return npy_why(h, "unexpected key '%s'", shown);
	}
	/* numpy lets the last of two equal keys win; a file like that was not
	 * written by numpy, so refuse it rather than pick one. */
	if (*seen) {
		npy_show(shown, sizeof shown, key, klen);
		return npy_why(h, "duplicate key '%s'", shown);
	}
	*seen = 1;
	npy_skip_ws(h);
	if (npy_peek(h) != ':')
		return npy_why(h, "expected ':' after a key");
	h->p++;
	npy_skip_ws(h);
	return value(h);
}

/* The whole header: optional whitespace, one dict, optional whitespace (the
 * padding numpy adds is spaces and a final newline). */
static int npy_header(struct npy_hdr *h)
{
	npy_skip_ws(h);
	if (npy_peek(h) != '{')
		return npy_why(h, "not a dictionary");
	h->p++;
	npy_skip_ws(h);
	while (npy_peek(h) != '}') {
		if (npy_entry(h))
			return -1;
		if (h->structured)
			return 0; /* refused by the caller; the rest does not matter */
		npy_skip_ws(h);
		if (npy_peek(h) == ',') {
			h->p++;
			npy_skip_ws(h);
		} else if (npy_peek(h) != '}') {
			return npy_why(h, "expected ',' or '}' after a value");
		}
	}
	h->p++;
	npy_skip_ws(h);
	if (h->p != h->end)
		return npy_why(h, "unexpected text after the dictionary");
	if (!h->seen_descr)
		return npy_why(h, "missing key 'descr'");
	if (!h->seen_fortran)
		return npy_why(h, "missing key 'fortran_order'");
	if (!h->seen_shape)
		return npy_why(h, "missing key 'shape'");
	return 0;
}

static int npy_host_is_le(void)
{
	uint16_t one = 1;
	unsigned char b;
	memcpy(&b, &one, 1);
	return b == 1;
}

/* Maps descr to a type.  Returns 0, 1 when the type is unknown, 2 when the
 * data is big-endian.  '|' and '=' (and no order character) mean native
 * order, which numpy accepts for these types. */
static int npy_descr_type(const unsigned char *d, size_t n, enum npy_type *t)
{
	unsigned char order = '=';
	if (n > 0 && (d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=')) {
		order = d[0];
		d++;
		n--;
	}
	if (n != 2)
		return 1;
	if (memcmp(d, "f8", 2) == 0)
		*t = NPY_F8;
	else if (memcmp(d, "f4", 2) == 0)
		*t = NPY_F4;
	else if (memcmp(d, "i8", 2) == 0)
		*t = NPY_I8;
	else if (memcmp(d, "i4", 2) == 0)
		*t = NPY_I4;
	else
		return 1;
	if (order == '>' || (order != '<' && !npy_host_is_le()))
		return 2;
	return 0;
}

static size_t npy_item_size(enum npy_type t)
{
	return (t == NPY_F8 || t == NPY_I8) ? 8 : 4;
}

/* Little-endian loads byte by byte: the data offset has any alignment. */
static uint64_t npy_le64(const unsigned char *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint32_t npy_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void npy_convert(double *dst, const unsigned char *src, size_t n, enum npy_type t)
{
	for (size_t i = 0; i < n; i++) {
		switch (t) {
		case NPY_F8: {
			uint64_t u = npy_le64(src + 8 * i);
			memcpy(&dst[i], &u, 8);
			break;
		}
		case NPY_F4: {
			uint32_t u = npy_le32(src + 4 * i);
			float f;
			memcpy(&f, &u, 4);
			dst[i] = (double)f;
			break;
		}
		case NPY_I8: {
			uint64_t u = npy_le64(src + 8 * i);
			int64_t v;
			memcpy(&v, &u, 8);
			dst[i] = (double)v;
			break;
		}
		case NPY_I4: {
			uint32_t u = npy_le32(src + 4 * i);
			int32_t v;
			memcpy(&v, &u, 4);
			dst[i] = (double)v;
			break;
		}
		}
	}
}

/* What a checked header says about the data that follows it. */
struct npy_info {
	enum npy_type type;
	size_t rows, cols, count; /* count = rows * cols values */
	size_t off, need;         /* where the data starts, and its bytes */
	int fortran;              /* column-major: what np.save(x.T) writes */
};

/* Checks the header image b[0..len) (the whole header, or all the file has
 * when it is shorter) of a file of file_len bytes, the data included, and
 * fills *info.  Every refusal of npy_parse but running out of memory. */
static int npy_parse_header(const unsigned char *b, size_t len, size_t file_len, const char *nm,
			    struct npy_info *info, struct dm_err *err)
{
	struct npy_hdr h;
	size_t lsize, hlen, off, need, count;
	enum npy_type type;
	char shown[NPY_DESCR_SHOW + 4];
	int rc;

	if (len == 0)
		return dm_err_set(err, DM_EFORMAT, "%s: empty file (not a .npy file)", nm);
	if (memcmp(b, NPY_MAGIC, len < NPY_MAGIC_LEN ? len : NPY_MAGIC_LEN) != 0)
		return dm_err_set(err, DM_EFORMAT, "%s: not a .npy file (bad magic)", nm);
	if (len < NPY_MAGIC_LEN + 2)
		return dm_err_set(err, DM_EFORMAT, "%s: header is truncated", nm);
	if ((b[6] != 1 && b[6] != 2 && b[6] != 3) || b[7] != 0)
		return dm_err_set(err, DM_EFORMAT,
				  "%s: unsupported .npy format version %u.%u (1.0, 2.0 or 3.0)",
				  nm, (unsigned)b[6], (unsigned)b[7]);
	lsize = b[6] == 1 ? 2 : 4;
	if (len < NPY_MAGIC_LEN + 2 + lsize)
		return dm_err_set(err, DM_EFORMAT, "%s: header is truncated", nm);
	hlen = lsize == 2 ? (size_t)b[8] | (size_t)b[9] << 8 : (size_t)npy_le32(b + 8);
	off = NPY_MAGIC_LEN + 2 + lsize;
	if (hlen > len - off)
		return dm_err_set(err, DM_EFORMAT, "%s: header is truncated", nm);

	memset(&h, 0, sizeof h);
	h.p = b + off;
	h.end = b + off + hlen;
	h.allow_long = b[6] < 3;
	off += hlen;
	if (npy_header(&h))
		return dm_err_set(err, DM_EFORMAT, "%s: malformed header: %s", nm, h.why);

	if (h.structured)
		return dm_err_set(err, DM_EFORMAT,
				  "%s: a structured dtype is not supported " NPY_SUPPORTED, nm);
	rc = npy_descr_type(h.descr, h.descr_len, &type);
	if (rc == 1) {
		npy_show(shown, sizeof shown, h.descr, h.descr_len);
		return dm_err_set(err, DM_EFORMAT, "%s: dtype '%s' is not supported " NPY_SUPPORTED,
				  nm, shown);
	}
	if (rc == 2)
		return dm_err_set(err, DM_EFORMAT, "%s: big-endian data is not supported", nm);
	if (h.ndim != 2)
		return dm_err_set(err, DM_EFORMAT, "%s: a %zu-d array: a matrix must be 2-d", nm,
				  h.ndim);
	if (h.dim_zero) {
		if (h.dim_big)
			return dm_err_set(err, DM_EFORMAT, "%s: empty matrix (a dimension is 0)", nm);
		return dm_err_set(err, DM_EFORMAT, "%s: empty matrix (%zux%zu)", nm,
				  (size_t)h.dims[0], (size_t)h.dims[1]);
	}
	if (h.dim_big)
		return dm_err_set(err, DM_EFORMAT, "%s: dimension too large (at most %d)", nm,
				  INT_MAX);

	/* Both sizes fit an int, but their product times 8 can still overflow a
	 * size_t on 32-bit hosts; such data cannot be in the file either way. */
	if (mat_size_mul((size_t)h.dims[0], (size_t)h.dims[1], &count) ||
	    mat_size_mul(count, npy_item_size(type), &need))
		return dm_err_set(err, DM_EFORMAT,
				  "%s: data is shorter than the header declares (%zu bytes for a "
				  "%zux%zu array)", nm, file_len - off, (size_t)h.dims[0],
				  (size_t)h.dims[1]);
	if (need > file_len - off)
		return dm_err_set(err, DM_EFORMAT,
				  "%s: data is shorter than the header declares (%zu of %zu bytes)",
				  nm, file_len - off, need);
	*info = (struct npy_info){ type, (size_t)h.dims[0], (size_t)h.dims[1], count, off, need,
				   h.fortran };
	return 0;
}

/* A matrix read in Fortran (column-major) order put in the engine's row
 * order, as numpy reads it: element (i, j) was at j * rows + i.  Returns 0,
 * or DM_ENOMEM (m freed) when the scratch copy cannot be had. */
static int npy_from_fortran(struct mat *m, const char *nm, struct dm_err *err)
{
	size_t rows = m->rows, cols = m->cols;
	if (rows == 1 || cols == 1)
		return 0; /* a vector is laid out the same both ways */
	double *col = xmalloc(rows * cols * sizeof *col);
	if (!col) {
		mat_free(m);
		return dm_err_set(err, DM_ENOMEM, "%s: out of memory for a %zux%zu matrix", nm, rows,
				  cols);
	}
	memcpy(col, m->data, rows * cols * sizeof *col);
	for (size_t j = 0; j < cols; j++)
		for (size_t i = 0; i < rows; i++)
			m->data[i * cols + j] = col[j * rows + i];
	free(col);
	return 0;
}

static int npy_alloc(struct mat *out, const struct npy_info *in, const char *nm,
		     struct dm_err *err)
{
	if (mat_alloc_uninit(out, in->rows, in->cols, NULL))
		return dm_err_set(err, DM_ENOMEM, "%s: out of memory for a %zux%zu matrix", nm,
				  in->rows, in->cols);
	return 0;
}

int npy_parse(struct mat *out, const void *buf, size_t len, const char *name, struct dm_err *err)
{
	const char *nm = npy_name(name);
	struct npy_info in;
	int rc;
	out->rows = 0;
	out->cols = 0;
	out->data = NULL;
	/* Bytes after the data are ignored: np.load does the same. */
	if ((rc = npy_parse_header(buf, len, len, nm, &in, err)) || (rc = npy_alloc(out, &in, nm, err)))
		return rc;
	npy_convert(out->data, (const unsigned char *)buf + in.off, in.count, in.type);
	return in.fortran ? npy_from_fortran(out, nm, err) : 0;
}

/* The prefix that says how long the header is: magic, version, length. */
#define NPY_PREFIX_MAX (NPY_MAGIC_LEN + 2 + 4)

int npy_read_fd(struct mat *out, int fd, const struct stat *st, const char *path,
		struct dm_err *err)
{
	unsigned char pre[NPY_PREFIX_MAX];
	size_t got, more = 0, file_len = st->st_size > 0 ? (size_t)st->st_size : 0;
	struct npy_info in;
	int rc;
	out->rows = 0;
	out->cols = 0;
	out->data = NULL;
	if ((rc = slurp_read_full(fd, pre, sizeof pre, &got, path, err)))
		return rc;
	/* the header's length, when the prefix is one; never more than the file */
	size_t want = got;
	if (got == sizeof pre && memcmp(pre, NPY_MAGIC, NPY_MAGIC_LEN) == 0 && pre[7] == 0 &&
	    (pre[6] == 1 || pre[6] == 2 || pre[6] == 3)) {
		size_t lsize = pre[6] == 1 ? 2 : 4;
		want = NPY_MAGIC_LEN + 2 + lsize +
		       (lsize == 2 ? (size_t)pre[8] | (size_t)pre[9] << 8 : (size_t)npy_le32(pre + 8));
	}
	if (file_len < got)
		file_len = got; /* it grew since fstat */
	if (want > file_len)
		want = file_len; /* the parser then says the header is truncated */
	if (want < got)
		want = got;
	unsigned char *hdr = xmalloc(want ? want : 1);
	if (!hdr)
		return dm_err_set(err, DM_ENOMEM, "cannot read %s: out of memory", path);
	memcpy(hdr, pre, got);
	if (want > got && (rc = slurp_read_full(fd, hdr + got, want - got, &more, path, err))) {
		free(hdr);
		return rc;
	}
	rc = npy_parse_header(hdr, got + more, file_len, path, &in, err);
	free(hdr);
	if (rc || (rc = npy_alloc(out, &in, path, err)))
		return rc;
	/* straight into place: float64 and int64 where they stay, the 4-byte
	 * types into the upper half, widened upwards from the start (value i's
	 * 8 bytes end before the 4 of value i + 1 begin) */
	unsigned char *dst = (unsigned char *)out->data + (in.need < in.count * 8 ? in.count * 4 : 0);
	if ((rc = slurp_read_full(fd, dst, in.need, &got, path, err)) || got < in.need) {
		if (!rc)
			rc = dm_err_set(err, DM_EFORMAT,
					"%s: data is shorter than the header declares (%zu of %zu bytes)",
					path, got, in.need);
		mat_free(out);
		return rc;
	}
	if (!(in.type == NPY_F8 && npy_host_is_le()))
		npy_convert(out->data, dst, in.count, in.type);
	return in.fortran ? npy_from_fortran(out, path, err) : 0;
}
