#!/usr/bin/env bash
# Compiled against interpreted, jitted against eager (issue 57, "Interpreter and compiler"): on a
# machine with a GPU, Triton, JAX and a flipcheck binary, `flipcheck check --adapter` on the Triton
# and JAX adapters with every subject listed both ways (adapters/README.md: "NAME [compiled]" and
# "NAME [interpreted]", "NAME [jit]" and "NAME [eager]"), each second way's answers compared with
# its first way's on every input flipcheck asks it; then a table: subject, each way's verdict, and
# whether they disagree (with the first input where their answers differ, its bits in hex).
#
#   scripts/device_interpreters.sh FLIPCHECK LOGS
#
# FLIPCHECK is the flipcheck binary; LOGS a folder for the logs (made if missing): per adapter and
# format, check_ADAPTER_FORMAT.log (flipcheck's report), .json (its verdicts) and ways_*.jsonl (the
# comparison: the first difference of each subject, running counts); cases/ (the failures' case
# files); runs.txt (each run's exit status and seconds); table.md (the table, also printed).
# Exit status: 0 no disagreement, 1 a subject's two ways disagree, 2 a run did not finish (bad
# input, or stopped by LIMIT) or the arguments are wrong.
#
# Environment (defaults in brackets):
#   ADAPTERS  [triton jax]  adapters/NAME_adapter.py each, or a path to another adapter script
#   FORMATS   [binary16 bfloat16 binary32 binary64]  a run per adapter and format (flipcheck's --format)
#   ONLY      []  an extended regex on the subjects' names without the label ('^tl\.argmax <float32>$'):
#                 only those, a run per subject and way, instead of a run per format
#   POLICY    [nan=propagate,zero=ordered,ties=lowest_index]  what every subject is judged against
#                 (they declare nothing). A subject stops at its first failure, and the comparison
#                 covers the inputs its second way was asked: nan=undefined,zero=equal,ties=any lets
#                 most subjects run every stage (every input compared, and the longest runs).
#   CASES     [2000]  random arrays (flipcheck's --cases)
#   TIMEOUT   [600]   seconds one request may take (flipcheck's --timeout; the interpreter is slow)
#   LIMIT     [0]     seconds each flipcheck run may take in all (0: none); a run stopped at it keeps
#                     the verdicts it reached (a device call's own limit is 600 s)
#   PYTHON    [python3]  the interpreter that runs the adapters
set -u

if [[ $# -ne 2 ]]; then
  echo "usage: $0 FLIPCHECK LOGS   (ADAPTERS, FORMATS, ONLY, POLICY, CASES, TIMEOUT, LIMIT, PYTHON: see the script's head)" >&2
  exit 2
fi
if [[ ! -x $1 ]]; then
  echo "$0: $1 is not an executable flipcheck binary" >&2
  exit 2
fi
fc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
mkdir -p "$2/cases" || exit 2
logs=$(cd "$2" && pwd)
repo=$(cd "$(dirname "$0")/.." && pwd)
python=${PYTHON:-python3}
adapters=${ADAPTERS:-triton jax}
formats=${FORMATS:-binary16 bfloat16 binary32 binary64}
only=${ONLY:-}
policy=${POLICY:-nan=propagate,zero=ordered,ties=lowest_index}
cases=${CASES:-2000}
timeout=${TIMEOUT:-600}
limit=${LIMIT:-0}

"$python" - <<'EOF' 2>&1 | tee "$logs/versions.txt"
import importlib
for m in ("torch", "triton", "jax", "jaxlib"):
    try:
        print(m, importlib.import_module(m).__version__)
    except Exception as e:  # noqa: BLE001
        print(m, "not installed:", e)
EOF
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$logs/versions.txt"

# One flipcheck run: check_TAG.log/.json, ways_TAG.jsonl; its status and time in runs.txt.
check() {
  local tag=$1 script=$2
  shift 2
  rm -f "$logs/check_$tag.json" "$logs/check_$tag.log" "$logs/ways_$tag.jsonl"
  local stop=()
  [[ $limit != 0 ]] && stop=(timeout --signal=TERM --kill-after=30 "$limit")
  local start=$SECONDS
  echo "== $tag: flipcheck check --adapter '$python $script' $*" >&2
  (cd "$logs/cases" && FLIPCHECK_WAYS=both FLIPCHECK_WAYS_LOG="$logs/ways_$tag.jsonl" PYTHONDONTWRITEBYTECODE=1 \
     ${stop[@]+"${stop[@]}"} "$fc" check --adapter "$python $script" --policy "$policy" --cases "$cases" --timeout "$timeout" \
     --json "$logs/check_$tag.json" "$@") >"$logs/check_$tag.log" 2>&1
  local rc=$?
  # runs.txt keeps each tag's latest run (a LOGS folder used again adds to the table)
  touch "$logs/runs.txt"
  grep -v -F "$tag exit " "$logs/runs.txt" >"$logs/runs.txt.new"
  mv "$logs/runs.txt.new" "$logs/runs.txt"
  echo "$tag exit $rc, $((SECONDS - start)) s" | tee -a "$logs/runs.txt" >&2
}

for a in $adapters; do
  if [[ $a == *.py ]]; then script=$(cd "$(dirname "$a")" && pwd)/$(basename "$a"); name=$(basename "$a" .py)
  else script=$repo/adapters/${a}_adapter.py; name=$a; fi
  if [[ ! -f $script ]]; then
    echo "$0: no adapter $script" >&2
    exit 2
  fi
  if [[ -z $only ]]; then
    for f in $formats; do check "${name}_$f" "$script" --format "$f"; done
    continue
  fi
  # The subjects the adapter lists both ways whose unlabelled name matches ONLY: a run each.
  mapfile -t subjects < <(echo '{"flipcheck_adapter": 1, "cases": []}' | FLIPCHECK_WAYS=both "$python" "$script" --serve 2>/dev/null |
    ONLY=$only "$python" -c '
import json, os, re, sys
doc = json.loads(sys.stdin.readline() or "{}")
for s in doc.get("subjects", []):
    base = s["name"][:-1].rsplit(" [", 1)[0] if s["name"].endswith("]") else s["name"]
    if s["kind"] != "sort" and re.search(os.environ["ONLY"], base):
        print(s["name"])')
  if [[ ${#subjects[@]} -eq 0 ]]; then
    echo "$0: $name lists no subject matching ONLY='$only' (or does not load: run '$python $script --serve' to see why)" >&2
    continue
  fi
  for s in "${subjects[@]}"; do
    check "${name}_$(echo "$s" | tr -c 'A-Za-z0-9_.-' '_')" "$script" --subject "$s"
  done
done

# The table: each subject's two ways, from the runs' verdicts (their JSON, or the report's lines
# where a run was stopped before it wrote one) and the comparison's log.
"$python" - "$logs" <<'EOF'
import glob
import json
import os
import re
import sys

logs = sys.argv[1]


def split_way(name):
    if name.endswith("]") and " [" in name:
        return tuple(name[:-1].rsplit(" [", 1))
    return name, None


verdicts, formats, broken = {}, {}, []
for log in sorted(glob.glob(os.path.join(logs, "check_*.log"))):
    tag = os.path.basename(log)[len("check_"):-len(".log")]
    rows = []
    path = log[:-len(".log")] + ".json"
    if os.path.exists(path):
        try:
            with open(path) as f:
                rows = json.load(f).get("subjects", [])
        except ValueError:
            rows = []
    for r in rows:
        v = "pass" if r.get("verdict") == "pass" else "FAIL"
        if r.get("verdict") != "pass":
            outcome = r.get("outcome", "")
            v += " (" + (r.get("stage") or ("raised" if " raised " in outcome else "timeout" if "answered nothing" in outcome
                                            else "stopped answering" if "stopped answering" in outcome else "broke")) + ")"
        verdicts[r["subject"]] = v
        formats[r["subject"]] = r.get("format", "")
    with open(log, errors="replace") as f:
        text = f.read()
    # A run stopped before its JSON: the report's verdict lines ("NAME (binary32 max, declares ...): pass after ...").
    for line in text.splitlines():
        m = re.match(r"^(.*) \((binary16|bfloat16|binary32|binary64) [^)]*\): (pass|FAIL)", line)
        if m and m.group(1) not in verdicts:
            verdicts[m.group(1)] = "pass" if m.group(3) == "pass" else "FAIL"
            formats[m.group(1)] = m.group(2)
    errors = [l.strip() for l in text.splitlines() if l.startswith("flipcheck: ")]
    if errors:  # bad input (not installed, no subject of the format, a broken answer): why the run stopped
        broken.append(f"{tag}: {errors[-1]}")

counts, first = {}, {}
for path in sorted(glob.glob(os.path.join(logs, "ways_*.jsonl"))):
    with open(path, errors="replace") as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            if e.get("event") == "difference":
                first.setdefault(e["subject"], e)
            elif e.get("event") == "count":
                # A count is cumulative in its process; a restarted adapter (flipcheck restarts one that
                # stopped answering) counts afresh: each process's last count, summed.
                counts.setdefault(e["subject"], {})[(path, e["pid"])] = (e["compared"], e["differ"], e["reference"])

pairs = {}
for name in set(verdicts) | set(counts):
    base, way = split_way(name)
    if way is not None:
        pairs.setdefault(base, {})[way] = name
orders = [("compiled", "interpreted"), ("jit", "eager")]
tables = {}
any_yes = False
for base in sorted(pairs):
    ways = pairs[base]
    second = next((n for n in ways.values() if n in counts), None)
    if second is not None:
        reference = next(iter(counts[second].values()))[2]
        order = (split_way(reference)[1] or "unlabelled", split_way(second)[1])
        a, b = reference, second
    else:
        order = next((o for o in orders if set(o) >= set(ways)), tuple(sorted(ways)) + ("",) * (2 - len(ways)))
        a, b = (ways.get(order[0]), ways.get(order[1]))
    va, vb = verdicts.get(a, "not run"), verdicts.get(b, "not run")
    compared = differ = 0
    for c, d, _ in counts.get(b, {}).values():
        compared += c
        differ += d
    diff = first.get(b)
    verdicts_differ = va.split(" ")[0] != vb.split(" ")[0] and "not run" not in (va, vb)
    if differ or verdicts_differ:
        disagree = "yes"
        any_yes = True
    elif compared:
        disagree = "no"
    else:
        disagree = "? (not compared)"
    note = ""
    if diff:
        shown = diff["case"] if diff["n"] <= 8 else f"{diff['format']}: an array of {diff['n']} (ways_*.jsonl has it)"
        note = f"{shown}: {order[0]} {diff['reference_answer']}, {order[1]} {diff['answer']}"
    fmt = formats.get(a) or formats.get(b) or ""
    tables.setdefault(order, []).append((base, fmt, va, vb, disagree, str(compared), str(differ), note))

out = []
for order, rows in tables.items():
    out += [f"| subject | format | {order[0]} | {order[1]} | disagreement | inputs compared | differ | first difference |",
            "|---|---|---|---|---|---:|---:|---|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    out.append("")
if broken:
    out += ["Runs that stopped on bad input:"] + [f"  {b}" for b in broken] + [""]
runs = ""
if os.path.exists(os.path.join(logs, "runs.txt")):
    with open(os.path.join(logs, "runs.txt")) as f:
        runs = f.read()
out += ["Runs (exit status 0 every subject passed, 1 one failed, 2 bad input, 124/137 stopped by LIMIT):", runs]
text = "\n".join(out)
print(text)
with open(os.path.join(logs, "table.md"), "w") as f:
    f.write(text + "\n")
bad = [l for l in runs.splitlines() if not re.search(r" exit [01],", l)]
sys.exit(2 if bad else 1 if any_yes else 0)
EOF
