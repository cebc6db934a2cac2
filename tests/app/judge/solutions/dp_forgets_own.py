# DP where rank 0 stacks the blocks it received, sorted by sender, but
# forgets its own rows.
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
    if rank != 0:
        comm.send(rank, 0, c)
        return
    got = [comm.recv(0) for _ in range(comm.num_devices - 1)]
    result[0] = np.vstack([blk for _, blk in sorted(got, key=lambda x: x[0])])


def dp_mat_mul(a, b, num_devices):
    comm = Communicator(num_devices)
    result = [None]
    a_chunks = np.array_split(a, num_devices, axis=0)
    threads = [threading.Thread(target=_compute_fn, args=(comm, r, a_chunks[r], b, result))
               for r in range(num_devices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result[0]
