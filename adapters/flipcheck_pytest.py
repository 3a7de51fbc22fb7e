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
          flipcheck=None):
    """Checks fn against `declares` ("nan=propagate zero=ordered ties=lowest_index"; zero defaults
    to ordered and ties to lowest_index). kind: "value" (a max or min: op says which), "arg" (its
    index) or "amax" (max |x|). format: binary16, bfloat16, binary32 or binary64. cases: random
    arrays (default 2000); seed: their seed (default 1); timeout: seconds one request may take
    (default 60: a function that hangs fails, and is interrupted a second later so that the test
    ends); case: a case file a failure wrote, to check that input alone."""
    __tracebackhide__ = True  # pytest shows the caller's line and the report, not this function's source
    if kind not in ("value", "arg", "amax"):
        raise ValueError(f"kind must be value, arg or amax, not {kind!r}")
    name = name or getattr(fn, "__name__", "subject")
    subjects = [(name, kind, "" if kind == "amax" else op, format, _bounded(fn, name, 60 if timeout is None else timeout), declares)]
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
                protocol.serve("flipcheck_pytest", "%d.%d.%d" % sys.version_info[:3], subjects, p.stdout, p.stdin)
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
        if code == 0:
            with open(verdict_path) as f:
                return json.load(f)
        if code == 1:
            raise CheckFailed(f"{name} breaks what it declares ({declares}):\n{text}")
        raise RuntimeError(f"flipcheck could not check {name} (exit {code}):\n{text}")


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
