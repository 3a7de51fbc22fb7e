#!/usr/bin/env python3
"""A known-wrong framework that breaks when the audit asks again: the drops_last max (its witness
needs shrinking), answering the first call (the battery, with its 100000-element array) and exiting
3 on any call without such an array (a shrink round). The audit must keep its rows, with the
witnesses unshrunk, and say why."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import drops_last_adapter  # noqa: E402

if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        if max(len(c["bits"]) for c in json.load(f)["cases"]) < 1000:
            sys.exit(3)
    drops_last_adapter.main()
