# Receives into its own shard in place: the shards are views of B, so B is
# overwritten (and the ring reads garbage).
import threading
import numpy as np
from queue import Queue


def fsdp_mat_mul(a, b, num_devices):
    n = num_devices
    boxes = [Queue() for _ in range(n)]
    A = np.array_split(a, n, axis=0)
    S = np.array_split(b, n, axis=1)
    w = b.shape[1] // n
    out = [None] * n
    bar = threading.Barrier(n)

    def dev(r):
        c = np.zeros((A[r].shape[0], b.shape[1]))
        sh = S[r]
        for s in range(n):
            i = (r - s) % n
            c[:, i * w:(i + 1) * w] = A[r] @ sh
            if s < n - 1:
                boxes[(r + 1) % n].put((r, sh.copy()))
                got = boxes[r].get()[1]
                bar.wait()
                sh[:] = got
        out[r] = c

    ts = [threading.Thread(target=dev, args=(r,)) for r in range(n)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    return np.vstack(out)
