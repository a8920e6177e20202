#!/usr/bin/env python3
"""NumPy and clarray read each other's .npy files (the ctest npy_numpy_interop).

Usage: npy_numpy_check.py CLARRAY_TESTS WORK_DIR

Writes arrays with numpy.save into WORK_DIR, runs the hidden Catch2 case "[.npy_numpy]" of
CLARRAY_TESTS, which loads each file onto the device and writes it back (and a strided view of it),
then checks with numpy.load that what clarray wrote equals what NumPy wrote.
"""
import os
import shutil
import subprocess
import sys

import numpy as np


def main():
    exe, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = np.random.default_rng(7)
    arrays = {
        "f4": rng.standard_normal((5, 7)).astype(np.float32),
        "f8_fortran": np.asfortranarray(rng.standard_normal((4, 6))),
        "b1": rng.integers(0, 2, (3, 5)).astype(bool),
        "i8_3d": rng.integers(-1000, 1000, (3, 4, 5)).astype(np.int64),
        "i4_big_endian": rng.integers(-1000, 1000, (6, 2)).astype(">i4"),
        "u1_0d": np.array(200, dtype=np.uint8),
        "i2_empty": np.zeros((0, 3), dtype=np.int16),
    }
    for name, a in arrays.items():
        np.save(os.path.join(work, name + ".npy"), a)
    env = dict(os.environ, CLARRAY_NPY_DIR=work)
    subprocess.run([exe, "[.npy_numpy]"], env=env, check=True)
    failures = 0
    for name, a in arrays.items():
        back = np.load(os.path.join(work, name + ".back.npy"))
        expected = [("back", a, back)]
        if a.ndim >= 2:
            view = np.load(os.path.join(work, name + ".view.npy"))
            expected.append(("view", a[::-1, ::2].T, view))
        for what, want, got in expected:
            same = (got.dtype == want.dtype.newbyteorder("=") and got.shape == want.shape
                    and np.array_equal(got, want) and got.flags.c_contiguous)
            print(f"{name}.{what}: {'ok' if same else 'DIFFERENT'} ({got.dtype}, {got.shape})")
            failures += not same
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
