# Hostile: a correct solution that leaves a daemon behind: it double-forks,
# the middle process calls setsid() (a session and group of its own, out of
# the judge's process group) and the grandchild closes its descriptors and
# sleeps for an hour.  Confined, it lives in the sandbox's PID namespace:
# the harness kills it when the run ends, and the kernel when the namespace
# ends; no process is left after distmm-tui exits.
import os
import select
import threading
from queue import Queue

import numpy as np


def _daemon():
    if os.fork() != 0:
        return
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    os.closerange(0, 1024)
    select.select([], [], [], 3600)
    os._exit(0)


class Communicator:
    def __init__(self, n):
        self.boxes = [Queue() for _ in range(n)]

    def send(self, src, dst, data):
        self.boxes[dst].put((src, data))

    def recv(self, dst):
        return self.boxes[dst].get()


def dp_mat_mul(a, b, num_devices):
    _daemon()
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
