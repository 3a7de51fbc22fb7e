#!/usr/bin/env python3
"""Triton through flipcheck's adapter format (protocol.py), on the GPU: tl.max and tl.argmax in a
one-program kernel over a power-of-two block, and tl.atomic_max/atomic_min of every element into one
address (a program an element: atomics under contention; on each dtype this Triton compiles them
for), on float16, bfloat16, float32 and float64. The
block's tail is masked with the identity (-inf for max, +inf for min), as Triton code does; an
index at or past n is reported as it is (it is wrong). Inputs longer than one block (2^14) are
answered "skip": the audit counts them and does not judge them. And the conversions float32 ->
tl.float8e4nv, tl.float8e5, tl.float16 and tl.bfloat16 by x.to(dtype, fp_downcast_rounding=...) in a
kernel, declared as the PTX Triton emits for them on sm_90: cvt.rn.satfinite for the float8 types
(saturating), cvt.rn / cvt.rz for the 16-bit ones (overflow to infinity, or to the largest value
toward zero)."""
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

    @triton.jit
    def convert_kernel(x_ptr, y_ptr, n, DTYPE: tl.constexpr, ROUND: tl.constexpr, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        x = tl.load(x_ptr + offs, mask=mask)
        tl.store(y_ptr + offs, x.to(DTYPE, fp_downcast_rounding=ROUND), mask=mask)
    KERNELS["convert"] = convert_kernel

    @triton.jit
    def atomic_kernel(x_ptr, out_ptr, IS_MAX: tl.constexpr):
        x = tl.load(x_ptr + tl.program_id(0))
        if IS_MAX:
            tl.atomic_max(out_ptr, x)
        else:
            tl.atomic_min(out_ptr, x)
    KERNELS["atomic"] = atomic_kernel


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


def atomic(fmt, bits, is_max):
    """tl.atomic_max/min of every element into one address, a program an element (every program
    on one address), the address starting at the identity (-inf for max, +inf for min)."""
    f, i = TYPES[fmt]
    w = protocol.WIDTH[fmt]
    out = torch.full((1,), float("-inf") if is_max else float("inf"), dtype=f, device="cuda")
    if bits:
        x = torch.tensor([signed(b, w) for b in bits], dtype=i, device="cuda").view(f)
        KERNELS["atomic"][(len(bits),)](x, out, IS_MAX=is_max)
    return out.view(i).item() & ((1 << w) - 1)


def compiles(fmt, is_max):
    """Whether this Triton compiles tl.atomic_max/min on the dtype (it takes fewer dtypes than tl.max)."""
    try:
        atomic(fmt, [{"binary16": 0x3C00, "bfloat16": 0x3F80, "binary32": 0x3F800000, "binary64": 0x3FF0000000000000}[fmt]], is_max)
        return True
    except Exception:  # noqa: BLE001 - a compile error, whatever Triton raises for it
        return False


def subjects():
    out = []
    for fmt, (f, _) in TYPES.items():
        name = str(f).replace("torch.", "")
        for op, is_max in (("max", True), ("min", False)):
            if compiles(fmt, is_max):
                out.append((f"tl.atomic_{op}, one address <{name}>", "value", op, fmt, lambda b, fmt=fmt, is_max=is_max: atomic(fmt, b, is_max)))
        out += [(f"tl.max <{name}>", "value", "max", fmt, lambda b, fmt=fmt: run(fmt, b, True)[0]),
                (f"tl.argmax <{name}>", "arg", "max", fmt, lambda b, fmt=fmt: run(fmt, b, True)[1]),
                (f"tl.min <{name}>", "value", "min", fmt, lambda b, fmt=fmt: run(fmt, b, False)[0]),
                (f"tl.argmin <{name}>", "arg", "min", fmt, lambda b, fmt=fmt: run(fmt, b, False)[1])]
    return out


class Conversion:
    """x.to(dtype, fp_downcast_rounding=rounding) in convert_kernel: on a NumPy array of bits, or on
    a chunk of every input made on the GPU (walk_chunk_codes)."""

    def __init__(self, tl_type, torch_type, rounding):
        self.tl_type, self.torch_type, self.rounding = tl_type, torch_type, rounding

    def codes(self, x):
        y = torch.empty(x.numel(), dtype=self.torch_type, device="cuda")
        block = 1024
        KERNELS["convert"][(triton.cdiv(x.numel(), block),)](x, y, x.numel(), DTYPE=self.tl_type, ROUND=self.rounding, BLOCK=block)
        if self.torch_type.itemsize == 1:
            return y.view(torch.uint8).cpu().numpy()
        return y.view(torch.int16).cpu().numpy().view("uint16")

    def __call__(self, b):
        return self.codes(torch.from_numpy(b.view("int32")).cuda().view(torch.float32))

    def walk_chunk_codes(self, first, n):
        m = torch.arange(first, first + n, dtype=torch.int64, device="cuda")
        x = torch.stack([m, m | 0x80000000], dim=1).reshape(-1)
        return self.codes(torch.where(x >= 1 << 31, x - (1 << 32), x).to(torch.int32).view(torch.float32))


def conversions():
    types = [("float8e4nv", "float8_e4m3fn", "rtne", "nearest_even", "finite"), ("float8e5", "float8_e5m2", "rtne", "nearest_even", "finite"),
             ("float16", "float16", "rtne", "nearest_even", "infinity"), ("float16", "float16", "rtz", "toward_zero", "infinity"),
             ("bfloat16", "bfloat16", "rtne", "nearest_even", "infinity"), ("bfloat16", "bfloat16", "rtz", "toward_zero", "infinity")]
    element = {"float8e4nv": "float8_e4m3fn", "float8e5": "float8_e5m2", "float16": "binary16", "bfloat16": "bfloat16"}
    torch_type = {"float8e4nv": torch.float8_e4m3fn, "float8e5": torch.float8_e5m2, "float16": torch.float16, "bfloat16": torch.bfloat16}
    return [(f"x.to(tl.{t}, fp_downcast_rounding=\"{r}\")", "binary32", element[t], {"round": rd, "saturate": sat},
             Conversion(getattr(tl, t), torch_type[t], r)) for t, _, r, rd, sat in types]


if __name__ == "__main__":
    protocol.main("Triton", load, subjects, conversions)
