# A driver at the top level, not under if __name__ == "__main__": loading the
# file runs it, and it never ends (a receive nobody sends to).
from queue import Queue
import numpy as np


def fsdp_mat_mul(a, b, num_devices):
    return a @ b


box = Queue()
box.get()
