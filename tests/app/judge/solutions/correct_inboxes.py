# A correct solution that touches comm.inboxes directly (put and get on the
# queues, no send/recv calls), with a subclass-free Communicator and its
# threads made with `from threading import Thread`.
from threading import Thread
from queue import Queue
import numpy as np


class Communicator:
    def __init__(self, num_devices):
        self.num_devices = num_devices
        self.inboxes = [Queue() for _ in range(num_devices)]


def fsdp_mat_mul(a, b, num_devices):
    n = num_devices
    comm = Communicator(n)
    A = np.array_split(a, n, axis=0)
    S = np.array_split(b, n, axis=1)
    off = [0]
    for s in S:
        off.append(off[-1] + s.shape[1])
    C = np.zeros((a.shape[0], b.shape[1]))
    r0 = [0]
    for x in A:
        r0.append(r0[-1] + x.shape[0])

    def dev(r):
        k, sh = r, S[r]
        for step in range(n):
            C[r0[r]:r0[r + 1], off[k]:off[k + 1]] = A[r] @ sh
            if step < n - 1:
                comm.inboxes[(r + 1) % n].put((r, (k, sh)))
                _, (k, sh) = comm.inboxes[r].get()

    ts = [Thread(target=dev, args=(r,)) for r in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return C


def dp_mat_mul(a, b, num_devices):
    comm = Communicator(num_devices)
    A = np.array_split(a, num_devices, axis=0)
    for r in range(num_devices):
        comm.inboxes[0].put((r, A[r] @ b))
    got = dict(comm.inboxes[0].get() for _ in range(num_devices))
    return np.vstack([got[r] for r in range(num_devices)])
