#!/usr/bin/env python3
"""Known-wrong conversions for the conversion audit's tests (NumPy): float32 -> bfloat16 by
dropping the low half (truncation; a NaN whose payload is all in the low half becomes infinity),
and float32 -> float16 with the float16 subnormals flushed to zero; both declare IEEE's nearest
even. And two right ones (NumPy's astype(float16), and a saturating one: clip to +-65504 first),
so that rows can pass and differ from each other."""
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


def flushed(b):
    h = b.view(np.float32).astype(np.float16).view(np.uint16)
    return np.where((h & 0x7c00) == 0, h & 0x8000, h).astype(np.uint16)


def conversions():
    rn = {"round": "nearest_even", "saturate": "infinity"}
    return [("truncated bfloat16", "binary32", "bfloat16", rn, lambda b: (b >> 16).astype(np.uint16)),
            ("flushed float16", "binary32", "binary16", rn, flushed),
            ("right float16", "binary32", "binary16", rn, lambda b: b.view(np.float32).astype(np.float16).view(np.uint16)),
            ("saturating float16", "binary32", "binary16", {"round": "nearest_even", "saturate": "finite"},
             lambda b: np.clip(b.view(np.float32), -65504, 65504).astype(np.float16).view(np.uint16))]


protocol.main("WrongConversions", load, lambda: [], conversions)
