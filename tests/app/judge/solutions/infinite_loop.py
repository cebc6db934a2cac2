# An infinite loop without communication: rank 0 spins forever waiting on a
# flag nobody sets.  Only the time limit ends it.
import threading
import numpy as np


def fsdp_mat_mul(a, b, num_devices):
    done = [False]
    out = [None]

    def dev(r):
        while not done[0]:
            pass

    ts = [threading.Thread(target=dev, args=(r,)) for r in range(num_devices)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return out[0]
