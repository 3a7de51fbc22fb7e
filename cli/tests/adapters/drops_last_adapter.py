#!/usr/bin/env python3
"""A known-wrong framework for the adapter tests, in plain Python: its max loses the last element of
arrays longer than 8, so its witness shrinks (a call of this adapter a round) to 9 elements."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "adapters"))
import protocol  # noqa: E402


def value(bits):
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def drops_last(bits):
    if not bits:
        raise ValueError("empty")
    kept = bits[:-1] if len(bits) > 8 else bits
    best = kept[0]
    for b in kept[1:]:
        if value(b) > value(best):
            best = b
    return best


def main():
    protocol.main("DropsLast", lambda: "0.1", lambda: [("drops_last.max", "value", "max", "binary32", drops_last)])


if __name__ == "__main__":
    main()
