#!/usr/bin/env python3
"""JAX through flipcheck's adapter format (protocol.py), on its default device (the GPU where
there is one): max, min, argmax, argmin, lax.top_k(1) and sort on float16, bfloat16, float32 and
float64 (x64 enabled)."""
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


def array(fmt, bits):
    f, u = TYPES[fmt]
    return jax.lax.bitcast_convert_type(jnp.array(np.array(bits, dtype=u)), jnp.dtype(f))


def value_bits(fmt, x):
    f, u = TYPES[fmt]
    return int(np.asarray(jax.lax.bitcast_convert_type(jnp.asarray(x, dtype=f).reshape(1), jnp.dtype(u)))[0])


def subjects():
    out = []
    for fmt, (f, u) in TYPES.items():
        def value(fn, fmt=fmt):
            return lambda b: value_bits(fmt, fn(array(fmt, b)))

        def arg(fn, fmt=fmt):
            return lambda b: int(fn(array(fmt, b)))

        def sort(b, fmt=fmt, u=u):
            return [int(v) for v in np.asarray(jax.lax.bitcast_convert_type(jnp.sort(array(fmt, b)), jnp.dtype(u)))]

        subs = [("jnp.max", "value", "max", value(jnp.max)),
                ("jnp.min", "value", "min", value(jnp.min)),
                ("jnp.argmax", "arg", "max", arg(jnp.argmax)),
                ("jnp.argmin", "arg", "min", arg(jnp.argmin)),
                ("jax.lax.top_k(k=1)", "value", "max", value(lambda x: jax.lax.top_k(x, 1)[0])),
                ("jnp.sort", "sort", "ascending", sort)]
        out += [(f"{n} <{f}>", k, o, fmt, fn) for n, k, o, fn in subs]
    return out


if __name__ == "__main__":
    protocol.main("JAX", load, subjects)
