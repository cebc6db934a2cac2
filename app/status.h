/* status: the program's exit statuses and its one-line error report. */
#ifndef APP_STATUS_H
#define APP_STATUS_H

#include <distmm/dm_err.h>

enum {
	STATUS_OK = 0,       /* verified */
	STATUS_MISMATCH = 1, /* the result differs from A @ B, or the run failed */
	STATUS_USAGE = 2,    /* bad input: arguments, files, sizes, resources */
	STATUS_DEADLOCK = 3, /* every device blocked */
};

/* Prints "distmm-tui: <message>" on stderr. */
void status_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The exit status for an engine error met while setting up or running. */
int status_of(int code);

#endif
