#!/usr/bin/env python3
"""One-off history (issue 13): rewrites the corpora from the old selector bytes to registry ids.

Until issue 13 the fuzz targets chose their subject with magic moduli over hard-coded switches,
so adding a subject changed what every corpus file meant. They now decode the stable one-byte ids
of core/include/flipcheck/registry.hpp. This script converted every file of fuzz/corpus/mapping_laws,
fuzz/corpus/reducers and fuzz/corpus/atomic_interleaving once, so that each keeps its meaning; it was run
once and is kept as the record of how (running it again would convert converted files twice).

  mapping_laws         old byte 0 = b: (b % 12) / 3 a format, (b % 12) % 3 a mapping
                       -> [format id, mapping id]; the keys that follow are unchanged.
  reducers             old byte 0 = b: b % 4 a format -> [format id]; the rest unchanged.
  atomic_interleaving  old byte 0 = head: head & 1 max, (head >> 1) % 3 a format, (head >> 3) % 8
                       a strategy -> [format id, reducer id, how] where how bit 0 = max and bit 1
                       = CAS steps (cases 4-6 always ran as CAS steps; case 7, fetch_max/min, read
                       a byte after the array to choose: that byte moves into how bit 1). Threads,
                       n, the array and the schedule are unchanged.

Missing bytes read as zero in the targets, so a short old file is read as if zero-padded, and the
new prefix is exactly what the old byte(s) meant. Files are named by the SHA-1 of their content
(libFuzzer's convention): converted files are renamed to the SHA-1 of the new content, and files
that convert to the same content are kept once. Crash or regression inputs (none existed) would be
converted the same way.

Usage, from the repository root: python3 fuzz/convert_corpus_ids.py [--dry-run] [CORPUS_ROOT]
"""
import hashlib
import os
import sys

# Registry ids (registry.hpp). Never renumbered; these are the ids at the time of the conversion.
FORMAT_ID = {"binary16": 0x01, "bfloat16": 0x02, "binary32": 0x03, "binary64": 0x04}
MAPPING_ID = {"sign_flip": 0x01, "sign_flip_branchless": 0x02, "signed_key": 0x03}
REDUCER_ID = {"mapped_total_order": 0x01, "mapped_propagate": 0x02, "mapped_ignore": 0x03,
              "seed004_signbit": 0x04, "cas_fmax": 0x05, "fetch_max": 0x06, "fetch_fmaximum": 0x07,
              "fetch_fmaximum_num": 0x08}
WIDTH = {"binary16": 2, "bfloat16": 2, "binary32": 4, "binary64": 8}  # bytes


def byte_at(data, i):
    return data[i] if i < len(data) else 0


def mapping_laws(old):
    # the old switch: 4 formats x 3 mappings, in this order
    case = byte_at(old, 0) % 12
    fmt = ["binary16", "bfloat16", "binary32", "binary64"][case // 3]
    mapping = ["sign_flip", "sign_flip_branchless", "signed_key"][case % 3]
    return bytes([FORMAT_ID[fmt], MAPPING_ID[mapping]]) + old[1:]


def reducers(old):
    fmt = ["binary32", "binary16", "bfloat16", "binary64"][byte_at(old, 0) % 4]
    return bytes([FORMAT_ID[fmt]]) + old[1:]


def atomic_interleaving(old):
    head = byte_at(old, 0)
    is_max = head & 1
    fmt = ["binary32", "binary16", "bfloat16"][(head >> 1) % 3]
    case = (head >> 3) % 8
    rest = bytearray(old[1:])  # threads, n, array, [case 7's step byte], schedule
    cas_steps = 0
    if case in (4, 5, 6):  # cas_fmax, fetch_fmaximum, fetch_fmaximum_num: always CAS steps
        cas_steps = 1
    elif case == 7:  # fetch_max/min: a byte after the array chose CAS steps (odd) or one step
        n = 1 + byte_at(rest, 1) % 48
        at = 2 + n * WIDTH[fmt]
        if at < len(rest):
            cas_steps = rest[at] & 1
            del rest[at]
    reducer = ["mapped_total_order", "mapped_propagate", "mapped_ignore", "seed004_signbit", "cas_fmax",
               "fetch_fmaximum", "fetch_fmaximum_num", "fetch_max"][case]
    return bytes([FORMAT_ID[fmt], REDUCER_ID[reducer], is_max | cas_steps << 1]) + bytes(rest)


CONVERT = {"mapping_laws": mapping_laws, "reducers": reducers, "atomic_interleaving": atomic_interleaving}


def main(argv):
    dry = "--dry-run" in argv
    args = [a for a in argv if a != "--dry-run"]
    root = args[0] if args else "fuzz/corpus"
    for target, convert in CONVERT.items():
        folder = os.path.join(root, target)
        names = sorted(os.listdir(folder))
        new = {}  # sha1 -> content
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                content = convert(f.read())
            new[hashlib.sha1(content).hexdigest()] = content
        print(f"{target}: {len(names)} files converted into {len(new)} "
              f"({len(names) - len(new)} duplicates after conversion dropped)")
        if dry:
            continue
        for name in names:
            os.remove(os.path.join(folder, name))
        for sha, content in new.items():
            with open(os.path.join(folder, sha), "wb") as f:
                f.write(content)


if __name__ == "__main__":
    main(sys.argv[1:])
