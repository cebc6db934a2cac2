/* status: exit statuses and error lines (see status.h).  A failed write of
 * stdout is bad input's status, 2: like an -o that cannot be written, it is
 * the environment refusing what was asked, and 1 would say the result was
 * wrong (coreutils has no such status to keep apart, so it uses 1). */
#include "status.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void status_error(const char *fmt, ...)
{
	va_list ap;
	fputs("distmm-tui: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
