/* slurp: a whole file into memory, for the parsers (matrices, traces), with
 * the refusals they share: a missing or unreadable file or a directory
 * (DM_EIO, with strerror's words), more than a size limit (DM_ENOMEM). */
#ifndef DM_SLURP_H
#define DM_SLURP_H

#ifndef DM_ENGINE_INTERNAL
#error "engine-internal header: app/ uses only the public API, <distmm/...> in engine/include"
#endif

#include <stddef.h>

#include <distmm/dm_err.h>

/* Reads path into a new buffer (*out, *len; free() it).  max_bytes 0: no
 * limit.  Returns 0, DM_EIO or DM_ENOMEM with err naming the file. */
int slurp_file(const char *path, size_t max_bytes, char **out, size_t *len, struct dm_err *err);

#endif
