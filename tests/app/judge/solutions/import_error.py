# Imports a package that is not there: loading fails on line 4.
import numpy as np

import torch


def dp_mat_mul(a, b, num_devices):
    return a @ b
