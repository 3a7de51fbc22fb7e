#!/usr/bin/env python3
"""Users' functions for `flipcheck check --adapter` tests, in plain Python (no framework): each
declares a policy; the right ones keep it and the known-wrong ones break it the way real code did.
The bits come in as ints and go out as ints (protocol.py)."""
import math
import os
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "adapters"))
import protocol  # noqa: E402

SIGN = 0x80000000


def value(b):
    return struct.unpack("<f", struct.pack("<I", b))[0]


def key(b):
    """Order-preserving: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN (the sign bit decides)."""
    return b ^ 0xFFFFFFFF if b & SIGN else b | SIGN


def is_nan(b):
    return (b & 0x7FFFFFFF) > 0x7F800000


_slow = [float(os.environ.get("FLIPCHECK_TEST_SLOW", "0"))]


def right_max(bits):
    """nan=propagate zero=ordered: a NaN if there is one, else the greatest under -0 < +0.
    With FLIPCHECK_TEST_SLOW=S its first call takes S seconds (cli/tests/progress_test.sh)."""
    if _slow[0]:
        time.sleep(_slow[0])
        _slow[0] = 0
    if not bits:
        return None
    nans = [b for b in bits if is_nan(b)]
    return nans[0] if nans else max(bits, key=key)


def argmax_by(bits, k):
    """The first index of the greatest k(bits[i]); None on no element."""
    if not bits:
        return None
    best = 0
    for i, b in enumerate(bits):
        if k(b) > k(bits[best]):
            best = i
    return best


def right_argmax(bits):
    """nan=propagate zero=ordered ties=lowest_index: the first NaN above every number."""
    return argmax_by(bits, lambda b: 1 << 33 if is_nan(b) else key(b))


def max_by_comparison(bits):
    """Python's max() on the floats: a NaN wins only where it comes first (comparisons with it are false)."""
    if not bits:
        return None
    best = bits[0]
    for b in bits[1:]:
        if value(b) > value(best):
            best = b
    return best


def argmax_sign_by_comparison(bits):
    """The key made with `x >= 0` on the float instead of the sign bit (triton#6376's shape): -0.0 >= 0
    holds, so -0 gets +0's key and the two zeros tie."""
    def k(b):
        if is_nan(b):
            return 1 << 33
        return b | SIGN if value(b) >= 0 else b ^ 0xFFFFFFFF
    return argmax_by(bits, k)


def right_amax(bits):
    """max |x| with nan=propagate: clearing the sign bit puts every NaN above +inf."""
    return max((b & 0x7FFFFFFF for b in bits), default=0)


def amax_by_abs_comparison(bits):
    """max(abs(x)) by float comparison from 0: NaNs compare false and drop out."""
    best = 0
    for b in bits:
        if abs(value(b)) > value(best):
            best = b & 0x7FFFFFFF
    return best


def subjects():
    return [
        ("right.max", "value", "max", "binary32", right_max, "nan=propagate zero=ordered"),
        ("right.argmax", "arg", "max", "binary32", right_argmax, "nan=propagate zero=ordered ties=lowest_index"),
        ("right.amax", "amax", "", "binary32", right_amax, "nan=propagate"),
        ("wrong.max_by_comparison", "value", "max", "binary32", max_by_comparison, "nan=propagate zero=ordered"),
        ("wrong.argmax_sign_by_comparison", "arg", "max", "binary32", argmax_sign_by_comparison,
         "nan=propagate zero=ordered ties=lowest_index"),
        ("wrong.amax_by_abs_comparison", "amax", "", "binary32", amax_by_abs_comparison, "nan=propagate"),
        ("undeclared.max", "value", "max", "binary32", right_max),  # declares nothing: not checked unless --policy
    ]


if __name__ == "__main__":
    protocol.main("PlainPython", lambda: "%d.%d" % sys.version_info[:2], subjects)
