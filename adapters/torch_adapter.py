#!/usr/bin/env python3
"""PyTorch through flipcheck's adapter format (protocol.py), on the GPU when there is one:
max, min, amax, argmax, argmin, topk(1) and sort on float16, bfloat16, float32 and float64."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

torch = None
DEVICE = "cpu"
TYPES = {}


def load():
    global torch, DEVICE, TYPES
    import torch as t
    torch = t
    DEVICE = "cuda" if t.cuda.is_available() else "cpu"
    TYPES = {"binary16": (t.float16, t.int16), "bfloat16": (t.bfloat16, t.int16),
             "binary32": (t.float32, t.int32), "binary64": (t.float64, t.int64)}
    return f"{t.__version__} ({DEVICE}{', ' + t.cuda.get_device_name() if DEVICE == 'cuda' else ''})"


def signed(b, width):
    return b - (1 << width) if b >= 1 << (width - 1) else b


def tensor(fmt, bits):
    f, i = TYPES[fmt]
    w = protocol.WIDTH[fmt]
    return torch.tensor([signed(b, w) for b in bits], dtype=i, device=DEVICE).view(f)


def unsigned(fmt, t):
    w = protocol.WIDTH[fmt]
    return [v & ((1 << w) - 1) for v in t.view(TYPES[fmt][1]).cpu().tolist()]


def subjects():
    out = []
    for fmt, (f, _) in TYPES.items():
        name = str(f).replace("torch.", "")

        def value(fn, fmt=fmt):
            return lambda b: unsigned(fmt, fn(tensor(fmt, b)).reshape(1))[0]

        def arg(fn, fmt=fmt):
            return lambda b: int(fn(tensor(fmt, b)).item())

        def sort(b, fmt=fmt):
            return unsigned(fmt, torch.sort(tensor(fmt, b)).values)

        subs = [("torch.max", "value", "max", value(torch.max)),
                ("torch.min", "value", "min", value(torch.min)),
                ("torch.amax", "value", "max", value(torch.amax)),
                ("torch.argmax", "arg", "max", arg(torch.argmax)),
                ("torch.argmin", "arg", "min", arg(torch.argmin)),
                ("torch.topk(k=1)", "value", "max", value(lambda x: torch.topk(x, 1).values)),
                ("torch.topk(k=1) index", "arg", "max", arg(lambda x: torch.topk(x, 1).indices[0])),
                ("torch.sort", "sort", "ascending", sort)]
        out += [(f"{n} <{name}>", k, o, fmt, fn) for n, k, o, fn in subs]
    return out


if __name__ == "__main__":
    protocol.main("PyTorch", load, subjects)
