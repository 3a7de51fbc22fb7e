#!/usr/bin/env python3
"""NumPy through flipcheck's adapter format (protocol.py): max, min, argmax, argmin, nanmax,
fmax.reduce and sort on float16, float32 and float64 (NumPy has no bfloat16); and the conversion
float32 -> float16 (astype), which NumPy documents as IEEE's round to nearest even.

NumPy picks its SIMD code at run time (AVX-512's sort, AVX2's argmax and min/max loops), so the audit
(`numpy_adapter.py CASES ANSWERS`) answers each subject once as NumPy dispatches by itself on this CPU
(the unlabelled name; the version says up to which feature: "1.24.2, dispatches up to AVX2") and once
per feature set below it, labelled: "numpy.sort [AVX512_SKX disabled]", "numpy.argmax <float64>
[baseline]" (docs/audit.md, "Per SIMD target"). NumPy reads NPY_DISABLE_CPU_FEATURES once, when it is
imported, so each set runs in a child Python of its own, started with the variable set, all of them
beside this process."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402

np = None
TYPES = {"binary16": ("float16", "uint16"), "binary32": ("float32", "uint32"), "binary64": ("float64", "uint64")}


def load():
    global np
    import numpy
    np = numpy
    return f"{numpy.__version__}, dispatches up to {top_feature()}"


def cpu_features():
    """(what this NumPy can dispatch to, in its order; what this CPU has and NumPy left enabled)."""
    try:
        from numpy._core import _multiarray_umath as m  # NumPy 2
    except ImportError:
        from numpy.core import _multiarray_umath as m
    dispatch = list(getattr(m, "__cpu_dispatch__", []))
    return dispatch, [f for f in dispatch if m.__cpu_features__.get(f)]


def top_feature():
    """The last dispatched feature NumPy uses on this CPU (as imported), or "baseline"."""
    on = cpu_features()[1]
    return on[-1] if on else "baseline"


# The x86 features NumPy builds dispatched code of these subjects for, best first, each with the
# subjects that code is (None: all): npysort's AVX-512 16-bit sorts (AVX512_ICL; AVX512_SPR's
# float16 sort, NumPy 2) and 32/64-bit sorts (AVX512_SKX; AVX2's from NumPy 2.0), the argmax/argmin
# and min/max loops (AVX512_SKX, AVX2, and SSE42 below AVX2, which "[AVX2 disabled]" reaches). NumPy
# 2.4 and later name the middle two by their x86-64 levels: X86_V4 (AVX512_SKX's set) and X86_V3
# (AVX2's). The two that only a 16-bit sort uses offer that subject alone: the other subjects' rows
# there would repeat the next set's at the cost of a child answering every case. Another
# architecture has the baseline set alone.
SORT16 = ("numpy.sort <float16>",)
TIERS = (("AVX512_SPR", SORT16), ("AVX512_ICL", SORT16), ("AVX512_SKX", None), ("X86_V4", None), ("AVX2", None), ("X86_V3", None))


def feature_sets():
    """[(label, features to disable, subjects or None for all)]: for each tier this CPU has, it and
    every feature NumPy lists after it that the CPU has (NumPy does not disable what a feature
    implies: AVX512_SKX stays on with AVX2 off unless listed); then every dispatched feature
    ("baseline": NumPy's baseline build, SSE SSE2 SSE3 on x86-64 for NumPy 1, X86_V2 for 2.4 and
    later), which a tier that disables them all would repeat. Only features this CPU has: NumPy
    refuses to disable the others."""
    dispatch, have = cpu_features()
    sets = []
    for tier, only in TIERS:
        if tier in have and have.index(tier) > 0:
            sets.append((f"{tier} disabled", have[have.index(tier):], only))
    if have:
        sets.append(("baseline", have, None))
    return sets


def array(fmt, bits):
    f, u = TYPES[fmt]
    return np.array(bits, dtype=u).view(f)


def bits(fmt, x):
    return int(np.asarray(x, dtype=TYPES[fmt][0]).reshape(()).view(TYPES[fmt][1]))


def subjects():
    out = []
    for fmt in TYPES:
        def value(f, fmt=fmt):
            return lambda b: bits(fmt, f(array(fmt, b)))

        def arg(f, fmt=fmt):
            return lambda b: int(f(array(fmt, b)))

        def sort(b, fmt=fmt):
            return np.sort(array(fmt, b)).view(TYPES[fmt][1]).tolist()

        out += [
            ("numpy.max", "value", "max", fmt, value(np.max)),
            ("numpy.min", "value", "min", fmt, value(np.min)),
            ("numpy.argmax", "arg", "max", fmt, arg(np.argmax)),
            ("numpy.argmin", "arg", "min", fmt, arg(np.argmin)),
            ("numpy.nanmax", "value", "max", fmt, value(np.nanmax)),
            ("numpy.fmax.reduce", "value", "max", fmt, value(np.fmax.reduce)),
            ("numpy.sort", "sort", "ascending", fmt, sort),
        ]
    return [(f"{n} <{TYPES[fmt][0]}>" if fmt != "binary32" else n, k, o, fmt, fn) for n, k, o, fmt, fn in out]


def conversions():
    return [("numpy astype(float16)", "binary32", "binary16", {"round": "nearest_even", "saturate": "infinity"},
             lambda b: b.view(np.float32).astype(np.float16).view(np.uint16))]


def labelled(label, only=None):
    return [(f"{name} [{label}]", *rest) for name, *rest in subjects() if only is None or name in only]


def feature_set_main(label, disabled, only, cases_path, out_path):
    """The child: NumPy imported with NPY_DISABLE_CPU_FEATURES set (by the parent) answers the
    labelled subjects (only: a JSON list of their names, or null for all). It refuses to answer if
    NumPy left one of those features enabled."""
    version = load()
    on = set(cpu_features()[1])
    still = [f for f in disabled.split() if f in on]
    if still:
        sys.exit(f"numpy_adapter.py: NPY_DISABLE_CPU_FEATURES={disabled!r} left {' '.join(still)} enabled")
    with open(cases_path) as f:
        doc = json.load(f)
    with open(out_path, "w") as f:
        f.write(json.dumps(protocol.answers_to("NumPy", version, labelled(label, json.loads(only)), doc)))


def audit_main(cases_path, answers_path):
    """`numpy_adapter.py CASES ANSWERS`: NumPy's own dispatch here, each feature set in a child
    started first, so that they answer while this process does."""
    try:
        version = load()
    except Exception as e:  # ImportError: no NumPy for this interpreter
        protocol.write(answers_path, protocol.not_installed("NumPy", e))
        return
    with tempfile.TemporaryDirectory(prefix="flipcheck_numpy_") as tmp:
        children = []
        try:
            for i, (label, disabled, only) in enumerate(feature_sets()):
                out = os.path.join(tmp, f"{i}.json")
                features = " ".join(disabled)
                env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=features)
                env.pop("NPY_ENABLE_CPU_FEATURES", None)  # NumPy 2 refuses both at once
                p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--feature-set", label, features,
                                      json.dumps(only and list(only)), cases_path, out], env=env, stderr=subprocess.PIPE, text=True)
                children.append((label, features, out, p))
            with open(cases_path) as f:
                doc = json.load(f)
            if doc.get("flipcheck_adapter") != 1:
                sys.exit(f"{cases_path}: not a flipcheck adapter cases file (version 1)")
            answers = protocol.answers_to("NumPy", version, subjects(), doc)
            rows = {s["name"]: [s] for s in answers["subjects"]}  # a subject's rows together: its own dispatch, then each set
            for label, features, out, p in children:
                _, err = p.communicate()
                if p.returncode != 0:
                    sys.exit(f"numpy_adapter.py: the child for [{label}] (NPY_DISABLE_CPU_FEATURES={features}) "
                             f"exited {p.returncode}: {err.strip()[-2000:]}")
                with open(out) as f:
                    for s in json.load(f)["subjects"]:
                        rows[s["name"].rsplit(" [", 1)[0]].append(s)
        finally:
            for *_, p in children:
                if p.poll() is None:
                    p.kill()
                    p.wait()
    answers["subjects"] = [s for row in rows.values() for s in row]
    with open(answers_path, "w") as f:
        f.write(json.dumps(answers))  # one-shot (C) encoding: json.dump would encode in Python


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "--feature-set":
        feature_set_main(*sys.argv[2:])
    elif len(sys.argv) == 3 and not sys.argv[1].startswith("--"):
        audit_main(sys.argv[1], sys.argv[2])
    else:  # --serve (flipcheck check) and the conversions: NumPy's own dispatch only
        protocol.main("NumPy", load, subjects, conversions, processes=True)
