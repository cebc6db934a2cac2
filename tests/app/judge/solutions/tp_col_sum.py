# tp-col with an all-reduce where a gather was needed: rank 0 adds the
# column blocks A @ B_r instead of putting them side by side.
# Expected: wrong shape, "returned the sum of the n column blocks ... a
# gather, not an all-reduce" (n = 1 passes: one block is C).
import threading

import numpy as np
from queue import Queue


class Communicator:
    """Simulates inter-device communication using Queues."""

    def __init__(self, num_devices: int):
        self.num_devices = num_devices
        self.inboxes = [Queue() for _ in range(num_devices)]

    def send(self, src: int, dst: int, data) -> None:
        self.inboxes[dst].put((src, data))

    def recv(self, dst: int) -> tuple:
        return self.inboxes[dst].get()


def tp_col_mat_mul(a, b, num_devices):
    n = num_devices
    comm = Communicator(n)
    b_shards = np.array_split(b, n, axis=1)
    result = [None]

    def worker(rank):
        block = a @ b_shards[rank]
        if rank == 0:
            total = block.copy()
            for _ in range(n - 1):
                total += comm.recv(0)[1]      # wrong: the blocks are different columns
            result[0] = total
        else:
            comm.send(rank, 0, block)

    threads = [threading.Thread(target=worker, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result[0]
