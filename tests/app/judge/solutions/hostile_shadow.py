# Hostile: reads /etc/shadow and puts its first line in an exception, which
# the judge's report would print.  Confined, the code runs as an
# unprivileged uid (as root: 65534) and gets a PermissionError; the secret
# never reaches the report.
import threading
from queue import Queue

import numpy as np


class Communicator:
    def __init__(self, n):
        self.boxes = [Queue() for _ in range(n)]

    def send(self, src, dst, data):
        self.boxes[dst].put((src, data))

    def recv(self, dst):
        return self.boxes[dst].get()


def dp_mat_mul(a, b, num_devices):
    with open("/etc/shadow") as f:
        secret = f.readline().strip()
    raise ValueError("config: " + secret)
