#!/usr/bin/env python3
"""ml_dtypes through flipcheck's adapter format (protocol.py): conversions only (astype from
float32 to each of its float8, float6, float4 types and bfloat16, on the CPU). ml_dtypes documents
round to nearest even; a type with infinities overflows to them, one with only NaNs to NaN, and the
MX types with neither (float6, float4) saturate to their largest value."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

np = ml = None

# (ml_dtypes name, flipcheck element, what ml_dtypes documents on overflow)
TYPES = [("float8_e4m3fn", "float8_e4m3fn", "nan"), ("float8_e5m2", "float8_e5m2", "infinity"),
         ("float8_e4m3fnuz", "float8_e4m3fnuz", "nan"), ("float8_e5m2fnuz", "float8_e5m2fnuz", "nan"),
         ("float6_e2m3fn", "float6_e2m3fn", "finite"), ("float6_e3m2fn", "float6_e3m2fn", "finite"),
         ("float4_e2m1fn", "float4_e2m1fn", "finite"), ("bfloat16", "bfloat16", "infinity")]


def load():
    global np, ml
    import ml_dtypes
    import numpy
    np, ml = numpy, ml_dtypes
    return ml_dtypes.__version__


def conversions():
    out = []
    for name, element, overflow in TYPES:
        if not hasattr(ml, name):
            continue
        t = getattr(ml, name)
        u = np.uint16 if element == "bfloat16" else np.uint8
        out.append((f"ml_dtypes astype({name})", "binary32", element, {"round": "nearest_even", "saturate": overflow},
                    lambda b, t=t, u=u: b.view(np.float32).astype(t).view(u)))
    return out


if __name__ == "__main__":
    protocol.main("ml_dtypes", load, lambda: [], conversions, processes=True)
