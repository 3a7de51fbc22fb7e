"""The adapter format, the Python side (adapters/README.md describes it).

`ADAPTER --serve` (flipcheck check --adapter) answers the same documents a line at a time on
standard input and output, and lists each subject's declared policy ("declares").

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

Conversions (flipcheck audit --conversions; adapters/README.md): an adapter may also list
conversions from binary32 to an element format, each a function from a NumPy uint32 array of bit
patterns to a NumPy array of codes (uint8 for 8-bit elements, uint16 for binary16 and bfloat16):
    ADAPTER --conversions LIST          writes {"framework", "installed", "version",
                                        "conversions": [{"name", "from", "to", "declares"?}]}
    ADAPTER --convert NAMES INPUTS OUT  NAMES: a file of conversion names, one a line; INPUTS:
                                        raw little-endian binary32 patterns, or the word "every":
                                        every pattern in the walk's order (input i is
                                        (i >> 1) | (i & 1) << 31); OUT ("-": standard output)
                                        receives each named conversion's codes in turn,
                                        little-endian, one per input, in order.
"""
import json
import os
import sys
import warnings

WIDTH = {"binary16": 16, "bfloat16": 16, "binary32": 32, "binary64": 64}


def main(framework, load, subjects_of, conversions_of=None, processes=False):
    """load() imports the framework and returns its version; subjects_of() lists
    (name, kind, op, format, fn) or (name, kind, op, format, fn, declares) where fn(list of ints,
    the bits) returns the answer as an int (bits or index) or a list of ints (a sort), or raises;
    declares is the policy the function promises, e.g. "nan=propagate zero=ordered
    ties=lowest_index" (what `flipcheck check --adapter` judges it against). conversions_of(), if
    given, lists (name, from, to, declares, fn): declares is None or {"round": ..., "saturate":
    ...}, the policy the framework documents; fn(uint32 array) returns the codes. processes=True:
    a CPU framework whose conversions may run in a process a core over the 2^32 inputs (not a GPU's)."""
    if len(sys.argv) >= 2 and sys.argv[1] in ("--conversions", "--convert"):
        return conversions_main(framework, load, conversions_of or (lambda: []), processes)
    if len(sys.argv) == 2 and sys.argv[1] == "--serve":
        return serve_main(framework, load, subjects_of)
    if len(sys.argv) != 3:
        sys.exit(f"usage: {sys.argv[0]} CASES ANSWERS | --serve (run by flipcheck audit --adapter, flipcheck check --adapter)")
    cases_path, answers_path = sys.argv[1], sys.argv[2]
    try:
        version = load()
    except Exception as e:  # ImportError, or a framework that imports but has no device
        write(answers_path, not_installed(framework, e))
        return
    with open(cases_path) as f:
        doc = json.load(f)
    if doc.get("flipcheck_adapter") != 1:
        sys.exit(f"{cases_path}: not a flipcheck adapter cases file (version 1)")
    write(answers_path, answers_to(framework, version, subjects_of(), doc))


def not_installed(framework, e):
    return {"framework": framework, "installed": False, "reason": f"{type(e).__name__}: {e}", "subjects": []}


def answers_to(framework, version, subjects, doc):
    """The answers document for a cases document: every subject's answers to the cases of its
    format and use (only the subject named by "subject", where the request names one)."""
    cases = [(c["id"], c["format"], c["uses"], [int(b, 16) for b in c["bits"]]) for c in doc["cases"]]
    only = doc.get("subject")
    out = []
    warnings.simplefilter("ignore")  # "All-NaN slice encountered" and the like: the answer is what counts
    for name, kind, op, fmt, fn, *declares in subjects:
        if only is not None and name != only:
            continue
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
                if a is None:
                    answers[str(cid)] = None
                    continue
                a = [hex(x) for x in a] if kind == "sort" else (int(a) if kind == "arg" else hex(int(a)))
            except Exception as e:
                a = {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
            answers[str(cid)] = a
        entry = {"name": name, "kind": kind, "op": op, "format": fmt, "answers": answers}
        if declares and declares[0]:
            entry["declares"] = declares[0]
        out.append(entry)
    return {"framework": framework, "installed": True, "version": version, "subjects": out}


def serve(framework, version, subjects, requests, answers):
    """Answers flipcheck's requests, a cases document a line, with an answers document a line,
    until the requests end (`flipcheck check --adapter`: adapters/README.md)."""
    for line in requests:
        if not line.strip():
            continue
        doc = json.loads(line)
        if doc.get("flipcheck_adapter") != 1:
            raise SystemExit("flipcheck adapter: a request that is not a cases document (version 1)")
        answers.write(json.dumps(answers_to(framework, version, subjects, doc)) + "\n")
        answers.flush()


def serve_main(framework, load, subjects_of):
    # The answers go to the real standard output; anything the framework or the user's code prints
    # goes to standard error, where it cannot break a line of the protocol.
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        version = load()
        subjects = list(subjects_of())
    except Exception as e:  # the listing says why; flipcheck reports it and checks nothing
        answers.write(json.dumps(not_installed(framework, e)) + "\n")
        answers.flush()
        return
    serve(framework, version, subjects, sys.stdin, answers)


# Every binary32 pattern in the walk's order, in chunks of 2^25 inputs (2^24 magnitudes, + then -).
CHUNK_MAGNITUDES = 1 << 24


def walk_chunk(first):
    import numpy as np
    m = np.arange(first, first + CHUNK_MAGNITUDES, dtype=np.uint32)
    x = np.empty(2 * CHUNK_MAGNITUDES, dtype=np.uint32)
    x[0::2] = m
    x[1::2] = m | np.uint32(0x80000000)
    return x


_convert = None  # the conversion a worker process runs (inherited through fork)


def codes_of(x):
    import numpy as np
    codes = np.ascontiguousarray(_convert(x))
    if codes.shape != x.shape:
        raise ValueError(f"{codes.size} codes for {x.size} inputs")
    return codes.astype(codes.dtype.newbyteorder("<"), copy=False).tobytes()


def every_chunk_codes(first):
    # A GPU framework makes the chunk's inputs on its device (fn.walk_chunk_codes(first, n) returns
    # the codes of magnitudes [first, first + n), + then -), which saves the copy of the inputs.
    make = getattr(_convert, "walk_chunk_codes", None)  # None: protocol.py makes them
    if make is not None:
        import numpy as np
        codes = np.ascontiguousarray(make(first, CHUNK_MAGNITUDES))
        if codes.size != 2 * CHUNK_MAGNITUDES:
            raise ValueError(f"{codes.size} codes for {2 * CHUNK_MAGNITUDES} inputs")
        return codes.astype(codes.dtype.newbyteorder("<"), copy=False).tobytes()
    return codes_of(walk_chunk(first))


def conversions_main(framework, load, conversions_of, processes):
    usage = f"usage: {sys.argv[0]} --conversions LIST | --convert NAMES INPUTS OUT (run by flipcheck audit --conversions)"
    if not ((sys.argv[1] == "--conversions" and len(sys.argv) == 3) or (sys.argv[1] == "--convert" and len(sys.argv) == 5)):
        sys.exit(usage)
    try:
        version = load()
        import numpy  # noqa: F401  (the conversions' arrays)
    except Exception as e:
        if sys.argv[1] == "--conversions":
            write(sys.argv[2], {"framework": framework, "installed": False, "reason": f"{type(e).__name__}: {e}", "conversions": []})
            return
        raise
    import numpy as np
    warnings.simplefilter("ignore")  # overflow in a cast: the codes are what count
    table, left_out = {}, []
    for name, src, dst, declares, fn in conversions_of():
        # A conversion the framework cannot run here (a dtype this build or device lacks) is left
        # out of the list, never reported as a failure of the framework.
        try:
            fn(np.array([0x3f800000, 0xff800000], dtype=np.uint32))
        except Exception as e:  # noqa: BLE001
            left_out.append({"name": name, "reason": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"})
            continue
        table[name] = (src, dst, declares, fn)
    if sys.argv[1] == "--conversions":
        listed = []
        for name, (src, dst, declares, _) in table.items():
            c = {"name": name, "from": src, "to": dst}
            if declares:
                c["declares"] = declares
            listed.append(c)
        write(sys.argv[2], {"framework": framework, "installed": True, "version": version, "conversions": listed, "left_out": left_out})
        return
    names_path, inputs, out = sys.argv[2], sys.argv[3], sys.argv[4]
    with open(names_path) as f:
        names = [line.rstrip("\n") for line in f if line.strip()]
    for name in names:
        if name not in table:
            sys.exit(f"{sys.argv[0]}: no conversion named {name!r}")
    global _convert
    x = None if inputs == "every" else np.fromfile(inputs, dtype="<u4")
    sink = sys.stdout.buffer if out == "-" else open(out, "wb")
    try:
        for name in names:  # each conversion's codes in turn
            _convert = table[name][3]
            if x is not None:
                sink.write(codes_of(x))
            elif processes and (os.cpu_count() or 1) > 1:
                import multiprocessing
                with multiprocessing.get_context("fork").Pool(os.cpu_count()) as pool:  # forked after _convert is set
                    for codes in pool.imap(every_chunk_codes, range(0, 1 << 31, CHUNK_MAGNITUDES)):
                        sink.write(codes)
            else:
                for first in range(0, 1 << 31, CHUNK_MAGNITUDES):
                    sink.write(every_chunk_codes(first))
            sink.flush()
    except BrokenPipeError:  # flipcheck stopped reading (it found what it needed, or was stopped)
        os._exit(1)
    except ValueError as e:
        sys.exit(f"{name}: {e}")
    if sink is not sys.stdout.buffer:
        sink.close()


class Skip(str):
    """Return Skip("why") from a subject for an input the framework cannot take."""


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)
