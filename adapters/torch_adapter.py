#!/usr/bin/env python3
"""PyTorch through flipcheck's adapter format (protocol.py), on the GPU when there is one:
max, min, amax, argmax, argmin, topk(1), sort, and scatter_reduce_/index_reduce_ (amax, amin) of every
element into one index (atomics under contention) on float16, bfloat16, float32 and float64; and the
conversions float32 -> float8 (e4m3fn, e5m2, and the fnuz pair), float16 and bfloat16 by
Tensor.to(dtype), on the GPU and on the CPU. What each declares is what PyTorch's c10 conversions
do by their comments: nearest even; float8 types without infinity overflow to NaN (not
saturating), e5m2 and the 16-bit types to infinity."""
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


def one_index(x, how, reduce):
    """Every element of x reduced into out[0] with include_self=False (out starts at the identity,
    -inf for amax, +inf for amin, and does not take part): on the GPU, every thread's atomic on one
    address."""
    out = torch.full((1,), float("-inf") if reduce == "amax" else float("inf"), dtype=x.dtype, device=x.device)
    index = torch.zeros(x.numel(), dtype=torch.long, device=x.device)
    if how == "scatter_reduce":
        return out.scatter_reduce_(0, index, x, reduce=reduce, include_self=False)
    return out.index_reduce_(0, index, x, reduce, include_self=False)


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
                ("torch.sort", "sort", "ascending", sort),
                # Atomics under contention: every element reduced into one address.
                ("torch.scatter_reduce_(amax), one index", "value", "max", value(lambda x: one_index(x, "scatter_reduce", "amax"))),
                ("torch.scatter_reduce_(amin), one index", "value", "min", value(lambda x: one_index(x, "scatter_reduce", "amin"))),
                ("torch.index_reduce_(amax), one index", "value", "max", value(lambda x: one_index(x, "index_reduce", "amax"))),
                ("torch.index_reduce_(amin), one index", "value", "min", value(lambda x: one_index(x, "index_reduce", "amin")))]
        out += [(f"{n} <{name}>", k, o, fmt, fn) for n, k, o, fn in subs]
    return out


def walk_inputs(first, n, device):
    """The binary32 patterns of magnitudes [first, first + n), + then -, made on the device."""
    m = torch.arange(first, first + n, dtype=torch.int64, device=device)
    x = torch.stack([m, m | 0x80000000], dim=1).reshape(-1)
    return torch.where(x >= 1 << 31, x - (1 << 32), x).to(torch.int32).view(torch.float32)


class Conversion:
    """dtype's conversion on a device: called on a NumPy array of bits, or walk_chunk_codes for a
    chunk of every input made on the device."""

    def __init__(self, dtype, device):
        self.dtype, self.device = dtype, device
        self.code = torch.uint8 if dtype.itemsize == 1 else torch.int16
        if device != "cuda":  # on the CPU, protocol.py's NumPy inputs are the faster ones
            self.walk_chunk_codes = None

    def codes(self, x):
        c = x.to(self.dtype).view(self.code).cpu().numpy()
        return c if self.code == torch.uint8 else c.view("uint16")

    def __call__(self, b):
        return self.codes(torch.from_numpy(b.view("int32")).to(self.device).view(torch.float32))

    def walk_chunk_codes(self, first, n):
        return self.codes(walk_inputs(first, n, self.device))


def conversions():
    types = [("float8_e4m3fn", "float8_e4m3fn", "nan"), ("float8_e5m2", "float8_e5m2", "infinity"),
             ("float8_e4m3fnuz", "float8_e4m3fnuz", "nan"), ("float8_e5m2fnuz", "float8_e5m2fnuz", "nan"),
             ("float16", "binary16", "infinity"), ("bfloat16", "bfloat16", "infinity")]
    out = []
    for device in (["cuda"] if DEVICE == "cuda" else []) + ["cpu"]:
        for name, element, overflow in types:
            if not hasattr(torch, name):
                continue
            out.append((f"torch .to({name}) ({device})", "binary32", element, {"round": "nearest_even", "saturate": overflow},
                        Conversion(getattr(torch, name), device)))
    return out


if __name__ == "__main__":
    protocol.main("PyTorch", load, subjects, conversions)
