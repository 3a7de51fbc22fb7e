"""One test per kernel: check a Python function (a Triton or PyTorch kernel's wrapper, or plain
Python) against the policy it declares, with flipcheck's stages, shrinking and replay.

    import flipcheck_pytest as fc

    def test_my_amax():
        fc.check(my_amax_bits, kind="amax", format="binary32", declares="nan=propagate")

    def test_my_argmax():
        fc.check(my_argmax_bits, kind="arg", op="max", format="binary32",
                 declares="nan=propagate zero=ordered ties=lowest_index")

The function takes the input's bit patterns (a list of ints: NaN payloads and signs matter, so
nothing goes through decimal) and returns the answer's bits (kind "value" or "amax") or an index
(kind "arg"); on no element it returns None or raises. `fc.bits_to_torch(bits, format)` and
`fc.torch_to_bits(tensor)` convert for a PyTorch or Triton kernel. check() starts
`flipcheck check --adapter-stdio` and answers its requests from this process, so the function runs
here, on this process's GPU, in the test's own state. It returns the verdict (the JSON of
`flipcheck check --json`) when the function keeps its policy, and raises `CheckFailed` (an
AssertionError, so pytest reports it as a failure) with flipcheck's report when it does not: the
shrunk counterexample, and a case file to replay it with `check(..., case="NAME.case")`.

Two ways (`both=`): the same function run compiled and by Triton's interpreter, or jitted and eager,
each checked (the same seed, so the same inputs) and their answers compared input by input:

    def test_my_argmax_both_ways():       # a Triton kernel's wrapper, compiled and TRITON_INTERPRET=1
        fc.check(my_argmax_bits, kind="arg", op="max", format="binary32",
                 declares="nan=propagate zero=ordered ties=lowest_index", both="interpreted")

    def test_my_max_jit_and_eager():      # a function that jits inside (jax.jit), and under jax.disable_jit()
        fc.check(my_jax_max_bits, kind="value", op="max", format="binary32",
                 declares="nan=propagate zero=ordered", both="eager")

both="interpreted" runs the function again in a process of its own started with TRITON_INTERPRET=1,
which imports the test's module (what it sets up when imported, kernels.load() say, is set up there
too) and the function's module afresh (Triton reads the variable when it decorates, its own tl.max
and tl.argmax included: a kernel cannot be interpreted in a process whose Triton compiles), so the
function must be reachable by its module and name (not a lambda or a nested function).
both="eager" runs it in this process under jax.disable_jit(). both=ANOTHER_FUNCTION takes any second
way (ways=("mine", "reference") names the two). It returns {"verdict", "ways": each way's verdict,
"compared", "differ", "first_difference"} when each way keeps its policy and they agree on every
input compared (every input the second way was asked, and the first way's failing case), and raises
CheckFailed with both reports and the first input where the answers differ (its bits in hex, as a
case: `check(..., case=FILE)` replays it) otherwise.

flipcheck is found as $FLIPCHECK, then `flipcheck` on PATH, then beside this file in an installed
copy (PREFIX/share/flipcheck/adapters -> PREFIX/bin/flipcheck). Put this folder on sys.path
(PYTHONPATH=PREFIX/share/flipcheck/adapters). It needs no pytest: any test runner works.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402


class CheckFailed(AssertionError):
    """The function broke its declared policy (or raised, or hung); the message is flipcheck's report."""


def find_flipcheck(explicit=None):
    here = os.path.dirname(os.path.abspath(__file__))
    for candidate in (explicit, os.environ.get("FLIPCHECK"), shutil.which("flipcheck"),
                      os.path.join(here, "..", "..", "..", "bin", "flipcheck")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise FileNotFoundError("flipcheck_pytest: no flipcheck binary: set $FLIPCHECK, put flipcheck on PATH, "
                            "or pass flipcheck=PATH")


def _bounded(fn, name, seconds):
    """fn, interrupted by a TimeoutError a second after flipcheck stops waiting for it. flipcheck
    cannot kill a function that runs in this process (it kills an adapter process), so without
    this a hung function left the test waiting forever. SIGALRM reaches Python code and sleeps; C
    code that never returns to Python (a kernel spinning on the GPU) it cannot interrupt. Only the
    main thread can take a signal handler: elsewhere fn runs unbounded."""
    if threading.current_thread() is not threading.main_thread():
        return fn
    timed_out = []  # once one call has: flipcheck has stopped waiting (it cannot restart this process)

    def call(*args, **kwargs):
        if timed_out:
            raise TimeoutError(f"an earlier call of {name} did not return within timeout={seconds} s")

        def expired(signum, frame):
            timed_out.append(True)
            raise TimeoutError(f"{name} did not return within timeout={seconds} s")
        previous = signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, float(seconds) + 1.0)
        try:
            return fn(*args, **kwargs)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    return call


def check(fn, *, kind, format, declares, op="max", name=None, cases=None, seed=None, timeout=None, case=None,
          flipcheck=None, both=None, ways=None):
    """Checks fn against `declares` ("nan=propagate zero=ordered ties=lowest_index"; zero defaults
    to ordered and ties to lowest_index). kind: "value" (a max or min: op says which), "arg" (its
    index) or "amax" (max |x|). format: binary16, bfloat16, binary32 or binary64. cases: random
    arrays (default 2000); seed: their seed (default 1); timeout: seconds one request may take
    (default 60: a function that hangs fails, and is interrupted a second later so that the test
    ends); case: a case file a failure wrote, to check that input alone. both: "interpreted"
    (Triton's interpreter), "eager" (jax.disable_jit()) or a function: fn run a second way too,
    each way checked and their answers compared (the module's docstring); ways: the two ways' names."""
    __tracebackhide__ = True  # pytest shows the caller's line and the report, not this function's source
    if os.environ.get(WORKER_ENV):
        raise RuntimeError("flipcheck_pytest.check was called while both=\"interpreted\"'s process imported the test's "
                           "module: call check inside a test function (or under if __name__ == \"__main__\"), not when "
                           "the module is imported")
    if kind not in ("value", "arg", "amax"):
        raise ValueError(f"kind must be value, arg or amax, not {kind!r}")
    name = name or getattr(fn, "__name__", "subject")
    if both is not None:
        return _check_both(fn, both, ways, kind=kind, format=format, declares=declares, op=op, name=name, cases=cases,
                           seed=seed, timeout=timeout, case=case, flipcheck=flipcheck)
    subjects = [(name, kind, "" if kind == "amax" else op, format, _bounded(fn, name, 60 if timeout is None else timeout), declares)]
    code, text, verdict = _run(subjects, name, None, cases=cases, seed=seed, timeout=timeout, case=case, flipcheck=flipcheck)
    if code == 0:
        return verdict
    if code == 1:
        raise CheckFailed(f"{name} breaks what it declares ({declares}):\n{text}")
    raise RuntimeError(f"flipcheck could not check {name} (exit {code}):\n{text}")


def _run(subjects, name, ways, *, cases, seed, timeout, case, flipcheck):
    """One `flipcheck check --adapter-stdio --subject NAME` answered from this process: (exit status,
    the report, the verdict's JSON or None). What it reports is written to standard output too."""
    command = [find_flipcheck(flipcheck), "check", "--adapter-stdio", "--subject", name]
    for option, v in (("--cases", cases), ("--seed", seed), ("--timeout", timeout), ("--case", case)):
        if v is not None:
            command += [option, str(v)]
    with tempfile.TemporaryDirectory(prefix="flipcheck_pytest_") as d:
        verdict_path, report_path = os.path.join(d, "verdict.json"), os.path.join(d, "report.txt")
        with open(report_path, "w") as report:
            p = subprocess.Popen(command + ["--json", verdict_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=report, text=True)
            try:
                protocol.serve("flipcheck_pytest", "%d.%d.%d" % sys.version_info[:3], subjects, p.stdout, p.stdin, ways)
            except BrokenPipeError:
                pass  # flipcheck stopped asking (it ended): its report says why
            finally:
                for f in (p.stdin, p.stdout):
                    try:
                        f.close()
                    except BrokenPipeError:
                        pass
                code = p.wait()
        with open(report_path) as f:
            text = f.read()
        sys.stdout.write(text)  # shown by pytest with -s, and with a failure
        verdict = None
        if code in (0, 1) and os.path.exists(verdict_path):
            with open(verdict_path) as f:
                verdict = json.load(f)
        return code, text, verdict


WORKER_ENV = "FLIPCHECK_PYTEST_INTERPRETED"  # set in both="interpreted"'s process

# The two ways' names by what both= says.
WAYS = {"interpreted": ("compiled", "interpreted"), "eager": ("jit", "eager")}


def eager(fn):
    """fn under jax.disable_jit(): the jits inside it (jax.jit, jax.numpy's own) turned off."""
    def run_eagerly(bits):
        import jax
        with jax.disable_jit():
            return fn(bits)
    run_eagerly.__name__ = getattr(fn, "__name__", "subject")
    return run_eagerly


def _caller():
    """(name, file) of the module whose code called into this one (the test that calls check)."""
    f = sys._getframe(1)
    here = os.path.abspath(__file__)
    while f is not None and os.path.abspath(f.f_globals.get("__file__") or here) == here:
        f = f.f_back
    if f is None or not f.f_globals.get("__file__"):
        return "", ""
    return f.f_globals.get("__name__", ""), os.path.abspath(f.f_globals["__file__"])


def interpreted(fn):
    """fn run in a process of its own, started with TRITON_INTERPRET=1, an input a call. That process
    imports the module of the test that calls check (so that what the test's module sets up when it
    is imported, kernels.load() say, is set up there too), then fn's module, afresh: their kernels are
    decorated for Triton's interpreter there, triton.language's included. fn must be reachable by its
    module and qualified name."""
    qualname = getattr(fn, "__qualname__", "")
    module = sys.modules.get(getattr(fn, "__module__", None) or "")
    path = getattr(module, "__file__", None)
    if not qualname or "<" in qualname or not path:
        raise ValueError(f"both=\"interpreted\" runs {getattr(fn, '__name__', fn)!r} in a process of its own, which finds it "
                         "by its module and name: pass a function defined at the top of a module (not a lambda, a nested "
                         "function or a partial), or pass both=A_FUNCTION")
    caller_name, caller_path = _caller()
    # This process's sys.path (the test's folders, this folder), so that the modules import as they did here.
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=os.pathsep.join(p for p in sys.path if isinstance(p, str) and p))
    env[WORKER_ENV] = "1"
    worker = protocol.Worker([sys.executable, os.path.abspath(__file__), "--serve-function", module.__name__,
                              os.path.abspath(path), qualname, caller_name, caller_path], env,
                             f"the interpreted {qualname} (TRITON_INTERPRET=1)")

    def run_interpreted(bits):
        return worker.call("fn", list(bits))
    run_interpreted.__name__ = getattr(fn, "__name__", "subject")
    run_interpreted.worker = worker
    return run_interpreted


def _module(name, path):
    """The module at `path`: imported by `name` where that finds this file, else already imported
    (by an earlier module, under any name), else loaded from the file."""
    import importlib
    import importlib.util

    def at(m):
        return m is not None and os.path.abspath(getattr(m, "__file__", None) or "") == path
    if name and name != "__main__":
        try:
            m = importlib.import_module(name)
            if at(m):
                return m
        except ImportError:
            pass
    for m in list(sys.modules.values()):
        if at(m):
            return m
    sys.path.insert(0, os.path.dirname(path))
    spec = importlib.util.spec_from_file_location(f"flipcheck_module_{len(sys.modules)}", path)
    m = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = m
    spec.loader.exec_module(m)
    return m


def _function_worker(module_name, path, qualname, caller_name="", caller_path=""):
    """The other side of interpreted(): this file run with --serve-function MODULE PATH QUALNAME
    [CALLER_MODULE CALLER_PATH]."""
    def setup():
        sys.argv = [caller_path or path]  # as if the module ran alone (not this file's arguments)
        if caller_path and caller_path != path:
            _module(caller_name, caller_path)
        fn = _module(module_name, path)
        for part in qualname.split("."):
            fn = getattr(fn, part)

        def call(bits):
            a = fn(bits)
            if a is None:
                return None
            return [int(x) for x in a] if isinstance(a, (list, tuple)) else int(a)
        return f"{qualname} from {path} (TRITON_INTERPRET={os.environ.get('TRITON_INTERPRET')})", {"fn": call}
    protocol.worker_main(setup)


def _check_both(fn, both, ways, *, kind, format, declares, op, name, cases, seed, timeout, case, flipcheck):
    __tracebackhide__ = True
    if isinstance(both, str):
        if both not in WAYS:
            raise ValueError(f"both must be \"interpreted\", \"eager\" or a function, not {both!r}")
        other = interpreted(fn) if both == "interpreted" else eager(fn)
        ways = ways or WAYS[both]
    else:
        if not callable(both):
            raise ValueError(f"both must be \"interpreted\", \"eager\" or a function, not {both!r}")
        other = both
        ways = ways or ("first", "second")
    if len(ways) != 2 or ways[0] == ways[1]:
        raise ValueError(f"ways must name two different ways, not {ways!r}")
    seconds = 60 if timeout is None else timeout
    names = [protocol.way_name(name, w) for w in ways]
    subjects = [(n, kind, "" if kind == "amax" else op, format, _bounded(f, n, seconds), declares) for n, f in zip(names, (fn, other))]
    comparison = protocol.WayComparison(subjects)
    runs = []
    try:
        for i, n in enumerate(names):
            code, text, verdict = _run(subjects, n, comparison, cases=cases, seed=seed, timeout=timeout, case=case,
                                       flipcheck=flipcheck)
            if code not in (0, 1):
                raise RuntimeError(f"flipcheck could not check {n} (exit {code}):\n{text}")
            runs.append((code, text, verdict))
        # The first way's failing case, which the second way may not have been asked (it failed first).
        failing = ((runs[0][2] or {}).get("subjects") or [{}])[0].get("case")
        if failing:
            bits = [int(w, 0) for w in failing.split(":", 1)[-1].split(" order ")[0].replace(",", " ").split()]
            comparison.note(names[1], kind, format, bits, protocol.answer_of(subjects[1][4], kind, bits))
    finally:
        if hasattr(other, "worker"):
            other.worker.close()
    s = comparison.stats.get(names[1], {"compared": 0, "differ": 0, "first": None})
    result = {"verdict": "pass" if all(r[0] == 0 for r in runs) and not s["differ"] else "fail", "subject": name,
              "ways": {w: r[2] for w, r in zip(ways, runs)}, "compared": s["compared"], "differ": s["differ"],
              "first_difference": s["first"]}
    if result["verdict"] == "pass":
        return result
    lines = [f"{name} run two ways (declares {declares}): " + ", ".join(f"{w} {'pass' if r[0] == 0 else 'FAIL'}" for w, r in zip(ways, runs))]
    if s["first"]:
        d = s["first"]
        lines += [f"  they differ on {s['differ']} of {s['compared']} inputs compared; the first, n={d['n']}:",
                  f"  case: {d['case']}",
                  f"    {ways[0]}: {d['reference_answer']}",
                  f"    {ways[1]}: {d['answer']}"]
    else:
        lines.append(f"  they agree on all {s['compared']} inputs compared")
    for w, r in zip(ways, runs):
        lines += [f"--- {w} ---", r[1].rstrip()]
    error = CheckFailed("\n".join(lines))
    error.result = result
    raise error


def torch_dtype(format):
    import torch
    return {"binary16": torch.float16, "bfloat16": torch.bfloat16, "binary32": torch.float32,
            "binary64": torch.float64}[format]


def bits_to_torch(bits, format, device="cuda"):
    """The floats whose bit patterns are `bits`, as a tensor of the format's dtype on `device`."""
    import torch
    width = {"binary16": 16, "bfloat16": 16, "binary32": 32, "binary64": 64}[format]
    signed = [b - (1 << width) if b >> (width - 1) else b for b in bits]  # torch has no unsigned view
    ints = torch.tensor(signed, dtype={16: torch.int16, 32: torch.int32, 64: torch.int64}[width])
    return ints.view(torch_dtype(format)).to(device)


def torch_to_bits(t):
    """The bit pattern of a one-element tensor (or scalar tensor) of a float dtype."""
    import torch
    t = t.detach().reshape(-1)[:1].cpu()
    width = t.element_size() * 8
    v = int(t.view({2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]).item())
    return v & ((1 << width) - 1)


if __name__ == "__main__" and len(sys.argv) in (5, 7) and sys.argv[1] == "--serve-function":
    _function_worker(*sys.argv[2:])
