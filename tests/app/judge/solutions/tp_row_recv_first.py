# tp-row's ring all-reduce where every rank receives before it sends: each
# waits for its left neighbour, who waits for its own.
# Expected: deadlock, every rank waiting to receive (n = 1 passes: no ring).
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
    a_parts = np.array_split(a, n, axis=1)
    b_parts = np.array_split(b, n, axis=0)
    rows = np.cumsum([0] + [len(c) for c in np.array_split(np.arange(a.shape[0]), n)])
    results = [None] * n

    def worker(rank):
        c = (a_parts[rank] @ b_parts[rank]).astype(np.float64)
        right = (rank + 1) % n
        for step in range(n - 1):
            _, (j, chunk) = comm.recv(rank)   # wrong: nobody has sent yet
            c[rows[j]:rows[j + 1]] += chunk
            i = (rank - step) % n
            comm.send(rank, right, (i, c[rows[i]:rows[i + 1]].copy()))
        for step in range(n - 1):
            i = (rank + 1 - step) % n
            comm.send(rank, right, (i, c[rows[i]:rows[i + 1]].copy()))
            _, (j, chunk) = comm.recv(rank)
            c[rows[j]:rows[j + 1]] = chunk
        results[rank] = c

    threads = [threading.Thread(target=worker, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
