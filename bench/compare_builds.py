#!/usr/bin/env python3
"""bench/compare_builds.py OUT: reads bench/compare_builds.sh's logs and prints, for every row of
gpu_sweep_bench (median kernel ms), gpu_reduce_bench (median ms) and main_job.sh (median wall s),
the median over rounds of each build and the ratio new/old (below 1: the new build is faster)."""
import glob
import os
import re
import statistics
import sys

if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
    sys.exit("usage: bench/compare_builds.py OUT")
out = sys.argv[1]
patterns = {
    "sweep": re.compile(r"^((?:bare|full|binary64)\S*.*?)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)"),
    "reduce": re.compile(r"^((?:cub::|flipcheck |thrust::|seed 002).*?)\s+([\d.]+)\s+([\d.]+)\s+[\d.]+\s+(?:right|WRONG)"),
    "main_job": re.compile(r"^median of \d+: (main job) ([\d.]+) s"),
}
value_of = {"sweep": 3, "reduce": 2, "main_job": 2}
rows = {}  # (bench, row) -> {"old": [...], "new": [...]}
for path in sorted(glob.glob(os.path.join(out, "*.log"))):
    bench, build, _, _ = os.path.basename(path).split(".")
    for line in open(path, errors="replace"):
        m = patterns[bench].match(line.strip())
        if m:
            rows.setdefault((bench, m.group(1).strip()), {"old": [], "new": []})[build].append(float(m.group(value_of[bench])))
if not rows:
    sys.exit("no benchmark rows found in " + out)
print(f"{'benchmark':<9} {'row':<52} {'old':>10} {'new':>10} {'new/old':>8}  runs")
for (bench, row), v in rows.items():
    if not v["old"] or not v["new"]:
        print(f"{bench:<9} {row:<52} missing in one build")
        continue
    o, n = statistics.median(v["old"]), statistics.median(v["new"])
    print(f"{bench:<9} {row:<52} {o:>10.3f} {n:>10.3f} {n / o:>8.3f}  {len(v['old'])}+{len(v['new'])}")
