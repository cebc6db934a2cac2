/* status: the program's exit statuses and its one-line error report. */
#ifndef APP_STATUS_H
#define APP_STATUS_H

#include <stddef.h>

#include <distmm/dm_err.h>

enum {
	STATUS_OK = 0,       /* verified */
	STATUS_MISMATCH = 1, /* the result differs from A @ B, or the run failed */
	STATUS_USAGE = 2,    /* bad input: arguments, files, sizes, resources, a failed write */
	STATUS_DEADLOCK = 3, /* every device blocked */
};

/* Prints "distmm-tui: <message>" on stderr, one line: control characters
 * (an escape sequence, a newline in a file name) are written as git quotes
 * them, \n, \t, \r and \033, never raw. */
void status_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The name status_error's lines start with: "distmm-tui" unless set
 * ("distmm-mpi"). */
void status_set_program(const char *name);

/* text with its control characters escaped as status_error writes them,
 * into out (always terminated; cut where it does not fit). */
void status_escape(const char *text, char *out, size_t size);

/* fflush(stdout) for the places that order stdout before a line on stderr.
 * A failure's reason is kept for status_close_stdout, which could not learn
 * it later (the stream keeps only its error flag). */
void status_flush_stdout(void);

/* fputs to stdout that keeps the reason of a write it fails on the way
 * (for status_close_stdout's line). */
void status_put_stdout(const char *text);

/* At every exit of a program: flushes and closes stdout, as coreutils'
 * close_stdout does, because a write that failed (a full disk, /dev/full, a
 * closed pipe) is otherwise only in the stream's error flag and the program
 * would exit 0 having printed nothing.  Returns status, or on a failed write
 * prints "write error: <reason>" and returns STATUS_USAGE when status was
 * STATUS_OK (a run that already failed keeps the status that says how). */
int status_close_stdout(int status);

/* The exit status for an engine error met while setting up or running. */
int status_of(int code);

#endif
