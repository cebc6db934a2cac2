# Hostile: walks up the call stack to every descriptor the harness holds (an
# int local, or an object's fd), writes a "pass" answer in the old format
# and an "end" record in the new one, and leaves with os._exit(0) before the
# function returns anything.  The run's records no longer parse: a judge
# error for the case, never a pass, and no row of its own in the table.
import os
import sys

import numpy as np


def _forge(case_id):
    fds = set()
    f = sys._getframe()
    while f is not None:
        for v in list(f.f_locals.values()):
            if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < 64:
                fds.add(v)
            fd = getattr(v, "fd", None)
            if isinstance(fd, int):
                fds.add(fd)
        f = f.f_back
    for fd in sorted(fds):
        for data in (b"case\t%d\tpass\t-1\treversed\t1\tpass\n" % case_id,
                     b"case\t1\tpass\t-1\treversed\t1\tpass\n", b"end 0 0\n"):
            try:
                os.write(fd, data)
            except OSError:
                pass
    os._exit(0)


def dp_mat_mul(a, b, num_devices):
    _forge(1)
    return np.zeros((a.shape[0], b.shape[1]))


def fsdp_mat_mul(a, b, num_devices):
    _forge(11)
    return np.zeros((a.shape[0], b.shape[1]))
