#!/usr/bin/env python3
"""A known-wrong framework for the adapter tests, in plain Python: its "max" is the first element.
It cannot take more than 1000 elements (skipped: counted, never judged)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "adapters"))
import protocol  # noqa: E402


def first(bits):
    if not bits:
        raise ValueError("empty")
    if len(bits) > 1000:
        return protocol.Skip("more than 1000 elements")
    return bits[0]


protocol.main("FirstElement", lambda: "0.1", lambda: [("first.max", "value", "max", "binary32", first)])
