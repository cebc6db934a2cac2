# Starts a thread a rank and returns without joining them: the caller reads
# result[0] while the ranks may still be computing.  It often "works" when
# the threads happen to finish first; the judge's default schedule runs the
# caller first, so it returns before any rank has run.
import threading
import numpy as np
from queue import Queue


class Communicator:
    def __init__(self, num_devices):
        self.num_devices = num_devices
        self.inboxes = [Queue() for _ in range(num_devices)]

    def send(self, src, dst, data):
        self.inboxes[dst].put((src, data))

    def recv(self, dst):
        return self.inboxes[dst].get()


def _compute_fn(comm, rank, a_chunk, b, result):
    c = a_chunk @ b
    comm.send(rank, 0, c)
    if rank == 0:
        got = dict(comm.recv(0) for _ in range(comm.num_devices))
        result[0] = np.vstack([got[r] for r in range(comm.num_devices)])


def dp_mat_mul(a, b, num_devices):
    comm = Communicator(num_devices)
    result = [np.zeros((a.shape[0], b.shape[1]))]
    a_chunks = np.array_split(a, num_devices, axis=0)
    for rank in range(num_devices):
        threading.Thread(target=_compute_fn,
                         args=(comm, rank, a_chunks[rank], b, result)).start()
    return result[0]
