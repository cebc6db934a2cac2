/* sandbox: the confinement of the candidate's code (--judge), by bubblewrap.
 * The judge's Python child runs as `bwrap OPTIONS -- PYTHON ARGS`: its own
 * user, PID, network, IPC and UTS namespaces, a read-only view of the system,
 * the solution file read-only, one fresh writable /tmp, and, as root, an
 * unprivileged uid (SANDBOX_UID).  The harness applies the rlimits that
 * sandbox_limits writes in each run's process.  See sandbox.c for the exact
 * options and why. */
#ifndef APP_JUDGE_SANDBOX_H
#define APP_JUDGE_SANDBOX_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include <distmm/dm_err.h>

/* The uid and gid the candidate's code runs as when distmm-tui runs as root
 * (Debian's nobody and nogroup). */
#define SANDBOX_UID 65534
#define SANDBOX_GID 65534

/* The descriptor bwrap reads the solution from (--ro-bind-data). */
#define SANDBOX_FILE_FD 3

/* The variable that names bwrap (else it is looked for on PATH). */
#define SANDBOX_BWRAP_ENV "DISTMM_BWRAP"

/* The variable that carries the rlimits to the harness (jd_main.py). */
#define SANDBOX_LIMITS_ENV "DISTMM_JUDGE_LIMITS"

#define SANDBOX_MAX_ARGS 64

struct sandbox {
	int on;                  /* 0: --judge-unconfined, nothing below is used */
	int drop;                /* running as root: the child becomes SANDBOX_UID */
	char bwrap[PATH_MAX];    /* the bwrap found */
	int file_fd;             /* the solution, opened here (read by bwrap), or -1 */
	char inside[PATH_MAX];   /* the solution's absolute path, the same inside */
	/* sandbox_command's argv and the strings it points to */
	char *argv[SANDBOX_MAX_ARGS];
	char python[PATH_MAX], bind[2][PATH_MAX], link[8][64], tmp_size[24], fd[8];
};

/* Gets ready to confine the judge of file: finds bwrap ($DISTMM_BWRAP, else
 * PATH) and opens file for it.  unconfined: s->on = 0 and nothing else.
 * Returns 0, or DM_EIO with err's one line (no bwrap: how to proceed; the
 * file cannot be read). */
int sandbox_open(struct sandbox *s, const char *file, int unconfined, struct dm_err *err);

void sandbox_close(struct sandbox *s);

/* Whether python can run in the sandbox: always, unless distmm-tui runs as
 * root and SANDBOX_UID cannot reach it (a directory on its way that only
 * root may enter, like /root/.pyenv). */
int sandbox_reaches(const struct sandbox *s, const char *python);

/* The command that runs python with py_argv (py_argv[0] is replaced by
 * python's absolute path) inside the sandbox, into s->argv; *path is what to
 * execute.  Returns 0, or -1 when an argument does not fit. */
int sandbox_command(struct sandbox *s, const char *python, char *const py_argv[],
		    const char **path);

/* The rlimits of each run as "NAME=as:B,cpu:S,nproc:N,fsize:B,nofile:N":
 * address space, CPU seconds (never before the run's time limit ends it:
 * (limit + grace) for every CPU), processes and threads (what n ranks need,
 * and a margin), file size, open files.  Returns 0 or -1 (too small). */
int sandbox_limits(char *buf, size_t size, unsigned timeout_ms, unsigned grace_ms, int max_n);

/* Whether the environment variable var ("NAME=value") passes into the
 * sandbox: what Python needs (locale, PATH, PYTHON*), not the user's
 * tokens.  HOME and TMPDIR are set to the sandbox's /tmp by the caller. */
int sandbox_env_keeps(const char *var);

/* What bwrap's last line on stderr (line, "bwrap: ...") says: 0 it is not
 * bwrap's; 1 python could not be executed inside (try the next one); 2 the
 * sandbox could not be made (no user namespaces, a path it cannot bind). */
int sandbox_failure(const char *line);

#endif
