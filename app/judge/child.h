/* child: the judge's Python process (or the bwrap that runs it, sandbox.h).
 * It runs in a session and process group of its own, with no controlling
 * terminal, with pipes for its standard input, output and error; it dies with
 * distmm-tui (PR_SET_PDEATHSIG) and distmm-tui is the subreaper of what it
 * forks, so child_end can kill the whole group and reap every process of it
 * that is distmm-tui's to reap.  What leaves the group (a setsid daemon) is
 * the sandbox's to end: see sandbox.c. */
#ifndef APP_JUDGE_CHILD_H
#define APP_JUDGE_CHILD_H

#include <stddef.h>
#include <sys/types.h>

#include <distmm/dm_err.h>

struct child {
	pid_t pid;     /* also its process group; 0 when none */
	int in_fd;     /* its standard input (we write; -1 once closed) */
	int out_fd;    /* its standard output (we read) */
	int err_fd;    /* its standard error (we read) */
};

/* Finds name in PATH (or takes it as a path when it has a slash) into buf;
 * returns 0, or -1 when there is no such executable. */
int child_which(const char *name, char *buf, size_t size);

/* What the child does before it executes (NULL: nothing). */
struct child_setup {
	int keep_fd;   /* becomes the child's descriptor 3 (SANDBOX_FILE_FD), or -1 */
	int drop;      /* become uid/gid, with no supplementary groups (as root) */
	uid_t uid;
	gid_t gid;
};

/* Starts path with argv and envp.  Returns 0; -1 with *exec_errno set when
 * the program could not be executed (or the setup failed); or DM_EIO /
 * DM_ETHREAD with err filled when pipes or fork failed.  Our ends of the
 * pipes are non-blocking. */
int child_spawn(struct child *c, const char *path, char *const argv[], char *const envp[],
		const struct child_setup *setup, int *exec_errno, struct dm_err *err);

/* Closes our end of its standard input (it sees the end of its input). */
void child_close_input(struct child *c);

/* SIGKILL to its group, then reaps the child and every process of the group
 * (blocking waits, no polling).  Returns the child's wait status (or -1). */
int child_end(struct child *c);

/* While the judge runs: SIGINT, SIGTERM and SIGHUP write their number to a
 * pipe (the returned descriptor, for poll) instead of ending the program, and
 * SIGPIPE is ignored.  Returns the descriptor or -1. */
int child_catch_signals(void);

/* The signal that came (0 if none; reads the pipe). */
int child_signal_taken(void);

/* The handlers as they were. */
void child_release_signals(void);

#endif
