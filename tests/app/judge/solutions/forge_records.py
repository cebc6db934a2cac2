# Hostile: writes a complete, well-formed run of the judge's own record
# format into its pipe (it returned, nothing raised) whose result is a
# matrix of ones, then leaves with os._exit(0).  Every record parses: the
# judge then checks the bytes it was sent, and they are not A @ B.
import os
import stat

import numpy as np


def _forge(m, n):
    ones = np.ones((m, n)).tobytes()
    data = (b"ret 1 0 0 1 7\nndarray" + b"arr -1 2 %d %d 0 0 3 %d\n<f8" % (m, n, len(ones))
            + ones + b"out 0 0\nend 0 1\n")
    for fd in range(64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, data)
        except OSError:
            pass
    os._exit(0)


def dp_mat_mul(a, b, num_devices):
    _forge(a.shape[0], b.shape[1])


def fsdp_mat_mul(a, b, num_devices):
    _forge(a.shape[0], b.shape[1])
