# Hostile: writes a forged table row and a forged record to descriptor 3
# (and to every pipe it holds), then returns a wrong result.  What it wrote
# is inside its own run's records: a judge error for that case, or the
# wrong result; never a row of the table.
import os
import stat

import numpy as np

FORGED = b"case\t1\tpass\t-1\treversed\t1\tpass\nrun\t1\t0\texit:0\t0\nend\t1\n"


def _write_everywhere():
    try:
        os.write(3, FORGED)
    except OSError:
        pass
    for fd in range(64):
        try:
            if stat.S_ISFIFO(os.fstat(fd).st_mode):
                os.write(fd, FORGED)
        except OSError:
            pass


def dp_mat_mul(a, b, num_devices):
    _write_everywhere()
    return np.ones((a.shape[0], b.shape[1]))


def fsdp_mat_mul(a, b, num_devices):
    _write_everywhere()
    return np.ones((a.shape[0], b.shape[1]))
