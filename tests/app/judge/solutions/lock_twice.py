# A non-reentrant lock taken twice by the same thread (a helper that locks,
# called from inside the locked section): the rank waits for itself.
import threading
import numpy as np


def dp_mat_mul(a, b, num_devices):
    chunks = np.array_split(a, num_devices, axis=0)
    parts = [None] * num_devices
    lock = threading.Lock()

    def store(r, c):
        with lock:
            parts[r] = c

    def work(r):
        c = chunks[r] @ b
        with lock:
            store(r, c)

    ts = [threading.Thread(target=work, args=(r,)) for r in range(num_devices)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return np.vstack(parts)
