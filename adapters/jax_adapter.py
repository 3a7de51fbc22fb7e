#!/usr/bin/env python3
"""JAX through flipcheck's adapter format (protocol.py), on its default device (the GPU where
there is one): max, min, argmax, argmin, lax.top_k(1), sort and .at[index].max/min of every element
into one index (a scatter: atomics under contention on the GPU) on float16, bfloat16, float32 and
float64 (x64 enabled); and the conversions float32 -> each float8, float4 and 16-bit type jax.numpy
has, by astype, on that device (declared as ml_dtypes documents them: nearest even; overflow to
infinity where the type has one, else NaN, else the largest value).

Jitted and eager: with protocol.both_ways() (by default under `flipcheck check --adapter`, or
$FLIPCHECK_WAYS=both) every reducer and sort is listed twice, "NAME [jit]" (the function under
jax.jit, compiled by XLA for each input's shape) and "NAME [eager]" (under jax.disable_jit(), which
also turns off the jits inside jax.numpy: each primitive is dispatched on its own). The conversion
of the bits in and out stays outside both (a bitcast). Without both ways (the audit's default) the
subjects are called as before (jax.numpy's functions as they come), named without a label."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

jax = jnp = np = None
TYPES = {"binary16": ("float16", "uint16"), "bfloat16": ("bfloat16", "uint16"),
         "binary32": ("float32", "uint32"), "binary64": ("float64", "uint64")}


def load():
    global jax, jnp, np
    import jax as j
    j.config.update("jax_enable_x64", True)
    import jax.numpy as jn
    import numpy
    jax, jnp, np = j, jn, numpy
    return f"{j.__version__} ({j.devices()[0].platform})"


# The bits in and out through NumPy views on the host (exact, as a bitcast is), one transfer each way:
# a dispatch or two a call, where bitcasts on the device took several (most of a call's time).
def array(fmt, bits):
    f, u = TYPES[fmt]
    return jnp.asarray(np.array(bits, dtype=u).view(jnp.dtype(f)))


def value_bits(fmt, x):
    f, u = TYPES[fmt]
    return int(np.asarray(x).astype(jnp.dtype(f), copy=False).reshape(-1)[:1].view(u)[0])


def one_index(x, op):
    """Every element of x into out[0], which starts at the identity (-inf for max, +inf for min) and
    takes part, as jnp.full(...).at[idx].max(x) does."""
    out = jnp.full(1, -jnp.inf if op == "max" else jnp.inf, dtype=x.dtype)
    at = out.at[jnp.zeros(x.shape[0], dtype=jnp.int32)]
    return at.max(x) if op == "max" else at.min(x)


def way(fn, how):
    """fn as the subject runs it: None as it comes, "jit" under jax.jit (one per subject, so that its
    compilations are kept), "eager" under jax.disable_jit()."""
    if how is None:
        return fn
    if how == "jit":
        return jax.jit(fn)

    def eager(*args):
        with jax.disable_jit():
            return fn(*args)
    return eager


def subjects():
    ways = ("jit", "eager") if protocol.both_ways() else (None,)
    out = []
    for fmt, (f, u) in TYPES.items():
        def value(fn, fmt=fmt):
            return lambda b: value_bits(fmt, fn(array(fmt, b)))

        def arg(fn, fmt=fmt):
            return lambda b: int(fn(array(fmt, b)))

        def sort(fn, fmt=fmt, f=f, u=u):
            return lambda b: [int(v) for v in np.asarray(fn(array(fmt, b))).astype(jnp.dtype(f), copy=False).view(u)]

        subs = [("jnp.max", "value", "max", value, jnp.max),
                ("jnp.min", "value", "min", value, jnp.min),
                ("jnp.argmax", "arg", "max", arg, jnp.argmax),
                ("jnp.argmin", "arg", "min", arg, jnp.argmin),
                ("jax.lax.top_k(k=1)", "value", "max", value, lambda x: jax.lax.top_k(x, 1)[0]),
                ("jnp.sort", "sort", "ascending", sort, jnp.sort),
                # A scatter of every element into one index (atomics under contention on the GPU).
                (".at[one index].max", "value", "max", value, lambda x: one_index(x, "max")),
                (".at[one index].min", "value", "min", value, lambda x: one_index(x, "min"))]
        out += [(protocol.way_name(f"{n} <{f}>", how), k, o, fmt, wrap(way(fn, how))) for n, k, o, wrap, fn in subs for how in ways]
    return out


class Conversion:
    """astype(dtype) on JAX's default device: on a NumPy array of bits, or on a chunk of every
    input made on the device (walk_chunk_codes)."""

    def __init__(self, dtype):
        self.dtype = dtype
        self.code = np.uint16 if jnp.dtype(dtype).itemsize == 2 else np.uint8

    def codes(self, bits):
        # Through NumPy's ml_dtypes array (a byte an element even for float4), not bitcast_convert_type,
        # which refuses a 4-bit type.
        y = jax.lax.bitcast_convert_type(bits, jnp.float32).astype(self.dtype)
        return np.asarray(y).view(self.code)

    def __call__(self, b):
        return self.codes(jnp.asarray(b.view(np.uint32)))

    def walk_chunk_codes(self, first, n):
        m = jnp.arange(first, first + n, dtype=jnp.uint32)
        return self.codes(jnp.stack([m, m | jnp.uint32(0x80000000)], axis=1).reshape(-1))


def conversions():
    types = [("float8_e4m3fn", "float8_e4m3fn", "nan"), ("float8_e5m2", "float8_e5m2", "infinity"),
             ("float8_e4m3fnuz", "float8_e4m3fnuz", "nan"), ("float8_e5m2fnuz", "float8_e5m2fnuz", "nan"),
             ("float4_e2m1fn", "float4_e2m1fn", "finite"), ("float16", "binary16", "infinity"), ("bfloat16", "bfloat16", "infinity")]
    device = jax.devices()[0].platform
    return [(f"jnp astype({name}) ({device})", "binary32", element, {"round": "nearest_even", "saturate": overflow}, Conversion(getattr(jnp, name)))
            for name, element, overflow in types if hasattr(jnp, name)]


if __name__ == "__main__":
    protocol.main("JAX", load, subjects, conversions)
