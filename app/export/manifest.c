/* manifest: the stills an SVG export wrote (see manifest.h).  Reading is
 * strict: anything that is not exactly the format written is no manifest,
 * and no manifest removes nothing. */
#include "manifest.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MANIFEST_HEAD "<!-- distmm-tui stills\n"
#define MANIFEST_MAX_FILE (64L << 20) /* a final still larger than this is not read */
#define MANIFEST_MAX_STILLS 100000

static const char manifest_safe[] =
	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+,@=";

static uint64_t manifest_fnv(uint64_t h, const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* Opens path for reading if it is a regular file, not through a link. */
static int manifest_open(const char *path, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) || !S_ISREG(st->st_mode)) {
		close(fd);
		return -1;
	}
	return fd;
}

int manifest_sum(const char *path, long long *size, uint64_t *hash)
{
	struct stat st;
	unsigned char buf[65536];
	uint64_t h = 0xcbf29ce484222325ull;
	long long total = 0;
	ssize_t got;
	int fd = manifest_open(path, &st);
	if (fd < 0)
		return -1;
	while ((got = read(fd, buf, sizeof buf)) > 0) {
		h = manifest_fnv(h, buf, (size_t)got);
		total += got;
	}
	close(fd);
	if (got < 0)
		return -1;
	*size = total;
	*hash = h;
	return 0;
}

/* base as the manifest writes it, into out (3 bytes a byte, and a NUL). */
static void manifest_encode(const char *base, char *out)
{
	static const char hex[] = "0123456789abcdef";
	for (const unsigned char *p = (const unsigned char *)base; *p; p++) {
		if (strchr(manifest_safe, *p)) {
			*out++ = (char)*p;
		} else {
			*out++ = '%';
			*out++ = hex[*p >> 4];
			*out++ = hex[*p & 15];
		}
	}
	*out = '\0';
}

void manifest_write(FILE *fp, const char *base, const struct manifest_entry *e, int n)
{
	char *enc = malloc(3 * strlen(base) + 1);
	fputs(MANIFEST_HEAD, fp);
	if (enc) {
		manifest_encode(base, enc);
		fprintf(fp, "base %s\n", enc);
		free(enc);
	} else {
		fputs("base %\n", fp); /* matches no base: the next export removes nothing */
	}
	for (int i = 0; i < n; i++)
		fprintf(fp, "%03d %lld %016llx\n", e[i].index, e[i].size,
			(unsigned long long)e[i].hash);
	fputs("-->\n", fp);
}

/* The whole of a regular file up to MANIFEST_MAX_FILE, NUL-terminated. */
static char *manifest_slurp(const char *path)
{
	struct stat st;
	int fd = manifest_open(path, &st);
	if (fd < 0)
		return NULL;
	if (st.st_size > MANIFEST_MAX_FILE) {
		close(fd);
		return NULL;
	}
	char *buf = malloc((size_t)st.st_size + 1);
	size_t len = 0;
	ssize_t got = 0;
	while (buf && len < (size_t)st.st_size &&
	       (got = read(fd, buf + len, (size_t)st.st_size - len)) > 0)
		len += (size_t)got;
	close(fd);
	if (buf)
		buf[len] = '\0';
	return buf;
}

int manifest_read(const char *path, const char *base, struct manifest_entry **e, int *n)
{
	*e = NULL;
	*n = 0;
	char *text = manifest_slurp(path), *enc = malloc(3 * strlen(base) + 1);
	char *p = text ? strstr(text, MANIFEST_HEAD) : NULL, *line;
	int rc = enc ? 0 : -1, cap = 0;
	if (!p || !enc)
		goto out;
	manifest_encode(base, enc);
	p += strlen(MANIFEST_HEAD);
	line = p;
	if (strncmp(line, "base ", 5) || strncmp(line + 5, enc, strlen(enc)) ||
	    line[5 + strlen(enc)] != '\n')
		goto out; /* another name's stills, or none */
	p = line + 5 + strlen(enc) + 1;
	while (strncmp(p, "-->", 3) != 0) {
		struct manifest_entry x;
		unsigned long long h;
		char *eol = strchr(p, '\n');
		int used = -1;
		if (eol)
			*eol = '\0'; /* one line at a time, the whole line or nothing */
		if (!eol || sscanf(p, "%d %lld %16llx%n", &x.index, &x.size, &h, &used) != 3 ||
		    used != (int)(eol - p) || x.index < 0 || x.index >= MANIFEST_MAX_STILLS ||
		    x.size < 0) {
			free(*e); /* not the format written: no manifest */
			*e = NULL;
			*n = 0;
			goto out;
		}
		x.hash = (uint64_t)h;
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			struct manifest_entry *grown = realloc(*e, (size_t)cap * sizeof **e);
			if (!grown) {
				free(*e);
				*e = NULL;
				*n = 0;
				rc = -1;
				goto out;
			}
			*e = grown;
		}
		(*e)[(*n)++] = x;
		p = eol + 1;
	}
out:
	free(text);
	free(enc);
	return rc;
}
