#!/usr/bin/python3
"""peer: the exercise solved the way a candidate would, for `make bench` to
race the whole program against.  The starter's Communicator (send/recv over
queue.Queue), one thread a device, np.array_split for the shards, FSDP's
(owner, shard) tuples round the ring, DP's gather to rank 0, and the
driver's own check: np.allclose(result, a @ b).  Run as a whole process:

    /usr/bin/python3 tests/bench/peer.py M K N D fsdp|dp

(Debian's python3 has numpy; the first python3 on PATH may not.)  It prints
one line and exits 0 when allclose holds, 1 when it does not.  Nothing here
is tuned against the program: it is the obvious solution, with views where
numpy gives them for free (array_split returns views).

    /usr/bin/python3 tests/bench/peer.py M K N D fsdp|dp --train

is the training step the same way, as a candidate extends the starter when
the interviewer asks for the backward: dC from the same generator, then
dA = dC @ B.T and dB = A.T @ dC.  FSDP gathers B round the ring again for
dA, then reduce-scatters dB's column chunks (at step s rank r sends the
running sum of chunk (r - s - 1) mod n right and adds its own part into
the one that comes); DP all-reduces dB round the same ring (the
reduce-scatter, then the summed chunks passed on).  Rank 0 gathers C, dA
and dB, and the check is allclose against the three sequential products.
A message carries what it is, so that rank 0 can tell a gathered block
from a ring message still on its way (one inbox a rank)."""
import sys
import threading
from queue import Queue

import numpy as np


class Communicator:
    """Simulates inter-device communication using Queues (the starter's)."""

    def __init__(self, num_devices):
        self.num_devices = num_devices
        self.inboxes = [Queue() for _ in range(num_devices)]

    def send(self, src, dst, data):
        self.inboxes[dst].put((src, data))

    def recv(self, dst):
        return self.inboxes[dst].get()


def _gather(comm, rank, num_devices, c_rows, result):
    """Every rank's rows of C to rank 0, which stacks them in rank order."""
    if rank != 0:
        comm.send(rank, 0, c_rows)
        return
    parts = [None] * num_devices
    parts[0] = c_rows
    for _ in range(num_devices - 1):
        src, rows = comm.recv(0)
        parts[src] = rows
    result[0] = np.concatenate(parts, axis=0)


def _dp_compute(comm, rank, num_devices, a_chunk, b, result):
    _gather(comm, rank, num_devices, a_chunk @ b, result)


def dp_mat_mul(a, b, num_devices):
    comm = Communicator(num_devices)
    result = [None]
    a_chunks = np.array_split(a, num_devices, axis=0)
    threads = [threading.Thread(target=_dp_compute,
                                args=(comm, r, num_devices, a_chunks[r], b, result))
               for r in range(num_devices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result[0]


def _fsdp_compute(comm, rank, num_devices, a_chunk, shard, col_offsets, col_sizes, n_cols,
                  result):
    out = np.zeros((a_chunk.shape[0], n_cols), dtype=np.result_type(a_chunk, shard))
    owner = rank
    for step in range(num_devices):
        c0 = col_offsets[owner]
        out[:, c0:c0 + col_sizes[owner]] = a_chunk @ shard
        if step == num_devices - 1:
            break
        # Queue() is unbounded: sending first cannot block
        comm.send(rank, (rank + 1) % num_devices, (owner, shard))
        _, (owner, shard) = comm.recv(rank)
    _gather(comm, rank, num_devices, out, result)


def fsdp_mat_mul(a, b, num_devices):
    comm = Communicator(num_devices)
    result = [None]
    a_chunks = np.array_split(a, num_devices, axis=0)
    b_shards = np.array_split(b, num_devices, axis=1)
    col_sizes = [s.shape[1] for s in b_shards]
    col_offsets = [sum(col_sizes[:i]) for i in range(num_devices)]
    threads = [threading.Thread(target=_fsdp_compute,
                                args=(comm, r, num_devices, a_chunks[r], b_shards[r],
                                      col_offsets, col_sizes, b.shape[1], result))
               for r in range(num_devices)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result[0]


class Inbox:
    """One rank's messages by kind: a message of another kind than the one
    awaited is kept for later (the starter's inbox is one Queue a rank)."""

    def __init__(self, comm, rank):
        self.comm, self.rank, self.kept = comm, rank, []

    def recv(self, kind):
        for i, (k, payload) in enumerate(self.kept):
            if k == kind:
                del self.kept[i]
                return payload
        while True:
            _, (k, payload) = self.comm.recv(self.rank)
            if k == kind:
                return payload
            self.kept.append((k, payload))


def _ring_gather_b(comm, inbox, rank, n, shard, use):
    """Passes B's shards round the ring; use(owner, shard) at each step."""
    owner, held = rank, shard
    for step in range(n):
        use(owner, held)
        if step == n - 1:
            break
        comm.send(rank, (rank + 1) % n, ("b", (owner, held)))
        owner, held = inbox.recv("b")


def _reduce_scatter(comm, inbox, rank, n, chunks):
    """Ring reduce-scatter in place: chunks[rank] ends summed over all ranks."""
    for step in range(n - 1):
        send = (rank - step - 1) % n
        comm.send(rank, (rank + 1) % n, ("rs", (send, chunks[send])))
        idx, part = inbox.recv("rs")
        chunks[idx] = chunks[idx] + part


def _all_gather(comm, inbox, rank, n, chunks):
    """Passes the summed chunks on: every rank ends with all of them."""
    for step in range(n - 1):
        send = (rank - step) % n
        comm.send(rank, (rank + 1) % n, ("ag", (send, chunks[send])))
        idx, part = inbox.recv("ag")
        chunks[idx] = part


def _train_gather(comm, inbox, rank, n, pieces, result):
    """Every rank's (C rows, dA rows, dB chunk or None) to rank 0."""
    if rank != 0:
        comm.send(rank, 0, ("gather", (rank, pieces)))
        return
    parts = [None] * n
    parts[0] = pieces
    for _ in range(n - 1):
        src, got = inbox.recv("gather")
        parts[src] = got
    result[0] = np.concatenate([p[0] for p in parts], axis=0)
    result[1] = np.concatenate([p[1] for p in parts], axis=0)
    if parts[0][2] is not None:
        result[2] = np.concatenate([p[2] for p in parts], axis=1)


def _fsdp_train(comm, rank, n, a_chunk, shard, dc_chunk, col_offsets, col_sizes, result):
    inbox = Inbox(comm, rank)
    c = np.zeros((a_chunk.shape[0], dc_chunk.shape[1]))
    da = np.zeros(a_chunk.shape)

    def fwd(owner, held):
        c0 = col_offsets[owner]
        c[:, c0:c0 + col_sizes[owner]] = a_chunk @ held

    def bwd(owner, held):
        c0 = col_offsets[owner]
        da[:] += dc_chunk[:, c0:c0 + col_sizes[owner]] @ held.T

    _ring_gather_b(comm, inbox, rank, n, shard, fwd)
    _ring_gather_b(comm, inbox, rank, n, shard, bwd)  # gathered again: freed after the forward
    g = a_chunk.T @ dc_chunk
    chunks = [g[:, col_offsets[i]:col_offsets[i] + col_sizes[i]] for i in range(n)]
    _reduce_scatter(comm, inbox, rank, n, chunks)
    _train_gather(comm, inbox, rank, n, (c, da, chunks[rank]), result)


def _dp_train(comm, rank, n, a_chunk, b, dc_chunk, col_offsets, col_sizes, result):
    inbox = Inbox(comm, rank)
    c = a_chunk @ b
    da = dc_chunk @ b.T
    g = a_chunk.T @ dc_chunk
    chunks = [g[:, col_offsets[i]:col_offsets[i] + col_sizes[i]] for i in range(n)]
    _reduce_scatter(comm, inbox, rank, n, chunks)
    _all_gather(comm, inbox, rank, n, chunks)
    _train_gather(comm, inbox, rank, n, (c, da, None), result)
    if rank == 0:
        result[2] = np.concatenate(chunks, axis=1)


def train_step(a, b, dc, num_devices, mode):
    comm = Communicator(num_devices)
    result = [None, None, None]
    a_chunks = np.array_split(a, num_devices, axis=0)
    dc_chunks = np.array_split(dc, num_devices, axis=0)
    b_shards = np.array_split(b, num_devices, axis=1)
    col_sizes = [s.shape[1] for s in b_shards]
    col_offsets = [sum(col_sizes[:i]) for i in range(num_devices)]
    threads = []
    for r in range(num_devices):
        if mode == "fsdp":
            args = (comm, r, num_devices, a_chunks[r], b_shards[r], dc_chunks[r],
                    col_offsets, col_sizes, result)
            threads.append(threading.Thread(target=_fsdp_train, args=args))
        else:
            args = (comm, r, num_devices, a_chunks[r], b, dc_chunks[r], col_offsets,
                    col_sizes, result)
            threads.append(threading.Thread(target=_dp_train, args=args))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return result


def main():
    argv = sys.argv[1:]
    train = "--train" in argv
    if train:
        argv.remove("--train")
    if len(argv) != 5 or argv[4] not in ("fsdp", "dp"):
        sys.stderr.write("usage: peer.py M K N D fsdp|dp [--train]\n")
        return 2
    m, k, n, d = (int(v) for v in argv[:4])
    mode = argv[4]
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k))
    b = rng.standard_normal((k, n))
    if train:
        dc = rng.standard_normal((m, n))
        c, da, db = train_step(a, b, dc, d, mode)
        ok = (np.allclose(c, a @ b) and np.allclose(da, dc @ b.T) and
              np.allclose(db, a.T @ dc))
    else:
        mul = fsdp_mat_mul if mode == "fsdp" else dp_mat_mul
        ok = np.allclose(mul(a, b, d), a @ b)
    print("peer: %s%s %dx%dx%d d=%d allclose %s" % (mode, " --train" if train else "", m, k,
                                                     n, d, ok))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
