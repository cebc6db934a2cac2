# Hostile: writes records of the judge's own format into its run's pipe,
# well formed but for their lengths (a string longer than what follows, an
# array whose bytes are not its shape's), then leaves with os._exit(0).
# The records do not parse: a judge error for the case.
import os
import stat

import numpy as np


def _pipes():
    out = []
    for fd in range(64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                out.append(fd)
        except OSError:
            pass
    return out


def _forge(m, n):
    zeros = np.zeros((m, n)).tobytes()
    data = (b"ret 1 0 0 1 7\nndarray" + b"arr -1 2 %d %d 0 0 3 %d\n<f8" % (m, n, len(zeros) + 64)
            + zeros + b"end 0 1\n")
    for fd in _pipes():
        try:
            os.write(fd, data)
        except OSError:
            pass
    os._exit(0)


def dp_mat_mul(a, b, num_devices):
    _forge(a.shape[0], b.shape[1])


def fsdp_mat_mul(a, b, num_devices):
    _forge(a.shape[0], b.shape[1])
