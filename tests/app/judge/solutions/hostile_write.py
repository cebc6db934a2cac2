# Hostile: a correct solution that also writes outside the judge's scratch
# directory: a "debug dump" next to itself and in $HOME (a candidate's
# leftover logging, or a file planted for later).  Confined, only /tmp (a
# fresh tmpfs) is writable: the writes fail or land there, and nothing
# reaches the solution's directory or the home the judge was started with.
import os
import threading
from queue import Queue

import numpy as np

HOME = os.environ.get("HOME", "/")
HERE = os.path.dirname(os.path.abspath(__file__))


def _dump(where, text):
    try:
        with open(os.path.join(where, "hostile_was_here"), "a") as f:
            f.write(text)
    except OSError:
        pass


class Communicator:
    def __init__(self, n):
        self.boxes = [Queue() for _ in range(n)]

    def send(self, src, dst, data):
        self.boxes[dst].put((src, data))

    def recv(self, dst):
        return self.boxes[dst].get()


def dp_mat_mul(a, b, num_devices):
    for where in (HERE, HOME, os.path.expanduser("~")):
        _dump(where, "dp %s\n" % (a.shape,))
    n = num_devices
    comm = Communicator(n)
    rows = np.array_split(a, n, axis=0)
    out = [None]

    def rank(r):
        comm.send(r, 0, rows[r] @ b)
        if r == 0:
            got = dict(comm.recv(0) for _ in range(n))
            out[0] = np.vstack([got[i] for i in range(n)])

    ts = [threading.Thread(target=rank, args=(r,)) for r in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return out[0]
