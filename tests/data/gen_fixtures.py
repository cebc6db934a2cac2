#!/usr/bin/python3
# Regenerates the .npy fixtures that tests/check_npy.c (and check_matfiles.c)
# reads.  Run from the repository root with a python that has numpy (1.24
# made the committed ones):
#   /usr/bin/python3 tests/data/gen_fixtures.py
# The values are the ones check_npy.c expects; change both together.
import numpy as np

D = "tests/data/"
F = [[0.1, -2.5], [1e-300, 3.0], [-0.0, 1.7976931348623157e308]]
I64 = [[1, -2], [2**40 + 1, 4], [-(2**53), 6]]
I32 = [[1, -2], [2**31 - 1, 4], [-(2**31), 6]]

np.save(D + "f64.npy", np.array(F, dtype="<f8"))
np.save(D + "f32.npy", np.array([[0.1, -2.5], [1e-30, 3.0], [-0.0, 3e38]], dtype="<f4"))
np.save(D + "i64.npy", np.array(I64, dtype="<i8"))
np.save(D + "i32.npy", np.array(I32, dtype="<i4"))
for ver in ((2, 0), (3, 0)):
	with open(D + "v%d.npy" % ver[0], "wb") as f:
		np.lib.format.write_array(f, np.array(F, dtype="<f8"), version=ver)
np.save(D + "fortran.npy", np.asfortranarray(np.array(F, dtype="<f8")))
np.save(D + "bigendian.npy", np.array(F, dtype=">f8"))
np.save(D + "1d.npy", np.array([1.0, 2.0, 3.0]))
np.save(D + "3d.npy", np.arange(8, dtype="<f8").reshape(2, 2, 2))
np.save(D + "bool.npy", np.array([[True, False], [False, True]]))
np.save(D + "complex.npy", np.array([[1 + 2j, 3], [4, 5j]], dtype="<c16"))
