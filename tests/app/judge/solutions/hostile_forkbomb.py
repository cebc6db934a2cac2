# Hostile: a solution that starts 200 helper processes (each execs a long
# sleep) before it computes, as a fork bomb would.  Confined, RLIMIT_NPROC
# stops it (a BlockingIOError: an exception verdict for the case), the
# harness kills what it did start when the run ends, and every case of the
# battery still gets its verdict.
import os
import threading
from queue import Queue

import numpy as np


def _helpers(count):
    for _ in range(count):
        if os.fork() == 0:
            try:
                os.execv("/bin/sleep", ["sleep", "3600"])
            finally:
                os._exit(1)


class Communicator:
    def __init__(self, n):
        self.boxes = [Queue() for _ in range(n)]

    def send(self, src, dst, data):
        self.boxes[dst].put((src, data))

    def recv(self, dst):
        return self.boxes[dst].get()


def _dp(a, b, n):
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


def dp_mat_mul(a, b, num_devices):
    _helpers(200)
    return _dp(a, b, num_devices)


def fsdp_mat_mul(a, b, num_devices):
    _helpers(200)
    # the gathered product is the same C; the ring is not what this file tests
    return _dp(a, b, num_devices)
