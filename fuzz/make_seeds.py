#!/usr/bin/env python3
"""Writes the fuzz dictionaries and the seed corpora from the IEEE layouts of every format.

Run from the repository root: python3 fuzz/make_seeds.py. The seeds are then minimised with
libFuzzer's -merge=1 (see fuzz/README.md). Dictionary entries are little-endian, as the targets
read them; they hold each special pattern and its key under the standard mapping, since the
mapping targets read keys and the laws read keys as bits too.
"""
import os
import struct

FORMATS = {  # name: (width, exponent bits, mantissa bits)
    "binary16": (16, 5, 10),
    "bfloat16": (16, 8, 7),
    "binary32": (32, 8, 23),
    "binary64": (64, 11, 52),
}


def specials(width, e, m):
    sign = 1 << (width - 1)
    expmask = ((1 << e) - 1) << m
    quiet = 1 << (m - 1)
    one = ((1 << (e - 1)) - 1) << m
    pos = {
        "zero": 0, "denorm_min": 1, "max_sub": (1 << m) - 1, "min_normal": 1 << m, "one": one,
        "max": expmask - 1, "inf": expmask, "qnan": expmask | quiet, "snan": expmask | 1,
        "qnan_payload": expmask | quiet | 0x15, "snan_payload": expmask | (quiet >> 1),
    }
    out = {}
    for name, v in pos.items():
        out["+" + name] = v
        out["-" + name] = v | sign
        # the ulp neighbours, where off-by-one bugs live
        if v > 0:
            out["+" + name + "-1"] = v - 1
        out["+" + name + "+1"] = (v + 1) & ((1 << width) - 1)
    return out


def key(width, bits):
    sign = 1 << (width - 1)
    return (~bits) & ((1 << width) - 1) if bits & sign else bits | sign


def le(width, v):
    return v.to_bytes(width // 8, "little")


def main():
    os.makedirs("corpus/mapping_laws", exist_ok=True)
    lines_all = []
    for fmt, (w, e, m) in FORMATS.items():
        lines = [f"# {fmt}: special patterns and their keys, little-endian"]
        for name, bits in specials(w, e, m).items():
            for tag, v in (("bits", bits), ("key", key(w, bits))):
                esc = "".join(f"\\x{b:02x}" for b in le(w, v))
                lines.append(f'{fmt}_{tag}_{name.replace("+", "p").replace("-", "m")}="{esc}"')
        with open(f"fuzz/{fmt}.dict", "w") as f:
            f.write("\n".join(lines) + "\n")
        lines_all += lines
    with open("fuzz/all_formats.dict", "w") as f:
        f.write("\n".join(lines_all) + "\n")
    # mapping_laws: byte 0 picks format*3 + mapping; then keys. One seed per subject holding every
    # special's key and bits.
    for i, (fmt, (w, e, m)) in enumerate(FORMATS.items()):
        vals = []
        for bits in specials(w, e, m).values():
            vals += [bits, key(w, bits)]
        for mapping in range(3):
            with open(f"corpus/mapping_laws/{fmt}_{mapping}", "wb") as f:
                f.write(bytes([i * 3 + mapping]) + b"".join(le(w, v) for v in vals))


def atomic_seeds():
    """atomic_interleaving: head (op, format, strategy), threads, n, values, schedule."""
    os.makedirs("corpus/atomic_interleaving", exist_ok=True)
    fmts = ["binary32", "binary16", "bfloat16"]
    for fmt_index, fmt in enumerate(fmts):
        w, e, m = FORMATS[fmt]
        vals = list(specials(w, e, m).values())
        for strategy in range(5):
            for op in range(2):
                head = op | (fmt_index << 1) | (strategy << 3)
                n = len(vals)
                body = bytes([head, 3, n - 1]) + b"".join(le(w, v) for v in vals) + bytes(range(64))
                with open(f"corpus/atomic_interleaving/{fmt}_s{strategy}_op{op}", "wb") as f:
                    f.write(body)


def reducer_seeds():
    """reducers: format, how (policy x op), seed (8 bytes), threads, n, values."""
    os.makedirs("corpus/reducers", exist_ok=True)
    for fmt_index, fmt in enumerate(["binary32", "binary16", "bfloat16", "binary64"]):
        w, e, m = FORMATS[fmt]
        vals = list(specials(w, e, m).values())
        for how in range(64):
            body = bytes([fmt_index, how]) + bytes(8) + bytes([3, len(vals)]) + b"".join(le(w, v) for v in vals)
            with open(f"corpus/reducers/{fmt}_{how}", "wb") as f:
                f.write(body)


if __name__ == "__main__":
    main()
    reducer_seeds()
    atomic_seeds()
