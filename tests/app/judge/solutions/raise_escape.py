# An exception whose message carries terminal escape sequences (colour,
# and a sequence that would clear the screen): the report shows them escaped.
import numpy as np


def dp_mat_mul(a, b, num_devices):
    raise ValueError("\x1b[31mred alert\x1b[0m \x1b[2J cleared")
