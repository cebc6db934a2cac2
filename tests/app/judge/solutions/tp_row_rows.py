# tp-row splitting A by rows (axis=0), DP's habit, instead of by columns
# along K: A's row chunk does not meet B's row chunk.
# Expected: exception, numpy's matmul ValueError at the product's line
# (n = 1 passes: nothing is split).
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


def tp_row_mat_mul(a, b, num_devices):
    n = num_devices
    comm = Communicator(n)
    a_parts = np.array_split(a, n, axis=0)    # wrong: tp-row splits A along K
    b_parts = np.array_split(b, n, axis=0)
    results = [None] * n

    def worker(rank):
        c = a_parts[rank] @ b_parts[rank]
        for peer in range(n):
            if peer != rank:
                comm.send(rank, peer, c)
        for _ in range(n - 1):
            c = c + comm.recv(rank)[1]
        results[rank] = c

    threads = [threading.Thread(target=worker, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
