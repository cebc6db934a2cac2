/* status: exit statuses and error lines (see status.h). */
#include "status.h"

#include <stdarg.h>
#include <stdio.h>

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
