/* dm_err: error values for the engine (see dm_err.h). */
#include <distmm/dm_err.h>

#include <stdarg.h>
#include <stdio.h>

int dm_err_set(struct dm_err *err, int code, const char *fmt, ...)
{
	if (err) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof err->msg, fmt, ap);
		va_end(ap);
		err->code = code;
	}
	return code;
}

void dm_err_clear(struct dm_err *err)
{
	if (err) {
		err->code = DM_OK;
		err->msg[0] = '\0';
	}
}

const char *dm_status_name(int code)
{
	switch (code) {
	case DM_OK: return "ok";
	case DM_EINVAL: return "invalid argument";
	case DM_ENOMEM: return "out of memory";
	case DM_ETHREAD: return "thread creation failed";
	case DM_EIO: return "i/o error";
	case DM_EFORMAT: return "bad file format";
	case DM_EDEADLOCK: return "deadlock";
	case DM_ETIMEOUT: return "timed out";
	case DM_ESTOPPED: return "stopped";
	case DM_EPROTO: return "protocol error";
	}
	return "unknown error";
}
