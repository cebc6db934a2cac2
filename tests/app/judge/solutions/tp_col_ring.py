# tp-col that passes B's shards round a ring (FSDP's habit): right
# numbers, but the weights moved, which is what tensor parallel avoids.
# Expected: weights moved, "rank 0's thread sent B's columns ..." (n = 1
# passes: nothing moves).
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
    cols = np.cumsum([0] + [s.shape[1] for s in b_shards])
    out = np.zeros((a.shape[0], b.shape[1]))

    def worker(rank):
        owner, shard = rank, b_shards[rank]
        for step in range(n):
            out[:, cols[owner]:cols[owner + 1]] = a @ shard
            if step < n - 1:
                comm.send(rank, (rank + 1) % n, (owner, shard))
                _, (owner, shard) = comm.recv(rank)

    threads = [threading.Thread(target=worker, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out
