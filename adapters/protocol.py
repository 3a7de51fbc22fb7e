"""The adapter format, the Python side (adapters/README.md describes it).

flipcheck runs `ADAPTER CASES ANSWERS`. CASES is JSON written by flipcheck:
    {"flipcheck_adapter": 1,
     "cases": [{"id": 0, "format": "binary32", "uses": ["reduce"], "bits": ["0x3f800000", ...]}, ...]}
The adapter writes ANSWERS:
    {"framework": "NumPy", "installed": true, "version": "1.24.2",
     "subjects": [{"name": "numpy.max", "kind": "value", "op": "max", "format": "binary32",
                   "answers": {"0": "0x3f800000", "1": {"error": "ValueError: ..."}, ...}}]}
kind "value" answers a hex bit pattern, "arg" an index, "sort" a list of hex bit patterns; null is
no answer; {"error": text} is what the framework raised; a reducer may answer {"skip": why} for an
input it cannot take (it is counted, never judged). A value or arg subject answers every case of its
format whose "uses" hold "reduce"; a sort subject every case whose "uses" hold "sort". A framework
that cannot be imported writes {"framework": ..., "installed": false, "reason": ...}: flipcheck
reports it as not installed, never as a pass.
"""
import json
import sys
import warnings

WIDTH = {"binary16": 16, "bfloat16": 16, "binary32": 32, "binary64": 64}


def main(framework, load, subjects_of):
    """load() imports the framework and returns its version; subjects_of() lists
    (name, kind, op, format, fn) where fn(list of ints, the bits) returns the answer as an int
    (bits or index) or a list of ints (a sort), or raises."""
    if len(sys.argv) != 3:
        sys.exit(f"usage: {sys.argv[0]} CASES ANSWERS (run by flipcheck audit --adapter)")
    cases_path, answers_path = sys.argv[1], sys.argv[2]
    try:
        version = load()
    except Exception as e:  # ImportError, or a framework that imports but has no device
        write(answers_path, {"framework": framework, "installed": False, "reason": f"{type(e).__name__}: {e}", "subjects": []})
        return
    with open(cases_path) as f:
        doc = json.load(f)
    if doc.get("flipcheck_adapter") != 1:
        sys.exit(f"{cases_path}: not a flipcheck adapter cases file (version 1)")
    cases = [(c["id"], c["format"], c["uses"], [int(b, 16) for b in c["bits"]]) for c in doc["cases"]]
    out = []
    warnings.simplefilter("ignore")  # "All-NaN slice encountered" and the like: the answer is what counts
    for name, kind, op, fmt, fn in subjects_of():
        answers = {}
        use = "sort" if kind == "sort" else "reduce"
        for cid, cfmt, uses, bits in cases:
            if cfmt != fmt or use not in uses:
                continue
            try:
                a = fn(bits)
                if isinstance(a, Skip):
                    answers[str(cid)] = {"skip": str(a)}
                    continue
                a = [hex(x) for x in a] if kind == "sort" else (hex(a) if kind == "value" else int(a))
            except Exception as e:
                a = {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
            answers[str(cid)] = a
        out.append({"name": name, "kind": kind, "op": op, "format": fmt, "answers": answers})
    write(answers_path, {"framework": framework, "installed": True, "version": version, "subjects": out})


class Skip(str):
    """Return Skip("why") from a subject for an input the framework cannot take."""


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)
