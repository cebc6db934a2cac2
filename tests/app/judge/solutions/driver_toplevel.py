# A correct solution with the exercise's driver left at the module's top
# level (no `if __name__ == "__main__":`): random a and b, the asserts and a
# print run once when the file is imported.  The judge loads it all the same.
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
    comm.send(rank, 0, a_chunk @ b)
    if rank == 0:
        parts = {}
        for _ in range(comm.num_devices):
            src, blk = comm.recv(0)
            parts[src] = blk
        result[0] = np.vstack([parts[r] for r in range(comm.num_devices)])


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


def fsdp_mat_mul(a, b, num_devices):
    n = num_devices
    comm = Communicator(n)
    a_chunks = np.array_split(a, n, axis=0)
    b_shards = np.array_split(b, n, axis=1)
    offs = np.cumsum([0] + [s.shape[1] for s in b_shards])
    out = [None] * n

    def worker(rank):
        local = np.zeros((a_chunks[rank].shape[0], b.shape[1]))
        owner, shard = rank, b_shards[rank]
        for step in range(n):
            local[:, offs[owner]:offs[owner + 1]] = a_chunks[rank] @ shard
            if step < n - 1:
                comm.send(rank, (rank + 1) % n, (owner, shard))
                _, (owner, shard) = comm.recv(rank)
        out[rank] = local

    threads = [threading.Thread(target=worker, args=(r,)) for r in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return np.vstack(out)


M, K, N, num_devices = 8, 6, 4, 2
a = np.random.rand(M, K)
b = np.random.rand(K, N)
expected = a @ b
result_dp = dp_mat_mul(a, b, num_devices)
assert np.allclose(result_dp, expected)
result_fsdp = fsdp_mat_mul(a, b, num_devices)
assert np.allclose(result_fsdp, expected)
print("all good")
