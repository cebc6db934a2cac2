# Correct numbers, but each rank sends after its last step too: n sends, n - 1
# receives: one message a rank is left in the inboxes.
import threading
import numpy as np
from queue import Queue


def fsdp_mat_mul(a, b, num_devices):
    n = num_devices
    boxes = [Queue() for _ in range(n)]
    A = np.array_split(a, n, axis=0)
    S = np.array_split(b, n, axis=1)
    offs = np.cumsum([0] + [s.shape[1] for s in S])
    out = [None] * n

    def dev(r):
        c = np.zeros((A[r].shape[0], b.shape[1]))
        k, sh = r, S[r]
        for s in range(n):
            c[:, offs[k]:offs[k + 1]] = A[r] @ sh
            boxes[(r + 1) % n].put((r, (k, sh)))
            if s < n - 1:
                _, (k, sh) = boxes[r].get()
        out[r] = c

    ts = [threading.Thread(target=dev, args=(r,)) for r in range(n)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    return np.vstack(out)
