# A correct solution in the starter's own style: the starter's Communicator,
# a module-level _compute_fn for DP, and for FSDP the index formula
# (rank - step) % n with an even shard width (the exercise's contract: n
# divides M and N; uneven cases are beyond it).
import threading
import numpy as np
from queue import Queue


class Communicator:
    def __init__(self, num_devices: int):
        self.num_devices = num_devices
        self.inboxes = [Queue() for _ in range(num_devices)]

    def send(self, src: int, dst: int, data: np.ndarray) -> None:
        self.inboxes[dst].put((src, data))

    def recv(self, dst: int) -> tuple:
        return self.inboxes[dst].get()


def _compute_fn(comm, rank, a_chunk, b, result):
    partial = a_chunk @ b
    comm.send(rank, 0, partial)
    if rank == 0:
        blocks = {}
        for _ in range(comm.num_devices):
            src, data = comm.recv(0)
            blocks[src] = data
        result[0] = np.concatenate([blocks[r] for r in range(comm.num_devices)], axis=0)


def dp_mat_mul(a, b, num_devices):
    comm = Communicator(num_devices)
    result = [None]
    a_chunks = np.array_split(a, num_devices, axis=0)
    threads = []
    for rank in range(num_devices):
        t = threading.Thread(target=_compute_fn, args=(comm, rank, a_chunks[rank], b, result))
        threads.append(t)
        t.start()
    for t in threads:
        t.join()
    return result[0]


def _fsdp_fn(comm, rank, a_chunk, b_shard, n, out):
    w = b_shard.shape[1]
    local = np.zeros((a_chunk.shape[0], w * n))
    shard = b_shard
    for step in range(n):
        idx = (rank - step) % n
        local[:, idx * w:(idx + 1) * w] = a_chunk @ shard
        if step != n - 1:
            comm.send(rank, (rank + 1) % n, shard)
            _, shard = comm.recv(rank)
    out[rank] = local


def fsdp_mat_mul(a, b, num_devices):
    comm = Communicator(num_devices)
    a_chunks = np.array_split(a, num_devices, axis=0)
    b_shards = np.array_split(b, num_devices, axis=1)
    out = [None] * num_devices
    threads = [threading.Thread(target=_fsdp_fn,
                                args=(comm, r, a_chunks[r], b_shards[r], num_devices, out))
               for r in range(num_devices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return np.vstack(out)
