/* status: exit statuses and error lines (see status.h).  A failed write of
 * stdout is bad input's status, 2: like an -o that cannot be written, it is
 * the environment refusing what was asked, and 1 would say the result was
 * wrong (coreutils has no such status to keep apart, so it uses 1). */
#include "status.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *status_program = "distmm-tui";

void status_set_program(const char *name)
{
	status_program = name;
}

void status_escape(const char *text, char *out, size_t size)
{
	size_t o = 0;
	if (size == 0)
		return;
	for (const unsigned char *p = (const unsigned char *)text; *p && o + 1 < size; p++) {
		char esc[8];
		int len;
		if (*p >= 0x20 && *p != 0x7f) {
			out[o++] = (char)*p;
			continue;
		}
		len = *p == '\n' ? snprintf(esc, sizeof esc, "\\n")
		    : *p == '\t' ? snprintf(esc, sizeof esc, "\\t")
		    : *p == '\r' ? snprintf(esc, sizeof esc, "\\r")
				 : snprintf(esc, sizeof esc, "\\%03o", *p);
		if (o + (size_t)len + 1 > size)
			break;
		memcpy(out + o, esc, (size_t)len);
		o += (size_t)len;
	}
	out[o] = '\0';
}

void status_error(const char *fmt, ...)
{
	va_list ap;
	char line[2048], shown[4 * sizeof line];
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	/* a file name or a value from the command line may hold any byte: an
	 * escape sequence or a newline must not reach the terminal raw */
	status_escape(line, shown, sizeof shown);
	fprintf(stderr, "%s: %s\n", status_program, shown);
}

int status_of(int code)
{
	switch (code) {
	case DM_OK: return STATUS_OK;
	case DM_EDEADLOCK: return STATUS_DEADLOCK;
	case DM_EINVAL:
	case DM_ENOMEM:
	case DM_ETHREAD:
	case DM_EIO:
	case DM_EFORMAT: return STATUS_USAGE;
	}
	return STATUS_MISMATCH;
}

/* The reason the first failed status_flush_stdout gave (0: none failed).
 * Only the main thread prints to stdout, in both programs (distmm-mpi's
 * rank runs its device on the calling thread). */
static int status_flush_errno;

void status_flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) != 0 && errno && !status_flush_errno)
		status_flush_errno = errno;
}

void status_put_stdout(const char *text)
{
	/* a long text flushes the buffer on the way: keep that write's reason */
	errno = 0;
	if (fputs(text, stdout) == EOF && errno && !status_flush_errno)
		status_flush_errno = errno;
}

int status_close_stdout(int status)
{
	/* the error flag says an earlier write failed; fclose writes what is
	 * left in the buffer and says why it could not (errno) */
	errno = 0;
	int failed = fflush(stdout) != 0;
	int e = failed ? errno : 0;
	if (!e)
		e = status_flush_errno;
	failed |= ferror(stdout) != 0;
	errno = 0;
	if (fclose(stdout) != 0) {
		failed = 1;
		if (!e)
			e = errno;
	}
	if (!failed)
		return status;
	if (e)
		status_error("write error: %s", strerror(e));
	else
		status_error("write error");
	return status == STATUS_OK ? STATUS_USAGE : status;
}
