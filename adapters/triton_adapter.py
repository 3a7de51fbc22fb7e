#!/usr/bin/env python3
"""Triton through flipcheck's adapter format (protocol.py), on the GPU: tl.max and tl.argmax in a
one-program kernel over a power-of-two block, on float16, bfloat16, float32 and float64. The
block's tail is masked with the identity (-inf for max, +inf for min), as Triton code does; an
index at or past n is reported as it is (it is wrong). Inputs longer than one block (2^14) are
answered "skip": the audit counts them and does not judge them."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

torch = triton = tl = None
TYPES = {}
KERNELS = {}


def load():
    global torch, triton, tl, TYPES
    import torch as t
    import triton as tr
    import triton.language as tlang
    if not t.cuda.is_available():
        raise RuntimeError("no CUDA device for Triton")
    torch, triton, tl = t, tr, tlang
    TYPES = {"binary16": (t.float16, t.int16), "bfloat16": (t.bfloat16, t.int16),
             "binary32": (t.float32, t.int32), "binary64": (t.float64, t.int64)}
    build()
    return f"{tr.__version__} (torch {t.__version__}, {t.cuda.get_device_name()})"


def build():
    @triton.jit
    def reduce_kernel(x_ptr, out_ptr, idx_ptr, n, IS_MAX: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        pad = float("-inf") if IS_MAX else float("inf")
        x = tl.load(x_ptr + offs, mask=offs < n, other=pad)
        if IS_MAX:
            tl.store(out_ptr, tl.max(x, axis=0))
            tl.store(idx_ptr, tl.argmax(x, axis=0))
        else:
            tl.store(out_ptr, tl.min(x, axis=0))
            tl.store(idx_ptr, tl.argmin(x, axis=0))
    KERNELS["reduce"] = reduce_kernel


def signed(b, width):
    return b - (1 << width) if b >= 1 << (width - 1) else b


MAX_BLOCK = 1 << 14  # one program's block; longer inputs are left out (counted, not judged)


def run(fmt, bits, is_max):
    if not bits:
        raise ValueError("a Triton block needs at least one element")
    if len(bits) > MAX_BLOCK:
        return protocol.Skip(f"longer than one {MAX_BLOCK}-element block"), protocol.Skip(f"longer than one {MAX_BLOCK}-element block")
    f, i = TYPES[fmt]
    w = protocol.WIDTH[fmt]
    x = torch.tensor([signed(b, w) for b in bits], dtype=i, device="cuda").view(f)
    out = torch.empty(1, dtype=f, device="cuda")
    idx = torch.empty(1, dtype=torch.int32, device="cuda")
    block = max(16, triton.next_power_of_2(len(bits)))
    KERNELS["reduce"][(1,)](x, out, idx, len(bits), IS_MAX=is_max, BLOCK=block)
    return out.view(i).item() & ((1 << w) - 1), int(idx.item())


def subjects():
    out = []
    for fmt, (f, _) in TYPES.items():
        name = str(f).replace("torch.", "")
        out += [(f"tl.max <{name}>", "value", "max", fmt, lambda b, fmt=fmt: run(fmt, b, True)[0]),
                (f"tl.argmax <{name}>", "arg", "max", fmt, lambda b, fmt=fmt: run(fmt, b, True)[1]),
                (f"tl.min <{name}>", "value", "min", fmt, lambda b, fmt=fmt: run(fmt, b, False)[0]),
                (f"tl.argmin <{name}>", "arg", "min", fmt, lambda b, fmt=fmt: run(fmt, b, False)[1])]
    return out


if __name__ == "__main__":
    protocol.main("Triton", load, subjects)
