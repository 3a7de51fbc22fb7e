#!/usr/bin/env python3
"""Compare flipcheck's decoding of every code of the low-precision formats with ml_dtypes' and
PyTorch's (the lent GPU machine has both; the development machine has neither).

    scripts/compare_decoding.py FLIPCHECK [--out FILE]

FLIPCHECK is the flipcheck binary: `flipcheck codes --format F --json FILE` gives, for every code,
the binary32 bits of the value the oracle decodes it to. Each library decodes the same codes to
float32; the two must agree bit for bit, or both be NaN (libraries differ on a NaN's sign and
payload, which flipcheck's laws never compare). A format a library lacks is reported as absent,
never as agreeing. Exit status: 0 when every comparison made agrees and each format was compared
with at least one library, 1 on any disagreement or a format no library has, 2 on bad usage.
"""
import argparse
import json
import os
import struct
import subprocess
import sys
import tempfile

FORMATS = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
           "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn"]


def flipcheck_codes(binary, fmt):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "codes.json")
        subprocess.run([binary, "codes", "--format", fmt, "--json", path], check=True, stdout=subprocess.DEVNULL)
        with open(path) as f:
            return json.load(f)["codes"]


def f32_bits(x):
    return struct.unpack("<I", struct.pack("<f", float(x)))[0]


def is_nan_bits(b):
    return (b & 0x7f800000) == 0x7f800000 and (b & 0x007fffff) != 0


def decode_ml_dtypes(fmt, codes):
    import ml_dtypes
    import numpy as np
    dtype = getattr(ml_dtypes, fmt, None)
    if dtype is None:
        return None, "ml_dtypes %s has no %s" % (ml_dtypes.__version__, fmt)
    raw = np.array(codes, dtype=np.uint8)
    return [f32_bits(v) for v in raw.view(dtype).astype(np.float32)], "ml_dtypes " + ml_dtypes.__version__


def decode_torch(fmt, codes):
    import torch
    dtype = getattr(torch, fmt, None)
    if dtype is None or fmt.startswith("float6") or fmt.startswith("float4"):
        # torch has fp4 only as float4_e2m1fn_x2 (packed pairs) and no fp6 dtype at all.
        return None, "torch %s has no %s" % (torch.__version__, fmt)
    raw = torch.tensor(codes, dtype=torch.uint8)
    vals = raw.view(dtype).to(torch.float32).tolist()
    return [f32_bits(v) for v in vals], "torch " + torch.__version__


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("flipcheck")
    ap.add_argument("--out", help="also write the comparison as JSON here")
    a = ap.parse_args()
    if not os.access(a.flipcheck, os.X_OK):
        print("compare_decoding: %s is not an executable" % a.flipcheck, file=sys.stderr)
        return 2
    report, ok = [], True
    for fmt in FORMATS:
        ours = flipcheck_codes(a.flipcheck, fmt)
        codes = [r["code"] for r in ours]
        compared = 0
        for decode in (decode_ml_dtypes, decode_torch):
            try:
                theirs, who = decode(fmt, codes)
            except ImportError as e:
                theirs, who = None, "not installed: %s" % e
            if theirs is None:
                print("%-16s %-28s absent (%s)" % (fmt, decode.__name__[7:], who))
                report.append({"format": fmt, "library": decode.__name__[7:], "result": "absent", "detail": who})
                continue
            bad = [(r["code"], r["float32_bits"], t) for r, t in zip(ours, theirs)
                   if not (r["float32_bits"] == t or (is_nan_bits(r["float32_bits"]) and is_nan_bits(t)))]
            compared += 1
            ok &= not bad
            line = "agree on all %d codes" % len(codes) if not bad else "DISAGREE on %d codes, first 0x%02x: ours 0x%08x, theirs 0x%08x" % (
                len(bad), bad[0][0], bad[0][1], bad[0][2])
            print("%-16s %-28s %s" % (fmt, who, line))
            report.append({"format": fmt, "library": who, "codes": len(codes), "disagreements": len(bad)})
        if compared == 0:
            ok = False
            print("%-16s no library to compare with" % fmt)
    if a.out:
        with open(a.out, "w") as f:
            json.dump(report, f, indent=2)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
