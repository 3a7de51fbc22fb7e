#!/usr/bin/env python3
"""CuPy through flipcheck's adapter format (protocol.py), on the GPU: max, min, argmax, argmin,
nanmax, sort, and cupyx.scatter_max/scatter_min of every element into one index (atomics under
contention) on float16, float32 and float64 (CuPy has no bfloat16; a dtype cupyx's scatters refuse is
left out of their rows)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

cp = None
TYPES = {"binary16": ("float16", "uint16"), "binary32": ("float32", "uint32"), "binary64": ("float64", "uint64")}


def load():
    global cp
    import cupy
    cupy.cuda.runtime.getDeviceCount()  # raises where there is no GPU: "not installed" here
    cp = cupy
    return f"{cupy.__version__} (CUDA runtime {cupy.cuda.runtime.runtimeGetVersion()})"


def array(fmt, bits):
    f, u = TYPES[fmt]
    return cp.asarray(cp.array(bits, dtype=u).view(f))


def value_bits(fmt, x):
    f, u = TYPES[fmt]
    return int(cp.asnumpy(cp.asarray(x, dtype=f).reshape(1).view(u))[0])


def one_index(x, scatter, op):
    """Every element of x into out[0], which starts at the identity (-inf for max, +inf for min):
    every thread's atomic on one address."""
    import cupyx
    out = cp.full(1, float("-inf") if op == "max" else float("inf"), dtype=x.dtype)
    getattr(cupyx, scatter)(out, cp.zeros(x.size, dtype=cp.int64), x)
    return out


def takes(fn, u):
    """Whether the row runs on this dtype (1.0's bits in it)."""
    one = {"uint16": 0x3C00, "uint32": 0x3F800000, "uint64": 0x3FF0000000000000}[u]
    try:
        fn([one])
        return True
    except Exception:  # noqa: BLE001 - a dtype the library refuses, whatever it raises
        return False


def subjects():
    out = []
    for fmt, (f, u) in TYPES.items():
        def value(fn, fmt=fmt):
            return lambda b: value_bits(fmt, fn(array(fmt, b)))

        def arg(fn, fmt=fmt):
            return lambda b: int(fn(array(fmt, b)))

        def sort(b, fmt=fmt, u=u):
            return [int(v) for v in cp.asnumpy(cp.sort(array(fmt, b)).view(u))]

        subs = [("cupy.max", "value", "max", value(cp.max)),
                ("cupy.min", "value", "min", value(cp.min)),
                ("cupy.argmax", "arg", "max", arg(cp.argmax)),
                ("cupy.argmin", "arg", "min", arg(cp.argmin)),
                ("cupy.nanmax", "value", "max", value(cp.nanmax)),
                ("cupy.sort", "sort", "ascending", sort)]
        for op, scatter in (("max", "scatter_max"), ("min", "scatter_min")):
            fn = value(lambda x, scatter=scatter, op=op: one_index(x, scatter, op))
            if takes(fn, u):
                subs.append((f"cupyx.{scatter}, one index", "value", op, fn))
        out += [(f"{n} <{f}>", k, o, fmt, fn) for n, k, o, fn in subs]
    return out


if __name__ == "__main__":
    protocol.main("CuPy", load, subjects)
