#!/usr/bin/env python3
"""NumPy through flipcheck's adapter format (protocol.py): max, min, argmax, argmin, nanmax,
fmax.reduce and sort on float16, float32 and float64 (NumPy has no bfloat16); and the conversion
float32 -> float16 (astype), which NumPy documents as IEEE's round to nearest even."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

np = None
TYPES = {"binary16": ("float16", "uint16"), "binary32": ("float32", "uint32"), "binary64": ("float64", "uint64")}


def load():
    global np
    import numpy
    np = numpy
    return numpy.__version__


def array(fmt, bits):
    f, u = TYPES[fmt]
    return np.array(bits, dtype=u).view(f)


def bits(fmt, x):
    return int(np.asarray(x, dtype=TYPES[fmt][0]).reshape(()).view(TYPES[fmt][1]))


def subjects():
    out = []
    for fmt in TYPES:
        def value(f, fmt=fmt):
            return lambda b: bits(fmt, f(array(fmt, b)))

        def arg(f, fmt=fmt):
            return lambda b: int(f(array(fmt, b)))

        def sort(b, fmt=fmt):
            return [int(v) for v in np.sort(array(fmt, b)).view(TYPES[fmt][1])]

        out += [
            ("numpy.max", "value", "max", fmt, value(np.max)),
            ("numpy.min", "value", "min", fmt, value(np.min)),
            ("numpy.argmax", "arg", "max", fmt, arg(np.argmax)),
            ("numpy.argmin", "arg", "min", fmt, arg(np.argmin)),
            ("numpy.nanmax", "value", "max", fmt, value(np.nanmax)),
            ("numpy.fmax.reduce", "value", "max", fmt, value(np.fmax.reduce)),
            ("numpy.sort", "sort", "ascending", fmt, sort),
        ]
    return [(f"{n} <{TYPES[fmt][0]}>" if fmt != "binary32" else n, k, o, fmt, fn) for n, k, o, fmt, fn in out]


def conversions():
    return [("numpy astype(float16)", "binary32", "binary16", {"round": "nearest_even", "saturate": "infinity"},
             lambda b: b.view(np.float32).astype(np.float16).view(np.uint16))]


if __name__ == "__main__":
    protocol.main("NumPy", load, subjects, conversions, processes=True)
