# Hostile: makes numpy's comparisons always say yes, then returns zeros.
# The judge compares the returned bytes with its own product in C, so the
# patch changes nothing: a wrong result.
import numpy as np

np.allclose = lambda *a, **k: True
np.isclose = lambda a, b, *x, **k: np.ones(np.broadcast(a, b).shape, dtype=bool)
np.array_equal = lambda *a, **k: True


def dp_mat_mul(a, b, num_devices):
    return np.zeros((a.shape[0], b.shape[1]))


def fsdp_mat_mul(a, b, num_devices):
    return np.zeros((a.shape[0], b.shape[1]))
