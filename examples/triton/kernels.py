#!/usr/bin/env python3
"""Triton amax and argmax kernels as a user writes them, each right and known-wrong, checked by
flipcheck against the policy each declares (GPU; Triton and PyTorch):

    flipcheck check --adapter 'python3 examples/triton/kernels.py'      # all four
    python3 -m pytest examples/triton/test_kernels.py                   # one test per kernel

- amax (max |x| over any n, a block a program, combined by an integer atomic_max on the bits):
  `amax_bits` clears the sign bit and takes the integer max, so every NaN (whose magnitude bits
  exceed +inf's) wins: nan=propagate. `amax_float_max` takes tl.max of tl.abs(x) and a float
  atomic_max: tl.max of a block with a NaN need not be a NaN (docs/audit_gpu.md, tl.max rows).
- argmax (one program walking the array a block at a time, keeping the first best index):
  `argmax_sign_bit` keys each float by its sign bit (b < 0 as int32: the magnitude bits flipped),
  NaN above all: nan=propagate zero=ordered ties=lowest_index. `argmax_sign_test` makes the
  same key with `x >= 0` on the float, the shape of triton#6376: -0.0 >= 0 holds, so -0.0 keeps
  its raw bits, INT32_MIN, and loses to every other value, -inf included.

Each function takes the input's bit patterns and returns the answer's bits (or index), as
adapters/README.md says; flipcheck_pytest's bits_to_torch/torch_to_bits convert.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The adapters' folder: $FLIPCHECK_ADAPTERS, the source tree's, or an installed copy's.
for d in (os.environ.get("FLIPCHECK_ADAPTERS"), os.path.join(HERE, "..", "..", "adapters"),
          os.path.join(HERE, "..", "adapters")):
    if d and os.path.isfile(os.path.join(d, "protocol.py")):
        sys.path.insert(0, d)
        break
import flipcheck_pytest as fc  # noqa: E402
import protocol  # noqa: E402

torch = triton = tl = None
K = {}
BLOCK = 1024


def load():
    global torch, triton, tl
    import torch as t
    import triton as tr
    import triton.language as tlang
    if not t.cuda.is_available():
        raise RuntimeError("no CUDA device for Triton")
    torch, triton, tl = t, tr, tlang
    build()
    return f"{tr.__version__} (torch {t.__version__}, {t.cuda.get_device_name()})"


def build():
    @triton.jit
    def amax_bits_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        magnitude = x.to(tl.int32, bitcast=True) & 0x7FFFFFFF  # |x|'s bits: +0 .. +inf < every NaN
        tl.atomic_max(out_ptr, tl.max(magnitude, axis=0))
    K["amax_bits"] = amax_bits_kernel

    @triton.jit
    def amax_float_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.atomic_max(out_ptr, tl.max(tl.abs(x), axis=0))
    K["amax_float"] = amax_float_kernel

    @triton.jit
    def argmax_kernel(x_ptr, out_ptr, n, SIGN_TEST: tl.constexpr, BLOCK: tl.constexpr):
        best_key = tl.full((), -(1 << 40), tl.int64)
        best_index = tl.full((), 0, tl.int64)
        for start in range(0, n, BLOCK):
            offs = start + tl.arange(0, BLOCK)
            inside = offs < n
            x = tl.load(x_ptr + offs, mask=inside, other=0.0)
            b = x.to(tl.int32, bitcast=True)
            if SIGN_TEST:
                negative = x < 0  # the wrong test: -0.0 is not < 0
            else:
                negative = b < 0  # the sign bit
            key = tl.where(negative, b ^ 0x7FFFFFFF, b).to(tl.int64)
            key = tl.where(x != x, 1 << 40, key)  # a NaN above every number: the first NaN wins
            key = tl.where(inside, key, -(1 << 41))
            m = tl.max(key, axis=0)
            i = tl.min(tl.where(key == m, offs.to(tl.int64), 1 << 62), axis=0)
            better = m > best_key  # strictly: an earlier block keeps a tie
            best_index = tl.where(better, i, best_index)
            best_key = tl.where(better, m, best_key)
        tl.store(out_ptr, best_index)
    K["argmax"] = argmax_kernel


def amax(bits, kernel):
    x = fc.bits_to_torch(bits, "binary32")
    n = x.numel()
    if kernel == "amax_bits":
        out = torch.zeros(1, dtype=torch.int32, device=x.device)
    else:
        out = torch.zeros(1, dtype=torch.float32, device=x.device)
    if n:
        K[kernel][(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
    return fc.torch_to_bits(out.view(torch.float32))


def argmax(bits, sign_test):
    if not bits:
        return None  # no element: no index
    x = fc.bits_to_torch(bits, "binary32")
    out = torch.zeros(1, dtype=torch.int64, device=x.device)
    K["argmax"][(1,)](x, out, x.numel(), SIGN_TEST=sign_test, BLOCK=BLOCK)
    return int(out.item())


def amax_bits(bits):
    return amax(bits, "amax_bits")


def amax_float_max(bits):
    return amax(bits, "amax_float")


def argmax_sign_bit(bits):
    return argmax(bits, False)


def argmax_sign_test(bits):
    return argmax(bits, True)


AMAX = "nan=propagate"
ARGMAX = "nan=propagate zero=ordered ties=lowest_index"


def subjects():
    return [("amax_bits", "amax", "", "binary32", amax_bits, AMAX),
            ("amax_float_max", "amax", "", "binary32", amax_float_max, AMAX),
            ("argmax_sign_bit", "arg", "max", "binary32", argmax_sign_bit, ARGMAX),
            ("argmax_sign_test", "arg", "max", "binary32", argmax_sign_test, ARGMAX)]


if __name__ == "__main__":
    protocol.main("Triton", load, subjects)
