#!/usr/bin/env python3
"""One-off history, like convert_corpus_ids.py: the script that made fuzz/corpus/gpu_subjects when the
registry's stable ids arrived (python3 fuzz/convert_gpu_corpus.py fuzz/corpus/gpu_subjects, once; running
it again finds no old files to convert and rewrites the same seeds). Its id table is a copy of the
registry's and reduce.hpp's ids at that commit, not a source of truth.

Regenerates fuzz/corpus/gpu_subjects for fuzz/gpu_subjects_fuzzer.cu's layout:
format id, reducer id, policy, op, shape, then the array (little-endian patterns).
Converts the old h{how}_f{form} files (binary32 value forms) and adds two seeds per
(format, non-mutant GPU reducer)."""
import hashlib, os, random, struct, sys

corpus = sys.argv[1]
FORMATS = {0x01: ("binary16", 16, 5, 10), 0x02: ("bfloat16", 16, 8, 7), 0x03: ("binary32", 32, 8, 23), 0x04: ("binary64", 64, 11, 52)}
ALL = [1, 2, 3, 4]
# GPU reducers (non-mutants): id -> (formats, ops: 'both' or 'max')
VALUE = {0xc1: (ALL, "both"), 0xc2: (ALL, "both"), 0xc3: (ALL, "both"),
         0x01: (ALL, "both"), 0x02: (ALL, "both"), 0x03: (ALL, "both"), 0x04: ([3, 4], "both"),
         0x05: (ALL, "both"), 0x06: (ALL, "both"), 0x07: (ALL, "both"), 0x08: (ALL, "both")}
ARG = {0xd1: (ALL, "both"), 0xd2: (ALL, "both"), 0xd5: ([3], "max"), 0x09: ([1, 2, 3], "both")}
OLD_FORM = {0: 0xc1, 1: 0xc2, 2: 0xc3, 3: 0x04}

def specials(width, e, m):
    sign = 1 << (width - 1); expmask = ((1 << e) - 1) << m; quiet = 1 << (m - 1); one = ((1 << (e - 1)) - 1) << m
    pos = [0, 1, (1 << m) - 1, 1 << m, one, expmask - 1, expmask, expmask | quiet, expmask | 1, expmask | quiet | 0x15]
    out = []
    for v in pos:
        out += [v, v | sign]
    return out

def pack(width, xs):
    fmt = {16: "<H", 32: "<I", 64: "<Q"}[width]
    return b"".join(struct.pack(fmt, x) for x in xs)

files = {}
def add(data):
    files[hashlib.sha1(data).hexdigest()] = data

converted = 0
for name in sorted(os.listdir(corpus)):
    if not name.startswith("h"):
        continue
    old = open(os.path.join(corpus, name), "rb").read()
    how, form = old[0], old[1] % 9
    rid = OLD_FORM[form]  # the old corpus holds forms 0-3 only
    policy = (how % 3) | (2 << 3)  # nan = how % 3, zero ordered, ties any
    op = (how >> 2) & 1
    shape = (how & 7) | (((how >> 3) & 7) << 3)
    add(bytes([0x03, rid, policy, op, shape]) + old[2:])
    converted += 1
    os.remove(os.path.join(corpus, name))

rng = random.Random(13)
added = 0
k = 0
for rid, (fmts, ops) in list(VALUE.items()) + list(ARG.items()):
    for fid in fmts:
        _, w, e, m = FORMATS[fid]
        sp = specials(w, e, m)
        for seed in range(2):
            k += 1
            policy = (k % 4) | (((k // 4) % 2) << 2) | (((k // 8) % 3) << 3)
            op = 1 if (ops == "max" or seed == 0) else 0
            shape = (k * 5) % 256
            if seed == 0:
                xs = sp[:]
                rng.shuffle(xs)
            else:  # ties, both zeros, repeated extremes and a few random patterns
                one = ((1 << (e - 1)) - 1) << m
                sign = 1 << (w - 1)
                xs = [one, 0, sign, one, one | sign, (1 << w) - 1 - 1, one] + [rng.getrandbits(w) for _ in range(40)] + [one]
            add(bytes([fid, rid, policy, op, shape]) + pack(w, xs))
            added += 1

for h, data in files.items():
    open(os.path.join(corpus, h), "wb").write(data)
print(f"converted {converted}, added {added}, files {len(files)}")
