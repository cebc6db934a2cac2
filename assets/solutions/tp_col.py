# tp_col.py: column-parallel tensor parallel (Megatron-LM's first layer).
# What it shows: the weights stay.  Rank r keeps B's column shard r for the
# whole run and is given all of A; it computes its columns of C, A @ B_r, and
# sends them to rank 0, which puts each block where its sender's columns
# are (np.hstack in rank order): a gather, never a sum.
#   distmm-tui -b --judge assets/solutions/tp_col.py              (passes)
#   distmm-tui -b -m tp-col -d 4                                  (the engine's run)
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


def tp_col_mat_mul(a: np.ndarray, b: np.ndarray, num_devices: int) -> np.ndarray:
    n = num_devices
    comm = Communicator(n)
    b_shards = np.array_split(b, n, axis=1)   # rank r keeps columns r of B
    result = [None]

    def worker(rank):
        block = a @ b_shards[rank]            # C[:, cols_r]
        if rank == 0:
            blocks = [None] * n
            blocks[0] = block
            for _ in range(n - 1):
                src, blk = comm.recv(0)
                blocks[src] = blk             # by its sender, not by arrival
            result[0] = np.hstack(blocks)
        else:
            comm.send(rank, 0, block)

    threads = [threading.Thread(target=worker, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result[0]
