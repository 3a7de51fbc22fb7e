#!/usr/bin/env python3
"""Writes the fuzz dictionaries and the seed corpora from the IEEE layouts of every format.

Run from the repository root: python3 fuzz/make_seeds.py [SEED_ROOT] (default: corpus). The seeds
are then minimised with libFuzzer's -merge=1 (see fuzz/README.md): write them to a scratch folder
and merge that into fuzz/corpus/TARGET. Dictionary entries are little-endian, as the targets read them;
they hold each special pattern and its key under the standard mapping, since the mapping targets
read keys and the laws read keys as bits too.

Subjects are named by their registry ids (core/include/flipcheck/catalog/registry.hpp), read from that
file: a seed is written for every registered (format, mapping) and (format, reducer) pair.
"""
import os
import re
import sys

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


def registry():
    """The registry's formats, built-in mappings and reducers: {name: id}, and for each mapping and
    reducer (id, the names of the formats it exists on), read from registry.hpp's entry lines."""
    text = open("core/include/flipcheck/catalog/registry.hpp").read()
    formats = {name: int(i, 16) for i, name in re.findall(r"\bformat_entry<(0x[0-9a-fA-F]+), (\w+),", text)}
    widths = {name: FORMATS[name][0] for name in formats}

    def on(line):  # a trailing formats_between<A, B>: the formats of A to B bits; else all
        m = re.search(r"formats_between<(\d+), (\d+)>[>,;\s]*$", line)
        return [f for f in formats if not m or int(m[1]) <= widths[f] <= int(m[2])]

    mappings, reducers = {}, {}
    for line in text.splitlines():
        m = re.search(r"\bmapping_entry<(0x[0-9a-fA-F]+), (\w+),", line)
        if m:
            mappings[m[2]] = (int(m[1], 16), on(line))
        m = re.search(r"\breducer_entry<(0x[0-9a-fA-F]+), \"(\w+)\",", line)
        if m:
            reducers[m[2]] = (int(m[1], 16), on(line))
    return formats, mappings, reducers


def dictionaries():
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


def mapping_seeds(root):
    """mapping_laws: format id, mapping id, then keys. One seed per registered subject holding every
    special's key and bits."""
    formats, mappings, _ = registry()
    os.makedirs(f"{root}/mapping_laws", exist_ok=True)
    for name, (mid, on) in mappings.items():
        for fmt in on:
            w, e, m = FORMATS[fmt]
            vals = []
            for bits in specials(w, e, m).values():
                vals += [bits, key(w, bits)]
            with open(f"{root}/mapping_laws/{fmt}_{name}", "wb") as f:
                f.write(bytes([formats[fmt], mid]) + b"".join(le(w, v) for v in vals))


def atomic_seeds(root):
    """atomic_interleaving: format id, reducer id, how (bit 0 max, bit 1 CAS steps), threads, n,
    values, schedule."""
    formats, _, reducers = registry()
    os.makedirs(f"{root}/atomic_interleaving", exist_ok=True)
    for name, (rid, on) in reducers.items():
        for fmt in on:
            w, e, m = FORMATS[fmt]
            vals = list(specials(w, e, m).values())[:48]
            for how in range(4):
                body = bytes([formats[fmt], rid, how, 3, len(vals) - 1]) + b"".join(le(w, v) for v in vals)
                body += bytes(range(64))  # the schedule
                with open(f"{root}/atomic_interleaving/{fmt}_{name}_how{how}", "wb") as f:
                    f.write(body)


def reducer_seeds(root):
    """reducers: format id, how (policy x op), seed (8 bytes), threads, n, values."""
    formats, _, _ = registry()
    os.makedirs(f"{root}/reducers", exist_ok=True)
    for fmt, fid in formats.items():
        w, e, m = FORMATS[fmt]
        vals = list(specials(w, e, m).values())
        for how in range(64):
            body = bytes([fid, how]) + bytes(8) + bytes([3, len(vals)]) + b"".join(le(w, v) for v in vals)
            with open(f"{root}/reducers/{fmt}_{how}", "wb") as f:
                f.write(body)


if __name__ == "__main__":
    seed_root = sys.argv[1] if len(sys.argv) > 1 else "fuzz/corpus"
    dictionaries()
    mapping_seeds(seed_root)
    reducer_seeds(seed_root)
    atomic_seeds(seed_root)
