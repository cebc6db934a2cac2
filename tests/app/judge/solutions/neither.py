# Defines the helpers, but neither dp_mat_mul nor fsdp_mat_mul.
import numpy as np


def matmul(a, b):
    return a @ b
