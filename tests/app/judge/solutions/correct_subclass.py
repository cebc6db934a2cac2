# Thread subclasses; DP's rank 0 is the caller itself, receiving after join;
# FSDP's gather through a results queue, sorted by rank.
import threading
import queue
import numpy as np


class Communicator:
    def __init__(self, num_devices):
        self.inboxes = [queue.Queue() for _ in range(num_devices)]

    def send(self, src, dst, data):
        self.inboxes[dst].put((src, data))

    def recv(self, dst):
        return self.inboxes[dst].get()


class DPWorker(threading.Thread):
    def __init__(self, comm, rank, a_chunk, b):
        super().__init__()
        self.comm, self.rank, self.a_chunk, self.b = comm, rank, a_chunk, b

    def run(self):
        self.comm.send(self.rank, 0, self.a_chunk @ self.b)


def dp_mat_mul(a, b, num_devices):
    comm = Communicator(num_devices)
    chunks = np.array_split(a, num_devices, axis=0)
    ws = [DPWorker(comm, r, chunks[r], b) for r in range(1, num_devices)]
    for w in ws:
        w.start()
    for w in ws:
        w.join()
    parts = {0: chunks[0] @ b}
    for _ in range(num_devices - 1):
        src, blk = comm.recv(0)
        parts[src] = blk
    return np.vstack([parts[r] for r in range(num_devices)])


class FSDPWorker(threading.Thread):
    def __init__(self, comm, rank, n, a_chunk, shards, out_q, N):
        super().__init__()
        self.comm, self.rank, self.n, self.a_chunk = comm, rank, n, a_chunk
        self.shards, self.out_q, self.N = shards, out_q, N

    def run(self):
        r, n = self.rank, self.n
        offs = np.cumsum([0] + [s.shape[1] for s in self.shards])
        c = np.zeros((self.a_chunk.shape[0], self.N))
        k, sh = r, self.shards[r]
        for s in range(n):
            c[:, offs[k]:offs[k + 1]] = self.a_chunk @ sh
            if s < n - 1:
                self.comm.send(r, (r + 1) % n, (k, sh))
                _, (k, sh) = self.comm.recv(r)
        self.out_q.put((r, c))


def fsdp_mat_mul(a, b, num_devices):
    n = num_devices
    comm = Communicator(n)
    out_q = queue.Queue()
    chunks = np.array_split(a, n, axis=0)
    shards = np.array_split(b, n, axis=1)
    ws = [FSDPWorker(comm, r, n, chunks[r], shards, out_q, b.shape[1]) for r in range(n)]
    for w in ws:
        w.start()
    got = sorted(out_q.get() for _ in range(n))
    for w in ws:
        w.join()
    return np.vstack([c for _, c in got])
