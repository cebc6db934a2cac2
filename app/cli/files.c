/* files: inputs and outputs held apart (see files.h).  A file that exists
 * is known by its device and inode, so a hard or symbolic link to an input
 * is the input; one still to be made by its folder's real path and its
 * name, so that x.csv and ./sub/../x.csv are one file too.  The check is
 * made once, before anything is read or written: what it refuses leaves
 * nothing behind. */
#include "cli/files.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct files_one {
	const char *opt, *path;
	int output;
	int exists, regular;
	dev_t dev;
	ino_t ino;
	char real[PATH_MAX]; /* the resolved path ("" when it cannot be) */
};

/* The resolved path of path, whether or not it exists: its folder's real
 * path and its last name. */
static void files_resolve(const char *path, char *out, size_t size)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	size_t len = slash ? (size_t)(slash - path) : 0;
	out[0] = '\0';
	if (len >= sizeof dir)
		return;
	memcpy(dir, slash ? path : ".", slash ? len : 1);
	dir[slash ? len : 1] = '\0';
	if (slash && len == 0)
		strcpy(dir, "/");
	if (!realpath(dir, real))
		return;
	if ((size_t)snprintf(out, size, "%s/%s", strcmp(real, "/") ? real : "", base) >= size)
		out[0] = '\0';
}

static void files_add(struct files_one *f, int *n, const char *opt, const char *path, int output)
{
	struct stat st;
	if (!path)
		return;
	struct files_one *one = &f[(*n)++];
	memset(one, 0, sizeof *one);
	one->opt = opt;
	one->path = path;
	one->output = output;
	if (stat(path, &st) == 0) {
		one->exists = 1;
		one->regular = S_ISREG(st.st_mode);
		one->dev = st.st_dev;
		one->ino = st.st_ino;
	} else {
		one->regular = 1; /* made as a regular file */
	}
	files_resolve(path, one->real, sizeof one->real);
}

static int files_same(const struct files_one *a, const struct files_one *b)
{
	if (a->exists && b->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return a->real[0] && strcmp(a->real, b->real) == 0;
}

int files_check_distinct(const struct cli_opts *o, char *err, size_t size)
{
	struct files_one f[12];
	int n = 0;
	files_add(f, &n, "-A", o->a_file, 0);
	files_add(f, &n, "-B", o->b_file, 0);
	files_add(f, &n, "--dC", o->dc_file, 0);
	files_add(f, &n, "--replay", o->replay_file, 0);
	files_add(f, &n, "--judge", o->judge_file, 0);
	files_add(f, &n, "--lesson", o->lesson_file, 0);
	files_add(f, &n, "-o", o->out_file, 1);
	files_add(f, &n, "--trace", o->trace_file, 1);
	files_add(f, &n, "--dA-out", o->da_out_file, 1);
	files_add(f, &n, "--dB-out", o->db_out_file, 1);
	files_add(f, &n, "--export", o->export_file, 1);
	files_add(f, &n, "--record", o->record_file, 1);
	for (int i = 0; i < n; i++) {
		if (!f[i].output || !f[i].regular)
			continue; /* a device or FIFO is written in place: nothing is replaced */
		for (int j = 0; j < n; j++) {
			if (j == i || (f[j].output && j > i) || !files_same(&f[i], &f[j]))
				continue;
			snprintf(err, size, "%s %s is %s's file too: writing it would %s (give %s another "
					    "name)",
				 f[i].opt, f[i].path, f[j].opt,
				 f[j].output ? "lose one of the two outputs" : "replace the input",
				 f[i].opt);
			return -1;
		}
	}
	return 0;
}
