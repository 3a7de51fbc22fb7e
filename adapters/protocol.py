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

Two ways (docs/adapters.md, "Two ways"): an adapter that can run a subject two ways (Triton compiled
or interpreted, JAX jitted or eager) lists it as "NAME [way]" for each when both_ways() (by default
under --serve; $FLIPCHECK_WAYS=both or one decides), the first way first; with $FLIPCHECK_WAYS_LOG=FILE
a served adapter compares each answer of a second way with the first way's (WayComparison). Worker
and worker_main run functions in a child process started with another environment.
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


def answer_of(fn, kind, bits):
    """fn's answer to one input (a list of ints) as the wire writes it: a hex string (value, amax), an
    index (arg), a list of hex strings (sort), None, {"error": text} or {"skip": why}."""
    try:
        a = fn(bits)
        if isinstance(a, Skip):
            return {"skip": str(a)}
        if a is None:
            return None
        return [hex(x) for x in a] if kind == "sort" else (int(a) if kind == "arg" else hex(int(a)))
    except Exception as e:
        return {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}


def answers_to(framework, version, subjects, doc, ways=None):
    """The answers document for a cases document: every subject's answers to the cases of its
    format and use (only the subject named by "subject", where the request names one). ways (a
    WayComparison): each answer of a subject's second way is compared with its first way's."""
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
            answers[str(cid)] = a = answer_of(fn, kind, bits)
            if ways is not None:
                ways.note(name, kind, fmt, bits, a)
        entry = {"name": name, "kind": kind, "op": op, "format": fmt, "answers": answers}
        if declares and declares[0]:
            entry["declares"] = declares[0]
        out.append(entry)
    if ways is not None:
        ways.flush()
    return {"framework": framework, "installed": True, "version": version, "subjects": out}


def serve(framework, version, subjects, requests, answers, ways=None):
    """Answers flipcheck's requests, a cases document a line, with an answers document a line,
    until the requests end (`flipcheck check --adapter`: adapters/README.md)."""
    for line in requests:
        if not line.strip():
            continue
        doc = json.loads(line)
        if doc.get("flipcheck_adapter") != 1:
            raise SystemExit("flipcheck adapter: a request that is not a cases document (version 1)")
        answers.write(json.dumps(answers_to(framework, version, subjects, doc, ways)) + "\n")
        answers.flush()


SERVING = False  # True in `ADAPTER --serve` (flipcheck check), from before load() on


def serve_main(framework, load, subjects_of):
    global SERVING
    SERVING = True
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
    serve(framework, version, subjects, sys.stdin, answers, WayComparison.from_environment(subjects))


# Two ways to run one subject (Triton compiled or interpreted, JAX jitted or eager): an adapter lists
# each subject twice, "NAME [way]" (the first listed way is the reference), when both_ways() says so.
WAYS_ENV = "FLIPCHECK_WAYS"          # "both": every subject both ways; "one": one way, the names unlabelled
WAYS_LOG_ENV = "FLIPCHECK_WAYS_LOG"  # a file: compare each second way's answers with the first way's there


def both_ways():
    """Whether an adapter that can run its subjects two ways lists each twice, labelled: by default
    when serving `flipcheck check --adapter` (`ADAPTER --serve`), not in the audit (whose rows and
    replay lines name the subjects unlabelled); $FLIPCHECK_WAYS=both or one decides instead."""
    choice = os.environ.get(WAYS_ENV, "").strip().lower()
    if choice in ("both", "two", "1", "yes"):
        return True
    if choice in ("one", "0", "no"):
        return False
    return SERVING


def way_name(name, way):
    return name if way is None else f"{name} [{way}]"


def split_way(name):
    """"tl.max <float32> [interpreted]" -> ("tl.max <float32>", "interpreted"); an unlabelled name -> (name, None)."""
    if name.endswith("]") and " [" in name:
        base, way = name[:-1].rsplit(" [", 1)
        return base, way
    return name, None


def hex_bits(b, fmt):
    return "0x" + format(b, "0%dx" % (WIDTH.get(fmt, 32) // 4))


def case_text(fmt, bits):
    """The input as flipcheck writes a case ("binary32: 0x7fc00000,0x00000000"; `--case FILE` replays it)."""
    return f"{fmt}: " + ",".join(hex_bits(b, fmt) for b in bits)


def show_answer(a, kind, fmt, bits):
    """An answer as the wire writes it, for a person: bits in hex, an index with its element."""
    if a is None:
        return "no answer"
    if isinstance(a, dict):
        return f"raised {a['error']}" if "error" in a else f"skipped ({a.get('skip')})"
    if kind == "arg":
        return f"index {a}" + (f" ({hex_bits(bits[a], fmt)})" if 0 <= a < len(bits) else " (past the end)")
    if kind == "sort":
        return "[" + ",".join(hex_bits(int(x, 16), fmt) for x in a) + "]"
    return hex_bits(int(a, 16), fmt)


def same_answer(a, b, bits):
    """Two ways agree: the same bits or index, or both raised (whatever the text), or on no element
    neither answered (None and raising are both no answer there)."""
    if isinstance(a, dict) and "error" in a and isinstance(b, dict) and "error" in b:
        return True
    if not bits and all(x is None or (isinstance(x, dict) and "error" in x) for x in (a, b)):
        return True
    if isinstance(a, str) and isinstance(b, str):
        return int(a, 16) == int(b, 16)
    if isinstance(a, list) and isinstance(b, list):
        return [int(x, 16) for x in a] == [int(x, 16) for x in b]
    return a == b


_MISSING = object()


class WayComparison:
    """Each answer of a subject's second way ("NAME [interpreted]") compared with what its first way
    ("NAME [compiled]", the first of NAME's listed; "NAME" itself where the adapter lists it)
    answered to the same input (kept from when it was asked, else asked then): the inputs compared
    are every input flipcheck asks the second way. Counts and the first difference per subject in
    `stats`; with a log, one JSON line per first difference and a running count after each request
    (scripts/device_interpreters.sh reads them)."""

    KEPT = 1 << 20  # the first ways' answers kept, by input (the oldest subject's dropped past it)

    def __init__(self, subjects, log=None):
        self.reference = {}
        fns = {name: fn for name, kind, op, fmt, fn, *rest in subjects}
        for name, kind, op, fmt, fn, *rest in subjects:
            base, way = split_way(name)
            if way is not None and base not in self.reference:
                # The unlabelled subject of the same name where the adapter lists one (a default and
                # its labelled variants), else the first labelled way.
                self.reference[base] = (base, fns[base]) if base in fns else (name, fn)
        self.stats = {}
        self.log = log
        self._dirty = set()
        # What each first way answered (flipcheck asks a subject's ways one after the other, the
        # same inputs in the same order until one fails): the second way's inputs are looked up
        # there, and only the others asked of the first way again.
        self._answers = {}
        self._kept = 0

    @staticmethod
    def _key(bits):
        import hashlib
        from array import array
        return hashlib.blake2b(array("Q", bits).tobytes(), digest_size=16).digest() + len(bits).to_bytes(8, "little")

    @classmethod
    def from_environment(cls, subjects):
        path = os.environ.get(WAYS_LOG_ENV)
        return cls(subjects, path) if path else None

    def note(self, name, kind, fmt, bits, answer):
        base, way = split_way(name)
        ref = self.reference.get(base)
        if ref is None:
            return
        if ref[0] == name:
            if self._kept >= self.KEPT:  # the oldest subject's answers go (dicts keep their order)
                self._kept -= len(self._answers.pop(next(iter(self._answers))))
            kept = self._answers.setdefault(base, {})
            size = len(kept)
            kept[self._key(bits)] = answer
            self._kept += len(kept) - size
            return
        if way is None:
            return
        r = self._answers.get(base, {}).get(self._key(bits), _MISSING)
        if r is _MISSING:
            r = answer_of(ref[1], kind, bits)
        s = self.stats.setdefault(name, {"subject": name, "reference": ref[0], "compared": 0, "differ": 0, "first": None})
        s["compared"] += 1
        self._dirty.add(name)
        if same_answer(r, answer, bits):
            return
        s["differ"] += 1
        if s["first"] is None:
            s["first"] = {"case": case_text(fmt, bits), "n": len(bits), "kind": kind, "format": fmt,
                          "answer": show_answer(answer, kind, fmt, bits), "reference_answer": show_answer(r, kind, fmt, bits)}
            self._write({"event": "difference", "subject": name, "reference": ref[0], **s["first"]})
            print(f"{name} and {ref[0]} differ on {s['first']['case'] if len(bits) <= 16 else f'an array of {len(bits)}'}: "
                  f"{s['first']['answer']} and {s['first']['reference_answer']}", file=sys.stderr)

    def flush(self):
        for name in sorted(self._dirty):
            s = self.stats[name]
            self._write({"event": "count", "pid": os.getpid(), "subject": name, "reference": s["reference"],
                         "compared": s["compared"], "differ": s["differ"]})
        self._dirty.clear()

    def _write(self, record):
        if self.log:
            with open(self.log, "a") as f:
                f.write(json.dumps(record) + "\n")


class RemoteError(Exception):
    """What a Worker's function raised, named as it was there (the answer's error text keeps the type)."""


_remote_types = {}


def _remote(type_name, text):
    if type_name not in _remote_types:
        _remote_types[type_name] = type(type_name, (RemoteError,), {})
    return _remote_types[type_name](text)


class Worker:
    """Functions run in a child process that answers one JSON line a call: what must not share
    this process (Triton's interpreter reads TRITON_INTERPRET when triton is imported, so an
    interpreted twin needs a process whose Triton was imported with it). The child is `argv` with
    `env`, and calls worker_main. It is started by start() or the first call, and again after a call
    that did not come back (its process exited, or the call was interrupted: a timeout); a child
    that could not set up (worker_main's setup raised, or it exited first) is not started again:
    every call raises what it said."""

    def __init__(self, argv, env=None, what="the worker process"):
        self.argv, self.env, self.what = list(argv), env, what
        self.p = None
        self.info = None
        self.broken = None  # the exception of a child that could not set up

    def start(self):
        import subprocess
        if self.broken is not None:
            raise self.broken
        self.p = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=self.env, text=True)
        try:
            hello = self._reply()
        except RuntimeError as e:
            self.broken = e
            raise
        if "error" in hello:
            self.close()
            self.broken = _remote(*hello["error"])
            raise self.broken
        self.info = hello.get("ready")
        return self.info

    def _reply(self):
        line = self.p.stdout.readline()
        if not line:
            code = self.p.wait()
            self.p = None
            raise RuntimeError(f"{self.what} exited (status {code}) without answering")
        return json.loads(line)

    def call(self, name, *args):
        if self.p is None:
            self.start()
        try:
            self.p.stdin.write(json.dumps({"call": name, "args": list(args)}) + "\n")
            self.p.stdin.flush()
            reply = self._reply()
        except BaseException:  # a broken pipe, or an interruption (a timeout) with the answer still coming: start afresh
            self.close()
            raise
        if "error" in reply:
            raise _remote(*reply["error"])
        return reply["ok"]

    def close(self):
        if self.p is not None:
            try:
                self.p.kill()
                self.p.wait()
            except Exception:  # noqa: BLE001 - already gone
                pass
            self.p = None


def worker_main(setup):
    """The child side of a Worker: setup() returns (info, {name: function}); then each request line
    {"call": name, "args": [...]} is answered {"ok": result} or {"error": [type, text]}, until the
    requests end. What the functions print goes to standard error."""
    replies = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr

    def reply(doc):
        replies.write(json.dumps(doc) + "\n")
        replies.flush()

    def error_of(e):
        return [type(e).__name__, str(e).splitlines()[0] if str(e) else ""]
    try:
        info, functions = setup()
    except Exception as e:  # noqa: BLE001 - the caller raises it
        reply({"error": error_of(e)})
        return
    reply({"ready": info})
    warnings.simplefilter("ignore")
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            reply({"ok": functions[request["call"]](*request["args"])})
        except Exception as e:  # noqa: BLE001 - answered as the error it is
            reply({"error": error_of(e)})


# Every binary32 pattern in the walk's order, in chunks of magnitudes (+ then - each). A CPU
# conversion takes 2^16 magnitudes at a time: its arrays (1 MiB or less) stay in the cache and in
# the allocator's heap. A device's conversion (walk_chunk_codes below) takes 2^24, so that each
# launch and copy has work enough.
CPU_CHUNK_MAGNITUDES = 1 << 16
DEVICE_CHUNK_MAGNITUDES = 1 << 24


def keep_freed_memory():
    """glibc gives a freed array larger than its thresholds back to the system, and the next chunk's
    array faults every page in again: over half of an adapter's time streaming 2^32 inputs on the
    2-core machine (bench/RESULTS.md, "The conversion stream"). Keep freed memory in the heap."""
    import ctypes
    try:
        libc = ctypes.CDLL(None)
        libc.mallopt(-1, 1 << 30)  # M_TRIM_THRESHOLD: never give the heap's top back below 1 GiB
        libc.mallopt(-3, 1 << 25)  # M_MMAP_THRESHOLD: arrays up to 32 MiB (glibc's most) from the heap
    except (OSError, AttributeError):  # not glibc: its allocator decides
        pass


def walk_chunk(first, n):
    import numpy as np
    m = np.arange(first, first + n, dtype=np.uint32)
    x = np.empty(2 * n, dtype=np.uint32)
    x[0::2] = m
    x[1::2] = m | np.uint32(0x80000000)
    return x


_convert = None  # the conversion a worker process runs (inherited through fork)


def little_endian_bytes(codes):
    return codes.astype(codes.dtype.newbyteorder("<"), copy=False).tobytes()


def codes_of(x):
    import numpy as np
    codes = np.ascontiguousarray(_convert(x))
    if codes.shape != x.shape:
        raise ValueError(f"{codes.size} codes for {x.size} inputs")
    return little_endian_bytes(codes)


def on_device():
    # A GPU framework makes the chunk's inputs on its device (fn.walk_chunk_codes(first, n) returns
    # the codes of magnitudes [first, first + n), + then -), which saves the copy of the inputs.
    return getattr(_convert, "walk_chunk_codes", None) is not None


def chunk_magnitudes():
    return DEVICE_CHUNK_MAGNITUDES if on_device() else CPU_CHUNK_MAGNITUDES


def every_chunk_codes(first):
    n = chunk_magnitudes()
    if on_device():
        import numpy as np
        codes = np.ascontiguousarray(_convert.walk_chunk_codes(first, n))
        if codes.size != 2 * n:
            raise ValueError(f"{codes.size} codes for {2 * n} inputs")
        return little_endian_bytes(codes)
    return codes_of(walk_chunk(first, n))


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
    keep_freed_memory()
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
                    # 16 chunks a task: one message each way per 2^21 inputs, not per chunk.
                    for codes in pool.imap(every_chunk_codes, range(0, 1 << 31, chunk_magnitudes()), chunksize=16):
                        sink.write(codes)
            else:
                for first in range(0, 1 << 31, chunk_magnitudes()):
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
