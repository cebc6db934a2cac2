/* files: the files a command line names, read and written, held apart
 * before anything runs: an output never replaces an input or another
 * output (`-A a.npy -o a.npy` would overwrite A with C and exit 0). */
#ifndef APP_CLI_FILES_H
#define APP_CLI_FILES_H

#include <stddef.h>

#include "cli/cli.h"

/* Whether every output of o (-o, --trace, --dA-out, --dB-out, --export,
 * --record) is a file of its own: not an input (-A, -B, --dC, --replay,
 * --judge, --lesson) nor another output, by device and inode for files
 * that exist (a link or another spelling of the path is the same file) and
 * by the resolved path for those still to be made.  Outputs that are not
 * regular files (/dev/null, /dev/stdout, a FIFO) are written in place and
 * may be shared.  Returns 0, or -1 with err one line naming both options. */
int files_check_distinct(const struct cli_opts *o, char *err, size_t size);

#endif
