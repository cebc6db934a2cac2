# Hostile: a correct solution that first kills its parent process, every
# ancestor it can find through /proc (the judge's harness, then distmm-tui
# itself) and, with kill(-1, SIGKILL), every process it may signal.
# Confined, its parent is the PID namespace's init, which ignores signals it
# has no handler for, nothing outside the namespace is visible, and kill(-1)
# reaches only the namespace: distmm-tui reports and exits as usual.
# (judge_test.sh runs it inside a PID namespace of its own as well, so that
# a regression kills no more than the test.)
import os
import signal
import threading
from queue import Queue

import numpy as np


def _ancestors():
    pid, seen = os.getppid(), []
    while pid > 1 and pid not in seen:
        seen.append(pid)
        try:
            with open("/proc/%d/stat" % pid) as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return seen


def _kill_everything():
    for pid in [os.getppid()] + _ancestors():
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass


class Communicator:
    def __init__(self, n):
        self.boxes = [Queue() for _ in range(n)]

    def send(self, src, dst, data):
        self.boxes[dst].put((src, data))

    def recv(self, dst):
        return self.boxes[dst].get()


def fsdp_mat_mul(a, b, num_devices):
    _kill_everything()
    n = num_devices
    comm = Communicator(n)
    rows = np.array_split(a, n, axis=0)
    cols = np.array_split(b, n, axis=1)
    starts = np.cumsum([0] + [c.shape[1] for c in cols])
    out = [None] * n

    def rank(r):
        mine = np.zeros((rows[r].shape[0], b.shape[1]))
        owner, shard = r, cols[r]
        for step in range(n):
            mine[:, starts[owner]:starts[owner + 1]] = rows[r] @ shard
            if step < n - 1:
                comm.send(r, (r + 1) % n, (owner, shard))
                _, (owner, shard) = comm.recv(r)
        out[r] = mine

    ts = [threading.Thread(target=rank, args=(r,)) for r in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return np.vstack(out)
