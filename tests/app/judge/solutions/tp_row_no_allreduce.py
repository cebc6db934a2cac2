# tp-row without the all-reduce: every rank returns its own partial
# A[:, k_r] @ B[k_r, :], as if the partials were already C.
# Expected: wrong result, "rank 0's result is its own partial ... the
# all-reduce is missing" (n = 1 passes: one partial is C).
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
    a_parts = np.array_split(a, n, axis=1)
    b_parts = np.array_split(b, n, axis=0)
    results = [None] * n

    def worker(rank):
        results[rank] = a_parts[rank] @ b_parts[rank]

    threads = [threading.Thread(target=worker, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
