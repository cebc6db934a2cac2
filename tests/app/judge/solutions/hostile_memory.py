# Hostile: a solution that reserves a 1 GiB workspace per rank, 8 GiB in
# all, before it computes (np.empty: nothing is touched, so unconfined the
# machine does not notice).  Confined, RLIMIT_AS stops the allocation: numpy
# raises MemoryError, an exception verdict, not the machine's OOM killer.
import threading
from queue import Queue

import numpy as np

WORKSPACE = 1 << 27      # float64s: 1 GiB


class Communicator:
    def __init__(self, n):
        self.boxes = [Queue() for _ in range(n)]

    def send(self, src, dst, data):
        self.boxes[dst].put((src, data))

    def recv(self, dst):
        return self.boxes[dst].get()


def dp_mat_mul(a, b, num_devices):
    spaces = [np.empty(WORKSPACE) for _ in range(8)]
    for s in spaces:
        s[0] = 0.0
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
