#!/usr/bin/env python3
"""Subjects for `flipcheck check --adapter` that break instead of answering: each fails on an input
of two elements or more (it raises, exits, hangs, or prints to standard output), declaring a policy
it would otherwise keep. `--serve-badly` variants break the protocol itself (see the tests)."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "adapters"))
import protocol  # noqa: E402


def first_of_one(bits):
    return bits[0] if bits else None


def raises(bits):
    if len(bits) >= 2:
        raise ValueError("cannot take more than one element")
    return first_of_one(bits)


def exits(bits):
    if len(bits) >= 2:
        os._exit(3)
    return first_of_one(bits)


def hangs(bits):
    if len(bits) >= 2:
        time.sleep(3600)
    return first_of_one(bits)


printed = False


def prints(bits):
    global printed
    if not printed:
        print("debug output from the user's function")  # must not break the protocol's lines
        printed = True
    return max(bits, key=lambda b: b ^ 0xFFFFFFFF if b & 0x80000000 else b | 0x80000000) if bits else None


MODE = os.environ.get("MISBEHAVE", "")
if MODE == "no_serve":  # an adapter written before --serve: it takes CASES ANSWERS only
    if "--serve" in sys.argv:
        sys.exit("usage: misbehaving_served_adapter.py CASES ANSWERS")
if MODE == "garbage":
    print("this is not JSON")
    sys.stdout.flush()
    time.sleep(5)
    sys.exit(0)

P = "nan=total_order zero=ordered"
protocol.main("Misbehaving", lambda: "0", lambda: [
    ("raises", "value", "max", "binary32", raises, P),
    ("exits", "value", "max", "binary32", exits, P),
    ("hangs", "value", "max", "binary32", hangs, P),
    ("prints", "value", "max", "binary32", prints, P),
])
