#!/usr/bin/env python3
"""Two binary32 -> bfloat16 conversions in NumPy integer arithmetic, fast enough to stream all 2^32
inputs in a test: the textbook rounding (add 0x7fff plus the kept half's low bit, keep the high
half; NaNs made quiet), right by construction, and truncation (keep the high half), known wrong:
a NaN whose payload is all in the low half becomes infinity, and everything else rounds toward
zero. Both declare IEEE's nearest even with overflow to infinity."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "adapters"))
import protocol  # noqa: E402

np = None


def load():
    global np
    import numpy
    np = numpy
    return "0.1"


def rounded(b):
    u = b.astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = (b & 0x7FFFFFFF) > 0x7F800000
    return np.where(nan, ((b >> 16) | 0x40).astype(np.uint16), r)


def conversions():
    rn = {"round": "nearest_even", "saturate": "infinity"}
    return [("rounded bfloat16", "binary32", "bfloat16", rn, rounded),
            ("truncated bfloat16", "binary32", "bfloat16", rn, lambda b: (b >> 16).astype(np.uint16))]


protocol.main("Bfloat16Bits", load, lambda: [], conversions)
